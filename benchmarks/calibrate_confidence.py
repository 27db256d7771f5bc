"""Fit the Pass-1 confidence model and measure its calibration.

For every SciFact *train* claim, the top 10 hybrid hits become examples: the features of
`citesynth.retrieve.confidence` (cosine, BM25 relative to the best hit, query-term coverage,
1 / rank) and the label "the hit's abstract is cited for this claim". A logistic regression
(Newton's method, a small ridge) is fitted twice: with the cosine (hybrid) and without it
(BM25 only). Calibration is then measured on the *test* queries: expected calibration error
over ten bins, the reliability curve, and the ranking AUC.

    python -m benchmarks.calibrate_confidence

The fitted coefficients are copied into `src/citesynth/retrieve/confidence.py`;
`tests/test_confidence_calibration.py` checks that the two agree.
"""

from __future__ import annotations

import asyncio
from itertools import pairwise
from typing import Any

import numpy as np
import numpy.typing as npt

from benchmarks.common import CACHE, Queries, scifact_test, scifact_train, write_result
from citesynth import Engine, Settings
from citesynth.retrieve import confidence as model

TOP = 10
FEATURES = ("cosine", "lexical", "coverage", "rank")
Array = npt.NDArray[np.float64]


async def examples(engine: Engine, queries: Queries, *, dense: bool) -> tuple[Array, Array]:
    """Feature rows and 0/1 labels for the top hits of every query."""
    embedder = engine.embedder
    if not dense:
        engine.embedder = None
    rows: list[list[float]] = []
    labels: list[float] = []
    try:
        for query_id, text in queries.text.items():
            hits = await engine.search(text, TOP)
            best = max((h.signals.lexical_score or 0.0 for h in hits), default=0.0)
            for rank, hit in enumerate(hits, start=1):
                lexical = (hit.signals.lexical_score or 0.0) / best if best > 0 else 0.0
                rows.append([hit.signals.cosine or 0.0, lexical, hit.signals.coverage, 1.0 / rank])
                labels.append(
                    1.0 if queries.qrels[query_id].get(hit.chunk.record_id or "", 0) > 0 else 0.0
                )
    finally:
        engine.embedder = embedder
    return np.array(rows), np.array(labels)


def fit(features: Array, labels: Array, ridge: float = 1e-2) -> Array:
    """Logistic regression by Newton's method; returns [intercept, weights...]."""
    design = np.hstack([np.ones((len(features), 1)), features])
    weights = np.zeros(design.shape[1])
    for _ in range(100):
        probability = 1 / (1 + np.exp(-design @ weights))
        gradient = design.T @ (labels - probability) - ridge * weights
        hessian = (design * (probability * (1 - probability))[:, None]).T @ design + ridge * np.eye(
            len(weights)
        )
        step = np.linalg.solve(hessian, gradient)
        weights += step
        if np.abs(step).max() < 1e-8:
            break
    return weights


def predict(weights: Array, features: Array) -> Array:
    return 1 / (1 + np.exp(-(weights[0] + features @ weights[1:])))


def calibration(probabilities: Array, labels: Array, bins: int = 10) -> dict[str, Any]:
    """Expected calibration error, the reliability curve and the AUC."""
    edges = np.linspace(0, 1, bins + 1)
    curve, error = [], 0.0
    for low, high in pairwise(edges):
        inside = (probabilities >= low) & ((probabilities < high) | (high == 1.0))
        if inside.any():
            predicted, observed = float(probabilities[inside].mean()), float(labels[inside].mean())
            error += inside.mean() * abs(predicted - observed)
            curve.append({"bin": [round(low, 1), round(high, 1)], "n": int(inside.sum()),
                          "predicted": round(predicted, 4), "observed": round(observed, 4)})  # fmt: skip
    return {
        "ece": round(float(error), 4),
        "auc": round(_auc(probabilities, labels), 4),
        "reliability": curve,
    }


def _auc(scores: Array, labels: Array) -> float:
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    positives = labels.sum()
    negatives = len(labels) - positives
    if positives == 0 or negatives == 0:
        return float("nan")
    return float(
        (ranks[labels == 1].sum() - positives * (positives + 1) / 2) / (positives * negatives)
    )


def shipped(coefficients: model.Coefficients, *, dense: bool) -> Array:
    names = FEATURES if dense else FEATURES[1:]
    return np.array([coefficients.intercept, *(getattr(coefficients, name) for name in names)])


async def main() -> dict[str, Any]:
    settings = Settings(index_dir=CACHE / "scifact-c200", embedder="minilm")
    report: dict[str, Any] = {}
    async with await Engine.open(settings=settings) as engine:
        for label, dense in (("hybrid", True), ("lexical_only", False)):
            train_x, train_y = await examples(engine, scifact_train(), dense=dense)
            test_x, test_y = await examples(engine, scifact_test(), dense=dense)
            columns = slice(0, 4) if dense else slice(1, 4)
            weights = fit(train_x[:, columns], train_y)
            current = shipped(model.HYBRID if dense else model.LEXICAL_ONLY, dense=dense)
            names = ("intercept", *(FEATURES if dense else FEATURES[1:]))
            report[label] = {
                "coefficients": {
                    name: round(float(w), 3) for name, w in zip(names, weights, strict=True)
                },
                "train_examples": len(train_y),
                "train_positive_rate": round(float(train_y.mean()), 4),
                "test": calibration(predict(weights, test_x[:, columns]), test_y),
                "test_with_shipped_coefficients": calibration(
                    predict(current, test_x[:, columns]), test_y
                ),
            }
            print(label, report[label]["coefficients"], "test ECE", report[label]["test"]["ece"],
                  "AUC", report[label]["test"]["auc"])  # fmt: skip
    return {
        "fit_on": "SciFact train claims (809), top 10 hybrid hits",
        "report_on": "BEIR SciFact test (300)",
        **report,
    }


if __name__ == "__main__":
    write_result("confidence", asyncio.run(main()))
