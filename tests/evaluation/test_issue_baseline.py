"""The issue's before and after judge both sides' answers by today's measure."""

from __future__ import annotations

from benchmarks.issue_baseline import rejudged


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
