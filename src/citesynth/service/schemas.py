"""The service's request and response bodies (published in its OpenAPI document)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from citesynth.answers import Answer
from citesynth.passages import ChunkFields, Passage
from citesynth.synthesis.modes import ModeName

ConversationId = Field(default=None, pattern=r"^[A-Za-z0-9_.-]{1,64}$")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ChatRequest(_Body):
    """A question, with the same option names as the CLI's flags."""

    question: str = Field(min_length=1, max_length=4000)
    model: str | None = Field(
        default=None, max_length=200, description="A model name as for --model (default: server's)"
    )
    mode: ModeName | None = None
    k: int | None = Field(default=None, ge=1, le=100, description="Chunks to retrieve")
    conversation_id: str | None = ConversationId
    synthesize: bool = Field(default=True, description="False: the ranked chunks, no writing")
    keep_unsupported: bool = Field(
        default=False,
        description="Keep claims no source supports in the answer, flagged (default: removed)",
    )


class SearchRequest(_Body):
    """A search over the index."""

    query: str = Field(min_length=1, max_length=4000)
    k: int = Field(default=10, ge=1, le=100)


class RetrievedSource(_Body):
    """How one source ranked in retrieval."""

    number: int
    chunk_id: str
    location: str
    score: float
    confidence: float


class Diagnostics(_Body):
    """How an answer was made."""

    retrieval: list[RetrievedSource]
    timings_ms: dict[str, float]
    model: str
    prompt_version: str
    cache_hit: bool
    conversation_id: str | None = None
    standalone_question: str | None = Field(
        default=None, description="The follow-up rewritten to stand alone (conversations)"
    )


class ChatResponse(Answer):
    """The answer contract (DESIGN §5) with the request's diagnostics."""

    diagnostics: Diagnostics


class AnswerStatus(_Body):
    """`GET /api/answers/{request_id}` while the answer is not finished (or never will be)."""

    request_id: str
    status: Literal["running", "failed", "cancelled"]
    message: str | None = None


class SearchResponse(_Body):
    """`POST /api/search`."""

    query: str
    hits: list[Passage]
    latency_ms: float


class DocumentInfo(_Body):
    """An indexed file."""

    id: str
    path: str
    title: str
    size: int
    indexed_at: float
    documents: int
    chunks: int
    uploaded: bool = Field(description="Stored by the service (deleting it removes the file)")


class JobInfo(_Body):
    """An upload's ingestion, as far as it got."""

    id: str
    status: Literal["queued", "running", "done", "failed"]
    files: list[str]
    stage: str = Field(description="queued, reading, embedding, done or failed")
    done: int
    total: int
    indexed: int = 0
    chunks_added: int = 0
    skipped: list[dict[str, str]] = Field(default_factory=list)
    error: str | None = None


class SourceLine(_Body):
    """One line of a document around a cited chunk."""

    number: int
    page: int | None
    char_start: int = Field(description="Offset of the line's first character in the document")
    text: str
    in_chunk: bool


class SourceView(ChunkFields):
    """`GET /api/sources/{chunk_id}`: the chunk and the lines around it."""

    char_start: int
    char_end: int
    lines: list[SourceLine]


class Problem(_Body):
    """An error: what went wrong, in one sentence."""

    detail: str
    extra: dict[str, Any] | None = None
