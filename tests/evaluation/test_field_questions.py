"""The questions only a parameter's description answers (benchmarks/field_questions.py)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.field_questions import _docs_fields, _jsdoc_fields, _source_fields


def test_each_corpus_kind_gives_its_parameters_with_their_owner_and_first_sentence(
    tmp_path: Path,
) -> None:
    (tmp_path / "ref.rst").write_text(
        ".. class:: Connector(limit=100)\n\n   A connector.\n\n"
        "   :param int limit: total number of simultaneous connections. More text.\n"
        "   :param x: too short.\n   :type limit: int\n"
    )
    (tmp_path / "client.py").write_text(
        "class Client:\n    def __init__(self, retries):\n"
        '        """Create it.\n\n        :param retries: how many times a request is sent.\n'
        '        """\n'
    )
    (tmp_path / "chunk.js").write_text(
        "/**\n * Split an array.\n * @param {number} [size=1] The length of each chunk\n */\n"
        "function chunk(array, size) {}\n"
    )
    assert _docs_fields(tmp_path) == [
        ("limit", "Connector", "ref.rst", "total number of simultaneous connections.")
    ]  # "too short." has fewer than five words, a type alone is no description
    assert _source_fields(tmp_path) == [
        ("retries", "Client", "client.py", "how many times a request is sent.")
    ]  # `__init__`'s parameters are asked of its class
    assert _jsdoc_fields(tmp_path) == [("size", "chunk", "chunk.js", "The length of each chunk")]
