"""The index run: discover files, read what changed, chunk, find references, write, embed.

Incremental by construction: a file whose size and mtime match the index is not read; a
file whose bytes hash the same is not re-chunked; chunk texts already embedded (by text
hash) are not embedded again. Files that vanished from a walked folder are removed, and so
are files that can no longer be read, so the index mirrors what is on disk. Vectors are
written after chunks: an interrupted run leaves chunks without vectors, which the next run
embeds. Each chunk's cross-references and defined terms are found here and written with it;
the store only keeps them.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from citesynth.embed.base import Embedder
from citesynth.errors import LoadError
from citesynth.events import (
    EmbeddingProgress,
    FileIndexed,
    FileRemoved,
    FileSkipped,
    FileUnchanged,
    IndexEvent,
    IndexFinished,
    IndexPlanned,
)
from citesynth.index.store import ChunkRecord, FileState, FileVersion, Store
from citesynth.ingest.chunking import CHUNKER_VERSION, split
from citesynth.ingest.files import Candidate, discover, in_scope
from citesynth.ingest.loaders import load_text, loader_for
from citesynth.ingest.references import definitions, references
from citesynth.ingest.text import content_hash
from citesynth.types import Chunk, IndexReport, Skip

_BATCH_BYTES = 8 * 2**20
_BATCH_FILES = 256
_EMBED_PAGE = 512


@dataclass(frozen=True, slots=True)
class IngestOptions:
    """How files become chunks; changing any of these re-chunks every file."""

    chunk_tokens: int = 200
    overlap_tokens: int = 30
    max_file_bytes: int = 64 * 2**20
    exclude: tuple[str, ...] = ()

    @property
    def signature(self) -> str:
        """Identifies the chunking that produced an index's chunks."""
        return f"chunker-{CHUNKER_VERSION}:{self.chunk_tokens}:{self.overlap_tokens}"


EMBEDDER_KEY = "embedder"
"""The store meta key under which an index run records its embedder."""


@dataclass(frozen=True, slots=True)
class EmbedderRecord:
    """The embedder an index was built with: its name (`none`: BM25 only) and dimension."""

    name: str
    dimension: int

    @classmethod
    def of(cls, embedder: Embedder | None) -> EmbedderRecord:
        """The record of `embedder` (None: BM25 only)."""
        return cls("none", 0) if embedder is None else cls(embedder.name, embedder.dimension)


async def recorded_embedder(store: Store) -> EmbedderRecord | None:
    """The embedder `store` was last indexed with; None before the first index run."""
    raw = await store.get_meta(EMBEDDER_KEY)
    if raw is None:
        return None
    value = json.loads(raw)
    return EmbedderRecord(str(value["name"]), int(value["dimension"]))


async def record_embedder(store: Store, record: EmbedderRecord) -> None:
    """Record in `store` the embedder its vectors come from (what `recorded_embedder` reads)."""
    await store.set_meta(
        EMBEDDER_KEY, json.dumps({"name": record.name, "dimension": record.dimension})
    )


@dataclass(frozen=True, slots=True)
class _Outcome:
    version: FileVersion | None = None
    unchanged: FileState | None = None
    skip: str | None = None
    notes: tuple[str, ...] = ()


def _prepare(candidate: Candidate, known: FileState | None, options: IngestOptions) -> _Outcome:
    """Read, hash, load and chunk one file (runs in a worker thread)."""
    try:
        with open(candidate.os_path, "rb") as handle:
            data = handle.read(options.max_file_bytes + 1)
    except OSError as error:
        return _Outcome(skip=f"cannot read ({error.strerror or error})")
    if len(data) > options.max_file_bytes:
        return _Outcome(skip="grew past the size cap while being read")
    digest = content_hash(data)
    state = FileState(
        candidate.path, candidate.display, len(data), candidate.mtime_ns, digest, options.signature
    )
    if known is not None and known.content_hash == digest and known.signature == options.signature:
        return _Outcome(unchanged=state)
    loader = loader_for(candidate.path) or (load_text if candidate.explicit else None)
    if loader is None:
        return _Outcome(skip="unsupported file type")
    try:
        loaded = loader(candidate.display, data)
        chunks = tuple(
            tuple(
                record(chunk)
                for chunk in split(
                    item, target_tokens=options.chunk_tokens, overlap_tokens=options.overlap_tokens
                )
            )
            for item in loaded.parsed
        )
    except LoadError as error:
        return _Outcome(skip=error.reason)
    except (ValueError, RecursionError, MemoryError, UnicodeError) as error:
        return _Outcome(skip=f"could not parse ({type(error).__name__}: {error})")
    except Exception as error:  # one odd file must not end a long run
        cause = f"{type(error).__name__}: {error}"
        return _Outcome(skip=f"unexpected error while parsing ({cause}); please report it")
    documents = tuple(item.document for item in loaded.parsed)
    return _Outcome(version=FileVersion(state, documents, chunks), notes=loaded.notes)


def record(chunk: Chunk) -> ChunkRecord:
    """A chunk with the cross-references and defined terms found in its text."""
    return ChunkRecord(
        chunk,
        references=tuple(references(chunk.text, chunk.path)),
        terms=tuple(definitions(chunk.text)),
    )


async def run_index(
    paths: Sequence[str | Path],
    *,
    store: Store,
    root: str | Path,
    embedder: Embedder | None,
    options: IngestOptions = IngestOptions(),
) -> AsyncIterator[IndexEvent]:
    """Index `paths` into `store`, yielding progress events; the last is `IndexFinished`."""
    started = time.perf_counter()
    found = await asyncio.to_thread(
        discover, paths, root=root, max_bytes=options.max_file_bytes, exclude=options.exclude
    )
    known = await store.file_states()
    seen = {candidate.path for candidate in found.files}
    gone = sorted(p for p in known if in_scope(p, found.scopes) and p not in seen)
    todo = [c for c in found.files if not _up_to_date(c, known.get(c.path), options)]
    yield IndexPlanned(
        to_read=len(todo),
        bytes_to_read=sum(c.size for c in todo),
        up_to_date=len(found.files) - len(todo),
        to_remove=len(gone),
    )

    report = IndexReport(unchanged=len(found.files) - len(todo))
    skipped = list(found.skipped)
    for skip in found.skipped:
        yield FileSkipped(path=skip.path, reason=skip.reason)
    batch: list[FileVersion] = []
    touched: list[FileState] = []
    removals = list(gone)
    batch_bytes = 0
    for candidate in todo:
        outcome = await asyncio.to_thread(_prepare, candidate, known.get(candidate.path), options)
        report = replace(report, bytes_read=report.bytes_read + candidate.size)
        if outcome.skip is not None:
            skipped.append(Skip(candidate.display, outcome.skip))
            if candidate.path in known:
                removals.append(candidate.path)
            yield FileSkipped(path=candidate.display, reason=outcome.skip, bytes=candidate.size)
        elif outcome.unchanged is not None:
            touched.append(outcome.unchanged)
            report = replace(report, unchanged=report.unchanged + 1)
            yield FileUnchanged(path=candidate.display, bytes=candidate.size)
        elif outcome.version is not None:
            batch.append(outcome.version)
            batch_bytes += candidate.size
            chunk_count = sum(len(chunks) for chunks in outcome.version.chunks)
            report = replace(report, indexed=report.indexed + 1)
            yield FileIndexed(
                path=candidate.display,
                bytes=candidate.size,
                chunks=chunk_count,
                notes=outcome.notes,
            )
        if batch_bytes >= _BATCH_BYTES or len(batch) >= _BATCH_FILES:
            report = await _flush(store, batch, [], report)
            batch, batch_bytes = [], 0
    report = await _flush(store, batch, removals, report)
    for path in gone:
        yield FileRemoved(path=known[path].display)
    if touched:
        await store.touch(touched)
    report = replace(report, removed=len(gone), skipped=tuple(skipped))

    # Recorded before embedding: an interrupted run is finished by the next one, which opens
    # the index with this embedder and embeds what is still missing.
    await record_embedder(store, EmbedderRecord.of(embedder))
    if embedder is not None:
        async for event in embed_pending(store, embedder):
            report = replace(report, embedded=event.done)
            yield event
    await store.prune_vectors()
    yield IndexFinished(report=replace(report, seconds=time.perf_counter() - started))


def _up_to_date(candidate: Candidate, known: FileState | None, options: IngestOptions) -> bool:
    return (
        known is not None
        and known.size == candidate.size
        and known.mtime_ns == candidate.mtime_ns
        and known.signature == options.signature
        and known.display == candidate.display
    )


async def _flush(
    store: Store, batch: list[FileVersion], removed: list[str], report: IndexReport
) -> IndexReport:
    if not batch and not removed:
        return report
    result = await store.write(batch, removed)
    return replace(
        report,
        chunks_added=report.chunks_added + result.chunks_added,
        chunks_removed=report.chunks_removed + result.chunks_removed,
    )


async def embed_pending(store: Store, embedder: Embedder) -> AsyncIterator[EmbeddingProgress]:
    """Embed every chunk text that has no vector for `embedder` yet, in length-sorted pages."""
    total = await store.count_pending(embedder.name)
    if total == 0:
        return
    done = 0
    yield EmbeddingProgress(done=0, total=total)
    async for page in store.pending_texts(embedder.name, _EMBED_PAGE):
        page = sorted(page, key=lambda item: len(item.text))
        for start in range(0, len(page), 64):
            group = page[start : start + 64]
            vectors = await embedder.embed([item.text for item in group], "document")
            await store.put_vectors(embedder.name, [item.text_hash for item in group], vectors)
            done += len(group)
            yield EmbeddingProgress(done=min(done, total), total=total)
