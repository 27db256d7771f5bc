"""A deterministic bag-of-words embedder with no model: feature hashing of stemmed terms.

It ships in the package as the fast stand-in for tests and as a dense signal for installs
without the `embed` extra. It knows no synonyms: two texts are close when they share terms.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from itertools import pairwise

import numpy as np

from citesynth.analysis import terms
from citesynth.embed.base import TextKind, Vectors, normalise


class HashingEmbedder:
    """Signed feature hashing of unigrams and bigrams into `dimension` buckets."""

    def __init__(self, dimension: int = 256) -> None:
        self.dimension = dimension
        self.name = f"hashing-{dimension}"

    def _bucket(self, feature: str) -> tuple[int, float]:
        digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        return value % self.dimension, 1.0 if value >> 63 else -1.0

    def vector(self, text: str) -> Vectors:
        """The embedding of one text."""
        row = np.zeros(self.dimension, dtype=np.float32)
        words = terms(text)
        for feature in [*words, *(f"{a} {b}" for a, b in pairwise(words))]:
            bucket, sign = self._bucket(feature)
            row[bucket] += sign
        return row

    async def embed(self, texts: Sequence[str], kind: TextKind) -> Vectors:
        """One unit vector per text; `kind` makes no difference here."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return normalise(np.stack([self.vector(text) for text in texts]))
