"""Titles and rules as reStructuredText and plain text set them: adornments and headings.

`adornments` finds the lines of one repeated punctuation mark that underline (or over- and
underline) a title, or rule a break, and `titled` the title such a line adorns;
`is_title_or_rule` and `is_heading` say whether a span is one, so that no title is read as
a sentence.
"""

from __future__ import annotations

import re

SHORT_TITLE = r"[A-Z0-9][^\n.!?:;,]{0,58}[^\s.!?:;,]"  # short, no closing punctuation
HEADING_WORDS = 10
ADORNMENT = re.compile(r"^[ \t]*([!-/:-@\[-`{-~])\1{2,}[ \t]*\r?$", re.MULTILINE)
"""A line of one punctuation mark repeated: any of those reStructuredText adorns titles
with (coverage.py's FAQ underlines "Q: How is the total percentage calculated?" with
dots)."""
_RULES = frozenset("=-^*+")
"""The marks that adorn a title or rule a break wherever they stand; the others (a run of
dots, hashes, quotes, backticks or tildes) do only under or over a title."""


_TITLE = re.compile(rf"\#{{1,6}}[ \t]\S.*|{SHORT_TITLE}")


def adornments(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """The lines of `text[start:end]` that adorn a title or rule a break (`adornment_at`)."""
    stop = len(text) if end is None else end
    return [
        (m.start(), m.end())
        for m in ADORNMENT.finditer(text, start, stop)
        if adornment_at(text, m.start(), m.end())
    ]


def adornment_at(text: str, line_start: int, line_end: int) -> bool:
    """Whether the line `text[line_start:line_end]` adorns a title or rules a break.

    One mark repeated (`-----`, `=====`, `^^^^^`), as reStructuredText and setext Markdown
    underline (or overline) headings and AsciiDoc delimits blocks. Another punctuation
    mark (`.....`, `#####`) counts only under or over a title, as reStructuredText adorns
    with it; a run of backticks or tildes only when also at least four long, since three
    open or close a code fence.
    """
    found = ADORNMENT.fullmatch(text, line_start, line_end)
    if found is None:
        return False
    if found.group(1) in _RULES:
        return True
    if found.group(1) in "`~" and len(found.group().strip()) < 4:
        return False
    return titled(text, line_start, line_end) is not None or _overlines(text, line_start, line_end)


def titled(text: str, line_start: int, line_end: int) -> tuple[int, int] | None:
    """The title line that the adornment line `text[line_start:line_end]` underlines.

    As reStructuredText requires, the title is one line, with a letter and no closing `.`,
    `,`, `;` or `:`, no longer than its adornment, after a blank line, the start of the
    text or an overline like it: so the last line of an AsciiDoc block above its closing
    `----`, or a sentence above a `***` rule, is no title.
    """
    length = len(text[line_start:line_end].strip())
    title = _line_before(text, line_start, length)
    if title is None or not _is_title(text[title[0] : title[1]], length):
        return None
    above = _line_before(text, title[0], length)
    if above is None:
        return None
    line = text[above[0] : above[1]]
    if line.strip() and line.strip() != text[line_start:line_end].strip():
        return None
    return title


def _is_title(line: str, length: int) -> bool:
    words = line.strip()
    return any(c.isalpha() for c in words) and len(words) <= length and words[-1] not in ".,;:"


def _overlines(text: str, line_start: int, line_end: int) -> bool:
    """Whether the adornment line at `line_start` is the overline of a title below it."""
    mark = text[line_start:line_end].strip()
    title_end = text.find("\n", line_end + 1, line_end + 2 + len(mark) + 40)
    if line_end >= len(text) or title_end < 0:
        return False
    under_end = text.find("\n", title_end + 1, title_end + 2 + len(mark) + 40)
    under = text[title_end + 1 : len(text) if under_end < 0 else under_end]
    return _is_title(text[line_end + 1 : title_end], len(mark)) and under.strip() == mark


def _line_before(text: str, line_start: int, longest: int) -> tuple[int, int] | None:
    """The line before the one starting at `line_start`, as (start, end).

    `(0, 0)` at the start of the text; None when it is longer than `longest` (plus room for
    indentation), so no title, which also keeps a long line from being read again.
    """
    if line_start == 0:
        return 0, 0
    end = line_start - 1
    window = max(0, end - longest - 40)
    newline = text.rfind("\n", window, end)
    if newline < 0 and window > 0:
        return None
    return newline + 1, end


def is_title_or_rule(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]`, on one line, is an adornment line or on the title above one.

    A title of two sentences is read whole: "My schema specifies format validation. Why do
    invalid instances seem valid?" over a line of dashes is a title, and neither of its
    sentences is prose.
    """
    if "\n" in text[start:end]:
        return False
    line = _line_around(text, start, end)
    if line is None:
        return False
    line_start, line_end = line
    if adornment_at(text, line_start, line_end):
        return True
    if line_end >= len(text):
        return False
    length = line_end - line_start
    under_end = text.find("\n", line_end + 1, line_end + 2 + length + 80)
    under = (line_end + 1, len(text) if under_end < 0 else under_end)
    if under_end < 0 and under[1] - under[0] > length + 80:
        return False
    return adornment_at(text, *under) and titled(text, *under) is not None


_TITLE_LONGEST = 200
"""The longest line read as a title when a sentence shares it with another."""


def _line_around(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The line holding `text[start:end]` (no line break in it), as (start, end).

    A span that is its line but for spaces is read as that line; a sentence sharing its
    line, only when the line is no longer than a title may be (`_TITLE_LONGEST`), so that
    the sentences of a long line are never each read against all of it.
    """
    line_start, line_end = start, end
    while line_start > 0 and text[line_start - 1] in " \t":
        line_start -= 1
    while line_end < len(text) and text[line_end] in " \t\r":
        line_end += 1
    if (line_start == 0 or text[line_start - 1] == "\n") and (
        line_end == len(text) or text[line_end] == "\n"
    ):
        return line_start, line_end
    window = max(0, start - _TITLE_LONGEST)
    before = text.rfind("\n", window, start)
    after = text.find("\n", end, end + _TITLE_LONGEST)
    if (before < 0 and window > 0) or (after < 0 and end + _TITLE_LONGEST < len(text)):
        return None
    line = before + 1, len(text) if after < 0 else after
    return line if line[1] - line[0] <= _TITLE_LONGEST else None


def under_title(text: str, line_start: int) -> bool:
    """Whether the line before `line_start` reads as a title.

    One line with a letter and no closing punctuation, after a blank line, the start of the
    text or an adornment.
    """
    title = _line_before(text, line_start, 120)
    if title is None or not _is_title(text[title[0] : title[1]], 10**6):
        return False
    above = _line_before(text, title[0], 400)
    line = "" if above is None else text[above[0] : above[1]]
    return not line.strip() or ADORNMENT.fullmatch(line) is not None


def is_heading(sentence: str) -> bool:
    """Whether a span from `sentence_spans` is a heading line rather than a sentence."""
    line = sentence.strip()
    return "\n" not in line and bool(_TITLE.fullmatch(line)) and len(line.split()) <= HEADING_WORDS
