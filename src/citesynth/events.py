"""Events streamed by long operations; the CLI renders them, the server sends them as SSE.

Answering yields `SourcesEvent` first (before any model token), then `TokenEvent`s with
`CitationEvent`s as each marker resolves, then `VerificationEvent`, and always ends with
`DoneEvent` carrying the full answer. When the model fails, an `ErrorEvent` (the message and
the ranked chunks) comes before that `DoneEvent`, whose answer is the fallback.

Indexing yields `IndexPlanned` once, then one event per file (`FileIndexed`,
`FileUnchanged`, `FileSkipped`, `FileRemoved`), then `EmbeddingProgress` while vectors are
computed, and finally `IndexFinished` with the report.

Every event is a frozen pydantic model with a literal `kind`; `AnswerEvent` and `IndexEvent`
are their discriminated unions, and `sse(event)` is the one encoder for server-sent events.
A new stream (a report's progress, an agent's steps) defines its own `Event` subclasses.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializeAsAny,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    model_serializer,
    model_validator,
)

from citesynth.answers import Answer, Citation, Claim, Conflict, SourceRecord, Verification
from citesynth.types import IndexReport


class Event(BaseModel):
    """A streamed event: `kind` names it (the SSE event name); the rest is its JSON body.

    Every event of an answer or a report is one of these, serialised by pydantic, so the
    service, the CLI and a Python client read the same shape. New streams (reports, agents)
    add their own subclasses with their own `kind` and join a union of their own.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str


class IndexPlanned(Event):
    """What the run will do: files to read (and their bytes), files already up to date."""

    kind: Literal["planned"] = "planned"
    to_read: int
    bytes_to_read: int
    up_to_date: int
    to_remove: int


class FileIndexed(Event):
    """A file was read and its chunks written; `notes` are tolerated problems."""

    kind: Literal["indexed"] = "indexed"
    path: str
    bytes: int
    chunks: int
    notes: tuple[str, ...] = ()


class FileUnchanged(Event):
    """A file was read but its content hash had not changed."""

    kind: Literal["unchanged"] = "unchanged"
    path: str
    bytes: int


class FileSkipped(Event):
    """A file could not be indexed; `reason` is one line for the user."""

    kind: Literal["skipped"] = "skipped"
    path: str
    reason: str
    bytes: int = 0


class FileRemoved(Event):
    """A file that is gone (or no longer indexable) was dropped from the index."""

    kind: Literal["removed"] = "removed"
    path: str


class EmbeddingProgress(Event):
    """Chunk texts embedded so far out of `total`."""

    kind: Literal["embedding"] = "embedding"
    done: int
    total: int


class IndexFinished(Event):
    """The run is over."""

    kind: Literal["finished"] = "finished"
    report: IndexReport


IndexEvent = Annotated[
    IndexPlanned
    | FileIndexed
    | FileUnchanged
    | FileSkipped
    | FileRemoved
    | EmbeddingProgress
    | IndexFinished,
    Field(discriminator="kind"),
]
"""Any event of an index run, told apart by `kind`."""

INDEX_EVENTS: TypeAdapter[IndexEvent] = TypeAdapter(IndexEvent)
"""Parses an index event from its JSON (`INDEX_EVENTS.validate_json(data)`)."""


class SourcesEvent(Event):
    """The numbered sources the answer will cite."""

    kind: Literal["sources"] = "sources"
    request_id: str = ""
    sources: tuple[SourceRecord, ...]


class TokenEvent(Event):
    """A piece of answer text, markers already cleaned."""

    kind: Literal["token"] = "token"
    text: str


class CitationEvent(Event):
    """A citation marker resolved to its sources."""

    kind: Literal["citation"] = "citation"
    numbers: tuple[int, ...]
    citations: tuple[Citation, ...]


class VerificationEvent(Event):
    """The answer's claims, conflicts and confidence."""

    kind: Literal["verification"] = "verification"
    claims: tuple[Claim, ...]
    conflicts: tuple[Conflict, ...]
    confidence: float
    low_confidence: bool = False
    summary: Verification | None = None


class ErrorEvent(Event):
    """The model failed; the answer falls back to the ranked chunks."""

    kind: Literal["error"] = "error"
    request_id: str = ""
    message: str
    fallback: tuple[SourceRecord, ...]


class DoneEvent(Event):
    """The full answer; always the last event of an answer stream.

    On the wire its body is the answer itself (every field of `Answer`, or of a subclass
    such as the service's response with diagnostics) beside `kind`, not nested.
    """

    kind: Literal["done"] = "done"
    answer: SerializeAsAny[Answer]

    @model_serializer(mode="wrap")
    def _flat(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        body: dict[str, Any] = handler(self)
        return {"kind": self.kind, **body["answer"]}

    @model_validator(mode="before")
    @classmethod
    def _nested(cls, data: Any) -> Any:
        if isinstance(data, dict) and "answer" in data and not isinstance(data["answer"], str):
            return data
        if isinstance(data, dict):  # the flat wire form
            return {"answer": {key: value for key, value in data.items() if key != "kind"}}
        return data


AnswerEvent = Annotated[
    SourcesEvent | TokenEvent | CitationEvent | VerificationEvent | ErrorEvent | DoneEvent,
    Field(discriminator="kind"),
]
"""Any event of an answer stream (DESIGN §6), told apart by `kind`."""

ANSWER_EVENTS: TypeAdapter[AnswerEvent] = TypeAdapter(AnswerEvent)
"""Parses an answer event from its JSON (`ANSWER_EVENTS.validate_json(data)`)."""


def sse(event: Event) -> bytes:
    """One server-sent event: `event: KIND` and the event's JSON as `data`."""
    return f"event: {event.kind}\ndata: {event.model_dump_json()}\n\n".encode()
