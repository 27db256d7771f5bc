"""The reliability benchmark as a CI gate: hostile corpus, kill -9, provider faults,
injection and concurrent uploads must all pass (benchmarks/reliability.py, 3 kill trials)."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from benchmarks.reliability import main, summary


def test_every_reliability_part_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.setenv(name, os.environ.get(name, ""))  # restored after the test
    parts = asyncio.run(main(kills=3))
    passed = summary(parts)
    details = {name: parts[name] for name, ok in passed.items() if not ok}
    assert all(passed.values()), json.dumps(details, indent=2, default=str)[:6000]
