"""Fit the extractive writer's sentence ranker (`synthesis/sentence_rank.json`) on tuning sets.

    python -m benchmarks.fit_sentence_rank              # candidates, check, fit, write
    python -m benchmarks.fit_sentence_rank --check      # the leave-one-set-out check only

The data: every answerable question with answer strings of the documentation tuning sets
(`eval_suite`'s `tune-NAME-extractive` runs: the three projects written to be trained on,
`gate_pairs.DOCS_TRAINING`, and the sets read when they were tuned on,
`eval_suite.TUNED_DOCS`), never a held-out one. Each question is retrieved and planned as
the answering pipeline does (over the run's own index in the eval cache), and the
extractive writer's candidate sentences are ranked by relevance (`ExtractiveWriter.ranked`);
the best `sentence_rank.SCORED` of them are the rows, each labelled by whether it holds one
of the gold answer strings (backticks, emphasis and spacing aside, any case).

The model: L2 logistic regression over `sentence_rank.FEATURES`, each class weighing the
same (`train_verifier.fit`). The check fits it on all sets but one and counts, on the one
left out, the questions whose gold answer the writer would quote (`sentence_rank.ordered`,
at most five in reach): by relevance alone, by the ranker, and by the ranker with the
scorer (the trained verifier's gate) bringing sentences into reach; the figures are
printed and written to `benchmarks/results/sentence_rank.json`. Needs the trained verifier
(`citesynth[embed]`). A second model with the gate's log-odds as one more feature was
fitted on 2026-12-05 and not kept: its weight was 0.03, and the check (before the 60 %
pool) 345 → 347 of 422.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date

import numpy as np

from benchmarks.common import CACHE, DATA, RESULTS, require
from benchmarks.eval_suite import RUNS, TUNED_DOCS, fetch_corpus
from benchmarks.gate_pairs import DOCS_TRAINING, planned
from benchmarks.train_verifier import fit
from citesynth import Engine
from citesynth.evaluation.runner import index_settings, prepare
from citesynth.synthesis.evidence import REACH
from citesynth.synthesis.extractive import ExtractiveWriter, scorer
from citesynth.synthesis.sentence_rank import (
    FEATURES,
    SCORED,
    WEIGHTS_FILE,
    Ranked,
    Weights,
    features,
    ordered,
)

L2 = 10.0
"""The ridge on the weights (each class weighing half the rows' total)."""
SHOWN = 5
"""How many sentences the writer quotes at most (`ExtractiveWriter.max_sentences`)."""
MIN_SCORE = 0.25
"""The writer's `min_score`: below it nothing is in reach."""


@dataclass(frozen=True, slots=True)
class Question:
    """One tuning question's candidates, the scorer's reading of them, and their labels."""

    set_name: str
    text: str
    ranked: list[Ranked]
    answering: list[float]
    labels: np.ndarray


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[`*]", "", text)).lower()


def tuning_runs() -> list[str]:
    """The documentation tuning runs the ranker is fitted on."""
    names = [name for name, _ in (*DOCS_TRAINING, *TUNED_DOCS)]
    return [f"tune-{name}-extractive" for name in dict.fromkeys(names)]


async def questions(run: str) -> list[Question]:
    """`run`'s answerable questions with their candidates (see the module docstring)."""
    request = replace(RUNS[run], data=DATA, cache=CACHE / "eval")
    fetch_corpus(request)
    eval_set = prepare(request)
    found: list[Question] = []
    writers: list[ExtractiveWriter] = []

    def opened(engine: Engine) -> None:
        writers.append(
            ExtractiveWriter(engine.embedder, scorer=scorer(engine.verifier), ranker=None)
        )

    wanted = [item for item in eval_set.items if item.answerable and item.answers]
    settings = index_settings(request, eval_set)
    async for item, plan in planned(eval_set, wanted, opened=opened, settings=settings):
        if plan is None:
            continue
        ranked = (await writers[0].ranked(item.question, plan.sources))[:SCORED]
        answering = await writers[0].answering(item.question, ranked)
        if not ranked or answering is None:
            continue
        answers = [_plain(a) for a in item.answers]
        labels = [any(a in _plain(sentence) for a in answers) for *_, sentence in ranked]
        found.append(Question(run, item.question, ranked, answering, np.array(labels, dtype=float)))
    return found


def fitted(data: Sequence[Question]) -> Weights:
    """The model fitted on the questions of `data` that have a gold candidate."""
    kept = [q for q in data if q.labels.any()]
    x = np.vstack([np.array(features(q.text, q.ranked)) for q in kept])
    y = np.concatenate([q.labels for q in kept])
    positive = y.mean()
    weight = np.where(y == 1, 0.5 / positive, 0.5 / (1 - positive))
    beta = fit(x, y, weight, l2=L2)
    return Weights(tuple(float(w) for w in beta[1:]), float(beta[0]))


def quoted(question: Question, ranker: Weights | None, scored: bool) -> bool:
    """Whether the candidates the writer would quote hold the answer.

    `ranker` None: as relevance ranks them; `scored`: with the scorer's probabilities.
    """
    ranked = question.ranked
    floor = max(MIN_SCORE, REACH * ranked[0][0])
    if ranker is not None:
        ranked = ordered(
            question.text, ranked, floor, ranker, question.answering if scored else None
        )
    shown = {(s.number, start) for score, s, start, _ in ranked[:SHOWN] if score >= floor}
    shown = shown or {(ranked[0][1].number, ranked[0][2])}
    return any(
        label and (s.number, start) in shown
        for label, (_, s, start, _) in zip(question.labels, question.ranked, strict=True)
    )


def check(data: Sequence[Question]) -> dict[str, dict[str, int]]:
    """Per set left out: questions with a gold candidate, and how many each way quotes."""
    found: dict[str, dict[str, int]] = {}
    for left_out in sorted({q.set_name for q in data}):
        rest = [q for q in data if q.set_name != left_out]
        ranker = fitted(rest)
        counts = {"questions": 0, "relevance": 0, "ranker": 0, "ranker_with_scorer": 0}
        for question in (q for q in data if q.set_name == left_out and q.labels.any()):
            counts["questions"] += 1
            counts["relevance"] += quoted(question, None, scored=False)
            counts["ranker"] += quoted(question, ranker, scored=False)
            counts["ranker_with_scorer"] += quoted(question, ranker, scored=True)
        found[left_out] = counts
    return found


def _written(weights: Weights) -> dict[str, object]:
    return {
        "coefficients": [round(w, 5) for w in weights.coefficients],
        "intercept": round(weights.intercept, 5),
    }


async def main(only_check: bool) -> None:
    started = time.perf_counter()
    data: list[Question] = []
    for run in tuning_runs():
        data.extend(await questions(run))
        print(f"{run}: {len(data)} questions so far", flush=True)
    checked = check(data)
    total = {k: sum(c[k] for c in checked.values()) for k in next(iter(checked.values()))}
    print(
        f"left out in turn, the answer quoted for {total['questions']} questions: "
        f"{total['relevance']} by relevance, {total['ranker']} by the ranker, "
        f"{total['ranker_with_scorer']} by the ranker with the scorer"
    )
    (RESULTS / "sentence_rank.json").write_text(
        json.dumps(
            {
                "benchmark": "fit_sentence_rank",
                "date": date.today().isoformat(),
                "runs": tuning_runs(),
                "questions": len(data),
                "leave_one_set_out": checked,
                "total": total,
                "seconds": round(time.perf_counter() - started),
            },
            indent=2,
        )
        + "\n"
    )
    if only_check:
        return
    WEIGHTS_FILE.write_text(
        json.dumps(
            {
                "features": list(FEATURES),
                **_written(fitted(data)),
                "fitted_on": (
                    f"{len(data)} answerable questions of {len(tuning_runs())} documentation "
                    f"tuning sets (benchmarks/fit_sentence_rank.py); {date.today().isoformat()}"
                ),
            },
            indent=2,
        )
        + "\n"
    )
    print(f"wrote {WEIGHTS_FILE}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="Check only; write no weights.")
    args = parser.parse_args()
    require(DATA)
    asyncio.run(main(args.check))
