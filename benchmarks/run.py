"""Run every benchmark, then write `benchmarks/results/summary.md` from the JSON results.

    python -m benchmarks.run                 # all of ours (about 2 hours on two cores; the
                                             # embedded model on ClapNQ takes most of it)
    python -m benchmarks.run --with-peer     # also LlamaIndex in its own venv (about 30 more)
    python -m benchmarks.run --summary-only  # only rebuild summary.md from existing results

Each benchmark runs in its own process, so a failure in one does not stop the others.
Run on an otherwise idle machine: the figures are wall-clock times.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Any

from benchmarks.common import RESULTS, ROOT

OURS = (
    "benchmarks.ingest_throughput",
    "benchmarks.retrieval_quality",
    "benchmarks.calibrate_confidence",
    "benchmarks.retrieval_transfer",
    "benchmarks.retrieval_latency",
    "benchmarks.lexical_engines",
    "benchmarks.pdf_parsers",
    "benchmarks.synthesis_overhead",
    "benchmarks.synthesis_local",
    "benchmarks.synthesis_clapnq",
    "benchmarks.verifier_accuracy",
    "benchmarks.docs_claims",
    "benchmarks.repair_claims",
    "benchmarks.verify_speed",
    "benchmarks.gate_speed",
    "benchmarks.compound_questions",
    "benchmarks.changed_details",
    "benchmarks.verifier_ceiling",
    "benchmarks.verification_answers",
    "benchmarks.calibrate_answers",
    "benchmarks.conflict_answers",
    "benchmarks.field_questions",
    "benchmarks.pdf_layout",
    "benchmarks.report_quality",
    "benchmarks.report_judge",
    "benchmarks.service_load",
    "benchmarks.postgres_store",
    "benchmarks.postgres_load",
    "benchmarks.reliability",
)


EXTRA = {
    "benchmarks.pdf_parsers": ["--out", str(RESULTS / "pdf_parsers.json")],
    # a report of the shipped confidence weights on the committed eval runs; refitting them
    # is a change to ship, made on purpose (`python -m benchmarks.calibrate_answers`)
    "benchmarks.calibrate_answers": ["--check"],
}


def run_all(with_peer: bool) -> list[str]:
    failures = []
    for module in OURS:
        print(f"== {module}", flush=True)
        extra = EXTRA.get(module, [])
        if subprocess.run([sys.executable, "-m", module, *extra], cwd=ROOT).returncode:
            failures.append(module)
    if with_peer:
        print("== LlamaIndex peer", flush=True)
        setup = subprocess.run(["bash", "benchmarks/setup_peer.sh"], cwd=ROOT)
        peer = ROOT / "benchmarks" / ".venv-peer" / "bin" / "python"
        command = [
            str(peer),
            "benchmarks/peer_llamaindex.py",
            "--out",
            str(RESULTS / "peer_llamaindex.json"),
        ]
        if setup.returncode or subprocess.run(command, cwd=ROOT).returncode:
            failures.append("peer_llamaindex")
    return failures


def _load(name: str) -> dict[str, Any] | None:
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None


def summary() -> str:
    """The headline figures, ours next to the peer's, as Markdown."""
    lines = ["# Benchmark summary", ""]
    quality, peer = _load("retrieval_quality"), _load("peer_llamaindex")
    if quality:
        lines += [
            f"Measured {quality['date']} on {quality['machine']['cpus']} cores ({quality['machine']['processor']}).",
            "",
        ]
        lines += ["## Retrieval quality, BEIR SciFact test (300 queries)", "",
                  "| retriever | citesynth nDCG@10 | citesynth R@100 | LlamaIndex nDCG@10 | LlamaIndex R@100 |",
                  "|---|---|---|---|---|"]  # fmt: skip
        pairs = {"bm25": "bm25", "dense": "dense", "hybrid_rrf60": "hybrid", "hybrid_default": None}
        for ours, theirs in pairs.items():
            mine = quality["test"][ours]
            other = peer["scifact"] if peer else None
            peer_ndcg = f"{other['ndcg_at_10'][theirs]:.3f}" if other and theirs else "–"
            peer_recall = f"{other['recall_at_100'][theirs]:.3f}" if other and theirs else "–"
            lines.append(
                f"| {ours} | {mine['ndcg_at_10']:.3f} | {mine['recall_at_100']:.3f} | {peer_ndcg} | {peer_recall} |"
            )
        lines.append("")
    latency = _load("retrieval_latency")
    if latency:
        lines += ["## Latency and memory (top 10, 100 candidates per retriever)", "",
                  "| chunks | hybrid p50 / p95 ms | excl. query embedding p95 | BM25-only p95 | query embedding p95 | peak RSS MB | ingest s (no embedding) | BM25 build s | vector index build s |",
                  "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
        for row in latency["sizes"].values():
            lines.append(
                f"| {row['chunks']:,} | {row['hybrid_search_ms']['p50']:.1f} / {row['hybrid_search_ms']['p95']:.1f} "
                f"| {row['hybrid_search_excluding_query_embedding_ms']['p95']:.1f} | {row['bm25_only_search_ms']['p95']:.1f} "
                f"| {row['query_embedding_ms']['p95']:.1f} | {row['peak_rss_mb']:.0f} | {row['ingest_seconds_excluding_embedding']:.1f} "
                f"| {row['lexical_build_seconds']:.1f} | {row['vector_index_build_seconds']:.1f} |"
            )
        if peer and "scale" in peer:
            scale, ours = peer["scale"], list(latency["sizes"].values())[-1]
            theirs_p95 = scale["latency_ms"]["hybrid"]["p95"]
            mine_p95 = ours["hybrid_search_ms"]["p95"]
            lines.append(
                f"\nLlamaIndex at {scale['nodes']:,} nodes: hybrid p95 {theirs_p95:.0f} ms "
                f"({theirs_p95 / mine_p95:.0f}× citesynth's), BM25 build {scale['bm25_build_seconds']:.1f} s "
                f"({scale['bm25_build_seconds'] / ours['lexical_build_seconds']:.1f}×), "
                f"peak RSS {peer['peak_rss_mb']:.0f} MB ({peer['peak_rss_mb'] / ours['peak_rss_mb']:.1f}×)."
            )
        lines.append("")
    ingest = _load("ingest_throughput")
    if ingest:
        cases = ingest["cases"]
        lines += [
            "## Ingest",
            "",
            "| input | MB | chunks | seconds | MB/s | chunks/s | peak RSS MB |",
            "|---|---|---|---|---|---|---|",
        ]
        for name, row in cases.items():
            lines.append(f"| {name} | {row['megabytes']} | {row['chunks']:,} | {row['seconds']} | {row['mb_per_second']} "
                         f"| {row['chunks_per_second']} | {row['peak_rss_mb']:.0f} |")  # fmt: skip
        if "pages_per_second" in cases.get("pdf_bm25", {}):
            lines.append(f"\nPDF: {cases['pdf_bm25']['pages_per_second']} pages/s.")
        if peer:
            theirs = peer["scifact"]["embed_and_index_seconds"]
            mine = cases["scifact_minilm"]["seconds"]
            lines.append(
                f"LlamaIndex embed + index of SciFact: {theirs:.0f} s ({theirs / mine:.1f}× citesynth's {mine:.0f} s)."
            )
        lines.append("")
    lexical = _load("lexical_engines")
    if lexical:
        lines += [
            "## BM25 engine (SciFact ×20)",
            "",
            "| engine | nDCG@10 | documents | build s | p50 / p95 ms |",
            "|---|---|---|---|---|",
        ]
        for name, row in lexical["engines"].items():
            lines.append(f"| {name} | {row['ndcg_at_10']} | {row['documents']:,} | {row['build_seconds']} "
                         f"| {row['latency_ms']['p50']} / {row['latency_ms']['p95']} |")  # fmt: skip
        lines.append("")
    lines += _synthesis()
    lines += _verification()
    lines += _evaluation()
    lines += _service()
    return "\n".join(lines)


def _service() -> list[str]:
    """The HTTP service under load (benchmarks/service_load.py)."""
    load = _load("service_load")
    if not load:
        return []
    latency, streams, memory = load["sources_latency"], load["concurrent_streams"], load["memory"]
    chunks = load["index"]["stats"].split(" chunks")[0].split(", ")[-1]
    return [
        f"## Service ({chunks} chunks, scripted model, {load['index']['embedder']} embedder)",
        "",
        "| measure | p50 ms | p95 ms |",
        "|---|---|---|",
        f"| `sources` event after the request | {latency['sources_event_ms']['p50']:.1f} | {latency['sources_event_ms']['p95']:.1f} |",
        f"| `POST /api/search` (baseline: same retrieval, no stream) | {latency['search_ms']['p50']:.1f} | {latency['search_ms']['p95']:.1f} |",
        f"| `GET /healthz` (baseline: HTTP round trip) | {latency['healthz_ms']['p50']:.1f} | {latency['healthz_ms']['p95']:.1f} |",
        f"| overhead per stream, {streams['streams']} concurrent | {streams['overhead_ms']['p50']:.0f} | {streams['overhead_ms']['p95']:.0f} |",
        "",
        f"{streams['streams']} concurrent streams: {streams['errors']} errors; one stream alone: "
        f"{streams['alone_overhead_ms']:.0f} ms overhead beyond the model's {streams['model_seconds_per_answer']} s. "
        f"Server RSS over {memory['requests']:,} requests: "
        + ", ".join(f"{mb:.0f} MB after {n}" for n, mb in memory["rss_mb_by_requests"].items())
        + f" (last 1,000: {memory['growth_mb_last_1000']:+.1f} MB).",
        "",
    ]


EVAL_COLUMNS = (
    "ndcg_at_10", "answer_f1", "accuracy", "citation_recall", "citation_precision",
    "gold_evidence_recall", "abstention_f1", "unsupported_claim_rate", "latency_p50_ms",
)  # fmt: skip


def _evaluation() -> list[str]:
    """`citesynth eval` runs (benchmarks/eval_suite.py): ours / naive per metric."""
    suite = _load("eval_suite")
    if not suite:
        return []
    lines = ["## `citesynth eval`: ours / naive baseline, same run", "",
             "| run | questions | " + " | ".join(EVAL_COLUMNS) + " |",
             "|---" * (len(EVAL_COLUMNS) + 2) + "|"]  # fmt: skip
    for name, run in suite["runs"].items():
        ours, naive = run["metrics"].get("ours", {}), run["metrics"].get("naive", {})
        cells = [f"{_fmt(ours.get(m))} / {_fmt(naive.get(m))}" for m in EVAL_COLUMNS]
        lines.append(f"| {name} ({run['date']}) | {run['questions']} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def _fmt(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.0f}" if value >= 10 else f"{value:.3f}"


def _verification() -> list[str]:
    """Verifier accuracy and speed, as Markdown."""
    accuracy, speed = _load("verifier_accuracy"), _load("verify_speed")
    gate = _load("gate_speed")
    lines: list[str] = []
    if accuracy:
        lines += ["## Verifier (lexical) on labelled claims", "",
                  "| split | role | claims | balanced accuracy | F1 |", "|---|---|---|---|---|"]  # fmt: skip
        for name, row in accuracy["lexical"].items():
            lines.append(f"| {name} | {row['role']} | {row['examples']} | "
                         f"{row['balanced_accuracy']} | {row['f1']} |")  # fmt: skip
        for name, row in accuracy.get("judges", {}).items():
            lines.append(f"| {name} | paired | {row['examples']} | "
                         f"{row['balanced_accuracy']} | {row['f1']} |")  # fmt: skip
        lines.append("")
    for verifier in ("lexical", "trained") if speed else ():
        if verifier not in speed:
            continue
        measured = speed[verifier]
        answer = measured["ten_claim_answer"]["review_with_repair_ms"]
        lines += [
            f"Verifier speed, {verifier} ({speed['date']}): 10-claim answer p50 {answer['p50']} "
            f"ms, p95 {answer['p95']} ms; claims/s: SciFact "
            f"{measured['scifact_dev_pairs']['claims_per_second']}, WiCE pages "
            f"{measured['wice_test_pages']['claims_per_second']}, HaluEval "
            f"{measured['halueval_test']['claims_per_second']}.",
            "",
        ]
    if gate and "mpnet" in gate:
        mpnet, minilm = gate["mpnet"]["gate_ms"], gate["minilm"]["gate_ms"]
        lines += [
            f"Answerability gate ({gate['date']}, five passages a question): MPNet p50 "
            f"{mpnet['p50']:.0f} ms, p95 {mpnet['p95']:.0f} ms; MiniLM p50 {minilm['p50']:.0f} "
            f"ms, p95 {minilm['p95']:.0f} ms.",
            "",
        ]
    return lines


def _synthesis() -> list[str]:
    lines: list[str] = []
    overhead, local = _load("synthesis_overhead"), _load("synthesis_local")
    if overhead:
        plain = overhead["fake_model_full_chunks"]["overhead_ms"]
        lines += [
            "## Answers (Pass 2)",
            "",
            f"Pipeline overhead without retrieval and model (10 sources, scripted model): "
            f"p50 {plain['p50']:.1f} ms, p95 {plain['p95']:.1f} ms (goal <= 10 ms).",
            "",
        ]
    if local:
        first, total = local["five_source_first_token_ms"], local["five_source_total_ms"]
        lines += [
            f"Embedded model ({local['model']}) on the demo corpus, 20 questions, 5 sources: "
            f"first token p50 {first['p50'] / 1000:.1f} s / p95 {first['p95'] / 1000:.1f} s, "
            f"total p50 {total['p50'] / 1000:.1f} s / p95 {total['p95'] / 1000:.1f} s "
            f"(goal 5 s / 15 s); prompt {local['prompt_tokens_mean']:.0f} tokens at "
            f"{local.get('prefill_tokens_per_second_median') or 0:.0f} tokens/s, generation "
            f"{local['generation_tokens_per_second_median']} tokens/s; cold start "
            f"{local['cold_start_seconds']} s.",
            "",
        ]
    for name in ("synthesis_clapnq", "synthesis_clapnq_v3", "synthesis_clapnq_evidence"):
        if result := _load(name):
            lines += _clapnq_table(name, result)
    return lines


def _clapnq_table(name: str, result: dict[str, Any]) -> list[str]:
    size = result["report_slice"]
    lines = [
        f"ClapNQ dev, {size} questions ({size // 2} unanswerable), `{name}.json`:",
        "",
        "| system | correct | answerable | unanswerable | >=1 valid citation | cites gold "
        "| invalid markers | not-found P / R | fallback | mean s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for system, row in result["systems"].items():
        if system == "retrieval_gate":
            continue
        lines.append(
            f"| {system} | {row['correctness']} | {row['correct_answerable']} "
            f"| {row['correct_unanswerable']} | {row['cited_share']} "
            f"| {row['gold_cited_share']} | {row['invalid_marker_rate']} "
            f"| {row['not_found_precision']} / {row['not_found_recall']} "
            f"| {row['fallback_rate']} | {row['latency_ms_mean'] / 1000:.1f} |"
        )
    return [*lines, ""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--with-peer", action="store_true")
    parser.add_argument("--summary-only", action="store_true")
    arguments = parser.parse_args()
    failures = [] if arguments.summary_only else run_all(arguments.with_peer)
    text = summary()
    (RESULTS / "summary.md").write_text(text + "\n")
    print(text)
    if failures:
        print(f"failed: {', '.join(failures)}")
        sys.exit(1)


if __name__ == "__main__":
    main()
