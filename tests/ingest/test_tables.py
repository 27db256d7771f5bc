"""Table rows read as statements: Markdown pipe tables, reStructuredText grid, simple and list
tables."""

from __future__ import annotations

import time

from citesynth.ingest.sentences import prose_sentences
from citesynth.ingest.tables import Row, row_text, table_rows

SMARTY = """The following options are provided to configure the output:

Option                | Default value | Description
------                | ------------- | -----------
`smart_dashes`        | `True`        | whether to convert dashes
`smart_angled_quotes` | `False`       | whether to convert angled quotes

A trivial example:
"""

LOOP = """Inside of a for-loop block, you can access some special variables:

+-----------------------+---------------------------------------------------+
| Variable              | Description                                       |
+=======================+===================================================+
| `loop.index`          | The current iteration of the loop. (1 indexed)    |
+-----------------------+---------------------------------------------------+
| `loop.revindex`       | The number of iterations from the end of the loop |
|                       | (1 indexed)                                       |
+-----------------------+---------------------------------------------------+
"""


def test_a_pipe_tables_rows_read_with_its_header() -> None:
    rows = table_rows(SMARTY)
    assert [row.cells for row in rows] == [
        ("`smart_dashes`", "`True`", "whether to convert dashes"),
        ("`smart_angled_quotes`", "`False`", "whether to convert angled quotes"),
    ]
    assert rows[0].header == ("Option", "Default value", "Description")
    assert SMARTY[rows[1].start : rows[1].end].startswith("`smart_angled_quotes` | `False`")
    assert row_text(rows[1]) == (
        "`smart_angled_quotes`: Default value: `False`; Description: whether to convert angled "
        "quotes."
    )


def test_a_grid_tables_rows_join_their_lines_below_the_header() -> None:
    rows = table_rows(LOOP)
    assert [row_text(row) for row in rows] == [
        "`loop.index`: The current iteration of the loop. (1 indexed).",
        "`loop.revindex`: The number of iterations from the end of the loop (1 indexed).",
    ]
    assert rows[0].header == ("Variable", "Description")
    assert LOOP[rows[1].start : rows[1].end].count("\n") == 1  # its two lines, no border


# Babel's date fields: a field's cell spans the rows of its symbols
SPANNED = """\
  +----------+--------+-----------------------------------+
  | Field    | Symbol | Description                       |
  +==========+========+===================================+
  | Week day | ``E``  | Day of week.                      |
  |          +--------+-----------------------------------+
  |          | ``e``  | Local day of week, which will     |
  |          |        | depend on the starting day.       |
  |          +--------+-----------------------------------+
  |          | ``c``  | ??                                |
  +----------+--------+-----------------------------------+
"""


def test_a_cell_spanning_rows_reads_with_each_of_them_and_no_border_is_a_cell() -> None:
    assert [row_text(row) for row in table_rows(SPANNED)] == [
        "Week day: Symbol: ``E``; Description: Day of week.",
        "Week day: Symbol: ``e``; Description: Local day of week, which will depend on the "
        "starting day.",
        "Week day: Symbol: ``c``; Description: ??",
    ]
    # a chunk's text opens unindented, cut inside the "e" row: the rest of it is no row
    lines = SPANNED.splitlines(keepends=True)
    cut = lines[6].lstrip() + "".join(lines[7:])
    assert [row_text(row) for row in table_rows(cut)] == ["``c``; ??"]


def test_a_pipe_inside_code_or_escaped_splits_no_cell() -> None:
    text = "| name | meaning |\n|:---|---:|\n| `a|b` | one \\| two |\n"
    (row,) = table_rows(text)
    assert row.cells == ("`a|b`", "one | two")


def test_no_rows_in_code_a_cell_spanning_columns_or_without_a_delimiter() -> None:
    fenced = "```\n| a | b |\n|---|---|\n| c | d |\n```\n"
    spanning = "+---+---+\n| a | b |\n+---+---+\n| spans both  |\n+-------+\n"
    undelimited = "| a | b |\n| c | d |\n"
    assert table_rows(fenced) == table_rows(spanning) == table_rows(undelimited) == ()


def test_a_row_of_two_cells_reads_name_then_description() -> None:
    assert row_text(Row(0, 1, ("`-x`", "Load an extension"), ("Flag", "Meaning"))) == (
        "`-x`: Load an extension."
    )
    assert row_text(Row(0, 1, ("a", "b", "c"))) == "a: b; c."


def test_a_long_grid_table_is_chunked_between_its_rows_and_every_row_is_read() -> None:
    from citesynth.ingest.chunking import split
    from citesynth.ingest.loaders import load_rst

    rows = "".join(
        f"| {f'`loop.var{n}`':<12} | {f'Variable number {n} of the loop,':<32} |\n"
        f"| {'':<12} | {'described on two lines.':<32} |\n"
        "+--------------+----------------------------------+\n"
        for n in range(30)
    )
    page = (
        "Loops\n=====\n\nThe loop variables:\n\n"
        "+--------------+----------------------------------+\n"
        "| Variable     | Description                      |\n"
        "+==============+==================================+\n" + rows
    )
    (parsed,) = load_rst("loops.rst", page.encode()).parsed
    chunks = split(parsed, target_tokens=200, overlap_tokens=30)
    assert len(chunks) > 3
    read = {row.cells[0] for chunk in chunks for row in table_rows(chunk.text)}
    assert read == {f"`loop.var{n}`" for n in range(30)}
    for chunk in chunks[1:]:  # each opens with a row's first line
        assert chunk.text.startswith("| `loop.var"), chunk.text[:40]


def test_code_not_fenced_holds_no_table_and_a_note_does() -> None:
    # review: a query's result drawn as a grid in a literal block read as rows
    literal = "Run the query::\n\n    +----+-------+\n    | id | name  |\n    +====+=======+\n"
    literal += "    | 1  | alice |\n    +----+-------+\n"
    directive = ".. code-block:: markdown\n\n   | x | y |\n   |---|---|\n   | a | b |\n"
    indented = "Some text here.\n\n    | x | y |\n    |---|---|\n    | a | b |\n"
    assert table_rows(literal) == table_rows(directive) == table_rows(indented) == ()
    note = ".. note::\n\n   +------+------+\n   | a    | b    |\n   +======+======+\n"
    note += "   | c    | d    |\n   +------+------+\n"
    assert [row_text(row) for row in table_rows(note)] == ["c: d."]


def test_a_row_with_one_cell_reads_as_it_is_and_hostile_tables_read_in_linear_time() -> None:
    assert row_text(Row(0, 1, ("foo",))) == "foo."
    assert row_text(Row(0, 1, ("Note: be careful",))) == "Note: be careful."
    started = time.perf_counter()
    for hostile in ("a | b\n" + " " * 100_000 + "x", "|\n" * 50_000, "+-" * 50_000):
        table_rows(hostile)
    assert time.perf_counter() - started < 2.0


def test_a_pipe_table_right_below_other_lines_of_pipes_is_read() -> None:
    text = "| a note drawn in a box |\n| Name | Meaning |\n|---|---|\n| `-x` | Load it |\n"
    assert [row.cells for row in table_rows(text)] == [("`-x`", "Load it")]


LIST_TABLE = """tox maps its ``-v`` / ``-q`` flags to standard logging levels:

.. list-table::
    :header-rows: 1
    :widths: 15 25 60

    - - Flags
      - Logging level
      - Notes
    - - ``-v``
      - ``WARNING``
      - Warnings and above are shown. This is the first
        level that appears in normal output.

    - - ``-vv``
      - ``INFO``
      - Informational messages appear.

After the table.
"""


def test_a_list_tables_items_are_rows_and_their_items_cells() -> None:
    rows = table_rows(LIST_TABLE)
    assert [row.cells for row in rows] == [
        (
            "``-v``",
            "``WARNING``",
            "Warnings and above are shown. This is the first level that appears in normal output.",
        ),
        ("``-vv``", "``INFO``", "Informational messages appear."),
    ]
    assert all(row.header == ("Flags", "Logging level", "Notes") for row in rows)
    assert (
        row_text(rows[1])
        == "``-vv``: Logging level: ``INFO``; Notes: Informational messages appear."
    )
    assert LIST_TABLE[rows[1].start : rows[1].end].strip().startswith("- - ``-vv``")
    assert LIST_TABLE[rows[1].start : rows[1].end].endswith("Informational messages appear.")
    # without a header row every item is a row; cut from its directive, none
    headless = LIST_TABLE.replace("    :header-rows: 1\n", "")
    assert [row.cells[0] for row in table_rows(headless)] == ["Flags", "``-v``", "``-vv``"]
    assert table_rows(LIST_TABLE[LIST_TABLE.index("    - - Flags") :]) == ()


def test_a_hostile_list_table_is_read_in_linear_time() -> None:
    hostile = ".. list-table::\n\n" + "    - - x\n      - y\n" * 20_000
    started = time.perf_counter()
    assert len(table_rows(hostile)) == 20_000
    assert time.perf_counter() - started < 5.0


COLOURS = """The definition of the ANSI color names has changed.

===================== ====================
New names             Pygments up to 2.3
===================== ====================
``ansibrightcyan``    ``#ansiturquoise``
``ansiwhite``         ``#ansiwhite``
===================== ====================

Old ANSI color names are deprecated but will still work.
"""

ROUTE = """Here are the parameters that `route` accepts.

=============== ==========================================================
`rule`          the URL rule as string
`endpoint`      the endpoint for the registered URL rule. Flask itself
                assumes that the name of the view function is the name
                of the endpoint if not explicitly stated.
`defaults`      A dictionary with defaults for this rule.
=============== ==========================================================
"""


def test_a_simple_tables_rows_read_with_its_header_and_their_lines_joined() -> None:
    rows = table_rows(COLOURS)
    assert [r.cells for r in rows] == [
        ("``ansibrightcyan``", "``#ansiturquoise``"),
        ("``ansiwhite``", "``#ansiwhite``"),
    ]
    assert rows[0].header == ("New names", "Pygments up to 2.3")
    assert COLOURS[rows[0].start : rows[0].end].startswith("``ansibrightcyan``")
    assert row_text(rows[0]) == "``ansibrightcyan``: ``#ansiturquoise``."
    route = table_rows(ROUTE)  # no header; a blank first column goes on with the row above
    assert [r.cells[0] for r in route] == ["`rule`", "`endpoint`", "`defaults`"]
    assert route[1].cells[1] == (
        "the endpoint for the registered URL rule. Flask itself assumes that the name of the "
        "view function is the name of the endpoint if not explicitly stated."
    )
    assert route[1].header == ()


def test_a_simple_table_is_no_prose_and_its_paragraphs_around_it_are() -> None:
    said = [ROUTE[a:b] for a, b in prose_sentences(ROUTE)]
    assert said == ["Here are the parameters that `route` accepts."]
    said = [COLOURS[a:b] for a, b in prose_sentences(COLOURS)]
    assert said[-1] == "Old ANSI color names are deprecated but will still work."
    assert not any("ansiturquoise" in sentence for sentence in said)


def test_a_simple_table_in_a_block_quote_or_cut_is_read_in_a_literal_block_it_is_not() -> None:
    hosts = (
        "You can find the hosts file on the following location:\n\n"
        "    =============== ==================\n"
        "    Windows         ``C:\\hosts``\n"
        "    Linux / OS X    ``/etc/hosts``\n"
        "    =============== ==================\n"
    )
    assert [r.cells for r in table_rows(hosts)][1] == ("Linux / OS X", "``/etc/hosts``")
    literal = hosts.replace("location:\n", "location::\n")
    assert table_rows(literal) == ()
    cut = COLOURS[COLOURS.index("``ansibrightcyan``") :]  # a chunk opening inside the table
    assert [r.cells for r in table_rows(cut)] == [
        ("``ansibrightcyan``", "``#ansiturquoise``"),
        ("``ansiwhite``", "``#ansiwhite``"),
    ]
    assert not any("ansiturquoise" in cut[a:b] for a, b in prose_sentences(cut))
    across = "======= =======\nname    value\nlonger_than_its_column x\n======= =======\n"
    assert table_rows(across) == ()


def test_hostile_simple_tables_read_in_linear_time() -> None:
    started = time.perf_counter()
    for hostile in ("= =\n" * 50_000, "= " * 50_000 + "\n" + "x " * 50_000 + "\n"):
        table_rows(hostile)
    assert time.perf_counter() - started < 3.0


def test_a_simple_tables_row_of_marks_only_is_no_statement() -> None:
    matrix = (
        "=========================== ========== ===== ===\n"
        "Option                      setuptools d2to1 pbr\n"
        "=========================== ========== ===== ===\n"
        "[metadata] description-file S          Y     Y\n"
        "[files] data_files          Y          Y     Y\n"
        "=========================== ========== ===== ===\n"
    )
    assert table_rows(matrix) == ()
