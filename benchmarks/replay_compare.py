"""Two `benchmarks.replayed` outputs side by side: what changed, run by run and question by question.

    python -m benchmarks.replay_compare BEFORE AFTER [--pipeline ours]

`BEFORE` and `AFTER` are the folders `benchmarks.replayed` wrote (one subfolder per run,
each with its `records.jsonl`), the same replies read by two revisions or two sets of
weights. Per run found in both: questions, right answers, answerable ones answered right,
on-topic unanswerable ones answered "Not found in the sources.", claims kept and claims
removed, before → after; then every question whose answer or verdict changed, with whether
it was right before and after.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

Record = dict[str, Any]


def records(folder: Path, pipeline: str = "ours") -> dict[str, Record]:
    """The records of one run's `records.jsonl` for `pipeline`, by question id."""
    found: dict[str, Record] = {}
    for line in (folder / "records.jsonl").read_text().splitlines():
        record = json.loads(line)
        if record.get("pipeline") == pipeline:
            found[str(record["id"])] = record
    return found


def summary(run: Mapping[str, Record]) -> dict[str, int]:
    """What a run got right, and the claims its answers kept and lost."""
    answerable = [r for r in run.values() if r.get("answerable", True)]
    unanswerable = [r for r in run.values() if not r.get("answerable", True)]
    return {
        "questions": len(run),
        "correct": sum(bool(r.get("correct")) for r in run.values()),
        "answerable_right": sum(bool(r.get("correct")) for r in answerable),
        "unanswerable_not_found": sum(bool(r.get("correct")) for r in unanswerable),
        "claims_kept": sum(int(r.get("claims") or 0) for r in run.values()),
        "claims_removed": sum(len(r.get("removed") or []) for r in run.values()),
    }


def changed(before: Mapping[str, Record], after: Mapping[str, Record]) -> list[dict[str, Any]]:
    """The questions of both runs whose answer, or whether it is right, differs."""
    return [
        {
            "id": key,
            "question": old.get("question", ""),
            "answerable": old.get("answerable", True),
            "correct": [bool(old.get("correct")), bool(new.get("correct"))],
            "before": old.get("answer", ""),
            "after": new.get("answer", ""),
        }
        for key, old in before.items()
        if (new := after.get(key)) is not None
        and (old.get("answer") != new.get("answer") or old.get("correct") != new.get("correct"))
    ]


def compare(before: Path, after: Path, pipeline: str = "ours") -> dict[str, dict[str, Any]]:
    """Per run found under both folders: the two summaries and the changed questions."""
    runs = sorted(
        p.name
        for p in before.iterdir()
        if (p / "records.jsonl").is_file() and (after / p.name / "records.jsonl").is_file()
    )
    compared = {}
    for name in runs:
        old, new = records(before / name, pipeline), records(after / name, pipeline)
        compared[name] = {
            "before": summary(old),
            "after": summary(new),
            "changed": changed(old, new),
        }
    return compared


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--pipeline", default="ours")
    args = parser.parse_args()
    compared = compare(args.before, args.after, args.pipeline)
    if not compared:
        raise SystemExit(f"no run has records under both {args.before} and {args.after}")
    for name, found in compared.items():
        shown = ", ".join(
            f"{key} {found['before'][key]} → {found['after'][key]}" for key in found["before"]
        )
        print(f"{name}: {shown}")
        for question in found["changed"]:
            right = " → ".join("right" if c else "wrong" for c in question["correct"])
            print(f"  {question['id']} ({right}): {question['question'][:100]}")


if __name__ == "__main__":
    main()
