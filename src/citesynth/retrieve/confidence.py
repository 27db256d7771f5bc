"""Pass-1 confidence: the probability that a retrieved chunk is relevant to the query.

A logistic model over signals that mean the same thing on any corpus:

* `cosine`: the dense similarity (MiniLM cosines are comparable across corpora);
* `lexical`: the BM25 score divided by the best BM25 score for this query (0 if absent);
* `coverage`: the share of the query's content terms found in the chunk;
* `rank`: `1 / fused rank`.

Coefficients are fitted by `benchmarks/calibrate_confidence.py` on SciFact train claims
(relevant = a cited abstract); the fit and its reliability curve are in
`benchmarks/results/confidence.json`. Without dense retrieval a second set, fitted the same
way without `cosine`, is used; so it is for an embedder whose cosines the first set was not
fitted on (`COSINES_FITTED_ON`): another model's cosines mean something else, and the
answerability gate reads this confidence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Coefficients:
    """Intercept and weights of the logistic model."""

    intercept: float
    cosine: float
    lexical: float
    coverage: float
    rank: float


COSINES_FITTED_ON = frozenset({"all-minilm-l6-v2"})
"""The embedders (by `Embedder.name`) whose cosines `HYBRID` was fitted on."""

# Fitted on SciFact train (8,090 hits); on the 300 test queries: ECE 0.014, AUC 0.86 (hybrid)
# and ECE 0.026, AUC 0.80 (BM25 only).
HYBRID = Coefficients(intercept=-7.538, cosine=6.648, lexical=1.912, coverage=0.838, rank=1.937)
LEXICAL_ONLY = Coefficients(intercept=-5.4, cosine=0.0, lexical=2.576, coverage=2.548, rank=1.837)


def confidence(
    *,
    cosine: float | None,
    lexical: float,
    coverage: float,
    rank: int,
    coefficients: Coefficients | None = None,
) -> float:
    """Probability in 0..1 that the hit is relevant (`rank` starts at 1)."""
    model = coefficients or (LEXICAL_ONLY if cosine is None else HYBRID)
    logit = (
        model.intercept
        + model.cosine * (cosine or 0.0)
        + model.lexical * lexical
        + model.coverage * coverage
        + model.rank / rank
    )
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))
