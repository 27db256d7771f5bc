"""The team store: one PostgreSQL database with pgvector, shared by many processes.

Open it with `get_store("postgresql://user@host/db")` (`?schema=NAME` keeps several
indexes in one database; `?pool=N` sizes the connection pool). Everything lives in the
database, so any number of `serve` processes and indexers on any machines share it:

- every `write` is one transaction that first takes a transaction lock per file path, so
  writers of different files run at once and two writers of one file take turns (the last
  one wins, nothing is duplicated); readers see a write whole or not at all;
- lexical search is BM25 inside PostgreSQL over an inverted index the writes keep exact
  (`postgres_lexical`), with the SQLite store's analyzer and formula: both rank alike;
- dense search is pgvector cosine distance: exact while a model has few vectors, an HNSW
  index (built once a model passes `hnsw_from` vectors, kept current by PostgreSQL after)
  beyond;
- connections come from a pool that checks each one before use, so after the server
  restarts the store reconnects by itself; while it is down, calls raise
  `StoreUnavailableError` naming the server.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import numpy.typing as npt
import psycopg
from pgvector.psycopg import register_vector_async
from psycopg import AsyncConnection, sql
from psycopg.conninfo import conninfo_to_dict

from citesynth.errors import IndexNotFoundError, StoreError, StoreUnavailableError
from citesynth.index import postgres_lexical, postgres_writes
from citesynth.index.postgres_pool import ConnectionPool, PoolBusyError
from citesynth.index.postgres_schema import has_schema, migrate, qualified
from citesynth.index.rows import (
    CHUNK_COLUMNS,
    DOCUMENT_COLUMNS,
    FILE_COLUMNS,
    assemble_versions,
    chunk_from,
    document_from,
    spread,
)
from citesynth.index.store import (
    ChunkRecord,
    FileState,
    FileVersion,
    PendingText,
    WriteResult,
    index_text,
)
from citesynth.index.stores import shown_location, with_query
from citesynth.types import (
    Chunk,
    ChunkId,
    Document,
    IndexedFile,
    IndexStats,
    Reference,
)

Row = tuple[Any, ...]

HNSW_FROM = 20_000
"""Vectors of one model from which an HNSW index serves its dense searches. Measured
(benchmarks/postgres_store.py --scale): exact search of the top 100 takes 6 ms p95 with
5,000 vectors, 24 ms with 20,000, 49 ms with 50,000, 125 ms with 100,000 on two cores."""

_META_PREFIX = "set:"


def _chunk(row: Row) -> Chunk:
    return chunk_from(row, row[5])


class ReadOnlyStoreError(StoreError):
    """The database refuses writes (a read replica)."""


@dataclass(frozen=True, slots=True)
class Location:
    """A store URL split: what libpq reads, and citesynth's own options."""

    url: str
    schema: str | None = None
    pool: int = 10
    postings_per_term: int = postgres_lexical.POSTINGS_PER_TERM


def split_location(url: str) -> Location:
    """A store URL's libpq part and citesynth's own options.

    The options are `schema`, `pool` (connections at most) and `postings_per_term`
    (BM25's read limit for one term, 0 for all).

    Raises:
        StoreError: an option is malformed.
    """
    parts = urlsplit(url)
    options = parse_qsl(parts.query, keep_blank_values=True)
    own = {key: value for key, value in options if key in {"schema", "pool", "postings_per_term"}}
    rest = [(key, value) for key, value in options if key not in own]
    schema = (own.get("schema") or "").lower() or None  # as PostgreSQL folds unquoted names
    if schema is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,62}", schema):
        raise StoreError(f"schema must be a plain SQL name (letters, digits, _), got {schema!r}")
    numbers = {"pool": 10, "postings_per_term": postgres_lexical.POSTINGS_PER_TERM}
    for name, default in numbers.items():
        try:
            numbers[name] = int(own.get(name, default))
        except ValueError:
            raise StoreError(f"{name} must be a whole number, got {own[name]!r}") from None
    if numbers["pool"] < 1:
        raise StoreError(f"pool must be at least 1, got {numbers['pool']}")
    libpq = with_query(url, rest)
    try:
        conninfo_to_dict(libpq)
    except psycopg.ProgrammingError as error:
        reason = str(error).strip()
        raise StoreError(
            f"{shown_location(url)} is not a PostgreSQL URL libpq reads ({reason}); besides "
            "libpq's options, citesynth takes schema, pool and postings_per_term"
        ) from None
    return Location(
        libpq,
        schema,
        numbers["pool"],
        max(0, numbers["postings_per_term"]),
    )


class PostgresStore:
    """PostgreSQL + pgvector; see the module docstring."""

    def __init__(
        self,
        url: str,
        *,
        schema: str | None = None,
        pool_size: int = 10,
        hnsw_from: int = HNSW_FROM,
        postings_per_term: int = postgres_lexical.POSTINGS_PER_TERM,
        timeout: float = 10.0,
    ) -> None:
        self.url = url
        self.schema = schema
        self.postings_per_term = postings_per_term
        self.hnsw_from = hnsw_from
        self._timeout = timeout
        self._shown = shown_location(url) + (f" (schema {schema})" if schema else "")
        self._pool = ConnectionPool(self._connect, pool_size, wait=max(30.0, 3 * timeout))
        self._dimensions: dict[str, int] = {}
        self._indexed: set[str] = set()  # models whose HNSW index exists
        self._unindexed: dict[str, int] = {}  # vectors each other model lacks for one

    @classmethod
    async def open(
        cls,
        location: str,
        *,
        create: bool = True,
        hnsw_from: int = HNSW_FROM,
    ) -> PostgresStore:
        """Connect to the database at `location` and bring its schema up to date.

        Raises:
            IndexNotFoundError: `create` is False and the database holds no index.
            StoreUnavailableError: the server cannot be reached.
            StoreError: the schema is newer than this citesynth, or pgvector is missing.
        """
        found = split_location(location)
        store = cls(
            found.url,
            schema=found.schema,
            pool_size=found.pool,
            hnsw_from=hnsw_from,
            postings_per_term=found.postings_per_term,
        )
        try:
            await store._prepare(create)
        except BaseException:
            await store.close()
            raise
        return store

    async def _prepare(self, create: bool) -> None:
        try:
            async with self._pool.connection() as connection:
                if not create and not await has_schema(connection, self.schema):
                    raise IndexNotFoundError(
                        f"no index at {self._shown}; run `citesynth index PATH` first "
                        f"(with --store {shown_location(self.url)})"
                    )
                await migrate(connection, self.schema)
                await register_vector_async(connection)  # the extension may be new
        except psycopg.OperationalError as error:
            raise self._unavailable(error) from error

    async def _connect(self) -> AsyncConnection[Row]:
        path = f"{self.schema},public" if self.schema else "public"
        given = conninfo_to_dict(self.url).get("options") or ""  # the user's own, kept
        connection = await psycopg.AsyncConnection.connect(
            self.url,
            autocommit=True,
            options=f"{given} -c search_path={path}".strip(),
            connect_timeout=max(1, int(self._timeout)),
        )
        # A database without pgvector yet: `migrate` creates it, then registers the type.
        with suppress(psycopg.ProgrammingError):
            await register_vector_async(connection)
        return connection

    def _unavailable(self, error: Exception) -> StoreUnavailableError:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        return StoreUnavailableError(
            f"the database at {self._shown} cannot be reached ({reason}); "
            "try again once it is back (a running service reconnects by itself)"
        )

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[AsyncConnection[Row]]:
        """A pooled connection (autocommit); server trouble becomes `StoreUnavailableError`."""
        try:
            async with self._pool.connection() as connection:
                yield connection
        except (psycopg.OperationalError, PoolBusyError) as error:
            raise self._unavailable(error) from error
        except psycopg.errors.ReadOnlySqlTransaction as error:
            raise ReadOnlyStoreError(
                f"the database at {self._shown} is read-only (a standby?); index into the primary"
            ) from error

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[AsyncConnection[Row]]:
        async with self._connection() as connection, connection.transaction():
            yield connection

    async def _rows(self, query: str | sql.Composed, params: Sequence[Any] = ()) -> list[Row]:
        async with self._connection() as connection:
            cursor = await connection.execute(query, params, binary=True)  # a third faster
            return await cursor.fetchall()

    async def _execute(self, query: str, params: Sequence[Any] = ()) -> None:
        async with self._connection() as connection:
            await connection.execute(query, params)

    async def _one(self, query: str | sql.Composed, params: Sequence[Any] = ()) -> Row | None:
        rows = await self._rows(query, params)
        return rows[0] if rows else None

    # -- locking --------------------------------------------------------------------------------

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[None]:
        """Writers may run at once: each `write` locks the files it replaces, not the index."""
        yield

    # -- files ----------------------------------------------------------------------------------

    async def file_states(self) -> dict[str, FileState]:
        """Every indexed file, by absolute path."""
        rows = await self._rows(f"SELECT {FILE_COLUMNS} FROM files")
        return {row[0]: FileState(*row) for row in rows}

    async def touch(self, states: Sequence[FileState]) -> None:
        """Record new size, mtime and display path for files whose content did not change."""
        async with self._transaction() as connection, connection.cursor() as cursor:
            await cursor.executemany(
                "UPDATE files SET size = %s, mtime_ns = %s, display_path = %s WHERE path = %s",
                [(s.size, s.mtime_ns, s.display, s.path) for s in states],
            )

    async def write(self, versions: Sequence[FileVersion], removed: Sequence[str]) -> WriteResult:
        """Atomically replace the given files' content and drop the `removed` paths.

        Raises:
            StoreError: the write breaks the index's rules (a chunk id given twice); nothing
                was written.
        """
        try:
            async with self._transaction() as connection:
                return await postgres_writes.write(connection, versions, removed)
        except psycopg.errors.IntegrityError as error:
            raise StoreError(f"nothing was written: {error}") from error

    # -- vectors --------------------------------------------------------------------------------

    _PENDING = """FROM chunks c JOIN documents d ON d.id = c.document WHERE NOT EXISTS (
        SELECT 1 FROM embeddings e WHERE e.model = %s AND e.text_hash = c.index_text_hash)"""

    async def count_pending(self, model: str) -> int:
        """How many distinct chunk texts have no vector for `model`."""
        row = await self._one(f"SELECT count(DISTINCT c.index_text_hash) {self._PENDING}", (model,))
        return int(row[0]) if row else 0

    async def pending_texts(self, model: str, batch: int) -> AsyncIterator[list[PendingText]]:
        """Chunk texts without a vector for `model`, in batches (keyset-paged by hash)."""
        after = ""
        query = (
            f"SELECT DISTINCT ON (c.index_text_hash) {CHUNK_COLUMNS}, c.index_text_hash "
            f"{self._PENDING} AND c.index_text_hash > %s "
            "ORDER BY c.index_text_hash, c.id LIMIT %s"
        )
        while True:
            rows = await self._rows(query, (model, after, batch))
            if not rows:
                return
            after = rows[-1][-1]
            yield [PendingText(row[-1], index_text(_chunk(row))) for row in rows]

    async def put_vectors(
        self, model: str, hashes: Sequence[str], vectors: npt.NDArray[np.float32]
    ) -> None:
        """Store unit vectors for chunk texts (keyed by text hash).

        Raises:
            StoreError: the vectors' dimension differs from the one `model` was stored with.
        """
        if not len(hashes):
            return
        data = np.ascontiguousarray(vectors, dtype=np.float32)
        dimension = await self._dimension(model, int(data.shape[1]))
        if dimension is None or dimension != data.shape[1]:
            raise StoreError(
                f"the index holds {dimension}-dimensional vectors for {model!r}, "
                f"not {data.shape[1]}; re-index into another store or schema"
            )
        now = time.time()
        async with self._transaction() as connection, connection.cursor() as cursor:
            await cursor.executemany(
                "INSERT INTO embeddings VALUES (%s, %s, %s, %s) ON CONFLICT (model, text_hash) "
                "DO UPDATE SET vector = excluded.vector, used_at = excluded.used_at",
                [(model, h, data[i], now) for i, h in enumerate(hashes)],
            )
        await self._index_when_large(model, dimension, len(hashes))

    async def _dimension(self, model: str, offered: int | None = None) -> int | None:
        """The dimension of `model`'s vectors (recorded with the first ones stored)."""
        if model in self._dimensions:
            return self._dimensions[model]
        key = f"dimension:{model}"
        if offered is not None:
            await self._execute(
                "INSERT INTO meta VALUES (%s, %s) ON CONFLICT (key) DO NOTHING",
                (key, str(offered)),
            )
        row = await self._one("SELECT value FROM meta WHERE key = %s", (key,))
        if row is None:
            return None
        self._dimensions[model] = int(row[0])
        return self._dimensions[model]

    def _index_name(self, model: str) -> str:
        return "embeddings_hnsw_" + hashlib.sha1(model.encode()).hexdigest()[:16]

    async def _index_when_large(self, model: str, dimension: int, added: int) -> None:
        """Build the model's HNSW index once it has `hnsw_from` vectors (counted rarely)."""
        if model in self._indexed:
            return
        left = self._unindexed.get(model)
        if left is not None:
            self._unindexed[model] = left - added
            if left - added > 0:
                return
        name = self._index_name(model)
        exists = await self._one(
            "SELECT to_regclass(%s) IS NOT NULL", (qualified(self.schema, name),)
        )
        if not (exists and exists[0]):
            row = await self._one("SELECT count(*) FROM embeddings WHERE model = %s", (model,))
            count = int(row[0]) if row else 0
            if count < self.hnsw_from:
                self._unindexed[model] = self.hnsw_from - count
                return
            await self.build_vector_index(model, dimension)
        self._indexed.add(model)

    async def build_vector_index(self, model: str, dimension: int) -> None:
        """Create `model`'s HNSW index now (cosine, m 16, ef_construction 64)."""
        statement = sql.SQL(
            "CREATE INDEX IF NOT EXISTS {} ON embeddings USING hnsw "
            "((vector::vector({})) vector_cosine_ops) WHERE model = {}"
        ).format(
            sql.Identifier(self._index_name(model)), sql.Literal(dimension), sql.Literal(model)
        )
        async with self._transaction() as connection:
            await connection.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 1))", (model,)
            )
            # The graph built in memory is several times faster than one spilled to disk:
            # room for every vector and its links, between 256 MB and 2 GB.
            cursor = await connection.execute(
                "SELECT count(*) FROM embeddings WHERE model = %s", (model,)
            )
            row = await cursor.fetchone()
            needed = int(row[0] if row else 0) * (dimension * 4 + 200) * 13 // 10 // 2**20
            memory = min(2048, max(256, needed))
            await connection.execute(f"SET LOCAL maintenance_work_mem = '{memory}MB'")
            await connection.execute(statement)

    async def prune_vectors(self) -> int:
        """Drop cached vectors that no chunk uses any more; returns how many."""
        async with self._connection() as connection:
            cursor = await connection.execute(
                "DELETE FROM embeddings e WHERE NOT EXISTS "
                "(SELECT 1 FROM chunks c WHERE c.index_text_hash = e.text_hash)"
            )
            return cursor.rowcount

    # -- search -------------------------------------------------------------------------------

    async def lexical_search(self, query: str, k: int) -> list[tuple[ChunkId, float]]:
        """BM25 top `k` for raw query text (analysed as `query_terms` does): `(id, score)`."""
        async with self._connection() as connection:
            return await postgres_lexical.search(connection, query, k, self.postings_per_term)

    async def dense_search(
        self, model: str, vector: npt.NDArray[np.float32], k: int
    ) -> list[tuple[ChunkId, float]]:
        """Cosine top `k` among chunks embedded with `model`: `(id, cosine)`."""
        dimension = await self._dimension(model)
        if dimension is None or k <= 0:
            return []
        query = np.ascontiguousarray(vector, dtype=np.float32)
        typed = sql.SQL("vector::vector({})").format(sql.Literal(dimension))
        fetch = k + 8
        while True:
            statement = sql.SQL(
                "WITH near AS (SELECT text_hash, {typed} <=> %(q)s AS distance FROM embeddings "
                "WHERE model = {model} ORDER BY {typed} <=> %(q)s LIMIT %(fetch)s) "
                "SELECT c.chunk_id, 1 - n.distance, n.text_hash FROM near n "
                "JOIN chunks c ON c.index_text_hash = n.text_hash "
                "ORDER BY n.distance, c.id"
            ).format(typed=typed, model=sql.Literal(model))
            async with self._transaction() as connection:
                await connection.execute(
                    "SELECT set_config('hnsw.ef_search', %s, true)",
                    (str(min(1000, max(200, 4 * fetch))),),
                )
                cursor = await connection.execute(statement, {"q": query, "fetch": fetch})
                rows = await cursor.fetchall()
            hashes = {row[2] for row in rows}
            # Vectors no chunk uses (before a prune) take places: fetch more when short.
            if len(rows) >= k or len(hashes) < fetch:
                return [(ChunkId(row[0]), float(row[1])) for row in rows[:k]]
            fetch *= 4

    async def similarities(
        self, model: str, vector: npt.NDArray[np.float32], ids: Sequence[ChunkId]
    ) -> dict[ChunkId, float]:
        """Exact cosine between `vector` and the given chunks (those embedded with `model`)."""
        if not ids:
            return {}
        rows = await self._rows(
            "SELECT c.chunk_id, 1 - (e.vector <=> %s) FROM chunks c "
            "JOIN embeddings e ON e.model = %s AND e.text_hash = c.index_text_hash "
            "WHERE c.chunk_id = ANY(%s)",
            (np.ascontiguousarray(vector, dtype=np.float32), model, list(ids)),
        )
        return {ChunkId(chunk_id): float(value) for chunk_id, value in rows}

    # -- reads ----------------------------------------------------------------------------------

    async def chunks(self, ids: Sequence[ChunkId]) -> dict[ChunkId, Chunk]:
        """Chunks by id; ids no longer in the index are left out."""
        rows = await self._rows(
            f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document "
            "WHERE c.chunk_id = ANY(%s)",
            (list(ids),),
        )
        return {ChunkId(row[1]): _chunk(row) for row in rows}

    async def references(self, ids: Sequence[ChunkId]) -> dict[ChunkId, list[Reference]]:
        """The stored cross-references of the given chunks, in the order they were written."""
        rows = await self._rows(
            "SELECT c.chunk_id, l.target_path, l.target_heading, l.kind FROM chunk_links l "
            "JOIN chunks c ON c.id = l.source WHERE c.chunk_id = ANY(%s) "
            "ORDER BY l.source, l.ordinal",
            (list(ids),),
        )
        found: dict[ChunkId, list[Reference]] = {}
        for chunk_id, path, heading, kind in rows:
            found.setdefault(ChunkId(chunk_id), []).append(Reference(path, heading, kind))
        return found

    async def document_chunks(self, path: str, limit: int) -> list[Chunk]:
        """Up to `limit` chunks of the documents at `path`, in reading order."""
        rows = await self._rows(
            f"SELECT {CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.document "
            "WHERE d.path = %s ORDER BY d.id, c.ordinal LIMIT %s",
            (path, limit),
        )
        return [_chunk(row) for row in rows]

    async def defined_terms(self) -> dict[str, ChunkId]:
        """Every defined term and the first chunk written that defines it."""
        rows = await self._rows(
            "SELECT DISTINCT ON (t.term) t.term, c.chunk_id, t.chunk FROM chunk_terms t "
            "JOIN chunks c ON c.id = t.chunk ORDER BY t.term, t.chunk"
        )
        ordered = sorted(rows, key=lambda row: row[2])
        return {term: ChunkId(chunk_id) for term, chunk_id, _ in ordered}

    async def spread_texts(self, count: int) -> list[str]:
        """Up to `count` chunk texts spread evenly over the row ids (index lookups)."""
        low, high = await self._one("SELECT min(id), max(id) FROM chunks") or (None, None)
        points = spread(low, high, count)
        rows = await self._rows(
            "SELECT DISTINCT ON (c.id) c.text FROM unnest(%s::bigint[]) AS p(id) "
            "CROSS JOIN LATERAL (SELECT id, text FROM chunks WHERE id >= p.id ORDER BY id "
            "LIMIT 1) c ORDER BY c.id",
            (points,),
        )
        return [text for (text,) in rows]

    async def term_shares(self, terms: Sequence[str]) -> dict[str, float]:
        """Per analysed term, the share of all chunks holding it (from the lexicon)."""
        total = await self._one("SELECT chunks FROM lexical_totals")
        rows = await self._rows(
            "SELECT term, chunks FROM lexicon WHERE term = ANY(%s)", (list(terms),)
        )
        held = {term: int(chunks) for term, chunks in rows}
        count = int(total[0]) if total else 0
        return {t: held.get(t, 0) / count if count else 0.0 for t in terms}

    async def generation(self) -> int:
        """A number that changes whenever the indexed content changes."""
        row = await self._one("SELECT value FROM meta WHERE key = 'generation'")
        return int(row[0]) if row else 0

    async def files(self) -> list[IndexedFile]:
        """Every indexed file with its document and chunk counts, by display path."""
        rows = await self._rows(
            "SELECT f.path, f.display_path, f.size, f.indexed_at, "
            "count(DISTINCT d.id), count(c.id), coalesce(min(d.title), '') "
            "FROM files f LEFT JOIN documents d ON d.file_path = f.path "
            "LEFT JOIN chunks c ON c.document = d.id "
            "GROUP BY f.path ORDER BY f.display_path"
        )
        return [IndexedFile(*row) for row in rows]

    async def chunk_in_document(self, chunk_id: str) -> tuple[Chunk, Document] | None:
        """The chunk with this id and the whole document it was cut from, or None."""
        row = await self._one(
            f"SELECT {CHUNK_COLUMNS}, {DOCUMENT_COLUMNS} "
            "FROM chunks c JOIN documents d ON d.id = c.document WHERE c.chunk_id = %s",
            (chunk_id,),
        )
        if row is None:
            return None
        chunk = _chunk(row)
        document = document_from(row[13:], row[18])
        return chunk, document

    async def file_versions(self, paths: Sequence[str]) -> list[FileVersion]:
        """The stored content of the files at `paths`, exactly as it was written."""
        wanted = list(paths)
        async with self._connection() as connection:
            cursor = await connection.execute(
                f"SELECT {FILE_COLUMNS} FROM files WHERE path = ANY(%s)", (wanted,)
            )
            states = {row[0]: FileState(*row) for row in await cursor.fetchall()}
            cursor = await connection.execute(
                f"SELECT d.id, d.file_path, {DOCUMENT_COLUMNS} FROM documents d "
                "WHERE d.file_path = ANY(%s) ORDER BY d.id",
                (wanted,),
            )
            documents: dict[str, list[tuple[int, Document]]] = {}
            for row in await cursor.fetchall():
                documents.setdefault(row[1], []).append((row[0], document_from(row[2:], row[7])))
            numbers = [number for found in documents.values() for number, _ in found]
            cursor = await connection.execute(
                f"SELECT {CHUNK_COLUMNS}, c.document, "
                "(SELECT coalesce(jsonb_agg(jsonb_build_array(l.target_path, l.target_heading, "
                "l.kind) ORDER BY l.ordinal), '[]') FROM chunk_links l WHERE l.source = c.id), "
                "(SELECT coalesce(jsonb_agg(t.term ORDER BY t.ordinal), '[]') "
                "FROM chunk_terms t WHERE t.chunk = c.id) "
                "FROM chunks c JOIN documents d ON d.id = c.document "
                "WHERE c.document = ANY(%s) ORDER BY c.document, c.ordinal",
                (numbers,),
            )
            chunks: dict[int, list[ChunkRecord]] = {}
            for row in await cursor.fetchall():
                chunks.setdefault(row[13], []).append(
                    ChunkRecord(
                        _chunk(row),
                        tuple(Reference(*item) for item in row[14]),
                        tuple(row[15]),
                    )
                )
        return assemble_versions(wanted, states, documents, chunks)

    async def vectors(
        self, model: str, hashes: Sequence[str]
    ) -> dict[str, npt.NDArray[np.float32]]:
        """The stored vectors of `model` for the given text hashes (those it holds)."""
        rows = await self._rows(
            "SELECT text_hash, vector FROM embeddings WHERE model = %s AND text_hash = ANY(%s)",
            (model, list(hashes)),
        )
        return {h: np.asarray(vector.to_numpy(), dtype=np.float32) for h, vector in rows}

    # -- the answer cache and meta --------------------------------------------------------------

    async def get_cached(self, key: str, newer_than: float) -> str | None:
        """The value stored under `key` at or after Unix time `newer_than`, or None."""
        row = await self._one(
            "SELECT answer FROM answer_cache WHERE key = %s AND created_at >= %s",
            (key, newer_than),
        )
        return None if row is None else str(row[0])

    async def put_cached(self, key: str, value: str, *, drop_before: float) -> None:
        """Store `value` under `key` now; drop every entry stored before `drop_before`.

        On a read-only standby (a read replica) nothing is stored: answers are not cached.
        """
        try:
            async with self._transaction() as connection:
                await connection.execute(
                    "INSERT INTO answer_cache VALUES (%s, %s, %s) ON CONFLICT (key) "
                    "DO UPDATE SET answer = excluded.answer, created_at = excluded.created_at",
                    (key, value, time.time()),
                )
                await connection.execute(
                    "DELETE FROM answer_cache WHERE created_at < %s", (drop_before,)
                )
        except ReadOnlyStoreError:
            return

    async def get_meta(self, key: str) -> str | None:
        """The value last recorded under `key` with `set_meta`, or None."""
        row = await self._one("SELECT value FROM meta WHERE key = %s", (_META_PREFIX + key,))
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        """Record `value` under `key`, replacing any earlier value."""
        await self._execute(
            "INSERT INTO meta VALUES (%s, %s) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (_META_PREFIX + key, value),
        )

    async def stats(self, model: str | None = None) -> IndexStats:
        """Counts of what the index holds (vectors for `model` when given)."""
        # The chunk count is the one the BM25 totals keep exact: no scan of the chunks.
        row = await self._one(
            "SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM documents), "
            "(SELECT chunks FROM lexical_totals), "
            "(SELECT value::bigint FROM meta WHERE key = 'generation')"
        )
        assert row is not None
        vectors = 0
        if model is not None:
            counted = await self._one(
                "SELECT count(*) FROM chunks c JOIN embeddings e "
                "ON e.model = %s AND e.text_hash = c.index_text_hash",
                (model,),
            )
            vectors = int(counted[0]) if counted else 0
        return IndexStats(
            files=int(row[0]),
            documents=int(row[1]),
            chunks=int(row[2]),
            vectors=vectors,
            embedding_model=model,
            generation=int(row[3]),
        )

    async def consistency_problems(self) -> list[str]:
        """What disagrees between the chunks and the BM25 statistics kept beside them.

        Nothing, unless something is wrong: used after concurrent writers, crashes and
        load tests (a chunk id held twice cannot happen: it is UNIQUE).
        """
        async with self._connection() as connection:
            return await postgres_lexical.problems(connection)

    async def close(self) -> None:
        """Close every pooled connection."""
        await self._pool.close()
