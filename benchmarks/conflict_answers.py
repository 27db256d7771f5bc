"""The conflict corpus through each writer: both sides cited and stated, no agreement claimed.

    python -m benchmarks.conflict_answers                    # extractive and the embedded model
    python -m benchmarks.conflict_answers --models extractive

The twelve cases of `tests/fixtures/conflicts.jsonl` (two documents disagreeing on a number,
a date, a yes/no or a name) are written into one folder as `ID-a.md` / `ID-b.md` and indexed
with the default settings (MiniLM, the default verifier); each writer answers every case's
question. An answer is correct when it cites both of the case's documents, states both
values (for yes/no: one statement cites both) and claims no agreement
(`citesynth.evaluation.conflict_set.judge`). Results: `benchmarks/results/conflict_answers.json`.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, write_result
from citesynth import Engine, Settings
from citesynth.evaluation.conflict_set import judge, load_cases

CASES = ROOT / "tests" / "fixtures" / "conflicts.jsonl"


async def run(model: str) -> dict[str, Any]:
    cases = load_cases(CASES)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        docs = root / "docs"
        docs.mkdir()
        for case in cases:
            (docs / f"{case.id}-a.md").write_text(case.first)
            (docs / f"{case.id}-b.md").write_text(case.second)
        settings = replace(Settings.from_env(model=model), index_dir=root / "index", root=root)
        rows = []
        started = time.perf_counter()
        async with await Engine.open(settings=settings, indexing=True) as engine:
            await engine.index([docs])
            for case in cases:
                answer = await engine.answer(case.question, cache=False)
                handling = judge(case, answer, (f"{case.id}-a.md", f"{case.id}-b.md"))
                rows.append(
                    {
                        "id": case.id,
                        "kind": case.kind,
                        "correct": handling.correct,
                        "cites_both": handling.cites_both,
                        "states_both": handling.states_both,
                        "claims_agreement": handling.claims_agreement,
                        "low_confidence": answer.low_confidence,
                        "answer": answer.answer,
                    }
                )
                print(f"{model} {case.id}: {'ok' if handling.correct else 'WRONG'}", flush=True)
    count = len(rows)
    return {
        "cases": count,
        "both_sides_cited_and_stated": round(sum(r["correct"] for r in rows) / count, 4),
        "answers_claiming_agreement": sum(r["claims_agreement"] for r in rows),
        "low_confidence": round(sum(r["low_confidence"] for r in rows) / count, 4),
        "seconds": round(time.perf_counter() - started, 1),
        "answers": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="*", default=["extractive", "local"])
    args = parser.parse_args()
    payload = {model: asyncio.run(run(model)) for model in args.models}
    for model, result in payload.items():
        print(
            f"{model}: {result['both_sides_cited_and_stated']:.0%} both sides, "
            f"{result['answers_claiming_agreement']} claiming agreement"
        )
    write_result("conflict_answers", payload)


if __name__ == "__main__":
    main()
