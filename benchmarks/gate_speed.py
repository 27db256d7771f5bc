"""What the answerability gate costs a question: MiniLM's gate against MPNet's, same run.

    python -m benchmarks.gate_speed

The gate reads a question against the best sentences of the top five sources before any
writer runs (`synthesis.answerability`). Here: 50 ClapNQ `dev` questions, each against
its own passage and four others drawn at random (passage-sized, as chunks are), through
`TrainedVerifier.answerable`; p50 / p95 per question, and the one-off load of each gate
(MPNet's includes joining its base the first time on a machine; the figure is a warm load).
The MiniLM gate is the baseline in the same run, so the ratio carries across machines.
When no source answers alone, MPNet's gate reads the top four two at a time
(`answerable_together`): `mpnet_pairs` times the six pairs of each question's first four
passages, the most a question withheld by the single reading adds.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from importlib import resources
from pathlib import Path
from typing import Any

from benchmarks.common import DATA, percentiles, require, write_result
from citesynth.embed.minilm import cpu_has_bf16
from citesynth.synthesis.answerability import PAIRED
from citesynth.verify import mpnet
from citesynth.verify.crossencoder import CrossEncoder
from citesynth.verify.trained import GATE_FOLDER, TrainedVerifier, shared_gate, shared_model


def questions(count: int) -> list[tuple[str, list[str]]]:
    corpus = require(DATA / "clapnq_dev" / "corpus.jsonl")
    passages = {r["doc_id"]: r["text"] for r in map(json.loads, corpus.open())}
    rows = [json.loads(line) for line in (DATA / "clapnq_dev" / "questions.jsonl").open()]
    rng = random.Random(7)
    others = list(passages.values())
    made = []
    for row in rng.sample(rows, count):
        own = [passages[p] for p in row["passage_ids"] if p in passages][:1]
        made.append((row["question"], own + rng.sample(others, 5 - len(own))))
    return made


async def latency(verifier: TrainedVerifier, cases: list[tuple[str, list[str]]]) -> dict[str, Any]:
    await verifier.answerable(cases[0][0], cases[0][1], [0.5] * 5)  # warm: the gate loads
    timings = []
    for question, passages in cases:
        started = time.perf_counter()
        await verifier.answerable(question, passages, [0.5] * len(passages))
        timings.append((time.perf_counter() - started) * 1000)
    return {"questions": len(cases), "passages_per_question": 5, "gate_ms": percentiles(timings)}


async def pair_latency(
    verifier: TrainedVerifier, cases: list[tuple[str, list[str]]]
) -> dict[str, Any]:
    """The six pairs of each question's first four passages, read together."""
    timings = []
    for question, passages in cases:
        top = passages[:PAIRED]
        pairs = [(a, b) for i, a in enumerate(top) for b in top[i + 1 :]]
        started = time.perf_counter()
        await verifier.answerable_together(question, pairs, [0.5] * len(pairs))
        timings.append((time.perf_counter() - started) * 1000)
    return {"questions": len(cases), "pairs_per_question": 6, "gate_ms": percentiles(timings)}


def main() -> None:
    cases = questions(50)
    started = time.perf_counter()
    model = shared_model()
    payload: dict[str, Any] = {
        "minilm": {"load_s": round(time.perf_counter() - started, 2)},
        "bf16_native": cpu_has_bf16(),
    }
    payload["minilm"].update(asyncio.run(latency(TrainedVerifier(model), cases)))
    if mpnet.installed():
        started = time.perf_counter()
        gate = shared_gate()
        payload["mpnet"] = {"load_s": round(time.perf_counter() - started, 2)}
        payload["mpnet"].update(
            asyncio.run(latency(TrainedVerifier(model, gate=lambda: gate), cases))
        )
        payload["mpnet_pairs"] = asyncio.run(
            pair_latency(TrainedVerifier(model, gate=lambda: gate), cases)
        )
        fp32 = CrossEncoder.load(
            folder=Path(str(resources.files("citesynth.verify") / GATE_FOLDER))
        )
        fp32.bf16 = False  # what a CPU without native bfloat16 runs
        payload["mpnet_fp32"] = asyncio.run(
            latency(TrainedVerifier(model, gate=lambda: fp32), cases)
        )
        payload["p95_ratio_mpnet_to_minilm"] = round(
            payload["mpnet"]["gate_ms"]["p95"] / payload["minilm"]["gate_ms"]["p95"], 1
        )
    print(json.dumps(payload, indent=2))
    write_result("gate_speed", payload)


if __name__ == "__main__":
    main()
