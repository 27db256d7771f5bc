"""A model's own "not found" past the gate: the extractive writer answers instead."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.answers import Claim
from citesynth.evaluation.harness import Harness, RunOptions
from citesynth.evaluation.qa_data import EvalItem
from citesynth.events import DoneEvent, SourcesEvent, TokenEvent
from citesynth.llm.fake import ScriptedModel
from citesynth.synthesis.answerability import Gate
from citesynth.synthesis.asked import NO_NUMBER
from citesynth.synthesis.declined import QUOTED, answering, declined, quoted
from citesynth.synthesis.extractive import ExtractiveWriter
from citesynth.synthesis.modes import get_mode
from citesynth.synthesis.pipeline import ask, final_answer
from citesynth.synthesis.prompts import BUILT_IN
from citesynth.synthesis.steps import make_plan, retrieve
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
    sources = events[0]
    assert isinstance(sources, SourcesEvent)
    where = sources.sources[0].location  # the model's [1], which the gate found answering
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
    model = use(gated, NOT_FOUND)
    answer = await gated.answer("zebra migration patterns across the savanna")
    assert len(model.calls) == 1  # past the gate: the model declined
    assert answer.not_found and not _quoted(answer.warnings)


async def test_the_extractive_writer_reads_as_many_passages_as_the_mode_holds(
    gated: Engine,
) -> None:
    model = ScriptedModel([NOT_FOUND])
    gated.writer = LLMWriter(model, BUILT_IN, max_sources=1)  # the model reads one passage
    events = [event async for event in gated.ask(CONNECT)]
    sources, done = events[0], events[-1]
    assert isinstance(sources, SourcesEvent) and isinstance(done, DoneEvent)
    assert len(sources.sources) == 1 and len(done.answer.sources) > 1
    [note] = _quoted(done.answer.warnings)
    assert f"found that {sources.sources[0].location} answers" in note


class FailingScorer(Answerable):
    """A gate that passes every question and a sentence scorer that fails."""

    async def answering(self, question: str, sentences: Sequence[str]) -> list[float]:
        raise RuntimeError("the scorer broke")


async def test_a_failure_of_the_extractive_writer_keeps_the_models_not_found(
    gated: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    gated.verifier = FailingScorer()
    use(gated, NOT_FOUND)
    answer = await gated.answer(CONNECT)
    assert answer.not_found and not _quoted(answer.warnings)
    assert "the scorer broke" in caplog.text  # said, not swallowed


async def test_a_report_section_the_model_leaves_out_is_not_quoted(gated: Engine) -> None:
    use(gated, NOT_FOUND)
    values = {"report_question": CONNECT, "outline": "- Timeouts", "digest": "", "review": ""}
    events = ask(CONNECT, gated.parts(), gated.options(), prompt="report.section", values=values)
    answer = await final_answer(events)
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
    assert quoted(model, model, judged, "a.md") is model  # a not-found quotes nothing
    assert quoted(found.model_copy(update={"claims": []}), model, judged, "a.md") is model
    doubtful = found.model_copy(update={"low_confidence": True})
    assert quoted(doubtful, model, judged, "a.md") is model  # a disclaimer overrules no refusal
    kept = quoted(found, model, judged, "a.md")
    assert kept.answer == found.answer
    assert kept.usage.prompt_tokens == model.usage.prompt_tokens  # the model's tokens
    assert kept.usage.markers == found.usage.markers  # the markers of the text shown
    assert _quoted(kept.warnings) and not _quoted(found.warnings)


async def test_the_warning_names_the_passages_by_where_they_are(gated: Engine) -> None:
    parts, options = gated.parts(), gated.options()
    mode = get_mode(options.mode)
    plan = await make_plan(CONNECT, await retrieve(CONNECT, parts, options, mode), parts, mode)
    first, second = (s.chunk.location for s in plan.sources[:2])
    assert answering(plan, Gate(0.9, 0.5, 2)) == second
    assert answering(plan, Gate(0.9, 0.5, 2, partner=1)) == f"{second} with {first}"
    assert answering(plan, Gate(0.9, 0.5, 99)) == "[99]"  # not among them: its number


async def test_an_eval_record_says_the_answer_was_quoted(gated: Engine) -> None:
    use(gated, NOT_FOUND)
    harness = Harness(gated, RunOptions(pipelines=("ours",), verifier=LexicalVerifier()))
    item = EvalItem("t", CONNECT, ("five seconds",))
    record = await harness.question(item, "ours", synthesize=True)
    assert record["quoted"] and not record["abstained"] and record["correct"]
