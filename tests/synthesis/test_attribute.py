"""Post-hoc attribution: statements a source clearly holds get its citation, titles never."""

from __future__ import annotations

from citesynth.synthesis.attribute import attribute
from citesynth.synthesis.sources import Source
from citesynth.types import Chunk, ChunkId, DocumentId, Hit

_PAGE = (
    "# How Does It Work?\n\nOnce you apply the decorator to a class, attrs searches the class "
    "object for instances of attr.ib."
)


def _source() -> Source:
    chunk = Chunk(
        ChunkId("c1"), DocumentId("d1"), "how.md", "How Does It Work?", (), _PAGE, 0, 120, 1, 3
    )
    return Source(1, Hit(chunk, 1.0, 0.9), _PAGE)


def test_a_statement_a_source_holds_is_cited() -> None:
    text = "Once you apply the decorator, attrs searches the class object for instances."
    assert attribute(text, [_source()]) == (
        "Once you apply the decorator, attrs searches the class object for instances [1].",
        1,
    )


def test_a_title_line_is_no_statement_to_cite() -> None:
    # The extractive writer heads each document with its title; one ending in "?" reads as a
    # sentence of its own, and its words are the document's.
    text = (
        "**How Does It Work?**\nOnce you apply the decorator, attrs searches the class "
        "object for instances [1]."
    )
    assert attribute(text, [_source()]) == (text, 0)
