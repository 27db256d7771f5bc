import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from citesynth.cli import main
from citesynth.engine import Engine
from citesynth.errors import ConfigError
from citesynth.evaluation.harness import Harness, RunOptions, answered_right
from citesynth.evaluation.qa_data import EvalItem, EvalSet, GoldSource
from citesynth.evaluation.summary import check_comparable, summarise
from citesynth.llm.fake import ScriptedModel
from citesynth.synthesis.writers import LLMWriter
from citesynth.verify import LexicalVerifier, get_verifier
from citesynth.verify.base import Check, Verdict
from citesynth.verify.confidence import SIGNALS, Signals, confidence
from tests.conftest import write

METRICS = (
    "retrieval_recall_at_k ndcg_at_10 answer_exact answer_f1 answer_contains citation_recall "
    "citation_precision gold_evidence_recall abstention_precision abstention_recall "
    "abstention_f1 unsupported_claim_rate latency_p50_ms latency_p95_ms"
).split()

QUESTIONS = [
    {
        "id": "timeout",
        "question": "What is the default connect timeout?",
        "answers": ["five seconds"],
        "gold_sources": ["guide.md"],
    },
    {
        "id": "retries",
        "question": "What is the default limit of retries with exponential backoff?",
        "answers": ["five retries"],
        "gold_sources": ["notes.txt:L3-L3"],
    },
    {
        "id": "cup",
        "question": "Which team won the 1950 football world cup final?",
        "answerable": False,
    },
]


def _questions(root: Path) -> Path:
    return write(root, "questions.jsonl", "".join(json.dumps(q) + "\n" for q in QUESTIONS))


def test_eval_command_runs_ours_and_the_baseline_and_writes_the_run(
    run: CliRunner, corpus: Path, tmp_path: Path
) -> None:
    questions = _questions(tmp_path)
    args = ["eval", str(questions), "--corpus", str(corpus), "--model", "fake", "--cache", "cache"]
    result = run.invoke(main, [*args, "--out", "first", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["dataset"] == "questions" and summary["questions"] == 3
    assert set(METRICS) <= set(summary["metrics"])
    assert summary["runs"]["naive"]["writer"] == "naive:fake"
    ours = summary["runs"]["ours"]["metrics"]
    assert ours["retrieval_recall_at_k"] == 1.0
    assert ours["citation_recall"] is not None and ours["latency_p50_ms"] > 0
    assert ours["abstention_recall"] is not None  # one question is unanswerable
    folder = tmp_path / "first"
    for name in ("summary.json", "summary.md", "records.jsonl", "metrics.png", "latency.png"):
        assert (folder / name).stat().st_size > 0, name
    records = [json.loads(line) for line in (folder / "records.jsonl").read_text().splitlines()]
    assert len(records) == 6 and {r["pipeline"] for r in records} == {"ours", "naive"}
    assert "| citation_recall |" in (folder / "summary.md").read_text()

    options_first = ["eval", "--out", "second", "--compare", "first", *args[1:]]
    same = run.invoke(main, options_first)
    assert same.exit_code == 0, same.output
    assert "regression" not in same.output

    inflated = json.loads((folder / "summary.json").read_text())
    inflated["runs"]["ours"]["metrics"]["citation_recall"] = 2.0
    (folder / "summary.json").write_text(json.dumps(inflated))
    worse = run.invoke(main, [*args, "--out", "third", "--compare", "first/summary.json"])
    assert worse.exit_code == 1
    assert "ours.citation_recall" in worse.output
    assert (tmp_path / "third" / "comparison.md").exists()


def test_eval_help_lists_the_data_sets_and_the_verifier_command(run: CliRunner) -> None:
    result = run.invoke(main, ["eval", "--help"])
    assert result.exit_code == 0
    assert "clapnq" in result.output and "verifier" in result.output


def test_eval_errors_are_one_clear_line(run: CliRunner, tmp_path: Path) -> None:
    result = run.invoke(main, ["eval", "no-such-set"])
    assert result.exit_code == 1
    assert "unknown data set 'no-such-set'" in result.output
    lonely = _questions(tmp_path / "lonely")
    result = run.invoke(main, ["eval", str(lonely)])
    assert result.exit_code == 1 and "--corpus" in result.output


async def test_the_naive_pipeline_is_bm25_unverified_and_restores_the_engine(
    engine: Engine, corpus: Path
) -> None:
    await engine.index([corpus])
    ours = LLMWriter(ScriptedModel(), engine.prompts)
    engine.writer = ours
    embedder = engine.embedder
    harness = Harness(engine, RunOptions(model="fake", verifier=LexicalVerifier()))
    item = EvalItem(
        "t",
        "What does the connect timeout allow?",  # no number asked: the reply states none
        ("establish a connection",),
        gold=(GoldSource("guide.md"),),
    )
    naive = await harness.question(item, "naive", synthesize=True)
    assert engine.embedder is embedder and engine.writer is ours
    assert not naive["verified_by_pipeline"]  # the baseline does not verify its answers
    assert naive["claims"] >= 1  # ... but the harness checks its citations all the same
    mine = await harness.question(item, "ours", synthesize=True)
    assert mine["verified_by_pipeline"]
    assert mine["gold_evidence_recall"] == 1.0 and mine["cited"][0].endswith("guide.md:L1-L7")
    # Each record keeps the signals behind its confidence, so the run can recalibrate it:
    assert naive["signals"] == {} and set(mine["signals"]) == set(SIGNALS)
    assert confidence(Signals(**mine["signals"])) == pytest.approx(mine["confidence"], abs=1e-3)
    retrieval_only = await harness.question(item, "ours", synthesize=False)
    assert "answer" not in retrieval_only and retrieval_only["ndcg_at_10"] == 1.0


async def test_runs_over_a_set_report_progress(engine: Engine, corpus: Path) -> None:
    await engine.index([corpus])
    items = tuple(EvalItem(str(i), q["question"]) for i, q in enumerate(QUESTIONS))
    steps: list[int] = []
    harness = Harness(engine, RunOptions(pipelines=("ours",), verifier=None))
    records = await harness.run(EvalSet("t", "test", corpus, items), steps.append)
    assert len(records) == 3 and sum(steps) == 3
    assert all(r["claims"] == 0 for r in records)  # no verifier: nothing counted


async def test_a_judge_is_reported_separately(engine: Engine, corpus: Path) -> None:
    await engine.index([corpus])
    engine.writer = LLMWriter(ScriptedModel(), engine.prompts)
    judge = get_verifier("judge:fake")  # its replies are not verdicts: it falls back, visibly
    harness = Harness(
        engine, RunOptions(pipelines=("ours",), verifier=LexicalVerifier(), judge=judge)
    )
    item = EvalItem("t", "What does the connect timeout allow?", ("establish a connection",))
    record = await harness.question(item, "ours", synthesize=True)
    assert record["judge_claims"] == record["claims"] >= 1
    summary = summarise([record])
    assert summary["judge_citation_recall"] is not None
    assert summary["citation_recall"] is not None


class BrokenVerifier:
    """A verifier whose service is down: every call raises."""

    name = "broken"

    async def verify(self, checks: Sequence[Check]) -> list[Verdict]:
        raise ConnectionError("judge unreachable")


async def test_a_failing_question_is_recorded_and_the_run_goes_on(
    engine: Engine, corpus: Path
) -> None:
    await engine.index([corpus])
    ours, embedder = engine.writer, engine.embedder
    options = RunOptions(pipelines=("naive",), model="fake", verifier=BrokenVerifier())
    items = (EvalItem("a", "What does the connect timeout allow?", ("establish a connection",)),)
    records = await Harness(engine, options).run(EvalSet("t", "test", corpus, items))
    assert records[0]["error"] == "ConnectionError: judge unreachable"
    assert engine.writer is ours and engine.embedder is embedder
    summary = summarise(records)
    assert summary["errors"] == 1 and summary["questions"] == 1
    assert summary["accuracy"] is None  # nothing invented from a failed question


def test_accuracy_and_calibration_leave_out_what_cannot_be_judged() -> None:
    base = {"pipeline": "ours", "fallback": None, "claims": 0}
    records = [
        base | {"answerable": True, "abstained": False, "correct": True, "confidence": 0.9},
        base | {"answerable": True, "abstained": False, "correct": None, "confidence": 0.9},
        base | {"answerable": False, "abstained": True, "correct": True, "confidence": 0.0},
    ]
    summary = summarise([r | {"retrieval_recall_at_k": None, "ndcg_at_10": None} for r in records])
    assert summary["accuracy"] == 1.0  # the unjudgeable answer is not counted as wrong
    assert summary["confidence_ece"] == 0.1  # only the written, judged answer: |0.9 - 1|
    assert summary["abstention_precision"] == 1.0


def test_a_gold_answer_of_symbols_is_judged_as_written_and_a_placeholder_never() -> None:
    # setuptools: "start the pattern with a dot, e.g. ``.*``"; ClapNQ's "." says nothing
    assert answered_right("e.g. ``.*`` to match ``.gitignore`` [1]", [".*"], abstained=False)
    assert answered_right("Use a pattern [1].", [".*"], abstained=False) is False
    assert answered_right("``.*``", [".*"], abstained=True) is False
    assert answered_right("Anything [1].", [".", ""], abstained=False) is None


def test_comparisons_that_could_only_pass_are_refused() -> None:
    with pytest.raises(ConfigError, match="no 'runs'"):
        check_comparable({}, ("ours",), "clapnq")
    with pytest.raises(ConfigError, match="nothing to compare"):
        check_comparable({"runs": {"ours": {}}, "dataset": "clapnq"}, ("naive",), "clapnq")
    with pytest.raises(ConfigError, match="'musique'"):
        check_comparable({"runs": {"ours": {}}, "dataset": "musique"}, ("ours",), "clapnq")
    check_comparable({"runs": {"ours": {}}, "dataset": "clapnq"}, ("ours", "naive"), "clapnq")


def test_two_question_files_with_one_name_never_share_an_index(
    run: CliRunner, tmp_path: Path
) -> None:
    for name, fact in (("a", "The alpha limit is five seconds."), ("b", "The beta limit is nine.")):
        write(tmp_path, f"{name}/corpus/{name}.md", f"# {name}\n\n{fact}\n")
        write(tmp_path, f"{name}/questions.jsonl", '{"question": "What is the limit?"}\n')
    answers = []
    for name in ("a", "b"):
        args = ["eval", f"{name}/questions.jsonl", "--model", "fake", "--cache", "cache"]
        result = run.invoke(main, [*args, "--pipeline", "ours", "--out", f"run-{name}", "--json"])
        assert result.exit_code == 0, result.output
        record = json.loads((tmp_path / f"run-{name}" / "records.jsonl").read_text())
        answers.append(record["cited"])
    assert answers[0][0].startswith("a.md") and answers[1][0].startswith("b.md")


def test_unreadable_previous_runs_fail_before_the_run(run: CliRunner, tmp_path: Path) -> None:
    write(tmp_path, "old/summary.json", "{not json")
    questions = _questions(tmp_path)
    result = run.invoke(main, ["eval", str(questions), "--compare", "old", "--corpus", "."])
    assert result.exit_code == 1
    assert "cannot read the previous run" in result.output
    assert not (tmp_path / "eval-runs").exists()


async def test_document_figures_do_not_depend_on_k(engine: Engine, tmp_path: Path) -> None:
    # Five documents hold three strongly matching chunks each; the gold document's one
    # weaker chunk is the 16th chunk but the 6th document, so nDCG@10 needs the whole pool.
    docs = tmp_path / "docs"
    section = "Glacier melt rates rise as glacier ice thins; glacier melt feeds rivers. " * 2
    for number in range(5):
        parts = [f"## Part {part}\n\n{section}{number} {part}\n\n" for part in range(3)]
        write(docs, f"survey{number}.md", f"# Survey {number}\n\n" + "".join(parts))
    write(docs, "gold.md", "# Gold\n\nGlacier melt was measured once, in a short note.\n")
    await engine.index([docs])
    item = EvalItem("melt", "glacier melt rates", gold=(GoldSource("gold.md"),))
    figures = []
    for k in (1, 10, 100):
        harness = Harness(engine, RunOptions(pipelines=("ours",), verifier=None, k=k))
        figures.append((await harness.question(item, "ours", synthesize=False))["ndcg_at_10"])
    assert figures[0] == figures[1] == figures[2] > 0


class NoAnswerInSources(LexicalVerifier):
    """The lexical verifier with a gate that finds no passage answering any question."""

    answerable_threshold = 0.5

    async def answerable(
        self, question: str, passages: Sequence[str], retrieval: Sequence[float]
    ) -> list[float]:
        return [0.1] * len(passages)


@pytest.mark.parametrize(
    ("reply", "verifier", "options", "stage"),
    [
        ("The connect timeout defaults to five seconds [1].", LexicalVerifier(), {}, None),
        ("Not found in the sources.", LexicalVerifier(), {}, "writer"),
        ("Pools are powered by hamsters [1].", LexicalVerifier(), {}, "verification"),
        # every claim kept, none saying more than the question (`synthesis.asked`)
        ("The connect timeout allows it [1].", LexicalVerifier(), {}, "verification"),
        ("The connect timeout defaults to five seconds [1].", NoAnswerInSources(), {}, "gate"),
        (
            "The connect timeout defaults to five seconds [1].",
            LexicalVerifier(),
            {"not_found_below": 1.1},
            "retrieval",
        ),
    ],
)
async def test_each_record_says_which_step_answered_not_found(
    engine: Engine,
    corpus: Path,
    reply: str,
    verifier: LexicalVerifier,
    options: dict[str, float],
    stage: str | None,
) -> None:
    await engine.index([corpus])
    engine.writer = LLMWriter(ScriptedModel([reply]), engine.prompts)
    engine.verifier = verifier
    engine.answering = dataclasses.replace(engine.answering, **options)
    harness = Harness(engine, RunOptions(pipelines=("ours",), verifier=LexicalVerifier()))
    item = EvalItem("t", "What does the connect timeout allow?", ("establish a connection",))
    record = await harness.question(item, "ours", synthesize=True)
    assert record["abstained"] is (stage is not None)
    assert record["abstained_at"] == stage
    # what verification took out, and why, is on the record too
    removed = [r["text"] for r in record["removed"]]
    assert removed == (["Pools are powered by hamsters."] if "hamsters" in reply else [])
