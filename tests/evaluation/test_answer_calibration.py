"""The answer confidence is fitted on the tuning runs' records (benchmarks/calibrate_answers.py)."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.calibrate_answers import Row, calibrate, main, rescored, rows

from citesynth.synthesis.finishing import disagreement_cap
from citesynth.verify.confidence import SIGNALS, Signals, confidence, question_coverage

QUIET = {
    "cited": 1.0,
    "support": 1.0,
    "documents": 0.5,
    "conflict": 0.0,
    "invalid": 0.0,
    "coverage": 1.0,
}


def record(retrieval: float, correct: bool, **extra: object) -> dict[str, object]:
    signals = {"retrieval": retrieval, **QUIET}
    return {
        "pipeline": "ours",
        "abstained": False,
        "fallback": None,
        "correct": correct,
        "confidence": confidence(Signals(**signals)),
        "signals": signals,
    } | extra


def run(root: Path, name: str, records: list[dict[str, object]]) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "records.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n")
    return folder


def strong_retrieval_is_right(n: int) -> list[dict[str, object]]:
    return [record(float(i % 2), correct=i % 2 == 1) for i in range(n)]


def test_only_written_answers_of_our_pipeline_with_signals_are_rows(tmp_path: Path) -> None:
    kept = record(0.5, True)
    folder = run(
        tmp_path,
        "tune-a",
        [
            kept,
            record(0.5, True, pipeline="naive"),
            record(0.5, False, abstained=True),
            record(0.5, False, fallback={"reason": "timeout"}),
            record(0.5, True) | {"correct": None},
            record(0.5, True, signals={}),  # written before records kept signals
        ],
    )
    assert rows(folder) == [Row(kept["signals"], kept["confidence"], True)]  # type: ignore[arg-type]


def test_a_record_written_before_coverage_gets_it_from_its_question_and_answer(
    tmp_path: Path,
) -> None:
    older = record(0.5, True) | {
        "question": "What is the default pool size?",
        "answer": "The pool holds 10 connections [1].",
    }
    older["signals"] = {k: v for k, v in older["signals"].items() if k != "coverage"}  # type: ignore[attr-defined]
    folder = run(tmp_path, "tune-a", [older])
    (row,) = rows(folder)
    assert row.signals["coverage"] == question_coverage(
        "What is the default pool size?", "The pool holds 10 connections [1]."
    )
    assert 0.0 < row.signals["coverage"] < 1.0  # "pool", not "default" nor "size"


def test_a_signal_fitted_against_its_sign_is_fixed_at_zero() -> None:
    # More support going with wrong answers must not lower a confidence: support gets 0.
    answers = [
        Row({**dict.fromkeys(SIGNALS, 0.0), "retrieval": r, "support": s}, 0.5, correct)
        for r, s, correct in [(0.9, 0.1, True), (0.8, 0.2, True), (0.2, 0.9, False)] * 20
    ]
    weights = calibrate({"tune-a": answers})
    assert weights["support"] == 0.0 and weights["retrieval"] > 0


def test_each_run_weighs_the_same_whatever_its_size() -> None:
    signals = dict.fromkeys(SIGNALS, 0.0)
    big = [Row(signals, 0.5, True)] * 300
    small = [Row(signals, 0.5, False)] * 30
    weights = calibrate({"tune-big": big, "tune-small": small})
    assert abs(weights["bias"]) < 0.05  # half right, half wrong: a confidence near 0.5


def test_a_confidence_capped_for_a_disagreement_stays_capped() -> None:
    signals = {"retrieval": 0.9, **QUIET}
    weights = {"bias": 1.0, **dict.fromkeys(SIGNALS, 1.0)}
    capped = Row(signals, disagreement_cap(0.5), True)
    plain = Row(signals, 0.7, True)
    assert rescored(capped, weights) == disagreement_cap(0.5) == 0.4
    assert rescored(plain, weights) == confidence(Signals(**signals), weights) > 0.9


def test_the_weights_are_fitted_on_tuning_runs_and_reported_on_every_run(tmp_path: Path) -> None:
    run(tmp_path, "tune-a", strong_retrieval_is_right(200))
    run(tmp_path, "held-out", [record(0.9, False) for _ in range(10)])
    target = tmp_path / "confidence.json"
    report = main(check=False, folder=tmp_path, target=target)
    shipped = json.loads(target.read_text())
    assert shipped["weights"]["retrieval"] > 0 and "tune-a (200 answers)" in shipped["fitted_on"]
    assert set(report["runs"]) == {"tune-a", "held-out"} and "held-out" not in report["fitted_on"]
    tuned = report["runs"]["tune-a"]
    assert tuned["after"]["auc"] == 1.0 and tuned["reproduced"] == 200
    assert tuned["after"]["ece"] < 0.1 < tuned["before"]["ece"]
    checked = main(check=True, folder=tmp_path, target=tmp_path / "untouched.json")
    assert not (tmp_path / "untouched.json").exists()
    assert checked["weights_after"] == checked["weights_before"]


def test_the_held_out_runs_are_also_reported_pooled_all_and_by_writer(tmp_path: Path) -> None:
    run(tmp_path, "tune-a", strong_retrieval_is_right(200))
    run(tmp_path, "docs-extractive", [record(0.9, True) for _ in range(6)])
    run(tmp_path, "docs-local", [record(0.1, False) for _ in range(4)])
    report = main(check=True, folder=tmp_path, target=tmp_path / "untouched.json")
    pooled = report["held_out_pooled"]
    assert set(pooled) == {"all", "extractive", "embedded model"}
    assert (pooled["all"]["answers"], pooled["all"]["accuracy"]) == (10, 0.6)
    assert (pooled["extractive"]["answers"], pooled["extractive"]["accuracy"]) == (6, 1.0)
    assert (pooled["embedded model"]["answers"], pooled["embedded model"]["accuracy"]) == (4, 0.0)
    alone = main(check=True, folder=_only_tuning(tmp_path), target=tmp_path / "untouched.json")
    assert alone["held_out_pooled"] == {}


def _only_tuning(root: Path) -> Path:
    folder = root / "only"
    run(folder, "tune-a", strong_retrieval_is_right(20))
    return folder
