"""The PostgreSQL store against the SQLite store: SciFact quality, then scale.

1. SciFact (BEIR test, 300 queries): the SQLite index of `retrieval_quality` (MiniLM, 200-
   token chunks) is copied with `citesynth migrate` into PostgreSQL, so both stores hold the
   same chunks and the same vectors. nDCG@10 and Recall@100 for BM25, dense and hybrid on
   each, and beside our BM25 inside PostgreSQL, PostgreSQL's own full-text ranking
   (`ts_rank_cd` over an English tsvector with a GIN index).
2. Scale (`--scale N`): N chunks made from the SciFact chunks, each copy's text tagged and
   its MiniLM vector turned by a random rotation of its own (copies neither tie nor cluster
   on one another; queries go to one copy each, turned alike), written to both stores with
   the same `write` / `put_vectors` calls. Ingest rate, the ANN index build, hybrid search
   p50/p95 (the engine's two store calls at its default depth, 100), HNSW recall@10 against
   exact search, exact-search latency by table size (what sets `HNSW_FROM`), and size on
   disk, side by side.

    python -m benchmarks.postgres_store                  # SciFact, ≈ 3 min after the cache
    python -m benchmarks.postgres_store --scale 100000   # ≈ 15 min
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from benchmarks.common import CACHE, percentiles, scifact_test, write_result
from benchmarks.pg import pg_server, with_schema
from benchmarks.retrieval_quality import CHUNK_HITS, DEPTH, open_index
from citesynth import Engine, migrate
from citesynth.index.postgres import PostgresStore
from citesynth.index.store import ChunkRecord, FileState, FileVersion, Store, index_text
from citesynth.index.stores import get_store
from citesynth.ingest.text import content_hash
from citesynth.retrieve.hybrid import RetrievalOptions
from citesynth.types import Chunk, ChunkId, Document, DocumentId, DocumentKind

PG_DATA = CACHE / "pg"
SEARCH_DEPTH = 100  # the engine's default candidates per retriever


class EnglishFullText(PostgresStore):
    """PostgreSQL's own full-text search: an English tsvector, OR of the query's words,
    ranked by `ts_rank_cd` or `ts_rank` (`RANK`; normalisation 1: divided by 1 + log(length))."""

    RANK = "ts_rank_cd"

    async def prepare_english(self) -> None:
        async with self._connection() as connection:
            await connection.execute(
                "CREATE TABLE IF NOT EXISTS bench_english AS "
                "SELECT id, to_tsvector('english', text) AS tsv FROM chunks"
            )
            await connection.execute(
                "CREATE INDEX IF NOT EXISTS bench_english_tsv ON bench_english USING gin(tsv)"
            )

    async def lexical_search(self, query: str, k: int) -> list[tuple[ChunkId, float]]:
        words = [w for w in re.findall(r"[A-Za-z0-9]+", query) if len(w) > 1]
        if not words or k <= 0:
            return []
        rows = await self._rows(
            "WITH q AS (SELECT to_tsquery('english', %s) AS q) "
            f"SELECT c.chunk_id, {self.RANK}(b.tsv, q.q, 1) AS score FROM bench_english b "
            "CROSS JOIN q JOIN chunks c ON c.id = b.id WHERE b.tsv @@ q.q "
            "ORDER BY score DESC, b.id LIMIT %s",
            (" | ".join(words), k),
        )
        return [(ChunkId(chunk_id), float(score)) for chunk_id, score in rows]


async def evaluate(engine: Engine, options: RetrievalOptions, *, dense: bool) -> dict[str, Any]:
    from benchmarks.common import evaluate_retrieval

    return await evaluate_retrieval(
        engine, scifact_test(), options, dense=dense, chunk_hits=CHUNK_HITS, recall_ks=(100,)
    )


async def scifact(url: str) -> dict[str, Any]:
    """Both stores on the same SciFact chunks and vectors; PostgreSQL's lexical options."""
    sqlite, _ = await open_index(200)
    target = with_schema(url, "scifact")
    copy_started = time.perf_counter()
    async for event in migrate(str(CACHE / "scifact-c200"), target):
        finished = event
    copy_seconds = time.perf_counter() - copy_started
    default = RetrievalOptions(depth=DEPTH)
    dense_only = RetrievalOptions(depth=DEPTH, alpha=1.0)
    result: dict[str, Any] = {"copy": {"seconds": round(copy_seconds, 1), "report": repr(finished)}}
    try:
        stores: dict[str, Store] = {"postgres_bm25": await PostgresStore.open(target)}
        english = await EnglishFullText.open(target)
        await english.prepare_english()
        stores["postgres_ts_rank_cd_english"] = english
        plain = await EnglishFullText.open(target)
        plain.RANK = "ts_rank"
        stores["postgres_ts_rank_english"] = plain
        engines = {"sqlite": sqlite}
        for name, store in stores.items():
            engines[name] = Engine(
                store=store, embedder=sqlite.embedder, root=sqlite.root, retrieval=default
            )
        for name, engine in engines.items():
            row: dict[str, Any] = {"bm25": await evaluate(engine, default, dense=False)}
            if name in {"sqlite", "postgres_bm25"}:
                row["dense"] = await evaluate(engine, dense_only, dense=True)
                row["hybrid_default"] = await evaluate(engine, default, dense=True)
            result[name] = row
            print(name, {key: value["ndcg_at_10"] for key, value in row.items()}, flush=True)
    finally:
        for engine in engines.values():
            await engine.close()
    ours, theirs = result["postgres_bm25"], result["sqlite"]
    result["ndcg_difference"] = {
        key: round(ours[key]["ndcg_at_10"] - theirs[key]["ndcg_at_10"], 4) for key in ours
    }
    return result


# -- scale -----------------------------------------------------------------------------------


def synthetic_corpus(
    sqlite_chunks: list[Chunk], vectors: dict[str, npt.NDArray[np.float32]], target: int
) -> tuple[list[FileVersion], dict[str, npt.NDArray[np.float32]], list[npt.NDArray[np.float32]]]:
    """`target` chunks: copies of the SciFact chunks, a tag in the text, vectors turned."""
    rng = np.random.default_rng(7)
    dimension = len(next(iter(vectors.values())))
    copies = -(-target // len(sqlite_chunks))
    rotations = [
        np.linalg.qr(rng.standard_normal((dimension, dimension)))[0] for _ in range(copies)
    ]
    by_record: dict[str, list[Chunk]] = {}
    for chunk in sqlite_chunks:
        by_record.setdefault(chunk.record_id or chunk.path, []).append(chunk)
    files: list[FileVersion] = []
    turned: dict[str, npt.NDArray[np.float32]] = {}
    made = 0
    for copy in range(copies):
        for record, chunks in by_record.items():
            if made >= target:
                break
            texts = [f"copy{copy} {chunk.text}" for chunk in chunks]
            text = "\n\n".join(texts)
            document = Document(
                id=DocumentId(content_hash(f"{copy}:{record}")),
                path=f"synthetic/{copy}/{record}.txt",
                title=chunks[0].title,
                kind=DocumentKind.TEXT,
                text=text,
            )
            records, start = [], 0
            for ordinal, (chunk, body) in enumerate(zip(chunks, texts, strict=True)):
                made_chunk = Chunk(
                    id=ChunkId(f"s{copy}:{chunk.id}:{ordinal}"),
                    document_id=document.id,
                    path=document.path,
                    title=chunk.title,
                    heading_path=chunk.heading_path,
                    text=body,
                    char_start=start,
                    char_end=start + len(body),
                    start_line=1,
                    end_line=1,
                )
                start += len(body) + 2
                records.append(ChunkRecord(made_chunk))
                key = content_hash(index_text(chunk))
                if key in vectors:
                    vector = rotations[copy] @ vectors[key]
                    turned[content_hash(index_text(made_chunk))] = (
                        vector / np.linalg.norm(vector)
                    ).astype(np.float32)
                made += 1
            state = FileState(
                f"/synthetic/{copy}/{record}.txt", document.path, len(text), 1,
                content_hash(text), "synthetic",
            )  # fmt: skip
            files.append(FileVersion(state, (document,), (tuple(records),)))
    return files, turned, rotations


async def ingest(
    store: Store, files: list[FileVersion], vectors: dict[str, npt.NDArray[np.float32]], model: str
) -> dict[str, float]:
    """Write in batches of 200 files, as `citesynth index` does; then the vectors."""
    chunks = sum(len(f.chunks[0]) for f in files)
    started = time.perf_counter()
    for begin in range(0, len(files), 200):
        await store.write(files[begin : begin + 200], [])
    written = time.perf_counter() - started
    keys = list(vectors)
    started = time.perf_counter()
    for begin in range(0, len(keys), 1000):
        page = keys[begin : begin + 1000]
        await store.put_vectors(model, page, np.stack([vectors[key] for key in page]))
    stored = time.perf_counter() - started
    return {
        "chunks": chunks,
        "write_seconds": round(written, 1),
        "chunks_per_second": round(chunks / written, 1),
        "vectors_seconds": round(stored, 1),
        "vectors_per_second": round(len(keys) / stored, 1),
    }


async def searches(
    store: Store, model: str, queries: list[tuple[str, npt.NDArray[np.float32]]]
) -> dict[str, Any]:
    """The engine's two store calls per question (BM25 then dense), depth 100."""
    lexical, dense, both = [], [], []
    for text, vector in queries:
        started = time.perf_counter()
        await store.lexical_search(text, SEARCH_DEPTH)
        middle = time.perf_counter()
        await store.dense_search(model, vector, SEARCH_DEPTH)
        ended = time.perf_counter()
        lexical.append((middle - started) * 1000)
        dense.append((ended - middle) * 1000)
        both.append((ended - started) * 1000)
    return {
        "hybrid_ms": percentiles(both),
        "lexical_ms": percentiles(lexical),
        "dense_ms": percentiles(dense),
    }


def folder_mb(folder: Path) -> float:
    return round(sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 2**20, 1)


async def schema_mb(store: PostgresStore) -> float:
    row = await store._one(
        "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c "
        "JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = %s AND c.relkind IN ('r', 'm')",
        (store.schema,),
    )
    return round(int(row[0] if row and row[0] else 0) / 2**20, 1)


async def scale(url: str, target: int) -> dict[str, Any]:
    sqlite, _ = await open_index(200)
    assert sqlite.embedder is not None
    model = sqlite.embedder.name
    try:
        source = sqlite.store
        paths = sorted(await source.file_states())
        originals = [
            item.chunk
            for version in await source.file_versions(paths)
            for chunks in version.chunks
            for item in chunks
        ]
        hashes = [content_hash(index_text(chunk)) for chunk in originals]
        vectors = await source.vectors(model, hashes)
        test = scifact_test()
        texts = list(test.text.values())
        query_vectors = await sqlite.embedder.embed(texts, "query")
    finally:
        await sqlite.close()
    files, turned, rotations = synthetic_corpus(originals, vectors, target)
    queries = [
        (
            f"copy{i % len(rotations)} {text}",
            (rotations[i % len(rotations)] @ vector).astype(np.float32),
        )
        for i, (text, vector) in enumerate(zip(texts, query_vectors, strict=True))
    ]
    print(f"synthetic corpus: {sum(len(f.chunks[0]) for f in files)} chunks", flush=True)
    result: dict[str, Any] = {
        "chunks": sum(len(f.chunks[0]) for f in files),
        "copies": len(rotations),
    }

    folder = CACHE / f"scale-sqlite-{target}"
    shutil.rmtree(folder, ignore_errors=True)
    lite = await get_store(f"sqlite:{folder}")
    try:
        row: dict[str, Any] = {"ingest": await ingest(lite, files, turned, model)}
        started = time.perf_counter()
        await lite.dense_search(model, queries[0][1], 10)  # loads the vectors into faiss
        row["ann_build_seconds"] = round(time.perf_counter() - started, 1)
        row["search"] = await searches(lite, model, queries)
        row["size_mb"] = folder_mb(folder)
        result["sqlite"] = row
        print("sqlite", row, flush=True)
    finally:
        await lite.close()
    shutil.rmtree(folder, ignore_errors=True)

    schema = f"scale{target}"
    location = with_schema(url, schema)
    pg = await PostgresStore.open(location, hnsw_from=10**12)
    try:
        await pg._execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    finally:
        await pg.close()
    pg = await PostgresStore.open(location, hnsw_from=10**12)
    try:
        row = {"ingest": await ingest(pg, files, turned, model)}
        row["exact_dense_ms_by_size"] = await exact_by_size(pg, model, list(turned), queries)
        exact = [await pg.dense_search(model, vector, 10) for _, vector in queries]
        row["search_exact"] = await searches(pg, model, queries[:100])
        started = time.perf_counter()
        await pg.build_vector_index(model, len(queries[0][1]))
        row["ann_build_seconds"] = round(time.perf_counter() - started, 1)
        await pg._execute("ANALYZE")
        approximate = [await pg.dense_search(model, vector, 10) for _, vector in queries]
        row["hnsw_recall_at_10"] = round(
            statistics.fmean(
                len({c for c, _ in a} & {c for c, _ in e}) / max(1, len(e))
                for a, e in zip(approximate, exact, strict=True)
            ),
            4,
        )
        row["search"] = await searches(pg, model, queries)
        row["size_mb"] = await schema_mb(pg)
        result["postgres"] = row
        print("postgres", row, flush=True)
    finally:
        await pg.close()
    result["ratios_postgres_over_sqlite"] = {
        "ingest_chunks_per_second": round(
            result["postgres"]["ingest"]["chunks_per_second"]
            / result["sqlite"]["ingest"]["chunks_per_second"], 2,
        ),
        "hybrid_p95": round(
            result["postgres"]["search"]["hybrid_ms"]["p95"]
            / result["sqlite"]["search"]["hybrid_ms"]["p95"], 2,
        ),
        "size": round(result["postgres"]["size_mb"] / result["sqlite"]["size_mb"], 2),
    }  # fmt: skip
    return result


async def exact_by_size(
    pg: PostgresStore, model: str, keys: list[str], queries: list[tuple[str, Any]]
) -> dict[str, Any]:
    """Exact dense search p50/p95 with 5k … all vectors of a model (sets `HNSW_FROM`)."""
    found: dict[str, Any] = {}
    sizes = [n for n in (5_000, 10_000, 20_000, 50_000) if n < len(keys)] + [len(keys)]
    for size in sizes:
        name = f"{model}@{size}" if size < len(keys) else model
        if size < len(keys):
            vectors = await pg.vectors(model, keys[:size])
            page = list(vectors)
            for begin in range(0, len(page), 1000):
                part = page[begin : begin + 1000]
                await pg.put_vectors(name, part, np.stack([vectors[k] for k in part]))
        samples = []
        for _, vector in queries[:60]:
            started = time.perf_counter()
            await pg.dense_search(name, vector, SEARCH_DEPTH)
            samples.append((time.perf_counter() - started) * 1000)
        found[str(size)] = percentiles(samples)
        print("exact", size, found[str(size)], flush=True)
        if size < len(keys):
            await pg._execute("DELETE FROM embeddings WHERE model = %s", (name,))
    return found


async def hnsw_sweep(url: str, target: int, queries_wanted: int = 60) -> dict[str, Any]:
    """Recall@10 and latency of the HNSW index of a `--scale` run by `hnsw.ef_search`."""
    store = await PostgresStore.open(with_schema(url, f"scale{target}"), create=False)
    sqlite, _ = await open_index(200)
    try:
        assert sqlite.embedder is not None
        texts = list(scifact_test().text.values())[:queries_wanted]
        vectors = await sqlite.embedder.embed(texts, "query")
        model = sqlite.embedder.name
    finally:
        await sqlite.close()
    rng = np.random.default_rng(7)  # the rotations of `synthetic_corpus`
    dimension = vectors.shape[1]
    copies = -(-target // 11_493)
    turns = [np.linalg.qr(rng.standard_normal((dimension, dimension)))[0] for _ in range(copies)]
    queries = [(turns[i % copies] @ v).astype(np.float32) for i, v in enumerate(vectors)]
    statement = (
        f"SELECT text_hash FROM embeddings WHERE model = '{model}' "
        f"ORDER BY vector::vector({dimension}) <=> %s LIMIT 10"
    )
    found: dict[str, Any] = {"queries": len(queries)}
    try:
        async with store._connection() as connection:
            exact = []
            async with connection.transaction():
                await connection.execute("SET LOCAL enable_indexscan = off")
                for query in queries:
                    cursor = await connection.execute(statement, (query,), prepare=False)
                    exact.append({row[0] for row in await cursor.fetchall()})
            for ef in (40, 100, 200, 400, 1000):
                await connection.execute(f"SET hnsw.ef_search = {ef}")
                recall, samples = [], []
                for query, truth in zip(queries, exact, strict=True):
                    started = time.perf_counter()
                    cursor = await connection.execute(statement, (query,), prepare=False)
                    got = {row[0] for row in await cursor.fetchall()}
                    samples.append((time.perf_counter() - started) * 1000)
                    recall.append(len(got & truth) / max(1, len(truth)))
                found[f"ef_search_{ef}"] = {
                    "recall_at_10": round(statistics.fmean(recall), 4),
                    "latency_ms": percentiles(samples),
                }
                print(ef, found[f"ef_search_{ef}"], flush=True)
    finally:
        await store.close()
    return found


async def postings_sweep(url: str, target: int, queries_wanted: int = 80) -> dict[str, Any]:
    """BM25 latency and agreement with reading every posting, by `postings_per_term`."""
    from citesynth.index import postgres_lexical

    store = await PostgresStore.open(with_schema(url, f"scale{target}"), create=False)
    copies = -(-target // 11_493)
    texts = list(scifact_test().text.values())[:queries_wanted]
    queries = [f"copy{i % copies} {text}" for i, text in enumerate(texts)]
    found: dict[str, Any] = {"queries": len(queries)}
    try:
        async with store._connection() as connection:
            full = []
            samples = []
            for query in queries:
                started = time.perf_counter()
                hits = await postgres_lexical.search(connection, query, SEARCH_DEPTH, 0)
                samples.append((time.perf_counter() - started) * 1000)
                full.append([chunk for chunk, _ in hits])
            found["all"] = {"latency_ms": percentiles(samples), "top10_agreement": 1.0}
            for cap in (1_000, 4_000, 10_000, 20_000, 50_000):
                samples, agreement = [], []
                for query, truth in zip(queries, full, strict=True):
                    started = time.perf_counter()
                    hits = await postgres_lexical.search(connection, query, SEARCH_DEPTH, cap)
                    samples.append((time.perf_counter() - started) * 1000)
                    agreement.append(len({c for c, _ in hits[:10]} & set(truth[:10])) / 10)
                found[str(cap)] = {
                    "latency_ms": percentiles(samples),
                    "top10_agreement": round(statistics.fmean(agreement), 3),
                }
                print(cap, found[str(cap)], flush=True)
    finally:
        await store.close()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=int, default=0, help="chunks for the scale run")
    parser.add_argument(
        "--ef-sweep", action="store_true", help="recall by ef_search on a --scale run's index"
    )
    parser.add_argument(
        "--postings-sweep",
        action="store_true",
        help="BM25 by postings_per_term on a --scale run's index",
    )
    arguments = parser.parse_args()
    with pg_server(PG_DATA) as url:
        if arguments.postings_sweep:
            swept = asyncio.run(postings_sweep(url, arguments.scale))
            write_result(f"postgres_bm25_postings_{arguments.scale}", swept)
        elif arguments.ef_sweep:
            sweep = asyncio.run(hnsw_sweep(url, arguments.scale))
            write_result(f"postgres_hnsw_ef_{arguments.scale}", sweep)
        elif arguments.scale:
            result = asyncio.run(scale(url, arguments.scale))
            write_result(f"postgres_scale_{arguments.scale}", result)
        else:
            result = asyncio.run(scifact(url))
            write_result("postgres_scifact", result)


if __name__ == "__main__":
    main()
