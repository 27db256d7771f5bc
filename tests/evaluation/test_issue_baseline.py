"""The issue's before and after compares the same questions (benchmarks/issue_baseline.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmarks.eval_suite import EVAL
from benchmarks.issue_baseline import BASE, COMPARED, base_records

from citesynth.evaluation.datafiles import rows


def _questions(path: Path) -> set[str]:
    return {row["id"] for row in rows(path) if row.get("pipeline", "ours") == "ours"}


@pytest.mark.parametrize("run", COMPARED)
def test_the_base_answered_the_questions_today_s_run_answered(run: str) -> None:
    then, now = base_records(run, BASE), EVAL / run / "records.jsonl"
    if not then.exists() or not now.exists():
        pytest.skip(f"{run}: no stored records to compare (python -m benchmarks.issue_baseline)")
    assert _questions(then) == _questions(now)
    assert all(row["pipeline"] == "ours" for row in rows(then))
