"""Does the fusion chosen on SciFact hold elsewhere? Retrieval on three other corpora.

ClapNQ (answerable dev questions over 597 Wikipedia passages), HotpotQA-100 and MuSiQue-100
(multi-hop questions over their 994 and 1,890 paragraphs). Gold = the passages that hold
the answer. Nothing here is tuned: these sets only check that the defaults generalise.

    python -m benchmarks.retrieval_transfer
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks.common import (
    CACHE,
    DATA,
    Queries,
    evaluate_retrieval,
    require,
    write_result,
)
from citesynth import Engine, Settings
from citesynth.retrieve.hybrid import RetrievalOptions


def _rows(path: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for line in require(path).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def datasets() -> dict[str, tuple[Path, Queries]]:
    """Corpus path and gold passages for each data set."""
    clapnq = [q for q in _rows(DATA / "clapnq_dev" / "questions.jsonl") if q["answerable"]]
    found: dict[str, tuple[Path, Queries]] = {
        "clapnq": (DATA / "clapnq_dev" / "corpus.jsonl",
                   Queries({q["id"]: q["question"] for q in clapnq},
                           {q["id"]: dict.fromkeys(q["passage_ids"], 1) for q in clapnq})),
    }  # fmt: skip
    for name in ("hotpotqa_100", "musique_100"):
        rows = _rows(DATA / "multihop_qa" / name / "questions.jsonl")
        found[name] = (DATA / "multihop_qa" / name / "corpus.jsonl",
                       Queries({q["id"]: q["question"] for q in rows},
                               {q["id"]: dict.fromkeys(q["supporting_doc_ids"], 1) for q in rows}))  # fmt: skip
    return found


async def evaluate(
    engine: Engine, queries: Queries, options: RetrievalOptions, *, dense: bool
) -> dict[str, Any]:
    return await evaluate_retrieval(
        engine, queries, options, dense=dense, chunk_hits=60, recall_ks=(5, 20)
    )


async def main() -> dict[str, Any]:
    results: dict[str, Any] = {}
    for name, (corpus, queries) in datasets().items():
        settings = Settings(index_dir=CACHE / f"transfer-{name}", embedder="minilm")
        async with await Engine.open(settings=settings) as engine:
            await engine.index([corpus])
            base = RetrievalOptions(depth=200)
            results[name] = {
                "bm25": await evaluate(engine, queries, base, dense=False),
                "dense": await evaluate(engine, queries, replace(base, alpha=1.0), dense=True),
                "hybrid_rrf60": await evaluate(
                    engine, queries, replace(base, fusion="rrf"), dense=True
                ),
                "hybrid_convex_0.5": await evaluate(engine, queries, base, dense=True),
            }
        print(name, json.dumps(results[name]))
    return {"datasets": results, "note": "validation only: no setting was tuned on these sets"}


if __name__ == "__main__":
    write_result("retrieval_transfer", asyncio.run(main()))
