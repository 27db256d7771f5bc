"""The benchmarks' JSON cache and weights-meta update (benchmarks/common.py)."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.common import cached_json, cached_json_async, set_fields


def test_a_cached_value_is_computed_once_then_read(tmp_path: Path) -> None:
    calls: list[int] = []

    def compute() -> list[float]:
        calls.append(1)
        return [0.5, 0.25]

    path = tmp_path / "deep" / "scores.json"
    assert cached_json(path, compute) == [0.5, 0.25]
    assert cached_json(path, compute) == [0.5, 0.25] and len(calls) == 1
    path.unlink()  # deleting the file recomputes
    assert cached_json(path, compute) == [0.5, 0.25] and len(calls) == 2
    assert [p.name for p in path.parent.iterdir()] == ["scores.json"]  # no partial file left
    nothing = tmp_path / "none.json"
    assert cached_json(nothing, lambda: None) is None
    assert cached_json(nothing, compute) is None  # a cached None is read back, not recomputed


async def test_an_awaited_value_is_cached_alike(tmp_path: Path) -> None:
    calls: list[int] = []

    async def compute() -> dict[str, int]:
        calls.append(1)
        return {"pairs": 3}

    path = tmp_path / "pairs.json"
    assert await cached_json_async(path, compute) == {"pairs": 3}
    assert await cached_json_async(path, compute) == {"pairs": 3} and len(calls) == 1


def test_set_fields_keeps_the_rest_of_the_meta(tmp_path: Path) -> None:
    meta = tmp_path / "crossencoder.json"
    meta.write_text(json.dumps({"threshold": 0.46, "answerable": 0.24}))
    set_fields(meta, answerable_pair=0.47, answerable=0.25)
    assert json.loads(meta.read_text()) == {
        "threshold": 0.46,
        "answerable": 0.25,
        "answerable_pair": 0.47,
    }
    assert meta.read_text().endswith("}\n")
