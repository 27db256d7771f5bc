"""The answering steps are public: a different kind of writing composes them without copying.

A "brief" (a stand-in for a report section) registers its own prompt family and runs
retrieve → make_plan → write → finish itself; `ask` is only one composition of the same steps.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import get_type_hints

import pytest

from citesynth import AskOptions, AskOverrides, Engine, Prompt, register_prompt
from citesynth.answers import Answer
from citesynth.events import (
    ANSWER_EVENTS,
    CitationEvent,
    DoneEvent,
    ErrorEvent,
    SourcesEvent,
    TokenEvent,
    sse,
)
from citesynth.llm.fake import ScriptedModel
from citesynth.synthesis import LLMWriter
from citesynth.synthesis.answerability import question_parts
from citesynth.synthesis.drafting import Draft, tidy, write
from citesynth.synthesis.finishing import Finishing, Header, finish
from citesynth.synthesis.modes import MODE_NAMES, MODES, get_mode
from citesynth.synthesis.prompts import BUILT_IN
from citesynth.synthesis.steps import make_plan, retrieve


@pytest.fixture
async def indexed(engine: Engine, corpus: Path) -> Engine:
    await engine.index([corpus])
    return engine


@pytest.fixture
def brief_prompts() -> dict[str, Prompt]:
    system = Prompt("brief.system", "1", "Write a brief for {audience}. Cite sources as [n].")
    user = Prompt("brief.user", "1", "Topic: {question}\n\n{sources}\n\nBrief for {audience}:")
    for prompt in (system, user):
        register_prompt(prompt, replace=True)
    yield dict(BUILT_IN)
    for prompt in (system, user):
        BUILT_IN.pop(prompt.name)


async def test_a_new_kind_of_writing_composes_the_public_steps(
    indexed: Engine, brief_prompts: dict[str, Prompt]
) -> None:
    model = ScriptedModel(["The read timeout limits how long the client waits for data [1]."])
    engine = indexed.with_writer(LLMWriter(model, brief_prompts, timeout=5.0))
    parts, mode = engine.parts(), get_mode("simple")
    options = engine.options(not_found_below=0.0)

    found = await retrieve("read timeout", parts, options, mode)
    plan = await make_plan(
        "read timeout", found, parts, mode, prompt="brief", values={"audience": "operators"}
    )
    draft = Draft()
    events = [event async for event in write(parts.writer, plan, draft)]
    tidy(draft, plan.sources, attribute_uncited=True, require_citations=True)
    header = Header.of("read   timeout", parts.writer.name, mode.name)
    answer = await finish(header, plan, draft, Finishing(verifier=parts.verifier))

    system, user = model.calls[0]
    assert system.content == "Write a brief for operators. Cite sources as [n]."
    assert user.content.startswith("Topic: read timeout\n\n")
    assert "The read timeout limits how long the client waits" in user.content
    assert user.content.endswith("Brief for operators:")
    assert any(isinstance(e, CitationEvent) and e.numbers == (1,) for e in events)
    assert answer.question == "read timeout" and len(header.request_id) == 16
    assert answer.citations[0].number == 1 and answer.claims[0].label == "supported"
    assert answer.sources[0].chunk_id == found.hits[0].chunk.id


async def test_a_family_without_multi_source_templates_uses_its_plain_ones(
    indexed: Engine, brief_prompts: dict[str, Prompt]
) -> None:
    model = ScriptedModel()
    engine = indexed.with_writer(LLMWriter(model, brief_prompts))
    parts, mode = engine.parts(), get_mode("simple")
    found = await retrieve("timeout", parts, engine.options(), mode)
    plan = await make_plan("timeout", found, parts, mode, prompt="brief", values={"audience": "x"})
    grouped = dataclasses.replace(plan, grouped=True)
    messages = parts.writer.messages(grouped)  # type: ignore[attr-defined]
    assert messages[0].content.startswith("Write a brief for x.")


def test_overrides_name_exactly_the_fields_of_ask_options() -> None:
    fields = {field.name: field.type for field in dataclasses.fields(AskOptions)}
    hints = get_type_hints(AskOverrides)
    assert set(hints) == set(fields)
    resolved = get_type_hints(AskOptions)
    assert all(hints[name] == resolved[name] for name in hints)


def test_modes_are_defined_once() -> None:
    assert set(MODE_NAMES) == set(MODES)
    assert all(MODES[name].name == name for name in MODE_NAMES)


def test_every_answer_event_round_trips_through_its_wire_form() -> None:
    answer = Answer(question="q", answer="A [1].", model="fake", mode="simple", request_id="r1")
    events = [
        SourcesEvent(request_id="r1", sources=()),
        TokenEvent(text="A "),
        CitationEvent(numbers=(1,), citations=()),
        ErrorEvent(request_id="r1", message="boom", fallback=()),
        DoneEvent(answer=answer),
    ]
    for event in events:
        frame = sse(event).decode()
        name, data = frame.removesuffix("\n\n").split("\n")
        assert name == f"event: {event.kind}"
        assert ANSWER_EVENTS.validate_json(data.removeprefix("data: ")) == event
    body = DoneEvent(answer=answer).model_dump(mode="json")
    assert body["kind"] == "done" and body["answer"] == "A [1]." and body["request_id"] == "r1"


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "What is the connect timeout, and are failed requests retried?",
            ["What is the connect timeout?", "are failed requests retried?"],
        ),
        ("what is aws and what does it provide", ["what is aws?", "what does it provide?"]),
        ("Who founded the HTTPX project, and in which year?", None),  # "in which year" alone
        ("Are cats and dogs friends?", None),  # "and" joins two nouns
        ("The pool and how it works?", None),  # not a question form
        ("What is X, and is it?", None),  # a part under three words
    ],
)
def test_a_compound_question_splits_into_its_questions(
    question: str, parts: list[str] | None
) -> None:
    assert question_parts(question) == (parts or [question])
