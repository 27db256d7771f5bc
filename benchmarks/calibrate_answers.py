"""Confidence calibration from evaluation runs: fitted on the tuning runs, measured on the rest.

Every eval record keeps whether its answer was right (`correct`) and the signals behind its
confidence (`signals`, see `citesynth.verify.confidence`). This fits the logistic weights on
the written answers (neither a not-found nor a fallback) of the tuning runs in
`benchmarks/results/eval/`, the `tune-*` runs of `benchmarks.eval_suite` (ClapNQ, Developer
Hub and MultiHop-RAG dev questions and the Starlette, marshmallow and structlog how-to
questions; the extractive writer and the embedded model), each run weighing the same and
each weight with its expected sign. It writes them to `src/citesynth/verify/confidence.json`
and reports every run's expected calibration error (ECE) and ROC AUC with the weights
before and after, and those of the held-out runs pooled (all, and by writer): each answer
is rescored from its record's signals, none is written again.

    python -m benchmarks.eval_suite --only tune-clapnq-extractive,...   # the tuning runs
    python -m benchmarks.calibrate_answers           # fit, write the weights, report
    python -m benchmarks.calibrate_answers --check   # report the shipped weights only
"""

from __future__ import annotations

import argparse
import datetime
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.calibrate_answerability import roc_auc
from benchmarks.common import RESULTS, ROOT, write_result
from benchmarks.train_verifier import fit
from citesynth.evaluation.metrics import reliability
from citesynth.evaluation.summary import written_answer
from citesynth.synthesis.finishing import Finishing, disagreement_cap
from citesynth.verify.confidence import (
    SIGNALS,
    Signals,
    confidence,
    question_coverage,
    shipped_weights,
)

EVAL = RESULTS / "eval"
CONFIDENCE = ROOT / "src" / "citesynth" / "verify" / "confidence.json"
TUNING = "tune-"
"""The runs whose questions the weights are fitted on (by name); every other run is held out."""
CI_SLICE = "ci-slice-"
"""The CI gate's baselines (hashing embedder, a scripted model): not a measure of anything."""
SIGN = {
    "retrieval": 1,
    "cited": 1,
    "support": 1,
    "documents": 1,
    "conflict": -1,
    "invalid": -1,
    "coverage": 1,
}
"""The direction each signal may move the confidence in."""
READ_AGAIN: dict[str, Callable[[Mapping[str, Any]], float]] = {
    "coverage": lambda record: question_coverage(record["question"], record["answer"]),
}
"""Signals a record written before they existed does not keep, read from its question and
answer as the pipeline reads them."""
POOLS: dict[str, Callable[[str], bool]] = {
    "all": lambda name: True,
    "extractive": lambda name: "-extractive" in name,
    "embedded model": lambda name: "-local" in name,
}
"""The held-out runs pooled, whatever the writer and by writer (by run name)."""
L2 = 0.5
CAP = disagreement_cap(Finishing().low_confidence_below)
"""The confidence an answer whose sources disagree on the point asked is capped at."""


@dataclass(frozen=True, slots=True)
class Row:
    """One written answer of a run: its signals, the confidence it got, whether it was right."""

    signals: Mapping[str, float]
    confidence: float
    correct: bool


def rows(folder: Path) -> list[Row]:
    """The written answers of our pipeline in the run `folder` whose records keep signals."""
    path = folder / "records.jsonl"
    if not path.exists():
        return []
    found = []
    for line in path.read_text().splitlines():
        record = json.loads(line)
        if (
            record.get("pipeline") == "ours"
            and written_answer(record)
            and set(record.get("signals") or ()) >= set(SIGNALS) - set(READ_AGAIN)
        ):
            found.append(
                Row(_signals(record), float(record["confidence"]), bool(record["correct"]))
            )
    return found


def _signals(record: Mapping[str, Any]) -> dict[str, float]:
    """The signals of a record: those it keeps, and those `READ_AGAIN` from it otherwise."""
    kept = record["signals"]
    return {
        name: float(kept[name]) if name in kept else READ_AGAIN[name](record) for name in SIGNALS
    }


def calibrate(runs: Mapping[str, Sequence[Row]]) -> dict[str, float]:
    """Logistic regression of correctness on the signals, each run weighing the same.

    A weight fitted with the wrong sign (more support lowering the confidence: the signal
    carries nothing for these answers) is fixed at 0 and the rest refit, so that more
    support, retrieval strength, citations or independent documents never lower the
    confidence and conflicts or invalid markers never raise it.
    """
    pooled = [row for run in runs.values() for row in run]
    weight = np.concatenate(
        [np.full(len(run), len(pooled) / len(runs) / len(run)) for run in runs.values()]
    )
    y = np.array([1.0 if row.correct else 0.0 for row in pooled])
    free = list(SIGNALS)
    while True:
        x = np.array([[row.signals[name] for name in free] for row in pooled])
        beta = fit(x, y, weight, l2=L2)
        wrong = [(SIGN[n] * b, n) for n, b in zip(free, beta[1:], strict=True) if SIGN[n] * b < 0]
        if not wrong:
            break
        free.remove(min(wrong)[1])
    fitted = {"bias": float(beta[0])} | dict.fromkeys(SIGNALS, 0.0)
    return fitted | {n: float(b) for n, b in zip(free, beta[1:], strict=True)}


def rescored(row: Row, weights: Mapping[str, float]) -> float:
    """The confidence `row` gets with `weights`.

    An answer whose sources disagree on the point asked was capped below the disclaimer
    threshold (`finishing.disagreement_cap`); a record at the cap keeps it as a bound.
    """
    new = confidence(Signals(**row.signals), weights)
    return min(new, CAP) if abs(row.confidence - CAP) < 1e-4 else new


def figures(
    run: Sequence[Row], before: Mapping[str, float], after: Mapping[str, float]
) -> dict[str, Any]:
    """A run's accuracy, and its ECE, AUC and reliability curve before and after (rescored
    with the weights `before` and `after`); how many recorded confidences `before`
    reproduces (a run written with older weights reproduces none)."""
    recorded = [(rescored(row, before), row.correct) for row in run]
    new = [(rescored(row, after), row.correct) for row in run]
    curve = reliability(new)
    return {
        "answers": len(run),
        "accuracy": round(float(np.mean([row.correct for row in run])), 3),
        "before": {"ece": reliability(recorded)["ece"], "auc": roc_auc(recorded)},
        "after": {"ece": curve["ece"], "auc": roc_auc(new)},
        "curve_after": curve["curve"],
        "reproduced": sum(
            abs(confidence(Signals(**row.signals), before) - row.confidence) <= 1e-3 for row in run
        ),
    }


def main(check: bool, folder: Path = EVAL, target: Path = CONFIDENCE) -> dict[str, Any]:
    """Fit on the tuning runs under `folder`, write the weights to `target` (unless
    `check`), and report every run before and after."""
    runs = {
        run.name: rows(run)
        for run in sorted(folder.iterdir())
        if run.is_dir() and not run.name.startswith(CI_SLICE)
    }
    runs = {name: run for name, run in runs.items() if run}
    tuning = {name: run for name, run in runs.items() if name.startswith(TUNING)}
    if not tuning:
        raise SystemExit(f"no tuning runs with signals in {folder}: run the {TUNING}* runs first")
    before = dict(shipped_weights())
    after = before if check else {k: round(v, 4) for k, v in calibrate(tuning).items()}
    fitted_on = ", ".join(f"{name} ({len(run)} answers)" for name, run in tuning.items())
    if not check:
        today = datetime.date.today().isoformat()
        shipped = {
            "weights": after,  # as reported below: what ships
            "fitted_on": f"the written answers of {fitted_on}; {today}",
        }
        target.write_text(json.dumps(shipped, indent=2) + "\n")
    report = {name: figures(run, before, after) for name, run in runs.items()}
    held_out = {name: run for name, run in runs.items() if name not in tuning}
    pools = {
        kind: [row for name, run in held_out.items() if chosen(name) for row in run]
        for kind, chosen in POOLS.items()
    }
    pooled = {kind: figures(found, before, after) for kind, found in pools.items() if found}
    for name, entry in [*report.items(), *((f"held out, {k}", v) for k, v in pooled.items())]:
        role = "tuning" if name in tuning else "held out"
        print(
            f"{name:34s} {role:8s} {entry['answers']:4d} right {entry['accuracy']:.2f}  "
            f"ECE {entry['before']['ece']:.3f} -> {entry['after']['ece']:.3f}  "
            f"AUC {entry['before']['auc']} -> {entry['after']['auc']}"
        )
    return {
        "fitted_on": fitted_on,
        "weights_before": dict(before),
        "weights_after": after,
        "runs": report,
        "held_out_pooled": pooled,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="Report only; write nothing.")
    arguments = parser.parse_args()
    write_result("answer_calibration", main(arguments.check))
