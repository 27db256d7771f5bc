"""Blocks: the structural pieces of a document (headings, paragraphs, code) that chunks pack.

Each format's splitter turns a document's text into blocks with exact offsets; the chunker
packs blocks into chunks without knowing the format. A block may open a section (a
Markdown heading, a Python `def`), which sets the heading path of what follows it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from citesynth.ingest.lines import newline_offsets

LIST_MARKER = r"(?:[-*+•]|\d{1,3}[.)]|#[.)])"
"""A list item's marker (a pattern part): a bullet, a number with its dot or bracket, or
reStructuredText's auto-number `#.` (AnyIO's "This can be done in one of two ways:")."""
LIST_MARK = re.compile(r"^\s*" + LIST_MARKER + r"\s+")
"""A list item's mark and the space after it, at the start of a line or text."""
ITEM_START = re.compile(r"[ \t]*" + LIST_MARKER + r"[ \t]")
"""A list item's opening: its marker and the space after it, indented or not (`match` at the
start of a line or a sentence)."""
SECTION_NUMBER = r"(?:\d{1,2}(?:\.\d{1,2}){1,4}\.?|\d{1,2}|[A-Z](?:\.\d{1,2}){1,4}\.?)"
"""A section's number opening its title (a pattern part): "6.3.1", "7", "A.1", "A.1."; not "1.",
an item of a numbered list."""
GRID_BORDER = r"[ \t]*\+(?:[-=]+\+)+[ \t]*"
"""A grid table's border line: "+------+------+", "+======+" below its header."""
GRID_BORDER_LINE = re.compile(rf"{GRID_BORDER}\r?$", re.M)
PIPE_DELIMITER = r"[ \t]*(?:\|[ \t]*)?:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+(?:\|[ \t]*)?"
"""A pipe table's delimiter line: "|---|:---:|", "------ | ----" (two columns or more)."""
SIMPLE_BORDER = r"[ \t]*=+(?:[ \t]+=+)+[ \t]*"
"""A reStructuredText simple table's border line: "=====  =====" (two columns or more)."""


class BlockKind(StrEnum):
    """What a block holds; decides how an oversized block is split."""

    HEADING = "heading"
    PARAGRAPH = "paragraph"
    CODE = "code"
    TABLE = "table"


@dataclass(frozen=True, slots=True)
class Block:
    """A structural piece of a document: `text[start:end]`, stripped of outer whitespace.

    `heading`/`level` are set when the block opens a section; `page` is set for PDFs,
    where a chunk never spans two pages.
    """

    start: int
    end: int
    kind: BlockKind
    heading: str | None = None
    level: int = 0
    page: int | None = None


def trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink `[start, end)` so that it neither starts nor ends with whitespace."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


_BLANK_LINES = re.compile(r"\n[ \t\r\f\v]*\n")


def paragraphs(
    text: str, start: int = 0, end: int | None = None, *, page: int | None = None
) -> list[Block]:
    """Blank-line separated paragraphs of `text[start:end]` as blocks."""
    stop = len(text) if end is None else end
    blocks: list[Block] = []
    previous = start
    for match in _BLANK_LINES.finditer(text, start, stop):
        _add_paragraph(text, previous, match.start(), page, blocks)
        previous = match.end()
    _add_paragraph(text, previous, stop, page, blocks)
    return blocks


def _add_paragraph(text: str, start: int, end: int, page: int | None, out: list[Block]) -> None:
    start, end = trimmed(text, start, end)
    if end > start:
        out.append(Block(start, end, BlockKind.PARAGRAPH, page=page))


def line_offsets(text: str) -> list[int]:
    """Offset of the start of each line; index 0 is line 1, plus a final entry at len(text)."""
    offsets = [0, *(newline + 1 for newline in newline_offsets(text))]
    if offsets[-1] != len(text):
        offsets.append(len(text))
    return offsets


def lines_from(text: str, start: int = 0) -> list[tuple[int, str]]:
    """The lines of `text` from `start`, each with its offset, without line ends."""
    found = []
    position = start
    while position < len(text):
        end = text.find("\n", position)
        end = len(text) if end < 0 else end
        found.append((position, text[position:end].rstrip("\r")))
        position = end + 1
    return found


def columns(line: str) -> int:
    """Columns of a line's indentation (a tab to the next multiple of four)."""
    expanded = line.expandtabs(4)
    return len(expanded) - len(expanded.lstrip(" "))


def first_line_column(text: str) -> int:
    """The indentation a trimmed text's first line stood at (0 when it cannot tell).

    The next line's, when the first line's paragraph runs on there. A chunk is cut out
    trimmed: aiohttp's "Note that URL joining follows … e.g.::" opened a chunk six columns
    into a field, read at column 0, and the field list three columns in below its example
    had been read as part of the example. A first line opening with a marker (a directive
    or a comment, a field, a list item) cannot tell: what runs on below it is its body,
    indented under the marker (aiohttp's ".. list-table::" over its rows three columns in).
    A one-line paragraph opening a literal block tells by the text below the block
    (`_left_at`).
    """
    lines = text.split("\n", 2)
    if len(lines) < 2 or _MARKED.match(lines[0]):
        return 0
    if lines[1].strip():
        return columns(lines[1])
    if lines[0].rstrip().endswith("::") and len(lines) == 3:
        return _left_at(lines[2])
    return 0


def _left_at(below: str) -> int:
    """Where the text below a literal block's opening line goes on: its opener's column.

    Invoke's "and then perhaps add the following to the end of ``~/.zshrc``::" opened a
    chunk two columns into a list item; below its code, four columns in, the item goes on
    at two ("But again, …", a note): read at column 0, all of it had been code. The first
    line less indented than the code's first is at the opener's column (0 when none is).
    """
    code: int | None = None
    for line in below.split("\n"):
        if not line.strip():
            continue
        column = columns(line)
        if code is None:
            code = column
        elif column < code:
            return column
    return 0


_MARKED = re.compile(rf"(?:\.\.(?:\s|$)|:[^:`\s][^:`\n]*:(?:\s|$)|{LIST_MARKER}(?:\s|$))")
"""A line opening with a marker whose body is indented under it: explicit markup, a field,
a list item."""
