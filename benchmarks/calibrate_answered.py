"""Measure a check on the written answer (tried, not shipped): does what was said answer?

    python -m benchmarks.calibrate_answered

The answerability gate reads the question against the best sentences of the top sources
before anything is written (`calibrate_answerability`). On-topic passages pass it, and a
writer then says something true that does not answer ("cotton was exported by the United
States" for "the two biggest exports from Mexico"). The check measured here reads the
question against the written claims instead, with the same cross-encoder and the gate's
blend of its logit with term coverage and the best top source's retrieval confidence
(`TrainedVerifier.answerable`), and its own threshold.

The extractive writer answers every tuning question (ClapNQ `dev`, the Red Hat Developer
Hub guides `dev`, MultiHop-RAG `dev`) through the answering pipeline (gate on); the
threshold is the one with the best ClapNQ not-found F1 among those that withhold, gate and
check together, at most 10 % of the answerable questions of *each* set (the gate's rule).
The report slices (ClapNQ, Developer Hub and MultiHop-RAG `test`, the HTTPX questions
written for this project) are then answered once and scored with it. On 2026-11-25 it
lifted ClapNQ `dev` not-found F1 from 0.760 to 0.774 and did nothing for the report slices
(ClapNQ `test` 0.675 -> 0.667, two more answerable questions withheld; Developer Hub `test`
withheld 9.7 % -> 11.1 %), so the pipeline does not apply it. Results:
`benchmarks/results/answered.json`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from dataclasses import replace
from typing import Any

from benchmarks.calibrate_answerability import (
    HTTPX_QUESTIONS,
    MAX_GATED_ANSWERABLE,
    TUNING,
    withheld_figures,
)
from benchmarks.common import CACHE, DATA, require, write_result
from citesynth import Engine, Settings
from citesynth.evaluation.qa_data import EvalSet, load_set
from citesynth.synthesis.answerability import TOP
from citesynth.verify.trained import TrainedVerifier

Outcome = tuple[bool, float | None, bool]
"""Per question: answerable; the check's score of the written answer (None: nothing was
written, the answer is already "not found"); whether it is already not found."""


async def outcomes(eval_set: EvalSet, verifier: TrainedVerifier) -> list[Outcome]:
    """Answer every question with the extractive writer (gate on); score what it wrote."""
    corpus = eval_set.corpus.resolve()
    settings = replace(
        Settings.from_env(model="extractive"),
        index_dir=CACHE / "answerability" / eval_set.name.replace("/", "_"),
        root=corpus if corpus.is_dir() else corpus.parent,
    )
    found: list[Outcome] = []
    async with await Engine.open(settings=settings, indexing=True) as engine:
        await engine.index([corpus])
        engine.verifier = verifier
        for number, item in enumerate(eval_set.items, 1):
            answer = await engine.answer(item.question, cache=False)
            confidence = max((s.confidence for s in answer.sources[:TOP]), default=0.0)
            claims = " ".join(claim.text for claim in answer.claims)
            score = None
            if not (answer.not_found or answer.fallback or answer.conflicts) and claims.strip():
                [score] = await verifier.answerable(item.question, [claims], [confidence])
            found.append((item.answerable, score, answer.not_found))
            if number % 50 == 0:
                print(
                    f"{eval_set.name}/{eval_set.split}: {number}/{len(eval_set.items)}", flush=True
                )
    return found


def figures(found: list[Outcome], threshold: float | None) -> dict[str, Any]:
    """Not-found precision, recall and F1 (unanswerable is positive) and answerable withheld
    (`answerable_gated`: by the gate or the check)."""
    return withheld_figures(
        [
            (not_found or (threshold is not None and score is not None and score < threshold), a)
            for a, score, not_found in found
        ]
    )


def fit_threshold(tuning: dict[str, list[Outcome]]) -> float:
    """The best ClapNQ not-found F1 among thresholds withholding at most
    `MAX_GATED_ANSWERABLE` of the answerable questions of every tuning set."""
    best = (0.0, -1.0)
    for step in range(0, 100):
        threshold = step / 100
        results = {name: figures(found, threshold) for name, found in tuning.items()}
        if any((r["answerable_gated"] or 0.0) > MAX_GATED_ANSWERABLE for r in results.values()):
            continue
        if results["clapnq"]["not_found_f1"] > best[1]:
            best = (threshold, results["clapnq"]["not_found_f1"])
    return best[0]


async def main_async() -> dict[str, Any]:
    from citesynth.verify.crossencoder import CrossEncoder

    verifier = TrainedVerifier(CrossEncoder.load())
    cache = CACHE / "eval"
    tuning = {
        name: await outcomes(load_set(name, "dev", data=DATA, cache=cache), verifier)
        for name in TUNING
    }
    threshold = fit_threshold(tuning)
    report = {
        f"{name}/test": await outcomes(load_set(name, "test", data=DATA, cache=cache), verifier)
        for name in TUNING
    }
    httpx = load_set(
        str(HTTPX_QUESTIONS), "test", data=DATA, cache=cache, corpus=DATA / "docs_httpx" / "docs"
    )
    report["httpx (never tuned on)"] = await outcomes(replace(httpx, name="httpx"), verifier)
    return {
        "threshold": threshold,
        "rule": "best ClapNQ dev not-found F1 among thresholds withholding (gate and check "
        f"together) at most {MAX_GATED_ANSWERABLE:.0%} of the answerable questions of each "
        "tuning set; extractive writer",
        "shipped": False,
        "tuning": {
            f"{name}/dev": {"gate only": figures(f, None), "gate and check": figures(f, threshold)}
            for name, f in tuning.items()
        },
        "report": {
            name: {"gate only": figures(f, None), "gate and check": figures(f, threshold)}
            for name, f in report.items()
        },
    }


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    require(DATA)
    result = asyncio.run(main_async())
    print(json.dumps(result, indent=2))
    print(f"wrote {write_result('answered', {'benchmark': 'answered', **result})}")


if __name__ == "__main__":
    main()
