"""Answerability pairs as the gate meets them: tuning questions against the chunks retrieved.

    python -m benchmarks.gate_pairs --out /tmp/gate-pairs.jsonl     # writes them, prints counts

The recipe's answerability pairs (`verifier_pairs.answerability_pairs`) read each question
against its gold passage, whole or with the answer's sentences removed. At run time the
gate reads a question against the top chunks retrieval found (`synthesis.answerability`),
and for an on-topic question the documents do not answer those are passages on the same
subject that say something else. These pairs are that situation, from tuning questions only
(the `dev` splits of ClapNQ, the Red Hat Developer Hub guides and MultiHop-RAG, and the
written questions below that are kept for training), each chunk read as the gate reads it
(`verify.evidence`, `EVIDENCE_WORDS` words):

- an unanswerable question against each of its top chunks: 0 (nothing in the corpus answers
  it, so no chunk does);
- an answerable question against a top chunk of its gold document that holds at least
  `HOLDS` of the gold answer's content terms (a Developer Hub chunk: that shares text with
  the question's reference context too): 1;
- an answerable question against a top chunk of another document that holds at most
  `LACKS` of them (a Developer Hub chunk of another part of the guides, or one sharing no
  text with the reference context): 0. MultiHop-RAG's answers ("Yes", a name) are too short
  to tell, so its answerable questions give no pairs.
- an on-topic documentation question the guides do not answer, written for this project to
  be trained on (`tests/fixtures/rhdh_unanswerable_training.jsonl`: 30, each one's
  distinctive term absent from the guides; group `rhdh-w:ID`), against each of its top
  chunks: 0. The Developer Hub tuning questions are all answerable, so without them the
  stage meets no documentation question that should be withheld. (The 36 of
  `rhdh_unanswerable_questions.jsonl` calibrate the gate and the 36 of
  `rhdh_unanswerable_holdout.jsonl` are reported on; neither is trained on.)
- how-to questions over the documentation of three other projects, each in another markup
  (`DOCS_TRAINING`: Starlette's Markdown, marshmallow's reStructuredText, structlog's MyST;
  their PyPI sdists, fetched once by `benchmarks.sdist_docs`), written for this project to
  be trained on (`tests/fixtures/docs_training_NAME.jsonl`; group `dw-NAME:ID`): an
  answerable one names its page and a verbatim string the answer holds, most often code
  (`set_cookie`, `load_default`, `capture_logs`), and reads 1 against a top chunk of that
  page holding it and 0 against a top chunk of another page lacking it; an unanswerable one
  names the term the documentation lacks (checked absent from every page) and reads 0
  against each of its top chunks. The tuning sets above are Wikipedia, news and product
  guides whose answers are sentences; without these the gate met no documentation answer
  given as code, and it withheld such answers ("How do I leave an attribute out of the
  repr?" against `password: str = field(repr=False)`). Only with `train_crossencoder
  --docs-howto` (`cached_pairs(docs_howto=True)`): the gate so trained let as many more
  unanswerable documentation questions through, and is not shipped (docs/verification.md).

Each pair's group is the recipe's (`clapnq:ID`, `rhdh-q:ID`, `mhr:ID`; the written
training questions' is `rhdh-w:ID`), so the recipe's
held-out questions (`verifier_pairs.holdout`) stay held out here as well. Half of the tuning
questions (`calibrates`) give no pairs to train on: the gate's blend and threshold are
fitted on them (`calibrate_answerability`), since a model scores the questions it trained
on surer than new ones and a threshold fitted on those would not hold on new questions.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import replace
from pathlib import Path

from benchmarks.common import CACHE, DATA, ROOT, cached_json, require
from benchmarks.sdist_docs import sdist_docs
from benchmarks.verifier_pairs import Pair, make_pair
from citesynth import Engine, Settings
from citesynth.analysis import content_terms
from citesynth.evaluation import metrics
from citesynth.evaluation.datafiles import rows
from citesynth.evaluation.harness import Ref, covers, same_document
from citesynth.evaluation.qa_data import EvalItem, EvalSet, load_set
from citesynth.synthesis.answerability import TOP
from citesynth.synthesis.modes import get_mode
from citesynth.synthesis.sources import Source
from citesynth.synthesis.steps import make_plan, retrieve
from citesynth.synthesis.writers import Plan
from citesynth.verify.crossencoder import EVIDENCE_WORDS
from citesynth.verify.evidence import evidence_text

TUNING = ("clapnq", "docs-rhdh", "multihop-rag")
HOLDS = 0.5
"""Share of the gold answer's content terms a gold chunk holds to count as answering."""
LACKS = 0.25
"""Share of them a chunk of another document holds at most to count as not answering."""
SHARED = 0.5
"""Share of a Developer Hub chunk's content terms found in the reference context for the
chunk to count as (part of) that context."""
GROUP = {"clapnq": "clapnq", "docs-rhdh": "rhdh-q", "multihop-rag": "mhr", "docs-written": "rhdh-w"}
"""How each question set names its question groups (the recipe's names for the tuning sets)."""
WRITTEN = ROOT / "tests" / "fixtures" / "rhdh_unanswerable_training.jsonl"
"""Written Developer Hub questions the guides do not answer, for training only."""
DOCS_TRAINING = (("starlette", "1.10.0"), ("marshmallow", "4.4.0"), ("structlog", "26.1.0"))
"""Projects whose documentation (PyPI sdist) and written how-to questions the gate trains
on (Markdown, reStructuredText, MyST); never the report sets' HTTPX or Click."""


def docs_training_file(name: str) -> Path:
    """The written questions over `name`'s documentation (see the module docstring)."""
    return ROOT / "tests" / "fixtures" / f"docs_training_{name}.jsonl"


def group_of(set_name: str, item: EvalItem) -> str:
    """The recipe's group of a tuning question (`clapnq:ID`; written documentation
    questions `dw-NAME:ID`)."""
    prefix = GROUP.get(set_name) or f"dw-{set_name.removeprefix('docs-training-')}"
    return f"{prefix}:{item.id}"


def calibrates(group: str) -> bool:
    """Whether a tuning question is kept for calibrating the gate (half of them, by a hash
    of its group), out of the gate stage's training; the written training questions never
    are."""
    if group.split(":")[0] not in {GROUP[name] for name in TUNING}:
        return False
    return int(hashlib.sha1(f"calibration:{group}".encode()).hexdigest()[:8], 16) % 2 == 0


async def planned(
    eval_set: EvalSet,
    items: Sequence[EvalItem] | None = None,
    *,
    gated: bool = True,
    opened: Callable[[Engine], None] | None = None,
    settings: Settings | None = None,
) -> AsyncIterator[tuple[EvalItem, Plan | None]]:
    """Each question (of `items`, else all of `eval_set`) with the plan the answering
    pipeline makes for it (`steps.retrieve` and `steps.make_plan` with the engine's default
    options); None when retrieval finds nothing or, with `gated`, already answers "not
    found". The corpus is indexed once, under the cache (or as `settings` say, verifier
    and index); `opened` is told the engine."""
    corpus = eval_set.corpus.resolve()
    settings = settings or replace(
        Settings.from_env(verifier="lexical"),
        index_dir=CACHE / "answerability" / eval_set.name.replace("/", "_"),
        root=corpus if corpus.is_dir() else corpus.parent,
    )
    chosen = eval_set.items if items is None else items
    async with await Engine.open(settings=settings, indexing=True) as engine:
        await engine.index([corpus])
        if opened is not None:
            opened(engine)
        parts, options = engine.parts(), engine.options()
        mode = get_mode(options.mode)
        for number, item in enumerate(chosen, 1):
            retrieved = await retrieve(item.question, parts, options, mode)
            plan = None
            if retrieved.hits and not (gated and retrieved.best < options.not_found_below):
                plan = await make_plan(item.question, retrieved, parts, mode)
            yield item, plan
            if number % 50 == 0:
                print(f"{eval_set.name}/{eval_set.split}: {number}/{len(chosen)}")


async def top_sources(eval_set: EvalSet) -> AsyncIterator[tuple[EvalItem, list[Source]]]:
    """Each question of `eval_set` with the top sources the answering pipeline gives the gate
    (`planned`; none when retrieval already answers "not found")."""
    async for item, plan in planned(eval_set):
        top = [] if plan is None else [s for s in plan.sources[:TOP] if s.chunk.text.strip()]
        yield item, top


def share(terms: Sequence[str], text: str) -> float:
    """The share of `terms` (distinct) that `text` holds."""
    wanted = set(terms)
    return len(wanted & set(content_terms(text))) / len(wanted) if wanted else 0.0


def label(item: EvalItem, chunk: Ref, context: str) -> int | None:
    """1, 0 or None (not sure) for `chunk` as an answer to `item` (see the module docstring);
    `context` is a Developer Hub question's reference context ("" elsewhere)."""
    if not item.answerable:
        return 0
    if not item.answers:
        return None
    answer = content_terms(item.answers[0])
    if len(set(answer)) < 4:
        return None
    holds = share(answer, chunk.text)
    gold = any(same_document(chunk, g) for g in item.gold)
    if context:
        gold = gold and share(content_terms(chunk.text), context) >= SHARED
    if gold and holds >= HOLDS:
        return 1
    if not gold and holds <= LACKS:
        return 0
    return None


def written_label(item: EvalItem, chunk: Ref) -> int | None:
    """1, 0 or None for `chunk` as an answer to a written documentation question: 1 when it
    is of the named page and holds the answer's string, 0 when it is of another page and
    lacks it, or the question is unanswerable."""
    if not item.answerable:
        return 0
    if any(covers(chunk, g) for g in item.gold):
        return 1
    held = any(metrics.normalise(a) in metrics.normalise(chunk.text) for a in item.answers)
    if not held and not any(same_document(chunk, g) for g in item.gold):
        return 0
    return None


def contexts(folder: Path) -> dict[str, str]:
    """Developer Hub question id -> its reference context."""
    return {
        r["id"]: "\n\n".join(r["reference_contexts"])
        for r in rows(folder / "docs_rhdh" / "questions.jsonl")
        if r.get("reference_contexts")
    }


def question_sets(folder: Path) -> list[tuple[str, EvalSet]]:
    """(name, questions) of the tuning sets and the written training questions."""
    sets = [(name, load_set(name, "dev", data=folder, cache=CACHE / "eval")) for name in TUNING]
    written = load_set(
        str(WRITTEN),
        data=folder,
        corpus=folder / "docs_rhdh" / "corpus.jsonl",
        cache=CACHE / "eval",
    )
    return [*sets, ("docs-written", replace(written, name="rhdh-unanswerable-training"))]


def docs_training_sets() -> list[tuple[str, EvalSet]]:
    """(name, questions) of the written documentation questions, their docs fetched once."""
    return [
        (
            f"docs-training-{name}",
            load_set(
                str(docs_training_file(name)),
                corpus=sdist_docs(name, version),
                cache=CACHE / "eval",
            ),
        )
        for name, version in DOCS_TRAINING
    ]


async def docs_pairs() -> list[Pair]:
    """The written documentation questions against their top chunks (`written_label`)."""
    found: list[Pair] = []
    for name, eval_set in docs_training_sets():
        found.extend(await labelled_pairs(name, eval_set, name, written_label))
    return found


async def retrieved_pairs(folder: Path = DATA) -> list[Pair]:
    """The pairs of every tuning set (see the module docstring), in a fixed order."""
    context = contexts(folder)
    found: list[Pair] = []
    for name, eval_set in question_sets(folder):

        def labelled(item: EvalItem, chunk: Ref, name: str = name) -> int | None:
            if name == "multihop-rag" and item.answerable:
                return None  # its answers are too short to tell
            return label(item, chunk, context.get(item.id, "") if name == "docs-rhdh" else "")

        found.extend(await labelled_pairs(name, eval_set, f"retrieved-{name}", labelled))
    return found


async def labelled_pairs(
    name: str,
    eval_set: EvalSet,
    source_name: str,
    labelled: Callable[[EvalItem, Ref], int | None],
) -> list[Pair]:
    """Each question of `eval_set` against each of its top chunks that `labelled` is sure of,
    read as the gate reads it (`EVIDENCE_WORDS` words)."""
    found: list[Pair] = []
    async for item, top in top_sources(eval_set):
        for source in top:
            chunk = Ref.of_chunk(source.chunk)
            known = labelled(item, chunk)
            if known is None:
                continue
            evidence = evidence_text(item.question, [chunk.text], budget=EVIDENCE_WORDS)
            if evidence.strip():
                group = group_of(name, item)
                found.append(make_pair(item.question, evidence, known, source_name, group))
    return found


def cached_pairs(work: Path, *, docs_howto: bool = False) -> list[Pair]:
    """`retrieved_pairs`, and with `docs_howto` `docs_pairs` (not in the shipped gate's
    recipe), each cached in `work` (retrieval over the corpora takes minutes), under names
    that change with the written questions."""
    written = sum(1 for line in WRITTEN.read_text().splitlines() if line.strip())
    cache = work / f"gate-pairs-{EVIDENCE_WORDS}w-{written}written.json"
    tuning = cached_json(cache, lambda: asyncio.run(retrieved_pairs()))
    if not docs_howto:
        return tuning
    digest = hashlib.sha1()
    for name, version in DOCS_TRAINING:
        digest.update(f"{name}=={version}\n".encode() + docs_training_file(name).read_bytes())
    docs = work / f"gate-pairs-docs-{EVIDENCE_WORDS}w-{digest.hexdigest()[:10]}.json"
    return [*tuning, *cached_json(docs, lambda: asyncio.run(docs_pairs()))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    require(DATA)
    pairs = [*asyncio.run(retrieved_pairs()), *asyncio.run(docs_pairs())]
    with args.out.open("w") as handle:
        for pair in pairs:
            handle.write(json.dumps(pair) + "\n")
    counts = Counter((p["source"], p["label"]) for p in pairs)
    print(json.dumps({f"{s}:{y}": n for (s, y), n in sorted(counts.items())}, indent=1))
    print(f"{len(pairs)} pairs -> {args.out}")


if __name__ == "__main__":
    main()
