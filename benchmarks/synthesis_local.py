"""The embedded model on the demo corpus: time to first token, total time, tokens per second.

Twenty questions about this project's own documentation, answered by `local` (Qwen2.5-Coder
1.5B Q4_K_M on llama.cpp) with five sources cut to their key sentences, cache off. The first
answer also pays for starting the model server; it is reported apart as the cold start.
Goal for a 5-source question: first token <= 5 s, total <= 15 s.

    python -m benchmarks.synthesis_local [--model local:0.5b]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, percentiles, write_result
from citesynth import Engine, Settings
from citesynth.demo import build_demo_corpus

QUESTIONS = (
    "What happens when citesynth indexes a corrupt or encrypted PDF?",
    "How does citesynth skip files that have not changed?",
    "Which PDF library does citesynth use, and why?",
    "How are BM25 and dense retrieval results combined?",
    "What does the Pass-1 confidence of a hit estimate?",
    "Where does citesynth keep its index by default?",
    "How are chunk line numbers kept exact?",
    "What happens if the process crashes in the middle of a write?",
    "Which embedding model does citesynth use?",
    "How large can a file be before it is skipped?",
    "How does the tantivy index relate to SQLite?",
    "When is an approximate vector index used instead of exact search?",
    "What does `citesynth search --json` print?",
    "How is text with undecodable bytes handled?",
    "What is the default chunk size in tokens?",
    "How does citesynth handle HTML navigation and boilerplate?",
    "Can several processes write to the index at once?",
    "How are source code files split into chunks?",
    "What is reciprocal rank fusion used for in citesynth?",
    "How fast is hybrid search on 100,000 chunks?",
)


async def main(model: str) -> dict[str, Any]:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        corpus = build_demo_corpus(ROOT, Path(folder) / "pdf")
        settings = Settings(index_dir=Path(folder) / "index", embedder="minilm", model=model)
        async with await Engine.open(settings=settings) as engine:
            await engine.index(corpus)
            await engine.search("warm up the embedder", 1)
            started = time.perf_counter()
            cold = await engine.answer("What is citesynth?", cache=False)
            cold_seconds = time.perf_counter() - started
            for question in QUESTIONS:
                answer = await engine.answer(question, cache=False)
                latency = answer.usage.latency_ms
                generate = latency.get("generate", 0.0) - (
                    latency.get("first_token", 0.0) - latency.get("retrieve", 0.0)
                    - latency.get("prepare", 0.0)
                )  # fmt: skip
                tokens = answer.usage.completion_tokens or 0
                waiting = (
                    latency.get("first_token", 0.0)
                    - latency.get("retrieve", 0.0)
                    - (latency.get("prepare", 0.0))
                )
                prompt = answer.usage.prompt_tokens or 0
                rows.append(
                    {
                        "question": question,
                        "sources": len(answer.sources),
                        "first_token_ms": latency.get("first_token"),
                        "total_ms": latency["total"],
                        "prompt_tokens": answer.usage.prompt_tokens,
                        "completion_tokens": tokens,
                        "tokens_per_second": round(tokens / (generate / 1000), 1)
                        if generate > 0 and tokens
                        else None,
                        "prefill_tokens_per_second": round(prompt / (waiting / 1000), 1)
                        if waiting > 0 and prompt
                        else None,
                        "not_found": answer.not_found,
                        "fallback": answer.fallback.reason if answer.fallback else None,
                        "citations": len(answer.citations),
                        "answer": answer.answer[:400],
                    }
                )
                print(rows[-1]["first_token_ms"], rows[-1]["total_ms"], question, flush=True)
    timed = [r for r in rows if r["first_token_ms"] is not None]
    five = [r for r in timed if r["sources"] >= 5]
    speeds = [r["tokens_per_second"] for r in rows if r["tokens_per_second"]]
    prefill = [r["prefill_tokens_per_second"] for r in rows if r["prefill_tokens_per_second"]]
    return {
        "model": model,
        "cold_start_seconds": round(cold_seconds, 1),
        "cold_answer_model": cold.model,
        "first_token_ms": percentiles([r["first_token_ms"] for r in timed]),
        "total_ms": percentiles([r["total_ms"] for r in rows]),
        "five_source_first_token_ms": percentiles([r["first_token_ms"] for r in five])
        if five
        else None,
        "five_source_total_ms": percentiles([r["total_ms"] for r in five]) if five else None,
        "prompt_tokens_mean": round(statistics.fmean(r["prompt_tokens"] or 0 for r in timed), 1)
        if timed
        else None,
        "generation_tokens_per_second_median": statistics.median(speeds) if speeds else None,
        "prefill_tokens_per_second_median": statistics.median(prefill) if prefill else None,
        "answered_with_citations": sum(1 for r in rows if r["citations"]),
        "not_found": sum(1 for r in rows if r["not_found"]),
        "fallbacks": sum(1 for r in rows if r["fallback"]),
        "questions": rows,
        "goal": "5-source question: first token <= 5 s, total <= 15 s",
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="local")
    arguments = parser.parse_args()
    name = "synthesis_local" if arguments.model == "local" else "synthesis_local_small"
    write_result(name, asyncio.run(main(arguments.model)))
