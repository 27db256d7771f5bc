"""The embedded store: one folder holding SQLite (truth), tantivy (BM25) and vectors.

Layout of the index folder:

    index.sqlite3   files, documents, chunks, embeddings (WAL mode)
    lexical/        tantivy index derived from the chunks, stamped with its generation
    write.lock      held by the one process that writes at a time

Every SQLite and tantivy call runs on one dedicated thread, so the async API never blocks
the event loop and the connection is never shared between threads. Two generation counters
in `meta` tell readers (in this or another process) when the lexical or dense index must be
refreshed: `generation` moves with chunk writes, `vector_generation` with vector writes too.

Inside, chunks are keyed by integer row ids, which tantivy and faiss need; the API names them
by `ChunkId` only. Lexical hits are mapped with one query, and the dense index keeps the
chunk ids beside its vectors.
"""

from __future__ import annotations

import asyncio
import fcntl
import functools
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TypeVar

import numpy as np
import numpy.typing as npt

from citesynth.analysis import query_terms
from citesynth.errors import IndexNotFoundError, StoreError, StoreLockedError
from citesynth.index.lexical import LexicalIndex
from citesynth.index.rows import (
    CHUNK_COLUMNS,
    DOCUMENT_COLUMNS,
    FILE_COLUMNS,
    assemble_versions,
    chunk_from,
    chunk_values,
    document_from,
    document_values,
    spread,
)
from citesynth.index.schema import migrate
from citesynth.index.store import (
    ChunkRecord,
    FileState,
    FileVersion,
    PendingText,
    WriteResult,
    index_text,
)
from citesynth.index.vectors import QUANTIZE_FROM, VectorIndex
from citesynth.ingest.text import content_hash
from citesynth.types import (
    Chunk,
    ChunkId,
    Document,
    IndexedFile,
    IndexStats,
    Reference,
)

T = TypeVar("T")

DATABASE = "index.sqlite3"
"""The SQLite file inside the index folder."""

_META_PREFIX = "set:"
"""Keys given to `set_meta` live beside the store's own counters, never on top of them."""


@dataclass(frozen=True, slots=True)
class _Dense:
    """A model's vector index, keyed by position, and the chunk at each position."""

    generation: int
    index: VectorIndex
    ids: list[ChunkId]
    rowids: npt.NDArray[np.int64]
    positions: dict[ChunkId, int]

    def named(self, found: list[tuple[int, float]]) -> list[tuple[ChunkId, float]]:
        """Positions to chunk ids; equal scores in the order the chunks were written."""
        ordered = sorted(found, key=lambda item: (-item[1], int(self.rowids[item[0]])))
        return [(self.ids[position], score) for position, score in ordered]


def _chunk(row: sqlite3.Row) -> Chunk:
    return chunk_from(row, json.loads(row[5]))


class SQLiteStore:
    """SQLite + tantivy + faiss in one folder; see the module docstring."""

    def __init__(self, directory: Path, *, quantize_from: int = QUANTIZE_FROM) -> None:
        self.directory = directory
        self._quantize_from = quantize_from
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="citesynth-store")
        self._db: sqlite3.Connection | None = None
        self._lexical: LexicalIndex | None = None
        self._dense: dict[str, _Dense] = {}
        self._generation = -1
        self._lock: IO[bytes] | None = None

    @classmethod
    async def open(
        cls, directory: str | Path, *, quantize_from: int = QUANTIZE_FROM, create: bool = True
    ) -> SQLiteStore:
        """Open the index in `directory`, creating it there unless `create` is False.

        Raises:
            StoreError: `create` is False and `directory` holds no index, or the index
                cannot be used (corrupt, newer schema).
        """
        if not create and not (Path(directory) / DATABASE).is_file():
            raise IndexNotFoundError(
                f"no index at {directory}; run `citesynth index PATH` first "
                "(or choose the folder that holds it with --index)"
            )
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
            db = sqlite3.connect(self.directory / DATABASE, isolation_level=None)
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
            f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document"
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
        rows = self._sql.execute(f"SELECT {FILE_COLUMNS} FROM files")
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
        """Atomically replace the given files' content and drop the `removed` paths.

        Raises:
            StoreError: the write breaks the index's rules (a chunk id given twice); nothing
                was written.
        """
        try:
            return await self._run(self._write, versions, removed)
        except sqlite3.IntegrityError as error:
            raise StoreError(f"nothing was written: {error}") from error

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
                        document_values(next_document, s.path, document, json.dumps),
                    )
                    values = []
                    links: list[tuple[int, str, str, str]] = []
                    defined: list[tuple[int, str]] = []
                    for ordinal, record in enumerate(chunks):
                        chunk = record.chunk
                        defined.extend((next_chunk, term) for term in record.terms)
                        links.extend(
                            (next_chunk, ref.path, ref.heading, ref.kind)
                            for ref in record.references
                        )
                        text = index_text(chunk)
                        values.append(
                            chunk_values(
                                next_chunk,
                                next_document,
                                ordinal,
                                chunk,
                                content_hash(text),
                                json.dumps,
                            )
                        )
                        added.append((next_chunk, text))
                        next_chunk += 1
                    db.executemany(
                        "INSERT INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", values
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
            f"SELECT {CHUNK_COLUMNS}, c.index_text_hash {self._PENDING} "
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

    def _vector_index(self, model: str) -> _Dense:
        generation = self._meta_int("vector_generation")
        cached = self._dense.get(model)
        if cached is not None and cached.generation == generation:
            return cached
        self._dense.pop(model, None)  # free the old index before building the new one
        join = "FROM chunks c JOIN embeddings e ON e.model = ? AND e.text_hash = c.index_text_hash"
        (count,) = self._sql.execute(f"SELECT COUNT(*) {join}", (model,)).fetchone()
        first = self._sql.execute(f"SELECT e.vector {join} LIMIT 1", (model,)).fetchone()
        dimension = len(first[0]) // 4 if first else 0
        rowids = np.empty(count, dtype=np.int64)
        ids: list[ChunkId] = []
        matrix = np.empty((count, dimension), dtype=np.float32)
        cursor = self._sql.execute(f"SELECT c.id, c.chunk_id, e.vector {join}", (model,))
        position = 0
        while rows := cursor.fetchmany(8192):
            stop = min(
                position + len(rows), count
            )  # rows written meanwhile are picked up next time
            taken = rows[: stop - position]
            rowids[position:stop] = [row[0] for row in taken]
            ids.extend(ChunkId(row[1]) for row in taken)
            matrix[position:stop] = np.frombuffer(
                b"".join(row[2] for row in taken), dtype=np.float32
            ).reshape(-1, dimension)
            position = stop
        # Keyed by position: the chunk ids sit beside the vectors, so results need no lookup.
        index = VectorIndex(
            np.arange(position, dtype=np.int64),
            matrix[:position],
            quantize_from=self._quantize_from,
        )
        dense = _Dense(
            generation, index, ids, rowids[:position], {cid: i for i, cid in enumerate(ids)}
        )
        self._dense[model] = dense
        return dense

    # -- search ---------------------------------------------------------------------------------

    async def lexical_search(self, query: str, k: int) -> list[tuple[ChunkId, float]]:
        """BM25 top `k` for raw query text (analysed as `query_terms` does): `(id, score)`."""
        words = query_terms(query)

        def search() -> list[tuple[ChunkId, float]]:
            self._refresh()
            found = self._bm25.search(words, k)
            if not found:
                return []
            rows = self._sql.execute(
                "SELECT id, chunk_id FROM chunks WHERE id IN (SELECT value FROM json_each(?))",
                (json.dumps([key for key, _ in found]),),
            )
            ids = {key: ChunkId(chunk_id) for key, chunk_id in rows}
            # Equal scores in the order the chunks were written; chunks deleted since the
            # lexical index was last refreshed are left out.
            ordered = sorted(found, key=lambda item: (-item[1], item[0]))
            return [(ids[key], score) for key, score in ordered if key in ids]

        return await self._run(search)

    async def dense_search(
        self, model: str, vector: npt.NDArray[np.float32], k: int
    ) -> list[tuple[ChunkId, float]]:
        """Cosine top `k` among chunks embedded with `model`: `(id, cosine)`."""

        def search() -> list[tuple[ChunkId, float]]:
            dense = self._vector_index(model)
            return dense.named(dense.index.search(vector, k))

        return await self._run(search)

    async def similarities(
        self, model: str, vector: npt.NDArray[np.float32], ids: Sequence[ChunkId]
    ) -> dict[ChunkId, float]:
        """Exact cosine between `vector` and the given chunks (those embedded with `model`)."""

        def score() -> dict[ChunkId, float]:
            dense = self._vector_index(model)
            positions = [dense.positions[i] for i in ids if i in dense.positions]
            found = dense.index.similarities(vector, positions)
            return {dense.ids[position]: value for position, value in found.items()}

        return await self._run(score)

    async def chunks(self, ids: Sequence[ChunkId]) -> dict[ChunkId, Chunk]:
        """Chunks by id; ids no longer in the index are left out."""

        def fetch() -> dict[ChunkId, Chunk]:
            rows = self._sql.execute(
                f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document "
                "WHERE c.chunk_id IN (SELECT value FROM json_each(?))",
                (json.dumps(list(ids)),),
            )
            return {ChunkId(row[1]): _chunk(row) for row in rows}

        return await self._run(fetch)

    async def references(self, ids: Sequence[ChunkId]) -> dict[ChunkId, list[Reference]]:
        """The stored cross-references of the given chunks, in the order they were written."""

        def fetch() -> dict[ChunkId, list[Reference]]:
            rows = self._sql.execute(
                "SELECT c.chunk_id, l.target_path, l.target_heading, l.kind FROM chunk_links l "
                "JOIN chunks c ON c.id = l.source "
                "WHERE c.chunk_id IN (SELECT value FROM json_each(?)) ORDER BY l.rowid",
                (json.dumps(list(ids)),),
            )
            found: dict[ChunkId, list[Reference]] = {}
            for chunk_id, path, heading, kind in rows:
                found.setdefault(ChunkId(chunk_id), []).append(Reference(path, heading, kind))
            return found

        return await self._run(fetch)

    async def document_chunks(self, path: str, limit: int) -> list[Chunk]:
        """Up to `limit` chunks of the documents at `path`, in reading order."""

        def fetch() -> list[Chunk]:
            rows = self._sql.execute(
                f"SELECT {CHUNK_COLUMNS} FROM chunks c "
                "JOIN documents d ON d.id = c.document WHERE d.path = ? "
                "ORDER BY d.id, c.ordinal LIMIT ?",
                (path, limit),
            )
            return [_chunk(row) for row in rows]

        return await self._run(fetch)

    async def defined_terms(self) -> dict[str, ChunkId]:
        """Every defined term and the first chunk written that defines it."""

        def fetch() -> dict[str, ChunkId]:
            first: dict[str, ChunkId] = {}
            rows = self._sql.execute(
                "SELECT t.term, c.chunk_id FROM chunk_terms t JOIN chunks c ON c.id = t.chunk "
                "ORDER BY t.chunk"
            )
            for term, chunk_id in rows:
                first.setdefault(term, ChunkId(chunk_id))
            return first

        return await self._run(fetch)

    async def spread_texts(self, count: int) -> list[str]:
        """Up to `count` chunk texts spread evenly over the row ids (index lookups)."""

        def fetch() -> list[str]:
            low, high = self._sql.execute("SELECT min(id), max(id) FROM chunks").fetchone()
            found: dict[int, str] = {}
            for point in spread(low, high, count):
                row = self._sql.execute(
                    "SELECT id, text FROM chunks WHERE id >= ? ORDER BY id LIMIT 1", (point,)
                ).fetchone()
                if row is not None:
                    found.setdefault(row[0], row[1])
            return list(found.values())

        return await self._run(fetch)

    async def term_shares(self, terms: Sequence[str]) -> dict[str, float]:
        """Per analysed term, the share of all chunks holding it (from the BM25 index)."""

        def fetch() -> dict[str, float]:
            self._refresh()
            return self._bm25.shares(terms)

        return await self._run(fetch)

    async def generation(self) -> int:
        """A number that changes whenever the indexed content changes."""
        return await self._run(self._meta_int, "generation")

    async def file_versions(self, paths: Sequence[str]) -> list[FileVersion]:
        """The stored content of the files at `paths`, exactly as it was written."""
        return await self._run(self._file_versions, list(paths))

    def _file_versions(self, paths: list[str]) -> list[FileVersion]:
        wanted = json.dumps(paths)
        states = {
            row[0]: FileState(*row)
            for row in self._sql.execute(
                f"SELECT {FILE_COLUMNS} FROM files WHERE path IN (SELECT value FROM json_each(?))",
                (wanted,),
            )
        }
        documents: dict[str, list[tuple[int, Document]]] = {}
        for row in self._sql.execute(
            f"SELECT d.id, d.file_path, {DOCUMENT_COLUMNS} FROM documents d "
            "WHERE d.file_path IN (SELECT value FROM json_each(?)) ORDER BY d.id",
            (wanted,),
        ):
            found = document_from(row[2:], json.loads(row[7]))
            documents.setdefault(row[1], []).append((row[0], found))
        numbers = [number for found in documents.values() for number, _ in found]
        chunks = self._sql.execute(
            f"SELECT {CHUNK_COLUMNS}, c.document FROM chunks c "
            "JOIN documents d ON d.id = c.document "
            "WHERE c.document IN (SELECT value FROM json_each(?)) ORDER BY c.ordinal",
            (json.dumps(numbers),),
        ).fetchall()
        rowids = json.dumps([row[0] for row in chunks])
        links: dict[int, list[Reference]] = {}
        for source, path, heading, kind in self._sql.execute(
            "SELECT source, target_path, target_heading, kind FROM chunk_links "
            "WHERE source IN (SELECT value FROM json_each(?)) ORDER BY rowid",
            (rowids,),
        ):
            links.setdefault(source, []).append(Reference(path, heading, kind))
        defined: dict[int, list[str]] = {}
        for rowid, term in self._sql.execute(
            "SELECT chunk, term FROM chunk_terms "
            "WHERE chunk IN (SELECT value FROM json_each(?)) ORDER BY rowid",
            (rowids,),
        ):
            defined.setdefault(rowid, []).append(term)
        records: dict[int, list[ChunkRecord]] = {}
        for row in chunks:
            record = ChunkRecord(
                _chunk(row), tuple(links.get(row[0], ())), tuple(defined.get(row[0], ()))
            )
            records.setdefault(row[13], []).append(record)
        return assemble_versions(paths, states, documents, records)

    async def vectors(
        self, model: str, hashes: Sequence[str]
    ) -> dict[str, npt.NDArray[np.float32]]:
        """The stored vectors of `model` for the given text hashes (those it holds)."""

        def fetch() -> dict[str, npt.NDArray[np.float32]]:
            rows = self._sql.execute(
                "SELECT text_hash, vector FROM embeddings WHERE model = ? "
                "AND text_hash IN (SELECT value FROM json_each(?))",
                (model, json.dumps(list(hashes))),
            )
            return {h: np.frombuffer(blob, dtype=np.float32).copy() for h, blob in rows}

        return await self._run(fetch)

    async def get_cached(self, key: str, newer_than: float) -> str | None:
        """The value stored under `key` at or after Unix time `newer_than`, or None."""

        def read() -> str | None:
            row = self._sql.execute(
                "SELECT answer FROM answer_cache WHERE key = ? AND created_at >= ?",
                (key, newer_than),
            ).fetchone()
            return None if row is None else str(row[0])

        return await self._run(read)

    async def put_cached(self, key: str, value: str, *, drop_before: float) -> None:
        """Store `value` under `key` now; drop every entry stored before `drop_before`."""

        def write() -> None:
            with self._transaction():
                self._sql.execute(
                    "INSERT OR REPLACE INTO answer_cache VALUES (?, ?, ?)",
                    (key, value, time.time()),
                )
                self._sql.execute("DELETE FROM answer_cache WHERE created_at < ?", (drop_before,))

        await self._run(write)

    async def get_meta(self, key: str) -> str | None:
        """The value last recorded under `key` with `set_meta`, or None."""

        def read() -> str | None:
            row = self._sql.execute(
                "SELECT value FROM meta WHERE key = ?", (_META_PREFIX + key,)
            ).fetchone()
            return None if row is None else str(row[0])

        return await self._run(read)

    async def set_meta(self, key: str, value: str) -> None:
        """Record `value` under `key`, replacing any earlier value."""

        def write() -> None:
            with self._transaction():
                self._sql.execute(
                    "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                    (_META_PREFIX + key, value),
                )

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
                f"SELECT {CHUNK_COLUMNS}, {DOCUMENT_COLUMNS} "
                "FROM chunks c JOIN documents d ON d.id = c.document WHERE c.chunk_id = ?",
                (chunk_id,),
            ).fetchone()
            if row is None:
                return None
            chunk = _chunk(row)
            document = document_from(row[13:], json.loads(row[18]))
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
