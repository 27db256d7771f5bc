"""Links of cause and effect: what holding a why-answer's "because" to its sources changes.

    python -m benchmarks.link_claims [--lexical-only]

`verify.causes.LinksChecked` holds a verifier's verdicts to the links claims make ("X
because Y", "X, so Y", "This is because Y"): a link no passage states is `partial` at most.
Each verifier is measured alone and held to the links (`every=True`: every claim read as a
why-answer's), on:

- `tuning`: 72 link claims written by a helper over the Starlette, marshmallow and structlog
  docs (`tests/fixtures/link_claims_tuning.jsonl`: 36 whose passage states the link, 36
  joining two facts of the passage by a link it does not state, gives another reason,
  states it the other way round or for another subject). The rules were fitted on it.
- `held_out`: 60 more written the same way, once the rules were fixed, over the Click,
  cattrs and attrs docs (`tests/fixtures/link_claims_heldout.jsonl`), never tuned on.
- `written_tuning`: the link claims among the 600 written documentation tuning claims
  (`tests/fixtures/docs_claims_tuning_*.jsonl`), which are no why-answers: how many right
  ones a why-question's rule would cost.
- the labelled claims of WiCE, SciFact and HaluEval (tuning and report splits) that make a
  link, read as why-answers: the same question on encyclopedic and scientific text.

Reported per set: claims with a link, the share of right (supported) and wrong claims each
verifier passes alone and held, per kind of wrong claim, and balanced accuracy over the
link claims. Results: `benchmarks/results/link_claims.json`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, write_result
from citesynth.evaluation.datafiles import data_dir
from citesynth.evaluation.verifier_data import SPLITS, load
from citesynth.verify import LexicalVerifier
from citesynth.verify.base import Check, Verdict, Verifier
from citesynth.verify.causes import LinksChecked, link_of

FIXTURES = ROOT / "tests" / "fixtures"
Labelled = tuple[Check, bool, str]
"""A claim to check, whether it is right, and the kind of change when it is not."""


def written(path: Path) -> list[Labelled]:
    """The link claims of a written claims file (passage under its heading path)."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if link_of(row["claim"]) is None:
            continue
        check = Check(row["claim"], (row["passage"],), row.get("heading") or "")
        right = row["label"] == "supported"
        found.append((check, right, "" if right else row.get("change") or "other"))
    return found


def labelled(dataset: str, split: str) -> list[Labelled]:
    """The claims of a labelled split that make a link."""
    return [
        (Check(e.claim, e.passages), e.supported, "" if e.supported else dataset)
        for e in load(dataset, split)
        if link_of(e.claim) is not None
    ]


def scored(claims: list[Labelled], alone: list[Verdict], held: list[Verdict]) -> dict[str, Any]:
    """What each reading passes, of the right claims and of each kind of wrong one."""
    right = [i for i, (_, ok, _) in enumerate(claims) if ok]
    wrong = [i for i, (_, ok, _) in enumerate(claims) if not ok]

    def passed(verdicts: list[Verdict], which: list[int]) -> int:
        return sum(verdicts[i].supported for i in which)

    def balanced(verdicts: list[Verdict]) -> float | None:
        if not right or not wrong:
            return None
        caught = len(wrong) - passed(verdicts, wrong)
        return round((passed(verdicts, right) / len(right) + caught / len(wrong)) / 2, 4)

    kinds = Counter(kind for _, ok, kind in claims if not ok)
    return {
        "right_passed": [passed(alone, right), passed(held, right), len(right)],
        "wrong_passed": [passed(alone, wrong), passed(held, wrong), len(wrong)],
        "wrong_passed_by_kind": {
            kind: [
                passed(alone, [i for i in wrong if claims[i][2] == kind]),
                passed(held, [i for i in wrong if claims[i][2] == kind]),
                count,
            ]
            for kind, count in sorted(kinds.items())
        },
        "balanced_accuracy": [balanced(alone), balanced(held)],
    }


async def measure(verifier: Verifier, sets: dict[str, list[Labelled]]) -> dict[str, Any]:
    """Each set's figures for `verifier` alone and held to the links."""
    held = LinksChecked(verifier, every=True)
    results = {}
    for name, claims in sets.items():
        checks = [check for check, _, _ in claims]
        results[name] = {"link_claims": len(claims)} | scored(
            claims, await verifier.verify(checks), await held.verify(checks)
        )
        print(name, verifier.name, results[name], flush=True)
    return results


def sets() -> dict[str, list[Labelled]]:
    """The claim sets there are data for (see the module docstring)."""
    found = {"tuning": written(FIXTURES / "link_claims_tuning.jsonl")}
    if (FIXTURES / "link_claims_heldout.jsonl").exists():
        found["held_out"] = written(FIXTURES / "link_claims_heldout.jsonl")
    found["written_tuning"] = [
        claim
        for path in sorted(FIXTURES.glob("docs_claims_tuning_*.jsonl"))
        for claim in written(path)
    ]
    if data_dir().exists():
        for dataset, splits in SPLITS.items():
            for split in splits:
                found[f"{dataset}/{split}"] = labelled(dataset, split)
    else:
        print("../shared/data not found: the WiCE, SciFact and HaluEval sets are skipped")
    return found


async def main(lexical_only: bool) -> None:
    claims = sets()
    verifiers: list[Verifier] = [LexicalVerifier()]
    if not lexical_only:
        from citesynth.verify.trained import TrainedVerifier

        verifiers.append(TrainedVerifier.load())
    results = {v.name: await measure(v, claims) for v in verifiers}
    write_result("link_claims", {"benchmark": "link_claims", "verifiers": results})


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--lexical-only", action="store_true", help="skip the trained verifier")
    asyncio.run(main(parser.parse_args().lexical_only))
