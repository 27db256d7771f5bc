"""The judge: strict JSON scores (repaired or asked again), revision below 3.5, best kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citesynth import Engine, Settings
from citesynth.llm.fake import ScriptedModel
from citesynth.report.judging import WEIGHTS, parse_judgement
from citesynth.synthesis import LLMWriter
from citesynth.synthesis.prompts import BUILT_IN
from tests.report.test_report import QUESTION, _corpus


def _scores(value: float, **extra: object) -> str:
    return json.dumps({**{k: value for k in WEIGHTS}, "feedback": "ok", **extra})


def test_scores_are_weighed_as_designed() -> None:
    found = parse_judgement(
        '{"factual_accuracy": 5, "completeness": 4, "coverage": 3, "coherence": 2, "bias": 1}',
        "fake",
    )
    assert found.overall == pytest.approx(5 * 0.3 + 4 * 0.25 + 3 * 0.2 + 2 * 0.15 + 1 * 0.1)


def test_a_reply_around_or_outside_json_is_repaired() -> None:
    chatty = "Here you go:\n" + _scores(4) + "\nThanks!"
    assert parse_judgement(chatty, "fake").overall == 4.0
    fields = "factual_accuracy: 4\ncompleteness: 4\ncoverage: 4\ncoherence: 5\nbias: 3"
    assert parse_judgement(fields, "fake").scores["coherence"] == 5.0
    with pytest.raises(ValueError, match="no score for coverage"):
        parse_judgement('{"factual_accuracy": 4, "completeness": 4}', "fake")
    with pytest.raises(ValueError, match="not 1-5"):
        parse_judgement(_scores(7), "fake")


async def test_a_good_report_is_judged_once(engine: Engine, tmp_path: Path) -> None:
    await _corpus(engine, tmp_path / "docs")
    judge = ScriptedModel([_scores(4.5)])
    report = await engine.write_report(QUESTION, judge=judge)
    assert report.judged and report.revisions == 0
    assert [j.overall for j in report.judgements] == [4.5]
    assert len(judge.calls) == 1 and "Connection pool size" in judge.calls[0][0].content
    assert not any(w.startswith("not judged") for w in report.warnings)
    assert report.tokens["judge_prompt"] > 100 and report.tokens["judge_completion"] > 10
    assert "write_prompt" not in report.tokens  # the extractive writer calls no model


async def test_a_low_score_adds_the_missing_subtopic_and_keeps_the_best_version(
    engine: Engine, tmp_path: Path
) -> None:
    await _corpus(engine, tmp_path / "docs")
    judge = ScriptedModel(
        [
            _scores(2, missing=["When are idle connections in the pool closed?"]),
            _scores(4),
            _scores(3),
        ]
    )
    report = await engine.write_report(QUESTION, judge=judge)
    assert report.revisions == 1 and [j.overall for j in report.judgements] == [2.0, 4.0]
    assert report.subtopics[-1].origin == "judge"
    assert report.sections[-1].title == "When are idle connections in the pool closed?"
    assert "closed after five minutes" in report.sections[-1].text
    assert all(c.passed for c in report.checks if c.name in {"structure", "citations"})


async def test_an_unreadable_judge_is_asked_again_then_left_out(
    engine: Engine, tmp_path: Path
) -> None:
    await _corpus(engine, tmp_path / "docs")
    judge = ScriptedModel(["I liked it.", "Really, I did."])
    report = await engine.write_report(QUESTION, judge=judge)
    assert not report.judged and len(judge.calls) == 2
    assert "could not be read" in judge.calls[1][-1].content
    assert any("not judged: the judge's reply could not be read" in w for w in report.warnings)


async def test_a_failing_judge_leaves_the_report_unjudged(engine: Engine, tmp_path: Path) -> None:
    await _corpus(engine, tmp_path / "docs")
    report = await engine.write_report(QUESTION, judge=ScriptedModel([RuntimeError("down")]))
    assert not report.judged and report.sections
    assert any(w.startswith("not judged: the judge failed: down") for w in report.warnings)


async def test_revision_stops_after_two_cycles_and_keeps_the_best_version(
    engine: Engine, tmp_path: Path
) -> None:
    await _corpus(engine, tmp_path / "docs")
    judge = ScriptedModel([_scores(2), _scores(3), _scores(1), _scores(5)])
    report = await engine.write_report(QUESTION, judge=judge)
    assert len(judge.calls) == 3 and report.revisions == 2
    assert sorted(j.overall for j in report.judgements) == [1.0, 2.0, 3.0]
    assert report.judgements[-1].overall == 3.0  # the version kept is judged last


async def test_the_judge_is_named_like_the_verifiers_or_configured(
    engine: Engine, tmp_path: Path
) -> None:
    await _corpus(engine, tmp_path / "docs")
    # `fake` replies with an answer, not scores: named and asked, then left unjudged.
    named = await engine.write_report(QUESTION, judge="judge:fake")
    assert any("not judged: the judge's reply could not be read" in w for w in named.warnings)
    engine.report_judge = "fake"  # what `report_judge` in the settings gives
    assert engine.with_writer(engine.writer).report_judge == "fake"
    report = await engine.write_report(QUESTION)
    assert any("not judged: the judge's reply could not be read" in w for w in report.warnings)
    settings = Settings.from_env({"CITESYNTH_REPORT_JUDGE": "judge:local"})
    assert settings.report_judge == "judge:local"


async def test_a_revision_rewrites_the_sections_with_the_judges_feedback(
    engine: Engine, tmp_path: Path
) -> None:
    await _corpus(engine, tmp_path / "docs")
    writer = ScriptedModel([], default="The default connection pool size is 100 connections [1].")
    engine.writer = LLMWriter(writer, BUILT_IN, timeout=5.0)
    outline = "- Connection pool size\n"
    judge = ScriptedModel([_scores(3, feedback="Give the pool size per client."), _scores(4)])
    report = await engine.write_report(QUESTION, outline=outline, judge=judge, cache=False)
    assert report.revisions == 1 and [j.overall for j in report.judgements] == [3.0, 4.0]
    prompts = [call[-1].content for call in writer.calls]
    assert "Give the pool size per client." not in prompts[0]
    assert "Feedback on the previous version" in prompts[-1]
    assert "Give the pool size per client." in prompts[-1]
