from __future__ import annotations

import numpy as np
import pytest

from citesynth.index.vectors import VectorIndex


def unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


@pytest.fixture
def clustered() -> tuple[np.ndarray, np.ndarray]:
    """Vectors in 40 clusters, as real embeddings are (uniform noise is a worst case)."""
    rng = np.random.default_rng(7)
    centres = rng.standard_normal((40, 64))
    vectors = unit(centres[rng.integers(0, 40, 3000)] + 0.35 * rng.standard_normal((3000, 64)))
    keys = rng.permutation(10_000)[:3000].astype(np.int64)
    return keys, vectors


def test_exact_search_matches_brute_force(clustered: tuple[np.ndarray, np.ndarray]) -> None:
    keys, vectors = clustered
    index = VectorIndex(keys, vectors)
    assert index.exact
    query = vectors[5]
    hits = index.search(query, 10)
    expected = keys[np.argsort(-(vectors @ query))[:10]]
    assert [key for key, _ in hits] == list(expected)
    assert hits[0] == (int(keys[5]), pytest.approx(1.0, abs=1e-5))


def test_quantized_search_agrees_with_exact(clustered: tuple[np.ndarray, np.ndarray]) -> None:
    pytest.importorskip("faiss")  # without it (no `embed` extra) every search is exact
    keys, vectors = clustered
    exact = VectorIndex(keys, vectors)
    quantized = VectorIndex(keys, vectors, quantize_from=0)
    assert not quantized.exact
    overlap = []
    for query in vectors[:50]:
        truth = {key for key, _ in exact.search(query, 20)}
        found = quantized.search(query, 20)
        overlap.append(len(truth & {key for key, _ in found}) / 20)
        scores = [score for _, score in found]
        assert scores == sorted(scores, reverse=True)
        # Scores are exact cosines, not quantised estimates.
        for key, score in found:
            assert score == pytest.approx(float(vectors[list(keys).index(key)] @ query), abs=1e-5)
    assert np.mean(overlap) > 0.97


def test_similarities_are_exact_and_skip_unknown_keys(
    clustered: tuple[np.ndarray, np.ndarray],
) -> None:
    keys, vectors = clustered
    index = VectorIndex(keys, vectors, quantize_from=0)
    query = vectors[0]
    wanted = [int(keys[3]), int(keys[9]), 10_001]
    scores = index.similarities(query, wanted)
    assert set(scores) == {int(keys[3]), int(keys[9])}
    assert scores[int(keys[3])] == pytest.approx(float(vectors[3] @ query), abs=1e-6)


def test_small_and_empty_indexes() -> None:
    empty = VectorIndex(np.zeros(0, dtype=np.int64), np.zeros((0, 8), dtype=np.float32))
    assert empty.search(unit(np.ones((1, 8)))[0], 5) == []
    assert empty.similarities(unit(np.ones((1, 8)))[0], [1]) == {}
    two = VectorIndex(np.array([4, 2]), unit(np.eye(8)[:2]))
    assert [key for key, _ in two.search(unit(np.eye(8)[1:2])[0], 10)] == [2, 4]
    with pytest.raises(ValueError, match="one key per vector"):
        VectorIndex(np.array([1]), np.zeros((2, 8), dtype=np.float32))
