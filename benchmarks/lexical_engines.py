"""Why tantivy: BM25 in SQLite FTS5 against tantivy, on the same texts and queries.

Both index the SciFact abstracts (title and text in one field, Porter-style English
stemming) once for quality, then 20 copies (about 100k documents) for speed. Queries are the
300 SciFact test claims with stopwords removed, OR-ed term by term. Reported: build seconds,
query latency p50/p95 for the top 100, and nDCG@10 on the single copy.

    python -m benchmarks.lexical_engines
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import tantivy

from benchmarks.common import (
    CACHE,
    SCIFACT,
    ndcg_at,
    percentiles,
    require,
    scifact_test,
    write_result,
)
from citesynth.analysis import INDEX_ANALYZER, TOKENIZER_NAME, query_terms

COPIES = 20
Search = Callable[[str], list[str]]


def records() -> list[dict[str, Any]]:
    lines = require(SCIFACT / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line]


def fts5(rows: list[dict[str, Any]], copies: int) -> tuple[float, Search]:
    path = CACHE / "lexical-fts5.sqlite3"
    path.unlink(missing_ok=True)
    db = sqlite3.connect(path)
    db.execute(
        "CREATE VIRTUAL TABLE f USING fts5(doc UNINDEXED, body, tokenize='porter unicode61 remove_diacritics 2')"
    )
    started = time.perf_counter()
    with db:
        for _ in range(copies):
            db.executemany(
                "INSERT INTO f VALUES (?, ?)",
                [(r["_id"], f"{r['title']}\n{r['text']}") for r in rows],
            )
    db.execute("INSERT INTO f(f) VALUES ('optimize')")
    db.commit()
    built = time.perf_counter() - started

    def search(query: str) -> list[str]:
        words = [word for word in query_terms(query) if word.isalnum()]
        expression = " OR ".join(f'"{word}"' for word in words) or '""'
        sql = "SELECT doc FROM f WHERE f MATCH ? ORDER BY bm25(f) LIMIT 100"
        return [row[0] for row in db.execute(sql, (expression,))]

    return built, search


def tantivy_index(rows: list[dict[str, Any]], copies: int) -> tuple[float, Search]:
    folder = CACHE / "lexical-tantivy"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("body", tokenizer_name=TOKENIZER_NAME)
    builder.add_text_field("doc", stored=True, tokenizer_name="raw")
    schema = builder.build()
    index = tantivy.Index(schema, path=str(folder))
    index.register_tokenizer(TOKENIZER_NAME, INDEX_ANALYZER)
    started = time.perf_counter()
    writer = index.writer(heap_size=128 * 2**20, num_threads=1)
    for _ in range(copies):
        for row in rows:
            writer.add_document(
                tantivy.Document(doc=row["_id"], body=f"{row['title']}\n{row['text']}")
            )
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    built = time.perf_counter() - started
    searcher = index.searcher()

    def search(query: str) -> list[str]:
        clauses = [
            (tantivy.Occur.Should, tantivy.Query.term_query(schema, "body", t))
            for t in query_terms(query)
        ]
        hits = searcher.search(tantivy.Query.boolean_query(clauses), 100, count=False).hits
        return [searcher.doc(address)["doc"][0] for _, address in hits]

    return built, search


def measure(search: Search, queries: dict[str, str]) -> dict[str, float]:
    latency = []
    for text in queries.values():
        started = time.perf_counter()
        search(text)
        latency.append((time.perf_counter() - started) * 1000)
    return percentiles(latency)


def main() -> dict[str, Any]:
    rows, test = records(), scifact_test()
    results: dict[str, Any] = {}
    for name, build in (("sqlite_fts5", fts5), ("tantivy", tantivy_index)):
        _, one = build(rows, 1)
        quality = sum(
            ndcg_at(list(dict.fromkeys(one(t))), test.qrels[q]) for q, t in test.text.items()
        ) / len(test.text)
        seconds, many = build(rows, COPIES)
        results[name] = {
            "ndcg_at_10": round(quality, 4),
            "documents": len(rows) * COPIES,
            "build_seconds": round(seconds, 2),
            "latency_ms": measure(many, test.text),
        }
        print(name, results[name])
    return {"engines": results, "queries": "BEIR SciFact test (300)"}


if __name__ == "__main__":
    write_result("lexical_engines", main())
