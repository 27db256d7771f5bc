"""Text laid out as data, not prose: rows of a table in columns, and records of fields.

Documentation writes tables as text (reStructuredText's simple tables, plain-text listings)
and records as a name above lines of one field each; neither marks its rows, so a sentence
splitter runs them together into "sentences" of cells. `in_columns` and `is_record` tell
`sentences.prose_sentences` what to leave out.
"""

from __future__ import annotations

import itertools
import re

from citesynth.ingest.blocks import LIST_MARKER


def in_columns(text: str, begin: int, end: int) -> bool:
    """Whether the span from `begin` to `end` sits in a table laid out in columns.

    A table written as text (reStructuredText's simple tables, a plain-text listing) has
    no mark on its rows but their layout: each cell opens at the same column, after a gap
    of three or more spaces (or a tab) that ends no sentence. Read as prose, pytest's table
    of 1,487 plugins ran rows together into "sentences" that an answer quoted
    ("pytest>=6.2.4 `pytest-job-selection` A pytest plugin for load balancing test suites
    Jan 30, 2023 4 - Beta …"). The span's lines and the line on either side are read; two
    neighbours with a cell opening at the same column make a table. A gap inside one line
    is no table: abstracts copied from PDFs hold such runs ("associated to different
    chromatin states.    AVAILABILITY The software …"), nor are the spaces after a list
    item's marker ("-   Click does not just parse …", as the Pallets projects write them).
    """
    first = _line_start(text, begin)
    last = _line_end(text, end)
    if first is None or last is None:
        return False  # a line longer than any table's row
    start = _line_start(text, first - 1) if first else first
    stop = _line_end(text, last + 1) if last < len(text) else last
    lines = text[first if start is None else start : last if stop is None else stop]
    cells = [_cell_columns(line) for line in lines.split("\n")]
    return any(above & below for above, below in itertools.pairwise(cells))


_LONGEST_ROW = 1_000
"""The longest line read as a row of a table (pytest's plugin list: 470 characters); each
sentence of a longer line reads no more than this around it, so that a long line of many
sentences costs linear time."""


def _line_start(text: str, position: int) -> int | None:
    """Where the line holding `position` starts; None when further back than `_LONGEST_ROW`."""
    floor = max(0, position - _LONGEST_ROW)
    found = text.rfind("\n", floor, position)
    return found + 1 if found >= 0 else (0 if floor == 0 else None)


def _line_end(text: str, position: int) -> int | None:
    """Where the line holding `position` ends; None when further on than `_LONGEST_ROW`."""
    ceiling = min(len(text), position + _LONGEST_ROW)
    found = text.find("\n", position, ceiling)
    return found if found >= 0 else (len(text) if ceiling == len(text) else None)


def is_record(sentence: str) -> bool:
    """Whether `sentence` is a record: a name, then two or more lines each one field.

    "pytest-timeout" above "*last release*: Mar 07, 2024," "*status*: 5 - Production/Stable,"
    and "*requires*: pytest >=7.0.0" (pytest's plugin list as its PDF shows it) is data
    about a name, not a statement; read as prose, it ran into one "sentence" of dates and
    statuses that an answer quoted.
    """
    lines = sentence.split("\n")
    return (
        len(lines) >= 3
        and len(lines[0].split()) <= 3  # a name, not a sentence introducing the fields
        and all(_FIELD_LINE.fullmatch(line) for line in lines[1:])
    )


_FIELD_LINE = re.compile(
    r"[ \t]*(?:\*\*?|_)?[A-Za-z][\w .-]{0,30}?(?:\*\*?|_)?:[ \t]+\S[^\n]{0,60}"
)
"""A line naming a field and its short value: "*status*: 4 - Beta,", "Author: Jane Doe"."""


def _cell_columns(line: str) -> set[int]:
    """The columns at which a cell of `line` opens after a gap (none after a list marker)."""
    marker = _MARKER_AT_START.match(line)
    return {found.end() for found in _CELL_GAP.finditer(line, marker.end() if marker else 0)}


_CELL_GAP = re.compile(r"[^\s.!?:;](?: {3,}|\t[ \t]*)(?=\S)")
"""A gap between two cells of a row: three spaces or a tab after anything but a stop."""
_MARKER_AT_START = re.compile(
    rf"[ \t]*(?:{LIST_MARKER}|\(?[A-Za-z0-9]{{1,3}}[.)]|\d{{1,3}}"
    r"|(?:step|item|part|rule|case|note)\s+\d{1,3}[.:)]?)[ \t]+",
    re.IGNORECASE,
)
"""What opens an item, cells or none: a list marker, "(a)", "b)", a number, "Step 2"."""
