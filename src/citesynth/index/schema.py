"""The SQLite schema, as an ordered list of migrations applied in one transaction each.

SQLite is the source of truth. The lexical (tantivy) and dense (faiss) indexes are derived
from it and rebuilt when their recorded generation differs from `meta.generation`.
"""

from __future__ import annotations

import sqlite3

from citesynth.errors import StoreError

MIGRATIONS: tuple[str, ...] = (
    # 1: files, documents, chunks, embeddings cache
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE files (
        path TEXT PRIMARY KEY,
        display_path TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        content_hash TEXT NOT NULL,
        signature TEXT NOT NULL,
        indexed_at REAL NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE documents (
        id INTEGER PRIMARY KEY,
        file_path TEXT NOT NULL REFERENCES files(path) ON DELETE CASCADE,
        doc_id TEXT NOT NULL,
        record_id TEXT,
        path TEXT NOT NULL,
        title TEXT NOT NULL,
        kind TEXT NOT NULL,
        language TEXT,
        text TEXT NOT NULL,
        anchors TEXT NOT NULL
    );
    CREATE INDEX documents_file ON documents(file_path);
    CREATE INDEX documents_doc_id ON documents(doc_id);
    CREATE TABLE chunks (
        id INTEGER PRIMARY KEY,
        chunk_id TEXT NOT NULL UNIQUE,
        document INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        char_start INTEGER NOT NULL,
        char_end INTEGER NOT NULL,
        start_line INTEGER NOT NULL,
        end_line INTEGER NOT NULL,
        page INTEGER,
        heading_path TEXT NOT NULL,
        text TEXT NOT NULL,
        index_text_hash TEXT NOT NULL
    );
    CREATE INDEX chunks_document ON chunks(document);
    CREATE INDEX chunks_index_text_hash ON chunks(index_text_hash);
    CREATE TABLE embeddings (
        model TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        vector BLOB NOT NULL,
        used_at REAL NOT NULL,
        PRIMARY KEY (model, text_hash)
    ) WITHOUT ROWID;
    INSERT INTO meta(key, value) VALUES ('generation', '0'), ('vector_generation', '0');
    """,
    # 2: id counters that only grow, so that no id is ever reused after a deletion
    """
    INSERT OR IGNORE INTO meta(key, value)
        SELECT 'next_document', COALESCE(MAX(id), 0) + 1 FROM documents;
    INSERT OR IGNORE INTO meta(key, value)
        SELECT 'next_chunk', COALESCE(MAX(id), 0) + 1 FROM chunks;
    """,
    # 3: answers cached by (question, corpus generation, model, mode, prompt version)
    """
    CREATE TABLE answer_cache (
        key TEXT PRIMARY KEY,
        answer TEXT NOT NULL,
        created_at REAL NOT NULL
    ) WITHOUT ROWID;
    """,
    # 4: cross-references from a chunk to a document or section (resolved when read)
    """
    CREATE TABLE chunk_links (
        source INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
        target_path TEXT NOT NULL,
        target_heading TEXT NOT NULL,
        kind TEXT NOT NULL
    );
    CREATE INDEX chunk_links_source ON chunk_links(source);
    """,
    # 5: terms a chunk defines ("**Term** is ...", "Long Name (LN)"), to link their users
    """
    CREATE TABLE chunk_terms (
        chunk INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
        term TEXT NOT NULL
    );
    CREATE INDEX chunk_terms_chunk ON chunk_terms(chunk);
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)


def migrate(connection: sqlite3.Connection) -> None:
    """Bring the database to `SCHEMA_VERSION`.

    Raises:
        StoreError: the database was written by a newer citesynth.
    """
    (version,) = connection.execute("PRAGMA user_version").fetchone()
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"this index has schema version {version}, newer than this citesynth supports "
            f"({SCHEMA_VERSION}); upgrade citesynth or index into a new --index folder"
        )
    for number in range(version, SCHEMA_VERSION):
        try:
            connection.executescript(
                f"BEGIN IMMEDIATE; {MIGRATIONS[number]} PRAGMA user_version = {number + 1}; COMMIT;"
            )
        except sqlite3.Error:
            if connection.in_transaction:
                connection.rollback()
            raise
