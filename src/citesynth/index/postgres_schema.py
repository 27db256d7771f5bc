"""The PostgreSQL schema, as an ordered list of migrations applied in one transaction each.

The version lives in `citesynth_schema`; opening a store brings the database up to date
under an advisory lock, so two processes opening one new database never both migrate it.
Every object lives in the schema the store's `search_path` names first (`?schema=NAME` in
the URL, else `public`); the `vector` type comes from the pgvector extension.

Lexical search is an inverted index kept exact inside the write transactions: `postings`
holds one row per (term, chunk) with the term's count and the chunk's length (read by
index-only scans of `postings_impact`, best first), `lexicon` the number of chunks holding
each term, `lexical_totals` the chunk count and total length: everything BM25 needs.
"""

from __future__ import annotations

from psycopg import AsyncConnection, errors, sql

from citesynth.errors import StoreError

MIGRATIONS: tuple[str, ...] = (
    # 1: files, documents, chunks, the lexicon, vectors, links, terms, cache, meta
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO meta VALUES ('generation', '0');
    CREATE TABLE files (
        path TEXT PRIMARY KEY,
        display_path TEXT NOT NULL,
        size BIGINT NOT NULL,
        mtime_ns BIGINT NOT NULL,
        content_hash TEXT NOT NULL,
        signature TEXT NOT NULL,
        indexed_at DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE documents (
        id BIGINT PRIMARY KEY,
        file_path TEXT NOT NULL REFERENCES files(path) ON DELETE CASCADE,
        doc_id TEXT NOT NULL,
        record_id TEXT,
        path TEXT NOT NULL,
        title TEXT NOT NULL,
        kind TEXT NOT NULL,
        language TEXT,
        text TEXT NOT NULL,
        anchors JSONB NOT NULL
    );
    CREATE INDEX documents_file ON documents(file_path);
    CREATE INDEX documents_path ON documents(path, id);
    CREATE SEQUENCE document_ids;
    CREATE TABLE chunks (
        id BIGINT PRIMARY KEY,
        chunk_id TEXT NOT NULL UNIQUE,
        document BIGINT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        char_start INTEGER NOT NULL,
        char_end INTEGER NOT NULL,
        start_line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        page INTEGER,
        heading_path JSONB NOT NULL,
        text TEXT NOT NULL,
        index_text_hash TEXT NOT NULL,
        length INTEGER NOT NULL
    );
    CREATE INDEX chunks_document ON chunks(document, ordinal);
    CREATE INDEX chunks_index_text_hash ON chunks(index_text_hash);
    CREATE SEQUENCE chunk_ids;
    CREATE TABLE postings (
        term TEXT NOT NULL,
        chunk BIGINT NOT NULL,
        tf INTEGER NOT NULL,
        length INTEGER NOT NULL
    );
    CREATE INDEX postings_term ON postings(term) INCLUDE (chunk, tf, length);
    CREATE INDEX postings_chunk ON postings(chunk);
    CREATE TABLE lexicon (term TEXT PRIMARY KEY, chunks BIGINT NOT NULL);
    CREATE TABLE lexical_totals (
        one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one),
        chunks BIGINT NOT NULL,
        length BIGINT NOT NULL
    );
    INSERT INTO lexical_totals VALUES (TRUE, 0, 0);
    CREATE TABLE embeddings (
        model TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        vector vector NOT NULL,
        used_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (model, text_hash)
    );
    CREATE TABLE chunk_links (
        source BIGINT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        target_path TEXT NOT NULL,
        target_heading TEXT NOT NULL,
        kind TEXT NOT NULL,
        PRIMARY KEY (source, ordinal)
    );
    CREATE TABLE chunk_terms (
        chunk BIGINT NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        term TEXT NOT NULL,
        PRIMARY KEY (chunk, ordinal)
    );
    CREATE INDEX chunk_terms_term ON chunk_terms(term, chunk);
    CREATE TABLE answer_cache (
        key TEXT PRIMARY KEY,
        answer TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX answer_cache_created ON answer_cache(created_at);
    """,
    # 2: each term's postings in order of their BM25 weight, so a query reads a common
    # term's best postings first and stops (the weight taken at a typical length of 200)
    """
    CREATE INDEX postings_impact ON postings
        (term, (tf::float8 / (tf + 1.2 * (0.25 + 0.75 * length::float8 / 200.0))) DESC)
        INCLUDE (chunk, tf, length);
    DROP INDEX postings_term;
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)

_MIGRATION_LOCK = 7_262_414_001
"""The advisory lock key that one migrating process holds (any number, fixed forever)."""


async def has_schema(connection: AsyncConnection[tuple[object, ...]], schema: str | None) -> bool:
    """Whether `schema` (None: `public`) holds a citesynth index.

    Asked of that schema by name: the search path also holds `public` (for the `vector`
    type), so an unqualified name would find an index there and open it for another schema.
    """
    cursor = await connection.execute(
        "SELECT to_regclass(%s) IS NOT NULL", (qualified(schema, "citesynth_schema"),)
    )
    row = await cursor.fetchone()
    return bool(row and row[0])


def qualified(schema: str | None, name: str) -> str:
    """`schema.name` for `to_regclass` (schema names are checked plain SQL names)."""
    return f"{schema or 'public'}.{name}"


async def migrate(connection: AsyncConnection[tuple[object, ...]], schema: str | None) -> None:
    """Create the pgvector extension and the schema, then apply missing migrations.

    Raises:
        StoreError: the database was written by a newer citesynth, or pgvector is not
            available to this user.
    """
    if await _version(connection, schema) == SCHEMA_VERSION:
        return  # up to date: nothing to write (a read-only standby opens too)
    async with connection.transaction():
        await connection.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        try:
            await connection.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except errors.Error as error:
            raise StoreError(
                f"the pgvector extension is not available in this database ({error}); "
                "install pgvector on the server, or ask an administrator to run "
                "`CREATE EXTENSION vector` in it"
            ) from error
        if schema is not None:
            await connection.execute(
                sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema))
            )
        await connection.execute(
            "CREATE TABLE IF NOT EXISTS citesynth_schema (version INTEGER NOT NULL)"
        )
        cursor = await connection.execute("SELECT max(version) FROM citesynth_schema")
        row = await cursor.fetchone()
        version = int(row[0]) if row and row[0] is not None else 0  # type: ignore[call-overload]
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"this index has schema version {version}, newer than this citesynth supports "
                f"({SCHEMA_VERSION}); upgrade citesynth or use another database"
            )
        for number in range(version, SCHEMA_VERSION):
            await connection.execute(MIGRATIONS[number])
            await connection.execute("INSERT INTO citesynth_schema VALUES (%s)", (number + 1,))


async def _version(connection: AsyncConnection[tuple[object, ...]], schema: str | None) -> int:
    """The schema version of the index in `schema`; 0 when there is none."""
    if not await has_schema(connection, schema):
        return 0
    cursor = await connection.execute("SELECT max(version) FROM citesynth_schema")
    row = await cursor.fetchone()
    return int(row[0]) if row and row[0] is not None else 0  # type: ignore[call-overload]
