"""Stores found by location: folders, `sqlite:PATH`, and schemes a plugin registers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from citesynth import ConfigError, SQLiteStore
from citesynth.index.store import Store
from citesynth.index.stores import STORES, get_store, open_sqlite, register_store


@pytest.fixture
def opened() -> Iterator[list[str]]:
    """Locations the `test` scheme was asked to open; the scheme is gone afterwards."""
    seen: list[str] = []

    async def factory(rest: str, create: bool) -> Store:
        seen.append(rest)
        return await open_sqlite(rest, create)

    register_store("test", factory, usage="test:PATH")
    yield seen
    STORES.unregister("test")


async def test_a_folder_and_sqlite_scheme_open_the_same_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    store = await get_store(".citesynth")
    assert isinstance(store, SQLiteStore) and store.directory == Path(".citesynth")
    await store.close()
    for location in ("sqlite:.citesynth", f"sqlite:{tmp_path / '.citesynth'}", "SQLite:.citesynth"):
        again = await get_store(location, create=False)
        assert isinstance(again, SQLiteStore)
        await again.close()
    assert (tmp_path / ".citesynth" / "index.sqlite3").is_file()


async def test_an_unregistered_scheme_is_a_folder(tmp_path: Path) -> None:
    store = await get_store(str(tmp_path / "nosuchscheme:index"))
    await store.close()
    assert (tmp_path / "nosuchscheme:index").is_dir()
    with pytest.raises(ConfigError, match="sqlite:PATH"):
        await get_store("sqlite:")


async def test_a_registered_scheme_opens_its_stores(tmp_path: Path, opened: list[str]) -> None:
    store = await get_store(f"test:{tmp_path / 'index'}")
    await store.close()
    assert opened == [str(tmp_path / "index")]
    assert "test:PATH" in STORES.usage()
    with pytest.raises(ConfigError, match="already registered"):
        register_store("test", open_sqlite)
    register_store("test", open_sqlite, replace=True)
    store = await get_store(f"test:{tmp_path / 'index'}")
    await store.close()
    assert len(opened) == 1
