"""Retrieval latency and memory at 10k and 100k chunks, and the time to build the indexes.

The larger corpora replicate SciFact under distinct ids. Replicas have the same chunk texts,
so their vectors come from the embedding cache (copied from the SciFact index) and nothing is
embedded again. Each size is measured in a fresh process so that peak RSS is honest.

Stages are timed apart: query embedding (MiniLM, one short query), BM25 (tantivy), dense
(faiss), and the whole `Engine.search` (both legs concurrently, fusion, chunk fetch,
confidence).

    python -m benchmarks.retrieval_latency [--sizes 10000 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.common import (
    CACHE,
    SCIFACT,
    RssSampler,
    peak_rss_mb,
    percentiles,
    require,
    scifact_test,
    write_result,
)
from citesynth import Engine, Settings
from citesynth.index.sqlite import SQLiteStore

SOURCE_INDEX = CACHE / "scifact-c200"
QUERIES = 300


def make_corpus(target_chunks: int, folder: Path) -> int:
    """Write replicas of the SciFact corpus (one JSONL file each) until about `target_chunks`."""
    records = [
        json.loads(line)
        for line in require(SCIFACT / "corpus.jsonl").read_text().splitlines()
        if line
    ]
    chunks_per_copy = _chunks_in(SOURCE_INDEX)
    copies = max(1, round(target_chunks / chunks_per_copy))
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for copy in range(copies):
        lines = [
            json.dumps({"_id": f"{r['_id']}-{copy}", "title": r["title"], "text": r["text"]})
            for r in records
        ]
        (folder / f"replica-{copy:03d}.jsonl").write_text("\n".join(lines) + "\n")
    return copies


def _chunks_in(index: Path) -> int:
    db = sqlite3.connect(require(index / "index.sqlite3"))
    try:
        return int(db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0])
    finally:
        db.close()


def seed_vectors(index: Path) -> None:
    """Copy the SciFact index's cached vectors into a new index, keyed by text hash."""
    db = sqlite3.connect(index / "index.sqlite3")
    try:
        db.execute("ATTACH DATABASE ? AS source", (str(SOURCE_INDEX / "index.sqlite3"),))
        db.execute("INSERT OR IGNORE INTO embeddings SELECT * FROM source.embeddings")
        db.commit()
    finally:
        db.close()


async def build(size: int) -> dict[str, Any]:
    """Build the index for `size` chunks; time ingest, lexical rebuild and vector load."""
    folder = CACHE / f"scale-{size}"
    copies = make_corpus(size, folder / "corpus")
    index = folder / "index"
    shutil.rmtree(index, ignore_errors=True)
    await (await SQLiteStore.open(index)).close()
    seed_vectors(index)
    settings = Settings(index_dir=index, embedder="minilm", max_file_mb=256)
    async with await Engine.open(settings=settings) as engine:
        started = time.perf_counter()
        report = await engine.index([folder / "corpus"])
        ingest = time.perf_counter() - started
        store = engine.store
        assert isinstance(store, SQLiteStore)
        started = time.perf_counter()
        await store.rebuild_lexical()
        lexical = time.perf_counter() - started
        started = time.perf_counter()
        await store.dense_search("all-minilm-l6-v2", _unit_query(), 1)
        dense = time.perf_counter() - started
        stats = await engine.stats()
    return {
        "copies": copies,
        "chunks": stats.chunks,
        "vectors": stats.vectors,
        "embedded_now": report.embedded,
        "ingest_seconds_excluding_embedding": round(ingest, 2),
        "ingest_mb_per_second": round(report.bytes_read / 2**20 / ingest, 2),
        "lexical_build_seconds": round(lexical, 2),
        "vector_index_build_seconds": round(dense, 2),
    }


def _unit_query() -> Any:
    import numpy as np

    vector = np.ones(384, dtype=np.float32)
    return vector / np.linalg.norm(vector)


async def measure(size: int) -> dict[str, Any]:
    """Latency per stage and peak RSS, in this (fresh) process."""
    queries = list(scifact_test().text.values())[:QUERIES]
    settings = Settings(index_dir=CACHE / f"scale-{size}" / "index", embedder="minilm")
    with RssSampler() as rss:
        async with await Engine.open(settings=settings) as engine:
            embedder, store = engine.embedder, engine.store
            assert embedder is not None
            await engine.search(queries[0], 10)  # load the model, the vectors and the searcher
            embed_ms, lexical_ms, dense_ms, search_ms, lexical_only_ms = [], [], [], [], []
            for query in queries:
                started = time.perf_counter()
                vector = (await embedder.embed([query], "query"))[0]
                embed_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                await store.lexical_search(query, 100)
                lexical_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                await store.dense_search(embedder.name, vector, 100)
                dense_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                await engine.search(query, 10)
                search_ms.append((time.perf_counter() - started) * 1000)
            engine.embedder = None
            for query in queries:
                started = time.perf_counter()
                await engine.search(query, 10)
                lexical_only_ms.append((time.perf_counter() - started) * 1000)
    hybrid = percentiles(search_ms)
    embedding = percentiles(embed_ms)
    return {
        "queries": len(queries),
        "query_embedding_ms": embedding,
        "bm25_ms": percentiles(lexical_ms),
        "dense_ms": percentiles(dense_ms),
        "hybrid_search_ms": hybrid,
        "hybrid_search_excluding_query_embedding_ms": percentiles(
            [s - e for s, e in zip(search_ms, embed_ms, strict=True)]
        ),
        "bm25_only_search_ms": percentiles(lexical_only_ms),
        "peak_rss_mb": round(max(rss.peak_mb, peak_rss_mb()), 1),
    }


def main(sizes: list[int]) -> dict[str, Any]:
    require(SOURCE_INDEX / "index.sqlite3")
    results: dict[str, Any] = {}
    for size in sizes:
        built = asyncio.run(build(size))
        measured = subprocess.run(
            [sys.executable, "-m", "benchmarks.retrieval_latency", "--measure", str(size)],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        results[str(size)] = {**built, **json.loads(measured.stdout.splitlines()[-1])}
        print(f"{size}: {json.dumps(results[str(size)])}")
    return {
        "sizes": results,
        "queries": "BEIR SciFact test queries",
        "k": 10,
        "candidates_per_retriever": 100,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--measure", type=int, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.measure:
        print(json.dumps(asyncio.run(measure(arguments.measure))))
    else:
        write_result("retrieval_latency", main(arguments.sizes))
