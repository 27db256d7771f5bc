"""Reports on two corpora with each writer: validity, support, coverage, length, time, judge.

    python -m benchmarks.report_quality                          # extractive and local
    python -m benchmarks.report_quality --models extractive      # seconds
    python -m benchmarks.report_quality --models local --judge local

Five questions of each set's report half (`test` split, the first five by id hash, never
tuned on): the Red Hat Developer Hub guides (`docs-rhdh`) and the MultiHop-RAG news facts
(`multihop-rag`, its null queries left out). Each question gets a report of at most
`--max-words` words (default 600) from the default settings (MiniLM, the trained verifier
when installed). Per report:

- `citation_validity`: the share of markers in the body whose every number is a listed
  source (the goal is 1.0), and `unused_sources` (listed, never cited);
- `supported_share`: claims the verifier marks supported, of those it checked;
- `coverage`: the share of subtopics the sources answer; `subtopics` and their origin;
- `words` against `max_words`; `seconds_per_1000_words`; `timings_ms` per stage;
- `judge`: the judge's weighted score when `--judge` is given.

`--long` writes one 10,000-word report on the Developer Hub guides per writer, section by
section, and measures its repeated-sentence share and citation consistency (`long`).

Results: `benchmarks/results/report_quality.json` (a run replaces only its own set and
writer there); the Markdown and HTML of the first
report of each corpus and writer go to `docs/examples/`.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import re
import statistics
import time
from dataclasses import replace
from typing import Any

from benchmarks.common import CACHE, DATA, RESULTS, ROOT, require, write_result
from citesynth import Engine, Settings
from citesynth.citations.resolve import numbers_in
from citesynth.evaluation.qa_data import load_set
from citesynth.report import Report, render
from citesynth.report.checks import markers
from citesynth.verify.claims import plain

SETS = ("docs-rhdh", "multihop-rag")
EXAMPLES = ROOT / "docs" / "examples"


def questions(name: str, count: int) -> list[tuple[str, str]]:
    """(id, question) of the first `count` answerable report-half questions by id hash."""
    items = [i for i in load_set(name, "test", data=DATA, cache=CACHE / "eval").items]
    items = [i for i in items if i.answerable]
    items.sort(key=lambda i: hashlib.sha256(i.id.encode()).hexdigest())
    return [(i.id, i.question) for i in items[:count]]


def measures(report: Report) -> dict[str, Any]:
    """The figures of one report (see the module docstring)."""
    body = report.markdown.split("\n## Sources\n", 1)[0]
    listed = {s.number for s in report.sources}
    found = markers(body)
    valid = 0
    cited: set[int] = set()
    invalid = []
    for marker in found:
        numbers = set(numbers_in(marker))
        cited |= numbers
        valid += numbers <= listed
        if not numbers <= listed:
            at = body.find(marker)
            invalid.append(body[max(0, at - 60) : at + len(marker)])
    coverage = next(c for c in report.checks if c.name == "coverage")
    total = report.timings_ms.get("total", 0.0) / 1000
    return {
        "words": report.words,
        "max_words": report.max_words,
        "markers": len(found),
        "citation_validity": round(valid / len(found), 4) if found else None,
        "invalid_markers": invalid,
        "unused_sources": len(listed - cited),
        "sources": len(listed),
        "supported_share": report.supported_share,
        "coverage": round(sum(not s.not_found for s in report.sections) / len(report.sections), 4),
        "coverage_passed": coverage.passed,
        "subtopics": [f"{s.origin}: {s.title}" for s in report.subtopics],
        "sections": len(report.sections),
        "left_out": [w for w in report.warnings if "left out" in w],
        "checks_failed": [c.name for c in report.checks if not c.passed],
        "judge": report.judgements[-1].overall if report.judgements else None,
        "judge_scores": report.judgements[-1].scores if report.judgements else None,
        "revisions": report.revisions,
        "seconds": round(total, 2),
        "seconds_per_1000_words": round(total / report.words * 1000, 2) if report.words else None,
        "timings_ms": report.timings_ms,
    }


async def run_set(name: str, model: str, args: argparse.Namespace) -> dict[str, Any]:
    """Reports for the first `--questions` questions of `name` with `model`."""
    eval_set = load_set(name, "test", data=DATA, cache=CACHE / "eval")
    corpus = eval_set.corpus.resolve()
    settings = replace(
        Settings.from_env(model=model),
        index_dir=CACHE / "reports" / name,
        root=corpus if corpus.is_dir() else corpus.parent,
    )
    rows = []
    async with await Engine.open(settings=settings, indexing=True) as engine:
        await engine.index([corpus])
        for number, (item_id, question) in enumerate(questions(name, args.questions)):
            started = time.perf_counter()
            report = await engine.write_report(
                question, max_words=args.max_words, judge=args.judge, cache=False
            )
            figures = measures(report)
            rows.append({"id": item_id, "question": question, **figures})
            print(
                f"{name} {model} {item_id}: {figures['words']} words, validity "
                f"{figures['citation_validity']}, supported {figures['supported_share']}, "
                f"coverage {figures['coverage']}, {time.perf_counter() - started:.1f} s",
                flush=True,
            )
            if number == 0 and not args.no_examples:
                EXAMPLES.mkdir(parents=True, exist_ok=True)
                stem = EXAMPLES / f"report-{name}-{model.replace(':', '-')}"
                stem.with_suffix(".md").write_text(render(report, "md"), encoding="utf-8")
                stem.with_suffix(".html").write_text(render(report, "html"), encoding="utf-8")
    return {"reports": rows, "summary": summary(rows)}


LONG_QUESTION = (
    "What does Red Hat Developer Hub offer, and how is it installed, configured and run?"
)
LONG_WORDS = 10_000


def repeats(report: Report) -> dict[str, Any]:
    """Repetition and citation consistency of one (long) report.

    `repeated_sentence_share`: of the factual sentences of the findings, those whose words
    (markers aside) another sentence of the report's findings already had. Consistency:
    every marker names a listed source, and no chunk is listed under two numbers.
    """
    seen: set[str] = set()
    total = repeated = 0
    for section in report.sections:
        for sentence in re.split(r"(?<=[.!?])\s+", section.text):
            key = plain(sentence).lower()
            if len(key.split()) < 4:
                continue
            total += 1
            repeated += key in seen
            seen.add(key)
    chunks = [s.chunk_id for s in report.sources]
    return {
        "sections": len(report.sections),
        "sentences": total,
        "repeated_sentence_share": round(repeated / total, 4) if total else None,
        "chunks_under_two_numbers": len(chunks) - len(set(chunks)),
        "pointer_sections": sum(
            s.text.startswith("What the sources say on this") for s in report.sections
        ),
        "not_found_sections": sum(s.not_found for s in report.sections),
    }


async def run_long(model: str) -> dict[str, Any]:
    """One report of `LONG_WORDS` words on the Developer Hub guides, written section by section."""
    eval_set = load_set("docs-rhdh", "test", data=DATA, cache=CACHE / "eval")
    corpus = eval_set.corpus.resolve()
    settings = replace(
        Settings.from_env(model=model),
        index_dir=CACHE / "reports" / "docs-rhdh",
        root=corpus if corpus.is_dir() else corpus.parent,
    )
    async with await Engine.open(settings=settings, indexing=True) as engine:
        await engine.index([corpus])
        report = await engine.write_report(LONG_QUESTION, max_words=LONG_WORDS, cache=False)
    figures = {**measures(report), **repeats(report)}
    print(
        f"long {model}: {figures['words']} words in {figures['sections']} sections, repeated "
        f"{figures['repeated_sentence_share']}, validity {figures['citation_validity']}",
        flush=True,
    )
    EXAMPLES.mkdir(parents=True, exist_ok=True)
    stem = EXAMPLES / f"report-long-docs-rhdh-{model.replace(':', '-')}"
    stem.with_suffix(".md").write_text(render(report, "md"), encoding="utf-8")
    return {"question": LONG_QUESTION, **figures}


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Means over the reports of one set and writer."""

    def mean(key: str) -> float | None:
        values = [r[key] for r in rows if r[key] is not None]
        return round(statistics.fmean(values), 4) if values else None

    return {
        "reports": len(rows),
        "citation_validity": mean("citation_validity"),
        "all_markers_valid": all(r["citation_validity"] in (None, 1.0) for r in rows),
        "supported_share": mean("supported_share"),
        "coverage": mean("coverage"),
        "words": mean("words"),
        "within_length": sum(r["words"] <= r["max_words"] for r in rows),
        "seconds": mean("seconds"),
        "seconds_per_1000_words": mean("seconds_per_1000_words"),
        "judge": mean("judge"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="extractive,local")
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--questions", type=int, default=5)
    parser.add_argument("--max-words", type=int, default=600)
    parser.add_argument("--judge", default=None, help="a model that judges every report")
    parser.add_argument("--no-examples", action="store_true")
    parser.add_argument(
        "--long", action="store_true", help="one 10,000-word report per writer instead"
    )
    args = parser.parse_args()
    require(DATA)
    earlier = RESULTS / "report_quality.json"
    before = json.loads(earlier.read_text()) if earlier.exists() else {}
    runs: dict[str, Any] = before.get("runs", {})
    long: dict[str, Any] = before.get("long", {})
    for model in args.models.split(","):
        if args.long:
            long[model] = asyncio.run(run_long(model))
            continue
        for name in args.sets.split(","):
            run = asyncio.run(run_set(name, model, args))
            runs[f"{name}/{model}"] = {"max_words": args.max_words, "judge": args.judge, **run}
    write_result("report_quality", {"runs": runs, "long": long})


if __name__ == "__main__":
    main()
