"""`citesynth eval verifier`: a verifier's balanced accuracy, F1 and speed on labelled pairs.

A prediction is positive when the label is `supported` (`partial` counts as not supported,
as WiCE's partially supported claims do). Claims are checked in batches, the way an answer's
claims are, and the time is wall-clock time for the whole run.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from citesynth.evaluation.verifier_data import Example
from citesynth.verify.base import Check, Verdict, Verifier

BATCH = 32


@dataclass(frozen=True, slots=True)
class VerifierRun:
    """Predictions for a list of examples, with the time they took."""

    examples: tuple[Example, ...]
    verdicts: tuple[Verdict, ...]
    seconds: float

    def metrics(self) -> dict[str, float | None]:
        """`balanced_accuracy`, `f1`, `claims_per_second` and the confusion counts."""
        tp = fp = tn = fn = 0
        for example, verdict in zip(self.examples, self.verdicts, strict=True):
            predicted = verdict.supported
            if predicted and example.supported:
                tp += 1
            elif predicted:
                fp += 1
            elif example.supported:
                fn += 1
            else:
                tn += 1
        positives, negatives = tp + fn, tn + fp
        tpr = tp / positives if positives else None
        tnr = tn / negatives if negatives else None
        balanced = (tpr + tnr) / 2 if tpr is not None and tnr is not None else None
        precision = tp / (tp + fp) if tp + fp else 0.0
        recall = tpr or 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        total = len(self.examples)
        return {
            "balanced_accuracy": _round(balanced),
            "f1": _round(f1 if positives else None),
            "accuracy": _round((tp + tn) / total if total else None),
            "true_positive_rate": _round(tpr),
            "true_negative_rate": _round(tnr),
            "claims_per_second": _round(total / self.seconds if self.seconds > 0 else None, 1),
            "examples": total,
            "supported": positives,
            "tp": tp,
            "fp": fp,
            "tn": tn,
            "fn": fn,
        }


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


async def run(
    verifier: Verifier,
    examples: Sequence[Example],
    *,
    progress: Callable[[int], Any] | None = None,
) -> VerifierRun:
    """Verify every example, `BATCH` at a time; `progress(n)` after each batch."""
    verdicts: list[Verdict] = []
    started = time.perf_counter()
    for first in range(0, len(examples), BATCH):
        batch = examples[first : first + BATCH]
        verdicts.extend(await verifier.verify([Check(e.claim, e.passages) for e in batch]))
        if progress is not None:
            progress(len(batch))
    return VerifierRun(tuple(examples), tuple(verdicts), time.perf_counter() - started)
