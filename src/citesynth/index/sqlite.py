"""The embedded store: one folder holding SQLite (truth), tantivy (BM25) and vectors.

Layout of the index folder:

    index.sqlite3   files, documents, chunks, embeddings (WAL mode)
    lexical/        tantivy index derived from the chunks, stamped with its generation
    write.lock      held by the one process that writes at a time

Every SQLite and tantivy call runs on one dedicated thread, so the async API never blocks
the event loop and the connection is never shared between threads. Two generation counters
in `meta` tell readers (in this or another process) when the lexical or dense index must be
refreshed: `generation` moves with chunk writes, `vector_generation` with vector writes too.
"""

from __future__ import annotations

import asyncio
import fcntl
import functools
import json
import os
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import IO, TypeVar

import numpy as np
import numpy.typing as npt

from citesynth.errors import StoreError, StoreLockedError
from citesynth.index.lexical import LexicalIndex
from citesynth.index.schema import migrate
from citesynth.index.store import FileState, FileVersion, PendingText, WriteResult, index_text
from citesynth.index.vectors import QUANTIZE_FROM, VectorIndex
from citesynth.ingest.references import definitions, matches, references
from citesynth.ingest.text import content_hash
from citesynth.types import (
    Anchor,
    Chunk,
    ChunkId,
    Document,
    DocumentId,
    DocumentKind,
    IndexedFile,
    IndexStats,
)

T = TypeVar("T")

_CHUNK_COLUMNS = """c.id, c.chunk_id, d.doc_id, d.path, d.title, c.heading_path, c.text,
    c.char_start, c.char_end, c.start_line, c.end_line, c.page, d.record_id"""


def _chunk(row: sqlite3.Row) -> Chunk:
    return Chunk(
        id=ChunkId(row[1]),
        document_id=DocumentId(row[2]),
        path=row[3],
        title=row[4],
        heading_path=tuple(json.loads(row[5])),
        text=row[6],
        char_start=row[7],
        char_end=row[8],
        start_line=row[9],
        end_line=row[10],
        page=row[11],
        record_id=row[12],
    )


class SQLiteStore:
    """SQLite + tantivy + faiss in one folder; see the module docstring."""

    def __init__(self, directory: Path, *, quantize_from: int = QUANTIZE_FROM) -> None:
        self.directory = directory
        self._quantize_from = quantize_from
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="citesynth-store")
        self._db: sqlite3.Connection | None = None
        self._lexical: LexicalIndex | None = None
        self._dense: dict[str, tuple[int, VectorIndex]] = {}
        self._generation = -1
        self._lock: IO[bytes] | None = None
        self._terms: tuple[int, re.Pattern[str] | None, dict[str, int]] | None = None

    @classmethod
    async def open(
        cls, directory: str | Path, *, quantize_from: int = QUANTIZE_FROM
    ) -> SQLiteStore:
        """Open (creating if needed) the index in `directory`."""
        store = cls(Path(directory), quantize_from=quantize_from)
        try:
            await store._run(store._open)
        except BaseException:
            await store.close()
            raise
        return store

    async def _run(self, function: Callable[..., T], *args: object) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(function, *args))

    # -- opening and freshness ------------------------------------------------------------

    def _open(self) -> None:
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.directory / "index.sqlite3", isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA busy_timeout=30000")
            migrate(db)
        except sqlite3.DatabaseError as error:
            raise StoreError(f"cannot open the index at {self.directory}: {error}") from error
        except OSError as error:
            raise StoreError(f"cannot create the index folder {self.directory}: {error}") from error
        self._db = db
        self._lexical = LexicalIndex(self.directory / "lexical")
        generation = self._meta_int("generation")
        if self._lexical.generation != generation and self._try_lock():
            try:
                self._rebuild_lexical(generation)
            finally:
                self._unlock()
        self._generation = generation

    @property
    def _sql(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError("the store is closed")
        return self._db

    @property
    def _bm25(self) -> LexicalIndex:
        if self._lexical is None:
            raise StoreError("the store is closed")
        return self._lexical

    def _meta_int(self, key: str) -> int:
        row = self._sql.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return int(row[0]) if row else 0

    def _refresh(self) -> None:
        """Notice writes made since the last read (by this or another process)."""
        generation = self._meta_int("generation")
        if generation != self._generation:
            self._bm25.refresh()
            self._generation = generation

    async def rebuild_lexical(self) -> None:
        """Rebuild the BM25 index from SQLite (repairs a damaged or deleted `lexical/`)."""
        await self._run(lambda: self._rebuild_lexical(self._meta_int("generation")))

    def _rebuild_lexical(self, generation: int) -> None:
        self._bm25.rebuild(self._all_index_texts(), generation)

    def _all_index_texts(self) -> Iterator[tuple[int, str]]:
        cursor = self._sql.execute(
            f"SELECT {_CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document"
        )
        for row in cursor:
            yield row[0], index_text(_chunk(row))

    # -- locking ------------------------------------------------------------------------------

    def _try_lock(self) -> bool:
        handle = open(self.directory / "write.lock", "wb")  # noqa: SIM115 - held across calls
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        self._lock = handle
        return True

    def _unlock(self) -> None:
        if self._lock is not None:
            fcntl.flock(self._lock.fileno(), fcntl.LOCK_UN)
            self._lock.close()
            self._lock = None

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[None]:
        """Hold the write lock for the duration of the block."""
        if not await self._run(self._try_lock):
            raise StoreLockedError(
                f"another citesynth process is writing to {self.directory}; "
                "wait for it to finish or use another --index folder"
            )
        try:
            generation = await self._run(self._meta_int, "generation")
            if await self._run(lambda: self._bm25.generation) != generation:
                await self._run(self._rebuild_lexical, generation)
            yield
        finally:
            await self._run(self._unlock)

    # -- files --------------------------------------------------------------------------------

    async def file_states(self) -> dict[str, FileState]:
        """Every indexed file, by absolute path."""
        return await self._run(self._file_states)

    def _file_states(self) -> dict[str, FileState]:
        rows = self._sql.execute(
            "SELECT path, display_path, size, mtime_ns, content_hash, signature FROM files"
        )
        return {row[0]: FileState(*row) for row in rows}

    async def touch(self, states: Sequence[FileState]) -> None:
        """Record new size and mtime for files whose content did not change."""
        await self._run(self._touch, states)

    def _touch(self, states: Sequence[FileState]) -> None:
        with self._transaction():
            self._sql.executemany(
                "UPDATE files SET size = ?, mtime_ns = ?, display_path = ? WHERE path = ?",
                [(s.size, s.mtime_ns, s.display, s.path) for s in states],
            )

    def _transaction(self) -> _Transaction:
        return _Transaction(self._sql)

    async def write(self, versions: Sequence[FileVersion], removed: Sequence[str]) -> WriteResult:
        """Atomically replace the given files' content and drop the `removed` paths."""
        return await self._run(self._write, versions, removed)

    def _write(self, versions: Sequence[FileVersion], removed: Sequence[str]) -> WriteResult:
        db = self._sql
        paths = json.dumps([v.state.path for v in versions] + list(removed))
        added: list[tuple[int, str]] = []
        with self._transaction():
            old = [
                row[0]
                for row in db.execute(
                    "SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document "
                    "WHERE d.file_path IN (SELECT value FROM json_each(?))",
                    (paths,),
                )
            ]
            db.execute("DELETE FROM files WHERE path IN (SELECT value FROM json_each(?))", (paths,))
            # Ids only ever grow: a reader in another process never meets a reused id.
            next_document = self._meta_int("next_document")
            next_chunk = self._meta_int("next_chunk")
            now = time.time()
            for version in versions:
                s = version.state
                db.execute(
                    "INSERT INTO files VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (s.path, s.display, s.size, s.mtime_ns, s.content_hash, s.signature, now),
                )
                for document, chunks in zip(version.documents, version.chunks, strict=True):
                    db.execute(
                        "INSERT INTO documents VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            next_document,
                            s.path,
                            document.id,
                            document.record_id,
                            document.path,
                            document.title,
                            document.kind.value,
                            document.language,
                            document.text,
                            json.dumps([[a.offset, a.line, a.page] for a in document.anchors]),
                        ),
                    )
                    rows = []
                    links: list[tuple[int, str, str, str]] = []
                    defined: list[tuple[int, str]] = []
                    for ordinal, chunk in enumerate(chunks):
                        defined.extend((next_chunk, term) for term in definitions(chunk.text))
                        links.extend(
                            (next_chunk, ref.path, ref.heading, ref.kind)
                            for ref in references(chunk.text, document.path)
                        )
                        text = index_text(chunk)
                        rows.append(
                            (
                                next_chunk,
                                chunk.id,
                                next_document,
                                ordinal,
                                chunk.char_start,
                                chunk.char_end,
                                chunk.start_line,
                                chunk.end_line,
                                chunk.page,
                                json.dumps(chunk.heading_path),
                                chunk.text,
                                content_hash(text),
                            )
                        )
                        added.append((next_chunk, text))
                        next_chunk += 1
                    db.executemany(
                        "INSERT INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows
                    )
                    db.executemany("INSERT INTO chunk_links VALUES (?, ?, ?, ?)", links)
                    db.executemany("INSERT INTO chunk_terms VALUES (?, ?)", defined)
                    next_document += 1
            db.executemany(
                "UPDATE meta SET value = ? WHERE key = ?",
                [(str(next_document), "next_document"), (str(next_chunk), "next_chunk")],
            )
            db.execute(
                "UPDATE meta SET value = CAST(value AS INTEGER) + 1 "
                "WHERE key IN ('generation', 'vector_generation')"
            )
            generation = self._meta_int("generation")
        self._bm25.replace(old, added, generation)
        self._generation = generation
        return WriteResult(chunks_added=len(added), chunks_removed=len(old))

    # -- vectors --------------------------------------------------------------------------------

    _PENDING = """
        FROM chunks c JOIN documents d ON d.id = c.document
        WHERE NOT EXISTS (
            SELECT 1 FROM embeddings e WHERE e.model = ? AND e.text_hash = c.index_text_hash
        )"""

    async def count_pending(self, model: str) -> int:
        """How many distinct chunk texts have no vector for `model`."""
        query = f"SELECT COUNT(DISTINCT c.index_text_hash) {self._PENDING}"
        row = await self._run(lambda: self._sql.execute(query, (model,)).fetchone())
        return int(row[0])

    async def pending_texts(self, model: str, batch: int) -> AsyncIterator[list[PendingText]]:
        """Chunk texts without a vector for `model`, in batches (keyset-paged by hash)."""
        after = ""
        query = (
            f"SELECT {_CHUNK_COLUMNS}, c.index_text_hash {self._PENDING} "
            "AND c.index_text_hash > ? GROUP BY c.index_text_hash "
            "ORDER BY c.index_text_hash LIMIT ?"
        )
        while True:
            rows = await self._run(self._fetch_all, query, (model, after, batch))
            if not rows:
                return
            after = rows[-1][-1]
            yield [PendingText(row[-1], index_text(_chunk(row))) for row in rows]

    async def put_vectors(
        self, model: str, hashes: Sequence[str], vectors: npt.NDArray[np.float32]
    ) -> None:
        """Store unit vectors for chunk texts (keyed by text hash)."""
        await self._run(self._put_vectors, model, hashes, vectors)

    def _put_vectors(
        self, model: str, hashes: Sequence[str], vectors: npt.NDArray[np.float32]
    ) -> None:
        now = time.time()
        data = np.ascontiguousarray(vectors, dtype=np.float32)
        with self._transaction():
            self._sql.executemany(
                "INSERT OR REPLACE INTO embeddings VALUES (?, ?, ?, ?)",
                [(model, h, data[i].tobytes(), now) for i, h in enumerate(hashes)],
            )
            self._sql.execute(
                "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'vector_generation'"
            )

    def _fetch_all(self, query: str, parameters: tuple[object, ...]) -> list[sqlite3.Row]:
        return self._sql.execute(query, parameters).fetchall()

    async def prune_vectors(self) -> int:
        """Drop cached vectors that no chunk uses any more; returns how many."""

        def prune() -> int:
            with self._transaction():
                cursor = self._sql.execute(
                    "DELETE FROM embeddings "
                    "WHERE text_hash NOT IN (SELECT index_text_hash FROM chunks)"
                )
            return cursor.rowcount

        return await self._run(prune)

    def _vector_index(self, model: str) -> VectorIndex:
        generation = self._meta_int("vector_generation")
        cached = self._dense.get(model)
        if cached is not None and cached[0] == generation:
            return cached[1]
        self._dense.pop(model, None)  # free the old index before building the new one
        join = "FROM chunks c JOIN embeddings e ON e.model = ? AND e.text_hash = c.index_text_hash"
        (count,) = self._sql.execute(f"SELECT COUNT(*) {join}", (model,)).fetchone()
        first = self._sql.execute(f"SELECT e.vector {join} LIMIT 1", (model,)).fetchone()
        dimension = len(first[0]) // 4 if first else 0
        keys = np.empty(count, dtype=np.int64)
        matrix = np.empty((count, dimension), dtype=np.float32)
        cursor = self._sql.execute(f"SELECT c.id, e.vector {join}", (model,))
        position = 0
        while rows := cursor.fetchmany(8192):
            stop = min(
                position + len(rows), count
            )  # rows written meanwhile are picked up next time
            taken = rows[: stop - position]
            keys[position:stop] = [row[0] for row in taken]
            matrix[position:stop] = np.frombuffer(
                b"".join(row[1] for row in taken), dtype=np.float32
            ).reshape(-1, dimension)
            position = stop
        index = VectorIndex(keys[:position], matrix[:position], quantize_from=self._quantize_from)
        self._dense[model] = (generation, index)
        return index

    # -- search ---------------------------------------------------------------------------------

    async def lexical_search(self, terms: Sequence[str], k: int) -> list[tuple[int, float]]:
        """BM25 top `k` for analyzed query terms: `(chunk key, score)`."""

        def search() -> list[tuple[int, float]]:
            self._refresh()
            return self._bm25.search(list(terms), k)

        return await self._run(search)

    async def dense_search(
        self, model: str, vector: npt.NDArray[np.float32], k: int
    ) -> list[tuple[int, float]]:
        """Cosine top `k` among chunks embedded with `model`: `(chunk key, cosine)`."""
        return await self._run(lambda: self._vector_index(model).search(vector, k))

    async def similarities(
        self, model: str, vector: npt.NDArray[np.float32], keys: Sequence[int]
    ) -> dict[int, float]:
        """Exact cosine between `vector` and the given chunks (those embedded with `model`)."""
        return await self._run(lambda: self._vector_index(model).similarities(vector, keys))

    async def chunks(self, keys: Sequence[int]) -> dict[int, Chunk]:
        """Chunks by key; keys no longer in the index are left out."""

        def fetch() -> dict[int, Chunk]:
            rows = self._sql.execute(
                f"SELECT {_CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document "
                "WHERE c.id IN (SELECT value FROM json_each(?))",
                (json.dumps(list(keys)),),
            )
            return {row[0]: _chunk(row) for row in rows}

        return await self._run(fetch)

    async def linked(self, chunk_ids: Sequence[str]) -> dict[str, list[Chunk]]:
        """Chunks the given chunks refer to (links, `:doc:`/`:ref:`, "see section X").

        A reference to a document gives its first chunk; to a section, the first chunk
        under that heading. References whose target is not indexed are left out.
        """

        def fetch() -> dict[str, list[Chunk]]:
            db = self._sql
            refs = db.execute(
                "SELECT c.chunk_id, d.path, l.target_path, l.target_heading FROM chunk_links l "
                "JOIN chunks c ON c.id = l.source JOIN documents d ON d.id = c.document "
                "WHERE c.chunk_id IN (SELECT value FROM json_each(?))",
                (json.dumps(list(chunk_ids)),),
            ).fetchall()
            found: dict[str, list[Chunk]] = {}
            targets: dict[str, list[Chunk]] = {}
            for source, own_path, path, heading in refs:
                document = path or own_path
                if document not in targets:
                    rows = db.execute(
                        f"SELECT {_CHUNK_COLUMNS} FROM chunks c "
                        "JOIN documents d ON d.id = c.document WHERE d.path = ? "
                        "ORDER BY d.id, c.ordinal LIMIT 2000",
                        (document,),
                    )
                    targets[document] = [_chunk(row) for row in rows]
                chunk = next(
                    (c for c in targets[document] if matches(heading, c.heading_path, c.text)), None
                )
                if chunk is not None and chunk.id != source:
                    found.setdefault(source, [])
                    if chunk not in found[source]:
                        found[source].append(chunk)
            for source, chunk in self._defining(chunk_ids):
                found.setdefault(source, [])
                if chunk not in found[source]:
                    found[source].append(chunk)
            return found

        return await self._run(fetch)

    def _defining(self, chunk_ids: Sequence[str]) -> list[tuple[str, Chunk]]:
        """(chunk id, the chunk defining a term it uses) for the given chunks."""
        db = self._sql
        generation = self._meta_int("generation")
        if self._terms is None or self._terms[0] != generation:
            first: dict[str, int] = {}
            for key, term in db.execute("SELECT chunk, term FROM chunk_terms ORDER BY chunk"):
                first.setdefault(term, key)
            pattern = (
                re.compile(
                    r"\b(?:"
                    + "|".join(map(re.escape, sorted(first, key=len, reverse=True)))
                    + r")\b",
                    re.IGNORECASE,
                )
                if first
                else None
            )
            self._terms = (generation, pattern, first)
        _, pattern, first = self._terms
        if pattern is None:
            return []
        rows = db.execute(
            "SELECT c.id, c.chunk_id, c.text FROM chunks c "
            "WHERE c.chunk_id IN (SELECT value FROM json_each(?))",
            (json.dumps(list(chunk_ids)),),
        ).fetchall()
        wanted: list[tuple[str, int]] = []
        for key, chunk_id, text in rows:
            used = dict.fromkeys(m.group(0).casefold() for m in pattern.finditer(text))
            wanted.extend((chunk_id, first[t]) for t in used if first.get(t, key) != key)
        if not wanted:
            return []
        keys = json.dumps(sorted({key for _, key in wanted}))
        chunks = {
            row[0]: _chunk(row)
            for row in db.execute(
                f"SELECT {_CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document "
                "WHERE c.id IN (SELECT value FROM json_each(?))",
                (keys,),
            )
        }
        return [(chunk_id, chunks[key]) for chunk_id, key in wanted if key in chunks]

    async def generation(self) -> int:
        """A number that changes whenever the indexed content changes."""
        return await self._run(self._meta_int, "generation")

    async def get_cached(self, key: str, newer_than: float) -> str | None:
        """The value stored under `key` at or after `newer_than` (a Unix time), or None."""

        def read() -> str | None:
            row = self._sql.execute(
                "SELECT answer FROM answer_cache WHERE key = ? AND created_at >= ?",
                (key, newer_than),
            ).fetchone()
            return None if row is None else str(row[0])

        return await self._run(read)

    async def put_cached(self, key: str, value: str, *, drop_before: float) -> None:
        """Store `value` under `key` (now); drop the entries stored before `drop_before`."""

        def write() -> None:
            with self._transaction():
                self._sql.execute(
                    "INSERT OR REPLACE INTO answer_cache VALUES (?, ?, ?)",
                    (key, value, time.time()),
                )
                self._sql.execute("DELETE FROM answer_cache WHERE created_at < ?", (drop_before,))

        await self._run(write)

    async def files(self) -> list[IndexedFile]:
        """Every indexed file with its document and chunk counts, by display path."""

        def fetch() -> list[IndexedFile]:
            rows = self._sql.execute(
                "SELECT f.path, f.display_path, f.size, f.indexed_at, "
                "COUNT(DISTINCT d.id), COUNT(c.id), COALESCE(MIN(d.title), '') "
                "FROM files f LEFT JOIN documents d ON d.file_path = f.path "
                "LEFT JOIN chunks c ON c.document = d.id "
                "GROUP BY f.path ORDER BY f.display_path"
            )
            return [IndexedFile(*row) for row in rows]

        return await self._run(fetch)

    async def chunk_in_document(self, chunk_id: str) -> tuple[Chunk, Document] | None:
        """The chunk with this id and the whole document it was cut from, or None."""

        def fetch() -> tuple[Chunk, Document] | None:
            row = self._sql.execute(
                f"SELECT {_CHUNK_COLUMNS}, d.kind, d.text, d.anchors, d.language "
                "FROM chunks c JOIN documents d ON d.id = c.document WHERE c.chunk_id = ?",
                (chunk_id,),
            ).fetchone()
            if row is None:
                return None
            chunk = _chunk(row)
            document = Document(
                id=chunk.document_id,
                path=chunk.path,
                title=chunk.title,
                kind=DocumentKind(row[13]),
                text=row[14],
                anchors=tuple(Anchor(*item) for item in json.loads(row[15])),
                record_id=chunk.record_id,
                language=row[16],
            )
            return chunk, document

        return await self._run(fetch)

    async def stats(self, model: str | None = None) -> IndexStats:
        """Counts of what the index holds (vectors for `model` when given)."""

        def count() -> IndexStats:
            db = self._sql
            vectors = 0
            if model is not None:
                (vectors,) = db.execute(
                    "SELECT COUNT(*) FROM chunks c JOIN embeddings e "
                    "ON e.model = ? AND e.text_hash = c.index_text_hash",
                    (model,),
                ).fetchone()
            return IndexStats(
                files=db.execute("SELECT COUNT(*) FROM files").fetchone()[0],
                documents=db.execute("SELECT COUNT(*) FROM documents").fetchone()[0],
                chunks=db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0],
                vectors=vectors,
                embedding_model=model,
                generation=self._meta_int("generation"),
            )

        return await self._run(count)

    async def close(self) -> None:
        """Close the database and release the lock and the worker thread."""

        def shut() -> None:
            self._unlock()
            self._dense.clear()
            self._lexical = None
            if self._db is not None:
                self._db.close()
                self._db = None

        try:
            await self._run(shut)
        finally:
            self._executor.shutdown(wait=True)


class _Transaction:
    """`BEGIN IMMEDIATE` … `COMMIT`, or `ROLLBACK` on any exception."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        if kind is None:
            self._db.execute("COMMIT")
        else:
            self._db.execute("ROLLBACK")


def default_index_dir() -> Path:
    """`./.citesynth`, or `$CITESYNTH_INDEX` when set."""
    return Path(os.environ.get("CITESYNTH_INDEX") or ".citesynth")
