"""Writers, verifiers, embedders (and models, stores: see tests/llm, tests/index) are plugins.

Each is registered through the same call the built-ins use and found by name everywhere a
name is accepted; unknown names list what is registered.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from pathlib import Path

import pytest

from citesynth import (
    ConfigError,
    Engine,
    HashingEmbedder,
    LexicalVerifier,
    Settings,
    get_embedder,
    get_verifier,
    get_writer,
    register_embedder,
    register_verifier,
    register_writer,
)
from citesynth.embed import EMBEDDERS
from citesynth.llm.base import ChatModel, Piece
from citesynth.synthesis import WRITERS, WriterSetup
from citesynth.synthesis.prompts import BUILT_IN
from citesynth.synthesis.writers import Plan, Writer
from citesynth.verify import VERIFIERS, Check, Verdict, Verifier


class Quoting:
    """A plugin writer: quotes the source that says when idle connections expire."""

    name = "quoting"
    model: ChatModel | None = None
    timeout = 5.0
    evidence_tokens: int | None = None
    max_sources: int | None = None

    async def write(self, plan: Plan) -> AsyncIterator[Piece]:
        cited = next(s for s in plan.sources if "expire after" in s.chunk.text)
        yield f"Idle connections expire after five seconds [{cited.number}]."


class Doubting:
    """A plugin verifier: nothing is ever supported."""

    name = "doubting"

    async def verify(self, checks: Sequence[Check]) -> list[Verdict]:
        return [Verdict(0.0, "unsupported", reasons=("doubt",)) for _ in checks]


@pytest.fixture
def plugins() -> Iterator[None]:
    def writer(rest: str, setup: WriterSetup) -> Writer:
        assert setup.prompts is not None
        return Quoting()

    def verifier(rest: str, environ: Mapping[str, str]) -> Verifier:
        return Doubting()

    register_writer("quoting", writer, usage="quoting")
    register_verifier("doubting", verifier, usage="doubting")
    register_embedder("tiny", lambda option: HashingEmbedder(int(option or 32)), usage="tiny[:D]")
    yield
    WRITERS.unregister("quoting")
    VERIFIERS.unregister("doubting")
    EMBEDDERS.unregister("tiny")


@pytest.mark.usefixtures("plugins")
async def test_plugins_are_found_by_name_everywhere(tmp_path: Path, corpus: Path) -> None:
    assert isinstance(get_writer("quoting", embedder=None, prompts=BUILT_IN), Quoting)
    assert isinstance(get_verifier("doubting"), Doubting)
    tiny = get_embedder("tiny:16")
    assert tiny is not None and tiny.dimension == 16
    settings = Settings(
        index_dir=tmp_path / "index", model="quoting", verifier="doubting", embedder="tiny"
    )
    async with await Engine.open(settings=settings) as engine:
        await engine.index([corpus])
        answer = await engine.answer(
            "How long do idle connections live?", not_found_below=0.0, keep_unsupported=True
        )
        removed = await engine.answer(
            "How long do idle connections live?", not_found_below=0.0, cache=False
        )
    assert answer.model == "quoting" and answer.verification is not None
    assert answer.verification.verifier == "doubting" and answer.claims[0].label == "unsupported"
    assert removed.not_found and removed.removed_claims[0].label == "unsupported"


@pytest.mark.usefixtures("plugins")
def test_unknown_names_list_what_is_registered() -> None:
    with pytest.raises(ConfigError, match=r"unknown verifier 'x'.*judge:MODEL.*doubting"):
        get_verifier("x")
    with pytest.raises(ConfigError, match=r"unknown embedder 'x'.*hashing\[:DIM\].*tiny\[:D\]"):
        get_embedder("x")


def test_a_taken_prefix_is_refused_unless_replaced() -> None:
    with pytest.raises(ConfigError, match="already registered"):
        register_verifier("lexical", lambda rest, environ: LexicalVerifier())
    register_verifier("lexical", lambda rest, environ: LexicalVerifier(), replace=True)
    assert isinstance(get_verifier("lexical"), LexicalVerifier)


def test_a_prefix_is_one_word() -> None:
    with pytest.raises(ConfigError, match="one word"):
        register_writer("a:b", lambda rest, setup: Quoting())
