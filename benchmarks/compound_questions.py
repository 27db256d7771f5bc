"""Compound questions through the answerability gate: read whole, or part by part.

    python -m benchmarks.compound_questions

A compound question ("What is the connect timeout, and are failed requests retried?") may
be answered by two sources, each of which scores low against the whole question. The gate
passes it when each part (`answerability.question_parts`) is answerable. For every
compound question of the tuning (`dev`) and report (`test`) sets of ClapNQ, MultiHop-RAG
and the Developer Hub guides, and of the HTTPX questions, the pipeline's own sources
(`steps.retrieve`, `steps.make_plan`) go through `answerability.gate` with and without the
parts; other questions are gated as before. Counted: answerable and unanswerable compound
questions gated each way. Results: `benchmarks/results/compound_questions.json`.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

from benchmarks.calibrate_answerability import HTTPX_QUESTIONS
from benchmarks.common import CACHE, DATA, require, write_result
from benchmarks.gate_pairs import TUNING, planned
from citesynth.evaluation.qa_data import EvalSet, load_set
from citesynth.synthesis.answerability import gate, question_parts
from citesynth.verify.trained import TrainedVerifier


async def measure(eval_set: EvalSet, verifier: TrainedVerifier) -> dict[str, Any]:
    compound = [i for i in eval_set.items if len(question_parts(i.question)) > 1]
    counts = {
        "questions": len(eval_set.items),
        "compound": len(compound),
        "compound_unanswerable": sum(not i.answerable for i in compound),
    }
    gated = {"whole": [0, 0], "parts": [0, 0]}  # [answerable gated, unanswerable gated]
    examples = []
    async for item, plan in planned(eval_set, compound):
        if plan is None:
            for way in gated:  # not found before the gate either way
                gated[way][0 if item.answerable else 1] += 1
            continue
        whole = await gate(item.question, plan.sources, verifier, compound=False, pairs=False)
        split = await gate(item.question, plan.sources, verifier, pairs=False)
        for way, judged in (("whole", whole), ("parts", split)):
            if judged is not None and not judged.answerable:
                gated[way][0 if item.answerable else 1] += 1
        if whole is not None and split is not None and whole.answerable != split.answerable:
            examples.append(
                {"question": item.question, "answerable": item.answerable,
                 "whole": whole.score, "weakest_part": split.score}
            )  # fmt: skip
    return {
        **counts,
        "gated_whole": {"answerable": gated["whole"][0], "unanswerable": gated["whole"][1]},
        "gated_by_parts": {"answerable": gated["parts"][0], "unanswerable": gated["parts"][1]},
        "changed": examples,
    }


async def main_async() -> dict[str, Any]:
    verifier = TrainedVerifier.load()
    cache = CACHE / "eval"
    payload: dict[str, Any] = {}
    for split in ("dev", "test"):
        for name in TUNING:
            eval_set = load_set(name, split, data=DATA, cache=cache)
            payload[f"{name}/{split}"] = await measure(eval_set, verifier)
            print(
                name,
                split,
                json.dumps({k: v for k, v in payload[f"{name}/{split}"].items() if k != "changed"}),
            )
    httpx = load_set(
        str(HTTPX_QUESTIONS), data=DATA, corpus=DATA / "docs_httpx" / "docs", cache=cache
    )
    payload["httpx (never tuned on)"] = await measure(replace(httpx, name="httpx"), verifier)
    return payload


def main() -> None:
    require(DATA)
    payload = asyncio.run(main_async())
    print(json.dumps(payload, indent=2))
    write_result("compound_questions", payload)


if __name__ == "__main__":
    main()
