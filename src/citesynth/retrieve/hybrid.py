"""Pass 1: hybrid retrieval (BM25 + dense), fusion, optional reranking, per-hit confidence."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from citesynth.analysis import query_terms, terms
from citesynth.embed.base import Embedder
from citesynth.index.store import Store, index_text
from citesynth.retrieve.confidence import COSINES_FITTED_ON, confidence
from citesynth.retrieve.fusion import FusionMethod, fuse
from citesynth.types import Chunk, ChunkId, Hit, Signals


@dataclass(frozen=True, slots=True)
class RetrievalOptions:
    """How Pass 1 searches: candidates per retriever, fusion method and its weight."""

    depth: int = 100
    fusion: FusionMethod = "convex"
    alpha: float = 0.5
    rrf_k: int = 60


class Reranker(Protocol):
    """Reorders fused hits (a cross-encoder, an LLM judge, business rules)."""

    async def rerank(self, query: str, hits: Sequence[Hit]) -> list[Hit]:
        """The same hits (or a subset) in a better order."""
        ...


async def retrieve(
    query: str,
    *,
    store: Store,
    embedder: Embedder | None,
    k: int = 10,
    options: RetrievalOptions = RetrievalOptions(),
    reranker: Reranker | None = None,
) -> list[Hit]:
    """The `k` best chunks for `query`, best first, each with its signals and confidence."""
    if k <= 0 or (not query.strip() and embedder is None):
        return []
    depth = max(options.depth, k)
    lexical_task = store.lexical_search(query, depth)
    cosines: dict[ChunkId, float] = {}
    if embedder is not None:
        vector = (await embedder.embed([query], "query"))[0]
        dense_task = store.dense_search(embedder.name, vector, depth)
        lexical, dense = await asyncio.gather(lexical_task, dense_task)
        cosines = dict(dense)
    else:
        lexical, dense = await lexical_task, []
    fused = fuse(lexical, dense, method=options.fusion, alpha=options.alpha, rrf_k=options.rrf_k)
    # Every retriever's full candidate list is fused and deduplicated whatever `k` is, so
    # that the top `k` is always a prefix of the top `depth`: `k` cuts the list, never the pool.
    kept = await _distinct(fused[:depth], store, None if reranker is not None else k)
    if embedder is not None:
        # Hits found by BM25 alone still get their true cosine, for the confidence model.
        missing = [chunk.id for chunk, _ in kept if chunk.id not in cosines]
        cosines.update(await store.similarities(embedder.name, vector, missing))
    # The query's index terms, for the coverage signal (the store analyses its own search).
    words = query_terms(query)
    fitted = embedder is not None and embedder.name in COSINES_FITTED_ON
    hits = _hits(kept, lexical, dense, cosines, words, cosines_fitted=fitted)
    if reranker is not None:
        hits = await reranker.rerank(query, hits)
    return hits[:k]


async def _distinct(
    candidates: Sequence[tuple[ChunkId, float]], store: Store, limit: int | None
) -> list[tuple[Chunk, float]]:
    """Candidates in order, each text once (the same file at two paths), up to `limit`.

    Chunks are fetched a page at a time (`limit` and a margin for duplicates), and only as
    many pages as the duplicates need: the result is the one fetching every candidate would
    give, without reading a hundred chunk texts to keep ten.
    """
    page = len(candidates) if limit is None else limit + max(5, limit // 2)
    seen_texts: set[str] = set()
    kept: list[tuple[Chunk, float]] = []
    for start in range(0, len(candidates), max(page, 1)):
        batch = candidates[start : start + page]
        chunks = await store.chunks([chunk_id for chunk_id, _ in batch])
        for key, score in batch:
            chunk = chunks.get(key)
            if chunk is None or chunk.text in seen_texts:
                continue
            seen_texts.add(chunk.text)
            kept.append((chunk, score))
            if len(kept) == limit:
                return kept
    return kept


def _hits(
    kept: Sequence[tuple[Chunk, float]],
    lexical: Sequence[tuple[ChunkId, float]],
    dense: Sequence[tuple[ChunkId, float]],
    cosines: dict[ChunkId, float],
    words: Sequence[str],
    *,
    cosines_fitted: bool,
) -> list[Hit]:
    lexical_rank = {key: (rank, score) for rank, (key, score) in enumerate(lexical, start=1)}
    dense_rank = {key: (rank, score) for rank, (key, score) in enumerate(dense, start=1)}
    best_lexical = lexical[0][1] if lexical else 0.0
    wanted = set(words)
    hits: list[Hit] = []
    for chunk, score in kept:
        key = chunk.id
        lex = lexical_rank.get(key)
        den = dense_rank.get(key)
        present = wanted.intersection(terms(index_text(chunk))) if wanted else set()
        cosine = cosines.get(key)
        signals = Signals(
            lexical_rank=lex[0] if lex else None,
            lexical_score=lex[1] if lex else None,
            dense_rank=den[0] if den else None,
            cosine=cosine,
            coverage=len(present) / len(wanted) if wanted else 0.0,
        )
        value = confidence(
            cosine=(cosine or 0.0) if cosines_fitted else None,
            lexical=(lex[1] / best_lexical) if lex and best_lexical > 0 else 0.0,
            coverage=signals.coverage,
            rank=len(hits) + 1,
        )
        hits.append(Hit(chunk=chunk, score=score, confidence=value, signals=signals))
    return hits
