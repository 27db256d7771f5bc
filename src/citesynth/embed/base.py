"""The embedder contract: texts in, unit-normalised float32 vectors out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]
TextKind = Literal["query", "document"]


class Embedder(Protocol):
    """Turns texts into unit vectors; `name` keys the vector cache, so it names the weights."""

    name: str
    dimension: int

    async def embed(self, texts: Sequence[str], kind: TextKind) -> Vectors:
        """One unit-normalised row per text, in input order."""
        ...


def normalise(vectors: Vectors) -> Vectors:
    """Scale each row to unit length (zero rows stay zero)."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    scaled: Vectors = (vectors / norms).astype(np.float32, copy=False)
    return scaled
