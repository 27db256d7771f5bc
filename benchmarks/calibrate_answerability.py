"""Calibrate the answerability gate on ClapNQ's tuning questions; report it on the report slice.

    python -m benchmarks.calibrate_answerability          # writes `answerable` into crossencoder.json

For every question, the trained cross-encoder reads it against the best sentences of each
of the top five retrieved chunks (as the answering pipeline does); the question's score is
the best of the five. The threshold is fitted on the ClapNQ `dev` split (500 questions, half
unanswerable, never the 100-question `test` report slice): the highest F1 for "unanswerable"
among thresholds that gate at most 10 % of the answerable questions (a gated answerable
question loses its answer, a missed unanswerable one still meets the claim verdicts). The
report slice is then scored once with the chosen threshold, and the same for MultiHop-RAG
(null queries are its unanswerable questions).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from dataclasses import replace
from typing import Any

from benchmarks.common import CACHE, DATA, ROOT, require, write_result
from citesynth import Engine, Settings
from citesynth.evaluation.qa_data import EvalSet, load_set
from citesynth.synthesis.answerability import TOP
from citesynth.verify.trained import TrainedVerifier

META = ROOT / "src" / "citesynth" / "verify" / "crossencoder.json"
MAX_GATED_ANSWERABLE = 0.10


async def scores(eval_set: EvalSet, verifier: TrainedVerifier) -> list[tuple[float, bool]]:
    """(best score of the top chunks, answerable) per question."""
    corpus = eval_set.corpus.resolve()
    settings = replace(
        Settings.from_env(verifier="lexical"),
        index_dir=CACHE / "answerability" / eval_set.name,
        root=corpus if corpus.is_dir() else corpus.parent,
    )
    found: list[tuple[float, bool]] = []
    async with await Engine.open(settings=settings, indexing=True) as engine:
        await engine.index([corpus])
        for number, item in enumerate(eval_set.items, 1):
            hits = await engine.search(item.question, TOP)
            values = await verifier.answerable(item.question, [h.chunk.text for h in hits])
            found.append((max(values, default=0.0), item.answerable))
            if number % 50 == 0:
                print(f"{eval_set.name}/{eval_set.split}: {number}/{len(eval_set.items)}")
    return found


def figures(found: list[tuple[float, bool]], threshold: float) -> dict[str, Any]:
    """Not-found precision, recall and F1 (unanswerable is positive) and answerable kept."""
    gated = [(s < threshold, a) for s, a in found]
    tp = sum(1 for g, a in gated if g and not a)
    fp = sum(1 for g, a in gated if g and a)
    fn = sum(1 for g, a in gated if not g and not a)
    answerable = sum(1 for _, a in found if a)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "questions": len(found),
        "unanswerable": len(found) - answerable,
        "not_found_precision": round(precision, 4),
        "not_found_recall": round(recall, 4),
        "not_found_f1": round(f1, 4),
        "answerable_gated": round(fp / answerable, 4) if answerable else None,
    }


def fit(found: list[tuple[float, bool]]) -> float:
    """The threshold with the best not-found F1 among those gating ≤ 10 % of answerable."""
    best = (0.0, -1.0)
    for step in range(1, 100):
        threshold = step / 100
        result = figures(found, threshold)
        if (result["answerable_gated"] or 0.0) > MAX_GATED_ANSWERABLE:
            continue
        if result["not_found_f1"] > best[1]:
            best = (threshold, result["not_found_f1"])
    return best[0]


async def main_async(write: bool) -> dict[str, Any]:
    verifier = TrainedVerifier.load()
    cache = CACHE / "eval"
    tuning = load_set("clapnq", "dev", data=DATA, cache=cache)
    report = load_set("clapnq", "test", data=DATA, cache=cache)
    tuned = await scores(tuning, verifier)
    threshold = fit(tuned)
    payload: dict[str, Any] = {
        "threshold": threshold,
        "rule": "best not-found F1 on ClapNQ dev with at most 10 % of answerable gated",
        "clapnq/dev (tuning)": figures(tuned, threshold),
        "clapnq/test (report)": figures(await scores(report, verifier), threshold),
    }
    multihop = load_set("multihop-rag", "test", data=DATA, cache=cache)
    payload["multihop-rag/test (report)"] = figures(await scores(multihop, verifier), threshold)
    if write:
        meta = json.loads(META.read_text())
        meta["answerable"] = threshold
        meta["answerable_calibration"] = payload["rule"]
        META.write_text(json.dumps(meta, indent=2) + "\n")
    return payload


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="do not write the threshold")
    args = parser.parse_args()
    require(DATA)
    payload = asyncio.run(main_async(not args.dry_run))
    print(json.dumps(payload, indent=2))
    write_result("answerability", payload)


if __name__ == "__main__":
    main()
