"""Train the default verifier's logistic weights on the tuning splits only.

    python -m benchmarks.train_verifier            # writes src/citesynth/verify/weights.json

Tuning data: WiCE dev, SciFact train pairs, HaluEval samples 0-249 (see
`citesynth.evaluation.verifier_data`). Each data set weighs the same and, inside it, each
class weighs the same, because the reported metric is balanced accuracy per data set. The
model is an L2-regularised logistic regression fitted by Newton's method on standardised
features; the decision threshold maximises the mean balanced accuracy over the three sets,
with grouped cross-validation (by claim or sample) to check it does not overfit.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import date
from pathlib import Path

import numpy as np

from benchmarks.common import ROOT, require
from citesynth.evaluation.datafiles import data_dir
from citesynth.evaluation.verifier_data import SPLITS, load
from citesynth.verify.align import align
from citesynth.verify.analysed import analyse
from citesynth.verify.coverage import FEATURES

WEIGHTS = ROOT / "src" / "citesynth" / "verify" / "weights.json"


def features(dataset: str) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Feature matrix, labels and groups of a data set's tuning split."""
    examples = load(dataset, SPLITS[dataset][0])
    rows, labels, groups = [], [], []
    for example in examples:
        evidence = analyse(example.passages)
        alignment = align(example.claim, evidence)
        found = alignment.features
        rows.append([*(found[name] for name in FEATURES), float(alignment.disagrees)])
        labels.append(1.0 if example.supported else 0.0)
        groups.append(f"{dataset}:{example.group}")
    return np.array(rows), np.array(labels), groups


def fit(x: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float = 1.0) -> np.ndarray:
    """Weighted L2 logistic regression by Newton's method; returns [bias, weights...]."""
    design = np.hstack([np.ones((len(x), 1)), x])
    beta = np.zeros(design.shape[1])
    penalty = np.eye(design.shape[1]) * l2
    penalty[0, 0] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-design @ beta))
        gradient = design.T @ (w * (p - y)) + penalty @ beta
        hessian = design.T @ (design * (w * p * (1 - p))[:, None]) + penalty
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return beta


def balanced_accuracy(y: np.ndarray, predicted: np.ndarray) -> float:
    positives, negatives = y == 1, y == 0
    tpr = predicted[positives].mean() if positives.any() else 0.0
    tnr = (~predicted[negatives]).mean() if negatives.any() else 0.0
    return float((tpr + tnr) / 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--l2", type=float, default=1.0)
    args = parser.parse_args()
    require(data_dir())
    started = time.perf_counter()
    parts = {name: features(name) for name in SPLITS}
    matrix = np.vstack([p[0] for p in parts.values()])
    x, hard = matrix[:, :-1], matrix[:, -1] > 0
    y = np.concatenate([p[1] for p in parts.values()])
    sets = np.concatenate([[name] * len(p[1]) for name, p in parts.items()])
    weight = np.zeros(len(y))
    for name in parts:
        for label in (0.0, 1.0):
            mask = (sets == name) & (y == label)
            weight[mask] = 1.0 / max(mask.sum(), 1) / 2 / len(parts) * len(y)
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = (x - mean) / scale
    beta = fit(z, y, weight, args.l2)
    probability = 1 / (1 + np.exp(-(beta[0] + z @ beta[1:])))
    grid = np.linspace(0.05, 0.95, 91)
    scores = [
        np.mean([balanced_accuracy(y[sets == n], predicted[sets == n]) for n in parts])
        for t in grid
        if (predicted := (probability >= t) & ~hard) is not None
    ]
    threshold = float(grid[int(np.argmax(scores))])
    per_set = {
        n: round(
            balanced_accuracy(y[sets == n], ((probability >= threshold) & ~hard)[sets == n]), 4
        )
        for n in parts
    }
    weights = {
        "bias": round(float(beta[0]), 6),
        "weights": {n: round(float(b), 6) for n, b in zip(FEATURES, beta[1:], strict=True)},
        "mean": {n: round(float(m), 6) for n, m in zip(FEATURES, mean, strict=True)},
        "scale": {n: round(float(s), 6) for n, s in zip(FEATURES, scale, strict=True)},
        "supported": round(threshold, 4),
        "partial": round(threshold / 2, 4),
        "trained_on": "wice dev, scifact train pairs, halueval samples 0-249; "
        f"{len(y)} examples; {date.today().isoformat()}",
        "tuning_balanced_accuracy": per_set,
    }
    args.out.write_text(json.dumps(weights, indent=2) + "\n")
    print(json.dumps({"tuning_balanced_accuracy": per_set, "threshold": threshold}, indent=2))
    print(f"wrote {args.out} in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
