import pytest

from citesynth.evaluation import metrics
from citesynth.evaluation.summary import compare
from citesynth.observe import percentile


def test_normalise_drops_markers_articles_and_punctuation() -> None:
    assert metrics.normalise("The bridge opened in 2009 [1-3], (the) Tower!") == (
        "bridge opened in 2009 tower"
    )


def test_exact_f1_contains_and_recall_against_short_answers() -> None:
    gold = ["G. Stanley Hall", "Stanley Hall"]
    assert metrics.exact_match("g stanley hall [2]", gold) == 1.0
    assert metrics.exact_match("Hall", gold) == 0.0
    assert metrics.contains("Its first president was G. Stanley Hall [1].", gold) == 1.0
    assert metrics.contains("Hallway", gold) == 0.0
    assert metrics.token_f1("Stanley Hall", gold) == 1.0
    assert metrics.token_f1("Hall was first", gold) == pytest.approx(
        2 * (1 / 3) * (1 / 2) / (5 / 6)
    )
    assert metrics.gold_recall("It was Stanley", ["Stanley Hall"]) == 0.5


def test_code_answers_count_as_written() -> None:
    # Normalisation glues "structlog.stdlib.ProcessorFormatter" into one token; read as
    # written, the gold "ProcessorFormatter" is there, but "dump" is not in "dumps".
    answer = (
        "Use `structlog.stdlib.ProcessorFormatter` [1] or "
        "`TestClient(app, raise_server_exceptions=False)` [2]."
    )
    assert metrics.gold_recall(answer, ["ProcessorFormatter"]) == 0.0
    assert metrics.verbatim(answer, ["processorformatter"])
    assert metrics.verbatim(answer, ["raise_server_exceptions"])
    assert not metrics.verbatim("Call `schema.dumps(obj)` [2].", ["dump"])
    assert not metrics.verbatim("anything", [".", ""])
    # a version after its "v"; a glob of symbols only, as code, never as prose
    assert metrics.verbatim("Prior to pip v21.1 [2].", ["21.1"])
    assert not metrics.verbatim("Prior to pip v21.10 [2].", ["21.1"])
    assert metrics.verbatim("start the pattern with a dot, e.g. ``.*`` [1]", [".*"])
    assert not metrics.verbatim("It matches .* files.", [".*"])
    assert not metrics.verbatim("`.`", ["."])  # a placeholder is never judged


def test_placeholder_gold_answers_do_not_count() -> None:
    # ClapNQ ships "." and "" among its gold answers: an empty answer must not match them.
    assert metrics.exact_match("", [".", ""]) is None
    assert metrics.exact_match("", [".", "Sperm motility"]) == 0.0
    assert metrics.token_f1("anything", []) is None


def test_ranking_measures() -> None:
    relevant = {"a": 1, "b": 1}
    assert metrics.recall_at(["x", "a", "y"], relevant, 2) == 0.5
    assert metrics.ndcg_at(["a", "b"], relevant) == pytest.approx(1.0)
    assert metrics.ndcg_at(["x", "a"], relevant) < metrics.ndcg_at(["a", "x"], relevant)


def test_abstention_counts_unanswerable_as_positive() -> None:
    # (abstained, answerable): 2 right abstentions, 1 wrong, 1 missed.
    found = metrics.abstention([(True, False), (True, False), (True, True), (False, False)])
    assert found["precision"] == pytest.approx(2 / 3)
    assert found["recall"] == pytest.approx(2 / 3)
    assert found["f1"] == pytest.approx(2 / 3)
    assert metrics.abstention([(False, True)]) == {"precision": None, "recall": None, "f1": None}
    assert metrics.abstention([(False, True), (False, False)])["precision"] is None


def test_percentile_and_reliability() -> None:
    assert percentile([], 0.5) is None
    assert percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5) == 3.0
    assert percentile(list(map(float, range(1, 101))), 0.95) == 95.0
    calibrated = metrics.reliability([(0.9, True)] * 9 + [(0.9, False)])
    assert calibrated["ece"] == pytest.approx(0.0)
    overconfident = metrics.reliability([(0.9, False)] * 4)
    assert overconfident["ece"] == pytest.approx(0.9)


def _summary(**values: float | None) -> dict[str, object]:
    return {"runs": {"ours": {"metrics": values}}}


def test_compare_flags_drops_beyond_tolerance_and_ignores_timings() -> None:
    before = _summary(answer_f1=0.50, unsupported_claim_rate=0.10, latency_p50_ms=10.0)
    same = compare(
        before, _summary(answer_f1=0.49, unsupported_claim_rate=0.11, latency_p50_ms=90.0)
    )
    assert not any(d.regression for d in same)
    worse = compare(before, _summary(answer_f1=0.40, unsupported_claim_rate=0.20))
    assert {d.metric for d in worse if d.regression} == {"answer_f1", "unsupported_claim_rate"}
    gone = compare(before, _summary(answer_f1=None, unsupported_claim_rate=0.1))
    assert [d.metric for d in gone if d.regression] == ["answer_f1"]
    better = compare(before, _summary(answer_f1=0.9, unsupported_claim_rate=0.0))
    assert not any(d.regression for d in better)
    assert next(d for d in better if d.metric == "answer_f1").change == pytest.approx(0.4)
