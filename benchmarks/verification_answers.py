"""Verification end to end: citation recall/precision with and without repair, flagged
claims, and the calibration of the answer confidence.

For each question the pipeline writes an answer with repair off (`answer.answer` is then
the writer's text after cleanup); the same text is reviewed twice by the default verifier,
without and with repair, so both figures come from one model call:

- citation recall (ALCE): share of claims supported by the union of their citations;
- citation precision (ALCE): share of citations that support their claim or are needed;
- flagged: share of claims shown to the user as unsupported (and as partly supported).
  The extractive writer copies source sentences, so its flags are false alarms.

The answer confidence is calibrated from the eval runs' records by
`benchmarks.calibrate_answers`.

    python -m benchmarks.verification_answers --systems extractive --musique 100
    python -m benchmarks.verification_answers --systems local --limit 20 --musique 10 \
        --out verification_answers_local
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import statistics
import time
from pathlib import Path
from typing import Any

from benchmarks.common import CACHE, DATA, require, write_result
from benchmarks.synthesis_clapnq import judge, questions
from citesynth import Engine, Settings
from citesynth.analysis import terms
from citesynth.answers import Answer
from citesynth.evaluation.harness import claim_figures
from citesynth.evaluation.metrics import reliability
from citesynth.synthesis import get_writer
from citesynth.verify import LexicalVerifier
from citesynth.verify.base import Passage
from citesynth.verify.review import Review, review


def passages(answer: Answer) -> list[Passage]:
    return [Passage(s.number, s.text, s.path + (s.url.rsplit("#", 1)[-1])) for s in answer.sources]


def review_figures(found: Review) -> dict[str, Any]:
    return {**claim_figures(found), "repairs": len(found.repairs)}


def aggregate(rows: list[dict[str, Any]], key: str) -> dict[str, Any]:
    claims = sum(r[key]["claims"] for r in rows)
    citations = sum(r[key]["citations"] for r in rows)
    per_answer = [r[key]["supported"] / r[key]["claims"] for r in rows if r[key]["claims"]]
    return {
        "claims": claims,
        "citation_recall": round(sum(r[key]["supported"] for r in rows) / claims, 3)
        if claims
        else None,
        "citation_recall_mean_per_answer": round(statistics.mean(per_answer), 3)
        if per_answer
        else None,
        "citation_precision": round(sum(r[key]["precise"] for r in rows) / citations, 3)
        if citations
        else None,
        "flagged_unsupported": round(sum(r[key]["unsupported"] for r in rows) / claims, 3)
        if claims
        else None,
        "flagged_partial": round(sum(r[key]["partial"] for r in rows) / claims, 3)
        if claims
        else None,
        "repairs": sum(r[key]["repairs"] for r in rows),
    }


async def answer_rows(
    engine: Engine, items: list[dict[str, Any]], score: Any, label: str
) -> list[dict[str, Any]]:
    verifier = LexicalVerifier()
    rows = []
    for index, item in enumerate(items, start=1):
        answer = await engine.answer(item["question"], cache=False, repair=False)
        row = score(item, answer)
        if not answer.not_found and answer.fallback is None:
            sources = passages(answer)
            row["plain"] = review_figures(
                await review(answer.answer, sources, verifier, repair=False)
            )
            row["repaired"] = review_figures(await review(answer.answer, sources, verifier))
        signals = (answer.verification.signals if answer.verification else {}) or {}
        row["signals"] = signals
        row["confidence"] = answer.confidence
        rows.append(row)
        if index % 20 == 0:
            print(f"{label}: {index}/{len(items)}", flush=True)
    return rows


def musique_items(limit: int) -> tuple[Path, list[dict[str, Any]]]:
    folder = require(DATA / "multihop_qa" / "musique_100")
    rows = [json.loads(line) for line in (folder / "questions.jsonl").read_text().splitlines()]
    return folder / "corpus.jsonl", rows[:limit]


def musique_score(item: dict[str, Any], answer: Answer) -> dict[str, Any]:
    gold = [item["answer"], *item.get("answer_aliases", [])]
    mine = set(terms(answer.answer))
    hit = any(set(terms(g)) and set(terms(g)) <= mine for g in gold)
    return {"id": item["id"], "answerable": True, "abstained": answer.not_found, "correct": hit}


async def main(args: argparse.Namespace) -> dict[str, Any]:
    report, _ = questions()
    if args.limit:
        report = report[: args.limit // 2] + report[50 : 50 + args.limit - args.limit // 2]
    corpus = require(DATA / "clapnq_dev" / "corpus.jsonl")
    settings = Settings(index_dir=CACHE / "transfer-clapnq", embedder="minilm", model="extractive")
    results: dict[str, Any] = {}
    clapnq_score = lambda item, answer: judge(item, answer, naive=False)  # noqa: E731
    systems = [name for name in args.systems.split(",") if name]
    async with await Engine.open(settings=settings) as engine:
        await engine.index([corpus])
        for name in systems:
            engine.writer = get_writer(name, embedder=engine.embedder, prompts=engine.prompts)
            started = time.perf_counter()
            rows = await answer_rows(engine, report, clapnq_score, f"{name} clapnq")
            entry: dict[str, Any] = {
                "questions": len(rows),
                "without_repair": aggregate([r for r in rows if "plain" in r], "plain"),
                "with_repair": aggregate([r for r in rows if "plain" in r], "repaired"),
                "correctness": round(statistics.mean(r["correct"] for r in rows), 3),
                "seconds": round(time.perf_counter() - started, 1),
            }
            entry["reliability"] = reliability(
                [(r["confidence"], bool(r["correct"])) for r in rows if r["signals"]]
            )
            results[f"clapnq:{name}"] = entry
            print(name, json.dumps(entry)[:600], flush=True)
    if args.musique:
        path, items = musique_items(args.musique)
        settings = Settings(index_dir=CACHE / "musique", embedder="minilm", model="extractive")
        async with await Engine.open(settings=settings) as engine:
            await engine.index([path])
            for name in systems:
                engine.writer = get_writer(name, embedder=engine.embedder, prompts=engine.prompts)
                rows = await answer_rows(engine, items, musique_score, f"{name} musique")
                results[f"musique:{name}"] = {
                    "questions": len(rows),
                    "without_repair": aggregate([r for r in rows if "plain" in r], "plain"),
                    "with_repair": aggregate([r for r in rows if "plain" in r], "repaired"),
                    "answer_contains_gold": round(statistics.mean(r["correct"] for r in rows), 3),
                }
    return {
        "measured": datetime.date.today().isoformat(),
        "verifier": "lexical",
        "report_slice": len(report),
        "systems": results,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", default="extractive")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--musique", type=int, default=0)
    parser.add_argument("--out", default="verification_answers")
    arguments = parser.parse_args()
    write_result(arguments.out, asyncio.run(main(arguments)))
