"""Copy one store into another (`citesynth migrate --from .citesynth --to postgresql://…`).

Files go over in batches, each batch one `write` (so the target is consistent after every
step), and only files whose content the target does not hold yet: a copy that stops half
way is resumed by running it again. Files the target holds but the source does not are
removed. Vectors follow for the embedder the source records: exactly the text hashes the
target still lacks, taken from the source, never recomputed. The copy ends by comparing
the counts of both stores and fails loudly when they differ.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, replace

import numpy as np

from citesynth.errors import StoreError
from citesynth.index.store import FileVersion, Store
from citesynth.index.stores import get_store, shown_location
from citesynth.indexing import record_embedder, recorded_embedder
from citesynth.types import IndexStats

_BATCH_CHUNKS = 2_000
_VECTOR_PAGE = 1_000


@dataclass(frozen=True, slots=True)
class CopyProgress:
    """How far a copy is: `stage` is "files" or "vectors", `done` out of `total`."""

    stage: str
    done: int
    total: int


@dataclass(frozen=True, slots=True)
class CopyFinished:
    """A finished, verified copy: what was copied now and what both stores hold."""

    files_copied: int
    files_removed: int
    files_up_to_date: int
    vectors_copied: int
    model: str | None
    source: IndexStats
    target: IndexStats
    location: str = ""
    """The target's location as messages show it (no password)."""


async def copy_store(source: Store, target: Store) -> AsyncIterator[CopyProgress | CopyFinished]:
    """Make `target` hold what `source` holds; yields progress, then `CopyFinished`.

    Raises:
        StoreError: the target was built with another embedder, another process is
            writing to it (`StoreLockedError`), or the counts differ after the copy.
    """
    built = await recorded_embedder(source)
    there = await recorded_embedder(target)
    if built is not None and there is not None and there != built and there.name != "none":
        raise StoreError(
            f"the target was indexed with the embedder {there.name!r} ({there.dimension} "
            f"dimensions) and the source with {built.name!r} ({built.dimension}); "
            "copy into an empty store"
        )
    # Held for the whole copy: the SQLite store admits one writer at a time (a running
    # `citesynth index` on the target is refused with its message, not raced).
    async with target.writing():
        wanted = await source.file_states()
        held = await target.file_states()
        todo = sorted(path for path, state in wanted.items() if held.get(path) != state)
        extra = sorted(path for path in held if path not in wanted)
        yield CopyProgress("files", 0, len(todo))
        done = 0
        batch: list[FileVersion] = []
        size = 0
        for start in range(0, len(todo), 200):
            for version in await source.file_versions(todo[start : start + 200]):
                batch.append(version)
                size += sum(len(chunks) for chunks in version.chunks) + 1
                if size >= _BATCH_CHUNKS:
                    await target.write(batch, [])
                    done += len(batch)
                    yield CopyProgress("files", done, len(todo))
                    batch, size = [], 0
        if batch or extra:
            await target.write(batch, extra)
            done += len(batch)
        yield CopyProgress("files", done, len(todo))

        copied = 0
        model = None
        if built is not None:
            await record_embedder(target, built)
        if built is not None and built.name != "none":
            model = built.name
            total = await target.count_pending(model)
            yield CopyProgress("vectors", 0, total)
            async for page in target.pending_texts(model, _VECTOR_PAGE):
                hashes = [item.text_hash for item in page]
                found = await source.vectors(model, hashes)
                if found:
                    keys = list(found)
                    await target.put_vectors(model, keys, np.stack([found[key] for key in keys]))
                    copied += len(keys)
                yield CopyProgress("vectors", min(copied, total), total)
            await target.prune_vectors()
    finished = CopyFinished(
        files_copied=done,
        files_removed=len(extra),
        files_up_to_date=len(wanted) - len(todo),
        vectors_copied=copied,
        model=model,
        source=await source.stats(model),
        target=await target.stats(model),
    )
    _verify(finished)
    yield finished


def _verify(finished: CopyFinished) -> None:
    """Raise when the two stores do not hold the same numbers of things."""
    counted = ("files", "documents", "chunks", "vectors")
    differ = [
        f"{name} {getattr(finished.source, name)} → {getattr(finished.target, name)}"
        for name in counted
        if getattr(finished.source, name) != getattr(finished.target, name)
    ]
    if differ:
        raise StoreError(
            "the copy does not match its source (" + "; ".join(differ) + "); run it again to "
            "resume, and check that nothing else writes to either store meanwhile"
        )


async def migrate(source: str, target: str) -> AsyncIterator[CopyProgress | CopyFinished]:
    """Copy the index at location `source` (it must exist) into `target` (made if needed).

    Locations are what `get_store` reads: a folder, `sqlite:PATH`, `postgresql://...`.
    """
    if source.strip() == target.strip():
        raise StoreError(f"--from and --to name the same index ({source})")
    origin = await get_store(source, create=False)
    try:
        destination = await get_store(target)
        try:
            async for event in copy_store(origin, destination):
                if isinstance(event, CopyFinished):
                    event = replace(event, location=shown_location(target))
                yield event
        finally:
            await destination.close()
    finally:
        await origin.close()
