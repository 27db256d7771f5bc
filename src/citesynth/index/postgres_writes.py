"""One write to the PostgreSQL store: files replaced whole, in one transaction.

The transaction first takes an advisory lock per file path, in path order: writers of
other files never wait, two writers of one file take turns (the last wins) and cannot
deadlock. The files' old chunks (and with them their postings, links and terms) go, the
new ones come with ids from sequences that never reuse a number, and the BM25 statistics
and the generation move in the same transaction, so readers see all of it or none.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from psycopg import AsyncConnection, sql
from psycopg.types.json import Jsonb

from citesynth.index import postgres_lexical
from citesynth.index.rows import chunk_values, document_values
from citesynth.index.store import ChunkRecord, FileVersion, WriteResult, index_text
from citesynth.ingest.text import content_hash

Row = tuple[Any, ...]
Connection = AsyncConnection[Row]


async def write(
    connection: Connection, versions: Sequence[FileVersion], removed: Sequence[str]
) -> WriteResult:
    """Replace the files of `versions` and drop the `removed` paths (inside a transaction)."""
    paths = sorted({v.state.path for v in versions} | set(removed))
    # One lock per file, taken in order: writers of other files never wait, and two
    # writers of the same file cannot deadlock.
    await connection.execute(
        "SELECT pg_advisory_xact_lock(hashtextextended(p, 0)) FROM unnest(%s::text[]) p",
        (paths,),
    )
    cursor = await connection.execute(
        "SELECT c.id, c.length FROM chunks c JOIN documents d ON d.id = c.document "
        "WHERE d.file_path = ANY(%s)",
        (paths,),
    )
    old = await cursor.fetchall()
    lexicon = await postgres_lexical.remove(connection, [row[0] for row in old])
    old_chunks, old_length = len(old), sum(row[1] for row in old)
    await connection.execute("DELETE FROM files WHERE path = ANY(%s)", (paths,))

    chunk_total = sum(len(chunks) for v in versions for chunks in v.chunks)
    document_ids = iter(
        await _ids(connection, "document_ids", sum(len(v.documents) for v in versions))
    )
    chunk_ids = iter(await _ids(connection, "chunk_ids", chunk_total))
    now = time.time()
    files = []
    document_rows = []
    chunk_rows: list[Row] = []
    link_rows: list[Row] = []
    term_rows: list[Row] = []
    postings: list[tuple[int, Counter[str], int]] = []
    length = 0
    for version in versions:
        s = version.state
        files.append((s.path, s.display, s.size, s.mtime_ns, s.content_hash, s.signature, now))
        for document, records in zip(version.documents, version.chunks, strict=True):
            number = next(document_ids)
            document_rows.append(document_values(number, s.path, document, Jsonb))
            for ordinal, record in enumerate(records):
                row_id = next(chunk_ids)
                length += _chunk_row(chunk_rows, postings, row_id, number, ordinal, record)
                link_rows.extend(
                    (row_id, place, ref.path, ref.heading, ref.kind)
                    for place, ref in enumerate(record.references)
                )
                term_rows.extend((row_id, place, term) for place, term in enumerate(record.terms))
    async with connection.cursor() as cursor:
        await cursor.executemany("INSERT INTO files VALUES (%s, %s, %s, %s, %s, %s, %s)", files)
        await cursor.executemany(
            "INSERT INTO documents VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            document_rows,
        )
        await cursor.executemany(
            "INSERT INTO chunks VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            chunk_rows,
        )
        await cursor.executemany("INSERT INTO chunk_links VALUES (%s, %s, %s, %s, %s)", link_rows)
        await cursor.executemany("INSERT INTO chunk_terms VALUES (%s, %s, %s)", term_rows)
    lexicon.update(await postgres_lexical.add(connection, postings))
    await postgres_lexical.account(
        connection, lexicon, len(chunk_rows) - old_chunks, length - old_length
    )
    await connection.execute(
        "UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'generation'"
    )
    return WriteResult(chunks_added=len(chunk_rows), chunks_removed=int(old_chunks))


def _chunk_row(
    rows: list[Row],
    postings: list[tuple[int, Counter[str], int]],
    row_id: int,
    document: int,
    ordinal: int,
    record: ChunkRecord,
) -> int:
    """Add one chunk's row and its postings; returns its length in terms."""
    chunk = record.chunk
    text = index_text(chunk)
    counts, size = postgres_lexical.analysed(text)
    postings.append((row_id, counts, size))
    rows.append((*chunk_values(row_id, document, ordinal, chunk, content_hash(text), Jsonb), size))
    return size


async def _ids(connection: Connection, sequence: str, count: int) -> list[int]:
    """`count` fresh numbers from a sequence (never reused, whatever happens after)."""
    if count == 0:
        return []
    cursor = await connection.execute(
        sql.SQL("SELECT nextval({}) FROM generate_series(1, %s)").format(sql.Literal(sequence)),
        (count,),
    )
    return [int(row[0]) for row in await cursor.fetchall()]
