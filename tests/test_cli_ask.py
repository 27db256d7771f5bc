"""`citesynth ask` and `citesynth chat` on real files, a real index and the shipped writers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from citesynth.answers import Answer
from citesynth.cli import main, print_answer
from citesynth.synthesis.declined import QUOTED

ANSWER_FIELDS = {
    "answer", "citations", "not_found", "fallback", "synthesis_mode", "source_doc_count",
    "confidence", "usage", "request_id", "sources", "claims", "uncited_claims", "warnings",
}  # fmt: skip
CITATION_FIELDS = {
    "number", "path", "title", "page", "start_line", "end_line", "snippet", "multi_source",
    "record", "evidence", "chunk_id", "location",
}  # fmt: skip


def test_ask_with_docs_streams_a_cited_answer_and_its_sources(run: CliRunner, corpus: Path) -> None:
    result = run.invoke(
        main,
        ["ask", "What is the connect timeout default?", "--docs", str(corpus), "--model",
         "extractive"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "five seconds" in result.stdout and "[1]" in result.stdout
    assert "Sources" in result.stdout and "corpus/guide.md:L" in result.stdout


def test_ask_json_is_the_documented_answer_contract(run: CliRunner, corpus: Path) -> None:
    assert run.invoke(main, ["index", str(corpus), "--quiet"]).exit_code == 0
    result = run.invoke(
        main, ["ask", "What is the connect timeout default?", "--model", "fake", "--json"]
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert set(payload) >= ANSWER_FIELDS
    assert payload["citations"] and set(payload["citations"][0]) >= CITATION_FIELDS
    assert payload["citations"][0]["record"]["url"].startswith("file://corpus/guide.md#L")
    Answer.model_validate(payload)  # the JSON parses back into the contract


def test_ask_without_an_index_says_what_to_do(run: CliRunner) -> None:
    result = run.invoke(main, ["ask", "anything?", "--model", "extractive"])
    assert result.exit_code != 0
    assert "citesynth index PATH" in result.output


def test_unknown_model_is_one_clear_line(run: CliRunner, corpus: Path) -> None:
    result = run.invoke(main, ["ask", "q?", "--docs", str(corpus), "--model", "anthropic:x"],
                        env={"ANTHROPIC_API_KEY": ""})  # fmt: skip
    assert result.exit_code == 1
    assert "ANTHROPIC_API_KEY" in result.output and "Traceback" not in result.output


def test_not_found_is_said_plainly(run: CliRunner, corpus: Path) -> None:
    result = run.invoke(
        main, ["ask", "zebra migration in Kenya", "--docs", str(corpus), "--model", "fake"]
    )
    assert result.exit_code == 0, result.output
    assert "Not found in the sources." in result.stdout


def test_a_not_found_shows_what_the_closest_passages_are_about(
    run: CliRunner, corpus: Path
) -> None:
    """Each closest passage with its section and its sentence nearest the question: the
    reader can see one that answers a question worded far from it."""
    result = run.invoke(
        main, ["ask", "zebra migration in Kenya", "--docs", str(corpus), "--model", "fake"]
    )
    assert result.exit_code == 0, result.output
    listed = " ".join(result.stdout.split("Closest passages", 1)[1].split())
    assert "corpus/notes.txt:L1-L3: Retries use exponential backoff." in listed  # no title
    assert "client.py:L17-L19 · def backoff: def backoff(attempt: int) -> float:" in listed


def test_chat_condenses_follow_ups(run: CliRunner, corpus: Path) -> None:
    assert run.invoke(main, ["index", str(corpus), "--quiet"]).exit_code == 0
    result = run.invoke(
        main,
        ["chat", "--model", "extractive"],
        input="What is the connect timeout default?\nand the read one?\n\n",
    )
    assert result.exit_code == 0, result.output
    assert "five seconds" in result.stdout
    assert "searching for: and the read one? (context:" in result.output


def test_control_characters_in_an_answer_never_reach_the_terminal(
    run: CliRunner, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "esc.md").write_text(
        "# Colours\n\nThe terminal turns \x1b[31mred\x1b[0m when the build fails.\n"
    )
    result = run.invoke(
        main,
        ["ask", "When does the terminal turn red?", "--docs", str(docs), "--model", "extractive"],
    )
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stdout and "\x1b" not in result.stderr


def test_a_streamed_draft_finishing_turned_into_a_not_found_is_said_withdrawn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # attrs' docs: the extractive draft streamed, then "Not found in the sources." under
    # "final answer (citations cleaned)", as if only its citations had changed.
    withdrawn = Answer(
        question="What is the maximum number of attributes a class can have?",
        answer="Not found in the sources.",
        not_found=True,
        model="extractive",
        mode="simple",
        request_id="r1",
    )
    print_answer(withdrawn, already_shown="Basically what attrs was in 2015 [8].")
    shown = capsys.readouterr().out
    assert "the draft above does not answer the question" in shown
    assert "citations cleaned" not in shown
    cleaned = withdrawn.model_copy(update={"answer": "It holds ten [1].", "not_found": False})
    print_answer(cleaned, already_shown="It holds ten [1][2].")
    assert "final answer (citations cleaned)" in capsys.readouterr().out


def test_a_declined_question_answered_from_the_sources_is_said_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the model streamed "Not found in the sources."; the gate had found a passage that
    # answers, so the final answer is the extractive writer's (`synthesis.declined`)
    note = f"{QUOTED} although the answerability check found that [1] answers the question"
    answer = Answer(
        question="What is the connect timeout default?",
        answer="It defaults to five seconds [1].",
        warnings=[note],
        model="local",
        mode="simple",
        request_id="r1",
    )
    print_answer(answer, already_shown="Not found in the sources.")
    shown = capsys.readouterr()
    assert "the sources' own sentences (the model found no answer)" in shown.out
    assert "It defaults to five seconds [1]." in shown.out and QUOTED in shown.err
