"""Two revisions side by side: the same measurements run in both trees, interleaved.

Each revision is exported with `git archive` into a directory under /tmp/seams-bench, and
every measurement runs as a subprocess with that tree's own code first on the path
(`PYTHONPATH=<tree>/src:<tree>`, cwd the tree). Timed measurements alternate the trees
(ABAB..., the order flipped every round) so that machine noise hits both alike; the report
gives per-round medians, their median, the ratio after/before, and whether the outputs
(answers, rankings, nDCG, eval metrics) are identical.

    python -m benchmarks.revisions --base 239b91d --head af97e53 --rounds 5
    python -m benchmarks.revisions --base 239b91d --only pipeline_overhead retrieval_latency

Measurements: pipeline_overhead, retrieval_latency (timed, in rounds), scifact_ndcg,
eval_slice (once per tree). Results: benchmarks/results/seams/revisions.json (merged with
earlier runs by measurement name) and a Markdown table on stdout (also revisions.md).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
ROOT = HERE.parents[1]
WORK = Path(os.environ.get("SEAMS_BENCH_DIR", "/tmp/seams-bench"))
OUT = ROOT / "benchmarks" / "results" / "seams"
DATA = Path(os.environ.get("CITESYNTH_DATA", ROOT.parent / "shared" / "data"))
TIMED = ("pipeline_overhead", "retrieval_latency")
ONCE = ("scifact_ndcg", "eval_slice")

# The scripted reply and questions are synthesis_overhead's (the same in both trees).
from benchmarks.synthesis_overhead import QUESTIONS, REPLY  # noqa: E402

ANSWERS = 150  # timed answers per verification setting and run
WARMUP = 10
SUBSET_DOCS = 2000  # SciFact documents in the retrieval-latency index
DEPTH = 300  # benchmarks/retrieval_quality.py: candidates per retriever
CHUNK_HITS = 200  # benchmarks/retrieval_quality.py: chunk hits folded to documents
LATENCY_WORDS = ("latency", "seconds", "_ms", "date", "time")


# ---------------------------------------------------------------- worker (inside a tree)


def _p50(samples: list[float]) -> float:
    return round(statistics.median(samples), 4)


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def _answer_outputs(answer: Any) -> dict[str, Any]:
    """What must not change: text, citation numbers and claim labels (and the full dump)."""
    dump = answer.model_dump(mode="json")
    dump.pop("request_id", None)
    dump["usage"].pop("latency_ms", None)
    return {
        "answer": answer.answer,
        "citations": [(c.number, c.chunk_id, c.location) for c in answer.citations],
        "claims": [(c.text, c.citations, c.label) for c in answer.claims],
        "full_digest": _digest(dump),
    }


async def _pipeline_overhead(args: argparse.Namespace) -> dict[str, Any]:
    from citesynth import Engine, Settings
    from citesynth.demo import build_demo_corpus
    from citesynth.llm.fake import ScriptedModel
    from citesynth.synthesis import LLMWriter

    with tempfile.TemporaryDirectory() as folder:
        # The demo corpus of one tree (the base's) for both, so that answers can be compared.
        corpus = build_demo_corpus(Path(args.corpus_root), Path(folder) / "pdf")
        settings = Settings(index_dir=Path(folder) / "index", embedder="hashing")
        async with await Engine.open(settings=settings) as engine:
            await engine.index(corpus)
            engine.writer = LLMWriter(ScriptedModel(default=REPLY, piece_chars=4), engine.prompts)
            samples: dict[str, float] = {}
            outputs: dict[str, Any] = {}
            for verify in (False, True):
                label = "verified" if verify else "unverified"
                overhead: list[float] = []
                seen: dict[str, set[str]] = {}
                for index in range(WARMUP + ANSWERS):
                    question = QUESTIONS[index % len(QUESTIONS)]
                    answer = await engine.answer(question, k=10, cache=False,
                                                 not_found_below=0.0, mode="detailed",
                                                 verify=verify)  # fmt: skip
                    latency = answer.usage.latency_ms
                    if index >= WARMUP:
                        overhead.append(latency["total"] - latency["retrieve"])
                    found = _answer_outputs(answer)
                    key = f"{label}: {question}"
                    outputs.setdefault(key, found)
                    seen.setdefault(key, set()).add(_digest(found))
                samples[f"{label}_overhead_p50_ms"] = _p50(overhead)
                outputs[f"{label}: distinct answers per question"] = max(map(len, seen.values()))
    return {"samples": samples, "outputs": outputs}


def _scifact_queries() -> tuple[dict[str, str], dict[str, dict[str, int]]]:
    folder = DATA / "scifact"
    texts = {}
    with (folder / "queries.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                row = json.loads(line)
                texts[row["_id"]] = row["text"]
    qrels: dict[str, dict[str, int]] = {}
    for line in (folder / "qrels" / "test.tsv").read_text().splitlines()[1:]:
        query, doc, score = line.split("\t")
        qrels.setdefault(query, {})[doc] = int(score)
    return {q: texts[q] for q in qrels}, qrels


def _scifact_subset(target: Path) -> Path:
    """The documents judged for a test query, then the corpus in order, up to SUBSET_DOCS."""
    if target.exists():
        return target
    _, qrels = _scifact_queries()
    judged = {doc for relevant in qrels.values() for doc in relevant}
    rows = (DATA / "scifact" / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    first = [row for row in rows if row.strip() and json.loads(row)["_id"] in judged]
    rest = [row for row in rows if row.strip() and json.loads(row)["_id"] not in judged]
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".tmp")
    partial.write_text("\n".join((first + rest)[:SUBSET_DOCS]) + "\n", encoding="utf-8")
    partial.rename(target)
    return target


def _hit_key(hit: Any) -> list[Any]:
    chunk = hit.chunk
    return [str(chunk.id), chunk.record_id, chunk.char_start, chunk.char_end, round(hit.score, 6)]


async def _retrieval_latency(args: argparse.Namespace) -> dict[str, Any]:
    from citesynth import Engine, Settings

    texts, _ = _scifact_queries()
    corpus = _scifact_subset(WORK / "data" / f"scifact-{SUBSET_DOCS}.jsonl")
    settings = Settings(index_dir=Path(args.cache) / "scifact-subset-hashing", embedder="hashing")
    samples: dict[str, float] = {}
    outputs: dict[str, Any] = {}
    async with await Engine.open(settings=settings) as engine:
        await engine.index([corpus])
        embedder = engine.embedder
        for label, dense in (("hybrid_hashing", True), ("bm25", False)):
            engine.embedder = embedder if dense else None
            for text in list(texts.values())[:20]:  # warm-up
                await engine.search(text, 10)
            latency: list[float] = []
            ranked: dict[str, list[list[Any]]] = {}
            for query_id, text in texts.items():
                started = time.perf_counter()
                hits = await engine.search(text, 10)
                latency.append((time.perf_counter() - started) * 1000)
                ranked[query_id] = [_hit_key(hit) for hit in hits]
            samples[f"{label}_search_p50_ms"] = _p50(latency)
            outputs[label] = ranked
        engine.embedder = embedder
        stats = await engine.stats()
    outputs["index"] = {"documents": stats.documents, "chunks": stats.chunks}
    return {"samples": samples, "outputs": outputs}


async def _scifact_ndcg(args: argparse.Namespace) -> dict[str, Any]:
    """benchmarks/retrieval_quality.py of the base tree: chunk_tokens 200, depth 300,
    200 chunk hits folded to documents by record id, nDCG@10 and Recall@100."""
    from citesynth import Engine, Settings
    from citesynth.evaluation.metrics import ndcg_at, recall_at
    from citesynth.retrieve.hybrid import RetrievalOptions

    texts, qrels = _scifact_queries()
    index_dir = Path(args.cache) / "scifact-c200-minilm"
    if args.index_from:
        # One vector cache for both trees: a copy of the other tree's index (same schema);
        # indexing then finds the corpus unchanged and embeds nothing.
        index_dir = Path(args.cache) / "scifact-c200-minilm-shared"
        if not index_dir.exists():
            shutil.copytree(args.index_from, index_dir, ignore=shutil.ignore_patterns("*.lock"))
    settings = Settings(index_dir=index_dir, embedder="minilm", chunk_tokens=200, depth=DEPTH)
    started = time.perf_counter()
    outputs: dict[str, Any] = {}
    samples: dict[str, float] = {}
    async with await Engine.open(settings=settings) as engine:
        report = await engine.index([DATA / "scifact" / "corpus.jsonl"])
        samples["index_seconds"] = round(time.perf_counter() - started, 1)
        embedder = engine.embedder
        variants = {
            "bm25": (RetrievalOptions(depth=DEPTH), False),
            "dense": (RetrievalOptions(depth=DEPTH, alpha=1.0), True),
            "hybrid_rrf60": (RetrievalOptions(depth=DEPTH, fusion="rrf", rrf_k=60), True),
            "hybrid_default": (RetrievalOptions(depth=DEPTH), True),
        }
        for label, (options, dense) in variants.items():
            engine.retrieval = options
            engine.embedder = embedder if dense else None
            ndcg: list[float] = []
            recall: list[float] = []
            rankings: dict[str, list[str]] = {}
            for query_id, text in texts.items():
                hits = await engine.search(text, CHUNK_HITS)
                ranked = list(dict.fromkeys(hit.chunk.record_id or "" for hit in hits))
                ndcg.append(ndcg_at(ranked, qrels[query_id]))
                recall.append(recall_at(ranked, qrels[query_id], 100))
                rankings[query_id] = ranked[:100]
            outputs[label] = {
                "ndcg_at_10": round(statistics.fmean(ndcg), 4),
                "ndcg_at_10_exact": statistics.fmean(ndcg),
                "recall_at_100": round(statistics.fmean(recall), 4),
                "rankings_top100_digest": _digest(rankings),
            }
        engine.embedder = embedder
        stats = await engine.stats()
    outputs["index"] = {"documents": stats.documents, "chunks": stats.chunks}
    extra = {
        "index_dir": str(index_dir),
        "index_report": {"indexed": report.indexed, "unchanged": report.unchanged,
                         "embedded": report.embedded, "chunks_added": report.chunks_added},
    }  # fmt: skip
    return {"samples": samples, "outputs": outputs, "extra": extra}


WORKERS: dict[str, Callable[[argparse.Namespace], Any]] = {
    "pipeline_overhead": _pipeline_overhead,
    "retrieval_latency": _retrieval_latency,
    "scifact_ndcg": _scifact_ndcg,
}


def worker(args: argparse.Namespace) -> None:
    import citesynth

    result = asyncio.run(WORKERS[args.worker](args))
    result["citesynth_file"] = citesynth.__file__
    Path(args.out).write_text(json.dumps(result) + "\n")


# ---------------------------------------------------------------- driver


def _git(*arguments: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *arguments], check=True, capture_output=True, text=True
    ).stdout.strip()


def export(rev: str) -> Path:
    """`git archive` of `rev` into WORK/<short sha> (reused when already complete)."""
    sha = _git("rev-parse", "--short=7", f"{rev}^{{commit}}")
    tree = WORK / sha
    if not (tree / ".exported").exists():
        shutil.rmtree(tree, ignore_errors=True)
        tree.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", sha], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        (tree / ".exported").write_text(_git("rev-parse", sha) + "\n")
    return tree


def _environment(tree: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = f"{tree / 'src'}:{tree}"
    env["CITESYNTH_DATA"] = str(DATA)
    env.pop("CITESYNTH_INDEX", None)
    return env


def run_worker(
    name: str, tree: Path, corpus_root: Path, index_from: Path | None = None
) -> dict[str, Any]:
    """One measurement in one tree, as a subprocess running that tree's code."""
    cache = WORK / "cache" / tree.name
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(suffix=".json", dir=WORK, delete=False) as handle:
        target = Path(handle.name)
    # `-c` with sys.path[0] = "" and cwd = the tree: nothing of this checkout is importable.
    code = (
        "import runpy, sys; sys.argv = sys.argv[1:]; "
        f"runpy.run_path({str(HERE)!r}, run_name='__main__')"
    )
    command = [sys.executable, "-c", code, str(HERE), "--worker", name, "--out", str(target),
               "--cache", str(cache), "--corpus-root", str(corpus_root)]  # fmt: skip
    if index_from is not None:
        command += ["--index-from", str(index_from)]
    done = subprocess.run(command, cwd=tree, env=_environment(tree), capture_output=True,
                          text=True)  # fmt: skip
    if done.returncode:
        raise SystemExit(f"{name} failed in {tree}:\n{done.stdout}\n{done.stderr}")
    result = json.loads(target.read_text())
    target.unlink()
    expected = str(tree / "src" / "citesynth" / "__init__.py")
    if result["citesynth_file"] != expected:
        raise SystemExit(f"{tree}: imported {result['citesynth_file']}, not {expected}")
    return result


def differences(before: Any, after: Any, path: str = "", limit: int = 20) -> list[str]:
    """Where two JSON values differ (at most `limit` places)."""
    found: list[str] = []
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(set(before) | set(after)):
            if len(found) >= limit:
                break
            where = f"{path}.{key}" if path else str(key)
            if key not in before or key not in after:
                found.append(f"{where}: only in {'after' if key in after else 'before'}")
            else:
                found += differences(before[key], after[key], where, limit - len(found))
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (one, two) in enumerate(zip(before, after, strict=True)):
            if len(found) >= limit:
                break
            found += differences(one, two, f"{path}[{index}]", limit - len(found))
    elif before != after:
        found.append(f"{path}: before {_short(before)} after {_short(after)}")
    return found[:limit]


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 160 else text[:157] + "..."


def timed(name: str, trees: dict[str, Path], rounds: int, corpus_root: Path) -> dict[str, Any]:
    """Warm-up run per tree (discarded), then `rounds` rounds alternating the order."""
    for tree in trees.values():
        run_worker(name, tree, corpus_root)
    samples: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    outputs: dict[str, list[Any]] = {"before": [], "after": []}
    for number in range(rounds):
        order = ("before", "after") if number % 2 == 0 else ("after", "before")
        for side in order:
            result = run_worker(name, trees[side], corpus_root)
            for metric, value in result["samples"].items():
                samples[side].setdefault(metric, []).append(value)
            outputs[side].append(result["outputs"])
            print(f"  {name} round {number + 1}/{rounds} {side}: {result['samples']}", flush=True)
    metrics = {}
    for metric, before in samples["before"].items():
        after = samples["after"][metric]
        b, a = statistics.median(before), statistics.median(after)
        metrics[metric] = {
            "before_median": round(b, 4),
            "after_median": round(a, 4),
            "ratio": round(a / b, 3),
            "before_samples": before,
            "after_samples": after,
        }
    stable = {side: all(o == outputs[side][0] for o in outputs[side]) for side in outputs}
    diff = differences(outputs["before"][0], outputs["after"][0])
    return {
        "rounds": rounds,
        "metrics": metrics,
        "identical": not diff,
        "differences": diff,
        "outputs_stable_across_rounds": stable,
        "outputs_before": outputs["before"][0],
        "outputs_after": outputs["after"][0],
    }


def once(
    name: str, trees: dict[str, Path], corpus_root: Path, share_index: bool = False
) -> dict[str, Any]:
    results = {"before": run_worker(name, trees["before"], corpus_root)}
    shared = None
    if share_index and name == "scifact_ndcg":
        shared = WORK / "cache" / trees["before"].name / "scifact-c200-minilm"
    results["after"] = run_worker(name, trees["after"], corpus_root, shared)
    diff = differences(results["before"]["outputs"], results["after"]["outputs"])
    metrics = {}
    for metric, b in results["before"]["samples"].items():
        a = results["after"]["samples"][metric]
        metrics[metric] = {"before_median": b, "after_median": a, "ratio": round(a / b, 3),
                           "before_samples": [b], "after_samples": [a]}  # fmt: skip
    return {
        "metrics": metrics,
        "identical": not diff,
        "differences": diff,
        "outputs_before": results["before"]["outputs"],
        "outputs_after": results["after"]["outputs"],
        "extra": {side: result.get("extra") for side, result in results.items()},
    }


def _quality(value: Any, path: str = "") -> Any:
    """`value` without latency, time and date figures (and run-specific paths)."""
    if isinstance(value, dict):
        kept = {}
        for key, item in value.items():
            lowered = str(key).lower()
            if any(word in lowered for word in LATENCY_WORDS) or lowered in {"machine", "out"}:
                continue
            kept[key] = _quality(item, f"{path}.{key}")
        return kept
    if isinstance(value, list):
        return [_quality(item, path) for item in value]
    return value


def eval_slice(trees: dict[str, Path], limit: int) -> dict[str, Any]:
    """`citesynth eval clapnq --limit N` with the extractive and the fake writer, per tree."""
    report: dict[str, Any] = {"command": None, "models": {}}
    for model in ("extractive", "fake"):
        summaries: dict[str, Any] = {}
        records: dict[str, list[Any]] = {}
        seconds: dict[str, float] = {}
        for side, tree in trees.items():
            cache = WORK / "cache" / tree.name / "eval"
            out = WORK / "runs" / tree.name / f"clapnq-{model}"
            shutil.rmtree(out, ignore_errors=True)
            out.parent.mkdir(parents=True, exist_ok=True)
            # `python -m citesynth.cli` defines the group but never calls it (no __main__
            # guard): it exits 0 doing nothing, so the package's __main__ runs the CLI.
            command = [sys.executable, "-m", "citesynth", "eval", "clapnq", "--limit",
                       str(limit), "--model", model, "--embedder", "hashing", "--data",
                       str(DATA), "--cache", str(cache), "--out", str(out), "--json"]  # fmt: skip
            report["command"] = " ".join(command[1:])
            started = time.perf_counter()
            done = subprocess.run(command, cwd=tree, env=_environment(tree), capture_output=True,
                                  text=True)  # fmt: skip
            seconds[side] = round(time.perf_counter() - started, 1)
            if done.returncode:
                raise SystemExit(f"eval {model} failed in {tree}:\n{done.stdout}\n{done.stderr}")
            summaries[side] = json.loads(done.stdout[done.stdout.index("{") :])
            lines = (out / "records.jsonl").read_text(encoding="utf-8").splitlines()
            records[side] = [_quality(json.loads(line)) for line in lines if line.strip()]
        quality = {side: _quality(summary) for side, summary in summaries.items()}
        diff = differences(quality["before"], quality["after"], limit=50)
        # Per question (records.jsonl): answers, citations, labels and scores, latency aside.
        per_question = differences(records["before"], records["after"], limit=50)
        if len(records["before"]) != len(records["after"]):
            per_question.append(f"records: {len(records['before'])} vs {len(records['after'])}")
        report["models"][model] = {
            "identical_quality": not diff,
            "differences": diff,
            "records": len(records["before"]),
            "identical_records": not per_question,
            "record_differences": per_question,
            "wall_seconds": seconds,
            "metrics_before": summaries["before"].get("metrics"),
            "metrics_after": summaries["after"].get("metrics"),
        }
    report["identical"] = all(
        m["identical_quality"] and m["identical_records"] for m in report["models"].values()
    )
    return report


def table(results: dict[str, Any]) -> str:
    lines = [
        "| measurement | metric | before median | after median | ratio after/before "
        "| outputs identical |",
        "|---|---|---:|---:|---:|---|",
    ]
    for name, result in results.items():
        identical = result.get("identical")
        for metric, values in result.get("metrics", {}).items():
            lines.append(
                f"| {name} | {metric} | {values['before_median']} | {values['after_median']} "
                f"| {values['ratio']} | {identical} |"
            )
        if name == "scifact_ndcg":
            for variant in ("bm25", "dense", "hybrid_rrf60", "hybrid_default"):
                b = result["outputs_before"][variant]["ndcg_at_10_exact"]
                a = result["outputs_after"][variant]["ndcg_at_10_exact"]
                lines.append(
                    f"| {name} | nDCG@10 {variant} | {b:.4f} | {a:.4f} | {a / b:.3f} "
                    f"| {identical} |"
                )
        if name == "eval_slice":
            for model, values in result["models"].items():
                lines.append(
                    f"| {name} | {model}: quality figures; per-question records "
                    f"| – | – | – | {values['identical_quality']}; "
                    f"{values.get('identical_records')} |"
                )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", help="the revision before (e.g. 239b91d)")
    parser.add_argument("--head", default="HEAD", help="the revision after (default HEAD)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", nargs="+", choices=TIMED + ONCE, default=list(TIMED + ONCE))
    parser.add_argument("--eval-limit", type=int, default=20)
    parser.add_argument(
        "--share-index",
        action="store_true",
        help="scifact_ndcg: the after tree opens a copy of the before tree's MiniLM index",
    )
    parser.add_argument("--index-from", help=argparse.SUPPRESS)
    parser.add_argument("--worker", choices=sorted(WORKERS), help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--cache", help=argparse.SUPPRESS)
    parser.add_argument("--corpus-root", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    if not args.base:
        parser.error("--base is required")
    trees = {"before": export(args.base), "after": export(args.head)}
    corpus_root = trees["before"]
    print(f"before {trees['before']}  after {trees['after']}", flush=True)
    results: dict[str, Any] = {}
    for name in args.only:
        started = time.perf_counter()
        print(f"{name} ...", flush=True)
        if name in TIMED:
            results[name] = timed(name, trees, args.rounds, corpus_root)
        elif name == "eval_slice":
            results[name] = eval_slice(trees, args.eval_limit)
        else:
            results[name] = once(name, trees, corpus_root, args.share_index)
        results[name]["wall_seconds"] = round(time.perf_counter() - started, 1)
        print(f"{name}: identical {results[name]['identical']}", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    target = OUT / "revisions.json"
    body = json.loads(target.read_text()) if target.exists() else {"measurements": {}}
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    body["measurements"].update(
        {name: {**result, "measured_at": stamp} for name, result in results.items()}
    )
    body.update(
        {
            "base": {"rev": args.base, "tree": str(trees["before"])},
            "head": {"rev": args.head, "tree": str(trees["after"])},
            "cpus": os.cpu_count(),
            "python": sys.version.split()[0],
            "notes": [
                "ratio = after median / before median; medians over rounds of per-run p50s",
                "pipeline_overhead uses the base tree's demo corpus in both trees "
                "(docs/search-json.md differs between the revisions)",
            ],
        }
    )
    target.write_text(json.dumps(body, indent=2) + "\n")
    markdown = table(body["measurements"])
    (OUT / "revisions.md").write_text(markdown + "\n")
    print(markdown)
    print(f"wrote {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
