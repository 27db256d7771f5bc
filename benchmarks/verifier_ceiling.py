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
from benchmarks.verifier_pairs import holdout
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
        for line in (data / "wice" / f"claim_{split}.jsonl").read_text().splitlines():
            row = json.loads(line)
            chosen = sorted({index for group in row["supporting_sentences"] for index in group})
            if chosen:
                marked[row["id"]] = " ".join(row["evidence"][index] for index in chosen)
    elif dataset == "scifact":
        for line in (data / "scifact" / f"claim_doc_pairs_{split}.jsonl").read_text().splitlines():
            row = json.loads(line)
            if row["rationale_sentences"]:
                key = f"{row['claim_id']}:{row['doc_id']}"
                marked[key] = " ".join(s.strip() for s in row["rationale_sentences"])
    return marked


def with_gold_evidence(examples: Sequence[Example], marked: dict[str, str]) -> list[Example]:
    """The examples, each reading its marked sentences where it has any."""
    return [replace(e, passages=(marked[e.id],)) if e.id in marked else e for e in examples]


def clause_verdicts(
    examples: Sequence[Example], whole: Sequence[Verdict], parts: Sequence[Verdict]
) -> list[bool]:
    """Supported when the whole claim is and so is each clause (`parts` in clause order)."""
    supported: list[bool] = []
    read = iter(parts)
    for example, verdict in zip(examples, whole, strict=True):
        each = [next(read).supported for _ in clauses(example.claim)]
        supported.append(verdict.supported and all(each))
    return supported


def balanced_accuracy(predicted: Sequence[bool], examples: Sequence[Example]) -> float:
    """Mean of the true positive and true negative rates."""
    positives = [p for p, e in zip(predicted, examples, strict=True) if e.supported]
    negatives = [not p for p, e in zip(predicted, examples, strict=True) if not e.supported]
    return round((sum(positives) / len(positives) + sum(negatives) / len(negatives)) / 2, 4)


async def readings(
    verifier: Verifier, dataset: str, split: str, *, tuning: bool, data: Path = DATA
) -> dict[str, Any]:
    """The three readings' balanced accuracies on one split, with their counts."""
    examples = load(dataset, split, data)
    if tuning:
        examples = [e for e in examples if holdout(f"{dataset}:{e.group}")]
    own: VerifierRun = await run(verifier, examples)
    parts = [replace(e, claim=c) for e in examples for c in clauses(e.claim)]
    split_run = await run(verifier, parts)
    by_clause = clause_verdicts(examples, own.verdicts, split_run.verdicts)
    result: dict[str, Any] = {
        "role": "tuning (held-out fifth)" if tuning else "report",
        "examples": len(examples),
        "supported": sum(e.supported for e in examples),
        "compound_claims": sum(1 for e in examples if clauses(e.claim)),
        "own": own.metrics()["balanced_accuracy"],
        "clauses": balanced_accuracy(by_clause, examples),
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
