"""The store contract: what the engine needs from an index, whatever backs it.

`SQLiteStore` (SQLite + tantivy + faiss in one folder) is the embedded default. A store for
PostgreSQL with pgvector and full-text search implements the same protocol; callers never
see which one they hold. A store does storage and search only; the policy lives above it
(reference resolution in `retrieve/links.py`, answer-cache expiry in `synthesis/`).

What a backend implements, in one class:

- files: `file_states`, `write` (atomic: chunks with their references and defined terms,
  as `FileVersion`s, replace a file's previous content), `touch`, `files`;
- vectors: `pending_texts`, `count_pending`, `put_vectors`, `prune_vectors`, keyed by the
  hash of `index_text(chunk)` so that equal texts share one vector per model;
- search: `lexical_search` (it analyses the raw query itself), `dense_search`,
  `similarities`; every result names chunks by `ChunkId`, the only ids callers see;
- reads: `chunks`, `chunk_in_document`, `references`, `document_chunks`, `defined_terms`,
  `generation`, `stats`;
- export, for copying one store into another (`index/copying.py`): `file_versions` gives
  back what `write` took, `vectors` the stored vectors by text hash;
- the answer cache: `get_cached`, `put_cached` (plain key/value with a write time);
- facts about the index as a whole: `get_meta`, `set_meta` (plain key/value; the index
  run records the embedder it built with under `indexing.EMBEDDER_KEY`);
- `writing` (one index run at a time across processes, or several when the backend's
  writes lock only their files) and `close`.

Register a factory for it with `citesynth.index.stores.register_store` so that
`get_store("scheme:...")` opens it, and run `tests/index/test_store_contract.py` against it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from citesynth.ingest.rst import rendered_roles
from citesynth.types import Chunk, ChunkId, Document, IndexedFile, IndexStats, Reference


@dataclass(frozen=True, slots=True)
class FileState:
    """What the index remembers about one source file."""

    path: str
    display: str
    size: int
    mtime_ns: int
    content_hash: str
    signature: str


@dataclass(frozen=True, slots=True)
class ChunkRecord:
    """One chunk as written to a store, with what indexing found in its text.

    `references` are its cross-references (`ingest.references.references`), `terms` the
    terms it defines, case-folded (`ingest.references.definitions`). The store keeps them
    as given; `retrieve/links.py` resolves them at query time.
    """

    chunk: Chunk
    references: tuple[Reference, ...] = ()
    terms: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FileVersion:
    """A file's new content: its documents and, for each document, its chunks in order."""

    state: FileState
    documents: tuple[Document, ...]
    chunks: tuple[tuple[ChunkRecord, ...], ...]


@dataclass(frozen=True, slots=True)
class WriteResult:
    """How many chunks one write added and removed."""

    chunks_added: int
    chunks_removed: int


@dataclass(frozen=True, slots=True)
class PendingText:
    """A chunk text (with its context header) that has no vector yet for some model."""

    text_hash: str
    text: str


def index_text(chunk: Chunk) -> str:
    """What retrievers see for a chunk: its title and heading path, then its text.

    The context header lets a chunk deep in a section match the words of its headings. Roles
    read as a reader sees them (`rendered_roles`): "{class}`dict`" is the word `dict`, not
    also the word "class".
    """
    context = [chunk.title] if chunk.title else []
    context.extend(h for h in chunk.heading_path if not context or h != context[-1])
    header = " › ".join(context)
    text = rendered_roles(chunk.text)
    return f"{header}\n{text}" if header else text


class Store(Protocol):
    """An index of files, documents and chunks with lexical and dense search.

    Chunks are named by their `ChunkId` everywhere; how a backend keys them inside is its
    own affair.
    """

    async def file_states(self) -> dict[str, FileState]:
        """Every indexed file, by absolute path."""
        ...

    async def write(self, versions: Sequence[FileVersion], removed: Sequence[str]) -> WriteResult:
        """Atomically replace the given files' content and drop the `removed` paths.

        Readers see either everything before the write or everything after it; the
        generation changes.

        Raises:
            StoreError: the write breaks the index's rules (a chunk id given twice); nothing
                was written.
        """
        ...

    async def touch(self, states: Sequence[FileState]) -> None:
        """Record new size, mtime and display path for files whose content did not change."""
        ...

    def pending_texts(self, model: str, batch: int) -> AsyncIterator[list[PendingText]]:
        """Distinct chunk texts without a vector for `model`, in batches of at most `batch`."""
        ...

    async def count_pending(self, model: str) -> int:
        """How many distinct chunk texts have no vector for `model`."""
        ...

    async def put_vectors(
        self, model: str, hashes: Sequence[str], vectors: npt.NDArray[np.float32]
    ) -> None:
        """Store unit vectors for chunk texts (keyed by text hash), one row per hash."""
        ...

    async def prune_vectors(self) -> int:
        """Drop cached vectors that no chunk uses any more; returns how many."""
        ...

    async def lexical_search(self, query: str, k: int) -> list[tuple[ChunkId, float]]:
        """BM25 (or the backend's full-text rank) top `k` for raw query text, best first.

        The store analyses `query` itself; a query with no searchable term gives `[]`.
        Equal scores keep a stable order (the SQLite store: the order chunks were written).
        """
        ...

    async def dense_search(
        self, model: str, vector: npt.NDArray[np.float32], k: int
    ) -> list[tuple[ChunkId, float]]:
        """Cosine top `k` among chunks embedded with `model`, best first: `(id, cosine)`."""
        ...

    async def similarities(
        self, model: str, vector: npt.NDArray[np.float32], ids: Sequence[ChunkId]
    ) -> dict[ChunkId, float]:
        """Exact cosine between `vector` and the given chunks (those embedded with `model`)."""
        ...

    async def chunks(self, ids: Sequence[ChunkId]) -> dict[ChunkId, Chunk]:
        """Chunks by id; ids no longer in the index are left out."""
        ...

    async def references(self, ids: Sequence[ChunkId]) -> dict[ChunkId, list[Reference]]:
        """The stored cross-references of the given chunks, in the order they were written.

        Chunks without references are left out.
        """
        ...

    async def document_chunks(self, path: str, limit: int) -> list[Chunk]:
        """Up to `limit` chunks of the documents at `path` (as `Chunk.path` shows it).

        In reading order: documents in the order they were written, each one's chunks
        from first to last.
        """
        ...

    async def defined_terms(self) -> dict[str, ChunkId]:
        """Every defined term (case-folded) and the first chunk written that defines it.

        In the order of those first definers.
        """
        ...

    async def spread_texts(self, count: int) -> list[str]:
        """The texts of up to `count` chunks spread evenly over the order they were written.

        A sample of the corpus read by index lookups, never a scan (`retrieve.subjects`).
        """
        ...

    async def term_shares(self, terms: Sequence[str]) -> dict[str, float]:
        """Per analysed term (`analysis.terms`), the share of all chunks whose text holds it."""
        ...

    async def generation(self) -> int:
        """A number that changes whenever the indexed content changes."""
        ...

    async def files(self) -> list[IndexedFile]:
        """Every indexed file with its document and chunk counts, by display path."""
        ...

    async def chunk_in_document(self, chunk_id: str) -> tuple[Chunk, Document] | None:
        """The chunk with this id and the whole document it was cut from, or None."""
        ...

    async def file_versions(self, paths: Sequence[str]) -> list[FileVersion]:
        """The stored content of the files at `paths` (absolute), exactly as it was written.

        Paths not indexed are left out; the rest come in the order given.
        """
        ...

    async def vectors(
        self, model: str, hashes: Sequence[str]
    ) -> dict[str, npt.NDArray[np.float32]]:
        """The stored vectors of `model` for the given text hashes (those it holds)."""
        ...

    async def get_cached(self, key: str, newer_than: float) -> str | None:
        """The value stored under `key` at or after Unix time `newer_than`, or None."""
        ...

    async def put_cached(self, key: str, value: str, *, drop_before: float) -> None:
        """Store `value` under `key` now; drop every entry stored before `drop_before`."""
        ...

    async def get_meta(self, key: str) -> str | None:
        """The value last recorded under `key` with `set_meta`, or None."""
        ...

    async def set_meta(self, key: str, value: str) -> None:
        """Record `value` under `key`, replacing any earlier value; it outlives the process."""
        ...

    async def stats(self, model: str | None = None) -> IndexStats:
        """Counts of what the index holds (vectors for `model` when given)."""
        ...

    def writing(self) -> AbstractAsyncContextManager[None]:
        """Hold the index's write lock for an index run.

        A backend either admits one writer at a time (SQLite: raises `StoreLockedError`
        when another process has it) or lets several in because each `write` locks only
        the files it replaces (PostgreSQL).
        """
        ...

    async def close(self) -> None:
        """Release files, threads and memory."""
        ...
