"""Rows of the SQL stores to values and back, written once for SQLite and PostgreSQL.

Both schemas name their columns alike; what differs is how JSON travels (text in SQLite,
`jsonb` in PostgreSQL), so the callers decode or encode it and pass the result in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from citesynth.index.store import ChunkRecord, FileState, FileVersion
from citesynth.types import Anchor, Chunk, ChunkId, Document, DocumentId, DocumentKind

CHUNK_COLUMNS = """c.id, c.chunk_id, d.doc_id, d.path, d.title, c.heading_path, c.text,
    c.char_start, c.char_end, c.start_line, c.end_line, c.page, d.record_id"""
"""What `chunk_from` reads, from `chunks c JOIN documents d` (column 0 is the row id)."""

DOCUMENT_COLUMNS = "d.doc_id, d.path, d.title, d.kind, d.text, d.anchors, d.record_id, d.language"
"""What `document_from` reads, from `documents d`."""

FILE_COLUMNS = "path, display_path, size, mtime_ns, content_hash, signature"
"""A `FileState`, in its field order, from `files`."""


def chunk_from(row: Sequence[Any], heading_path: Iterable[str]) -> Chunk:
    """The chunk in a row of `CHUNK_COLUMNS` (its heading path decoded by the caller)."""
    return Chunk(
        id=ChunkId(row[1]),
        document_id=DocumentId(row[2]),
        path=row[3],
        title=row[4],
        heading_path=tuple(heading_path),
        text=row[6],
        char_start=row[7],
        char_end=row[8],
        start_line=row[9],
        end_line=row[10],
        page=row[11],
        record_id=row[12],
    )


def document_from(row: Sequence[Any], anchors: Iterable[Sequence[Any]]) -> Document:
    """The document in a row of `DOCUMENT_COLUMNS` (its anchors decoded by the caller)."""
    return Document(
        id=DocumentId(row[0]),
        path=row[1],
        title=row[2],
        kind=DocumentKind(row[3]),
        text=row[4],
        anchors=tuple(Anchor(*item) for item in anchors),
        record_id=row[6],
        language=row[7],
    )


def document_values(
    number: int, file_path: str, value: Document, encode: Callable[[object], object]
) -> tuple[Any, ...]:
    """A `documents` row in table order; `encode` turns the anchor list into JSON."""
    return (
        number,
        file_path,
        value.id,
        value.record_id,
        value.path,
        value.title,
        value.kind.value,
        value.language,
        value.text,
        encode([[a.offset, a.line, a.page] for a in value.anchors]),
    )


def chunk_values(
    number: int,
    document_number: int,
    ordinal: int,
    value: Chunk,
    text_hash: str,
    encode: Callable[[object], object],
) -> tuple[Any, ...]:
    """The `chunks` columns both schemas share, in table order (`encode`: to JSON)."""
    return (
        number,
        value.id,
        document_number,
        ordinal,
        value.char_start,
        value.char_end,
        value.start_line,
        value.end_line,
        value.page,
        encode(list(value.heading_path)),
        value.text,
        text_hash,
    )


def assemble_versions(
    paths: Sequence[str],
    states: Mapping[str, FileState],
    documents: Mapping[str, Sequence[tuple[int, Document]]],
    records: Mapping[int, Sequence[ChunkRecord]],
) -> list[FileVersion]:
    """The `FileVersion`s of `paths` that are indexed, in that order.

    `documents` holds each file's `(row id, document)` pairs in order, `records` each
    document row's chunks in order.
    """
    return [
        FileVersion(
            states[path],
            tuple(value for _, value in documents.get(path, ())),
            tuple(tuple(records.get(number, ())) for number, _ in documents.get(path, ())),
        )
        for path in paths
        if path in states
    ]


def spread(low: int | None, high: int | None, count: int) -> list[int]:
    """Up to `count` row ids spread evenly from `low` to `high` (none when either is None)."""
    if low is None or high is None or count <= 0:
        return []
    if high - low + 1 <= count:
        return list(range(low, high + 1))
    step = (high - low) / (count - 1) if count > 1 else 0
    return list(dict.fromkeys(low + round(i * step) for i in range(count)))
