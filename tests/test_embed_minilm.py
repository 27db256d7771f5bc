"""The packaged MiniLM model, for real (slow: loads torch and the weights)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from citesynth import Engine, MiniLMEmbedder, Settings, get_embedder
from citesynth.embed import minilm_installed

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not minilm_installed(), reason="the embed extra is not installed"),
]


async def test_minilm_embeds_meaning_offline() -> None:
    embedder = MiniLMEmbedder()
    vectors = await embedder.embed(
        [
            "How long does the client wait for a reply?",
            "The read timeout limits waiting for data.",
            "Bananas are rich in potassium.",
        ],
        "document",
    )
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2]) + 0.2


async def test_bf16_and_fp32_agree() -> None:
    texts = ["Exponential backoff doubles the wait after each failed attempt."] * 2
    fp32 = await MiniLMEmbedder(precision="fp32").embed(texts, "document")
    bf16 = await MiniLMEmbedder(precision="bf16").embed(texts, "document")
    assert float(np.min(np.sum(fp32 * bf16, axis=1))) > 0.995


async def test_dense_retrieval_finds_paraphrases(tmp_path: Path, corpus: Path) -> None:
    assert isinstance(get_embedder("minilm"), MiniLMEmbedder)
    async with await Engine.open(
        settings=Settings(index_dir=tmp_path / "i", embedder="minilm")
    ) as engine:
        await engine.index([corpus])
        hit = (
            await engine.search(
                "how long may the program stall waiting for bytes from the server", k=1
            )
        )[0]
        assert "read timeout" in hit.chunk.text
        assert hit.signals.cosine is not None and hit.signals.cosine > 0.3
