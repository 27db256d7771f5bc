"""An index remembers the embedder it was built with, and searches are made with it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from citesynth import ConfigError, Engine, Settings
from citesynth.cli import main
from citesynth.indexing import EMBEDDER_KEY, EmbedderRecord, recorded_embedder


def settings(tmp_path: Path, embedder: str) -> Settings:
    return Settings(index_dir=tmp_path / "index", embedder=embedder)


async def test_an_empty_index_records_nothing_until_indexed(tmp_path: Path, corpus: Path) -> None:
    async with await Engine.open(settings=settings(tmp_path, "hashing:64")) as engine:
        assert await engine.store.get_meta(EMBEDDER_KEY) is None
        await engine.index([corpus])
        assert await recorded_embedder(engine.store) == EmbedderRecord("hashing-64", 64)


async def test_auto_uses_the_recorded_embedder(tmp_path: Path, corpus: Path) -> None:
    async with await Engine.open(settings=settings(tmp_path, "hashing:64")) as engine:
        await engine.index([corpus])
    async with await Engine.open(settings=settings(tmp_path, "auto"), create=False) as engine:
        assert engine.embedder is not None and engine.embedder.name == "hashing-64"
        hits = await engine.search("read timeout expires", 3)
        assert hits[0].signals.cosine is not None  # dense search ran, as when indexed


async def test_a_bm25_only_index_stays_bm25_only_under_auto(tmp_path: Path, corpus: Path) -> None:
    async with await Engine.open(settings=settings(tmp_path, "none")) as engine:
        await engine.index([corpus])
    async with await Engine.open(settings=settings(tmp_path, "auto")) as engine:
        assert engine.embedder is None
        assert await recorded_embedder(engine.store) == EmbedderRecord("none", 0)


async def test_another_explicit_embedder_is_refused_with_the_fix(
    tmp_path: Path, corpus: Path
) -> None:
    async with await Engine.open(settings=settings(tmp_path, "hashing")) as engine:
        await engine.index([corpus])
    with pytest.raises(ConfigError) as raised:
        await Engine.open(settings=settings(tmp_path, "none"))
    message = str(raised.value)
    assert "'hashing-256'" in message and "'none'" in message
    assert "--embedder hashing:256" in message and "citesynth index PATH --embedder none" in message
    # Re-indexing with it is the way to switch, and then it is what the index records.
    async with await Engine.open(settings=settings(tmp_path, "none"), indexing=True) as engine:
        await engine.index([corpus])
    async with await Engine.open(settings=settings(tmp_path, "none")) as engine:
        assert await recorded_embedder(engine.store) == EmbedderRecord("none", 0)


def test_the_cli_searches_with_the_embedder_the_index_was_built_with(
    tmp_path: Path, corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CITESYNTH_EMBEDDER", raising=False)
    runner = CliRunner()
    assert runner.invoke(main, ["index", str(corpus), "--embedder", "hashing"]).exit_code == 0
    found = runner.invoke(main, ["search", "read timeout expires", "--json"])
    assert found.exit_code == 0 and '"path": "corpus/guide.md"' in found.stdout
    refused = runner.invoke(main, ["search", "read timeout expires", "--no-embed"])
    assert refused.exit_code == 1
    assert "built with the embedder 'hashing-256'" in refused.output
