"""Index runs end to end on real files: incremental behaviour, bad input, consistency."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from citesynth import (
    Engine,
    FileIndexed,
    FileSkipped,
    HashingEmbedder,
    IndexFinished,
    IndexPlanned,
    Settings,
    SQLiteStore,
    StoreError,
    StoreLockedError,
)
from citesynth.index.schema import SCHEMA_VERSION
from citesynth.indexing import IngestOptions
from tests.conftest import write


async def test_first_run_indexes_everything(engine: Engine, corpus: Path) -> None:
    report = await engine.index([corpus])
    assert report.indexed == 4 and report.skipped == () and report.removed == 0
    assert report.chunks_added > 4 and report.embedded == report.chunks_added
    stats = await engine.stats()
    assert (stats.files, stats.documents, stats.chunks) == (4, 4, report.chunks_added)
    assert stats.vectors == stats.chunks


async def test_unchanged_tree_does_no_work(engine: Engine, corpus: Path) -> None:
    await engine.index([corpus])
    generation = (await engine.stats()).generation
    report = await engine.index([corpus])
    assert (
        report.indexed,
        report.unchanged,
        report.bytes_read,
        report.chunks_added,
        report.embedded,
    ) == (0, 4, 0, 0, 0)
    assert (await engine.stats()).generation == generation


async def test_touched_file_is_read_but_not_rechunked(engine: Engine, corpus: Path) -> None:
    await engine.index([corpus])
    generation = (await engine.stats()).generation
    target = corpus / "notes.txt"
    os.utime(target, ns=(target.stat().st_atime_ns, target.stat().st_mtime_ns + 10**9))
    report = await engine.index([corpus])
    assert (report.indexed, report.unchanged, report.chunks_added) == (0, 4, 0)
    assert report.bytes_read == target.stat().st_size
    assert (await engine.stats()).generation == generation
    assert (await engine.index([corpus])).bytes_read == 0  # the new mtime was recorded


async def test_changed_file_is_replaced_and_deleted_file_removed(
    engine: Engine, corpus: Path
) -> None:
    await engine.index([corpus])
    write(corpus, "notes.txt", "Retries now use jittered backoff with a cap of thirty seconds.\n")
    (corpus / "page.html").unlink()
    report = await engine.index([corpus])
    assert (report.indexed, report.removed) == (1, 1)
    hits = await engine.search("jittered backoff", k=3)
    assert hits[0].chunk.path == "corpus/notes.txt"
    old_text = [h.chunk.text for h in await engine.search("exponential backoff five retries", k=20)]
    assert not [text for text in old_text if "exponential" in text and "Retries use" in text]
    paths = {h.chunk.path for h in await engine.search("connection pool idle", k=20)}
    assert "corpus/page.html" not in paths


async def test_removal_is_scoped_to_the_walked_paths(engine: Engine, tmp_path: Path) -> None:
    one = write(tmp_path, "one/a.md", "# A\n\nAlpha text.")
    write(tmp_path, "two/b.md", "# B\n\nBeta text.")
    await engine.index([one.parent, tmp_path / "two"])
    report = await engine.index([tmp_path / "two"])  # indexing only "two" must not drop "one"
    assert report.removed == 0
    assert (await engine.stats()).files == 2


async def test_rename_reuses_embeddings(engine: Engine, corpus: Path) -> None:
    await engine.index([corpus])
    (corpus / "guide.md").rename(corpus / "guide-renamed.md")
    report = await engine.index([corpus])
    assert (report.indexed, report.removed) == (1, 1)
    assert report.embedded == 0  # same chunk texts: vectors come from the cache
    assert (await engine.search("read timeout expires", k=1))[
        0
    ].chunk.path == "corpus/guide-renamed.md"


async def test_bad_files_are_skipped_and_previous_versions_dropped(
    engine: Engine, corpus: Path
) -> None:
    write(corpus, "report.pdf", b"%PDF-1.4 not really")
    write(corpus, "blob.txt", b"\x00\x01\x02binary")
    write(corpus, "latin.txt", "Caf\xe9 au lait.".encode("latin-1"))
    events = [event async for event in engine.index_events([corpus])]
    assert isinstance(events[0], IndexPlanned) and isinstance(events[-1], IndexFinished)
    skipped = {e.path: e.reason for e in events if isinstance(e, FileSkipped)}
    assert skipped == {
        "corpus/report.pdf": "corrupt PDF (data format error)",
        "corpus/blob.txt": "binary file (not text)",
    }
    latin = next(e for e in events if isinstance(e, FileIndexed) and e.path.endswith("latin.txt"))
    assert latin.notes == ("not valid UTF-8; decoded as cp1252",)
    report = events[-1].report
    assert report.indexed == 5 and len(report.skipped) == 2
    # A file that later becomes unreadable leaves the index too.
    write(corpus, "notes.txt", b"\x00\x00binary now")
    report = await engine.index([corpus])
    assert "corpus/notes.txt" in {s.path for s in report.skipped}
    assert (await engine.stats()).files == 4


async def test_interrupted_embedding_is_resumed(tmp_path: Path, corpus: Path) -> None:
    store = await SQLiteStore.open(tmp_path / "index")
    lexical_only = Engine(store=store, embedder=None, root=tmp_path)
    await lexical_only.index([corpus])
    assert (await store.stats("hashing-256")).vectors == 0
    hybrid = Engine(store=store, embedder=HashingEmbedder(), root=tmp_path)
    report = await hybrid.index([corpus])
    assert report.indexed == 0 and report.embedded > 0
    stats = await hybrid.stats()
    assert stats.vectors == stats.chunks
    await store.close()


async def test_changing_chunk_size_rechunks(tmp_path: Path, corpus: Path) -> None:
    store = await SQLiteStore.open(tmp_path / "index")
    small = Engine(store=store, embedder=None, root=tmp_path, ingest=IngestOptions(chunk_tokens=40))
    first = await small.index([corpus])
    large = Engine(
        store=store, embedder=None, root=tmp_path, ingest=IngestOptions(chunk_tokens=400)
    )
    second = await large.index([corpus])
    assert second.indexed == 4 and second.chunks_added < first.chunks_added
    await store.close()


async def test_lexical_index_is_rebuilt_when_lost(settings: Settings, corpus: Path) -> None:
    async with await Engine.open(settings=settings) as engine:
        await engine.index([corpus])
    shutil.rmtree(settings.index_dir / "lexical")
    async with await Engine.open(settings=settings) as engine:
        hits = await engine.search("ReadTimeout error is raised", k=1)
        assert hits and hits[0].chunk.path == "corpus/guide.md"


async def test_second_writer_is_refused_with_a_clear_message(
    settings: Settings, corpus: Path
) -> None:
    first = await Engine.open(settings=settings)
    second = await Engine.open(settings=settings)
    try:
        async with first.store.writing():
            with pytest.raises(StoreLockedError, match="another citesynth process is writing"):
                await second.index([corpus])
        assert (await second.index([corpus])).indexed == 4
    finally:
        await first.close()
        await second.close()


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    index = tmp_path / "index"
    await (await SQLiteStore.open(index)).close()
    db = sqlite3.connect(index / "index.sqlite3")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer than this citesynth supports"):
        await SQLiteStore.open(index)


async def test_corrupt_database_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "index/index.sqlite3", b"this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot open the index"):
        await SQLiteStore.open(tmp_path / "index")
