r"""Rows of the tables a text draws: Markdown pipe tables and reStructuredText grid tables.

Reference pages put what a question asks in tables: Jinja's loop variables
(`loop.index` | The current iteration of the loop. (1 indexed)), Python-Markdown's
SmartyPants options (`smart_dashes` | `True` | whether to convert dashes). A table is no
prose (`sentences.prose_sentences` leaves it out), so neither writer saw those rows: the
extractive writer quoted what was said around the table, and the model was shown the
prose of the chunk only. `table_rows` reads each row with the table's header, and
`row_text` writes it as a statement ("`loop.index`: The current iteration of the loop.
(1 indexed)"), which both writers are given beside the prose sentences.

- A pipe table: a header line holding `|`, a delimiter line of dashes (`---`, `:--:`,
  at least two columns), then the lines holding `|` up to a blank line. Cells split at
  each `|` outside inline code (`\|` is a pipe in a cell).
- A grid table: a border `+----+----+` whose `+` give the columns; each row is the lines
  between two borders, a cell's lines joined; the rows above a `+====+` border are the
  header. A table whose lines break the columns (a cell spanning two) is left out.

Code is never read for tables: fenced, indented below "::" or a code directive, or
indented as Markdown's code (`_in_code`). Rows are cached per text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from citesynth.ingest.blocks import GRID_BORDER, PIPE_DELIMITER, lines_from
from citesynth.ingest.sentences import fenced_blocks

MAX_CELL = 400
"""Characters a cell may hold; a longer one is text laid out in a box, no table's."""

_DELIMITER = re.compile(PIPE_DELIMITER)
_BORDER = re.compile(GRID_BORDER)


@dataclass(frozen=True, slots=True)
class Row:
    """One row of a table: where it is in the text, its cells, and the table's header."""

    start: int
    end: int
    cells: tuple[str, ...]
    header: tuple[str, ...] = ()


@lru_cache(maxsize=256)
def table_rows(text: str) -> tuple[Row, ...]:
    """The body rows of every pipe or grid table of `text`, in order (see the module)."""
    if "|" not in text:
        return ()
    code = fenced_blocks(text)
    lines = [(at, line) for at, line in lines_from(text) if not any(a <= at < b for a, b in code)]
    rows: list[Row] = []
    index = 0
    while index < len(lines):
        found, index = _table_at(lines, index)
        rows.extend(found)
    return tuple(rows)


def row_text(row: Row) -> str:
    """A row as a statement: its first cell, then the others with their headers.

    "`smart_dashes`: Default value: `True`; Description: whether to convert dashes." A
    table of two columns reads "name: description", its header left out.
    """
    first, rest = row.cells[0], row.cells[1:]
    if len(rest) == 1:
        said = rest[0]
    else:
        headers = row.header[1:] if len(row.header) == len(row.cells) else ("",) * len(rest)
        said = "; ".join(f"{h}: {c}" if h else c for h, c in zip(headers, rest, strict=True) if c)
    text = f"{first}: {said}" if first and said else first or said
    return text if text.rstrip("`*_)").endswith((".", "!", "?")) else f"{text}."


def _table_at(lines: list[tuple[int, str]], index: int) -> tuple[list[Row], int]:
    """The rows of a table starting at `lines[index]`, and the index after it.

    Whether the table is inside code (`_in_code`) is asked where one starts only.
    """
    line = lines[index][1]
    if _BORDER.fullmatch(line):
        border = index
    elif (
        "|" in line
        and index + 1 < len(lines)
        and _DELIMITER.fullmatch(lines[index + 1][1])
        and _next_to(lines, index + 1)
    ):
        return ([], index + 1) if _in_code(lines, index) else _pipe(lines, index)
    elif line.lstrip().startswith("|"):  # a grid table's row above its border (a chunk's first)
        border = index
        while border < len(lines) and _row_line(lines[border][1]):
            border += 1
        if border == len(lines) or not _BORDER.fullmatch(lines[border][1]):
            # lines of pipes and no grid: read once, not once a line; a pipe table's
            # header may end them (its delimiter is the line that stopped the run)
            return [], max(border - 1, index + 1)
    else:
        return [], index + 1
    return ([], index + 1) if _in_code(lines, index) else _grid(lines, border, index)


def _row_line(line: str) -> bool:
    """A line of a grid table's row, not a pipe table's delimiter."""
    return line.lstrip().startswith("|") and not _DELIMITER.fullmatch(line)


_CODE_DIRECTIVE = re.compile(r"[ \t]*\.\.[ \t]+(?:code-block|code|sourcecode|literalinclude)::")
_DIRECTIVE = re.compile(r"[ \t]*\.\.[ \t]+[\w:.+-]+::")
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d+[.)])[ \t]")


def _in_code(lines: list[tuple[int, str]], index: int) -> bool:
    """Whether `lines[index]` is inside code a chunk does not fence.

    Indented below a line ending in "::" or a code directive (reStructuredText's literal
    blocks: a query's result drawn as a grid), or four columns deeper than the prose above
    it (Markdown's indented code). The line above is the nearest one less indented.
    """
    indent = _indent(lines[index][1])
    if indent == 0:
        return False
    for at in range(index - 1, max(index - 200, -1), -1):
        above = lines[at][1]
        if not above.strip() or _indent(above) >= indent:
            continue
        if _DIRECTIVE.match(above):
            return _CODE_DIRECTIVE.match(above) is not None  # `.. note::` holds prose
        if above.rstrip().endswith("::"):
            return True
        return indent - _indent(above) >= 4 and not _LIST_ITEM.match(above)
    return False


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip(" "))


def _pipe(lines: list[tuple[int, str]], index: int) -> tuple[list[Row], int]:
    header = _split(lines[index][1])
    rows: list[Row] = []
    at = index + 2
    while at < len(lines) and "|" in lines[at][1] and lines[at][1].strip():
        if not _next_to(lines, at):
            break  # a line of code between them
        cells = _split(lines[at][1])
        if any(cells) and max(len(c) for c in cells) <= MAX_CELL:
            rows.append(Row(lines[at][0], lines[at][0] + len(lines[at][1]), cells, header))
        at += 1
    return rows, at


def _next_to(lines: list[tuple[int, str]], index: int) -> bool:
    """Whether `lines[index]` is the line right after `lines[index - 1]` in the text."""
    offset, line = lines[index - 1]
    return lines[index][0] <= offset + len(line) + 2  # "\n" or "\r\n" between them


def _split(line: str) -> tuple[str, ...]:
    """A pipe table line's cells: split at each `|` outside inline code, trimmed."""
    cells: list[str] = []
    current: list[str] = []
    ticks = 0
    position = 0
    while position < len(line):
        char = line[position]
        if char == "`":
            rest = line[position:]
            run = len(rest) - len(rest.lstrip("`"))
            if ticks == run:
                ticks = 0
            elif not ticks and "`" * run in line[position + run :]:
                ticks = run  # opens code: a run as long closes it later on the line
            current.append("`" * run)
            position += run
            continue
        if char == "\\" and line[position + 1 : position + 2] == "|":
            current.append("|")
            position += 2
            continue
        if char == "|" and not ticks:
            cells.append("".join(current))
            current = []
        else:
            current.append(char)
        position += 1
    cells.append("".join(current))
    if cells and not cells[0].strip():
        cells = cells[1:]  # the leading pipe
    if cells and not cells[-1].strip():
        cells = cells[:-1]  # the trailing pipe
    return tuple(" ".join(cell.split()) for cell in cells)


def _grid(lines: list[tuple[int, str]], index: int, first: int) -> tuple[list[Row], int]:
    """The rows of the grid table whose border is `lines[index]`; the index after it.

    The lines from `first` up to the border are a row too: a chunk cut between a table's
    rows begins with one.
    """
    border = lines[index][1]
    columns = [i for i, char in enumerate(border) if char == "+"]
    header: tuple[str, ...] = ()
    rows: list[Row] = []
    pending: list[list[str]] = []
    start = -1
    at = first if first < index else index + 1
    while at < len(lines):
        offset, line = lines[at]
        if _BORDER.fullmatch(line):
            if [i for i, char in enumerate(line) if char == "+"] != columns:
                return [], at  # the columns change: cells span them
            if pending:
                joined = zip(*pending, strict=True)
                cells = tuple(" ".join(" ".join(part).split()) for part in joined)
                if "=" in line and not header and not rows:
                    header = cells
                elif any(cells) and max(len(c) for c in cells) <= MAX_CELL:
                    rows.append(Row(start, offset - 1, cells))
            pending, start = [], -1
            at += 1
            continue
        if not line.strip():
            break
        if any(len(line) <= c or line[c] not in "|+" for c in columns):
            return [], at + 1  # a cell spanning columns, or no grid table at all
        pending.append([line[a + 1 : b].strip() for a, b in pairwise(columns)])
        start = offset if start < 0 else start
        at += 1
    return [Row(r.start, r.end, r.cells, header) for r in rows], at
