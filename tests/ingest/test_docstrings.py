"""The prose of Python docstrings (`ingest.docstrings`)."""

from __future__ import annotations

from citesynth.ingest.docstrings import docstring_units

_SOURCE = '''"""A tiny HTTP client."""

class Client:
    def __init__(self, timeout: float = 5.0, retries: int = 3) -> None:
        """Create a client.

        :param timeout: seconds to wait for the server (default: 5.0).
        :param retries: how many times a failed request is sent again. Set it
            to 0 to never retry.
        :raises ValueError: if *timeout* is negative.
        """
        self.note = "a string, no docstring: it does not open its line"

    def fetch(self, path: str, *, stream: bool = False) -> bytes:
        """Fetch a path.

        Args:
            path: the path below the base URL.
            stream (bool): read the body lazily, chunk by
                chunk, instead of all at once.

        Keyword Args:
            retry: send it again once.

        Returns:
            The body of the response.
        """
'''


def test_each_sentence_and_described_item_of_a_docstring_is_a_unit_where_it_starts() -> None:
    units = docstring_units(_SOURCE)
    assert [unit.text for unit in units] == [
        "A tiny HTTP client.",
        "Create a client.",
        "`timeout`: seconds to wait for the server (default: 5.0).",
        "`retries`: how many times a failed request is sent again. Set it to 0 to never retry.",
        "Raises `ValueError`: if *timeout* is negative.",
        "Fetch a path.",
        "`path`: the path below the base URL.",
        "`stream` (bool): read the body lazily, chunk by chunk, instead of all at once.",
        "`retry`: send it again once.",
        "Returns: The body of the response.",
    ]
    where = {unit.text[:8]: _SOURCE[unit.start : unit.start + 14] for unit in units}
    assert where["`retries"] == ":param retries"
    assert where["`stream`"] == "stream (bool):"
    assert where["Returns:"] == "The body of th"


def test_a_chunk_cut_inside_a_docstring_is_read_to_its_end_or_from_its_start() -> None:
    chunk = '    def run(self) -> None:\n        """Run the job once.\n\n        It never retries.'
    assert [unit.text for unit in docstring_units(chunk)] == [
        "Run the job once.",
        "It never retries.",
    ]
    assert docstring_units("x = 1\n# no docstring here\n") == ()
    rest = '    rest of a docstring.\n    """\n    return x\n\ndef g():\n    """Say hello."""\n'
    assert [unit.text for unit in docstring_units(rest)] == ["rest of a docstring.", "Say hello."]
    assert [unit.text for unit in docstring_units('    The tail."""\n    x = 1\n')] == ["The tail."]
    middle = "    environ as a dict.\n\n    :param x_host: Number of values to trust.\n"
    assert [unit.text for unit in docstring_units(middle)] == [
        "environ as a dict.",
        "`x_host`: Number of values to trust.",
    ]  # a chunk inside a long docstring, no quotes in it
    assert docstring_units("    return fetch(path)\n\n    # done\n") == ()
    assigned = 'x = 1\nDOC = """\nNo docstring: a value.\n"""\n'
    assert docstring_units(assigned) == ()  # neither its quotes open nor close a docstring


def test_a_numpy_style_docstrings_sections_are_read_item_by_item() -> None:
    source = (
        "def read(path, limit=None):\n"
        '    """Read rows from a file.\n\n'
        "    Parameters\n    ----------\n"
        "    path : str\n        The file to read.\n"
        "    limit : int, optional\n        The most rows read. All rows\n        when None.\n\n"
        "    Returns\n    -------\n    list\n        The rows read.\n\n"
        "    Notes\n    -----\n    Rows are read lazily.\n"
        '    """\n'
    )
    assert [unit.text for unit in docstring_units(source)] == [
        "Read rows from a file.",
        "`path` (str): The file to read.",
        "`limit` (int, optional): The most rows read. All rows when None.",
        "Returns: The rows read.",
        "Rows are read lazily.",
    ]
    limit = next(unit for unit in docstring_units(source) if unit.text.startswith("`limit`"))
    assert source[limit.start :].startswith("limit : int")
