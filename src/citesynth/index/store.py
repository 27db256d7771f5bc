"""The store contract: what the engine needs from an index, whatever backs it.

`SQLiteStore` (SQLite + tantivy + faiss in one folder) is the embedded default. A store for
PostgreSQL with pgvector and full-text search implements the same protocol; callers never
see which one they hold.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from citesynth.types import Chunk, Document, IndexedFile, IndexStats


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
class FileVersion:
    """A file's new content: its documents and, for each document, its chunks."""

    state: FileState
    documents: tuple[Document, ...]
    chunks: tuple[tuple[Chunk, ...], ...]


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

    The context header lets a chunk deep in a section match the words of its headings.
    """
    context = [chunk.title] if chunk.title else []
    context.extend(h for h in chunk.heading_path if not context or h != context[-1])
    header = " › ".join(context)
    return f"{header}\n{chunk.text}" if header else chunk.text


class Store(Protocol):
    """An index of files, documents and chunks with lexical and dense search."""

    async def file_states(self) -> dict[str, FileState]:
        """Every indexed file, by absolute path."""
        ...

    async def write(self, versions: Sequence[FileVersion], removed: Sequence[str]) -> WriteResult:
        """Atomically replace the given files' content and drop the `removed` paths."""
        ...

    async def touch(self, states: Sequence[FileState]) -> None:
        """Record new size and mtime for files whose content did not change."""
        ...

    def pending_texts(self, model: str, batch: int) -> AsyncIterator[list[PendingText]]:
        """Chunk texts without a vector for `model`, in batches."""
        ...

    async def count_pending(self, model: str) -> int:
        """How many distinct chunk texts have no vector for `model`."""
        ...

    async def put_vectors(
        self, model: str, hashes: Sequence[str], vectors: npt.NDArray[np.float32]
    ) -> None:
        """Store unit vectors for chunk texts (keyed by text hash)."""
        ...

    async def prune_vectors(self) -> int:
        """Drop cached vectors that no chunk uses any more; returns how many."""
        ...

    async def lexical_search(self, terms: Sequence[str], k: int) -> list[tuple[int, float]]:
        """BM25 top `k` for analyzed query terms: `(chunk key, score)`."""
        ...

    async def dense_search(
        self, model: str, vector: npt.NDArray[np.float32], k: int
    ) -> list[tuple[int, float]]:
        """Cosine top `k` among chunks embedded with `model`: `(chunk key, cosine)`."""
        ...

    async def similarities(
        self, model: str, vector: npt.NDArray[np.float32], keys: Sequence[int]
    ) -> dict[int, float]:
        """Exact cosine between `vector` and the given chunks (those embedded with `model`)."""
        ...

    async def chunks(self, keys: Sequence[int]) -> dict[int, Chunk]:
        """Chunks by key; keys no longer in the index are left out."""
        ...

    async def linked(self, chunk_ids: Sequence[str]) -> dict[str, list[Chunk]]:
        """Chunks each given chunk refers to (cross-references), by referring chunk id."""
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

    async def get_cached(self, key: str, newer_than: float) -> str | None:
        """The value stored under `key` at or after `newer_than` (a Unix time), or None."""
        ...

    async def put_cached(self, key: str, value: str, *, drop_before: float) -> None:
        """Store `value` under `key` (now); drop the entries stored before `drop_before`."""
        ...

    async def stats(self, model: str | None = None) -> IndexStats:
        """Counts of what the index holds."""
        ...

    def writing(self) -> AbstractAsyncContextManager[None]:
        """Hold the index's write lock (raises `StoreLockedError` when another has it)."""
        ...

    async def close(self) -> None:
        """Release files, threads and memory."""
        ...
