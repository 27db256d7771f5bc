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
questions of three kinds of corpus (each class weighing the same): ClapNQ `dev` (Wikipedia,
half unanswerable), the Red Hat Developer Hub guides `dev` (documentation: its generated
questions, all answerable, and the 36 on-topic questions the guides do not answer written
for this project, `tests/fixtures/rhdh_unanswerable_questions.jsonl`, each checked against
the guides' text) and MultiHop-RAG `dev` (news, null queries unanswerable). Then the threshold on its
probability (the best over the top five) with the highest not-found F1 on ClapNQ `dev`
among thresholds that withhold at most 10 % of the answerable questions of *each* tuning
set (a withheld answerable question loses its answer; a missed unanswerable one still meets
the claim verdicts). Fitted on Wikipedia questions alone, the gate withheld 47 % of the
documentation questions it could answer.

The report slices (ClapNQ `test`, Developer Hub `test`, MultiHop-RAG `test`) and the HTTPX
questions written for this project (`tests/fixtures/httpx_questions.jsonl`, never tuned on)
are then scored once with the chosen weights and threshold.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.common import CACHE, DATA, ROOT, require, write_result
from benchmarks.train_verifier import fit
from benchmarks.verifier_pairs import holdout
from citesynth import Engine, Settings
from citesynth.evaluation import metrics
from citesynth.evaluation.qa_data import EvalSet, load_set
from citesynth.synthesis.answerability import TOP
from citesynth.synthesis.modes import get_mode
from citesynth.synthesis.steps import make_plan, retrieve
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
MAX_GATED_ANSWERABLE = 0.10
TUNING = ("clapnq", "docs-rhdh", "multihop-rag")

Features = list[tuple[float, float, float, bool, float]]
"""Per top chunk: model score, coverage, missing, covered, retrieval confidence."""


async def features(eval_set: EvalSet, verifier: TrainedVerifier) -> list[tuple[Features, bool]]:
    """(per top source: the gate's features; answerable) per question.

    The sources are those the answering pipeline gives the gate (`steps.retrieve` and
    `steps.make_plan` with the engine's default options); a question retrieval already
    answers with "not found" has none (and counts as gated).
    """
    corpus = eval_set.corpus.resolve()
    settings = replace(
        Settings.from_env(verifier="lexical"),
        index_dir=CACHE / "answerability" / eval_set.name.replace("/", "_"),
        root=corpus if corpus.is_dir() else corpus.parent,
    )
    found: list[tuple[Features, bool]] = []
    async with await Engine.open(settings=settings, indexing=True) as engine:
        await engine.index([corpus])
        parts, options = engine.parts(), engine.options()
        mode = get_mode(options.mode)
        for number, item in enumerate(eval_set.items, 1):
            retrieved = await retrieve(item.question, parts, options, mode)
            values: Features = []
            if retrieved.hits and retrieved.best >= options.not_found_below:
                plan = await make_plan(item.question, retrieved, parts, mode)
                top = [s for s in plan.sources[:TOP] if s.chunk.text.strip()]
                scored = verifier.answerability_features(item.question, [s.chunk.text for s in top])
                values = [(*v, s.hit.confidence) for v, s in zip(scored, top, strict=True)]
            found.append((values, item.answerable))
            if number % 50 == 0:
                print(f"{eval_set.name}/{eval_set.split}: {number}/{len(eval_set.items)}")
    return found


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


def shipped_gate(revision: str, meta_file: Path) -> tuple[dict[str, float], float] | None:
    """The gate's weights and threshold in `meta_file` at a git revision; None when the
    file is not there (new weights: the old gate's blend means nothing over their scores)."""
    shipped = meta_file.resolve()
    if not shipped.is_relative_to(ROOT):
        return None
    shown = subprocess.run(
        ["git", "show", f"{revision}:{shipped.relative_to(ROOT)}"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if shown.returncode != 0:
        return None
    meta = json.loads(shown.stdout)
    return dict(meta.get("answerability") or {}), float(meta.get("answerable", 0.5))


def unseen_clapnq(found: list[tuple[Features, bool]]) -> list[tuple[Features, bool]]:
    """The ClapNQ `dev` rows whose question the cross-encoder's training held out (one in
    five; the other answerability pairs it trained on come from the same questions, so
    the gate is surer of them than of a new question)."""
    items = load_set("clapnq", "dev", data=DATA, cache=CACHE / "eval").items
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
    known = read_features(path)
    if known is not None:
        return known
    found = await features(eval_set, verifier)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(found))
    return found


def weights_digest(weights: Path) -> str:
    return hashlib.sha256(weights.read_bytes()).hexdigest()[:16]


def features_file(eval_set: EvalSet, digest: str) -> Path:
    name = f"{eval_set.name}-{eval_set.split}-{digest}.json".replace("/", "_")
    return CACHE / "answerability" / "features" / name


def read_features(path: Path) -> list[tuple[Features, bool]] | None:
    if not path.is_file():
        return None
    rows = json.loads(path.read_text())
    return [([(m, c, g, bool(k), r) for m, c, g, k, r in f], bool(a)) for f, a in rows]


async def main_async(write: bool, folder: Path | None, base: str) -> dict[str, Any]:
    from citesynth.verify.crossencoder import META_FILE, CrossEncoder

    folder = folder or gate_folder()
    verifier = TrainedVerifier(CrossEncoder.load(), gate=lambda: CrossEncoder.load(folder=folder))
    meta_file = folder / META_FILE
    digest = weights_digest(folder / WEIGHTS_FILE)
    cache = CACHE / "eval"

    async def read(eval_set: EvalSet) -> list[tuple[Features, bool]]:
        return await cached_features(eval_set, verifier, digest)

    tuning = {name: await read(load_set(name, "dev", data=DATA, cache=cache)) for name in TUNING}
    written = load_set(
        str(RHDH_UNANSWERABLE), data=DATA, corpus=DATA / "docs_rhdh" / "corpus.jsonl", cache=cache
    )
    tuning["docs-rhdh"] += await read(replace(written, name="rhdh-unanswerable", split="dev"))
    report = {
        f"{name}/test": await read(load_set(name, "test", data=DATA, cache=cache))
        for name in TUNING
    }
    httpx = load_set(
        str(HTTPX_QUESTIONS), data=DATA, corpus=DATA / "docs_httpx" / "docs", cache=cache
    )
    report["httpx (never tuned on)"] = await read(replace(httpx, name="httpx"))
    weights = blend([row for rows in tuning.values() for row in rows])
    threshold = fit_threshold(tuning, weights)
    before = shipped_gate(base, meta_file)
    unseen = unseen_clapnq(tuning["clapnq"])
    payload: dict[str, Any] = {
        "weights": weights,
        "threshold": threshold,
        "rule": "logistic over [model logit, coverage, missing, retrieval confidence] fitted on "
        "the dev questions of ClapNQ, the Developer Hub guides (with 36 written unanswerable "
        "ones) and MultiHop-RAG; a chunk covering "
        "every question term is never gated; threshold: best ClapNQ dev not-found F1 among those "
        "withholding at most 10 % of the answerable questions of each tuning set",
        "model": str(
            meta_file.parent.relative_to(ROOT)
            if meta_file.is_relative_to(ROOT)
            else meta_file.parent
        ),
        "tuning": {
            f"{n}/dev": figures(scored(f, weights, threshold), threshold) for n, f in tuning.items()
        },
        "report": {n: figures(scored(f, weights, threshold), threshold) for n, f in report.items()},
        "clapnq/dev, the questions the model never trained on": figures(
            scored(unseen, weights, threshold), threshold
        ),
        "fitted on those ClapNQ questions only (not shipped)": fitted_on_unseen(
            tuning, unseen, report
        ),
    }
    if before is not None:
        old, old_threshold = before
        payload[f"before (the gate at {base})"] = {
            "revision": base,
            "weights": old,
            "threshold": old_threshold,
            "tuning": {
                f"{n}/dev": figures(scored(f, old, old_threshold), old_threshold)
                for n, f in tuning.items()
            },
            "report": {
                n: figures(scored(f, old, old_threshold), old_threshold) for n, f in report.items()
            },
        }
    if write:
        meta = json.loads(meta_file.read_text())
        meta["answerable"] = threshold
        meta["answerability"] = weights
        meta["answerable_calibration"] = payload["rule"]
        meta_file.write_text(json.dumps(meta, indent=2) + "\n")
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
