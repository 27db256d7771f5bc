"""Events streamed by long operations; the CLI renders them, the server sends them as SSE.

Answering yields `SourcesEvent` first (before any model token), then `TokenEvent`s with
`CitationEvent`s as each marker resolves, then `VerificationEvent`, and always ends with
`DoneEvent` carrying the full answer. When the model fails, an `ErrorEvent` (the message and
the ranked chunks) comes before that `DoneEvent`, whose answer is the fallback.

Indexing yields `IndexPlanned` once, then one event per file (`FileIndexed`,
`FileUnchanged`, `FileSkipped`, `FileRemoved`), then `EmbeddingProgress` while vectors are
computed, and finally `IndexFinished` with the report.
"""

from __future__ import annotations

from dataclasses import dataclass

from citesynth.answers import Answer, Citation, Claim, Conflict, SourceRecord, Verification
from citesynth.types import IndexReport


@dataclass(frozen=True, slots=True)
class IndexPlanned:
    """What the run will do: files to read (and their bytes), files already up to date."""

    to_read: int
    bytes_to_read: int
    up_to_date: int
    to_remove: int


@dataclass(frozen=True, slots=True)
class FileIndexed:
    """A file was read and its chunks written; `notes` are tolerated problems."""

    path: str
    bytes: int
    chunks: int
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FileUnchanged:
    """A file was read but its content hash had not changed."""

    path: str
    bytes: int


@dataclass(frozen=True, slots=True)
class FileSkipped:
    """A file could not be indexed; `reason` is one line for the user."""

    path: str
    reason: str
    bytes: int = 0


@dataclass(frozen=True, slots=True)
class FileRemoved:
    """A file that is gone (or no longer indexable) was dropped from the index."""

    path: str


@dataclass(frozen=True, slots=True)
class EmbeddingProgress:
    """Chunk texts embedded so far out of `total`."""

    done: int
    total: int


@dataclass(frozen=True, slots=True)
class IndexFinished:
    """The run is over."""

    report: IndexReport


IndexEvent = (
    IndexPlanned
    | FileIndexed
    | FileUnchanged
    | FileSkipped
    | FileRemoved
    | EmbeddingProgress
    | IndexFinished
)


@dataclass(frozen=True, slots=True)
class SourcesEvent:
    """The numbered sources the answer will cite."""

    sources: tuple[SourceRecord, ...]
    kind: str = "sources"


@dataclass(frozen=True, slots=True)
class TokenEvent:
    """A piece of answer text, markers already cleaned."""

    text: str
    kind: str = "token"


@dataclass(frozen=True, slots=True)
class CitationEvent:
    """A citation marker resolved to its sources."""

    numbers: tuple[int, ...]
    citations: tuple[Citation, ...]
    kind: str = "citation"


@dataclass(frozen=True, slots=True)
class VerificationEvent:
    """The answer's claims, conflicts and confidence."""

    claims: tuple[Claim, ...]
    conflicts: tuple[Conflict, ...]
    confidence: float
    summary: Verification | None = None
    low_confidence: bool = False
    kind: str = "verification"


@dataclass(frozen=True, slots=True)
class ErrorEvent:
    """The model failed; the answer falls back to the ranked chunks."""

    message: str
    fallback: tuple[SourceRecord, ...]
    kind: str = "error"


@dataclass(frozen=True, slots=True)
class DoneEvent:
    """The full answer; always the last event of an answer stream."""

    answer: Answer
    kind: str = "done"


AnswerEvent = SourcesEvent | TokenEvent | CitationEvent | VerificationEvent | ErrorEvent | DoneEvent
