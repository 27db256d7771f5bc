"""A retrieved passage on the wire: one shape for search hits everywhere.

`citesynth search --json`, `POST /api/search` and the MCP `search` tool all return
`Passage` values (docs/search-json.md); the source view of the service extends the same
`ChunkFields`. Versioned by `SEARCH_SCHEMA_VERSION`: fields may be added; none changes
meaning or disappears without a bump.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from citesynth.types import Chunk, Hit, is_web

SEARCH_SCHEMA_VERSION = 1
"""Bump when a field of `Passage` changes meaning or disappears (adding fields is fine)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ChunkFields(_Frozen):
    """A chunk's text and where it lives (what passages and source views share)."""

    chunk_id: str
    doc_id: str
    path: str
    title: str
    heading_path: list[str]
    page: int | None
    start_line: int
    end_line: int
    location: str = Field(
        description="How to cite it: path:Lstart-Lend, path, p. N, or path#record"
    )
    text: str = Field(description="The chunk text, exactly as in the document")


class RetrievalSignals(_Frozen):
    """What each retriever said about a passage (null: that retriever did not return it)."""

    lexical_rank: int | None
    lexical_score: float | None
    dense_rank: int | None
    cosine: float | None
    coverage: float = Field(description="Share of the query's terms in the chunk")


class Passage(ChunkFields):
    """A ranked chunk with its provenance, score and Pass-1 confidence."""

    rank: int = Field(description="1 for the best passage")
    char_start: int
    char_end: int
    record_id: str | None = Field(description="The record's id when the source is JSONL")
    url: str = Field(description="file://path#Lstart-Lend, file://path#page=N or #record")
    score: float = Field(description="The fused retrieval score (comparable within one query)")
    confidence: float = Field(description="Pass-1 confidence that the chunk is relevant, 0..1")
    signals: RetrievalSignals


def chunk_url(chunk: Chunk) -> str:
    """`file://path#L10-L24`, `file://path#page=5`, `file://path#record`, or a web address."""
    if is_web(chunk.path):
        return chunk.path
    if chunk.page is not None:
        return f"file://{chunk.path}#page={chunk.page}"
    if chunk.record_id is not None:
        return f"file://{chunk.path}#{chunk.record_id}"
    return f"file://{chunk.path}#L{chunk.start_line}-L{chunk.end_line}"


def chunk_fields(chunk: Chunk) -> ChunkFields:
    """The `ChunkFields` of a chunk."""
    return ChunkFields(
        chunk_id=chunk.id,
        doc_id=chunk.document_id,
        path=chunk.path,
        title=chunk.title,
        heading_path=list(chunk.heading_path),
        page=chunk.page,
        start_line=chunk.start_line,
        end_line=chunk.end_line,
        location=chunk.location,
        text=chunk.text,
    )


def passage(hit: Hit, rank: int) -> Passage:
    """A hit as a `Passage` ranked `rank` (scores rounded for display)."""
    chunk, signals = hit.chunk, hit.signals
    return Passage(
        **dict(chunk_fields(chunk)),
        rank=rank,
        char_start=chunk.char_start,
        char_end=chunk.char_end,
        record_id=chunk.record_id,
        url=chunk_url(chunk),
        score=round(hit.score, 6),
        confidence=round(hit.confidence, 4),
        signals=RetrievalSignals(
            lexical_rank=signals.lexical_rank,
            lexical_score=_round(signals.lexical_score),
            dense_rank=signals.dense_rank,
            cosine=_round(signals.cosine),
            coverage=round(signals.coverage, 4),
        ),
    )


def passages(hits: list[Hit]) -> list[Passage]:
    """Hits as passages ranked 1..n."""
    return [passage(hit, rank) for rank, hit in enumerate(hits, start=1)]


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
