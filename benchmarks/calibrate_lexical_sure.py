"""Calibrate `lexical_sure`: from which lexical score a claim the lexical verifier labels
`supported` counts as supported whatever the cross-encoder says.

    python -m benchmarks.calibrate_lexical_sure [--write]

The cross-encoder is strict with paraphrases of documentation: on the reference answers of
the Red Hat Developer Hub tuning questions it passes 71 % of the right claims where the
lexical verifier passes 96 %. A claim whose terms, term pairings, numbers and negation are
all in the sentence stating it is supported on its own. The threshold is chosen on
held-out tuning claims only: the groups of WiCE `dev`, SciFact `train` and HaluEval `dev`
that the cross-encoder's recipe held out of training (`verifier_pairs.holdout`), and the
Developer Hub `dev` reference-answer claims (`verifier_pairs.docs_claim_pairs`, against
their own context and another question's); it maximises the mean balanced accuracy of the
four, each verdict as the trained verifier gives it. The report splits are measured by
`benchmarks.verifier_accuracy` and `benchmarks.docs_claims`. `--write` stores the
threshold in `src/citesynth/verify/crossencoder.json`. Results:
`benchmarks/results/lexical_sure.json`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from dataclasses import replace
from typing import Any

from benchmarks.common import ROOT, require, set_fields, write_result
from benchmarks.docs_claims import rhdh_claims
from benchmarks.verifier_pairs import holdout
from citesynth.evaluation.datafiles import data_dir
from citesynth.evaluation.verifier_data import load
from citesynth.verify import Check, LexicalVerifier

META = ROOT / "src" / "citesynth" / "verify" / "crossencoder.json"
HELD_OUT = {
    "wice": ("dev", "wice:"),
    "scifact": ("train", "scifact:"),
    "halueval": ("dev", "halueval:"),
}

Outcome = tuple[bool, bool, float, int]
"""Per claim: the trained verifier's verdict without the rule, the lexical label is
`supported`, the lexical score, the gold label."""


def tuning_claims() -> dict[str, list[tuple[str, tuple[str, ...], int]]]:
    """(claim, passages, label) of each held-out tuning set."""
    sets = {
        name: [
            (e.claim, e.passages, int(e.supported))
            for e in load(name, split)
            if holdout(prefix + e.group)
        ]
        for name, (split, prefix) in HELD_OUT.items()
    }
    sets["docs-rhdh"] = [
        (c["claim"], (c["passage"],), int(c["label"] == "supported")) for c in rhdh_claims("dev")
    ]
    return sets


async def outcomes() -> dict[str, list[Outcome]]:
    from citesynth.verify.crossencoder import CrossEncoder
    from citesynth.verify.trained import TrainedVerifier

    model = CrossEncoder.load()  # its own copy: the rule is switched off to measure it
    model.meta = replace(model.meta, lexical_sure=None)
    trained = TrainedVerifier(model)
    lexical = LexicalVerifier()
    found = {}
    for name, claims in tuning_claims().items():
        checks = [Check(claim, passages) for claim, passages, _ in claims]
        verdicts = zip(await trained.verify(checks), await lexical.verify(checks), strict=True)
        found[name] = [
            (t.label == "supported", w.label == "supported", w.score, label)
            for (t, w), (_, _, label) in zip(verdicts, claims, strict=True)
        ]
    return found


def balanced(found: list[Outcome], sure: float | None) -> dict[str, float]:
    """Balanced accuracy and pass rates with the rule at `sure` (None: without it)."""
    passed = [t or (sure is not None and w and s >= sure) for t, w, s, _ in found]
    positive = [p for p, (*_, y) in zip(passed, found, strict=True) if y == 1]
    negative = [p for p, (*_, y) in zip(passed, found, strict=True) if y == 0]
    tpr, fpr = sum(positive) / len(positive), sum(negative) / len(negative)
    return {
        "balanced_accuracy": round((tpr + 1 - fpr) / 2, 4),
        "supported_passed": round(tpr, 4),
        "unsupported_passed": round(fpr, 4),
    }


def fit(found: dict[str, list[Outcome]]) -> float:
    """The threshold with the best mean balanced accuracy over the tuning sets."""

    def mean(sure: float) -> float:
        return sum(balanced(f, sure)["balanced_accuracy"] for f in found.values()) / len(found)

    return max((step / 100 for step in range(50, 100)), key=lambda sure: (mean(sure), sure))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="store it in crossencoder.json")
    args = parser.parse_args()
    require(data_dir())
    found = asyncio.run(outcomes())
    sure = fit(found)
    payload: dict[str, Any] = {
        "benchmark": "lexical_sure",
        "lexical_sure": sure,
        "rule": "best mean balanced accuracy over held-out WiCE dev, SciFact train, HaluEval "
        "dev groups and the Developer Hub dev reference-answer claims",
        "tuning": {
            name: {"claims": len(f), "without": balanced(f, None), "with": balanced(f, sure)}
            for name, f in found.items()
        },
    }
    print(json.dumps(payload, indent=2))
    print(f"wrote {write_result('lexical_sure', payload)}")
    if args.write:
        set_fields(META, lexical_sure=sure)


if __name__ == "__main__":
    main()
