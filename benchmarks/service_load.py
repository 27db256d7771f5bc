"""The HTTP service under load: time to the `sources` event, concurrent streams, memory.

The server runs in its own process (`citesynth serve`'s app, uvicorn, one worker) over a
10k-chunk index of the BEIR SciFact abstracts, answering with the shipped scripted model, so
every figure is the service's own cost; this process is the client (httpx, real loopback).

1. `sources` latency: 200 streamed questions one at a time (distinct SciFact queries, so no
   cache hits), from sending the request to reading the `sources` event. Baselines in the
   same run: `POST /api/search` (the same retrieval, no stream) and `GET /healthz` (HTTP).
   The not-found cut-off is off, so every question reaches the model.
2. 50 concurrent streams, the model sending 40 pieces 20 ms apart (0.8 s of generation):
   errors, total time, and the overhead per request (total minus the 0.8 s of generation),
   against one stream alone in the same run.
3. Memory: the server's RSS over 1,000 more requests after 1,000 warm-up requests (which fill
   the bounded answer book and caches); stable means the last 500 add nothing meaningful.

    python -m benchmarks.service_load            # ≈ 5 min after the index is built once
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import psutil

from benchmarks.common import CACHE, DATA, ROOT, percentiles, require, write_result

PIECES, PIECE_DELAY = 40, 0.02
MODEL_SECONDS = PIECES * PIECE_DELAY


def build_index(index: Path, embedder: str) -> dict[str, Any]:
    """Index the SciFact abstracts once (cached) into ≥ 10k chunks."""
    corpus = require(DATA / "scifact" / "corpus.jsonl")
    env = {**os.environ, "CITESYNTH_EMBEDDER": embedder, "CITESYNTH_CHUNK_TOKENS": "120",
           "CITESYNTH_OVERLAP_TOKENS": "15"}  # fmt: skip
    link = index.parent / "scifact.jsonl"
    if not link.exists():
        link.symlink_to(corpus)
    command = [sys.executable, "-m", "citesynth", "index", str(link), "--index", str(index), "-q"]
    subprocess.run(command, env=env, check=True, cwd=index.parent)
    stats = subprocess.run(
        [sys.executable, "-m", "citesynth", "stats", "--index", str(index)],
        env=env, capture_output=True, text=True, check=True, cwd=index.parent,
    )  # fmt: skip
    return {"embedder": embedder, "stats": stats.stdout.strip()}


def serve(index: Path | str, port: int, embedder: str) -> None:
    """The server process: the app over `index` (a folder or a store location such as
    `postgresql://...`), answering with the scripted model."""
    import uvicorn

    from citesynth import Engine, LLMWriter, ScriptedModel, Settings
    from citesynth.llm.fake import cite_first_source
    from citesynth.service import ServiceConfig, create_app

    def reply(messages: Any) -> str:
        text = cite_first_source(messages)
        return (text + " ")[: PIECES * 4].ljust(PIECES * 4)

    async def main() -> None:
        settings = Settings(store=str(index), embedder=embedder, model="extractive")
        async with await Engine.open(settings=settings) as engine:
            model = ScriptedModel(default=reply, delay=PIECE_DELAY, piece_chars=4)
            engine.writer = LLMWriter(model, engine.prompts, timeout=60)
            # Every question goes to the model (none is cut short as "not found").
            engine.answering = replace(engine.answering, not_found_below=0.0)
            app = create_app(engine, ServiceConfig(port=port))
            config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
            await uvicorn.Server(config).serve()

    asyncio.run(main())


async def first_event(client: httpx.AsyncClient, question: str) -> tuple[float, float, bool]:
    """Seconds to the `sources` event and to the end of the stream; whether it ended `done`."""
    started = time.perf_counter()
    to_sources = 0.0
    last = ""
    async with client.stream("POST", "/api/chat/stream", json={"question": question}) as reply:
        reply.raise_for_status()
        async for line in reply.aiter_lines():
            if line.startswith("event: "):
                last = line[7:]
                if last == "sources" and not to_sources:
                    to_sources = time.perf_counter() - started
    return to_sources, time.perf_counter() - started, last == "done"


async def timed(call: Any) -> float:
    started = time.perf_counter()
    (await call).raise_for_status()
    return (time.perf_counter() - started) * 1000


async def sources_latency(client: httpx.AsyncClient, questions: list[str]) -> dict[str, Any]:
    for question in questions[:10]:  # warm-up: models, indexes, connections
        await first_event(client, question + " warm")
    sources, search, health = [], [], []
    for question in questions[10:210]:
        seconds, _, _ = await first_event(client, question)
        sources.append(seconds * 1000)
        body = {"query": question, "k": 10}
        search.append(await timed(client.post("/api/search", json=body)))
        health.append(await timed(client.get("/healthz")))
    return {
        "sources_event_ms": percentiles(sources),
        "search_ms": percentiles(search),
        "healthz_ms": percentiles(health),
        "goal_p95_ms": 50,
    }


async def concurrent(client: httpx.AsyncClient, questions: list[str], n: int) -> dict[str, Any]:
    _, alone, _ = await first_event(client, questions[0] + " alone")
    results = await asyncio.gather(
        *(first_event(client, f"{q} concurrent") for q in questions[1 : n + 1]),
        return_exceptions=True,
    )
    ok = [r for r in results if isinstance(r, tuple) and r[2]]
    errors = [repr(r) for r in results if not (isinstance(r, tuple) and r[2])]
    overhead = [(total - MODEL_SECONDS) * 1000 for _, total, _ in ok]
    return {
        "streams": n,
        "errors": len(errors),
        "error_examples": errors[:3],
        "alone_overhead_ms": round((alone - MODEL_SECONDS) * 1000, 1),
        "overhead_ms": percentiles(overhead),
        "sources_event_ms": percentiles([s * 1000 for s, _, _ in ok]),
        "model_seconds_per_answer": MODEL_SECONDS,
    }


async def memory(
    client: httpx.AsyncClient, process: psutil.Process, questions: list[str]
) -> dict[str, Any]:
    async def one(i: int) -> None:
        question = f"{questions[i % len(questions)]} #{i}"
        if i % 3 == 0:
            await first_event(client, question)
        elif i % 3 == 1:
            (await client.post("/api/chat", json={"question": question})).raise_for_status()
        else:
            body = {"query": question, "k": 10}
            (await client.post("/api/search", json=body)).raise_for_status()

    samples: list[tuple[int, float]] = []
    limit = asyncio.Semaphore(8)

    async def bounded(i: int) -> None:
        async with limit:
            await one(i)

    for start in range(0, 2000, 250):
        await asyncio.gather(*(bounded(i) for i in range(start, start + 250)))
        samples.append((start + 250, process.memory_info().rss / 2**20))
    after_warmup = dict(samples)[1000]
    return {
        "requests": 2000,
        "rss_mb_by_requests": {str(n): round(mb, 1) for n, mb in samples},
        "growth_mb_last_1000": round(samples[-1][1] - after_warmup, 1),
        "growth_mb_last_500": round(samples[-1][1] - dict(samples)[1500], 1),
    }


async def client_side(port: int, process: psutil.Process, questions: list[str]) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=100, max_keepalive_connections=100)
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", timeout=120, limits=limits
    ) as client:
        deadline = time.monotonic() + 120
        while True:
            try:
                if (await client.get("/readyz")).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not become ready")
            await asyncio.sleep(0.2)
        latency = await sources_latency(client, questions)
        print(json.dumps(latency), flush=True)
        streams = await concurrent(client, questions[300:], 50)
        print(json.dumps(streams), flush=True)
        mem = await memory(client, process, questions[400:])
        print(json.dumps(mem), flush=True)
        return {"sources_latency": latency, "concurrent_streams": streams, "memory": mem}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", help=argparse.SUPPRESS)  # a folder or a store URL
    parser.add_argument("--port", type=int, default=8799)
    parser.add_argument(
        "--embedder", default="hashing", help="hashing (default: the service's own cost) or minilm"
    )
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.port, args.embedder)
        return
    folder = CACHE / f"service-{args.embedder}"
    folder.mkdir(parents=True, exist_ok=True)
    index = folder / "index"
    built = build_index(index, args.embedder)
    print(built["stats"], flush=True)
    rows = [json.loads(line) for line in (DATA / "scifact" / "queries.jsonl").open()]
    questions = [row["text"] for row in rows]
    command = [sys.executable, "-m", "benchmarks.service_load", "--serve", str(index),
               "--port", str(args.port), "--embedder", args.embedder]  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT)
    try:
        figures = asyncio.run(client_side(args.port, psutil.Process(server.pid), questions))
    finally:
        server.terminate()
        server.wait(30)
    name = "service_load" if args.embedder == "hashing" else f"service_load_{args.embedder}"
    write_result(name, {"index": built, **figures})


if __name__ == "__main__":
    main()
