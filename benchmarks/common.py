"""Shared pieces of the benchmarks: data sets, metrics, machine facts, result files."""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

from citesynth.evaluation.metrics import ndcg_at, recall_at

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("CITESYNTH_DATA", ROOT.parent / "shared" / "data"))
RESULTS = ROOT / "benchmarks" / "results"
CACHE = ROOT / "benchmarks" / ".cache"
SCIFACT = DATA / "scifact"


def require(path: Path) -> Path:
    """`path`, or exit with a clear message when the shared data is not there."""
    if not path.exists():
        print(f"skipped: {path} not found (the benchmarks read ../shared/data; set CITESYNTH_DATA)")
        sys.exit(0)
    return path


@dataclass(frozen=True, slots=True)
class Queries:
    """Query texts and graded relevance judgements, by query id."""

    text: dict[str, str]
    qrels: dict[str, dict[str, int]]


def scifact_test() -> Queries:
    """BEIR SciFact test: 300 queries (SciFact dev claims) with qrels."""
    texts = {row["_id"]: row["text"] for row in _jsonl(require(SCIFACT / "queries.jsonl"))}
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    lines = (SCIFACT / "qrels" / "test.tsv").read_text().splitlines()[1:]
    for line in lines:
        query, doc, score = line.split("\t")
        qrels[query][doc] = int(score)
    return Queries({q: texts[q] for q in qrels}, dict(qrels))


def scifact_train() -> Queries:
    """SciFact train claims with cited abstracts: the split for tuning (never for reporting)."""
    texts: dict[str, str] = {}
    qrels: dict[str, dict[str, int]] = {}
    for row in _jsonl(require(SCIFACT / "claims_train.jsonl")):
        if row["cited_doc_ids"]:
            texts[str(row["id"])] = row["claim"]
            qrels[str(row["id"])] = {str(doc): 1 for doc in row["cited_doc_ids"]}
    return Queries(texts, qrels)


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def unique_in_order(items: Sequence[str]) -> list[str]:
    """Items without repeats, first occurrence kept (chunk hits to document ranks)."""
    return list(dict.fromkeys(items))


async def evaluate_retrieval(
    engine: Any,
    queries: Queries,
    options: Any,
    *,
    dense: bool,
    chunk_hits: int,
    recall_ks: Sequence[int],
) -> dict[str, Any]:
    """Mean nDCG@10, Recall@k for each k and search latency of `engine` over `queries`.

    Chunk hits are folded to documents by record id (a document ranks at its best chunk).
    `dense=False` searches with BM25 only; `options` are the engine's retrieval options.
    """
    engine.retrieval = options
    embedder = engine.embedder
    if not dense:
        engine.embedder = None
    ndcg: list[float] = []
    recall: dict[int, list[float]] = {k: [] for k in recall_ks}
    latency: list[float] = []
    try:
        for query_id, text in queries.text.items():
            started = time.perf_counter()
            hits = await engine.search(text, chunk_hits)
            latency.append((time.perf_counter() - started) * 1000)
            ranked = unique_in_order([hit.chunk.record_id or "" for hit in hits])
            ndcg.append(ndcg_at(ranked, queries.qrels[query_id]))
            for k in recall_ks:
                recall[k].append(recall_at(ranked, queries.qrels[query_id], k))
    finally:
        engine.embedder = embedder
    result: dict[str, Any] = {"ndcg_at_10": round(statistics.fmean(ndcg), 4)}
    result.update(
        {f"recall_at_{k}": round(statistics.fmean(values), 4) for k, values in recall.items()}
    )
    return {**result, "latency_ms": percentiles(latency), "queries": len(ndcg)}


def percentiles(samples_ms: Sequence[float]) -> dict[str, float]:
    """p50, p95 and mean of latency samples, in milliseconds."""
    ordered = sorted(samples_ms)
    return {
        "p50": round(statistics.median(ordered), 3),
        "p95": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 3),
        "mean": round(statistics.fmean(ordered), 3),
        "n": len(ordered),
    }


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@contextmanager
def stopwatch() -> Iterator[list[float]]:
    """`with stopwatch() as elapsed: ...` then `elapsed[0]` holds the seconds."""
    cell: list[float] = []
    start = time.perf_counter()
    try:
        yield cell
    finally:
        cell.append(time.perf_counter() - start)


class RssSampler:
    """Samples the current RSS every 50 ms in a thread; `peak_mb` is the maximum seen."""

    def __init__(self) -> None:
        self.peak_mb = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            with open("/proc/self/statm") as handle:
                pages = int(handle.read().split()[1])
            self.peak_mb = max(self.peak_mb, pages * os.sysconf("SC_PAGE_SIZE") / 2**20)
            self._stop.wait(0.05)

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def machine() -> dict[str, Any]:
    """Facts about the machine a result was measured on."""
    return {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": _cpu_model(),
    }


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def write_result(name: str, payload: dict[str, Any]) -> Path:
    """Write `benchmarks/results/NAME.json` with the date and machine added."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    target = RESULTS / f"{name}.json"
    body = {"benchmark": name, "date": date.today().isoformat(), "machine": machine(), **payload}
    target.write_text(json.dumps(body, indent=2) + "\n")
    print(f"wrote {target.relative_to(ROOT)}")
    return target


Value = TypeVar("Value")


def cached_json(path: Path, compute: Callable[[], Value]) -> Value:
    """`compute()`, kept as JSON in `path`: read from there once written (delete it to
    recompute). The caller's type is trusted for what the file holds."""
    if path.is_file():
        known: Value = _read_json(path)
        return known
    return _write_json(path, compute())


async def cached_json_async(path: Path, compute: Callable[[], Awaitable[Value]]) -> Value:
    """`cached_json` for a computation that awaits."""
    if _is_file(path):
        known: Value = _read_json(path)
        return known
    return _write_json(path, await compute())


def _is_file(path: Path) -> bool:
    return path.is_file()


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text())


def _write_json(path: Path, value: Value) -> Value:
    """Write `value` whole or not at all (an interrupted run leaves no half-written cache)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(json.dumps(value))
    os.replace(partial, path)
    return value


def set_fields(path: Path, **fields: Any) -> None:
    """Set `fields` in the JSON object of `path` (a weights folder's `crossencoder.json`),
    the rest as it was, indented."""
    stored = json.loads(path.read_text())
    stored.update(fields)
    path.write_text(json.dumps(stored, indent=2) + "\n")
