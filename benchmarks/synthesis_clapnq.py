"""Answer quality on ClapNQ dev: 100 questions, half of them unanswerable from the corpus.

Systems, in the same run and on the same retrieval: `local` (the embedded model with the
grounding prompt, evidence selection, cleanup and attribution), `extractive` (no model) and
a naive baseline (`naive:local`: plain prompt over the full chunks, no multi-source mode, no
cleanup or attribution, no fallback on uncited answers). `local+full-chunks` is `local`
without evidence selection, to measure what cutting sources to their key sentences costs.

Metrics
- correctness: an answerable question is answered (not abstained) with at least half of the
  gold answer's content terms (best over the gold answers); an unanswerable one is abstained.
- cited: share of non-abstaining answers with at least one valid citation (raw markers for
  the naive baseline); gold_cited: share of answered answerable questions citing a gold passage.
- invalid_marker_rate: markers naming no source / all markers, before cleanup.
- not-found precision and recall, with "unanswerable" as the positive class.

The 100-question report slice is fixed (50 + 50, by hash of the id); the other 500
questions are the tuning slice, used only for the retrieval not-found gate diagnostic.

    python -m benchmarks.synthesis_clapnq [--systems local,extractive,naive:local] [--limit N]
    # the quality cost of evidence selection, paired with local's logged answers:
    python -m benchmarks.synthesis_clapnq --systems local+full-chunks --limit 20 \
        --paired-with local --out benchmarks/results/synthesis_clapnq_evidence.json
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import hashlib
import json
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.common import CACHE, DATA, RESULTS, require, write_result
from citesynth import Engine, Settings
from citesynth.analysis import terms
from citesynth.answers import Answer
from citesynth.synthesis import get_writer

SYSTEMS = ("extractive", "local", "naive:local")


def questions() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The report slice (50 answerable + 50 unanswerable) and the tuning slice (the rest)."""
    path = require(DATA / "clapnq_dev" / "questions.jsonl")
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    rows.sort(key=lambda row: hashlib.sha1(row["id"].encode()).hexdigest())
    report = [r for r in rows if r["answerable"]][:50] + [r for r in rows if not r["answerable"]][
        :50
    ]
    chosen = {r["id"] for r in report}
    return report, [r for r in rows if r["id"] not in chosen]


def recall(answer: str, gold: list[dict[str, Any]]) -> float:
    """Best share of a gold answer's content terms found in `answer`."""
    mine = set(terms(answer))
    scores = [
        len(mine & set(terms(g["answer"]))) / len(set(terms(g["answer"])))
        for g in gold
        if terms(g["answer"])
    ]
    return max(scores, default=0.0)


def judge(row: dict[str, Any], answer: Answer, naive: bool) -> dict[str, Any]:
    """One answer's scores."""
    abstained = answer.not_found
    record_of = {source.number: source.url.rsplit("#", 1)[-1] for source in answer.sources}
    gold = set(row["passage_ids"])
    valid = answer.usage.markers > answer.usage.invalid_markers if naive else bool(answer.citations)
    cites_gold = any(record_of.get(c.number) in gold for c in answer.citations)
    term_recall = recall(answer.answer, row["gold_answers"]) if row["answerable"] else 0.0
    correct = (not abstained and term_recall >= 0.5) if row["answerable"] else abstained
    return {
        "id": row["id"],
        "answerable": row["answerable"],
        "abstained": abstained,
        "fallback": answer.fallback.reason if answer.fallback else None,
        "correct": correct,
        "term_recall": round(term_recall, 3),
        "valid_citation": valid,
        "cites_gold": cites_gold,
        "markers": answer.usage.markers,
        "invalid_markers": answer.usage.invalid_markers,
        "latency_ms": answer.usage.latency_ms.get("total", 0.0),
        "answer": answer.answer[:600],
        "retrieved_gold": bool(set(record_of.values()) & gold),
    }


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Aggregate scores for one system."""
    answered = [r for r in rows if not r["abstained"]]
    answerable = [r for r in rows if r["answerable"]]
    unanswerable = [r for r in rows if not r["answerable"]]
    abstained = [r for r in rows if r["abstained"]]
    markers = sum(r["markers"] for r in rows)
    true_abstain = sum(1 for r in abstained if not r["answerable"])
    answered_answerable = [r for r in answerable if not r["abstained"]]
    return {
        "questions": len(rows),
        "correctness": round(statistics.mean(r["correct"] for r in rows), 3),
        "correct_answerable": round(statistics.mean(r["correct"] for r in answerable), 3),
        "correct_unanswerable": round(statistics.mean(r["correct"] for r in unanswerable), 3),
        "mean_term_recall_answerable": round(
            statistics.mean(r["term_recall"] for r in answerable), 3
        ),
        "cited_share": round(sum(r["valid_citation"] for r in answered) / len(answered), 3)
        if answered
        else None,
        "gold_cited_share": round(
            sum(r["cites_gold"] for r in answered_answerable) / len(answered_answerable), 3
        )
        if answered_answerable
        else None,
        "invalid_marker_rate": round(sum(r["invalid_markers"] for r in rows) / markers, 3)
        if markers
        else 0.0,
        "not_found_precision": round(true_abstain / len(abstained), 3) if abstained else None,
        "not_found_recall": round(true_abstain / len(unanswerable), 3),
        "fallback_rate": round(sum(1 for r in rows if r["fallback"]) / len(rows), 3),
        "latency_ms_mean": round(statistics.mean(r["latency_ms"] for r in rows), 1),
        "latency_ms_p95": round(
            sorted(r["latency_ms"] for r in rows)[int(0.95 * (len(rows) - 1))], 1
        ),
    }


async def gate_diagnostic(engine: Engine, tuning: list[dict[str, Any]]) -> dict[str, Any]:
    """How well the best hit's Pass-1 confidence alone separates unanswerable questions."""
    scored = []
    for row in tuning:
        hits = await engine.search(row["question"], 1)
        scored.append((hits[0].confidence if hits else 0.0, row["answerable"]))
    positives = [s for s, a in scored if a]
    negatives = [s for s, a in scored if not a]
    auc = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives) / (
        len(positives) * len(negatives)
    )
    below = {
        str(t): round(sum(1 for s in negatives if s < t) / len(negatives), 3)
        for t in (0.05, 0.1, 0.2, 0.3)
    }
    wrongly = {
        str(t): round(sum(1 for s in positives if s < t) / len(positives), 3)
        for t in (0.05, 0.1, 0.2, 0.3)
    }
    return {
        "auc_answerable_vs_unanswerable": round(auc, 3),
        "unanswerable_below_threshold": below,
        "answerable_below_threshold": wrongly,
        "note": "ClapNQ's unanswerable questions come with an on-topic passage, so the "
        "retrieval gate cannot catch them; the writer must.",
    }


async def main(systems: list[str], limit: int | None, paired: Sequence[str] = ()) -> dict[str, Any]:
    report, tuning = questions()
    if limit:
        report = report[: limit // 2] + report[50 : 50 + limit - limit // 2]
    corpus = require(DATA / "clapnq_dev" / "corpus.jsonl")
    settings = Settings(index_dir=CACHE / "transfer-clapnq", embedder="minilm", model="extractive")
    results: dict[str, Any] = {}
    log_dir = CACHE / "synthesis-clapnq"
    log_dir.mkdir(parents=True, exist_ok=True)
    async with await Engine.open(settings=settings) as engine:
        await engine.index([corpus])
        results["retrieval_gate"] = await gate_diagnostic(engine, tuning)
        for name in systems:
            full = name.endswith("+full-chunks")  # evidence selection off: its quality cost
            engine.writer = get_writer(
                name.removesuffix("+full-chunks"), embedder=engine.embedder, prompts=engine.prompts
            )
            if full:
                engine.writer.evidence_tokens = None
            naive = name.startswith("naive:")
            options: dict[str, Any] = {"cache": False}
            if naive:
                options |= {"require_citations": False, "attribute": False}
            rows = []
            started = time.perf_counter()
            for index, row in enumerate(report, start=1):
                answer = await engine.answer(row["question"], **options)
                rows.append(judge(row, answer, naive))
                if index % 10 == 0:
                    print(f"{name}: {index}/{len(report)}", flush=True)
            (log_dir / f"{name.replace(':', '_')}.jsonl").write_text(
                "".join(json.dumps(r) + "\n" for r in rows)
            )
            results[name] = summarise(rows) | {
                "seconds": round(time.perf_counter() - started, 1),
                "measured": datetime.date.today().isoformat(),
                "answer_prompt_version": engine.prompts["answer.system"].version,
            }
            print(name, json.dumps(results[name]), flush=True)
    for name in paired:
        results[f"{name} (same questions, logged run)"] = _from_log(log_dir, name, report)
    return {"systems": results, "report_slice": len(report), "k_sources": 5}


def _from_log(log_dir: Path, name: str, report: list[dict[str, Any]]) -> dict[str, Any]:
    """A system's scores on `report`, read from the log of an earlier, larger run."""
    log = require(log_dir / f"{name.replace(':', '_')}.jsonl")
    logged = {row["id"]: row for row in map(json.loads, log.read_text().splitlines())}
    missing = [row["id"] for row in report if row["id"] not in logged]
    if missing:
        raise SystemExit(f"{log} lacks {len(missing)} of the questions; run {name} on them")
    return summarise([logged[row["id"]] for row in report])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--systems", default=",".join(SYSTEMS))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--paired-with",
        default="",
        help="Also score these systems on the same questions from their logs of an earlier run.",
    )
    parser.add_argument(
        "--merge", action="store_true", help="Add these systems to the existing result file."
    )
    args = parser.parse_args()
    paired = args.paired_with.split(",") if args.paired_with else []
    payload = asyncio.run(main(args.systems.split(","), args.limit, paired))
    name = args.out.stem if args.out else "synthesis_clapnq"
    existing = RESULTS / f"{name}.json"
    if args.merge and existing.exists():
        old = json.loads(existing.read_text())
        payload["systems"] = old["systems"] | payload["systems"]
    write_result(name, payload)
