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
`chapter_heading`), returning where the headings are so that the loader can open a section
at each. A line is running when it stands first or last on its page (after any running
line above or below it) and either its text, but for a number ending or opening it, stands
there on a run of at least `REPEATS` pages each at most `NEARBY` from the next (`_runs`),
or it ends with a page number that the same place on a page nearby continues (n on page
p, n + 1 on page p + 1, n + 2 on page p + 2: printed numbers run with the pages, a table's
last cell does not). Other numbers count: "Page 1 line 1 …" and "Page 2 line 1 …" are two
lines, and so are two log lines opening with their times.
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

_ROMAN = re.compile(r"(?i:m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3}))")
_WRITTEN_NUMBER = r"(\d{1,4}|[ivxlc]{1,7}|[IVXLC]{1,7})"
_ENDING_NUMBER = re.compile(rf"(?:^|\s){_WRITTEN_NUMBER}\s*$")
_OPENING_NUMBER = re.compile(rf"^\s*{_WRITTEN_NUMBER}(?:\s|$)")
"""A number ending or opening a line: a page number, arabic or roman."""
_HEADING = re.compile(rf"(?P<number>{SECTION_NUMBER})[ \t]+(?P<title>[A-Z][^\n]{{0,78}})")
"""A numbered section heading: "2.2 Vector arithmetic", "7 Reading data from files",
"A.1 Installation"; not "1. Precision", an item of a numbered list."""
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
    missed) is at level 1 and closes chapter 4.
    """
    lines = [page.split("\n") for page in pages]
    dropped = running(lines)
    opened: list[tuple[str, ...]] = []
    laid: list[LaidOutPage] = []
    for index, page_lines in enumerate(lines):
        page = _page(page_lines, dropped[index])
        headings = []
        for heading in page.headings:
            number = heading.number
            opened = [n for n in opened if len(n) < len(number) and number[: len(n)] == n]
            headings.append(Heading(heading.start, heading.end, len(opened) + 1, number))
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
    return found


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


def _page(lines: list[str], dropped: set[int]) -> LaidOutPage:
    kept = [line for index, line in enumerate(lines) if index not in dropped]
    out: list[str] = []
    headings: list[Heading] = []
    offset = 0
    index = 0
    while index < len(kept):
        span = 2 if chapter_heading(kept, index) else int(numbered_heading(kept, index) > 0)
        if not span:
            out.append(kept[index])
            offset += len(kept[index]) + 1
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
        headings.append(Heading(start, end, 0, section_number(" ".join(first.split()))))
        index += span
        if index < len(kept):
            out.append("")
            offset += 1
    return LaidOutPage("\n".join(out), tuple(headings))


def section_number(line: str) -> tuple[str, ...]:
    """The section number a heading opens with: "6.3.1 …" -> ("6", "3", "1").

    A chapter's: "Chapter 4" -> ("4",).
    """
    words = line.split()
    written = words[1] if _CHAPTER.fullmatch(line) else words[0]
    return tuple(written.rstrip(".").split("."))


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


def numbered_heading(lines: Sequence[str], index: int) -> int:
    """The depth of the numbered heading line `index` is ("6.3.1 …": 3), or 0 if it is none.

    A heading is a short line of its own: it opens with a section number and a capital,
    ends in no stop (a question mark may: "7.31 Why doesn't R think these numbers are
    equal?"), follows a line that ends a sentence (or a heading, a console line, or nothing)
    and is followed by a line opening with a capital, a bullet or a section number ("3 R and
    S" above "3.1 What is S?"), and has a word of three letters. A wrapped line that opens
    with a number ("… the mean of all / 2 Groups …") follows a line that does not end a
    sentence; a table of contents' line has a dot leader or a page number, as the line above
    or below it has.
    """
    line = lines[index].strip()
    match = _HEADING.fullmatch(line)
    if match is None or _LEADER.search(line) or _ENDS_SENTENCE.search(line.rstrip("?")):
        return 0
    words = match.group("title").split()
    if line.endswith(",") or len(words) > _MOST_HEADING_WORDS or not _WORD.search(line):
        return 0
    above = next((lines[i].strip() for i in range(index - 1, -1, -1) if lines[i].strip()), "")
    below = next((lines[i].strip() for i in range(index + 1, len(lines)) if lines[i].strip()), "")
    chapter = any(chapter_heading(lines, i) for i in range(max(0, index - 2), index))
    ended = _ENDS_SENTENCE.search(above) or CONSOLE_LINE.fullmatch(above)
    if above and not (ended or _HEADING.fullmatch(above) or chapter):
        return 0
    if not below or not (below[0].isupper() or below[0] in '•–-*"“' or _HEADING.match(below)):
        return 0
    if _PAGE_REFERENCE.search(line) and any(
        _PAGE_REFERENCE.search(other) or _LEADER.search(other) for other in (above, below)
    ):
        return 0  # a table of contents without dot leaders: "4 Accelerated Failure Time models 75"
    return match.group("number").rstrip(".").count(".") + 1
