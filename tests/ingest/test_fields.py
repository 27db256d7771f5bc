"""Sphinx info fields read as statements (`ingest.fields`)."""

from __future__ import annotations

import time

from citesynth.ingest.fields import MOST_WORDS, field_text, info_fields

_CONNECTOR = (
    ".. class:: BaseConnector(*, limit=100, limit_per_host=0)\n\n"
    "   Base class for all connectors.\n\n"
    "   :param int limit: total number simultaneous connections. If *limit* is\n"
    "                     ``0`` the connector has no limit (default: 100).\n\n"
    "   :param limit_per_host: limit simultaneous connections to the same\n"
    "      endpoint.\n\n"
    "      .. versionadded:: 3.1\n\n"
    "   :type limit_per_host: int\n"
    "   :raises ValueError: if *limit* is negative.\n"
    "   :returns: nothing at all.\n"
    "   :rtype: None\n"
)


def test_each_field_naming_something_is_read_with_its_whole_first_paragraph() -> None:
    read = [field_text(field) for field in info_fields(_CONNECTOR)]
    assert read == [
        "`limit` (int): total number simultaneous connections. If *limit* is ``0`` the "
        "connector has no limit (default: 100).",
        "`limit_per_host`: limit simultaneous connections to the same endpoint.",
        "Raises `ValueError`: if *limit* is negative.",
        "Returns: nothing at all.",
    ]  # a type alone (":type …:", ":rtype:") states nothing; the version note is prose
    first = info_fields(_CONNECTOR)[0]
    assert _CONNECTOR[first.start :].startswith("   :param int limit:")
    assert _CONNECTOR[: first.end].endswith("(default: 100).")
    assert (first.kind, first.name, first.type) == ("param", "limit", "int")


def test_a_field_shown_in_code_is_an_example_not_a_description() -> None:
    text = (
        "Write parameters like this::\n\n    :param str name: the name.\n\n"
        "```rst\n:param int size: the size.\n```\n\n"
        ".. code-block:: rst\n\n   :param bool flag: the flag.\n\n"
        ":param int kept: really described.\n"
    )
    assert [field.name for field in info_fields(text)] == ["kept"]


def test_a_long_field_is_cut_after_its_first_sentences() -> None:
    sentence = "This sentence has exactly ten words in it, you see. "
    text = f":param x: {sentence * 12}\n"
    (field,) = info_fields(text)
    assert len(field.text.split()) <= MOST_WORDS and field.text.endswith("you see.")
    assert info_fields(":param x: " + "word " * 200 + "\n")[0].text.count("word") == 200


def test_a_role_or_a_directive_option_is_no_field() -> None:
    text = ":class:`Foo` is a class.\n\n.. autoclass:: Foo\n   :members:\n\n:param: no name\n"
    assert info_fields(text) == ()


def test_the_fields_below_an_example_in_a_chunk_cut_inside_a_field_are_read() -> None:
    # aiohttp's `base_url` field: the chunk opens six columns in, trimmed, and the field
    # list three columns in below its example had been read as part of the example.
    chunk = (
        "Note that URL joining follows RFC 3986. This means, in the most\n"
        "      common case the request URLs should have no leading slash, e.g.::\n\n"
        '        session = ClientSession(base_url="http://example.com/foo/")\n\n'
        "      .. versionadded:: 3.8\n\n"
        "   :param dict cookies: Cookies to send with the request (optional)\n"
    )
    assert [field.name for field in info_fields(chunk)] == ["cookies"]


def test_a_chunk_opening_at_a_field_reads_each_field_below_it_on_its_own() -> None:
    # peewee's `PooledDatabase`: the chunk opens at the first field's colon, its
    # indentation left before the chunk, above fields indented three columns
    chunk = (
        ":param str database: The name of the database or database file.\n"
        "   :param int max_connections: Maximum number of concurrent connections.\n"
        "       Pass ``None`` for no limit.\n"
        "   :param int timeout: Seconds to block when all connections are in use.\n\n"
        "   Connections will not be closed exactly when they exceed their\n"
        "   ``stale_timeout``.\n"
    )
    assert [field_text(field) for field in info_fields(chunk)] == [
        "`database` (str): The name of the database or database file.",
        "`max_connections` (int): Maximum number of concurrent connections. Pass ``None`` "
        "for no limit.",
        "`timeout` (int): Seconds to block when all connections are in use.",
    ]


STYLE_RULES = """Here a small overview of all allowed styles:

``nobold``
    don't render text as bold (to prevent subtokens being highlighted bold)
``noinherit``
    don't inherit styles from supertoken

`tabsize`
    If given and greater than 0, expand tabs in the input (default: ``0``).

Shown as code::

    ``bold``
        render text as bold
"""


def test_a_code_terms_definition_no_prose_sentence_reads_is_a_statement() -> None:
    terms = [f for f in info_fields(STYLE_RULES) if f.kind == "term"]
    assert [field_text(f) for f in terms] == [
        "`nobold`: don't render text as bold (to prevent subtokens being highlighted bold)",
        "`noinherit`: don't inherit styles from supertoken",
    ]  # `tabsize`'s definition is a sentence already, and code holds no definition list
    assert STYLE_RULES[terms[1].start :].startswith("``noinherit``")


def test_code_terms_nested_one_below_another_define_nothing_and_read_fast() -> None:
    nested = "x: y\n" + "".join(" " * depth + "``a``\n" for depth in range(2_000))
    started = time.perf_counter()
    assert [f for f in info_fields(nested) if f.kind == "term"] == []
    flat = "x: y\n" + "``a``\n    what a is\n" * 5_000
    assert len(info_fields(flat)) == 5_000
    assert time.perf_counter() - started < 5.0
