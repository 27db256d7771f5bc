"""Calibrate when a model's "not found" is overruled by the sources' own sentences.

    python -m benchmarks.calibrate_declined [--write]

The embedded model declines questions its passages answer (`synthesis.declined`). Every
tuning question (ClapNQ `dev`: 60 answerable and 60 unanswerable; the Red Hat Developer Hub
guides `dev` and MultiHop-RAG `dev`: the first 20 each, the null queries unanswerable) is
answered by the embedded model with the overruling always on (`declined_threshold` 0), and
the gate's best score is read beside it. Per question the log keeps: the gate score, whether
the model declined past the gate, and, when it did, whether the extractive writer's verified
answer exists and is right. For any threshold the outcome follows without rerunning the
model: below it, the model's "not found" stands; from it, the quoted answer replaces it.

Rule (fixed before any report run): the lowest threshold, in steps of 0.01 from the gate's
own, at which the overruling answers no unanswerable question of any tuning set, raised to
0.60 at least (a passage that only passes the gate is no reason to overrule anyone). The
report slices are scored by `eval_suite` (`clapnq-local-full`, `httpx-local`), never here.
`--write` stores it as `declined` in `src/citesynth/verify/crossencoder.json`. Results:
`benchmarks/results/declined.json`.

Not shipped (2026-11-25): fitted at 0.60, it lifted ClapNQ `dev` not-found F1 from 0.79 to
0.82 without answering an unanswerable tuning question, and on the report slices
(`eval_suite`, same seeded runs with it on and off) it lowered ClapNQ's from 0.78 to 0.77
and the HTTPX questions' from 0.76 to 0.74, answering as many unanswerable questions as it
rescued answerable ones. `declined.json` holds both; `crossencoder.json` carries no
threshold, so the pipeline never overrules.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from dataclasses import replace
from typing import Any

from benchmarks.calibrate_answerability import META, TUNING
from benchmarks.calibrate_answered import question_log, writer_settings
from benchmarks.common import CACHE, DATA, require, write_result
from citesynth import Engine
from citesynth.evaluation.harness import answer_figures
from citesynth.evaluation.qa_data import EvalSet, load_set, take
from citesynth.synthesis.answerability import gate
from citesynth.synthesis.modes import get_mode
from citesynth.synthesis.steps import make_plan, retrieve
from citesynth.verify.crossencoder import CrossEncoder
from citesynth.verify.trained import TrainedVerifier

LIMITS = {"clapnq": 120, "docs-rhdh": 20, "multihop-rag": 20}
FLOOR = 0.60
OVERRULED = 'the model answered "Not found in the sources." although'


async def rows(eval_set: EvalSet, verifier: TrainedVerifier) -> list[dict[str, Any]]:
    """One row per question (see the module docstring), logged as it is known."""
    log, known = question_log("declined", "local", eval_set)
    async with await Engine.open(
        settings=writer_settings(eval_set, "local"), indexing=True
    ) as engine:
        await engine.index([eval_set.corpus.resolve()])
        engine.verifier = verifier
        parts, options = engine.parts(), engine.options()
        for number, item in enumerate(eval_set.items, 1):
            if item.id in known:
                continue
            found = await retrieve(item.question, parts, options, get_mode(options.mode))
            plan = await make_plan(item.question, found, parts, get_mode(options.mode))
            judged = await gate(item.question, plan.sources, verifier)
            answer = await engine.answer(item.question, cache=False)
            overruled = any(w.startswith(OVERRULED) for w in answer.warnings)
            declined = overruled or (
                answer.not_found
                and answer.fallback is None
                and not answer.removed_claims
                and judged is not None
                and judged.answerable
            )
            row = {
                "id": item.id,
                "answerable": item.answerable,
                "gate": judged.score if judged else None,
                "declined": declined,
                "quoted": overruled,
                "correct": answer_figures(answer, item)["correct"],
                "answer": answer.answer[:300],
            }
            known[item.id] = row
            with log.open("a") as out:
                out.write(json.dumps(row) + "\n")
            if number % 10 == 0:
                print(f"{eval_set.name}/dev: {number}/{len(eval_set.items)}", flush=True)
    return [known[item.id] for item in eval_set.items]


def outcome(row: dict[str, Any], threshold: float) -> tuple[bool, bool]:
    """(not found, correct) of one question when overruling starts at `threshold`."""
    if row["quoted"] and row["gate"] >= threshold:
        return False, bool(row["correct"]) and row["answerable"]
    if row["quoted"]:  # below the threshold the model's "not found" stands
        return True, not row["answerable"]
    return row["answer"].startswith("Not found"), bool(row["correct"])


def figures(found: list[dict[str, Any]], threshold: float) -> dict[str, Any]:
    """Answerable correct, unanswerable answered, and not-found P/R/F1 at `threshold`."""
    results = [(row["answerable"], *outcome(row, threshold)) for row in found]
    answerable = [r for r in results if r[0]]
    unanswerable = [r for r in results if not r[0]]
    hits = sum(1 for a, nf, _ in results if nf and not a)
    said = sum(1 for _, nf, _ in results if nf)
    precision = hits / said if said else None
    recall = hits / len(unanswerable) if unanswerable else None
    f1 = (
        2 * precision * recall / (precision + recall)
        if precision and recall and precision + recall
        else None
    )
    return {
        "answerable": len(answerable),
        "answerable_correct": round(sum(c for _, _, c in answerable) / len(answerable), 4)
        if answerable
        else None,
        "answerable_not_found": sum(1 for _, nf, _ in answerable if nf),
        "unanswerable": len(unanswerable),
        "unanswerable_answered": sum(1 for _, nf, _ in unanswerable if not nf),
        "overruled": sum(1 for row in found if row["quoted"] and row["gate"] >= threshold),
        "not_found_precision": round(precision, 4) if precision is not None else None,
        "not_found_recall": round(recall, 4) if recall is not None else None,
        "not_found_f1": round(f1, 4) if f1 is not None else None,
    }


def fit_threshold(tuning: dict[str, list[dict[str, Any]]], start: float) -> float:
    """The rule of the module docstring."""
    overruled_unanswerable = [
        row["gate"]
        for found in tuning.values()
        for row in found
        if row["quoted"] and not row["answerable"]
    ]
    lowest = max([start, *(round(g + 0.01, 2) for g in overruled_unanswerable)])
    return round(max(FLOOR, lowest), 2)


async def main_async() -> dict[str, Any]:
    verifier = TrainedVerifier(CrossEncoder.load())
    gate_threshold = verifier.answerable_threshold
    verifier.declined_threshold = 0.0  # overrule every decline past the gate; fit after
    tuning: dict[str, list[dict[str, Any]]] = {}
    for name in TUNING:
        found = load_set(name, "dev", data=DATA, cache=CACHE / "eval")
        tuning[name] = await rows(replace(found, items=take(found.items, LIMITS[name])), verifier)
    threshold = fit_threshold(tuning, gate_threshold)
    return {
        "threshold": threshold,
        "rule": "lowest threshold from the gate's at which overruling answers no unanswerable "
        f"tuning question, at least {FLOOR}",
        "limits": LIMITS,
        "tuning": {
            f"{name}/dev": {
                "model alone": figures(found, 2.0),
                "overruled from the threshold": figures(found, threshold),
                "declined past the gate": [
                    (row["answerable"], row["gate"], row["correct"])
                    for row in found
                    if row["declined"]
                ],
            }
            for name, found in tuning.items()
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="store the threshold")
    args = parser.parse_args()
    require(DATA / "clapnq_dev")
    payload = asyncio.run(main_async())
    write_result("declined", payload)
    if args.write:
        meta = json.loads(META.read_text())
        meta["declined"] = payload["threshold"]
        meta["declined_calibration"] = payload["rule"]
        META.write_text(json.dumps(meta, indent=2) + "\n")
        print(f"declined threshold {payload['threshold']} written to {META}")


if __name__ == "__main__":
    main()
