"""Verification in the answer pipeline: verdicts in the answer, the stream and the terminal;
repair, strict mode, conflicts in the prompt, confidence from verified support."""

from __future__ import annotations

from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.cli import print_answer
from citesynth.events import VerificationEvent
from citesynth.llm.fake import ScriptedModel
from citesynth.synthesis import LLMWriter
from citesynth.synthesis.prompts import BUILT_IN
from tests.conftest import write

CONNECT = "What is the connect timeout default?"
GOOD = "The connect timeout defaults to five seconds [1]."
INVENTED = "Connections are encrypted with a rotating key every hour [1]."


@pytest.fixture
async def indexed(engine: Engine, corpus: Path) -> Engine:
    await engine.index([corpus])
    return engine


def use(engine: Engine, *replies: object) -> ScriptedModel:
    model = ScriptedModel(list(replies))  # type: ignore[arg-type]
    engine.writer = LLMWriter(model, BUILT_IN, timeout=5.0)
    return model


async def test_claims_citations_and_the_stream_carry_verdicts(indexed: Engine) -> None:
    use(indexed, f"{GOOD} {INVENTED}")
    events = [event async for event in indexed.ask(CONNECT)]
    verification = next(e for e in events if isinstance(e, VerificationEvent))
    answer = events[-1].answer  # type: ignore[union-attr]
    assert [c.label for c in answer.claims] == ["supported", "unsupported"]
    assert verification.summary == answer.verification
    assert answer.verification is not None and answer.verification.verifier == "lexical"
    assert answer.verification.citation_recall == 0.5
    evidence = answer.claims[0].evidence[0]
    assert "defaults to five seconds" in evidence.text and evidence.number == 1
    assert answer.citations[0].support == "supported"
    assert any("not supported" in warning for warning in answer.warnings)


async def test_confidence_rises_with_verified_support(indexed: Engine) -> None:
    use(indexed, GOOD, f"{GOOD} {INVENTED}")
    good = await indexed.answer(CONNECT, cache=False)
    mixed = await indexed.answer(CONNECT, cache=False)
    assert good.confidence > mixed.confidence


async def test_the_terminal_flags_unsupported_claims(
    indexed: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    use(indexed, f"{GOOD} {INVENTED}")
    print_answer(await indexed.answer(CONNECT))
    shown = capsys.readouterr()
    assert "✗ unsupported" in shown.out and "rotating key" in shown.out
    assert "✓ supported" in shown.out
    assert "1/2 claims supported" in shown.err


async def test_strict_mode_rewrites_with_feedback_and_removes_what_stays_unsupported(
    indexed: Engine,
) -> None:
    model = use(indexed, f"{GOOD} {INVENTED}", f"{GOOD} Requests are signed with HMAC keys [1].")
    answer = await indexed.answer(CONNECT, strict=True)
    retry = model.calls[1][-1].content
    assert "rotating key" in retry and "do not support" in retry
    assert answer.answer == GOOD
    assert answer.verification is not None
    assert answer.verification.regenerated and answer.verification.removed == 1
    assert [c.label for c in answer.claims] == ["supported"]


async def test_conflicting_sources_reach_the_prompt_and_the_answer(
    engine: Engine, tmp_path: Path
) -> None:
    root = tmp_path / "docs"
    write(
        root,
        "old.md",
        "# Limits\n\nThe upload size limit for one file is 10 MB on the free plan.\n",
    )
    write(
        root,
        "new.md",
        "# Limits\n\nThe upload size limit for one file is 25 MB on the free plan.\n",
    )
    await engine.index([root])
    model = use(engine, "The upload limit is 10 MB [1] or 25 MB [2].")
    answer = await engine.answer("What is the upload size limit for one file?")
    assert [(c.kind, sorted(c.values)) for c in answer.conflicts] == [
        ("number", ["10 MB", "25 MB"])
    ]
    prompt = model.calls[0][-1].content
    assert "these sources disagree" in prompt and "10 MB" in prompt and "25 MB" in prompt


async def test_verification_can_be_turned_off(indexed: Engine) -> None:
    use(indexed, GOOD)
    answer = await indexed.answer(CONNECT, verify=False)
    assert answer.verification is None
    assert {c.label for c in answer.claims} == {"unchecked"}


async def test_the_disclaimer_names_the_cause_of_low_confidence(indexed: Engine) -> None:
    use(indexed, f"{GOOD} {INVENTED}", GOOD)
    mixed = await indexed.answer(CONNECT, low_confidence_below=1.0, cache=False)
    good = await indexed.answer(CONNECT, low_confidence_below=1.0, cache=False)
    assert mixed.disclaimer is not None and "partly support" in mixed.disclaimer
    assert good.disclaimer is not None and "match the question only weakly" in good.disclaimer
