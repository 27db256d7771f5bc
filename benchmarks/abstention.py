"""Abstention and answerable accuracy of eval runs, against a base revision's records.

    python -m benchmarks.abstention clapnq-extractive multihop-rag-extractive [--base eb208fc] [--out NAME]

Reads `benchmarks/results/eval/RUN/records.jsonl` (the "ours" pipeline) now and at the
base revision (`git show`), and reports per run: the share of answerable questions answered
correctly, not-found precision / recall / F1 (unanswerable as the positive class), the share
of answerable questions abstained on, and the claims in the final answers with how many
are unsupported. Results: `benchmarks/results/abstention.json` (or `NAME.json`).
"""

from __future__ import annotations

import argparse
import json
import subprocess
from typing import Any

from benchmarks.common import RESULTS, ROOT, write_result
from citesynth.evaluation import metrics


def figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    ours = [r for r in records if r.get("pipeline") == "ours"]
    answerable = [r for r in ours if r["answerable"]]
    unanswerable = [r for r in ours if not r["answerable"]]
    false = sum(r["abstained"] for r in answerable)
    result = metrics.abstention((r["abstained"], r["answerable"]) for r in ours)
    precision, recall, f1 = (result[k] or 0.0 for k in ("precision", "recall", "f1"))
    return {
        "answerable_correct": round(sum(r["correct"] for r in answerable) / len(answerable), 3)
        if answerable
        else None,
        "not_found_precision": round(precision, 3),
        "not_found_recall": round(recall, 3) if unanswerable else None,
        "not_found_f1": round(f1, 3) if unanswerable else None,
        "answerable_abstained": round(false / len(answerable), 3) if answerable else None,
        "claims": sum(r["claims"] for r in ours),
        "unsupported_claims": sum(r["unsupported"] for r in ours),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+")
    parser.add_argument("--base", default="eb208fc")
    parser.add_argument("--out", default="abstention", help="the results file's name")
    args = parser.parse_args()
    payload: dict[str, Any] = {"base": args.base, "runs": {}}
    for run in args.runs:
        path = RESULTS / "eval" / run / "records.jsonl"
        now = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        shown = subprocess.run(
            ["git", "show", f"{args.base}:{path.relative_to(ROOT)}"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        ).stdout
        before = [json.loads(line) for line in shown.splitlines() if line.strip()]
        payload["runs"][run] = {
            "before": figures(before) if before else None,
            "after": figures(now),
        }
    print(json.dumps(payload, indent=2))
    write_result(args.out, payload)


if __name__ == "__main__":
    main()
