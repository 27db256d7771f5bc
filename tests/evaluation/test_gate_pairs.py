"""The gate stage's training pairs (benchmarks/gate_pairs.py) and how such a gate is calibrated."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.calibrate_answerability import calibrated_on_half, calibration_half, roc_auc
from benchmarks.gate_pairs import (
    DOCS_TRAINING,
    calibrates,
    docs_training_file,
    group_of,
    label,
    written_label,
)

from citesynth.evaluation.harness import Ref
from citesynth.evaluation.qa_data import EvalItem, EvalSet, GoldSource, load_set

ANSWER = "The default connect timeout of the client is five seconds for every request."
ITEM = EvalItem(
    id="q1",
    question="What is the default connect timeout?",
    answers=(ANSWER,),
    gold=(GoldSource("timeouts"),),
)


def chunk(record: str, text: str) -> Ref:
    return Ref(record, f"{record}.md", 1, 3, text)


def test_an_unanswerable_question_makes_every_chunk_a_negative() -> None:
    item = EvalItem(id="q2", question="How do I pickle a client?", answerable=False)
    assert label(item, chunk("clients", "Clients hold a connection pool."), "") == 0


def test_a_gold_chunk_holding_the_answer_is_a_positive() -> None:
    text = "Timeouts: the client's default connect timeout is five seconds for every request."
    assert label(ITEM, chunk("timeouts", text), "") == 1


def test_a_chunk_of_another_document_lacking_the_answer_is_a_negative() -> None:
    text = "Proxies are configured with the proxy argument, or read from the environment."
    assert label(ITEM, chunk("proxies", text), "") == 0


def test_unsure_chunks_and_short_answers_give_no_pair() -> None:
    gold_without_answer = chunk("timeouts", "Timeouts are configured per client.")
    other_with_answer = chunk("faq", "Every request has a default connect timeout of five seconds.")
    assert label(ITEM, gold_without_answer, "") is None
    assert label(ITEM, other_with_answer, "") is None
    short = EvalItem(id="q3", question="Is HTTP/2 on by default?", answers=("No",))
    assert label(short, chunk("http2", "HTTP/2 is not enabled by default."), "") is None


def test_a_documentation_chunk_must_share_text_with_the_reference_context() -> None:
    text = "The client's default connect timeout is five seconds for every request."
    assert label(ITEM, chunk("timeouts", text), context=text) == 1
    elsewhere = (
        "Upgrading: the default connect timeout of the client is five seconds for every request."
    )
    assert label(ITEM, chunk("timeouts", elsewhere), context="Unrelated setup steps.") is None


def test_the_gate_report_ranks_answerable_over_unanswerable_questions() -> None:
    assert roc_auc([(0.9, True), (0.2, False), (0.5, True), (0.6, False)]) == 0.75
    assert roc_auc([(0.4, True), (0.4, False)]) == 0.5  # a tie counts half
    assert roc_auc([(0.9, True)]) is None  # one class: nothing to rank


def test_only_a_gate_with_a_gate_stage_is_calibrated_on_half_the_questions() -> None:
    items = tuple(EvalItem(id=str(n), question=f"q{n}?") for n in range(40))
    eval_set = EvalSet("clapnq", "dev", Path("."), items)
    rows = [([(0.5, 0.5, 0.0, False, 0.5)], True) for _ in items]
    half = calibration_half("clapnq", eval_set, rows, half=True)
    assert 0 < len(half) < len(rows)
    assert calibration_half("clapnq", eval_set, rows, half=False) == rows
    assert len(half) == sum(calibrates(f"clapnq:{item.id}") for item in items)
    assert calibrated_on_half({"gate_stage": {"pairs": 10, "epochs": 2}})
    assert not calibrated_on_half({"trained_on": "the recipe"})


def test_written_training_questions_are_trained_on_and_never_calibrate(tmp_path: Path) -> None:
    fixtures = Path(__file__).parents[1] / "fixtures"
    sets = {
        name: load_set(str(fixtures / f"{name}.jsonl"), corpus=tmp_path, cache=tmp_path).items
        for name in (
            "rhdh_unanswerable_training",  # trained on (gate_pairs)
            "rhdh_unanswerable_questions",  # calibrates
            "rhdh_unanswerable_holdout",  # reported on
        )
    }
    training = sets["rhdh_unanswerable_training"]
    assert len(training) == 30 and not any(i.answerable for i in training)
    assert not any(calibrates(f"rhdh-w:{i.id}") for i in training)
    questions = [{i.question for i in items} for items in sets.values()]
    assert sum(map(len, questions)) == len(set().union(*questions))  # no question in two roles


HOWTO = EvalItem(
    id="s01",
    question="How do I set a cookie on a response?",
    answers=("set_cookie",),
    gold=(GoldSource("responses.md", text="set_cookie"),),
)


def test_a_documentation_answer_given_as_code_labels_the_chunks_by_its_string() -> None:
    code = "```python\nresponse.set_cookie(key, value='', max_age=None)\n```"
    assert written_label(HOWTO, Ref(None, "docs/responses.md", 30, 40, code)) == 1
    other = Ref(None, "docs/requests.md", 69, 75, "Cookies are exposed as a regular dictionary.")
    assert written_label(HOWTO, other) == 0
    same_page_without = Ref(None, "docs/responses.md", 5, 20, "Starlette includes a few classes.")
    assert written_label(HOWTO, same_page_without) is None  # the page may say it otherwise
    other_with = Ref(None, "docs/middleware.md", 220, 230, "It calls `set_cookie` for you.")
    assert written_label(HOWTO, other_with) is None
    unanswerable = EvalItem(
        id="su01", question="How do I cache responses in Redis?", answerable=False
    )
    assert written_label(unanswerable, other) == 0


def test_the_written_documentation_questions_name_their_answer_or_the_absent_term(
    tmp_path: Path,
) -> None:
    for name, _ in DOCS_TRAINING:
        path = docs_training_file(name)
        items = load_set(str(path), corpus=tmp_path, cache=tmp_path).items
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        assert len(items) >= 30 and sum(not i.answerable for i in items) >= 8
        for item, row in zip(items, rows, strict=True):
            if item.answerable:  # a page and a verbatim string of the answer on it
                assert len(item.gold) == 1 and item.gold[0].text == item.answers[0]
            else:  # the term checked absent from every page when the question was written
                assert not item.answers and row["absent"]
            group = group_of(f"docs-training-{name}", item)
            assert group == f"dw-{name}:{item.id}" and not calibrates(group)


def test_the_pair_threshold_is_the_lowest_within_the_leak_budget() -> None:
    from benchmarks.calibrate_pair_gate import LEAK_BUDGET, fit_pair, leaked, withheld

    # (single score, best pair's score or None, answerable); the single threshold is 0.3
    unanswerable = [(0.1, 0.9, False), (0.2, 0.6, False)] + [(0.1, 0.2, False)] * 48
    answered_alone = [(0.8, None, True), (0.5, None, False)]
    nested = [(0.1, 0.7, True), (0.2, 0.4, True)]
    tuning = {"wiki": unanswerable + answered_alone, "nested": nested}
    assert leaked(tuning["wiki"], 0.3, 0.6) == 2 / 50
    assert 1 / 50 <= LEAK_BUDGET < 2 / 50
    assert fit_pair(tuning, 0.3) == 0.61  # lets the 0.9 pair through, not the 0.6 one
    assert withheld(nested, 0.3, 0.61) == [(False, True), (True, True)]
    assert withheld(nested, 0.3, None) == [(True, True), (True, True)]
