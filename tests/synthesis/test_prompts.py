"""Prompts: every built-in template rendered and compared with its snapshot; overrides."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from citesynth.errors import ConfigError
from citesynth.llm.fake import ScriptedModel
from citesynth.synthesis.prompts import BUILT_IN, load, version_of
from citesynth.synthesis.writers import LLMWriter, Plan

SNAPSHOTS = Path(__file__).resolve().parents[1] / "snapshots" / "prompts"
VALUES = {
    "question": "How long is the connect timeout?",
    "sources": "[1] docs/timeouts.md L40-58\nThe connect timeout defaults to five seconds.",
    "history": "User: How are retries done?\nAssistant: With exponential backoff [1].",
    "least": "3",
    "most": "8",
    "subtopics": "- Connect timeout\n- Read timeout",
    "report_question": "How does the client handle timeouts?",
    "outline": "- Connect timeout\n- Read timeout",
    "digest": "- Connect timeout: The connect timeout is five seconds.",
    "review": "Feedback on the previous version of the report (address it where the sources "
    "allow):\nSay what the read timeout's default is.\n",
    "report": "# Timeouts\n\n## Executive Summary\n\nThe connect timeout is five seconds [1].",
}


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_rendered_prompt_matches_its_snapshot(name: str) -> None:
    prompt = BUILT_IN[name]
    rendered = f"# {prompt.name} v{prompt.version}\n{prompt.render(**VALUES)}\n"
    snapshot = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        snapshot.write_text(rendered, encoding="utf-8")
    assert snapshot.exists(), f"no snapshot for {name}: run with UPDATE_SNAPSHOTS=1"
    assert rendered == snapshot.read_text(encoding="utf-8"), (
        f"prompt {name} changed: bump its version and run with UPDATE_SNAPSHOTS=1"
    )


def test_a_file_overrides_a_prompt_and_changes_the_version(tmp_path: Path) -> None:
    (tmp_path / "answer.user.txt").write_text("Q: {question}\nS: {sources}\n", encoding="utf-8")
    prompts = load(tmp_path)
    assert prompts["answer.user"].render(question="q", sources="s") == "Q: q\nS: s\n"
    assert prompts["answer.user"].version.startswith("file:")
    assert prompts["answer.system"] == BUILT_IN["answer.system"]
    assert version_of(prompts) != version_of(BUILT_IN)


def test_bad_overrides_are_reported_at_load_time(tmp_path: Path) -> None:
    (tmp_path / "answer.usr.txt").write_text("{question}", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"no prompt is called 'answer\.usr'"):
        load(tmp_path)
    (tmp_path / "answer.usr.txt").unlink()
    (tmp_path / "answer.user.txt").write_text("{question} {context}", encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown placeholder"):
        load(tmp_path)
    with pytest.raises(ConfigError, match="does not exist"):
        load(tmp_path / "missing")


def test_a_yes_no_question_is_shown_as_what_the_sources_say_about_it() -> None:
    writer = LLMWriter(ScriptedModel(), BUILT_IN)
    polar = Plan("Does runserver reload my code?", (), grouped=False, max_tokens=100)
    told = writer.messages(polar)[1].content
    assert told.startswith("Question: What do the sources say about this: Does runserver")
    assert told.count("What do the sources say about this:") == 2  # both times it is asked
    other = Plan("How do I reload my code?", (), grouped=False, max_tokens=100)
    assert "What do the sources say" not in writer.messages(other)[1].content
    # a report's own prompts are worded for their task: not rewritten
    section = replace(polar, prompt="report.section", values=VALUES)
    assert "What do the sources say" not in "".join(m.content for m in writer.messages(section))
