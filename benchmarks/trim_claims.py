"""How often trimming keeps part of an unsupported claim, and what it keeps (tuning splits).

    python -m benchmarks.trim_claims [--limit 40]

The embedded model answers the tuning questions of ClapNQ (`dev`) and the Red Hat
Developer Hub guides (`dev`) with `keep_unsupported` (every claim stays, labelled); each
answer is logged under `benchmarks/.cache/trim/` as it is known, so an interrupted run goes
on where it stopped. Trimming (`citesynth.verify.trim`) is then applied to the logged
answers with the trained verifier, as the pipeline applies it before removal: per set, the
claims not supported, the claims trimmed, the answers that keep something only thanks to a
trim (they would otherwise be "not found"), split by answerable and unanswerable questions,
and every (claim as written, part kept) pair for a reader to judge. No parameter is fitted.
Results: `benchmarks/results/trim_claims.json`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from dataclasses import replace
from typing import Any

from benchmarks.calibrate_answered import question_log, writer_settings
from benchmarks.common import CACHE, DATA, require, write_result
from citesynth import Engine
from citesynth.evaluation.qa_data import EvalSet, load_set, take
from citesynth.verify.base import Passage
from citesynth.verify.claims import split_claims
from citesynth.verify.trained import TrainedVerifier
from citesynth.verify.trim import trims

SETS = ("clapnq", "docs-rhdh")


async def answers(eval_set: EvalSet) -> list[dict[str, Any]]:
    """The embedded model's answers (unsupported claims kept) to every question, logged."""
    log, known = question_log("trim", "local", eval_set)
    missing = [item for item in eval_set.items if item.id not in known]
    if missing:
        settings = writer_settings(eval_set, "local")
        async with await Engine.open(settings=settings, indexing=True) as engine:
            await engine.index([eval_set.corpus.resolve()])
            for number, item in enumerate(missing, 1):
                answer = await engine.answer(item.question, cache=False, keep_unsupported=True)
                row = {
                    "id": item.id,
                    "question": item.question,
                    "answerable": item.answerable,
                    "answer": answer.model_dump(mode="json"),
                }
                known[item.id] = row
                with log.open("a") as out:
                    out.write(json.dumps(row) + "\n")
                print(f"{eval_set.name}: {number}/{len(missing)}", flush=True)
    return [known[item.id] for item in eval_set.items]


async def measure(rows: list[dict[str, Any]], verifier: TrainedVerifier) -> dict[str, Any]:
    """What trimming does to the logged answers."""
    figures = {"answers": 0, "claims": 0, "not_supported": 0, "trimmed": 0}
    rescued = {"answerable": 0, "unanswerable": 0}
    pairs = []
    for row in rows:
        answer = row["answer"]
        if answer["not_found"] or answer["fallback"]:
            continue
        figures["answers"] += 1
        labels = {claim["text"]: claim["label"] for claim in answer["claims"]}
        spans = split_claims(answer["answer"])
        judged = [(s, labels.get(s.text) == "supported" and bool(s.citations)) for s in spans]
        figures["claims"] += len(judged)
        figures["not_supported"] += sum(not ok for _, ok in judged)
        passages = [Passage(s["number"], s["text"], s["doc_id"]) for s in answer["sources"]]
        weak = [span for span, ok in judged if not ok]
        cuts = await trims(answer["answer"], weak, passages, verifier)
        figures["trimmed"] += len(cuts)
        if cuts and not any(ok for _, ok in judged):
            rescued["answerable" if row["answerable"] else "unanswerable"] += 1
        pairs.extend(
            {"question": row["question"], "written": c.claim.text, "kept": c.kept} for c in cuts
        )
    return {**figures, "kept_only_by_a_trim": rescued, "pairs": pairs}


async def main(limit: int) -> None:
    verifier = TrainedVerifier.load()
    results = {}
    for name in SETS:
        found = load_set(name, "dev", data=DATA, cache=CACHE / "eval")
        eval_set = replace(found, items=take(found.items, limit))
        results[name] = await measure(await answers(eval_set), verifier)
        shown = {k: v for k, v in results[name].items() if k != "pairs"}
        print(name, shown, flush=True)
    write_result("trim_claims", {"writer": "local", "split": "dev", "limit": limit, **results})


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=40, help="Questions per tuning set.")
    args = parser.parse_args()
    require(DATA)
    asyncio.run(main(args.limit))
