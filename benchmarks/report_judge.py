"""How far a judge model can be trusted: does it score a report above a broken copy of it?

    python -m benchmarks.report_judge                  # the embedded model as the judge
    python -m benchmarks.report_judge --judge openai:gpt-4o-mini

The extractive writer writes a 600-word report for each of the five report-half questions
of `docs-rhdh` and of `multihop-rag` (as `report_quality` does). Each report is judged as
written and as a broken copy: its Key Findings swapped with those of the report of
another question of the same corpus (so the findings are fluent, cited and off the
question). A judge worth its name scores the original higher; the figures are the share
of pairs it does (`prefers_original`, ties count half), the mean scores of both, and how
often its reply could not be read. Results: `benchmarks/results/report_judge.json`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
from dataclasses import replace
from typing import Any

from benchmarks.common import CACHE, DATA, require, write_result
from benchmarks.report_quality import SETS, questions
from citesynth import Engine, Settings
from citesynth.evaluation.qa_data import load_set
from citesynth.llm import get_model
from citesynth.report.judging import JudgeFailed, judge
from citesynth.synthesis.prompts import BUILT_IN


def findings(markdown: str) -> str:
    """The Key Findings part of a report's Markdown."""
    return markdown.split("## Key Findings", 1)[1].split("## Conclusions", 1)[0]


async def run_set(name: str, judge_name: str, count: int) -> list[dict[str, Any]]:
    """Judge pairs (original, broken) for the first `count` questions of `name`."""
    eval_set = load_set(name, "test", data=DATA, cache=CACHE / "eval")
    corpus = eval_set.corpus.resolve()
    settings = replace(
        Settings.from_env(model="extractive"),
        index_dir=CACHE / "reports" / name,
        root=corpus if corpus.is_dir() else corpus.parent,
    )
    model = get_model(judge_name)
    async with await Engine.open(settings=settings, indexing=True) as engine:
        await engine.index([corpus])
        reports = [
            await engine.write_report(question, max_words=600, cache=False)
            for _, question in questions(name, count)
        ]
    rows = []
    for index, report in enumerate(reports):
        other = reports[(index + 1) % len(reports)]
        broken = report.markdown.replace(findings(report.markdown), findings(other.markdown))
        titles = [s.title for s in report.subtopics]
        scores: dict[str, float | None] = {}
        for kind, text in (("original", report.markdown), ("broken", broken)):
            try:
                verdict = await judge(model, BUILT_IN, report.question, titles, text)
                scores[kind] = verdict.overall
            except JudgeFailed as error:
                print(f"{name} {index} {kind}: {error}", flush=True)
                scores[kind] = None
        rows.append({"question": report.question, **scores})
        print(f"{name} {index}: {scores}", flush=True)
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Preference for the original, mean scores, unreadable replies."""
    pairs = [r for r in rows if r["original"] is not None and r["broken"] is not None]
    wins = sum(
        1.0 if r["original"] > r["broken"] else 0.5 if r["original"] == r["broken"] else 0
        for r in pairs
    )
    mean = lambda key: round(statistics.fmean(r[key] for r in pairs), 3) if pairs else None  # noqa: E731
    return {
        "pairs": len(pairs),
        "prefers_original": round(wins / len(pairs), 3) if pairs else None,
        "mean_original": mean("original"),
        "mean_broken": mean("broken"),
        "unreadable": sum(r[k] is None for r in rows for k in ("original", "broken")),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--judge", default="local")
    parser.add_argument("--questions", type=int, default=5)
    args = parser.parse_args()
    require(DATA)
    rows: list[dict[str, Any]] = []
    for name in SETS:
        rows.extend(asyncio.run(run_set(name, args.judge, args.questions)))
    write_result("report_judge", {"judge": args.judge, "summary": summary(rows), "pairs": rows})


if __name__ == "__main__":
    main()
