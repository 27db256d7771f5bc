"""The disagreements the pipeline finds between the sources it gives a writer, listed to read.

    python -m benchmarks.conflict_precision              # tuning and report questions

For each question of five sets (HotpotQA and MuSiQue, MultiHop-RAG, the Red Hat Developer
Hub guides, the first 200 of ClapNQ), retrieval and planning run as for an answer
(`steps.retrieve`, `steps.make_plan`, the default options) and every disagreement the plan
names (`verify.conflicts`) is listed with its topic, its two values and the titles of its
two documents, so that a reader can tell a real disagreement from two subjects mixed up.
`dev` questions are the tuning side, `test` the report side. Results:
`benchmarks/results/conflict_precision.json`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from benchmarks.common import CACHE, DATA, require, write_result
from benchmarks.gate_pairs import planned
from citesynth.evaluation.qa_data import load_set

SETS = (
    ("hotpotqa", 100),
    ("musique", 100),
    ("multihop-rag", 350),
    ("docs-rhdh", 400),
    ("clapnq", 200),
)
"""Each set and how many of its questions per split are read."""


async def disagreements(name: str, split: str, limit: int) -> tuple[int, list[dict[str, Any]]]:
    """The questions read and the disagreements their plans name."""
    eval_set = load_set(name, split, data=DATA, cache=CACHE / "eval")
    items = eval_set.items[:limit]
    found: list[dict[str, Any]] = []
    async for item, plan in planned(eval_set, items, gated=False):
        if plan is None:
            continue
        titles = {s.number: s.chunk.title for s in plan.sources}
        found.extend(
            {
                "question": item.question,
                "kind": conflict.kind,
                "topic": conflict.topic,
                "values": list(conflict.values),
                "titles": [titles[n] for n in conflict.sources],
            }
            for conflict in plan.found
        )
    return len(items), found


async def main_async() -> dict[str, Any]:
    payload: dict[str, Any] = {}
    for split, side in (("dev", "tuning"), ("test", "report")):
        sets = {}
        for name, limit in SETS:
            questions, found = await disagreements(name, split, limit)
            sets[f"{name}/{split}"] = {"questions": questions, "found": len(found), "each": found}
        payload[side] = {"found": sum(s["found"] for s in sets.values()), "sets": sets}
    return payload


def main() -> None:
    require(DATA)
    payload = asyncio.run(main_async())
    print({side: payload[side]["found"] for side in ("tuning", "report")})
    write_result("conflict_precision", payload)


if __name__ == "__main__":
    main()
