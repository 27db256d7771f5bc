"""What a PDF page's lines are: running headers and footers, numbered section headings.

PDFium returns a page's text line by line, with nothing saying what a line is. Manuals,
reports and papers set two kinds of line apart by layout alone:

- a running header or footer, repeated at the top or the bottom of page after page, mostly
  with the page number ("Chapter 2: Simple manipulations; numbers and vectors 10", a bare
  "33"). Read as text it ran into the sentence below it, and the extractive writer quoted
  "Chapter 2: Simple manipulations; numbers and vectors 10 The construction 30:1 may be
  used to generate a sequence backwards" from R's manual;
- a numbered section heading on a line of its own ("6.3.1 Making data frames"). With no
  blank line around it, it opened the sentence below ("6.3.1 Making data frames Objects
  satisfying the restrictions …"), and no chunk's heading path named its section.

`laid_out` drops the running lines (`running`) and sets each numbered heading apart by a
blank line on either side (`numbered_heading`; LaTeX's "Chapter 4" over its title,
`chapter_heading`; papers' headings in capitals, "REFERENCES", `capitals_heading`),
returning where the headings are so that the loader can open a section at each. Papers
set headings as manuals do not ("1 INTRODUCTION" after a keywords line, Elsevier's "1.
Introduction"), so a heading is told by two signs of four (`numbered_heading`).

A line is running when it stands first or last on its page (after any running
line above or below it) and either its text, but for a number ending or opening it, stands
there on a run of at least `REPEATS` pages each at most `NEARBY` from the next (`_runs`),
or it ends with a page number that the same place on a page nearby continues (n on page
p, n + 1 on page p + 1, n + 2 on page p + 2: printed numbers run with the pages, a table's
last cell does not). Other numbers count: "Page 1 line 1 …" and "Page 2 line 1 …" are two
lines, and so are two log lines opening with their times. A box set beside the text of
every page (Elsevier's documentation repeats its version, contact and "QUICK LINKS" in the
margin of each) is running too, wherever it stands (`_repeated_blocks`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from citesynth.ingest.blocks import SECTION_NUMBER
from citesynth.ingest.sentences import CONSOLE_LINE

REPEATS = 3
"""On how many pages a line must stand first (or last), numbers aside, to be running."""
NEARBY = 2
"""How many pages away a page number may be continued (a header may alternate sides)."""
_MOST_LONE_WORDS = 10
"""The most words a running line whose text stands on no other page may have: a one-page
chapter's header ("Acknowledgements 2"), not a sentence PDFium ran into the footer ("When
rotating the directory stack, pushd returns 0 unless … a nonGNU Bash 5.2 … 47")."""
_EDGE_LINES = 2
"""How many lines at the top (and at the bottom) of a page may be running."""
_BLOCK_LINES = 5
"""The fewest lines in a row a box repeated beside the text of every page has (Elsevier's
has 15)."""
_LETTER = re.compile(r"[^\W\d_]")

_ROMAN = re.compile(r"(?i:m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3}))")
_WRITTEN_NUMBER = r"(\d{1,4}|[ivxlc]{1,7}|[IVXLC]{1,7})"
_ENDING_NUMBER = re.compile(rf"(?:^|\s){_WRITTEN_NUMBER}\s*$")
_OPENING_NUMBER = re.compile(rf"^\s*{_WRITTEN_NUMBER}(?:\s|$)")
"""A number ending or opening a line: a page number, arabic or roman."""
_HEADING = re.compile(rf"(?P<number>{SECTION_NUMBER})[ \t]+(?P<title>[A-Z][^\n]{{0,78}})")
"""A numbered section heading: "2.2 Vector arithmetic", "7 Reading data from files",
"A.1 Installation"; not "1. Precision", an item of a numbered list."""
_DOTTED = re.compile(r"(?P<number>\d{1,2}\.)[ \t]+(?P<title>[A-Z][^\n]{0,78})")
"""A section number with a stop, as Elsevier sets them ("1. Introduction"), or a list's item."""
_LETTERED = re.compile(r"(?P<number>[A-Z]\.?)[ \t]+(?P<title>[A-Z][^\n]{0,78})")
"""An appendix's letter before its title: "A RESEARCH METHODS", "A. Modularization
examples" (a journal writing its numbers with a stop)."""
_NUMBER = re.compile(rf"{SECTION_NUMBER}|\d{{1,2}}\.|[A-Z]\.?")
_STOPPED = re.compile(r"""[.!:;,]["'”’)\]]*\s*$""")
"""A line ending with a stop, maybe inside quotes or brackets: a sentence, not a heading
("12.1 The “Teaser Figure”" is one)."""
_LIST_ITEM = re.compile(r"(?:\d{1,2}[.)]|\(\w{1,3}\))[ \t]")
_FILE_NAME = re.compile(r"[a-z][\w-]*\.[a-z]{1,4}\b")
"""A file's name opening a sentence: "elsarticle.cls is a thoroughly re-written …"."""
_MOST_UNSET_WORDS = 8
"""The most words a heading may have without a line above ending a sentence, nor capitals: a
wrapped line of prose is longer."""
_TABLE_ROWS = 3
_RUN_IN = re.compile(r"[a-z]\. [A-Z]")
SECTION_NAMES = frozenset(
    """ABSTRACT INTRODUCTION BACKGROUND METHODS METHODOLOGY MATERIALS RESULTS DISCUSSION
    EVALUATION EXPERIMENTS CONCLUSION CONCLUSIONS SUMMARY ACKNOWLEDGEMENTS ACKNOWLEDGMENTS
    ACKNOWLEDGEMENT ACKNOWLEDGMENT REFERENCES BIBLIOGRAPHY APPENDIX APPENDICES KEYWORDS
    CONTENTS PREFACE FOREWORD GLOSSARY INDEX NOTES NAME SYNOPSIS DESCRIPTION OPTIONS
    ARGUMENTS EXAMPLES ENVIRONMENT FILES DIAGNOSTICS BUGS AUTHOR AUTHORS COPYRIGHT HISTORY
    CAVEATS""".split()
)
"""The one-word headings in capitals that papers (IMRaD's) and manual pages share."""
_TITLED = frozenset(
    """ABSTRACT ACKNOWLEDGEMENTS ACKNOWLEDGMENTS ACKNOWLEDGEMENT ACKNOWLEDGMENT REFERENCES
    BIBLIOGRAPHY""".split()
)
"""The one-word headings a journal sets as titles ("Abstract", "References": the Journal
of Statistical Software's); others in title case ("Examples", "Preface") are as often a
label inside a section."""
_CAPITALS = re.compile(r"[A-Z][A-Z&’'/,:\- ]*[A-Z]")
_CAPITALS_WORD = re.compile(r"[A-Z]{4}")
_MOST_CAPITALS_WORDS = 8
_MOST_LETTERED = 8
"""The most words of an appendix's title after its letter and stop ("A. Simulation results
for panel data with AR(1) correlations"); an initial opening a line of prose has more."""
_CHAPTER = re.compile(r"(?:Chapter|CHAPTER|Appendix|APPENDIX)[ \t]+(?:\d{1,2}|[A-Z])")
"""A chapter's number on a line of its own, its title on the next."""
_ENDS_SENTENCE = re.compile(r"""[.!?:;)\]"'”’]\s*$""")
_LEADER = re.compile(r"(?:\.\s?){4,}")
"""A table of contents' dot leader: "Vector arithmetic . . . . . . 9"."""
_MOST_HEADING_WORDS = 12
_WORD = re.compile(r"[^\W\d_]{3}")
"""A word of three letters: a heading names something; a row of data ("4 NA NA NA NA") need not."""
_PAGE_REFERENCE = re.compile(r"[^\W\d_]\s+\d{1,4}$")
"""A line ending in a word and a page number, as a table of contents' lines do."""


@dataclass(frozen=True, slots=True)
class Heading:
    """A numbered heading of a laid-out page: `text[start:end]`, its level in the outline."""

    start: int
    end: int
    level: int
    number: tuple[str, ...] = ()
    """Its section number: ("6", "3", "1") for "6.3.1 Making data frames"."""


@dataclass(frozen=True, slots=True)
class LaidOutPage:
    """A page's text without its running lines, its headings set apart by blank lines."""

    text: str
    headings: tuple[Heading, ...]


def laid_out(pages: Sequence[str]) -> tuple[LaidOutPage, ...]:
    """Each page's text read for its layout (see the module docstring).

    A heading's level is one more than the number of open headings whose numbers its own
    continues: "7.31" under "7" is at level 2, but "7.31" under "4" (chapter 7's heading
    missed) is at level 1 and closes chapter 4. An unnumbered heading ("REFERENCES") is at
    level 1 and closes every other; it stands with others, or it is none: gnuplot's manual
    sets its headings in bold but "AUTHORS" in capitals, which would head its 290 pages
    after it. An abstract's heading before any numbered heading may stand alone (it heads
    only the abstract: lme4's "PLSvGLS" has no references); one inside section 4 of a
    thesis's tutorial would close the chapter.
    """
    lines = [page.split("\n") for page in pages]
    dropped = running(lines)
    laid = _laid_out(lines, dropped, capitals=True)
    headings = [(page, h) for page in laid for h in page.headings]
    unnumbered = [at for at, (_, h) in enumerate(headings) if not h.number]
    first = next((at for at, (_, h) in enumerate(headings) if h.number), len(headings))
    front = [page.text[h.start : h.end].strip().rstrip(":").lower() for page, h in headings[:first]]
    if len(unnumbered) < 2 and front != ["abstract"]:
        return _laid_out(lines, dropped, capitals=False)
    return laid


def _laid_out(
    lines: Sequence[list[str]], dropped: Sequence[set[int]], capitals: bool
) -> tuple[LaidOutPage, ...]:
    opened: list[tuple[str, ...]] = []
    previous = ""
    laid: list[LaidOutPage] = []
    for index, page_lines in enumerate(lines):
        following = _first_kept(lines, dropped, index + 1)
        page, previous = _page(page_lines, dropped[index], previous, capitals, following)
        headings = []
        for heading in page.headings:
            number = heading.number
            opened = [n for n in opened if len(n) < len(number) and number[: len(n)] == n]
            headings.append(Heading(heading.start, heading.end, len(opened) + 1, number))
            if number:
                opened.append(number)
        laid.append(LaidOutPage(page.text, tuple(headings)))
    return tuple(laid)


def running(pages: Sequence[Sequence[str]]) -> list[set[int]]:
    """Per page, the indexes of its lines that are running headers or footers."""
    found: list[set[int]] = [set() for _ in pages]
    for from_top in (True, False):
        for _ in range(_EDGE_LINES):
            edges = [_edge(lines, found[index], from_top) for index, lines in enumerate(pages)]
            texts = [None if at is None else pages[i][at] for i, at in enumerate(edges)]
            written = [None if text is None else _key(text) for text in texts]
            keys = Counter(key for key in written if key is not None)
            numbers = [
                None if text is None or key is None else _page_number(text, keys[key] > 1)
                for text, key in zip(texts, written, strict=True)
            ]
            runs = _runs(written)
            for index, at in enumerate(edges):
                key = written[index]
                if at is None or key is None:
                    continue
                alone = keys[key] == 1 and len(key.split()) > _MOST_LONE_WORDS
                if runs[index] >= REPEATS or (_continued(numbers, index) and not alone):
                    found[index].add(at)
    for index, lines in enumerate(_repeated_blocks(pages, found)):
        found[index] |= lines
    for index, at in _titles_with_numbers(pages, found):
        found[index].add(at)
    return found


def _titles_with_numbers(
    pages: Sequence[Sequence[str]], found: list[set[int]]
) -> list[tuple[int, int]]:
    """The pages' first lines that repeat the first page's first line with the page's number.

    "2 zoo Design" heads page 2 of the two pages of zoo's "zoo Design": too short a paper
    for a header to repeat, it had run into the sentence it breaks ("… these typically get
    2 zoo Design fixed immediately …").
    """
    title = next((_key(line) for line in pages[0] if line.strip()), "") if pages else ""
    if len(title.split()) < 2:  # "2 Methods" atop page 2 may be a section
        return []
    headers: list[tuple[int, int]] = []
    for index, lines in enumerate(pages[1:], start=1):
        at = _edge(lines, found[index], True)
        if at is None:
            continue
        line = " ".join(lines[at].lower().split())
        if line in (f"{index + 1} {title}", f"{title} {index + 1}"):
            headers.append((index, at))
    return headers


def _repeated_blocks(pages: Sequence[Sequence[str]], found: list[set[int]]) -> list[set[int]]:
    """Per page, the lines of its blocks repeated beside the text of every page.

    A block is `_BLOCK_LINES` lines in a row or more, each with a letter, whose texts
    (numbers aside), in that order, stand on half the pages or more (and on `REPEATS` at
    least). Lines repeated apart are no box: a table's "Yes" and "No" cells, a code
    example's imports over pages of examples.
    """
    keys = [
        [(_key(line) if at not in found[index] else "") for at, line in enumerate(lines)]
        for index, lines in enumerate(pages)
    ]
    runs = [_windows(page_keys) for page_keys in keys]
    pages_with: Counter[tuple[str, ...]] = Counter()
    for page_runs in runs:
        pages_with.update({run for _, run in page_runs})
    least = max(REPEATS, len(pages) / 2)
    blocks: list[set[int]] = []
    for page_runs in runs:
        lines: set[int] = set()
        for at, run in page_runs:
            if pages_with[run] >= least:
                lines.update(range(at, at + _BLOCK_LINES))
        blocks.append(lines)
    return blocks


def _windows(keys: Sequence[str]) -> list[tuple[int, tuple[str, ...]]]:
    """Each run of `_BLOCK_LINES` keys in a row on a page, every one with a letter."""
    return [
        (at, tuple(keys[at : at + _BLOCK_LINES]))
        for at in range(len(keys) - _BLOCK_LINES + 1)
        if all(_LETTER.search(key) for key in keys[at : at + _BLOCK_LINES])
    ]


def _runs(keys: Sequence[str | None]) -> list[int]:
    """Per page, how long the run of pages with its line at that place is.

    Each page of a run is at most `NEARBY` pages from the next. A running line stands on
    pages in a row (or every other page); a label that happens to end a few pages of a long
    manual ("Example:" on gnuplot's pages 173 and 175) does not.
    """
    where: dict[str, list[int]] = {}
    for index, key in enumerate(keys):
        if key is not None:
            where.setdefault(key, []).append(index)
    lengths = [0] * len(keys)
    for pages in where.values():
        first = 0
        for at in range(1, len(pages) + 1):
            if at == len(pages) or pages[at] - pages[at - 1] > NEARBY:
                for page in pages[first:at]:
                    lengths[page] = at - first
                first = at
    return lengths


def _edge(lines: Sequence[str], dropped: set[int], from_top: bool) -> int | None:
    """The index of the first (or last) non-blank line not dropped yet."""
    order = range(len(lines)) if from_top else range(len(lines) - 1, -1, -1)
    return next((i for i in order if lines[i].strip() and i not in dropped), None)


def _key(line: str) -> str:
    """A line without the number ending or opening it: what a running line keeps.

    Other numbers stay: "Page 1 line 1 …" and "Page 2 line 1 …" are two lines.
    """
    line = _ENDING_NUMBER.sub("", line, count=1)
    line = _OPENING_NUMBER.sub("", line, count=1)
    return " ".join(line.lower().split())


def _page_number(line: str, repeated: bool) -> int | None:
    """The page number `line` gives, if any (roman numerals read as numbers).

    A number alone or ending the line, or opening a line whose words stand at other pages'
    edges too (`repeated`): "7 Reading data from files" at the top of a page is a heading,
    and short sections on pages in a row are numbered as the pages are.
    """
    match = _ENDING_NUMBER.search(line) or (_OPENING_NUMBER.match(line) if repeated else None)
    if match is None:
        return None
    written = match.group(1)
    return int(written) if written.isdigit() else _roman_value(written)


def _roman_value(written: str) -> int | None:
    if not _ROMAN.fullmatch(written):
        return None
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
    total = 0
    digits = [values[c] for c in written.lower()]
    for value, after in zip(digits, [*digits[1:], 0], strict=True):
        total += -value if value < after else value
    return total


def _continued(numbers: Sequence[int | None], index: int) -> bool:
    """Whether page `index`'s number runs on with a nearby page's (n, n + 1, …)."""
    number = numbers[index]
    if number is None:
        return False
    for step in range(1, NEARBY + 1):
        for other in (index - step, index + step):
            if 0 <= other < len(numbers) and numbers[other] == number + (other - index):
                return True
    return False


def _first_kept(lines: Sequence[list[str]], dropped: Sequence[set[int]], page: int) -> str:
    """The first line of text of page `page` that is not running ("" past the last page)."""
    if page >= len(lines):
        return ""
    kept = (line for at, line in enumerate(lines[page]) if at not in dropped[page])
    return next((line for line in kept if line.strip()), "")


def _page(
    lines: list[str], dropped: set[int], previous: str, capitals: bool, following: str = ""
) -> tuple[LaidOutPage, str]:
    """A page laid out, and the number of the last numbered heading read so far, as written.

    The page's last line is read above `following`, the next page's first line of text: a
    heading may end a page ("2. Formula module" at the foot of lme4's paper's page 5).

    A table's numbered rows, or a table of contents' lines (`_in_a_table`), are set apart by
    blank lines as a block of their own: run into the line above they read as a sentence
    ("Key words: editorials … CONTENTS 1 Introduction 2 Obtaining and installing …").
    """
    kept = [line for index, line in enumerate(lines) if index not in dropped]
    tables = {index for index in range(len(kept)) if _in_a_table(kept, index)}
    out: list[str] = []
    headings: list[Heading] = []
    offset = 0
    index = 0
    while index < len(kept):
        numbered = True
        if chapter_heading(kept, index):
            span = 2
        elif numbered_heading(_read_on(kept, index, following), index, previous):
            span = 1 + (_wrapped_in_capitals(kept, index) or _wrapped_title(kept, index))
        else:
            span, numbered = capitals and capitals_heading(kept, index, not previous), False
        if not span:
            if index in tables and index - 1 not in tables and out and out[-1].strip():
                out.append("")
                offset += 1
            out.append(kept[index])
            offset += len(kept[index]) + 1
            if index in tables and index + 1 not in tables and index + 1 < len(kept):
                out.append("")
                offset += 1
            index += 1
            continue
        if out and out[-1].strip():
            out.append("")
            offset += 1
        first, last = kept[index], kept[index + span - 1]
        start = offset + len(first) - len(first.lstrip())
        for line in kept[index : index + span]:
            out.append(line)
            offset += len(line) + 1
        end = offset - 1 - (len(last) - len(last.rstrip()))
        written = _written_number(" ".join(first.split())) if numbered else ""
        headings.append(Heading(start, end, 0, _parts(written)))
        previous = written or previous
        index += span
        if index < len(kept):
            out.append("")
            offset += 1
    return LaidOutPage("\n".join(out), tuple(headings)), previous


def section_number(line: str) -> tuple[str, ...]:
    """The section number a heading opens with: "6.3.1 …" -> ("6", "3", "1").

    A chapter's: "Chapter 4" -> ("4",); an unnumbered heading's: "REFERENCES" -> ().
    """
    return _parts(_written_number(line))


def _written_number(line: str) -> str:
    """A heading's number as written: "5.1." of "5.1. New page", "" if it has none."""
    words = line.split()
    written = words[1] if _CHAPTER.fullmatch(line) else words[0]
    return written if _NUMBER.fullmatch(written) else ""


def _parts(written: str) -> tuple[str, ...]:
    return tuple(written.rstrip(".").split(".")) if written else ()


def chapter_heading(lines: Sequence[str], index: int) -> bool:
    """Whether line `index` opens a chapter's heading of two lines.

    LaTeX's book class sets "Chapter 4" over "Accelerated Failure Time models".
    """
    if not _CHAPTER.fullmatch(lines[index].strip()) or index + 1 >= len(lines):
        return False
    title = lines[index + 1].strip()
    return (
        bool(title[:1].isupper())
        and not _ENDS_SENTENCE.search(title.rstrip("?"))
        and len(title.split()) <= _MOST_HEADING_WORDS
        and _WORD.search(title) is not None
    )


def numbered_heading(lines: Sequence[str], index: int, previous: str | None = None) -> int:
    """The depth of the numbered heading line `index` is ("6.3.1 …": 3), or 0 if it is none.

    A heading is a short line of its own: it opens with a section number and a capital,
    ends in no stop (a question mark may: "7.31 Why doesn't R think these numbers are
    equal?"), has a word of three letters, and two of these hold:

    - it follows a line that ends a sentence (or a heading, a console or LaTeX line, or
      nothing): a wrapped line that opens with a number ("… the mean of all / 2 Groups …")
      follows one that does not;
    - the line below opens with a capital, a bullet, a list's number, a section number
      ("3 R and S" above "3.1 What is S?") or a file's name ("elsarticle.cls is …");
    - its number continues the outline from `previous`, the last heading's number as
      written ("6.2" after "6.1", "7" after "6.1", "1" first after ""; None: not known);
    - its title is in capitals ("1 INTRODUCTION"), as papers set them;
    - it continues the outline with a number of two parts or more written with a stop, as
      the outline's are ("2.6." after "2.5.": a journal's style, whose line below may open
      in lower case with a package's name, "zoo provides …").

    A chapter's number written without a stop where the outline writes them with one ("3
    Note that …", a footnote, after "2.3.") is none; "1.1 Background" after "1.
    Introduction" is one. A number with a stop ("1. Introduction", Elsevier's style) is
    also a numbered list's item: it must continue an outline written so ("5.1." before "6.
    Floats"; R's "2. Header line" after "1.3 Export to text files" is an item), open a
    block above the line below, and no line beside it may be another item. An appendix's
    letter ("A RESEARCH METHODS") must continue it, its title in capitals, its letter
    written with a stop as the outline's numbers are ("A. Modularization examples" after
    "6. Conclusion"; eight words at most, or it is an initial opening a line) or its own
    first section right below it ("A Notation" above "A.1 Random variables in the model":
    lme4's "Theory"). A table of
    contents' line has a dot leader or a page number, as the line above or below it has.
    """
    line = lines[index].strip()
    match = _HEADING.fullmatch(line) or _DOTTED.fullmatch(line) or _LETTERED.fullmatch(line)
    if match is None or _LEADER.search(line) or _STOPPED.search(line):
        return 0
    title = match.group("title")
    if len(title.split()) > _MOST_HEADING_WORDS or not _WORD.search(title):
        return 0
    if _in_a_table(lines, index):
        return 0  # a table's rows: "1 Colorado 7.9", "2 Arizona 8.1", "3 California 9.0"
    above = next((lines[i].strip() for i in range(index - 1, -1, -1) if lines[i].strip()), "")
    below = next((lines[i].strip() for i in range(index + 1, len(lines)) if lines[i].strip()), "")
    if _RUN_IN.search(title) and not _opens_block(below):
        return 0  # a heading run into its paragraph: "1.1 Essential Commands. To begin, fill"
    if _PAGE_REFERENCE.search(line) and any(
        _PAGE_REFERENCE.search(other) or _LEADER.search(other) for other in (above, below)
    ):
        return 0  # a table of contents without dot leaders: "4 Accelerated Failure Time models 75"
    number = section_number(line)
    follows = previous is not None and _follows(number, _parts(previous))
    written = _written_number(line)
    if match.re is _DOTTED and previous and not previous.endswith("."):
        return 0
    if len(number) == 1 and not written.endswith(".") and (previous or "").endswith("."):
        return 0  # "3 Note that …" after "2.3.": a footnote, where chapters have a stop
    if match.re is _LETTERED and written.endswith(".") and len(title.split()) > _MOST_LETTERED:
        return 0  # "A. Zeileis and colleagues later extended it": an initial opens a line
    stopped = written.endswith(".") and len(number) > 1  # "2.6." of "2.5.": JSS's style
    capitals = _in_capitals(title)
    chapter = any(chapter_heading(lines, i) for i in range(max(0, index - 2), index))
    set_apart = not above or _ended(above) or chapter
    if match.re is not _HEADING and not (
        follows
        and (
            capitals
            or match.re is _DOTTED
            or written.endswith(".")
            or (match.re is _LETTERED and below.startswith(f"{number[0]}.1 "))
        )
        and _opens_block(below)
        and (set_apart or match.re is _DOTTED or below.startswith(f"{number[0]}."))
        and not any(_LIST_ITEM.match(other) for other in (above, below))
    ):
        return 0
    if sum((set_apart, _opens_block(below), follows, capitals, stopped and follows)) < 2:
        return 0
    if not (set_apart or capitals) and len(title.split()) > _MOST_UNSET_WORDS:
        return 0  # a wrapped line: "… with those of Table / 2 The results of both are close …"
    return len(number)


def _in_a_table(lines: Sequence[str], index: int) -> bool:
    """Whether line `index` is one of three or more numbered lines in a row at one depth.

    A table's rows or a list ("1 Colorado 7.9", "2 Arizona 8.1" in R's data manual): headings
    stack by depth ("3 R and S" over "3.1 What is S?"), never three siblings in a row.
    """
    depth = _depth(lines[index])
    if not depth:
        return False
    run = 1
    for step in (-1, 1):
        at = index + step
        while 0 <= at < len(lines) and lines[at].strip() and _depth(lines[at]) == depth:
            run += 1
            at += step
    return run >= _TABLE_ROWS


def _depth(line: str) -> int:
    """A numbered line's depth ("6.3.1 …": 3; "1. …": 1), 0 for any other line."""
    match = _HEADING.fullmatch(line.strip()) or _DOTTED.fullmatch(line.strip())
    return len(_parts(match.group("number"))) if match else 0


def capitals_heading(lines: Sequence[str], index: int, front: bool = False) -> int:
    """How many lines an unnumbered heading in capitals at line `index` spans (0: none).

    Papers set "ABSTRACT", "REFERENCES" and JACoW's "SUBMISSION OF PAPERS" alone, in
    capitals, on one line or two ("CHECKLIST FOR ELECTRONIC / PUBLICATION"): below a line
    that ends a sentence (or a heading, or nothing) and above one that opens a block. A
    table's cells in capitals follow a row of its own ("PAPER 14 pt 0 pt 3 pt"). A
    journal may set them as titles ("Abstract", "References": the Journal of Statistical
    Software's papers); an abstract's heading in the `front` matter (before any numbered
    heading) follows the title block, which ends no sentence.
    """
    if not _capitals_line(lines[index]):
        return 0
    above = next((lines[i].strip() for i in range(index - 1, -1, -1) if lines[i].strip()), "")
    abstract = front and lines[index].strip().rstrip(":").upper() == "ABSTRACT"
    if above and not abstract and (not _ended(above) or _capitals_line(above)):
        return 0
    if above and not abstract and not lines[index].isupper() and _HEADING.fullmatch(above):
        return 0  # a title below a contents line ("11.2 Custom commands / Acknowledgements")
    span = 2 if index + 1 < len(lines) and _capitals_line(lines[index + 1], True) else 1
    below = next((line.strip() for line in lines[index + span :] if line.strip()), "")
    return span if _opens_block(below) else 0


def _read_on(kept: list[str], index: int, following: str) -> list[str]:
    """The page's lines, and the next page's first after them when `index` is the last."""
    last = max((at for at, line in enumerate(kept) if line.strip()), default=-1)
    return [*kept[: last + 1], following] if index == last and following else kept


def _wrapped_title(lines: Sequence[str], index: int) -> bool:
    """Whether the numbered heading at line `index` runs on to the next line.

    Its title stops at a word no title ends with ("4.3. Testing and dating structural
    changes in the presence of" over "heteroskedasticity and autocorrelation") or inside a
    word broken by a hyphen, and the next line is short and ends no sentence.
    """
    if index + 1 >= len(lines) or not _TITLE_GOES_ON.search(lines[index]):
        return False
    rest = lines[index + 1].strip()
    return 0 < len(rest.split()) <= _MOST_UNSET_WORDS and not _ENDS_SENTENCE.search(rest)


_TITLE_GOES_ON = re.compile(
    r"(?<![\w-])(?:of|the|a|an|and|or|for|with|from)\s*$|(?<=[a-z]{2})-\s*$"
)
"""A title's last word that runs on, or a word broken by a hyphen ("2 The penalized least
squares approach to lin-" over "ear mixed models": lme4's "PLSvGLS")."""


def _wrapped_in_capitals(lines: Sequence[str], index: int) -> bool:
    """Whether the numbered heading at line `index`, in capitals, runs on to the next line.

    "8 CCS CONCEPTS AND USER-DEFINED" over "KEYWORDS", above the text.
    """
    if index + 2 >= len(lines) or not _in_capitals(lines[index]):
        return False
    return _capitals_line(lines[index + 1], True) and _opens_block(lines[index + 2].strip())


def _capitals_line(line: str, continued: bool = False) -> bool:
    """Whether `line` may be a heading in capitals: a few words, one of four letters.

    A single word must name a section papers and manual pages share (`SECTION_NAMES`), or
    one a journal sets as a title ("References", `_TITLED`); any other is a term defined
    below it (bash's "BASHPID", "HISTCONTROL"), unless it `continued` a heading's first
    line ("CHECKLIST FOR ELECTRONIC / PUBLICATION").
    """
    words = line.split()
    if len(words) == 1 and not continued:
        word = words[0].rstrip(":")
        return word in SECTION_NAMES or (words[0].istitle() and word.upper() in _TITLED)
    return (
        0 < len(words) <= _MOST_CAPITALS_WORDS
        and _CAPITALS.fullmatch(" ".join(words)) is not None
        and _CAPITALS_WORD.search(line) is not None
    )


def _in_capitals(title: str) -> bool:
    letters = [c for c in title if c.isalpha()]
    return len(letters) >= 4 and all(c.isupper() for c in letters)


def _ended(above: str) -> bool:
    r"""Whether a heading may follow line `above`.

    It ends a sentence, or is a heading, a console line or a LaTeX command ("\end{table}").
    """
    return bool(
        _ENDS_SENTENCE.search(above)
        or above.endswith("}")
        or CONSOLE_LINE.fullmatch(above)
        or _HEADING.fullmatch(above)
        or _capitals_line(above)
    )


def _opens_block(below: str) -> bool:
    """Whether line `below` may open what a heading heads.

    A capital, a bullet, a reference's or a list's number, a section number or a file's
    name opens it.
    """
    return bool(below) and bool(
        below[0].isupper()
        or below[0] in '•–-*"“['
        or _HEADING.match(below)
        or _LIST_ITEM.match(below)
        or _FILE_NAME.match(below)
    )


def _follows(number: tuple[str, ...], previous: tuple[str, ...]) -> bool:
    """Whether section `number` may come next after section `previous` (() if none yet).

    It may be the first child, the next sibling or an ancestor's, or the first appendix.
    """
    if not previous:
        return number == ("1",)
    if number == (*previous, "1") or (number == ("A",) and previous[0].isdigit()):
        return True
    return any(
        number == (*previous[:depth], _next(previous[depth])) for depth in range(len(previous))
    )


def _next(written: str) -> str:
    if written.isdigit():
        return str(int(written) + 1)
    return chr(ord(written) + 1) if len(written) == 1 and written.isupper() else ""
