"""The values that flow through citesynth: documents, chunks, hits and index reports.

Every value is a frozen dataclass; behaviour lives in functions elsewhere. Offsets are
character offsets into `Document.text` (Python string indices); lines are 1-based and
inclusive. The provenance contract, checked by property tests:

    document.text[chunk.char_start:chunk.char_end] == chunk.text
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import NewType

DocumentId = NewType("DocumentId", str)
"""Content hash of a document (`"b2:" + blake2b hex`); identical content, identical id."""

ChunkId = NewType("ChunkId", str)
"""Stable id of one chunk: derived from its document, location and offsets."""


class DocumentKind(StrEnum):
    """The loader family a document came through."""

    MARKDOWN = "markdown"
    TEXT = "text"
    RST = "rst"
    CODE = "code"
    HTML = "html"
    PDF = "pdf"
    RECORD = "record"


@dataclass(frozen=True, slots=True)
class Anchor:
    """From `offset` on, the document text corresponds to source line `line` (and `page`).

    Lines advance with each newline in the text after the anchor, up to the next anchor.
    Plain text has one anchor at offset 0, line 1. A PDF has one per page (lines count
    within the page's extracted text). HTML has one per text node, so extracted text maps
    back to the lines of the original file.
    """

    offset: int
    line: int
    page: int | None = None


@dataclass(frozen=True, slots=True)
class Document:
    """One source document with its full text and the map back to its source."""

    id: DocumentId
    path: str
    title: str
    kind: DocumentKind
    text: str
    anchors: tuple[Anchor, ...] = (Anchor(0, 1),)
    record_id: str | None = None
    language: str | None = None


def document_name(path: str, record_id: str | None) -> str:
    """The document a chunk is from: its path, or `path#record` for a record of a JSONL file."""
    return path if record_id is None else f"{path}#{record_id}"


def is_web(path: str) -> bool:
    """Whether a chunk's path is a web address (a web search result), not a file."""
    return path.startswith(("https://", "http://"))


@dataclass(frozen=True, slots=True)
class Chunk:
    """A contiguous span of a document: the unit of retrieval and citation."""

    id: ChunkId
    document_id: DocumentId
    path: str
    title: str
    heading_path: tuple[str, ...]
    text: str
    char_start: int
    char_end: int
    start_line: int
    end_line: int
    page: int | None = None
    record_id: str | None = None

    @property
    def document(self) -> str:
        """The document it is from (a record of a JSONL file counts as its own)."""
        return document_name(self.path, self.record_id)

    @property
    def location(self) -> str:
        """Where the chunk lives, as a person would cite it.

        `docs/guide.md:L40-L58`, `report.pdf, p. 5`, `corpus.jsonl#4983` for a record, or
        the address of a page a web search found.
        """
        if is_web(self.path):
            return self.path
        where = self.document
        if self.page is not None:
            return f"{where}, p. {self.page}"
        if self.record_id is not None:
            return where
        return f"{where}:L{self.start_line}-L{self.end_line}"


@dataclass(frozen=True, slots=True)
class Reference:
    """A pointer from a chunk to a document (and optionally one of its sections).

    `path` is the target document's path as the index shows it (empty for the chunk's own
    document); `heading` an anchor slug or a section title (empty for the whole document);
    `kind` how it was written (`link`, `doc`, `ref`, `see`, `include`).
    """

    path: str
    heading: str
    kind: str


@dataclass(frozen=True, slots=True)
class Signals:
    """What each retriever said about a hit; the inputs of its fused score and confidence."""

    lexical_rank: int | None = None
    lexical_score: float | None = None
    dense_rank: int | None = None
    cosine: float | None = None
    coverage: float = 0.0


@dataclass(frozen=True, slots=True)
class Hit:
    """One retrieved chunk with its fused score and Pass-1 confidence in 0..1."""

    chunk: Chunk
    score: float
    confidence: float
    signals: Signals = field(default_factory=Signals)


@dataclass(frozen=True, slots=True)
class Skip:
    """An input that was not indexed, and why (one line, shown to the user)."""

    path: str
    reason: str


@dataclass(frozen=True, slots=True)
class IndexReport:
    """The outcome of one `index` run."""

    indexed: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: tuple[Skip, ...] = ()
    chunks_added: int = 0
    chunks_removed: int = 0
    embedded: int = 0
    bytes_read: int = 0
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class IndexStats:
    """What an index holds."""

    files: int
    documents: int
    chunks: int
    vectors: int
    embedding_model: str | None
    generation: int


@dataclass(frozen=True, slots=True)
class IndexedFile:
    """A file the index holds: where it came from and what it became."""

    path: str
    """Absolute path on disk."""
    display_path: str
    """The path shown in citations (relative to the index's root)."""
    size: int
    indexed_at: float
    documents: int
    chunks: int
    title: str
