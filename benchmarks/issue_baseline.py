"""An issue's before and after: today's eval runs against the same runs at a base revision.

    python -m benchmarks.issue_baseline --run-base     # run the base's code, then compare
    python -m benchmarks.issue_baseline                # compare with the stored base records

The base revision (default eb208fc, the last commit before the trusted-verification issue
changed any code) is checked out in a git worktree and answers the same questions with its
own code, its own index and the same model, "ours" pipeline only; its records are kept in
`benchmarks/results/baseline/BASE/RUN.jsonl` (delete one to run it again). Today's records
are the committed eval runs (`benchmarks/results/eval/RUN/`, written by `eval_suite`). Per
run: answerable correct, not-found precision / recall / F1, answerable abstained, claims and
unsupported claims (`benchmarks.abstention.figures`), both sides' answers judged by today's
measure (`rejudged`: since 2026-11-28 a gold answer written as code also counts as said, and
the base's stored verdicts predate that). Results: `benchmarks/results/issue_baseline.json`.

The base's embedded model is not seeded (today's is), so its figures move a little from
one run to the next; the extractive writer's do not.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks.abstention import figures
from benchmarks.common import DATA, RESULTS, ROOT, require, write_result
from benchmarks.eval_suite import EVAL, RUNS, fetch_corpus
from citesynth.evaluation.datafiles import rows
from citesynth.evaluation.harness import answered_right
from citesynth.evaluation.runner import prepare

BASE = "eb208fc"
COMPARED = (
    "clapnq-extractive",
    "clapnq-local-full",
    "httpx-extractive",
    "httpx-local",
    "click-extractive",
    "click-local",
    "multihop-rag-extractive",
    "docs-rhdh-extractive",
)
"""The runs whose questions include on-topic ones the documents do not answer (the ClapNQ
report slice, 100 with 50 unanswerable; HTTPX, 24 with 12; Click, 32 with 10; MultiHop-RAG's
report half, 350 with 50 null queries), and the Developer Hub test run (150, all answerable),
where abstaining is only ever wrong."""

_BASE_RUN = """
import asyncio, json, sys
from pathlib import Path
from benchmarks.eval_suite import run_one
from citesynth.evaluation.runner import EvalRequest
name, dataset, model, corpus, limit = json.loads(sys.argv[1])
request = EvalRequest(
    dataset, model=model, pipelines=("ours",), limit=limit,
    **({"corpus": Path(corpus)} if corpus else {}),
)
asyncio.run(run_one(name, request))
"""
"""Runs in the base's worktree, with the base's code (`run_one` and `EvalRequest` have
kept these names and fields since before the issue)."""


def base_records(run: str, base: str) -> Path:
    return RESULTS / "baseline" / base / f"{run}.jsonl"


def run_base(runs: list[str], base: str, worktree: Path | None) -> None:
    """Answer each run's questions with the base revision's code (see the module docstring)."""
    missing = [run for run in runs if not base_records(run, base).exists()]
    if not missing:
        return
    for run in missing:
        fetch_corpus(RUNS[run])
    made = worktree is None
    folder = worktree or Path(tempfile.mkdtemp(prefix="citesynth-base-")) / "tree"
    if made:
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(folder), base], cwd=ROOT, check=True
        )
    try:
        for run in missing:
            request = RUNS[run]
            corpus = str(request.corpus) if request.corpus else ""
            spec = json.dumps([run, request.dataset, request.model, corpus, request.limit])
            print(f"{run}: answering with {base} in {folder}", flush=True)
            subprocess.run(
                [sys.executable, "-c", _BASE_RUN, spec],
                cwd=folder,
                env=_environment(folder),
                check=True,
            )
            target = base_records(run, base)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(
                folder / "benchmarks" / "results" / "eval" / run / "records.jsonl", target
            )
    finally:
        if made:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT, check=False
            )


def _environment(folder: Path) -> dict[str, str]:
    """This process's environment, with the base's code and the shared data on the paths."""
    return os.environ | {"PYTHONPATH": f"{folder / 'src'}:{folder}", "CITESYNTH_DATA": str(DATA)}


def compare(runs: list[str], base: str) -> dict[str, Any]:
    """Per run, the base's figures and today's (None where a side has no records).

    Both sides' answers are judged by today's measure (`rejudged`): the base's records keep
    the verdicts of the measure of their day.
    """
    compared: dict[str, Any] = {}
    for run in runs:
        then, now = base_records(run, base), EVAL / run / "records.jsonl"
        gold = {item.id: item.answers for item in prepare(replace(RUNS[run], data=DATA)).items}
        compared[run] = {
            "base": figures(rejudged(rows(then), gold)) if then.exists() else None,
            "now": figures(rejudged(rows(now), gold)) if now.exists() else None,
        }
    return compared


def rejudged(records: Iterable[dict[str, Any]], gold: dict[str, list[str]]) -> list[dict[str, Any]]:
    """`records` with each answerable answer judged again by today's measure
    (`harness.answered_right`); a record whose question is not in `gold` keeps its verdict."""
    judged = []
    for record in records:
        if record.get("answerable") and record["id"] in gold:
            text = "" if record["abstained"] or record.get("fallback") else record["answer"]
            right = answered_right(text, gold[record["id"]], abstained=record["abstained"])
            record = record | {"correct": record["correct"] if right is None else right}
        judged.append(record)
    return judged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default=BASE)
    parser.add_argument("--runs", default=",".join(COMPARED), help="comma-separated eval runs")
    parser.add_argument("--run-base", action="store_true", help="answer with the base's code")
    parser.add_argument("--worktree", type=Path, help="an existing checkout of the base")
    args = parser.parse_args()
    runs = args.runs.split(",")
    unknown = [run for run in runs if run not in RUNS]
    if unknown:
        raise SystemExit(f"unknown runs {unknown}: choose from {list(RUNS)}")
    if args.run_base:
        require(DATA)
        run_base(runs, args.base, args.worktree)
    payload = {"base": args.base, "runs": compare(runs, args.base)}
    print(json.dumps(payload["runs"], indent=2))
    write_result("issue_baseline", payload)


if __name__ == "__main__":
    main()
