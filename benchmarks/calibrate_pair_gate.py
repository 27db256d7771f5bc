"""Calibrate the gate's reading of two passages together; report it on the report slices.

    python -m benchmarks.calibrate_pair_gate              # writes answerable_pair to the gate
    python -m benchmarks.calibrate_pair_gate --dry-run    # figures only

A nested question ("Where was the composer of Carmen born?") is answered by two documents,
each holding one hop, and neither scores as answering it alone: the gate withheld 45 of the
70 MuSiQue test questions. When no top source answers alone, the gate reads the top
`PAIRED` sources two at a time, two of different documents each (`answerability.pair_gate`),
and lets the question through when a pair reaches a threshold of its own. Pairs let
unanswerable questions through as well (two on-topic passages together cover more of any
question), so that threshold is a budget: the lowest at which, on every tuning set, pairs let
through at most `LEAK_BUDGET` of the unanswerable questions the single reading withholds.
The tuning sets are those the single threshold is fitted on (`calibrate_answerability`: of
ClapNQ, the Developer Hub guides and MultiHop-RAG `dev`, the half the gate stage never
trained on, with the 36 written Developer Hub unanswerable questions), and the `dev`
questions of MuSiQue and HotpotQA (all answerable) show what the budget buys.

Each question is read as the pipeline reads it, but for the compound split (a compound
question's parts are not read): the single score is the best of the top sources under the
shipped blend (`calibrate_answerability.scored`, its cached features), the pair score the
best pair's (`pair_gate`, the shipped gate; for the questions the single reading withholds,
cached per weights file and what else decides them, `pair_file`). Needs `citesynth[gate]`:
MiniLM's gate has no pair threshold. The report slices (ClapNQ,
Developer Hub with 36 held-out written questions, MultiHop-RAG, MuSiQue and HotpotQA
`test`, and the HTTPX questions never tuned on) are scored once, single reading beside
single-or-pair.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
from pathlib import Path
from typing import Any

from benchmarks.calibrate_answerability import (
    cached_features,
    calibrated_on_half,
    gate_folder,
    question_sets,
    roc_auc,
    scored,
    weights_digest,
    withheld_figures,
)
from benchmarks.common import (
    CACHE,
    DATA,
    ROOT,
    cached_json_async,
    require,
    set_fields,
    write_result,
)
from benchmarks.gate_pairs import top_sources
from citesynth.evaluation.qa_data import EvalSet, load_set
from citesynth.synthesis.answerability import PAIRED, pair_gate
from citesynth.verify.crossencoder import META_FILE, WEIGHTS_FILE, CrossEncoder, Meta
from citesynth.verify.trained import TrainedVerifier, gate_installed

LEAK_BUDGET = 0.03
"""Share of a tuning set's unanswerable questions withheld by the single reading that pairs
may let through."""
NESTED = ("musique", "hotpotqa")
PAIR_READING = "best sentences within half the budget, else the evidence cut to it"
"""How `TrainedVerifier.together` reads a pair: change it when that does, so that cached
pair scores are not reused."""
Read = tuple[float, float | None, bool]
"""Per question: the best single score, the best pair's score (None: not read, the single
reading passed or no two documents), whether it is answerable."""


async def pair_scores(
    eval_set: EvalSet, verifier: TrainedVerifier, singles: list[float], threshold: float
) -> list[float | None]:
    """The best pair's score of each question whose single score is below `threshold`."""
    found: list[float | None] = []
    single = iter(singles)
    async for item, top in top_sources(eval_set):
        paired = None
        if next(single) < threshold and top:
            paired = await pair_gate(item.question, top[:PAIRED], verifier)
        found.append(paired.score if paired is not None else None)
    return found


def pair_file(eval_set: EvalSet, digest: str, meta: Meta) -> Path:
    """Where the pair scores of `eval_set` are kept: per weights file (`digest`) and what
    else decides them (the single blend and threshold, `PAIRED`, the evidence budget and
    `PAIR_READING`, the way a pair is read)."""
    decides = repr((meta.answerability, meta.answerable, PAIRED, meta.evidence_words, PAIR_READING))
    key = hashlib.sha256(decides.encode()).hexdigest()[:12]
    name = f"{eval_set.name}-{eval_set.split}-{digest}-{key}.json".replace("/", "_")
    return CACHE / "answerability" / "pairs" / name


def withheld(rows: list[Read], threshold: float, pair: float | None) -> list[tuple[bool, bool]]:
    """(withheld, answerable) per question: single below `threshold`, no pair at `pair`."""
    return [(s < threshold and (pair is None or p is None or p < pair), a) for s, p, a in rows]


def leaked(rows: list[Read], threshold: float, pair: float) -> float:
    """The share of the unanswerable questions the single reading withholds that a pair
    lets through."""
    caught = [p for s, p, a in rows if not a and s < threshold]
    return sum(1 for p in caught if p is not None and p >= pair) / len(caught) if caught else 0.0


def fit_pair(tuning: dict[str, list[Read]], threshold: float) -> float:
    """The lowest pair threshold within `LEAK_BUDGET` on every tuning set."""
    for step in range(round(threshold * 100), 100):
        pair = step / 100
        if all(leaked(rows, threshold, pair) <= LEAK_BUDGET for rows in tuning.values()):
            return pair
    return 1.0


def curve(sets: dict[str, list[Read]], threshold: float) -> dict[str, dict[str, Any]]:
    """Per pair threshold: each set's questions withheld, answerable and not."""
    found = {}
    for step in range(round(threshold * 100), 100, 5):
        pair = step / 100
        found[f"{pair:.2f}"] = {
            name: {
                "answerable_withheld": sum(
                    1 for w, a in withheld(rows, threshold, pair) if w and a
                ),
                "unanswerable_let_through": sum(
                    1 for w, a in withheld(rows, threshold, pair) if not w and not a
                ),
            }
            for name, rows in sets.items()
        }
    return found


def compared(rows: list[Read], threshold: float, pair: float) -> dict[str, Any]:
    """Not-found figures of the single reading and of single-or-pair."""
    return {
        "single": withheld_figures(withheld(rows, threshold, None)),
        "with pairs": withheld_figures(withheld(rows, threshold, pair)),
    }


async def main_async(write: bool) -> dict[str, Any]:
    if not gate_installed():
        raise SystemExit(
            "the pair threshold is the MPNet gate's: install citesynth[gate] (MiniLM's gate "
            "reads sources alone)"
        )
    folder = gate_folder()
    meta = Meta.load(folder)
    verifier = TrainedVerifier(CrossEncoder.load(), gate=lambda: CrossEncoder.load(folder=folder))
    verifier.gate()
    verifier.answerable_pair_threshold = 0.0  # every pair's score, whatever it reaches
    digest = weights_digest(folder / WEIGHTS_FILE)
    weights, threshold = dict(meta.answerability or {}), meta.answerable

    async def read(eval_set: EvalSet) -> list[Read]:
        rows = await cached_features(eval_set, verifier, digest)
        singles = [s for s, _ in scored(rows, weights, threshold)]
        pairs = await cached_json_async(
            pair_file(eval_set, digest, meta),
            lambda: pair_scores(eval_set, verifier, singles, threshold),
        )
        return [(s, p, a) for s, p, (_, a) in zip(singles, pairs, rows, strict=True)]

    half = calibrated_on_half(json.loads((folder / META_FILE).read_text()))
    tuning, report = await question_sets(read, half)
    nested = {}
    for name in NESTED:
        nested[name] = await read(load_set(name, "dev", data=DATA, cache=CACHE / "eval"))
        report[f"{name}/test"] = await read(load_set(name, "test", data=DATA, cache=CACHE / "eval"))
    pair = fit_pair(tuning, threshold)
    rule = (
        f"the lowest pair threshold at which pairs of the top {PAIRED} sources (two documents) "
        f"let through at most {LEAK_BUDGET:.0%} of the unanswerable questions the single "
        "reading withholds, on each calibration set of the single threshold"
    )
    payload: dict[str, Any] = {
        "pair_threshold": pair,
        "single_threshold": threshold,
        "rule": rule,
        "model": str(folder.relative_to(ROOT)),
        "tuning": {
            f"{n}/dev": compared(rows, threshold, pair) for n, rows in {**tuning, **nested}.items()
        },
        "report": {n: compared(rows, threshold, pair) for n, rows in report.items()},
        "tuning curve": curve({**tuning, **nested}, threshold),
        "pair ROC AUC, tuning questions the single reading withholds": roc_auc(
            [
                (p, a)
                for rows in {**tuning, **nested}.values()
                for s, p, a in rows
                if s < threshold and p is not None
            ]
        ),
    }
    if write:
        set_fields(folder / META_FILE, answerable_pair=pair, answerable_pair_calibration=rule)
    return payload


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="do not write the threshold")
    args = parser.parse_args()
    require(DATA)
    payload = asyncio.run(main_async(not args.dry_run))
    print(json.dumps(payload, indent=2))
    write_result("answerability_pairs", payload)


if __name__ == "__main__":
    main()
