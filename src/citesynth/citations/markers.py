"""Citation markers in model output: find them, whole or while streaming.

Accepted forms (what models actually write):

    [1]  [1][2]  [1, 3]  [1-3]  [2,4-6]  [^1]  [Source 2]  [Sources 1 and 3]  【1】  【4:0†source】
    (1)  (1, 2)  (Source 2)      -- only where it cannot be a list enumerator
    [report.pdf, Page 5]  [docs/guide.md]  [guide.md, L40-58]    -- resolved by path and page

Every marker becomes the source numbers it names. Ranges expand only between numbers that
were written ([1-3] is 1, 2, 3); nothing else is ever added. Markers inside code (inline
backticks or fences) are left alone. `MarkerStream` finds the same markers in text that
arrives piece by piece, holding back only what could still become a marker.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

MAX_RANGE = 50
LOOKBEHIND = 2_000
HOLD = 160  # the longest marker we wait for before giving the text up

_ONE = r"\d{1,4}(?:\s*(?:-|–|—|to)\s*\d{1,4})?"  # 3, 1-3, 4 – 6
_NUMBERS = rf"{_ONE}(?:\s*(?:,|;|and|&)\s*(?:sources?\s*)?{_ONE})*"
_BRACKET = re.compile(
    r"\[\s*\^?\s*(?:(?:sources?|refs?|references?|citations?|docs?|documents?)\s*:?\s*)?"
    rf"(?P<body>{_NUMBERS})\s*\]",
    re.I,
)
_FULLWIDTH = re.compile(
    rf"【\s*(?:sources?\s*)?(?P<body>{_NUMBERS})\s*(?:[†:][^】]{{0,40}})?】", re.I
)
_PAREN = re.compile(rf"\(\s*(?:(?:sources?|refs?)\s*:?\s*)?(?P<body>{_NUMBERS})\s*\)", re.I)
_FILE = re.compile(
    r"\[\s*(?P<file>[^\[\]\n,;]{1,120}?\.[A-Za-z0-9]{1,8})"
    r"(?:\s*[,:;]?\s*(?:page|p\.?|pg\.?)\s*(?P<page>\d{1,5}))?"
    r"(?:\s*[,:;]?\s*(?:lines?\s*|L)?(?P<line>\d{1,6})(?:\s*[-–]\s*L?\d{1,6})?)?\s*\]",
    re.I,
)
_PART = re.compile(r"(\d{1,4})(?:\s*(?:-|–|—|to)\s*(\d{1,4}))?", re.I)
_OPENERS = "[【("
_CLOSERS = {"[": "]", "【": "】", "(": ")"}


@dataclass(frozen=True, slots=True)
class SourceRef:
    """What a marker can name a source by: its number, path and page."""

    number: int
    path: str
    page: int | None = None
    start_line: int | None = None
    end_line: int | None = None


@dataclass(frozen=True, slots=True)
class Marker:
    """A citation marker at `text[start:end]` and the numbers it names (in written order)."""

    start: int
    end: int
    raw: str
    numbers: tuple[int, ...]


def _numbers(body: str) -> tuple[int, ...]:
    found: list[int] = []
    for match in _PART.finditer(body):
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) else first
        if last < first or last - first > MAX_RANGE:
            found.append(first)  # a reversed or absurd range: keep only what was written first
            if match.group(2):
                found.append(last)
            continue
        found.extend(range(first, last + 1))
    return tuple(dict.fromkeys(found))


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
    """The marker that begins exactly at `text[start]`, if any."""
    opener = text[start]
    if opener == "[":
        found = _BRACKET.match(text, start)
        if found:
            return Marker(start, found.end(), found.group(), _numbers(found.group("body")))
        found = _FILE.match(text, start)
        if found:
            numbers = _by_file(
                found.group("file"), found.group("page"), found.group("line"), sources
            )
            return Marker(start, found.end(), found.group(), numbers) if numbers else None
        return None
    if opener == "【":
        found = _FULLWIDTH.match(text, start)
        return (
            Marker(start, found.end(), found.group(), _numbers(found.group("body")))
            if found
            else None
        )
    if opener == "(":
        found = _PAREN.match(text, start)
        if found is None:
            return None
        numbers = _numbers(found.group("body"))
        # A bare "(1999)" or "(3)" that names no source is text, not a citation.
        if not numbers or max(numbers) > len(sources):
            return None
        if _enumerator(text, start, numbers[0] if len(numbers) == 1 else None):
            return None
        return Marker(start, found.end(), found.group(), numbers)
    return None


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
    """Whether the text so far leaves us inside a code fence or an inline code span."""

    fence: bool = False
    inline: bool = False

    def scan(self, text: str, *, stop_at_opener: bool) -> int | None:
        """Advance over `text`; with `stop_at_opener`, stop at the first opener outside code."""
        index = 0
        while index < len(text):
            if text.startswith("```", index):
                self.fence, self.inline = not self.fence, False
                index += 3
                continue
            char = text[index]
            if char == "\n":
                self.inline = False
            elif char == "`" and not self.fence:
                self.inline = not self.inline
            elif stop_at_opener and char in _OPENERS and not (self.fence or self.inline):
                return index
            index += 1
        return None


class MarkerStream:
    """Finds markers in text that arrives in pieces; yields text and markers in order.

    Text is held back only from a possible marker opener until it is clearly a marker or
    clearly not one (a newline, or `HOLD` characters); everything else passes straight
    through. Any split of a text gives the same items, joined, as feeding it whole.
    """

    def __init__(self, sources: Sequence[SourceRef]) -> None:
        self._sources = list(sources)
        self._pending = ""
        self._released = ""
        self._code = _Code()

    def feed(self, piece: str) -> list[Item]:
        """Add a piece of model output; return what can be released now."""
        self._pending += piece
        return list(self._drain(final=False))

    def close(self) -> list[Item]:
        """The stream ended: release everything that is left."""
        return list(self._drain(final=True))

    def _drain(self, *, final: bool) -> Iterator[Item]:
        while self._pending:
            probe = _Code(self._code.fence, self._code.inline)
            cut = probe.scan(self._pending, stop_at_opener=True)
            if cut is None:
                # Release everything but a trailing run of backticks: a fence may be starting.
                keep = 0 if final else len(self._pending) - len(self._pending.rstrip("`"))
                yield from self._release(len(self._pending) - keep)
                return
            if cut > 0:
                yield from self._release(cut)
                continue
            closer = _CLOSERS[self._pending[0]]
            closed = closer in self._pending[1:]
            if not closed and not final and len(self._pending) < HOLD and "\n" not in self._pending:
                return  # wait for more text
            # Only the current line matters before an opener (enumerator checks): keep the
            # context short so long answers stay linear.
            cut = max(0, len(self._released) - LOOKBEHIND)
            cut = max(cut, self._released.rfind("\n", cut))
            context = self._released[cut:] + self._pending
            found = match_at(context, len(self._released) - cut, self._sources) if closed else None
            marker = (
                None
                if found is None
                else Marker(found.start + cut, found.end + cut, found.raw, found.numbers)
            )
            if marker is None or "\n" in marker.raw or len(marker.raw) > HOLD:
                # Not a marker; nor one spanning a line or longer than HOLD, which streaming
                # gives up on before its closer can arrive.
                yield from self._release(1)
                continue
            length = marker.end - marker.start
            self._released += self._pending[:length]
            self._pending = self._pending[length:]
            yield marker

    def _release(self, length: int) -> Iterator[Item]:
        if length <= 0:
            return
        text, self._pending = self._pending[:length], self._pending[length:]
        self._code.scan(text, stop_at_opener=False)
        self._released += text
        yield Text(text)
