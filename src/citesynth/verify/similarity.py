"""How close a claim is in meaning to each sentence of its evidence: MiniLM cosine.

    similarity = shared_similarity()              # needs `citesynth[embed]`
    similarity("Pools hold ten connections.", ["The pool size is 10.", "Retries back off."])

The trained verifier reads a limited budget of evidence words, and which sentences fill it
decides what it can judge (`verify.evidence`). Paraphrased claims share few words with the
sentences that support them, so the sentences are ranked by the cosine of their
all-MiniLM-L6-v2 embeddings (the packaged weights the index already uses) as well as by the
lexical alignment. Sentence vectors are remembered: an answer's sources are checked for
every claim, and again after repair.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from citesynth.embed.base import Vectors
from citesynth.embed.minilm import MiniLMEmbedder

_REMEMBERED = 20_000
"""Sentence vectors kept (1.5 KB each), oldest dropped first."""


class SentenceSimilarity:
    """Cosine between a claim and sentences, with the sentences' vectors remembered."""

    def __init__(self, embedder: MiniLMEmbedder, *, remembered: int = _REMEMBERED) -> None:
        self.embedder = embedder
        self.remembered = remembered
        self._vectors: OrderedDict[str, Vectors] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, claim: str, sentences: Sequence[str]) -> list[float]:
        """One cosine per sentence, in order."""
        if not sentences:
            return []
        vectors = self.vectors([claim, *sentences])
        return [float(v) for v in vectors[1:] @ vectors[0]]

    def vectors(self, texts: Sequence[str]) -> Vectors:
        """Unit vectors of `texts`, computing only those not remembered."""
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        fresh = self.embedder.encode(missing) if missing else None
        with self._lock:
            if fresh is not None:
                for text, vector in zip(missing, fresh, strict=True):
                    self._vectors[text] = vector
            found = {t: self._vectors[t] for t in texts if t in self._vectors}
            while len(self._vectors) > self.remembered:
                self._vectors.popitem(last=False)
        if fresh is not None:  # a call larger than the memory still gets every vector
            found.update(zip(missing, fresh, strict=True))
        return np.stack([found[t] for t in texts])


_SHARED: dict[str, SentenceSimilarity] = {}
_LOADING = threading.Lock()


def shared_similarity() -> SentenceSimilarity:
    """The process-wide similarity over the packaged MiniLM (loaded on first use).

    Raises:
        ConfigError: torch, transformers or the packaged MiniLM are not installed (on use).
    """
    with _LOADING:
        if "similarity" not in _SHARED:
            _SHARED["similarity"] = SentenceSimilarity(MiniLMEmbedder())
        return _SHARED["similarity"]
