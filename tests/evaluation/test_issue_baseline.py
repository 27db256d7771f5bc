"""The issue's before and after compares the same questions (benchmarks/issue_baseline.py),
judged by today's measure."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmarks.eval_suite import EVAL
from benchmarks.issue_baseline import BASE, COMPARED, base_records, rejudged

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


def test_both_sides_are_judged_by_todays_measure() -> None:
    records = [
        {  # judged wrong when normalisation glued the code to its qualifier
            "id": "t06",
            "answerable": True,
            "abstained": False,
            "fallback": None,
            "correct": False,
            "answer": "Call `structlog.contextvars.clear_contextvars` first [1].",
        },
        {  # an abstention stays wrong, whatever its text
            "id": "t07",
            "answerable": True,
            "abstained": True,
            "fallback": None,
            "correct": False,
            "answer": "Not found in the sources.",
        },
        {"id": "u1", "answerable": False, "abstained": True, "correct": True, "answer": ""},
        {"id": "x", "answerable": True, "abstained": False, "correct": True, "answer": "ok"},
    ]
    gold = {"t06": ["clear_contextvars"], "t07": ["sources"], "u1": []}
    assert [r["correct"] for r in rejudged(records, gold)] == [True, False, True, True]
