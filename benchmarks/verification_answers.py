"""Verification end to end: citation recall/precision with and without repair, flagged
claims, and the calibration of the answer confidence.

For each question the pipeline writes an answer with repair off (`answer.answer` is then
the writer's text after cleanup); the same text is reviewed twice by the default verifier,
without and with repair, so both figures come from one model call:

- citation recall (ALCE): share of claims supported by the union of their citations;
- citation precision (ALCE): share of citations that support their claim or are needed;
- flagged: share of claims shown to the user as unsupported (and as partly supported).
  The extractive writer copies source sentences, so its flags are false alarms.

Calibration: `--tune N` also answers N questions of the ClapNQ *tuning* slice (outside the
100-question report slice); every system's rows are kept in `benchmarks/.cache/verification`.
`--calibrate` fits the logistic weights in `src/citesynth/verify/confidence.json` on all kept
tuning rows (each system weighing the same) and reports each system's reliability curve
and expected calibration error on its report rows, with the hand-set and fitted weights.

    python -m benchmarks.verification_answers --systems extractive --tune 300 --musique 100
    python -m benchmarks.verification_answers --systems local --limit 20 --musique 10 \
        --tune 30 --out verification_answers_local
    python -m benchmarks.verification_answers --systems "" --calibrate \
        --out verification_calibration
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

import numpy as np

from benchmarks.common import CACHE, DATA, ROOT, require, write_result
from benchmarks.synthesis_clapnq import judge, questions
from benchmarks.train_verifier import fit
from citesynth import Engine, Settings
from citesynth.analysis import terms
from citesynth.answers import Answer
from citesynth.evaluation.harness import claim_figures
from citesynth.evaluation.metrics import reliability
from citesynth.synthesis import get_writer
from citesynth.verify import LexicalVerifier
from citesynth.verify.base import Passage
from citesynth.verify.confidence import SIGNALS, Signals, confidence
from citesynth.verify.review import Review, review

CONFIDENCE = ROOT / "src" / "citesynth" / "verify" / "confidence.json"


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


HAND_SET = {
    "bias": -3.0, "retrieval": 2.0, "cited": 1.0, "support": 3.0, "documents": 0.5,
    "conflict": -0.5, "invalid": -1.0,
}  # fmt: skip
"""The uncalibrated starting point, the baseline the calibration is compared with."""
SIGN = {"retrieval": 1, "cited": 1, "support": 1, "documents": 1, "conflict": -1, "invalid": -1}


def calibrate(rows: list[dict[str, Any]], weight: np.ndarray | None = None) -> dict[str, float]:
    """Logistic regression of correctness on the signals, each weight with its expected sign.

    More support, retrieval strength, citations or independent documents never lowers the
    confidence, conflicts and invalid markers never raise it: a weight fitted with the
    wrong sign (the signal carries nothing for this writer) is fixed at 0 and the rest refit.
    """
    usable = [r for r in rows if r["signals"]]
    y = np.array([1.0 if r["correct"] else 0.0 for r in usable])
    free = list(SIGNALS)
    while True:
        x = np.array([[r["signals"][name] for name in free] for r in usable])
        beta = fit(x, y, np.ones(len(y)) if weight is None else weight, l2=0.5)
        wrong = [(SIGN[n] * b, n) for n, b in zip(free, beta[1:], strict=True) if SIGN[n] * b < 0]
        if not wrong:
            break
        free.remove(min(wrong)[1])
    weights = {"bias": float(beta[0])} | dict.fromkeys(SIGNALS, 0.0)
    return weights | {n: float(b) for n, b in zip(free, beta[1:], strict=True)}


KEPT = CACHE / "verification"


def _keep(system: str, split: str, rows: list[dict[str, Any]]) -> None:
    """Save a system's answer rows (signals, correctness) for pooled calibration."""
    KEPT.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"signals": r["signals"], "correct": r["correct"]}) for r in rows]
    (KEPT / f"{system.replace(':', '_')}.{split}.jsonl").write_text("\n".join(lines) + "\n")


def _kept(split: str) -> dict[str, list[dict[str, Any]]]:
    return {
        path.name.split(".")[0]: [json.loads(line) for line in path.read_text().splitlines()]
        for path in sorted(KEPT.glob(f"*.{split}.jsonl"))
    }


def pooled_calibration() -> dict[str, Any]:
    """Fit on every system's kept tuning rows (each system weighing the same), write the
    weights, and report each system's reliability on its report rows, before and after."""
    tuning = _kept("tuning")
    rows = [r for system in tuning.values() for r in system if r["signals"]]
    weight = np.concatenate(
        [
            np.full(sum(1 for r in system if r["signals"]), len(rows) / len(tuning) / n)
            for system in tuning.values()
            if (n := sum(1 for r in system if r["signals"]))
        ]
    )
    weights = calibrate(rows, weight)
    fitted_on = "ClapNQ dev tuning slice: " + ", ".join(
        f"{name} {len(system)} questions" for name, system in tuning.items()
    )
    CONFIDENCE.write_text(
        json.dumps(
            {
                "weights": {k: round(v, 4) for k, v in weights.items()},
                "fitted_on": f"{fitted_on}; {datetime.date.today().isoformat()}",
            },
            indent=2,
        )
        + "\n"
    )
    report = {}
    for name, system in _kept("report").items():
        report[name] = {
            "hand_set_weights": reliability(rescored(system, HAND_SET)),
            "calibrated": reliability(rescored(system, weights)),
        }
    return {
        "fitted_on": fitted_on,
        "weights": {k: round(v, 4) for k, v in weights.items()},
        "report_slice": report,
    }


def rescored(rows: list[dict[str, Any]], weights: dict[str, float]) -> list[tuple[float, bool]]:
    return [
        (confidence(Signals(**r["signals"]), weights), bool(r["correct"]))
        for r in rows
        if r["signals"]
    ]


async def main(args: argparse.Namespace) -> dict[str, Any]:
    report, tuning = questions()
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
            _keep(name, "report", rows)
            if args.tune:
                tune_rows = await answer_rows(
                    engine, tuning[: args.tune], clapnq_score, f"{name} tuning"
                )
                _keep(name, "tuning", tune_rows)
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
    if args.calibrate:
        results["calibration"] = pooled_calibration()
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
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument(
        "--tune", type=int, default=0, help="Also answer N tuning questions and keep their rows."
    )
    parser.add_argument("--musique", type=int, default=0)
    parser.add_argument("--out", default="verification_answers")
    arguments = parser.parse_args()
    write_result(arguments.out, asyncio.run(main(arguments)))
