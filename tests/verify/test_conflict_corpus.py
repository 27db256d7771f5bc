"""The conflict corpus: every writer states both sides, each with its own citation, and no
answer claims agreement (issue: no false consensus)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.evaluation.conflict_set import ConflictCase, judge, load_cases
from citesynth.llm.fake import ScriptedModel
from citesynth.synthesis import ExtractiveWriter, LLMWriter
from citesynth.synthesis.prompts import BUILT_IN
from tests.conftest import write

CASES = load_cases(Path(__file__).parents[1] / "fixtures" / "conflicts.jsonl")


async def _indexed(engine: Engine, root: Path, case: ConflictCase) -> Engine:
    write(root, "a.md", case.first)
    write(root, "b.md", case.second)
    await engine.index([root])
    return engine


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
async def test_the_extractive_writer_states_both_sides(
    engine: Engine, tmp_path: Path, case: ConflictCase
) -> None:
    await _indexed(engine, tmp_path / "docs", case)
    engine.writer = ExtractiveWriter(engine.embedder)
    answer = await engine.answer(case.question, cache=False)
    handling = judge(case, answer)
    assert handling.correct, (answer.answer, handling)
    assert answer.low_confidence and "disagree" in (answer.disclaimer or "")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
async def test_a_model_claiming_consensus_is_corrected(
    engine: Engine, tmp_path: Path, case: ConflictCase
) -> None:
    await _indexed(engine, tmp_path / "docs", case)
    sentence = case.first.split("\n")[2 if case.first.count("\n") > 2 else -1].strip()
    reply = f"Multiple sources report that {sentence[0].lower()}{sentence[1:-1]} [1,2]."
    engine.writer = LLMWriter(ScriptedModel([reply]), BUILT_IN, timeout=5.0)
    answer = await engine.answer(case.question, cache=False)
    handling = judge(case, answer)
    assert handling.correct, (answer.answer, handling)
    assert "Multiple sources" not in answer.answer


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
async def test_a_model_saying_not_found_gets_the_disagreement_instead(
    engine: Engine, tmp_path: Path, case: ConflictCase
) -> None:
    """Sources that disagree on exactly what was asked do answer it, twice."""
    await _indexed(engine, tmp_path / "docs", case)
    engine.writer = LLMWriter(ScriptedModel(["Not found in the sources."]), BUILT_IN, timeout=5.0)
    answer = await engine.answer(case.question, cache=False)
    handling = judge(case, answer)
    assert handling.correct, (answer.answer, handling)
    assert not answer.not_found and "Not found" not in answer.answer


def _title_cased(markdown: str, suffix: str) -> str:
    """The page with its heading in Title Case and `suffix` added, as many docs sites title."""
    return re.sub(
        r"^# (.*)$",
        lambda m: "# " + " ".join(w.capitalize() for w in m.group(1).split()) + suffix,
        markdown,
        count=1,
        flags=re.M,
    )


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
async def test_title_case_page_titles_do_not_hide_the_disagreement(
    engine: Engine, tmp_path: Path, case: ConflictCase
) -> None:
    write(tmp_path / "docs", "a.md", _title_cased(case.first, " Guide"))
    write(tmp_path / "docs", "b.md", _title_cased(case.second, " Reference"))
    await engine.index([tmp_path / "docs"])
    engine.writer = ExtractiveWriter(engine.embedder)
    answer = await engine.answer(case.question, cache=False, not_found_below=0.0)
    assert answer.conflicts, [c.title for c in answer.sources]
