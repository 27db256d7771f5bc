"""What holds the trained verifier back on WiCE and SciFact: the evidence, the claim, or the model.

Three readings of the same labelled pairs by the shipped trained verifier:

- `own`: as shipped, the verifier choosing its evidence from the whole page or abstract;
- `gold_evidence`: the sentences the annotators marked (WiCE's supporting sentences, every
  alternative set joined; SciFact's rationale sentences) in place of the page, an oracle no
  run has; pairs with none marked (not supported, not enough information) keep the page;
- `clauses`: supported only when the whole claim and each of its clauses are (WiCE's
  claim-split reading: a partially supported claim has a clause its source does not state),
  with clauses cut at semicolons and at a comma before a linking word.

Measured on the report splits (WiCE test, SciFact dev pairs, HaluEval 250-499), never tuned
on, and on the held-out fifth of the tuning splits (the groups the recipe never trains on,
`verifier_pairs.holdout`), where a reading would be chosen. HaluEval marks no evidence
sentences, so it has no `gold_evidence` figure.

    python -m benchmarks.verifier_ceiling
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks.common import DATA, require, write_result
from benchmarks.verifier_pairs import holdout, scifact_rationale, wice_sentences
from citesynth.evaluation.datafiles import rows
from citesynth.evaluation.verifier_data import SPLITS, Example, load
from citesynth.evaluation.verifier_eval import VerifierRun, run
from citesynth.verify.base import Verdict, Verifier

_CLAUSE_BREAK = re.compile(
    r";\s+|,\s+(?:and|but|while|whereas|which|where|who|although|though|including)\s+"
)
MIN_CLAUSE_WORDS = 3


def clauses(claim: str) -> list[str]:
    """The clauses of a compound claim, or no clauses for a claim that is one."""
    pieces = [piece.strip(" ,.") for piece in _CLAUSE_BREAK.split(claim)]
    kept = [piece for piece in pieces if len(piece.split()) >= MIN_CLAUSE_WORDS]
    return kept if len(kept) > 1 else []


def gold_evidence(dataset: str, split: str, data: Path = DATA) -> dict[str, str]:
    """Example id → the evidence sentences the annotators marked, for pairs with any."""
    marked: dict[str, str] = {}
    if dataset == "wice":
        for row in rows(data / "wice" / f"claim_{split}.jsonl"):
            chosen = {index for group in row["supporting_sentences"] for index in group}
            if chosen:
                marked[row["id"]] = wice_sentences(row, chosen)
    elif dataset == "scifact":
        for row in rows(data / "scifact" / f"claim_doc_pairs_{split}.jsonl"):
            if row["rationale_sentences"]:
                marked[f"{row['claim_id']}:{row['doc_id']}"] = scifact_rationale(row)
    return marked


def with_gold_evidence(examples: Sequence[Example], marked: dict[str, str]) -> list[Example]:
    """The examples, each reading its marked sentences where it has any."""
    return [replace(e, passages=(marked[e.id],)) if e.id in marked else e for e in examples]


def clause_verdicts(
    split: Sequence[list[str]], whole: Sequence[Verdict], parts: Sequence[Verdict]
) -> list[Verdict]:
    """Each claim's verdict read by clause: its whole verdict, or its first clause's that is
    not supported (`split` holds each claim's clauses, `parts` their verdicts in order)."""
    verdicts: list[Verdict] = []
    read = iter(parts)
    for claim_clauses, verdict in zip(split, whole, strict=True):
        each = [next(read) for _ in claim_clauses]
        verdicts.append(next((v for v in each if not v.supported), verdict))
    return verdicts


async def readings(
    verifier: Verifier, dataset: str, split: str, *, tuning: bool, data: Path = DATA
) -> dict[str, Any]:
    """The three readings' balanced accuracies on one split, with their counts."""
    examples = load(dataset, split, data)
    if tuning:
        examples = [e for e in examples if holdout(f"{dataset}:{e.group}")]
    own = await run(verifier, examples)
    divided = [clauses(e.claim) for e in examples]
    pieces = [replace(e, claim=c) for e, cs in zip(examples, divided, strict=True) for c in cs]
    parts = await run(verifier, pieces)
    by_clause = VerifierRun(
        own.examples,
        tuple(clause_verdicts(divided, own.verdicts, parts.verdicts)),
        own.seconds + parts.seconds,
    )
    result: dict[str, Any] = {
        "role": "tuning (held-out fifth)" if tuning else "report",
        "examples": len(examples),
        "supported": sum(e.supported for e in examples),
        "compound_claims": sum(1 for cs in divided if cs),
        "own": own.metrics()["balanced_accuracy"],
        "clauses": by_clause.metrics()["balanced_accuracy"],
    }
    marked = gold_evidence(dataset, split, data)
    if marked:
        gold = await run(verifier, with_gold_evidence(examples, marked))
        result["gold_evidence"] = gold.metrics()["balanced_accuracy"]
        result["gold_evidence_examples"] = sum(1 for e in examples if e.id in marked)
    return result


async def measure() -> dict[str, Any]:
    """Every split's readings, the tuning splits' held-out fifth first."""
    from citesynth.verify.crossencoder import CrossEncoder
    from citesynth.verify.trained import TrainedVerifier

    verifier = TrainedVerifier(CrossEncoder.load())
    results: dict[str, Any] = {}
    for tuning in (True, False):
        for dataset, (tune, report) in SPLITS.items():
            split = tune if tuning else report
            results[f"{dataset}/{split}"] = await readings(verifier, dataset, split, tuning=tuning)
            print(dataset, split, json.dumps(results[f"{dataset}/{split}"]), flush=True)
    return results


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    require(DATA)
    from citesynth.verify.crossencoder import available

    if not available():
        print("skipped: the trained verifier needs citesynth[embed]")
        return
    write_result("verifier_ceiling", {"splits": asyncio.run(measure())})


if __name__ == "__main__":
    main()
