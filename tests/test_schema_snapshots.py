"""The wire shapes are pinned: a change to the answer or its events shows up as a diff here.

Run with UPDATE_SNAPSHOTS=1 after a deliberate change (and bump `SCHEMA_VERSION` when a field
changes meaning or disappears).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from citesynth import Answer, Passage
from citesynth.answers import SCHEMA_VERSION
from citesynth.events import ANSWER_EVENTS, INDEX_EVENTS

SCHEMAS = Path(__file__).resolve().parents[1] / "docs" / "schemas"

CASES: dict[str, Any] = {
    "answer.schema.json": lambda: Answer.model_json_schema(),
    "answer-events.schema.json": lambda: ANSWER_EVENTS.json_schema(),
    "index-events.schema.json": lambda: INDEX_EVENTS.json_schema(),
    "passage.schema.json": lambda: Passage.model_json_schema(),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_schema_matches_its_snapshot(name: str) -> None:
    current = json.dumps(CASES[name](), indent=2, sort_keys=True) + "\n"
    path = SCHEMAS / name
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        path.write_text(current, encoding="utf-8")
    assert path.exists(), f"no snapshot {path}: run with UPDATE_SNAPSHOTS=1"
    assert current == path.read_text(encoding="utf-8"), (
        f"{name} changed: if on purpose, run with UPDATE_SNAPSHOTS=1 and say so in the commit"
    )


def test_the_schema_version_is_the_documented_one() -> None:
    documented = (SCHEMAS.parent / "answers.md").read_text(encoding="utf-8")
    assert f"## The answer JSON (schema version {SCHEMA_VERSION})" in documented


def test_index_events_round_trip() -> None:
    from citesynth import IndexFinished, IndexReport, Skip

    event = IndexFinished(report=IndexReport(indexed=2, skipped=(Skip("a.bin", "binary file"),)))
    assert INDEX_EVENTS.validate_json(event.model_dump_json()) == event
