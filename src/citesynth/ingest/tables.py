r"""Rows of the tables a text draws: Markdown pipe, reStructuredText grid, simple and list tables.

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
  header. A cell spanning rows (a line draws the border under the cells to its right
  only: `|  +----+----+`) reads with each row it spans, and that line is no cell's text
  (Babel's date fields had been read as "-------- ``c``; the week, using one or two
  letters. ---- ??"). A table whose lines break the columns (a cell spanning two) is left
  out.
- A simple table (reStructuredText's `=====  =====` borders, 2026-12-04): the runs of `=`
  give the columns, the last one reaching to the line's end; a line whose first column
  is blank goes on with the row above it, and the rows above a border that is not the
  table's last are the header. Pygments' table of renamed colours (``ansibrightcyan``
  beside ``#ansiturquoise``) was read as neither prose nor table. A chunk cut inside one
  reads the rows above its last border, without a header; a row of marks only ("Y", "S")
  is no statement.
- A list table (`.. list-table::`, 2026-12-03): each item of the directive's body is a
  row and each of its own items a cell, a cell's lines joined; the first `:header-rows:`
  rows are the header. tox's plugin guide maps its verbosity flags to logging levels in
  one, and "Which verbosity do I need for INFO-level plugin messages?" went unanswered:
  the directive marks its body as no prose. A chunk cut inside a list table (its
  directive out of sight) gives none.

Code is never read for tables: fenced, indented below "::" or a code directive, or
indented as Markdown's code (`_in_code`). Rows are cached per text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from citesynth.ingest.blocks import GRID_BORDER, PIPE_DELIMITER, SIMPLE_BORDER, lines_from
from citesynth.ingest.fences import fenced_blocks

MAX_CELL = 400
"""Characters a cell may hold; a longer one is text laid out in a box, no table's."""


def _readable(cells: tuple[str, ...]) -> bool:
    """Whether a row's cells say something and each fits a cell (`MAX_CELL`)."""
    return any(cells) and max(len(cell) for cell in cells) <= MAX_CELL


def _joined(part: list[str]) -> str:
    """A cell's lines as one line, its runs of whitespace single spaces."""
    return " ".join(" ".join(part).split())


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
    """The body rows of every table of `text`, in order (see the module)."""
    listed = _list_table_rows(text) + _simple_table_rows(text)
    if "|" not in text:
        return tuple(sorted(listed, key=lambda row: row.start))
    code = fenced_blocks(text)
    lines = [(at, line) for at, line in lines_from(text) if not any(a <= at < b for a, b in code)]
    rows: list[Row] = []
    index = 0
    while index < len(lines):
        found, index = _table_at(lines, index)
        rows.extend(found)
    return tuple(sorted([*rows, *listed], key=lambda row: row.start)) if listed else tuple(rows)


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


def _in_code(lines: list[tuple[int, str]], index: int, *, markdown: bool = True) -> bool:
    """Whether `lines[index]` is inside code a chunk does not fence.

    Indented below a line ending in "::" or a code directive (reStructuredText's literal
    blocks: a query's result drawn as a grid), or four columns deeper than the prose above
    it (Markdown's indented code; not when `markdown` is False: reStructuredText indents a
    block quote so, and Werkzeug's table of hosts files sits in one). The line above is
    the nearest one less indented.
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
        return markdown and indent - _indent(above) >= 4 and not _LIST_ITEM.match(above)
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
        if _readable(cells):
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
    rows begins with one; not when they go on with a row cut above them (`_goes_on`).
    """
    border = lines[index][1]
    columns = [i for i, char in enumerate(border) if char == "+"]
    header: tuple[str, ...] = ()
    rows: list[Row] = []
    pending: list[list[str]] = []
    spanning: list[list[str]] = []  # the lines so far of cells spanning rows, per column
    start = -1
    at = first if first < index else index + 1
    opening = first < index  # the lines before the first border: maybe a row cut inside
    while at < len(lines):
        offset, line = lines[at]
        if at == first < index and line.startswith("|"):  # a chunk's text opens unindented
            line = " " * columns[0] + line
        full = _BORDER.fullmatch(line) is not None
        if full and [i for i, char in enumerate(line) if char == "+"] != columns:
            return [], at  # the columns change: cells span them
        if not full and not line.strip():
            break
        if not full and any(len(line) <= c or line[c] not in "|+" for c in columns):
            return [], at + 1  # a cell spanning columns, or no grid table at all
        bordered = len(columns) - 1 if full else _bordered(line, columns)
        if not bordered:
            pending.append([line[a + 1 : b].strip() for a, b in pairwise(columns)])
            start = offset if start < 0 else start
            at += 1
            continue
        cut_inside = opening and _goes_on(pending)
        opening = False
        if pending and not cut_inside:
            cells = _cells(spanning, pending)
            if full and "=" in line and not header and not rows:
                header = cells
            elif _readable(cells):
                rows.append(Row(start, offset - 1, cells))
        kept = len(columns) - 1 - bordered  # the cells going on below this line
        part = [line[a + 1 : b].strip() for a, b in pairwise(columns[: kept + 1])]
        spanning = [
            [*(spanning[c] if c < len(spanning) else []), *(r[c] for r in pending), part[c]]
            for c in range(kept)
        ]
        pending, start = [], -1
        at += 1
    return [Row(r.start, r.end, r.cells, header) for r in rows], at


def _bordered(line: str, columns: list[int]) -> int:
    """How many columns, from the right, a grid table's line draws a border under.

    All of them for a border (`+----+----+`); the right ones for a line under a row whose
    left cells span the rows below (`|          +--------+------+`: one cell of Babel's
    "Week day" over the "E", "e" and "c" symbols); none for a line of cells.
    """
    for k, column in enumerate(columns[:-1]):
        if line[column] == "+" and _BORDER.fullmatch(line, column):
            return len(columns) - 1 - k
    return 0


def _goes_on(pending: list[list[str]]) -> bool:
    """Whether a row's lines go on with a row above them.

    A blank first cell, and the first other cell opening in lower case: a chunk cut inside
    Babel's "e" row began "|  |  | value that will depend on the local starting day of …".
    """
    said = [cell for cell in pending[0] if cell] if pending else []
    return bool(said) and not pending[0][0] and said[0][0].islower()


def _cells(spanning: list[list[str]], pending: list[list[str]]) -> tuple[str, ...]:
    """A row's cells: its lines' text per column, after that of the cells spanning it."""
    joined = [list(part) for part in zip(*pending, strict=True)]
    for column, above in enumerate(spanning):
        joined[column] = [*above, *joined[column]]
    return tuple(_joined(part) for part in joined)


_SIMPLE_BORDER = re.compile(rf"{SIMPLE_BORDER}\r?")
_SPAN_LINE = re.compile(r"[ \t]*-+(?:[ \t]+-+)*[ \t]*\r?")
"""A line under header cells spanning columns (`-----  -----`): no row's text."""


def _simple_table_rows(text: str) -> list[Row]:
    """The body rows of the simple tables of `text` (see the module)."""
    if "==" not in text:
        return []
    lines = lines_from(text)
    rows: list[Row] = []
    index = read_to = 0
    while index < len(lines):
        if _SIMPLE_BORDER.fullmatch(lines[index][1]) and not _in_code(lines, index, markdown=False):
            last = index + 1 == len(lines) or not lines[index + 1][1].strip()
            found, index = _rows_above(lines, index, read_to) if last else _simple(lines, index)
            rows.extend(found)
            read_to = index
        else:
            index += 1
    return rows


_Cells = list[tuple[int, int, list[list[str]]]]
"""Rows as they are read: start, end, and each column's lines of text."""


def _columns(border: str) -> tuple[list[int], list[tuple[int, int]]]:
    """Where a simple table's columns start, and the gaps between them, by its border."""
    runs = [(m.start(), m.end()) for m in re.finditer(r"=+", border)]
    return [start for start, _ in runs], [(end, start) for (_, end), (start, _) in pairwise(runs)]


def _fits(line: str, gaps: list[tuple[int, int]]) -> bool:
    """Whether no text of `line` crosses a gap between the columns."""
    return all(not line[a:b].strip() for a, b in gaps)


def _read_line(rows: _Cells, offset: int, line: str, starts: list[int]) -> None:
    """`rows` with a line of a simple table: a row, or more of the row above it.

    A line whose first column is blank goes on with the row above; a line under header
    cells spanning columns (`_SPAN_LINE`) holds no text.
    """
    if _SPAN_LINE.fullmatch(line):
        return
    cells = [line[a:b].strip() for a, b in pairwise([*starts, max(len(line), starts[-1])])]
    if cells[0] or not rows:
        rows.append((offset, offset + len(line), [[cell] for cell in cells]))
    else:
        start, _, kept = rows[-1]
        rows[-1] = (start, offset + len(line), [[*k, c] for k, c in zip(kept, cells, strict=True)])


_MARK = 2
"""The most characters of a cell that only marks ("Y", "S", "x", "✓")."""


def _finished(rows: _Cells, header: tuple[str, ...]) -> list[Row]:
    """The rows read, each cell's lines joined, as `Row`s.

    Not a row too long for one, nor a row of marks: three cells or more, the others than
    the first at most `_MARK` characters each (setuptools' matrix of which tool reads which
    option, "[metadata] description-file: setuptools: S; distutils2: Y; …", had taken an
    answer's place beside the sentence saying which content type is the default).
    """
    return [
        Row(start, end, texts, header)
        for start, end, parts in rows
        if _readable(texts := tuple(_joined(part) for part in parts))
        and not (len(texts) >= 3 and all(len(text) <= _MARK for text in texts[1:]))
    ]


def _rows_above(lines: list[tuple[int, str]], index: int, read_to: int) -> tuple[list[Row], int]:
    """The rows above a simple table's last border whose top a chunk cut off.

    Pygments' renamed colours: a chunk opening at "``ansibrightcyan``    ``#ansiturquoise``",
    the row asked for, below the table's header in the chunk before. The lines from the
    paragraph's start (never above `read_to`, where a table read already ends) are rows
    without a header when each fits the border's columns.
    """
    starts, gaps = _columns(lines[index][1])
    top = index
    while top > read_to and lines[top - 1][1].strip() and _fits(lines[top - 1][1], gaps):
        top -= 1
    if top > read_to and lines[top - 1][1].strip():
        return [], index + 1  # a line above breaks the columns: no table's rows
    rows: _Cells = []
    for offset, line in lines[top:index]:
        _read_line(rows, offset, line.rstrip("\r"), starts)
    return _finished(rows, ()), index + 1


def _simple(lines: list[tuple[int, str]], index: int) -> tuple[list[Row], int]:
    """The rows of the simple table whose border is `lines[index]`; the index after it.

    The table ends at a border followed by a blank line or the text's end, or at a blank
    line not followed by a row; a line breaking the columns (text across a gap the border
    leaves) is no table's.
    """
    starts, gaps = _columns(lines[index][1])
    header: tuple[str, ...] = ()
    rows: _Cells = []
    at = index + 1
    while at < len(lines):
        offset, line = lines[at][0], lines[at][1].rstrip("\r")
        following = lines[at + 1][1] if at + 1 < len(lines) else ""
        if _SIMPLE_BORDER.fullmatch(line):
            at += 1
            if not following.strip():
                break  # the table's last border
            if not header and rows:
                header, rows = _cells_of(rows), []
            continue
        if not line.strip():
            if not following.strip() or not _fits(following, gaps):
                break
            at += 1
            continue
        if not _fits(line, gaps):
            return [], at + 1
        _read_line(rows, offset, line, starts)
        at += 1
    return _finished(rows, header), at


def _cells_of(rows: _Cells) -> tuple[str, ...]:
    """A header's cells: its lines' text per column, however many lines it takes."""
    columns = len(rows[0][2])
    return tuple(_joined([t for _, _, parts in rows for t in parts[c]]) for c in range(columns))


_LIST_TABLE = re.compile(r"^([ \t]*)\.\.[ \t]+list-table::[^\n]*$", re.MULTILINE)
_HEADER_ROWS = re.compile(r"[ \t]*:header-rows:[ \t]*(\d+)[ \t]*")
_OPTION = re.compile(r"[ \t]*:[\w-]+:")
_CELL_ITEM = re.compile(r"([ \t]*)[-*+][ \t]+")


def _list_table_rows(text: str) -> list[Row]:
    """The body rows of every list table of `text`, in order (see the module docstring)."""
    if "list-table::" not in text:
        return []
    rows: list[Row] = []
    for directive in _LIST_TABLE.finditer(text):
        rows.extend(_list_table(text, directive.end(), _indent(directive.group(1))))
    return rows


def _list_table(text: str, start: int, indent: int) -> list[Row]:
    """The rows of the list table whose directive ends at `start`, indented past `indent`."""
    header_rows = 0
    items: list[list[tuple[int, int, str]]] = []  # per row, its lines: (offset, depth, line)
    row_indent = -1
    position = start + 1
    while position < len(text):
        end = text.find("\n", position)
        end = len(text) if end < 0 else end
        line = text[position:end]
        if line.strip():
            depth = _indent(line)
            if depth <= indent:
                break
            option = _HEADER_ROWS.fullmatch(line)
            if not items and (option or _OPTION.match(line)):
                header_rows = int(option.group(1)) if option else header_rows
            elif (found := _CELL_ITEM.match(line)) and (row_indent < 0 or depth == row_indent):
                row_indent = depth
                items.append([(position, depth + found.end() - len(found.group(1)), line)])
            elif items:
                items[-1].append((position, depth, line))
        position = end + 1
    rows = [(lines, _list_cells([(depth, line) for _, depth, line in lines])) for lines in items]
    header = rows[header_rows - 1][1] if 0 < header_rows <= len(rows) else ()
    return [
        Row(lines[0][0], lines[-1][0] + len(lines[-1][2]), cells, header)
        for lines, cells in rows[header_rows:]
        if _readable(cells)
    ]


def _list_cells(lines: list[tuple[int, str]]) -> tuple[str, ...]:
    """A row's cells: its own items (the first opening on the row's line), lines joined."""
    first_column, first = lines[0]
    opened = _CELL_ITEM.match(first)
    inner = first[opened.end() :] if opened else first
    cells: list[list[str]] = []
    column = first_column  # where the row's first cell marker stands
    for depth, line in [(first_column, inner), *lines[1:]]:
        item = _CELL_ITEM.match(line.lstrip(" \t")) if depth == column else None
        if item is not None:
            cells.append([line.lstrip(" \t")[item.end() :]])
        elif cells:
            cells[-1].append(line.strip())
    return tuple(_joined(cell) for cell in cells)
