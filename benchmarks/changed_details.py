"""Claims with one detail changed: how often does each verifier still call them supported?

    python -m benchmarks.changed_details

Every supported claim of the reporting splits (SciFact dev SUPPORT pairs, WiCE test
`supported`, HaluEval samples 250-499 right answers) gets one detail changed by the same
generator the training recipe uses on tuning data (`benchmarks.verifier_pairs.perturb`: a
number, unit or year; negation added or removed; names swapped or replaced; an antonym),
and is checked against the same evidence. Reported per verifier: the share of changed
claims passed as `supported` (lower is better) beside the share of the unchanged claims
passed (the price in recall). Results: `benchmarks/results/changed_details.json`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.common import DATA, require, write_result
from benchmarks.verifier_pairs import perturb
from citesynth.evaluation.verifier_data import SPLITS, load
from citesynth.verify import Check, LexicalVerifier, Verifier
from citesynth.verify.crossencoder import available


def changed_claims() -> list[tuple[str, Check, Check, str]]:
    """(data set, original check, changed check, kind of change) for each supported claim."""
    rng = random.Random(23)
    found = []
    for dataset, (_, report) in SPLITS.items():
        for example in load(dataset, report):
            if not example.supported:
                continue
            changed = perturb(example.claim, "\n".join(example.passages), rng)
            if changed is None:
                continue
            found.append(
                (
                    dataset,
                    Check(example.claim, example.passages),
                    Check(changed[0], example.passages),
                    changed[1],
                )
            )
    return found


async def measure(verifier: Verifier, cases: list[tuple[str, Check, Check, str]]) -> dict[str, Any]:
    originals = await verifier.verify([c[1] for c in cases])
    changed = await verifier.verify([c[2] for c in cases])
    result: dict[str, Any] = {}
    for dataset in SPLITS:
        chosen = [i for i, c in enumerate(cases) if c[0] == dataset]
        result[dataset] = {
            "claims": len(chosen),
            "changed_passed_as_supported": round(
                sum(changed[i].supported for i in chosen) / len(chosen), 4
            ),
            "unchanged_passed_as_supported": round(
                sum(originals[i].supported for i in chosen) / len(chosen), 4
            ),
        }
    kinds = Counter(c[3] for c in cases)
    result["by_change"] = {
        kind: round(
            sum(changed[i].supported for i, c in enumerate(cases) if c[3] == kind) / count, 4
        )
        for kind, count in sorted(kinds.items())
    }
    result["all_changed_passed_as_supported"] = round(
        sum(v.supported for v in changed) / len(changed), 4
    )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=Path, help="a folder train_crossencoder --out wrote")
    args = parser.parse_args()
    require(DATA)
    cases = changed_claims()
    payload: dict[str, Any] = {
        "cases": len(cases),
        "lexical": asyncio.run(measure(LexicalVerifier(), cases)),
    }
    if available():
        from citesynth.verify.crossencoder import CrossEncoder
        from citesynth.verify.trained import TrainedVerifier

        verifier = TrainedVerifier(CrossEncoder.load(folder=args.weights))
        payload["trained"] = asyncio.run(measure(verifier, cases))
    print(json.dumps(payload, indent=2))
    if args.weights is None:
        write_result("changed_details", payload)


if __name__ == "__main__":
    main()
