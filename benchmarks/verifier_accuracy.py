"""Verifier accuracy on real labelled data: balanced accuracy, F1 and claims/s per data set.

The trained verifier (when `citesynth[embed]` is installed) and the lexical verifier in the
same run, on the reporting splits (WiCE test, SciFact dev pairs, HaluEval samples 250-499),
which were never used for training or thresholds; the lexical one also on the tuning
splits it was fitted on (for reference, they flatter it). Judge runs
are slow (one model call per claim), so they are made with the CLI on a prefix of each
reporting split and merged here from their `--json` output:

    citesynth eval verifier --dataset wice --verifier judge:local --limit 40 --json > wice.json
    python -m benchmarks.verifier_accuracy --merge wice.json scifact.json halueval.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from benchmarks.common import require, write_result
from citesynth.evaluation.datafiles import data_dir
from citesynth.evaluation.verifier_data import SPLITS, load
from citesynth.evaluation.verifier_eval import run
from citesynth.verify import LexicalVerifier


async def lexical() -> dict[str, Any]:
    verifier = LexicalVerifier()
    results: dict[str, Any] = {}
    for dataset, (tune, report) in SPLITS.items():
        for split, role in ((tune, "tuning"), (report, "report")):
            outcome = await run(verifier, load(dataset, split))
            results[f"{dataset}/{split}"] = {"role": role, **outcome.metrics()}
    return results


async def trained(weights: Path | None) -> dict[str, Any]:
    from citesynth.verify.crossencoder import CrossEncoder
    from citesynth.verify.trained import TrainedVerifier

    verifier = TrainedVerifier(CrossEncoder.load(folder=weights))
    results: dict[str, Any] = {"trained_on": verifier.model.meta.trained_on}
    for dataset, (_, report) in SPLITS.items():
        outcome = await run(verifier, load(dataset, report))
        results[f"{dataset}/{report}"] = {"role": "report", **outcome.metrics()}
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--merge", nargs="*", type=Path, default=[])
    parser.add_argument(
        "--weights", type=Path, help="a folder with weights train_crossencoder --out wrote"
    )
    parser.add_argument("--trained-only", action="store_true", help="skip the lexical verifier")
    args = parser.parse_args()
    require(data_dir())
    from citesynth.verify.crossencoder import available

    payload: dict[str, Any] = {
        "trained": asyncio.run(trained(args.weights)) if available() else "not installed",
        "lexical": "not run" if args.trained_only else asyncio.run(lexical()),
        "weights": json.loads(
            (Path(__file__).parents[1] / "src/citesynth/verify/weights.json").read_text()
        )["trained_on"],
        "goal_balanced_accuracy": 0.80,
    }
    judges: dict[str, Any] = {}
    for path in args.merge:
        found = json.loads(path.read_text())
        name = f"{found['verifier']} {found['dataset']}/{found['split']}"
        judges[name] = found["metrics"]
        same = load(found["dataset"], found["split"])[: found["metrics"]["examples"]]
        paired = asyncio.run(run(LexicalVerifier(), same)).metrics()
        judges[f"lexical on the same {len(same)}: {found['dataset']}/{found['split']}"] = paired
    if judges:
        payload["judges"] = judges
    print(json.dumps(payload, indent=2))
    if args.weights is None and not args.trained_only:
        write_result("verifier_accuracy", payload)


if __name__ == "__main__":
    main()
