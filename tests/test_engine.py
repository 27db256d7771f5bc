"""The engine is the one seam interfaces use: variants, sources, stores by location."""

from __future__ import annotations

from pathlib import Path

import pytest

from citesynth import (
    ConfigError,
    Engine,
    IndexNotFoundError,
    Settings,
    Store,
    get_store,
    register_store,
)
from citesynth.index.stores import STORES
from citesynth.llm.fake import ScriptedModel
from citesynth.synthesis import LLMWriter


async def test_with_model_shares_the_index_and_is_kept(engine: Engine, corpus: Path) -> None:
    await engine.index([corpus])
    fake = engine.with_model("fake")
    assert fake is engine.with_model("fake")  # made once, reused
    assert fake.writer.name == "fake" and fake.store is engine.store
    assert fake.verifier is engine.verifier and fake.cache.store is engine.store
    assert engine.writer.name == "extractive"  # the original is untouched
    assert engine.with_model("extractive") is engine
    await fake.close()  # a variant leaves the shared index open
    assert (await engine.stats()).chunks > 0
    answer = await fake.answer("What does the read timeout limit?", not_found_below=0.0)
    assert answer.model == "fake" and answer.citations


async def test_without_dense_searches_with_bm25_alone(engine: Engine, corpus: Path) -> None:
    await engine.index([corpus])
    lexical = engine.without_dense()
    assert lexical.embedder is None and engine.embedder is not None
    hits = await lexical.search("read timeout", k=3)
    assert hits and all(hit.signals.dense_rank is None for hit in hits)


async def test_with_writer_and_source(engine: Engine, corpus: Path) -> None:
    await engine.index([corpus])
    model = ScriptedModel(["The connect timeout defaults to five seconds [1]."])
    scripted = engine.with_writer(LLMWriter(model, engine.prompts, timeout=5.0))
    answer = await scripted.answer("connect timeout default", not_found_below=0.0)
    found = await engine.source(answer.citations[0].chunk_id)
    assert found is not None
    chunk, document = found
    assert document.text[chunk.char_start : chunk.char_end] == chunk.text
    assert await engine.source("c:nope") is None


def test_indexable_names() -> None:
    assert Engine.indexable("notes.md") and Engine.indexable("a.pdf")
    assert not Engine.indexable("image.png")


async def test_reading_an_index_that_does_not_exist_says_how_to_make_one(tmp_path: Path) -> None:
    settings = Settings(index_dir=tmp_path / "missing", embedder="none", model="extractive")
    with pytest.raises(IndexNotFoundError, match="citesynth index PATH"):
        await Engine.open(settings=settings, create=False)
    assert not (tmp_path / "missing").exists()  # nothing created


async def test_the_store_setting_names_where_the_index_lives(tmp_path: Path, corpus: Path) -> None:
    location = tmp_path / "elsewhere"
    settings = Settings(
        index_dir=tmp_path / "ignored", store=f"sqlite:{location}", embedder="none", model="fake"
    )
    async with await Engine.open(settings=settings) as engine:
        report = await engine.index([corpus])
        assert report.indexed == 4
    assert (location / "index.sqlite3").is_file() and not (tmp_path / "ignored").exists()
    async with await Engine.open(settings=settings, create=False) as engine:
        assert (await engine.stats()).files == 4


def test_the_store_setting_comes_from_the_environment(tmp_path: Path) -> None:
    settings = Settings.from_env({"CITESYNTH_STORE": f"sqlite:{tmp_path}/x"})
    assert settings.store_location == f"sqlite:{tmp_path}/x"
    assert Settings(index_dir=tmp_path / "i").store_location == str(tmp_path / "i")
    assert settings.root_dir == tmp_path.resolve()  # sqlite:PATH shows paths below PATH's parent
    assert Settings(store="sqlite:rel/idx").root_dir == (Path.cwd() / "rel").resolve()


def test_a_server_store_shows_paths_below_the_current_folder() -> None:
    async def never(rest: str, create: bool) -> Store:
        raise AssertionError("not opened")

    assert Settings(store="postgresql://db/x").root_dir == Path.cwd().resolve()
    register_store("mysql", never)
    try:
        assert Settings(store="mysql://db/x").root_dir == Path.cwd().resolve()
    finally:
        STORES.unregister("mysql")


async def test_a_url_no_store_knows_is_refused_not_made_a_folder(tmp_path: Path) -> None:
    settings = Settings(store="mysql://db/x", embedder="none", model="extractive")
    with pytest.raises(ConfigError, match=r"unknown store 'mysql://db/x'.*sqlite:PATH"):
        await Engine.open(settings=settings)
    with pytest.raises(ConfigError, match="unknown store"):
        await get_store("mystery://host/db")
