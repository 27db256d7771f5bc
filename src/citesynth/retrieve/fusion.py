"""Fusing ranked lists from several retrievers into one score per chunk.

Two methods, compared on SciFact (tuned on train claims, reported on test; see
benchmarks/README.md):

* `convex`: z-score each list's scores over its candidates, then
  `alpha * dense + (1 - alpha) * lexical`; a candidate missing from a list gets that list's
  lowest z-score. Uses score magnitudes, so a clear winner in one list stays clear.
* `rrf`: reciprocal rank fusion, `sum(1 / (k + rank))`; uses ranks only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

Ranked = Sequence[tuple[int, float]]
"""`(key, score)` pairs, best first."""

FusionMethod = Literal["convex", "rrf"]


def zscores(ranked: Ranked) -> dict[int, float]:
    """Each key's score standardised over the list (all zeros for a constant list)."""
    if not ranked:
        return {}
    scores = np.array([score for _, score in ranked], dtype=np.float64)
    spread = float(scores.std())
    standard = (scores - scores.mean()) / spread if spread > 1e-12 else np.zeros_like(scores)
    return {key: float(z) for (key, _), z in zip(ranked, standard, strict=True)}


def convex(lexical: Ranked, dense: Ranked, alpha: float) -> dict[int, float]:
    """`alpha * z(dense) + (1 - alpha) * z(lexical)` over the union of both lists."""
    lexical_z, dense_z = zscores(lexical), zscores(dense)
    if not dense_z:
        return lexical_z
    if not lexical_z:
        return dense_z
    lexical_floor, dense_floor = min(lexical_z.values()), min(dense_z.values())
    return {
        key: alpha * dense_z.get(key, dense_floor) + (1 - alpha) * lexical_z.get(key, lexical_floor)
        for key in lexical_z.keys() | dense_z.keys()
    }


def rrf(lists: Sequence[Ranked], k: int = 60) -> dict[int, float]:
    """Reciprocal rank fusion: `sum over lists of 1 / (k + rank)`, rank starting at 1."""
    fused: dict[int, float] = {}
    for ranked in lists:
        for rank, (key, _) in enumerate(ranked, start=1):
            fused[key] = fused.get(key, 0.0) + 1.0 / (k + rank)
    return fused


def fuse(
    lexical: Ranked, dense: Ranked, *, method: FusionMethod, alpha: float, rrf_k: int
) -> list[tuple[int, float]]:
    """Fused `(key, score)` pairs, best first (ties broken by key for determinism)."""
    scores = convex(lexical, dense, alpha) if method == "convex" else rrf([lexical, dense], rrf_k)
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))
