"""Fusing ranked lists from several retrievers into one score per chunk.

Two methods, compared on SciFact (tuned on train claims, reported on test; see
benchmarks/README.md):

* `convex`: z-score each list's scores over its candidates, then
  `alpha * dense + (1 - alpha) * lexical`; a candidate missing from a list gets that list's
  lowest z-score. Uses score magnitudes, so a clear winner in one list stays clear. A list
  with no spread (one candidate, or equal scores) says only which keys it found: it is
  standardised as found versus not found over the union (see `standardised`), so a lone
  BM25 match for a rare word keeps a strong score instead of collapsing to 0.
* `rrf`: reciprocal rank fusion, `sum(1 / (k + rank))`; uses ranks only.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Literal, TypeVar

import numpy as np

K = TypeVar("K", bound=Hashable)
"""A chunk key: `ChunkId` from a store; any hashable value in tests."""

Ranked = Sequence[tuple[K, float]]
"""`(key, score)` pairs, best first."""

FusionMethod = Literal["convex", "rrf"]


def zscores(ranked: Ranked[K]) -> dict[K, float]:
    """Each key's score standardised over the list (all zeros for a constant list)."""
    if not ranked:
        return {}
    scores = np.array([score for _, score in ranked], dtype=np.float64)
    spread = float(scores.std())
    standard = (scores - scores.mean()) / spread if spread > 1e-12 else np.zeros_like(scores)
    return {key: float(z) for (key, _), z in zip(ranked, standard, strict=True)}


def standardised(ranked: Ranked[K], among: int) -> tuple[dict[K, float], float]:
    """Z-scores of a list whose keys are `among` candidates in all, and the missing keys' score.

    With a spread, these are `zscores` and the missing keys get the lowest. Without one (a
    single candidate, equal scores), the list is read as two values over all candidates,
    found and not found: the `n` found get `sqrt((among - n) / n)` and the others
    `-sqrt(n / (among - n))`, the z-scores of that two-valued list.
    """
    if not ranked:
        return {}, 0.0
    standard = zscores(ranked)
    found = len(standard)
    if any(standard.values()) or among <= found:
        return standard, min(standard.values())
    inside, outside = math.sqrt((among - found) / found), -math.sqrt(found / (among - found))
    return dict.fromkeys(standard, inside), outside


def convex(lexical: Ranked[K], dense: Ranked[K], alpha: float) -> dict[K, float]:
    """`alpha * z(dense) + (1 - alpha) * z(lexical)` over the union of both lists."""
    if not dense:
        return zscores(lexical)
    if not lexical:
        return zscores(dense)
    among = len({key for key, _ in lexical} | {key for key, _ in dense})
    lexical_z, lexical_floor = standardised(lexical, among)
    dense_z, dense_floor = standardised(dense, among)
    return {
        key: alpha * dense_z.get(key, dense_floor) + (1 - alpha) * lexical_z.get(key, lexical_floor)
        for key in {**lexical_z, **dense_z}  # the union, in order of first appearance
    }


def rrf(lists: Sequence[Ranked[K]], k: int = 60) -> dict[K, float]:
    """Reciprocal rank fusion: `sum over lists of 1 / (k + rank)`, rank starting at 1."""
    fused: dict[K, float] = {}
    for ranked in lists:
        for rank, (key, _) in enumerate(ranked, start=1):
            fused[key] = fused.get(key, 0.0) + 1.0 / (k + rank)
    return fused


def fuse(
    lexical: Ranked[K], dense: Ranked[K], *, method: FusionMethod, alpha: float, rrf_k: int
) -> list[tuple[K, float]]:
    """Fused `(key, score)` pairs, best first.

    Ties keep the order in which the keys first appear, in `lexical` then in `dense`, so
    the result is deterministic for any key type (stores list equal scores stably).
    """
    scores = convex(lexical, dense, alpha) if method == "convex" else rrf([lexical, dense], rrf_k)
    return sorted(scores.items(), key=lambda item: -item[1])
