"""Two replayed runs compared: the summaries per run and the questions that changed."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.replay_compare import compare


def _run(folder: Path, rows: list[dict[str, object]]) -> None:
    folder.mkdir(parents=True)
    lines = [json.dumps({"pipeline": "ours", **row}) for row in rows]
    lines.append(json.dumps({"pipeline": "naive", "id": "q1", "answer": "other", "correct": 0}))
    (folder / "records.jsonl").write_text("\n".join(lines) + "\n")


def test_runs_in_both_folders_are_summarised_and_their_changed_questions_listed(
    tmp_path: Path,
) -> None:
    answered = {"id": "q1", "question": "What is the default?", "answerable": True}
    invented = {"id": "q2", "question": "Can it fly?", "answerable": False}
    _run(
        tmp_path / "before" / "docs-local",
        [
            {**answered, "answer": "It is 5 [1].", "correct": True, "claims": 1, "removed": []},
            {**invented, "answer": "Not found in the sources.", "correct": True, "claims": 0},
        ],
    )
    _run(
        tmp_path / "after" / "docs-local",
        [
            {**answered, "answer": "It is 5 [1].", "correct": True, "claims": 1, "removed": []},
            {**invented, "answer": "It flies [2].", "correct": False, "claims": 1},
        ],
    )
    _run(tmp_path / "before" / "only-before", [{**answered, "answer": "x", "correct": True}])
    found = compare(tmp_path / "before", tmp_path / "after")
    assert list(found) == ["docs-local"]  # a run missing from one side is not compared
    run = found["docs-local"]
    assert run["before"] == {
        "questions": 2,
        "correct": 2,
        "answerable_right": 1,
        "unanswerable_not_found": 1,
        "claims_kept": 1,
        "claims_removed": 0,
    }
    assert (run["after"]["correct"], run["after"]["unanswerable_not_found"]) == (1, 0)
    assert [(q["id"], q["correct"], q["after"]) for q in run["changed"]] == [
        ("q2", [True, False], "It flies [2].")
    ]
