"""From per-question records to the `metrics` map, and comparisons between runs.

Metric names are stable (CI compares runs by them). Pooled rates (citation recall and
precision, unsupported claims) are over all claims or citations of the run, as in ALCE;
answer correctness is averaged over answerable questions with gold answers (an abstention
scores 0); abstention counts "unanswerable" as the positive class.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from citesynth.errors import ConfigError
from citesynth.evaluation import metrics
from citesynth.observe import percentile

HIGHER_IS_BETTER = (
    "retrieval_recall_at_k",
    "ndcg_at_10",
    "answer_exact",
    "answer_f1",
    "answer_contains",
    "accuracy",
    "citation_recall",
    "citation_precision",
    "gold_evidence_recall",
    "abstention_precision",
    "abstention_recall",
    "abstention_f1",
    "judge_citation_recall",
    "judge_citation_precision",
)
LOWER_IS_BETTER = ("unsupported_claim_rate", "fallback_rate", "confidence_ece")
TIMING = ("latency_p50_ms", "latency_p95_ms")


def written_answer(record: Mapping[str, Any]) -> bool:
    """Whether `record` is of an answer written and judged: no abstention, no fallback.

    An abstention or a fallback carries no confidence in an answer (it is always 0).
    """
    return (
        "abstained" in record
        and not record["abstained"]
        and not record["fallback"]
        and record.get("correct") is not None
    )


def calibration_pairs(records: Sequence[Mapping[str, Any]]) -> list[tuple[float, bool]]:
    """(confidence, correct) of the written answers (`written_answer`).

    An abstention or a fallback would only blur the curve.
    """
    return [
        (r["confidence"], bool(r["correct"]))
        for r in records
        if written_answer(r) and r.get("confidence") is not None
    ]


def summarise(everything: Sequence[Mapping[str, Any]]) -> dict[str, float | int | None]:
    """The metrics map of one pipeline's records (questions that failed are counted apart)."""
    records = [r for r in everything if "error" not in r]
    answerable = [r for r in records if r["answerable"]]
    synthesized = [r for r in records if "abstained" in r]
    claims = sum(r.get("claims", 0) for r in records)
    citations = sum(r.get("citations", 0) for r in records)
    judged = sum(r.get("judge_claims", 0) for r in records)
    judged_citations = sum(r.get("judge_citations", 0) for r in records)
    abstention = metrics.abstention((r["abstained"], r["answerable"]) for r in synthesized)
    totals = [r["latency_ms"]["total"] for r in records if "total" in r.get("latency_ms", {})]
    scored = calibration_pairs(records)
    judged_correct = [float(r["correct"]) for r in synthesized if r.get("correct") is not None]
    return {
        "questions": len(everything),
        "errors": len(everything) - len(records),
        "retrieval_recall_at_k": _round(metrics.mean(r["retrieval_recall_at_k"] for r in records)),
        "ndcg_at_10": _round(metrics.mean(r["ndcg_at_10"] for r in records)),
        "answer_exact": _round(metrics.mean(r.get("answer_exact") for r in answerable)),
        "answer_f1": _round(metrics.mean(r.get("answer_f1") for r in answerable)),
        "answer_contains": _round(metrics.mean(r.get("answer_contains") for r in answerable)),
        "accuracy": _round(metrics.mean(judged_correct)),
        "citation_recall": _round(
            metrics.ratio(sum(r.get("supported", 0) for r in records), claims)
        ),
        "citation_precision": _round(
            metrics.ratio(sum(r.get("precise", 0) for r in records), citations)
        ),
        "judge_citation_recall": _round(
            metrics.ratio(sum(r.get("judge_supported", 0) for r in records), judged)
        ),
        "judge_citation_precision": _round(
            metrics.ratio(sum(r.get("judge_precise", 0) for r in records), judged_citations)
        ),
        "gold_evidence_recall": _round(
            metrics.mean(r.get("gold_evidence_recall") for r in answerable)
        ),
        "abstention_precision": _round(abstention["precision"]),
        "abstention_recall": _round(abstention["recall"]),
        "abstention_f1": _round(abstention["f1"]),
        "unsupported_claim_rate": _round(
            metrics.ratio(sum(r.get("unsupported", 0) for r in records), claims)
        ),
        "fallback_rate": _round(
            metrics.ratio(sum(1 for r in synthesized if r["fallback"]), len(synthesized))
        ),
        "confidence_ece": _ece(scored),
        "latency_p50_ms": _round(percentile(totals, 0.5), 1),
        "latency_p95_ms": _round(percentile(totals, 0.95), 1),
        "prompt_tokens_mean": _round(metrics.mean(r.get("prompt_tokens") for r in synthesized), 1),
        "completion_tokens_mean": _round(
            metrics.mean(r.get("completion_tokens") for r in synthesized), 1
        ),
        "claims": claims if synthesized else None,
    }


def stage_latency(records: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, float | None]]:
    """p50 and p95 of each pipeline stage's latency, in milliseconds."""
    stages: dict[str, list[float]] = {}
    for record in records:
        for stage, ms in record.get("latency_ms", {}).items():
            stages.setdefault(stage, []).append(ms)
    return {
        stage: {
            "p50": _round(percentile(values, 0.5), 1),
            "p95": _round(percentile(values, 0.95), 1),
        }
        for stage, values in stages.items()
    }


def _ece(scored: list[tuple[float, bool]]) -> float | None:
    if not scored:
        return None
    ece = metrics.reliability(scored)["ece"]
    return ece if isinstance(ece, float) else None


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


@dataclass(frozen=True, slots=True)
class Delta:
    """One metric of one pipeline, before and after."""

    pipeline: str
    metric: str
    before: float | None
    after: float | None
    regression: bool

    @property
    def change(self) -> float | None:
        """After − before (None when either is missing)."""
        if self.before is None or self.after is None:
            return None
        return self.after - self.before


def compare(
    previous: Mapping[str, Any], current: Mapping[str, Any], tolerance: float = 0.02
) -> list[Delta]:
    """Metric deltas between two run summaries, per pipeline both ran.

    A quality metric regresses when it moves the wrong way by more than `tolerance`
    (absolute) or disappears; timings are reported but never gate (shared machines are noisy).
    """
    deltas = []
    before_runs, after_runs = previous.get("runs", {}), current.get("runs", {})
    for pipeline in (p for p in after_runs if p in before_runs):
        before, after = before_runs[pipeline]["metrics"], after_runs[pipeline]["metrics"]
        for metric in (*HIGHER_IS_BETTER, *LOWER_IS_BETTER, *TIMING):
            old, new = before.get(metric), after.get(metric)
            if old is None and new is None:
                continue
            worse = False
            if metric not in TIMING and old is not None:
                if new is None:
                    worse = True
                elif metric in HIGHER_IS_BETTER:
                    worse = new < old - tolerance
                else:
                    worse = new > old + tolerance
            deltas.append(Delta(pipeline, metric, old, new, worse))
    return deltas


def check_comparable(previous: Mapping[str, Any], pipelines: Sequence[str], dataset: str) -> None:
    """Refuse a comparison that could only pass: no pipeline in common, another data set.

    Raises:
        ConfigError: with what differs.
    """
    runs = previous.get("runs")
    if not isinstance(runs, Mapping) or not runs:
        raise ConfigError("the previous run has no 'runs': pass a run folder or its summary.json")
    if not set(runs) & set(pipelines):
        raise ConfigError(
            f"nothing to compare: the previous run has {', '.join(runs)}, "
            f"this one runs {', '.join(pipelines)}"
        )
    if previous.get("dataset") != dataset:
        raise ConfigError(f"the previous run is on {previous.get('dataset')!r}, not {dataset!r}")
