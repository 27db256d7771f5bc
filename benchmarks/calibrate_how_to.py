"""Calibrate the gate's threshold for how-to questions on tuning questions only.

    python -m benchmarks.calibrate_how_to            # prints the figures
    python -m benchmarks.calibrate_how_to --write    # and writes `answerable_how_to`

The gate's threshold (`answerable` in the MPNet gate's `crossencoder.json`) is fitted on
ClapNQ, the Developer Hub guides and MultiHop-RAG (`benchmarks.calibrate_answerability`):
Wikipedia, product guides and news, whose questions ask for facts. A question asking how
to do something ("How do I stop Black from formatting a block of code?") scores lower
against the passage that answers it ("Black will not reformat lines that contain
`# fmt: skip` or blocks that start with `# fmt: off`"), worded as the user asked it, not as
the documentation says it: at that threshold the gate withheld 26 of the 108 how-to tuning
questions the documents answer. The on-topic how-to questions they do not answer mostly
name a tool none of the sources names (Datadog, Husky), which `synthesis.named` withholds
before any score, so the how-to threshold is fitted on what is left:

- how-to questions only (`synthesis.asked.asks_how`) of the tuning sets: the written
  questions over three projects' docs (`gate_pairs.DOCS_TRAINING`, 84 answerable, 32
  not), the Developer Hub `dev` questions that ask how (all answerable) and the 36 + 30
  written Developer Hub questions the guides do not answer
  (`tests/fixtures/rhdh_unanswerable_*.jsonl`, the calibration and training sets; never
  the held-out one);
- each read by the gate as the answering pipeline does (`gate_pairs.planned`, then
  `synthesis.answerability.gate` with the shipped verifier, names included; its best
  source alone, without the compound and pair readings, which only ever let more
  through), with the question's terms no chunk of the index holds
  (`answerability.unheard_terms`): such a question keeps the gate's threshold;
- the lowest threshold that withholds every unanswerable one the gate's own threshold
  withholds (a how-to question the documents do not answer is never let through for the
  answerable ones it gains); the highest not-found F1 would be lower still (0.04 on
  2026-11-29: 5 more answerable questions, 2 unanswerable ones let through, and on the
  tryouts' fresh questions 3 more and 3).

Figures: `benchmarks/results/how_to_threshold.json`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from dataclasses import replace
from typing import Any

from benchmarks.common import CACHE, DATA, ROOT, require, write_result
from benchmarks.gate_pairs import WRITTEN, docs_training_sets, planned
from citesynth import Engine
from citesynth.evaluation.qa_data import EvalSet, load_set
from citesynth.synthesis.answerability import gate, unheard_terms
from citesynth.synthesis.asked import asks_how
from citesynth.verify.trained import GATE_FOLDER, TrainedVerifier

GATE_META = ROOT / "src" / "citesynth" / "verify" / GATE_FOLDER / "crossencoder.json"
RHDH_UNANSWERABLE = ROOT / "tests" / "fixtures" / "rhdh_unanswerable_questions.jsonl"
GRID = [round(0.02 * step, 2) for step in range(1, 26)]
"""Thresholds tried: 0.02 to 0.50."""


def how_to_sets() -> list[tuple[str, EvalSet]]:
    """(name, questions) of the tuning sets read here (see the module docstring)."""
    corpus = DATA / "docs_rhdh" / "corpus.jsonl"
    rhdh = load_set("docs-rhdh", "dev", data=DATA, cache=CACHE / "eval")
    written = [
        replace(
            load_set(str(path), data=DATA, corpus=corpus, cache=CACHE / "eval"),
            name=f"rhdh-{path.stem}",
        )
        for path in (RHDH_UNANSWERABLE, WRITTEN)
    ]
    return [*docs_training_sets(), ("docs-rhdh-dev", rhdh), *((w.name, w) for w in written)]


async def scored(verifier: TrainedVerifier) -> list[dict[str, Any]]:
    """Each how-to question with its gate verdict: best score, names none of the sources
    names, and whether the documents answer it."""
    found: list[dict[str, Any]] = []
    for name, eval_set in how_to_sets():
        items = [item for item in eval_set.items if asks_how(item.question)]
        engines: list[Engine] = []
        async for item, plan in planned(eval_set, items, opened=engines.append):
            unheard = await unheard_terms(item.question, engines[0].store)
            judged = None
            if plan is not None:  # the best source alone: no parts, no pairs
                judged = await gate(
                    item.question, plan.sources, verifier, compound=False, pairs=False
                )
            found.append(
                {
                    "set": name,
                    "question": item.question,
                    "answerable": item.answerable,
                    "score": judged.score if judged else 0.0,
                    "unnamed": list(judged.unnamed) if judged else [],
                    "unheard": list(unheard),
                }
            )
    return found


def outcome(rows: list[dict[str, Any]], threshold: float, ceiling: float) -> dict[str, Any]:
    """Withheld answerable questions, caught unanswerable ones and not-found F1 with the
    how-to `threshold` (a question with a term no chunk holds: the gate's, `ceiling`)."""
    withheld = [
        bool(r["unnamed"]) or r["score"] < (ceiling if r["unheard"] else threshold) for r in rows
    ]
    answerable = [w for w, r in zip(withheld, rows, strict=True) if r["answerable"]]
    unanswerable = [w for w, r in zip(withheld, rows, strict=True) if not r["answerable"]]
    caught, lost = sum(unanswerable), sum(answerable)
    precision = caught / (caught + lost) if caught + lost else 0.0
    recall = caught / len(unanswerable) if unanswerable else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "threshold": threshold,
        "answerable_withheld": lost,
        "answerable": len(answerable),
        "unanswerable_caught": caught,
        "unanswerable": len(unanswerable),
        "not_found_f1": round(f1, 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write answerable_how_to")
    args = parser.parse_args()
    require(DATA / "docs_rhdh")
    verifier = TrainedVerifier.load()
    rows = asyncio.run(scored(verifier))
    ceiling = verifier.answerable_threshold
    grid = [outcome(rows, t, ceiling) for t in GRID if t <= ceiling]
    grid.append(outcome(rows, ceiling, ceiling))
    kept = grid[-1]["unanswerable_caught"]  # at the gate's own threshold
    best = min((g for g in grid if g["unanswerable_caught"] >= kept), key=lambda g: g["threshold"])
    payload = {
        "gate_threshold": outcome(rows, ceiling, ceiling),
        "how_to_threshold": best,
        "grid": grid,
        "by_set": {
            name: outcome([r for r in rows if r["set"] == name], best["threshold"], ceiling)
            for name in dict.fromkeys(r["set"] for r in rows)
        },
    }
    print(json.dumps(payload, indent=2))
    write_result("how_to_threshold", payload)
    if args.write:
        meta = json.loads(GATE_META.read_text())
        meta["answerable_how_to"] = best["threshold"]
        meta["answerable_how_to_calibration"] = (
            "how-to questions of the tuning sets (written docs questions over Starlette, "
            "marshmallow and structlog; Developer Hub dev; the written Developer Hub "
            "unanswerable calibration and training questions), a question with a term no "
            "chunk holds kept at the gate's threshold: the lowest threshold withholding "
            "every unanswerable one the gate's threshold withholds "
            "(benchmarks/calibrate_how_to.py)"
        )
        GATE_META.write_text(json.dumps(meta, indent=2) + "\n")
        print(f"wrote answerable_how_to {best['threshold']} to {GATE_META}")


if __name__ == "__main__":
    main()
