"""The provenance contract, property-tested across formats.

For every chunk: the document text sliced at its offsets is exactly the chunk text, its
line numbers are those of its first and last characters, and together the chunks cover
every non-whitespace character of the document.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citesynth.analysis import estimate_tokens
from citesynth.ingest.blocks import paragraphs
from citesynth.ingest.chunking import split
from citesynth.ingest.lines import LineMap
from citesynth.ingest.loaders import (
    Parsed,
    load_code,
    load_html,
    load_markdown,
    load_rst,
    load_text,
)
from citesynth.types import Chunk, Document, DocumentId, DocumentKind

WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyzéß", min_size=1, max_size=12)
SENTENCE = st.lists(WORDS, min_size=1, max_size=30).map(lambda ws: " ".join(ws).capitalize() + ".")
PARAGRAPH = st.lists(SENTENCE, min_size=1, max_size=8).map(" ".join)
HEADING = st.tuples(st.integers(1, 4), st.lists(WORDS, min_size=1, max_size=5)).map(
    lambda t: "#" * t[0] + " " + " ".join(t[1])
)
FENCE = st.lists(st.text(alphabet="xyz =()+1\t", max_size=40), max_size=12).map(
    lambda lines: "```\n" + "\n".join(lines) + "\n```"
)
LIST = st.lists(SENTENCE, min_size=1, max_size=6).map(
    lambda items: "\n".join(f"- {i}" for i in items)
)
MARKDOWN = st.tuples(
    st.lists(st.one_of(HEADING, PARAGRAPH, FENCE, LIST), min_size=1, max_size=25),
    st.sampled_from(["\n\n", "\n\n\n", "\r\n\r\n", "\n  \n"]),
).map(lambda parts: parts[1].join(parts[0]))

SIZES = st.tuples(st.integers(24, 300), st.integers(0, 60)).map(
    lambda t: (t[0], min(t[1], t[0] // 2))
)

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check(document: Document, chunks: list[Chunk]) -> None:
    text = document.text
    lines = LineMap(text, document.anchors)
    covered = bytearray(len(text))
    previous_start = -1
    for chunk in chunks:
        assert text[chunk.char_start : chunk.char_end] == chunk.text
        assert chunk.text and chunk.text == chunk.text.strip()
        assert (chunk.start_line, chunk.page) == lines.locate(chunk.char_start)
        assert chunk.end_line == lines.locate(chunk.char_end - 1)[0]
        assert chunk.start_line <= chunk.end_line
        assert chunk.char_start >= previous_start
        previous_start = chunk.char_start
        covered[chunk.char_start : chunk.char_end] = b"\x01" * (chunk.char_end - chunk.char_start)
    missing = [i for i, char in enumerate(text) if not char.isspace() and not covered[i]]
    assert not missing, f"uncovered text at {missing[:5]}: {text[missing[0] : missing[0] + 40]!r}"
    assert len({chunk.id for chunk in chunks}) == len(chunks)


def check_plain_lines(document: Document, chunks: list[Chunk]) -> None:
    """For text formats, lines are simply newlines counted in the original file."""
    for chunk in chunks:
        assert chunk.start_line == document.text.count("\n", 0, chunk.char_start) + 1
        assert chunk.end_line == document.text.count("\n", 0, chunk.char_end - 1) + 1


def chunked(parsed: Parsed, size: tuple[int, int]) -> list[Chunk]:
    return split(parsed, target_tokens=size[0], overlap_tokens=size[1])


@FAST
@given(MARKDOWN, SIZES)
def test_markdown_chunks_are_exact_slices(source: str, size: tuple[int, int]) -> None:
    (parsed,) = load_markdown("doc.md", source.encode()).parsed
    chunks = chunked(parsed, size)
    check(parsed.document, chunks)
    check_plain_lines(parsed.document, chunks)


@FAST
@given(st.text(min_size=1, max_size=3000).filter(lambda t: t.strip()), SIZES)
def test_any_text_chunks_are_exact_slices(source: str, size: tuple[int, int]) -> None:
    # Straight to the chunker: the decoder rightly refuses control-character soup as binary.
    document = Document(DocumentId("b2:x"), "doc.txt", "doc", DocumentKind.TEXT, source)
    parsed = Parsed(document, tuple(paragraphs(source)))
    chunks = chunked(parsed, size)
    check(document, chunks)
    check_plain_lines(document, chunks)


@FAST
@given(MARKDOWN, SIZES)
def test_rst_and_code_chunks_are_exact_slices(source: str, size: tuple[int, int]) -> None:
    rst = source.replace("# ", "").replace("```", "::")
    for loaded in (
        load_rst("doc.rst", rst.encode()),
        load_code("doc.py", source.encode()),
        load_code("doc.go", source.encode()),
        load_code("doc.yaml", source.encode()),
    ):
        (parsed,) = loaded.parsed
        chunks = chunked(parsed, size)
        check(parsed.document, chunks)
        check_plain_lines(parsed.document, chunks)


@FAST
@given(st.lists(PARAGRAPH, min_size=1, max_size=12), st.randoms(use_true_random=False), SIZES)
def test_html_chunks_point_at_their_source_lines(
    paragraphs: list[str], rnd: object, size: tuple[int, int]
) -> None:
    # Number every word so that each word occurs once and its source line is unambiguous.
    counter = iter(range(10**6))
    numbered = [re.sub(r"\w+", lambda m: f"{m.group()}{next(counter)}", p) for p in paragraphs]
    body = []
    for paragraph in numbered:
        words = paragraph.split(" ")
        # Break paragraphs over source lines at random points, as hand-written HTML does.
        lines = [" ".join(words[i : i + 1 + rnd.randint(0, 6)]) for i in range(0, len(words), 7)]  # type: ignore[attr-defined]
        body.append("<p>" + "\n   ".join(lines) + "</p>")
    source = "<html><body>\n<nav>NAVBAR LINKS</nav>\n" + "\n".join(body) + "\n</body></html>\n"
    (parsed,) = load_html("page.html", source.encode()).parsed
    chunks = chunked(parsed, size)
    check(parsed.document, chunks)
    source_lines = source.split("\n")
    for chunk in chunks:
        first_word = chunk.text.split()[0]
        last_word = chunk.text.split()[-1]
        assert first_word in source_lines[chunk.start_line - 1]
        assert last_word in source_lines[chunk.end_line - 1]
    assert "NAVBAR" not in parsed.document.text


@FAST
@given(st.lists(PARAGRAPH, min_size=1, max_size=6), SIZES)
def test_chunks_respect_the_token_target(paragraphs: list[str], size: tuple[int, int]) -> None:
    (parsed,) = load_text("doc.txt", "\n\n".join(paragraphs).encode()).parsed
    for chunk in chunked(parsed, size):
        assert estimate_tokens(chunk.text) <= size[0]
