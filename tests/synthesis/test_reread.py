"""The extractive writer's candidates read by a cross-encoder too (`SentenceScorer`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from citesynth import Engine, Settings
from citesynth.llm.fake import ScriptedModel
from citesynth.synthesis import ExtractiveWriter, LLMWriter, SentenceScorer
from citesynth.synthesis.extractive import scorer
from citesynth.synthesis.prompts import BUILT_IN
from citesynth.synthesis.sources import numbered
from citesynth.verify import LexicalVerifier
from citesynth.verify.crossencoder import available
from citesynth.verify.trained import TrainedVerifier, gate_installed
from tests.conftest import write

GUIDE = (
    "# Formatting\n\n"
    "## Doctests\n\n"
    "In these cases normal formatting is applied, so doctests inside Python code blocks "
    "will not be formatted by the formatter.\n\n"
    "## Ignoring sections\n\n"
    "The formatter will not reformat lines that end with `# fmt: skip` or blocks that "
    "start with `# fmt: off` and end with `# fmt: on`.\n\n"
    "## Speed\n\n"
    "The formatter formats a thousand files of code in a few seconds on one core.\n"
)
QUESTION = "How do I stop the formatter from formatting a block of code?"


class PhraseScorer:
    """Scores a sentence holding one of `phrases` as answering (0.9), any other 0.05."""

    def __init__(self, *phrases: str) -> None:
        self.phrases = phrases
        self.read: list[str] = []

    async def answering(self, question: str, sentences: Sequence[str]) -> list[float]:
        self.read.extend(sentences)
        return [0.9 if any(p in s for p in self.phrases) else 0.05 for s in sentences]


async def _picked(engine: Engine, tmp_path: Path, writer: ExtractiveWriter) -> list[str]:
    write(tmp_path / "docs", "format.md", GUIDE)
    await engine.index([tmp_path / "docs"])
    sources = numbered(await engine.search(QUESTION, 5))
    return [pick.said for pick in await writer.picks(QUESTION, sources)]


async def test_the_scorer_brings_a_sentence_into_reach(engine: Engine, tmp_path: Path) -> None:
    plain = await _picked(engine, tmp_path, ExtractiveWriter(engine.embedder, keep_ratio=0.99))
    assert not any("fmt: off" in said for said in plain)
    scored = PhraseScorer("fmt: off")
    reread = await _picked(
        engine, tmp_path, ExtractiveWriter(engine.embedder, keep_ratio=0.99, scorer=scored)
    )
    assert any("fmt: off" in said for said in reread)
    assert scored.read and not any(s.startswith("Ignoring sections") for s in scored.read)
    assert len(reread) == len(plain) + 1  # one more in reach: no sentence gives way to it
    unmoved = await _picked(
        engine,
        tmp_path,
        ExtractiveWriter(engine.embedder, keep_ratio=0.99, scorer=PhraseScorer("no such")),
    )
    assert len(unmoved) == len(plain)


def test_only_a_verifier_that_reads_questions_is_a_scorer() -> None:
    assert scorer(LexicalVerifier()) is None
    assert scorer(None) is None
    assert isinstance(PhraseScorer(), SentenceScorer)


@pytest.mark.skipif(not available(), reason="the trained verifier needs citesynth[embed]")
async def test_the_trained_verifier_scores_the_answering_sentence_higher(tmp_path: Path) -> None:
    trained = TrainedVerifier.load()
    assert scorer(trained) is trained
    answering, sharing = await trained.answering(
        QUESTION,
        [
            "The formatter will not reformat blocks that start with `# fmt: off` and end "
            "with `# fmt: on`.",
            "Normal formatting is applied, so doctests inside Python code blocks will not be "
            "formatted.",
        ],
    )
    assert 0.0 <= sharing < answering <= 1.0
    assert await trained.answering(QUESTION, []) == []
    if gate_installed():  # the engine's extractive writer reads with its verifier's gate
        write(tmp_path / "docs", "format.md", GUIDE)
        engine = await Engine.open(
            tmp_path / "index",
            settings=Settings(model="extractive", verifier="trained", embedder="hashing"),
        )
        try:
            assert isinstance(engine.writer, ExtractiveWriter)
            assert engine.writer.scorer is engine.verifier
            modelled = engine.with_writer(LLMWriter(ScriptedModel([]), BUILT_IN))
            asked = modelled.with_model("extractive")  # a request naming the extractive writer
            assert isinstance(asked.writer, ExtractiveWriter)
            assert asked.writer.scorer is engine.verifier
        finally:
            await engine.close()


@pytest.mark.skipif(not available(), reason="the trained verifier needs citesynth[embed]")
def test_a_verifier_pass_runs_on_its_own_threads_whatever_the_embedder_left() -> None:
    import os

    import torch

    gate = TrainedVerifier.load().gate()
    torch.set_num_threads(1)  # as the embedder leaves it after a query's vector
    gate.scores([(QUESTION, "The formatter will not reformat blocks that start with fmt: off.")])
    assert torch.get_num_threads() == gate.threads == min(2, os.cpu_count() or 1)
