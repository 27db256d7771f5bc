"""Calibrate the answerability gate on tuning questions; report it on the report slices.

    python -m benchmarks.calibrate_answerability          # writes the gate's threshold and blend
    python -m benchmarks.calibrate_answerability --weights DIR --dry-run   # other weights

The gate is MPNet's (`src/citesynth/verify/gate/crossencoder.json`) when `citesynth[gate]`
is installed, else MiniLM's (`crossencoder.json`); the command calibrates that one.

For every question, the trained cross-encoder reads it against the best sentences of each
of the top five retrieved chunks (as the answering pipeline does), the lexical alignment
measures how much of the question's content those sentences cover, and each chunk keeps its
Pass-1 retrieval confidence; the chunks are the sources the answering pipeline gives the
gate (its own retrieval and planning steps). A logistic model over [model logit, coverage, log(1 + missing
terms), retrieval confidence] of each question's best-scoring chunk is fitted on the tuning
questions of three kinds of corpus (each class weighing the same; of each set the half
`gate_pairs.calibrates` keeps out of the gate's training, since a threshold fitted on
questions the model learnt does not hold on new ones): ClapNQ `dev` (Wikipedia,
half unanswerable), the Red Hat Developer Hub guides `dev` (documentation: its generated
questions, all answerable, and the 36 on-topic questions the guides do not answer written
for this project, `tests/fixtures/rhdh_unanswerable_questions.jsonl`, each checked against
the guides' text) and MultiHop-RAG `dev` (news, null queries unanswerable). Then the threshold on its
probability (the best over the top five) with the highest not-found F1 on ClapNQ `dev`
among thresholds that withhold at most 10 % of the answerable questions of *each* tuning
set (a withheld answerable question loses its answer; a missed unanswerable one still meets
the claim verdicts). Fitted on Wikipedia questions alone, the gate withheld 47 % of the
documentation questions it could answer.

The report slices (ClapNQ `test`, Developer Hub `test` with 36 more on-topic questions the
guides do not answer, written for this project and never fitted on,
`tests/fixtures/rhdh_unanswerable_holdout.jsonl`, MultiHop-RAG `test`) and the HTTPX
questions written for this project (`tests/fixtures/httpx_questions.jsonl`, never tuned on)
are then scored once with the chosen weights and threshold (not-found figures and the ROC
AUC of the gate's score), beside the gate at `--base` with its own blend over its own
weights' features (cached when that gate was calibrated here).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import subprocess
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from benchmarks.common import (
    CACHE,
    DATA,
    ROOT,
    cached_json_async,
    require,
    set_fields,
    write_result,
)
from benchmarks.gate_pairs import TUNING, calibrates, group_of, top_sources
from benchmarks.train_verifier import fit
from benchmarks.verifier_pairs import holdout
from citesynth.evaluation import metrics
from citesynth.evaluation.qa_data import EvalItem, EvalSet, load_set
from citesynth.verify.crossencoder import WEIGHTS_FILE
from citesynth.verify.trained import (
    GATE_FOLDER,
    TrainedVerifier,
    answerability,
    gate_installed,
    logit,
)

META = ROOT / "src" / "citesynth" / "verify" / "crossencoder.json"
GATE = META.parent / GATE_FOLDER
HTTPX_QUESTIONS = ROOT / "tests" / "fixtures" / "httpx_questions.jsonl"
RHDH_UNANSWERABLE = ROOT / "tests" / "fixtures" / "rhdh_unanswerable_questions.jsonl"
RHDH_HELD_OUT = ROOT / "tests" / "fixtures" / "rhdh_unanswerable_holdout.jsonl"
"""36 more written Developer Hub unanswerable questions, reported on beside the guides' test
questions and never used to fit anything."""
RHDH_REPORT = "docs-rhdh/test, with 36 written unanswerable questions"
MAX_GATED_ANSWERABLE = 0.10


def rule(half: bool) -> str:
    """The calibration rule, in words (`half`: fitted on the calibration half)."""
    questions = (
        "the half of the dev questions of ClapNQ, the Developer Hub guides and MultiHop-RAG that "
        "the gate stage never trained on (benchmarks/gate_pairs.py calibrates)"
        if half
        else "the dev questions of ClapNQ, the Developer Hub guides and MultiHop-RAG"
    )
    return (
        f"logistic over [model logit, coverage, missing, retrieval confidence] fitted on "
        f"{questions}, with the 36 written Developer Hub unanswerable ones; a chunk covering "
        "every question term is never gated; threshold: best ClapNQ not-found F1 among those "
        "withholding at most 10 % of the answerable questions of each tuning set"
    )


def calibrated_on_half(meta: dict[str, Any]) -> bool:
    """Whether a gate is calibrated on half of the tuning questions: when its last training
    stage read the other half's retrieved chunks (`train_crossencoder --gate-stage`)."""
    return bool(meta.get("gate_stage"))


Features = list[tuple[float, float, float, bool, float]]
"""Per top chunk: model score, coverage, missing, covered, retrieval confidence."""
Row = TypeVar("Row")
"""What a benchmark reads per question (this one: `Features` and whether it is answerable)."""


async def features(eval_set: EvalSet, verifier: TrainedVerifier) -> list[tuple[Features, bool]]:
    """(per top source: the gate's features; answerable) per question.

    The sources are those the answering pipeline gives the gate (`gate_pairs.top_sources`);
    a question retrieval already answers with "not found" has none (and counts as gated).
    """
    found: list[tuple[Features, bool]] = []
    async for item, top in top_sources(eval_set):
        values: Features = []
        if top:
            scored = verifier.answerability_features(item.question, [s.chunk.text for s in top])
            values = [(*v, s.hit.confidence) for v, s in zip(scored, top, strict=True)]
        found.append((values, item.answerable))
    return found


def calibrated(name: str, item: EvalItem, half: bool) -> bool:
    """Whether a tuning question is calibrated on: every one, or with `half` (a gate with a
    gate stage) the half `gate_pairs.calibrates` kept out of its training."""
    return not half or calibrates(group_of(name, item))


def calibration_half(name: str, eval_set: EvalSet, found: list[Row], half: bool) -> list[Row]:
    """The rows of the tuning questions the gate is calibrated on (`calibrated`)."""
    return [
        row for row, item in zip(found, eval_set.items, strict=True) if calibrated(name, item, half)
    ]


def roc_auc(found: list[tuple[float, bool]]) -> float | None:
    """How often an answerable question outscores an unanswerable one (ties count half)."""
    yes = [s for s, a in found if a]
    no = [s for s, a in found if not a]
    if not yes or not no:
        return None
    wins = sum((y > n) + 0.5 * (y == n) for y in yes for n in no)
    return round(wins / len(yes) / len(no), 4)


def figures(found: list[tuple[float, bool]], threshold: float) -> dict[str, Any]:
    """Not-found precision, recall and F1 (unanswerable is positive) and answerable kept."""
    return withheld_figures([(s < threshold, a) for s, a in found])


def withheld_figures(withheld: list[tuple[bool, bool]]) -> dict[str, Any]:
    """The same from (withheld, answerable) per question."""
    answerable = sum(1 for _, a in withheld if a)
    gated = sum(1 for w, a in withheld if w and a)
    result = metrics.abstention(withheld)
    return {
        "questions": len(withheld),
        "unanswerable": len(withheld) - answerable,
        "not_found_precision": round(result["precision"] or 0.0, 4),
        "not_found_recall": round(result["recall"] or 0.0, 4),
        "not_found_f1": round(result["f1"] or 0.0, 4),
        "answerable_gated": round(gated / answerable, 4) if answerable else None,
    }


def report_figures(found: list[tuple[float, bool]], threshold: float) -> dict[str, Any]:
    """`figures`, and the ROC AUC of the scores (the ranking, whatever the threshold)."""
    return {**figures(found, threshold), "roc_auc": roc_auc(found)}


def blend(found: list[tuple[Features, bool]]) -> dict[str, float]:
    """Logistic weights over the best-scoring chunk's features (classes weigh the same)."""
    rows = [(max(f, key=lambda v: v[0]), a) for f, a in found if f]
    x = np.array([[logit(m), c, g, r] for (m, c, g, _, r), _ in rows])
    y = np.array([1.0 if a else 0.0 for _, a in rows])
    weight = np.where(y == 1, len(y) / 2 / max(y.sum(), 1), len(y) / 2 / max((1 - y).sum(), 1))
    beta = fit(x, y, weight, l2=1.0)
    names = ("bias", "model", "coverage", "missing", "retrieval")
    return {name: round(float(value), 5) for name, value in zip(names, beta, strict=True)}


def scored(
    found: list[tuple[Features, bool]], weights: dict[str, float], threshold: float
) -> list[tuple[float, bool]]:
    """(best answerability over the top chunks, answerable) per question, as the verifier
    computes it (`trained.answerability`, with its full-coverage guard at `threshold`)."""
    return [
        (
            max(
                (answerability(m, c, g, k, weights, threshold, r) for m, c, g, k, r in values),
                default=0.0,
            ),
            answerable,
        )
        for values, answerable in found
    ]


def fit_threshold(
    tuning: dict[str, list[tuple[Features, bool]]], weights: dict[str, float]
) -> float:
    """The threshold with the best ClapNQ not-found F1 among those that withhold at most
    `MAX_GATED_ANSWERABLE` of the answerable questions of every tuning set."""
    best = (0.0, -1.0)
    for step in range(1, 100):
        threshold = step / 100
        results = {n: figures(scored(f, weights, threshold), threshold) for n, f in tuning.items()}
        if any((r["answerable_gated"] or 0.0) > MAX_GATED_ANSWERABLE for r in results.values()):
            continue
        if results["clapnq"]["not_found_f1"] > best[1]:
            best = (threshold, results["clapnq"]["not_found_f1"])
    return best[0]


def shipped_gate(
    revision: str, meta_file: Path
) -> tuple[dict[str, float], float, str, bool] | None:
    """The gate's weights, threshold, weights-file digest (`weights_digest`) and whether it
    is calibrated on half of the questions, at a git revision; None when the files are not
    there."""
    shipped = meta_file.resolve()
    if not shipped.is_relative_to(ROOT):
        return None

    def show(path: Path) -> bytes | None:
        found = subprocess.run(
            ["git", "show", f"{revision}:{path.relative_to(ROOT)}"], capture_output=True, cwd=ROOT
        )
        return found.stdout if found.returncode == 0 else None

    meta, weights = show(shipped), show(shipped.parent / WEIGHTS_FILE)
    if meta is None or weights is None:
        return None
    known = json.loads(meta)
    digest = hashlib.sha256(weights).hexdigest()[:16]
    return (
        dict(known.get("answerability") or {}),
        float(known.get("answerable", 0.5)),
        digest,
        calibrated_on_half(known),
    )


def unseen_clapnq(found: list[tuple[Features, bool]], half: bool) -> list[tuple[Features, bool]]:
    """The ClapNQ `dev` rows (of the calibration half with `half`) whose question the
    cross-encoder's training held out (one in five; the other answerability pairs it
    trained on come from the same questions, so the gate is surer of them than of a new
    question)."""
    items = load_set("clapnq", "dev", data=DATA, cache=CACHE / "eval").items
    items = tuple(item for item in items if calibrated("clapnq", item, half))
    return [row for row, item in zip(found, items, strict=True) if holdout(f"clapnq:{item.id}")]


def fitted_on_unseen(
    tuning: dict[str, list[tuple[Features, bool]]],
    unseen_rows: list[tuple[Features, bool]],
    report: dict[str, list[tuple[Features, bool]]],
) -> dict[str, Any]:
    """The same rule with ClapNQ `dev` cut to the questions the model never trained on."""
    unseen = {**tuning, "clapnq": unseen_rows}
    weights = blend([row for rows in unseen.values() for row in rows])
    threshold = fit_threshold(unseen, weights)
    return {
        "weights": weights,
        "threshold": threshold,
        "report": {n: figures(scored(f, weights, threshold), threshold) for n, f in report.items()},
    }


def gate_folder() -> Path:
    """The weights the shipped gate runs: MPNet's with `citesynth[gate]`, else MiniLM's."""
    return GATE if gate_installed() else META.parent


async def cached_features(
    eval_set: EvalSet, verifier: TrainedVerifier, digest: str
) -> list[tuple[Features, bool]]:
    """`features`, kept per weights file (`digest`, `weights_digest`) and set (a gate model
    reads 1,625 questions in about half an hour); delete
    benchmarks/.cache/answerability/features to recompute."""
    path = features_file(eval_set, digest)
    return typed(await cached_json_async(path, lambda: features(eval_set, verifier)))


def weights_digest(weights: Path) -> str:
    return hashlib.sha256(weights.read_bytes()).hexdigest()[:16]


def features_file(eval_set: EvalSet, digest: str) -> Path:
    name = f"{eval_set.name}-{eval_set.split}-{digest}.json".replace("/", "_")
    return CACHE / "answerability" / "features" / name


def read_features(path: Path) -> list[tuple[Features, bool]] | None:
    return typed(json.loads(path.read_text())) if path.is_file() else None


def typed(rows: list[Any]) -> list[tuple[Features, bool]]:
    """Feature rows as `features` gives them (JSON keeps lists where it had tuples)."""
    return [([(m, c, g, bool(k), r) for m, c, g, k, r in f], bool(a)) for f, a in rows]


async def question_sets(
    read: Callable[[EvalSet], Awaitable[list[Row]]], half: bool
) -> tuple[dict[str, list[Row]], dict[str, list[Row]]]:
    """The tuning rows (each set's `dev` questions, or their calibration half with `half`,
    and the written Developer Hub unanswerable ones) and the report rows, each set's
    features from `read`."""
    cache = CACHE / "eval"
    tuning = {}
    for name in TUNING:
        eval_set = load_set(name, "dev", data=DATA, cache=cache)
        rows = await read(eval_set)
        tuning[name] = calibration_half(name, eval_set, rows, half)
    written = load_set(
        str(RHDH_UNANSWERABLE), data=DATA, corpus=DATA / "docs_rhdh" / "corpus.jsonl", cache=cache
    )
    tuning["docs-rhdh"] += await read(replace(written, name="rhdh-unanswerable", split="dev"))
    report = {
        f"{name}/test": await read(load_set(name, "test", data=DATA, cache=cache))
        for name in TUNING
    }
    held_out = load_set(
        str(RHDH_HELD_OUT), data=DATA, corpus=DATA / "docs_rhdh" / "corpus.jsonl", cache=cache
    )
    report[RHDH_REPORT] = report.pop("docs-rhdh/test") + await read(
        replace(held_out, name="rhdh-unanswerable-held-out", split="test")
    )
    httpx = load_set(
        str(HTTPX_QUESTIONS), data=DATA, corpus=DATA / "docs_httpx" / "docs", cache=cache
    )
    report["httpx (never tuned on)"] = await read(replace(httpx, name="httpx"))
    return tuning, report


async def before_figures(
    before: tuple[dict[str, float], float, str, bool],
    digest: str,
    base: str,
    read: Callable[[EvalSet], Awaitable[list[tuple[Features, bool]]]],
) -> dict[str, Any]:
    """The gate at `base` on the same questions: its own blend and threshold over its own
    model's features (those of these weights when they are the same, else the features
    cached for its weights file; none cached: said so)."""
    old, old_threshold, old_digest, half = before

    async def cached(eval_set: EvalSet) -> list[tuple[Features, bool]]:
        found = read_features(features_file(eval_set, old_digest))
        if found is None:
            raise FileNotFoundError(features_file(eval_set, old_digest))
        return found

    try:
        tuning, report = await question_sets(read if old_digest == digest else cached, half)
    except FileNotFoundError as missing:
        return {"revision": base, "missing": f"no features cached for its weights: {missing}"}
    return {
        "revision": base,
        "weights": old,
        "threshold": old_threshold,
        "tuning": {
            f"{n}/dev": figures(scored(f, old, old_threshold), old_threshold)
            for n, f in tuning.items()
        },
        "report": {
            n: report_figures(scored(f, old, old_threshold), old_threshold)
            for n, f in report.items()
        },
    }


async def main_async(write: bool, folder: Path | None, base: str) -> dict[str, Any]:
    from citesynth.verify.crossencoder import META_FILE, CrossEncoder

    folder = folder or gate_folder()
    verifier = TrainedVerifier(CrossEncoder.load(), gate=lambda: CrossEncoder.load(folder=folder))
    meta_file = folder / META_FILE
    digest = weights_digest(folder / WEIGHTS_FILE)

    async def read(eval_set: EvalSet) -> list[tuple[Features, bool]]:
        return await cached_features(eval_set, verifier, digest)

    half = calibrated_on_half(json.loads(meta_file.read_text()))
    tuning, report = await question_sets(read, half)
    weights = blend([row for rows in tuning.values() for row in rows])
    threshold = fit_threshold(tuning, weights)
    shipped = meta_file if meta_file.resolve().is_relative_to(ROOT) else gate_folder() / META_FILE
    before = shipped_gate(base, shipped)
    unseen = unseen_clapnq(tuning["clapnq"], half)
    payload: dict[str, Any] = {
        "weights": weights,
        "threshold": threshold,
        "rule": rule(half),
        "model": str(
            meta_file.parent.relative_to(ROOT)
            if meta_file.is_relative_to(ROOT)
            else meta_file.parent
        ),
        "tuning": {
            f"{n}/dev": figures(scored(f, weights, threshold), threshold) for n, f in tuning.items()
        },
        "report": {
            n: report_figures(scored(f, weights, threshold), threshold) for n, f in report.items()
        },
        "clapnq/dev, the questions the model never trained on": figures(
            scored(unseen, weights, threshold), threshold
        ),
        "fitted on those ClapNQ questions only (not shipped)": fitted_on_unseen(
            tuning, unseen, report
        ),
    }
    if before is not None:
        payload[f"before (the gate at {base})"] = await before_figures(before, digest, base, read)
    if write:
        stored = json.loads(meta_file.read_text())
        moved = (stored.get("answerable"), stored.get("answerability")) != (threshold, weights)
        fields: dict[str, Any] = {
            "answerable": threshold,
            "answerability": weights,
            "answerable_calibration": payload["rule"],
        }
        if moved and stored.get("answerable_pair") is not None:
            # the pair threshold was fitted over the old blend and threshold: not read
            # until `calibrate_pair_gate` fits it again
            fields["answerable_pair"] = None
            print("the single calibration moved: run python -m benchmarks.calibrate_pair_gate")
        set_fields(meta_file, **fields)
    return payload


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="do not write the threshold")
    parser.add_argument("--weights", type=Path, help="a folder train_crossencoder --out wrote")
    parser.add_argument("--base", default="HEAD", help="compare with the gate at this revision")
    args = parser.parse_args()
    require(DATA)
    payload = asyncio.run(main_async(not args.dry_run, args.weights, args.base))
    print(json.dumps(payload, indent=2))
    if args.weights is None:
        write_result("answerability", payload)


if __name__ == "__main__":
    main()
