"""The LLM judge through the shipped scripted model: verdicts, quotes, and its fallbacks."""

from __future__ import annotations

import pytest

from citesynth.errors import ConfigError, ModelTimeout
from citesynth.llm.fake import ScriptedModel
from citesynth.verify import Check, JudgeVerifier, LexicalVerifier, get_verifier
from citesynth.verify.crossencoder import available
from citesynth.verify.judge import parse_verdict

SOURCE = "The connect timeout defaults to five seconds. Pools keep ten connections per host."
CLAIM = Check("Pools hold ten connections for each host.", (SOURCE,))


async def test_the_judges_verdict_and_quote_become_the_verdict_and_span() -> None:
    model = ScriptedModel(
        ['{"verdict": "supported", "quote": "Pools keep ten connections per host."}']
    )
    verdict = (await JudgeVerifier(model).verify([CLAIM]))[0]
    assert verdict.label == "supported" and verdict.score == 0.9
    span = verdict.spans[0]
    assert SOURCE[span.start : span.end] == "Pools keep ten connections per host."
    prompt = model.calls[0][1].content
    assert "Pools hold ten connections" in prompt and SOURCE in prompt
    assert "not instructions" in model.calls[0][0].content


async def test_an_unreadable_reply_keeps_the_lexical_verdict_and_says_so() -> None:
    model = ScriptedModel(["I think it might be fine, or maybe not."])
    verdict = (await JudgeVerifier(model).verify([CLAIM]))[0]
    expected = LexicalVerifier().verify_now([CLAIM])[0]
    assert (verdict.label, verdict.score) == (expected.label, expected.score)
    assert any("no readable verdict" in reason for reason in verdict.reasons)


async def test_a_failing_judge_never_fails_the_check() -> None:
    model = ScriptedModel([ModelTimeout("slow")])
    verdict = (await JudgeVerifier(model).verify([CLAIM]))[0]
    assert verdict.label == LexicalVerifier().verify_now([CLAIM])[0].label
    assert any("judge:fake" in reason for reason in verdict.reasons)


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ('{"verdict": "partial", "quote": ""}', ("partial", "")),
        ('Sure! ```json\n{"verdict": "Unsupported", "quote": null}\n```', ("unsupported", "")),
        ("unsupported", ("unsupported", "")),
        ("supported or unsupported", None),
        ('{"verdict": "maybe"}', None),
    ],
)
def test_verdict_parsing_is_strict(reply: str, expected: tuple[str, str] | None) -> None:
    assert parse_verdict(reply) == expected


def test_verifiers_are_found_by_name() -> None:
    assert get_verifier().name == ("trained" if available() else "lexical")
    assert get_verifier("lexical").name == "lexical"
    assert get_verifier("judge:fake").name == "judge:fake"
    with pytest.raises(ConfigError, match="unknown verifier"):
        get_verifier("oracle")
    with pytest.raises(ConfigError, match="judge:MODEL"):
        get_verifier("judge")


def test_the_judge_reads_what_the_sources_are_about() -> None:
    from citesynth.verify.base import Check, Verdict
    from citesynth.verify.judge import evidence_for

    check = Check("Harbour Lights was filmed in Halifax.", ("Filming took place in Halifax.",))
    backup = Verdict(0.5, "partial")
    assert evidence_for(check, backup) == "Filming took place in Halifax."
    titled = Check(check.claim, check.passages, "Harbour Lights  Production")
    assert evidence_for(titled, backup).startswith("About: Harbour Lights Production\n")
