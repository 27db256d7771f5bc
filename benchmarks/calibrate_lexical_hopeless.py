"""Calibrate `lexical_hopeless`: below which lexical score a claim skips the cross-encoder.

    python -m benchmarks.calibrate_lexical_hopeless [--write]

A claim cited to a passage that shares almost none of its terms (an answer's sentence
cited to the wrong source, repair's candidates) is unsupported whatever the model says,
and the model is most of what verification costs: one int8 pass per claim, about 20 ms on
two cores. The lexical verdict stands for such a claim when its score is below
`lexical_hopeless`. The threshold is read on the tuning claims `calibrate_lexical_sure`
reads (the held-out groups of WiCE `dev`, SciFact `train` and HaluEval `dev`, the Developer
Hub `dev` reference-answer claims, the written documentation tuning claims): the highest
step of 0.01 at or below the lowest lexical score of any claim the trained verifier labels
`supported` there, so that skipping changes none of their verdicts. `--write` stores it in
`src/citesynth/verify/crossencoder.json`. Results: `benchmarks/results/lexical_hopeless.json`
(per set: claims, how many fall below, and the trained verdicts there).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
from dataclasses import replace
from typing import Any

from benchmarks.calibrate_lexical_sure import META, judged
from benchmarks.common import require, set_fields, write_result
from citesynth.evaluation.datafiles import data_dir

CAP = 0.3
"""The threshold never exceeds this, whatever the tuning claims allow."""

Scored = tuple[float, bool, int]
"""Per claim: the lexical score, the trained verifier labels it supported, the gold label."""


async def scored() -> dict[str, list[Scored]]:
    found = await judged(lambda meta: replace(meta, lexical_hopeless=None))  # skip off
    return {
        name: [(w.score, t.label == "supported", label) for t, w, _, label in rows]
        for name, rows in found.items()
    }


def fit(found: dict[str, list[Scored]]) -> float:
    """The highest 0.01 step at or below every score the model supports (at most `CAP`)."""
    lowest = min((score for rows in found.values() for score, sup, _ in rows if sup), default=CAP)
    return min(CAP, math.floor(lowest * 100) / 100)


def below(rows: list[Scored], threshold: float) -> dict[str, int]:
    skipped = [(sup, label) for score, sup, label in rows if score < threshold]
    return {
        "claims": len(rows),
        "below": len(skipped),
        "below_supported_by_model": sum(sup for sup, _ in skipped),
        "below_gold_supported": sum(label for _, label in skipped),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="store it in crossencoder.json")
    args = parser.parse_args()
    require(data_dir())
    found = asyncio.run(scored())
    threshold = fit(found)
    payload: dict[str, Any] = {
        "benchmark": "lexical_hopeless",
        "lexical_hopeless": threshold,
        "rule": "highest 0.01 step at or below the lowest lexical score of any tuning claim "
        "the trained verifier supports (held-out WiCE dev, SciFact train, HaluEval dev "
        "groups, Developer Hub dev reference-answer claims, written documentation tuning "
        f"claims), at most {CAP}",
        "tuning": {name: below(rows, threshold) for name, rows in found.items()},
    }
    print(json.dumps(payload, indent=2))
    print(f"wrote {write_result('lexical_hopeless', payload)}")
    if args.write:
        set_fields(META, lexical_hopeless=threshold)


if __name__ == "__main__":
    main()
