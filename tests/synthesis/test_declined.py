"""A model's own "not found" past the gate: the extractive writer answers instead."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.answers import Claim
from citesynth.events import DoneEvent, TokenEvent
from citesynth.llm.fake import ScriptedModel
from citesynth.synthesis.answerability import Gate
from citesynth.synthesis.asked import NO_NUMBER
from citesynth.synthesis.declined import QUOTED, declined, quoted
from citesynth.synthesis.extractive import ExtractiveWriter
from citesynth.synthesis.prompts import BUILT_IN
from citesynth.synthesis.writers import LLMWriter
from citesynth.verify import LexicalVerifier
from tests.conftest import use

CONNECT = "What is the connect timeout default?"
NOT_FOUND = "Not found in the sources."


class Answerable(LexicalVerifier):
    """The lexical verifier with a gate that finds every question answered by its passages."""

    answerable_threshold = 0.5

    def __init__(self, score: float = 0.9) -> None:
        super().__init__()
        self.score = score

    async def answerable(
        self, question: str, passages: Sequence[str], retrieval: Sequence[float]
    ) -> list[float]:
        return [self.score] * len(passages)


@pytest.fixture
async def gated(engine: Engine, corpus: Path) -> Engine:
    await engine.index([corpus])
    engine.verifier = Answerable()
    return engine


def _quoted(warnings: Sequence[str]) -> list[str]:
    return [w for w in warnings if w.startswith(QUOTED)]


async def test_a_declined_question_the_gate_passed_is_answered_from_the_sources(
    gated: Engine,
) -> None:
    model = use(gated, NOT_FOUND)
    events = [event async for event in gated.ask(CONNECT)]
    streamed = "".join(e.text for e in events if isinstance(e, TokenEvent))
    done = events[-1]
    assert isinstance(done, DoneEvent)
    answer = done.answer
    assert streamed.strip() == NOT_FOUND  # the model's words were streamed as it wrote them
    assert not answer.not_found and "five seconds" in answer.answer
    assert answer.claims and all(c.label == "supported" for c in answer.claims)
    assert answer.citations and answer.citations[0].path == "corpus/guide.md"
    [note] = _quoted(answer.warnings)
    where = answer.citations[0].location  # the passage the gate found answering
    assert f"found that {where} answers the question (score 0.90, threshold 0.50)" in note
    assert answer.usage.prompt_tokens  # the model was called: its tokens count
    assert len(model.calls) == 1  # and only once


async def test_without_a_gate_the_models_not_found_stands(engine: Engine, corpus: Path) -> None:
    await engine.index([corpus])  # the lexical verifier: no answerability score
    use(engine, NOT_FOUND)
    answer = await engine.answer(CONNECT)
    assert answer.not_found and not _quoted(answer.warnings)


async def test_a_not_found_the_gate_decided_is_not_overruled(gated: Engine) -> None:
    gated.verifier = Answerable(score=0.2)
    model = use(gated, NOT_FOUND)
    answer = await gated.answer(CONNECT)
    assert answer.not_found and not _quoted(answer.warnings) and model.calls == []


async def test_an_answer_verification_emptied_is_not_overruled(gated: Engine) -> None:
    use(gated, "Pools are powered by hamsters [1].")
    answer = await gated.answer(CONNECT)
    assert answer.not_found and not _quoted(answer.warnings)
    assert [c.text for c in answer.removed_claims] == ["Pools are powered by hamsters."]


async def test_when_the_sources_answer_nothing_either_the_not_found_stands(
    gated: Engine,
) -> None:
    # nothing is relevant, but retrieval is told to let it through and the gate passes it
    gated.answering = dataclasses.replace(gated.answering, not_found_below=0.0)
    use(gated, NOT_FOUND)
    answer = await gated.answer("zebra migration patterns in Kenya")
    assert answer.not_found and not _quoted(answer.warnings)


async def test_the_extractive_writer_is_never_overruled_by_itself(gated: Engine) -> None:
    answer = await gated.answer(CONNECT)  # the engine's default writer is the extractive one
    assert not answer.not_found and not _quoted(answer.warnings)


async def test_only_a_model_writers_own_not_found_past_the_gate_counts_as_declined(
    engine: Engine, corpus: Path
) -> None:
    await engine.index([corpus])
    use(engine, NOT_FOUND)
    answer = await engine.answer(CONNECT)  # no gate: the model's not-found stands
    passed, withheld = Gate(0.9, 0.5, 1), Gate(0.2, 0.5, 1)
    model = LLMWriter(ScriptedModel(), BUILT_IN)
    assert declined(answer, passed, model)
    assert not declined(answer, None, model)  # no gate ran
    assert not declined(answer, withheld, model)  # the gate said not found itself
    assert not declined(answer, passed, ExtractiveWriter(None))  # never itself
    claim = (await supported_claims(engine))[0]
    emptied = answer.model_copy(update={"removed_claims": [claim]})
    assert not declined(emptied, passed, model)  # what it wrote was removed
    unasked = answer.model_copy(update={"warnings": [NO_NUMBER]})
    assert not declined(unasked, passed, model)  # it stated no number asked for
    assert not declined(answer.model_copy(update={"not_found": False}), passed, model)


async def test_a_model_that_only_pointed_at_sources_declined_too(gated: Engine) -> None:
    use(gated, "Timeouts guide [1]\nPool limits [2]")  # headings, no statement
    answer = await gated.answer(CONNECT)
    assert _quoted(answer.warnings) and "five seconds" in answer.answer


async def supported_claims(engine: Engine) -> list[Claim]:
    """The claims of an answer the scripted model writes and the sources support."""
    use(engine, "The connect timeout defaults to five seconds [1].")
    return list((await engine.answer(CONNECT, cache=False)).claims)


async def test_the_quoted_answer_stands_only_when_it_kept_a_claim_with_confidence(
    engine: Engine, corpus: Path
) -> None:
    await engine.index([corpus])
    use(engine, NOT_FOUND)
    model = await engine.answer(CONNECT)
    use(engine, "The connect timeout defaults to five seconds [1].")
    found = await engine.answer(CONNECT, cache=False)
    judged = Gate(0.9, 0.5, 1)
    assert quoted(model, model, judged) is model  # a not-found quotes nothing
    assert quoted(found.model_copy(update={"claims": []}), model, judged) is model
    doubtful = found.model_copy(update={"low_confidence": True})
    assert quoted(doubtful, model, judged) is model  # a disclaimer overrules no refusal
    kept = quoted(found, model, judged)
    assert kept.answer == found.answer and kept.usage == model.usage
    assert _quoted(kept.warnings) and not _quoted(found.warnings)
