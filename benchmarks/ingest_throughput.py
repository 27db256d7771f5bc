"""Ingest throughput: MB/s of text before embeddings, chunks/s with embeddings, PDF pages/s.

Each measurement starts from an empty index (and an empty embedding cache) in a fresh
process, so that peak RSS belongs to that measurement alone.

* text: the SciFact corpus as JSONL (7.6 MB, 5,183 records) and a Markdown tree made of 40
  copies of the httpx documentation (23 files each), BM25 only;
* embeddings: the SciFact corpus with MiniLM, the figure the LlamaIndex peer took 299 s for;
* PDF: a 200-page PDF generated with reportlab (text, headings, a table per page).

    python -m benchmarks.ingest_throughput
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.common import CACHE, DATA, SCIFACT, RssSampler, peak_rss_mb, require, write_result
from citesynth import Engine, Settings

WORK = CACHE / "ingest"


def markdown_tree() -> Path:
    """40 copies of the httpx docs under distinct folders."""
    source = require(DATA / "docs_httpx" / "docs")
    target = WORK / "markdown"
    if not target.exists():
        for copy in range(40):
            shutil.copytree(source, target / f"copy-{copy:02d}")
    return target


def pdf_file(pages: int = 200) -> Path:
    """A generated PDF: a heading, four paragraphs and a table on every page."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Table

    target = WORK / "pdf" / "report.pdf"
    if target.exists():
        return target
    styles = getSampleStyleSheet()
    story: list[Any] = []
    sentence = ("The retrieval service answered {n} queries with a median latency of {n}.5 ms, "
                "and the office team confirmed the efficient workflow on {n} March 2024. ")  # fmt: skip
    for page in range(1, pages + 1):
        story.append(Paragraph(f"Section {page}: quarterly findings", styles["Heading2"]))
        for paragraph in range(4):
            story.append(
                Paragraph(sentence.format(n=page * 10 + paragraph) * 4, styles["BodyText"])
            )
        story.append(
            Table([["Metric", "Value"], ["requests", str(page * 100)], ["errors", str(page)]])
        )
        story.append(PageBreak())
    buffer = io.BytesIO()
    SimpleDocTemplate(buffer, pagesize=A4).build(story)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(buffer.getvalue())
    return target


async def run_one(name: str, path: Path, embedder: str) -> dict[str, Any]:
    """Index `path` into a fresh index and report speed and memory."""
    index = WORK / f"index-{name}"
    shutil.rmtree(index, ignore_errors=True)
    settings = Settings(index_dir=index, embedder=embedder, max_file_mb=256)
    with RssSampler() as rss:
        async with await Engine.open(settings=settings) as engine:
            if engine.embedder is not None and hasattr(engine.embedder, "load"):
                engine.embedder.load()  # model load time is reported apart from throughput
            started = time.perf_counter()
            report = await engine.index([path])
            seconds = time.perf_counter() - started
            stats = await engine.stats()
    shutil.rmtree(index, ignore_errors=True)
    megabytes = report.bytes_read / 2**20
    return {
        "files": report.indexed,
        "documents": stats.documents,
        "chunks": stats.chunks,
        "megabytes": round(megabytes, 2),
        "seconds": round(seconds, 2),
        "mb_per_second": round(megabytes / seconds, 2),
        "chunks_per_second": round(stats.chunks / seconds, 1),
        "embedded": report.embedded,
        "peak_rss_mb": round(max(rss.peak_mb, peak_rss_mb()), 1),
    }


CASES: dict[str, tuple[Any, str]] = {
    "jsonl_bm25": (lambda: require(SCIFACT / "corpus.jsonl"), "none"),
    "markdown_bm25": (markdown_tree, "none"),
    "pdf_bm25": (pdf_file, "none"),
    "scifact_minilm": (lambda: require(SCIFACT / "corpus.jsonl"), "minilm"),
}


def main() -> dict[str, Any]:
    results: dict[str, Any] = {}
    for name in CASES:
        CASES[name][0]()  # prepare inputs here, outside the measured process
        done = subprocess.run([sys.executable, "-m", "benchmarks.ingest_throughput", "--case", name],
                              check=True, capture_output=True, text=True)  # fmt: skip
        results[name] = json.loads(done.stdout.splitlines()[-1])
        print(f"{name}: {results[name]}")
    pdf = results["pdf_bm25"]
    pdf["pages_per_second"] = round(200 / pdf["seconds"], 1)
    return {
        "cases": results,
        "peer_reference_llamaindex_seconds_to_embed_scifact": 299,
        "goal_seconds_to_embed_scifact": 150,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=sorted(CASES), help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.case:
        make, embedder = CASES[arguments.case]
        print(json.dumps(asyncio.run(run_one(arguments.case, make(), embedder))))
    else:
        write_result("ingest_throughput", main())
