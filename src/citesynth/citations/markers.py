"""Citation markers in model output: find them, whole or while streaming.

Accepted forms (what models actually write):

    [1]  [1][2]  [1, 3]  [1-3]  [2,4-6]  [^1]  [Source 2]  [Sources 1 and 3]  【1】  【4:0†source】
    [1: L40-58]  [2: p.5 L3-9]   -- a source's header as the grouped context shows it
    [-1]  [0]                    -- numbers no source can have (removed when resolved)
    (1)  (1, 2)  (Source 2)      -- where it cannot be a list enumerator; see `match_at`
    [report.pdf, Page 5]  [docs/guide.md]  [guide.md, L40-58]    -- resolved by path and page
    (report.pdf, Page 5)  [Source: https://example.org/page]      -- and by web address

Every marker becomes the source numbers it names, and the parts they were written as
(`parts`: `[1, 3-5]` is (1, 1), (3, 5)). Ranges expand only between numbers that were
written ([1-3] is 1, 2, 3); nothing else is ever added. A `[file, Page N]` or
`[file, L40]` naming no source is a marker that names nothing (`unknown`), so that it can be
removed and reported; a bare `[name.ext]` naming no source stays text. Markers inside code
(inline backticks or fences) are left alone. `MarkerStream` finds the same markers in text that
arrives piece by piece, holding back only what could still become a marker.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

MAX_RANGE = 50
LOOKBEHIND = 2_000
HOLD = 160  # the longest marker we wait for before giving the text up

_ONE = r"\d{1,4}(?:\s*(?:-|–|—|to)\s*\d{1,4})?"  # 3, 1-3, 4 – 6
_NUMBERS = rf"{_ONE}(?:\s*(?:,|;|and|&)\s*(?:sources?\s*)?{_ONE})*"
_LABEL = r"(?P<label>:\s*(?=[pL])(?:p\.?\s*\d{1,5}\s*)?(?:L\d{1,6}(?:\s*[-–]\s*L?\d{1,6})?)?\s*)?"
"""A source's location after its number, as the grouped context heads it: `[1: L40-58]`."""
_HEADER_END = re.compile(r"[ \t]*(?:\n|$|[—–])")
"""What follows a source's header copied whole: the line's end, or the dash before its
subject ("[2: L4-9] — Towers")."""
_BRACKET = re.compile(
    r"\[\s*\^?\s*(?:(?:sources?|refs?|references?|citations?|docs?|documents?)\s*:?\s*)?"
    rf"(?P<body>-?{_NUMBERS})\s*{_LABEL}\]",
    re.I,
)
_FULLWIDTH = re.compile(
    rf"【\s*(?:sources?\s*)?(?P<body>-?{_NUMBERS})\s*(?:[†:][^】]{{0,40}})?】", re.I
)
_PAREN = re.compile(rf"\(\s*(?P<word>(?:sources?|refs?)\s*:?\s*)?(?P<body>-?{_NUMBERS})\s*\)", re.I)
_FILE = re.compile(
    r"\[\s*(?P<file>[^\[\]\n,;]{1,120}?\.[A-Za-z0-9]{1,8})"
    r"(?:\s*[,:;]?\s*(?:page|p\.?|pg\.?)\s*(?P<page>\d{1,5}))?"
    r"(?:\s*[,:;]?\s*(?:lines?\s*|L)?(?P<line>\d{1,6})(?:\s*[-–]\s*L?\d{1,6})?)?\s*\]",
    re.I,
)
_URL = re.compile(
    r"\[\s*(?:(?:sources?|refs?|references?|url)\s*:?\s*)?(?P<url>https?://[^\s\[\]]{1,140})\s*\]",
    re.I,
)
_PAREN_FILE = re.compile(
    r"\(\s*(?P<file>[^()\n,;]{1,120}?\.[A-Za-z0-9]{1,8})\s*[,:;]\s*"
    r"(?:page|p\.?|pg\.?)\s*(?P<page>\d{1,5})\s*\)",
    re.I,
)
_PART = re.compile(r"(-?\d{1,4})(?:\s*(?:-|–|—|to)\s*(\d{1,4}))?", re.I)
# After a bare "(17)" naming no source: where a citation ends a clause, not where a number
# goes on ("(17) degrees"). Before it: words that make "(17)" a reference to something else.
_CITATION_END = frozenset(".,;:!?\n[【(［")
_NOT_A_SOURCE = re.compile(
    r"\b(?:eq|eqs|equation|equations|fig|figure|figures|table|tables|step|steps|rule|rules|item|"
    r"items|section|sections|chapter|page|pages|line|lines|note|footnote|formula|example|case|"
    r"version|no|number|appendix|article|clause|paragraph|part|exercise|problem|lemma|theorem)"
    r"\.?\s*$",
    re.I,
)
_GOES_ON = re.compile(r"[ \t]+([a-z]+)(?=[^a-z])")
"""A lowercase word after a bare "(2)", which a text goes on with ("(2) allows box
constraints", "(8) where z = …"), read up to the character after it."""
_AFTER_A_CITATION = frozenset(
    "and or but nor so yet while whereas which who whose that as because since although "
    "though then also respectively if when unless until with without in on at for to by from "
    "of into via per after before through than like plus is are was were says say states "
    "reports notes shows mentions describes suggests writes recommends explains lists gives "
    "adds confirms".split()
)
"""Words a clause goes on with after a citation closing what came before ("boils (1) and")."""
_WORD_OPEN = re.compile(r"[ \t]*\w*")
"""What of a word after "(2)" may still go on (`MarkerStream._waits`)."""
_BLANK_TAIL = re.compile(r"[ \t]*")
"""What follows "[1: L4-9]" before it can be told a header copied as a line or a citation:
spaces alone (`_copied_header` reads the first character after them)."""
_OPENERS = "[【(［"
_CLOSERS = {"[": "]", "【": "】", "(": ")", "［": "］"}
# Full-width brackets, digits and separators read as their ASCII forms (one character for
# one, so offsets do not move): a model that writes ［9］ names source 9.
_WIDE = str.maketrans(
    {
        "［": "[",
        "］": "]",
        "，": ",",
        "－": "-",
        "～": "-",
        **{chr(0xFF10 + d): str(d) for d in range(10)},
    }
)


@dataclass(frozen=True, slots=True)
class SourceRef:
    """What a marker can name a source by: its number, path and page."""

    number: int
    path: str
    page: int | None = None
    start_line: int | None = None
    end_line: int | None = None
    text: str = ""
    """What the source writes: a bare parenthesis it writes after the same word is its own
    text, quoted, never a citation (`_written_by_a_source`)."""


@dataclass(frozen=True, slots=True)
class Marker:
    """A citation marker at `text[start:end]` and the numbers it names (in written order)."""

    start: int
    end: int
    raw: str
    numbers: tuple[int, ...]
    parts: tuple[tuple[int, int], ...] = ()
    """How the numbers were written: (n, n) for a number, (first, last) for a range."""
    unknown: bool = False
    """A reference by file, page or line that names no source (`numbers` is empty)."""


def _parts(body: str) -> tuple[tuple[int, int], ...]:
    """The numbers and ranges of a marker's body, as written (a reversed range is two)."""
    found: list[tuple[int, int]] = []
    for match in _PART.finditer(body):
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) else first
        if last < first:
            found.extend([(first, first), (last, last)])
        else:
            found.append((first, last))
    return tuple(dict.fromkeys(found))


def _numbers(parts: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    found: list[int] = []
    for first, last in parts:
        if last - first > MAX_RANGE:
            found.extend((first, last))  # an absurd range: keep only what was written
        else:
            found.extend(range(first, last + 1))
    return tuple(dict.fromkeys(found))


def _numbered(start: int, raw: str, body: str) -> Marker:
    parts = _parts(body)
    return Marker(start, start + len(raw), raw, _numbers(parts), parts)


def _by_file(
    file: str, page: str | None, line: str | None, sources: Sequence[SourceRef]
) -> tuple[int, ...]:
    name = file.strip().lower()
    same_file = [
        s
        for s in sources
        if s.path.lower() == name
        or s.path.lower().endswith("/" + name)
        or PurePosixPath(s.path).name.lower() == PurePosixPath(name).name
    ]
    if page is not None:
        same_file = [s for s in same_file if s.page == int(page)] or []
    if line is not None and same_file:
        wanted = int(line)
        inside = [
            s
            for s in same_file
            if s.start_line is not None
            and s.end_line is not None
            and s.start_line <= wanted <= s.end_line
        ]
        same_file = inside or same_file
    return (same_file[0].number,) if same_file else ()


def _enumerator(text: str, start: int, number: int | None) -> bool:
    """Whether "(n)" at `start` is a list item, not a citation.

    It is when it opens a line or sentence, or follows the list item "(n-1)" on its line,
    as in "(1) first (2) second".
    """
    line = text.rfind("\n", 0, start) + 1
    while True:
        before = "\n" + text[:start].rstrip(" \t")
        if before[-1] in "\n:.!?" or before.endswith(("\n-", "\n*")):
            return True
        if number is None or number < 2:
            return False
        number -= 1
        start = text.rfind(f"({number})", line, start)
        if start < 0:
            return False


def match_at(text: str, start: int, sources: Sequence[SourceRef]) -> Marker | None:
    """The marker that begins exactly at `text[start]`, if any.

    Parentheses are a citation when they carry a source word ("(Source 17)"), when all
    their numbers name sources, or when their numbers (three digits at most, so not a year)
    end a clause after a word that is not a reference noun: "boils (17)." is a citation
    naming a source that does not exist, "(2019).", "Eq. (17)." and "(17) degrees" are text,
    and so is a bare tuple holding 0 (Pillow's "with (0,0) in the upper left corner" had
    lost its origin as a citation of no source).
    A list enumerator is never a citation. `[-1]` after a word character is an index.
    """
    opener = text[start]
    if opener == "[":
        return _bracketed(text, start, sources)
    if opener == "【":
        found = _FULLWIDTH.match(text, start)
        return _numbered(start, found.group(), found.group("body")) if found else None
    if opener == "(":
        return _parenthesised(text, start, sources)
    if opener == "［":
        found = _BRACKET.match(text[start : start + HOLD + 1].translate(_WIDE))
        return (
            _numbered(start, text[start : start + found.end()], found.group("body"))
            if found
            else None
        )
    return None


def _bracketed(text: str, start: int, sources: Sequence[SourceRef]) -> Marker | None:
    found = _BRACKET.match(text, start)
    if found:
        if found.group("body").startswith("-") and start and _word_char(text[start - 1]):
            return None  # xs[-1]
        if found.group("label") and _copied_header(text, start, found.end()):
            return None  # layout, which `strip_layout` removes, not a citation
        return _numbered(start, found.group(), found.group("body"))
    url = _URL.match(text, start)
    if url:  # [Source: https://…] names a web source by its address
        wanted = url.group("url").rstrip("/.,")
        named = tuple(s.number for s in sources if s.path.rstrip("/") == wanted)[:1]
        parts = ((named[0], named[0]),) if named else ()
        return Marker(start, url.end(), url.group(), named, parts, unknown=not named)
    found = _FILE.match(text, start)
    if found is None:
        return None
    numbers = _by_file(found.group("file"), found.group("page"), found.group("line"), sources)
    if numbers:
        return Marker(start, found.end(), found.group(), numbers, ((numbers[0],) * 2,))
    located = found.group("page") or found.group("line")
    if located and re.search(r"\.[0-9]*[A-Za-z]", found.group("file")):  # a file, not "v2.0"
        return Marker(start, found.end(), found.group(), (), (), unknown=True)
    return None


def _copied_header(text: str, start: int, end: int) -> bool:
    """Whether `[1: L4-9]` at `text[start:end]` is a source's header copied as a line.

    It opens its line and ends it, or goes on with the header's dash: "[2: L4-9] — Towers"
    above the sentences. "[1: L1-13] httpx.Limits allows 20 keep-alive connections." cites.
    """
    line = text.rfind("\n", 0, start) + 1
    return not text[line:start].strip(" \t") and _HEADER_END.match(text, end) is not None


def _parenthesised(text: str, start: int, sources: Sequence[SourceRef]) -> Marker | None:
    by_file = _PAREN_FILE.match(text, start)
    if by_file:  # (report.pdf, Page 3): a citation only when it names a source
        numbers = _by_file(by_file.group("file"), by_file.group("page"), None, sources)
        if numbers:
            return Marker(start, by_file.end(), by_file.group(), numbers, ((numbers[0],) * 2,))
    found = _PAREN.match(text, start)
    if found is None or (found.group("body").startswith("-") and not found.group("word")):
        return None  # "(-1)" is arithmetic; "(Source -1)" a citation
    marker = _numbered(start, found.group(), found.group("body"))
    if not marker.numbers or (not found.group("word") and _tuple_with_zero(found.group("body"))):
        return None  # "with (0,0) in the upper left corner": a value, no source is 0
    if not found.group("word") and _glued(text, start, found.end(), start + HOLD + 1):
        return None  # "VAR(1) and MA(1) models": notation glued to its name
    if not found.group("word") and _goes_on(text, found.end(), start + HOLD + 1):
        return None  # "that (1) can work with …, (2) allows …": the text's own numbering
    if _enumerator(text, start, marker.numbers[0] if len(marker.numbers) == 1 else None):
        return None
    if not found.group("word") and _written_by_a_source(text, start, found.end(), sources):
        return None  # "permanent redirects (301) instead of temporary (302)", quoted
    if found.group("word") or max(marker.numbers) <= len(sources):
        return marker
    return marker if _cites_nothing(text, start, found) else None


def _written_by_a_source(text: str, start: int, end: int, sources: Sequence[SourceRef]) -> bool:
    """Whether a source writes the bare parenthesis at `text[start:end]` after the same word.

    An answer quoting its sources quotes their own numbers in parentheses: Tornado's
    "now send permanent redirects (301) instead of temporary (302).", Scrapy's "passed
    through the same *input processor* used in (1).", Gunicorn's "status codes for limit
    errors (414, 431)". Read as citations, they had been removed as naming no source or,
    worse, made to cite source 1. Spaces are read as one.
    """
    written = [s.text for s in sources if s.text]
    if not written:
        return False
    before = _LAST_WORD.search(text, max(0, start - 80), start)
    said = " ".join(f"{before.group(1) if before else ''} {text[start:end]}".split())
    return any(said in " ".join(source.split()) for source in written)


_LAST_WORD = re.compile(r"(\S+)[ \t]*\Z")
"""The word right before a bare parenthesis, on its line."""


def _tuple_with_zero(body: str) -> bool:
    """Whether a bare parenthesis's `body` lists two numbers or more, one of them 0.

    A tuple of values: "(0,0)", "(0, 255)". A lone "(0)" where a citation stands is one
    naming no source, removed.
    """
    listed = re.findall(r"\d+", body)
    return len(listed) > 1 and any(int(n) == 0 for n in listed)


def _goes_on(text: str, end: int, limit: int) -> bool:
    """Whether the text goes on after a bare "(n)" ending at `end` as the same clause.

    A citation closes what it cites: punctuation, the line's end or a word that opens
    what comes next ("boils (1) and ice melts (2)") follow it. A lowercase word of
    another kind is the text's own: an item it numbers inline ("an optimizer that (1) can
    work with an objective function, (2) allows box constraints": lme4's paper), an
    equation's number ("(8) where z = …") or a value ("boils at (3) degrees"). Only text
    before `limit` is read, as much as streaming waits for.
    """
    found = _GOES_ON.match(text[:limit], end)
    return found is not None and found.group(1) not in _AFTER_A_CITATION


def _glued(text: str, start: int, end: int, limit: int) -> bool:
    """Whether a bare "(n)" is glued to a Latin name before it, a word going on after it.

    "an AR(1) and an MA(1) model" names processes; "capital(1)." and a Chinese answer's
    "首都(1)。", with no space before the citation, cite.
    """
    if not start or not (text[start - 1].isascii() and _word_char(text[start - 1])):
        return False
    return _WORD_AFTER.match(text[:limit], end) is not None


_WORD_AFTER = re.compile(r"[ \t]+\w+(?=\W)")


def _word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _cites_nothing(text: str, start: int, found: re.Match[str]) -> bool:
    """Whether a bare "(17)" naming no source stands where a citation stands."""
    if any(len(part) > 3 for part in re.findall(r"\d+", found.group("body"))):
        return False  # "(2019)"
    after = text[found.end() : found.end() + 1]
    if after and after not in _CITATION_END:
        return False  # "(17) degrees"
    line = text.rfind("\n", 0, start) + 1
    before = text[max(line, start - 40) : start]
    if not before.strip() or before[-1:] not in " \t" or not _word_char(before.rstrip()[-1]):
        return False  # "x(17)", "= (17)", a line opening with it
    return _NOT_A_SOURCE.search(before.rstrip()) is None


def find_markers(text: str, sources: Sequence[SourceRef]) -> list[Marker]:
    """Every citation marker in `text`, left to right (none inside code).

    The same scanner as streaming, fed the whole text at once: the two never disagree.
    """
    stream = MarkerStream(sources)
    items = [*stream.feed(text), *stream.close()]
    return [item for item in items if isinstance(item, Marker)]


@dataclass(frozen=True, slots=True)
class Text:
    """Plain text from the stream, safe to show."""

    text: str


Item = Text | Marker


@dataclass(slots=True)
class _Code:
    """Whether the text so far leaves us inside a code fence or an inline code span.

    Fences are read as `ingest.fences.fenced_blocks` reads them: a line opening with
    three or more backticks or tildes (a backtick fence's line holds no other backtick), closed
    by a line of the same mark at least as long with nothing after it.
    """

    fence: str = ""
    """The open fence's marks ("```", "~~~~"); empty outside a fence."""
    inline: int = 0
    """How many backticks opened the inline code span we are in (0: none); see `_opens`."""
    line_start: bool = True
    """Whether only spaces have come since the last line break."""
    waiting: int | None = None
    """Where the last scan stopped at a line it could not judge yet (see `scan`)."""

    def copy(self) -> _Code:
        """The same state, to scan ahead with."""
        return _Code(self.fence, self.inline, self.line_start)

    def scan(
        self,
        text: str,
        *,
        stop_at_opener: bool,
        start: int = 0,
        end: int | None = None,
        final: bool = True,
    ) -> int | None:
        """Advance over `text[start:end]`; with `stop_at_opener`, stop at the first opener.

        The opener found is outside code; its index is into `text`. A fence line is judged
        by its whole line, also where it goes on past `end`. Unless the text is `final`, a
        line whose verdict more text could change (a run of marks at its end, a backtick
        fence line with no line break or backtick yet) stops the scan: `waiting` is then
        where its marks start, and None is returned.
        """
        self.waiting = None
        special = _SPECIAL if stop_at_opener else _CODE_MARKS
        stop = len(text) if end is None else end
        index = start
        scanned = start  # where line_start was last brought up to date
        while True:
            found = special.search(text, index, stop)  # skip plain text at C speed
            if found is None:
                self._line_start_after(text, scanned, stop)
                return None
            index = found.start()
            self._line_start_after(text, scanned, index)
            scanned = index
            char = text[index]
            if char in "`~" and self.line_start:
                run = _run_length(text, index)
                verdict = self._fence_line(text, index, char, run, final=final)
                if verdict is None:
                    self.waiting = index
                    return None
                if verdict:
                    index += run
                    scanned = index
                    self.line_start = False
                    continue
            if char == "\n":
                self.inline = 0
                self.line_start = True
                index += 1
                scanned = index
                continue
            self.line_start = False
            if char == "`" and not self.fence:
                run = _run_length(text, index)
                if index + run == len(text) and not final:
                    self.waiting = index  # the run may grow
                    return None
                if self.inline:
                    self.inline = 0 if run == self.inline else self.inline
                else:
                    opens = _opens(text, index, run, final=final)
                    if opens is None:
                        self.waiting = index  # its line may still close it
                        return None
                    self.inline = run if opens else 0
                index += run
                scanned = index
                continue
            if stop_at_opener and char in _OPENERS and not (self.fence or self.inline):
                return index
            index += 1
            scanned = index

    def _line_start_after(self, text: str, start: int, end: int) -> None:
        """Bring `line_start` up to date over `text[start:end]` (no line break in it)."""
        if end > start and text[start:end].strip(" \t"):
            self.line_start = False

    def _fence_line(
        self, text: str, index: int, char: str, run: int, *, final: bool
    ) -> bool | None:
        """Whether the run of `char` at a line start opens or closes a fence.

        The state changes accordingly; None while more text could change the answer.
        """
        if index + run == len(text) and not final:
            return None  # the run may grow
        if run < 3:
            return False
        line_end = text.find("\n", index)
        whole_line = line_end >= 0 or final
        rest = text[index + run : len(text) if line_end < 0 else line_end]
        if not self.fence:
            if self.inline or (char == "`" and "`" in rest):
                return False
            if char == "`" and not whole_line:
                return None  # a backtick later on the line would make it inline code
            self.fence = char * run
            return True
        if char != self.fence[0] or run < len(self.fence) or rest.strip(" \t\r"):
            return False
        if not whole_line:
            return None  # text after the marks would make it a line of code
        self.fence = ""
        return True


_RUN = re.compile(r"(`+|~+)")
_CLOSES_WITHIN = 1_000
"""How far along its line a run of two or more backticks looks for the run closing it."""


def _opens(text: str, index: int, run: int, *, final: bool) -> bool | None:
    """Whether the run of `run` backticks at `index` (outside code) opens an inline span.

    One backtick opens a span to the next one or the line's end, as models write code.
    Two or more open one only when a run as long closes it on the same line, within
    `_CLOSES_WITHIN` characters, as CommonMark reads them: reStructuredText's
    ``open_memory_channel(0)`` is one span, whose "(0)" is no citation. Two must also be
    followed by a character that is not a space (as reStructuredText requires): the
    opening quotes of tokenised text ("`` Rammer Jammer '' [1]", "``Only Daddy ''is …",
    ClapNQ and MuSiQue) open no span, and the citations after them count. None while
    the text that decides has not arrived.
    """
    if run == 1:
        return True
    after = index + run
    if after == len(text):
        return False  # at the end of a final text (`scan` waits for more otherwise)
    if run == 2 and text[after].isspace():
        return False  # a tokenised text's opening quote
    line_end = text.find("\n", after, after + _CLOSES_WITHIN)
    stop = line_end if line_end >= 0 else min(len(text), after + _CLOSES_WITHIN)
    for found in _BACKTICK_RUN.finditer(text, after, stop):
        if len(found.group()) == run:
            return None if found.end() == len(text) and not final else True  # it may grow
    if line_end >= 0 or stop == after + _CLOSES_WITHIN or final:
        return False
    return None


_BACKTICK_RUN = re.compile(r"`+")


def _run_length(text: str, index: int) -> int:
    """How many of the same mark (backtick or tilde) start at `index`."""
    found = _RUN.match(text, index)
    return found.end() - index if found else 0


_CODE_MARKS = re.compile(r"[`~\n]")
_SPECIAL = re.compile(r"[`~\n\[【(［]")


class MarkerStream:
    """Finds markers in text that arrives in pieces; yields text and markers in order.

    Text is held back only from a possible marker opener until it is clearly a marker or
    clearly not one (a newline, or `HOLD` characters); everything else passes straight
    through. Any split of a text gives the same items, joined, as feeding it whole. The work
    is linear in the text: only a bounded window around each opener is ever copied.
    """

    def __init__(self, sources: Sequence[SourceRef]) -> None:
        self._sources = list(sources)
        self._pending = ""  # text not yet released is self._pending[self._at:]
        self._at = 0
        self._tail = ""  # the end of the released text, for the checks before an opener
        self._released = 0  # how many characters were released in all
        self._code = _Code()

    def feed(self, piece: str) -> list[Item]:
        """Add a piece of model output; return what can be released now."""
        self._pending = self._pending[self._at :] + piece
        self._at = 0
        return list(self._drain(final=False))

    def close(self) -> list[Item]:
        """The stream ended: release everything that is left."""
        return list(self._drain(final=True))

    def _drain(self, *, final: bool) -> Iterator[Item]:
        pending = self._pending
        while self._at < len(pending):
            probe = self._code.copy()
            cut = probe.scan(pending, stop_at_opener=True, start=self._at, final=final)
            if cut is None:
                # Release everything up to a line that may still turn out to be a fence.
                waiting = probe.waiting
                yield from self._release(len(pending) if waiting is None else waiting)
                return
            if cut > self._at:
                yield from self._release(cut)
                continue
            if not final and self._waits(pending):
                return  # wait for more text
            marker = self._marker(pending, final=final)
            if marker is None:
                yield from self._release(self._at + 1)
                continue
            length = marker.end - marker.start
            self._remember(pending[self._at : self._at + length])
            self._at += length
            self._code.line_start = False  # a marker is on the line now
            yield marker

    def _waits(self, pending: str) -> bool:
        """Whether the opener at `_at` could still become a marker with more text."""
        at = self._at
        closer = pending.find(_CLOSERS[pending[at]], at + 1, at + HOLD + 1)
        window = pending[at : at + HOLD + 1]
        if "\n" in window or len(window) > HOLD:
            return False
        # A bare "(17)" is judged by the character after it and the word it goes on with
        # (`_goes_on`), "[1: L4-9]" opening a line by the first character after its spaces
        # (`_copied_header`).
        if closer < 0 or (pending[at] == "(" and _WORD_OPEN.fullmatch(pending, closer + 1)):
            return True
        return (
            pending[at] == "["
            and ":" in pending[at:closer]
            and _BLANK_TAIL.fullmatch(pending, closer + 1) is not None
        )

    def _marker(self, pending: str, *, final: bool) -> Marker | None:
        """The marker at the opener `_at`, if any, with offsets into the whole text."""
        at = self._at
        if pending.find(_CLOSERS[pending[at]], at + 1, at + HOLD + 1) < 0:
            return None
        # Only the current line matters before an opener (enumerator checks), and a marker
        # is at most HOLD long: a bounded window keeps long answers linear.
        line = self._tail.rfind("\n")
        before = self._tail[max(line, len(self._tail) - LOOKBEHIND, 0) :]
        context = before + pending[at : at + HOLD + 2]
        found = match_at(context, len(before), self._sources)
        if found is None or "\n" in found.raw or len(found.raw) > HOLD:
            # Not a marker; nor one spanning a line or longer than HOLD, which streaming
            # gives up on before its closer can arrive.
            return None
        shift = self._released - len(before)
        return replace(found, start=found.start + shift, end=found.end + shift)

    def _remember(self, text: str) -> None:
        self._released += len(text)
        self._tail += text
        if len(self._tail) > 4 * LOOKBEHIND:
            self._tail = self._tail[-2 * LOOKBEHIND :]

    def _release(self, end: int) -> Iterator[Item]:
        if end <= self._at:
            return
        text = self._pending[self._at : end]
        self._code.scan(self._pending, stop_at_opener=False, start=self._at, end=end)
        self._at = end
        self._remember(text)
        yield Text(text)
