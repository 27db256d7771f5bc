"""Migrations bring old indexes forward; ids are never reused after deletions."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from citesynth import Engine, SQLiteStore
from citesynth.index.schema import MIGRATIONS, SCHEMA_VERSION
from tests.conftest import write


async def test_a_version_1_index_is_migrated_in_place(tmp_path: Path) -> None:
    index = tmp_path / "index"
    index.mkdir()
    db = sqlite3.connect(index / "index.sqlite3", isolation_level=None)
    db.executescript(f"BEGIN; {MIGRATIONS[0]} PRAGMA user_version = 1; COMMIT;")
    db.execute("INSERT INTO files VALUES ('/a.md', 'a.md', 1, 1, 'h', 's', 0)")
    db.execute(
        "INSERT INTO documents VALUES "
        "(7, '/a.md', 'b2:x', NULL, 'a.md', 'A', 'text', NULL, 'x', '[]')"
    )
    db.execute("INSERT INTO chunks VALUES (41, 'c:1', 7, 0, 0, 1, 1, 1, NULL, '[]', 'x', 'h')")
    db.close()
    store = await SQLiteStore.open(index)
    await store.close()
    db = sqlite3.connect(index / "index.sqlite3")
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    meta = dict(db.execute("SELECT key, value FROM meta"))
    assert (int(meta["next_document"]), int(meta["next_chunk"])) == (8, 42)
    db.close()


async def test_chunk_ids_only_grow(engine: Engine, tmp_path: Path) -> None:
    late = write(tmp_path, "docs/z-last.md", "# Last\n\nThe last file holds the highest ids.")
    write(tmp_path, "docs/a.md", "# First\n\nAn early file.")
    await engine.index([tmp_path / "docs"])
    db = sqlite3.connect(tmp_path / "index" / "index.sqlite3")
    highest = db.execute("SELECT MAX(id) FROM chunks").fetchone()[0]
    late.unlink()
    await engine.index([tmp_path / "docs"])
    write(tmp_path, "docs/b.md", "# Second\n\nA new file after a deletion.")
    await engine.index([tmp_path / "docs"])
    (new_id,) = db.execute(
        "SELECT c.id FROM chunks c JOIN documents d ON d.id = c.document WHERE d.path = 'docs/b.md'"
    ).fetchone()
    db.close()
    assert new_id > highest
