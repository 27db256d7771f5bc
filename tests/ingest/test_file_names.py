"""File names that are not valid UTF-8 never stop an index run and stay stable across runs."""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citesynth import Engine, SQLiteStore
from citesynth.indexing import IngestOptions


def make_file(folder: Path, name: bytes, content: bytes) -> None:
    """A file whose name is these exact bytes (Path cannot spell undecodable names)."""
    descriptor = os.open(os.fsencode(folder) + b"/" + name, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        os.write(descriptor, content)
    finally:
        os.close(descriptor)


async def index_twice(folder: Path, index: Path) -> tuple[list[str], int, int, list[str]]:
    """Index `folder` twice; the displayed paths, second-run work, unchanged, and skips."""
    store = await SQLiteStore.open(index)
    engine = Engine(store=store, embedder=None, root=folder, ingest=IngestOptions())
    try:
        await engine.index([folder])
        again = await engine.index([folder])
        shown = sorted(file.display_path for file in await engine.files())
        skipped = [skip.path for skip in again.skipped]
        return shown, again.indexed + again.removed, again.unchanged, skipped
    finally:
        await engine.close()


def test_undecodable_name_is_indexed_under_its_escaped_form(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    make_file(docs, b"bad_\xff.md", b"# Walruses\n\nWalruses live in the Arctic.\n")
    make_file(docs, b"good.md", b"# Otters\n\nOtters hold hands while sleeping.\n")
    shown, work, unchanged, skipped = asyncio.run(index_twice(docs, tmp_path / "index"))
    assert shown == ["bad_\\xff.md", "good.md"]
    assert (work, unchanged, skipped) == (0, 2, [])


names = st.binary(min_size=1, max_size=40).filter(
    lambda name: b"/" not in name and b"\x00" not in name and not name.startswith(b".")
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(names, min_size=1, max_size=4, unique=True))
def test_any_byte_name_never_stops_a_run(names: list[bytes]) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary) / "docs"
        folder.mkdir()
        make_file(folder, b"good.md", b"Plain words in a good file.\n")
        for number, name in enumerate(names):
            make_file(folder, name + b".md", f"Note number {number} about seals.\n".encode())
        listed = {os.fsencode(entry) for entry in os.listdir(folder)}
        shown, work, unchanged, skipped = asyncio.run(index_twice(folder, Path(temporary) / "i"))
        # Every file is indexed once, under valid Unicode, and a re-run does nothing.
        assert len(shown) == len(listed) == unchanged
        assert all(path.encode("utf-8") for path in shown)
        assert "good.md" in shown
        assert (work, skipped) == (0, [])
