"""Question sets for `citesynth eval`: the built-in shared data sets and a generic JSONL schema.

Built-in names (read from `../shared/data`, or `--data DIR`, or `CITESYNTH_DATA`):

| name | corpus | questions | gold |
|---|---|---|---|
| `clapnq` | 597 Wikipedia passages | 600 (300 unanswerable) | passages, answers |
| `musique` | 1,890 paragraphs | 100 multi-hop | supporting paragraphs, answer + aliases |
| `hotpotqa` | 994 paragraphs | 100 multi-hop | supporting sentences, answer |
| `multihop-rag` | 438 news evidence facts | 500 (71 null queries) | evidence facts, answer |
| `scifact` | 5,183 abstracts | BEIR queries (retrieval only) | graded qrels |
| `docs-rhdh` | 28 product guides | 501 generated questions | source guides, answer |

Splits: `test` is the slice figures are reported on, `dev` the slice for tuning. ClapNQ's
`test` is the fixed 100-question report slice of the benchmarks (50 answerable + 50
unanswerable by hash of the id) and `dev` the other 500; SciFact's `test` is BEIR's 300 test
queries and `dev` the training claims; elsewhere 30 % of the questions (by hash of the id)
are `dev` and the rest `test`.

A generic question file is JSONL, one question per line:

    {"id": "q1", "question": "...", "answers": ["..."], "answerable": true,
     "gold_sources": ["guide.md", "guide.md:L10-L24", {"source": "api.md", "text": "..."}]}

Only `question` is required; `answerable` defaults to true. A gold source names a file
(relative to the corpus folder) or a JSONL record id, optionally with a line range, or an
object with `source`, optional `lines` [start, end] and `text` (a gold sentence). The
corpus is `--corpus PATH`, or `corpus.jsonl` / `corpus/` next to the question file.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citesynth.errors import ConfigError
from citesynth.evaluation.datafiles import data_dir, numbered_rows, rows

SPLITS = ("dev", "test")
_RANGE = re.compile(r"^(?P<source>.+?):L(?P<start>\d+)(?:-L?(?P<end>\d+))?$")


@dataclass(frozen=True, slots=True)
class GoldSource:
    """Evidence an answer should cite: a document, optionally narrowed to lines or a sentence."""

    source: str
    """A path relative to the corpus folder, or a JSONL record id."""
    lines: tuple[int, int] | None = None
    text: str | None = None
    grade: int = 1


@dataclass(frozen=True, slots=True)
class EvalItem:
    """One question with what is known about its answer."""

    id: str
    question: str
    answers: tuple[str, ...] = ()
    answerable: bool = True
    gold: tuple[GoldSource, ...] = ()


@dataclass(frozen=True, slots=True)
class EvalSet:
    """Questions over a corpus; `synthesize=False` sets measure retrieval only."""

    name: str
    split: str
    corpus: Path
    items: tuple[EvalItem, ...]
    synthesize: bool = True
    notes: tuple[str, ...] = field(default=())


BUILT_IN = ("clapnq", "musique", "hotpotqa", "multihop-rag", "scifact", "docs-rhdh")


def load_set(
    name: str, split: str = "test", *, data: Path | None = None, corpus: Path | None = None,
    cache: Path,
) -> EvalSet:  # fmt: skip
    """The question set `name` (built-in name or a JSONL path) and its corpus.

    Raises:
        ConfigError: unknown name, missing data, or an unreadable question file.
    """
    if split not in SPLITS:
        raise ConfigError(f"unknown split {split!r}: use dev or test")
    key = name.lower().replace("_", "-")
    if key in BUILT_IN:
        root = data_dir(data)
        if not root.is_dir():
            raise ConfigError(
                f"the shared data is not at {root}: pass --data DIR or set CITESYNTH_DATA"
            )
        return _BUILT_IN_LOADERS[key](root, split, cache)
    path = Path(name)
    if path.suffix == ".jsonl" and path.is_file():
        if split != "test":
            raise ConfigError(f"{path} has no splits: split it into two files instead")
        return generic(path, corpus)
    raise ConfigError(f"unknown data set {name!r}: use one of {', '.join(BUILT_IN)} or a .jsonl")


def take(items: Sequence[EvalItem], limit: int | None) -> tuple[EvalItem, ...]:
    """The first `limit` items, keeping the share of unanswerable questions."""
    if limit is None or limit >= len(items):
        return tuple(items)
    unanswerable = [i for i in items if not i.answerable]
    answerable = [i for i in items if i.answerable]
    if not unanswerable or not answerable:
        return tuple(items[:limit])
    wanted = round(limit * len(unanswerable) / len(items))
    return tuple(answerable[: limit - wanted] + unanswerable[:wanted])


def generic(path: Path, corpus: Path | None) -> EvalSet:
    """A question file in the generic schema (see the module docstring)."""
    items = []
    for number, row in numbered_rows(path):
        question = row.get("question")
        if not isinstance(question, str) or not question.strip():
            raise ConfigError(f"{path}:{number}: each line needs a 'question' string")
        answerable = row.get("answerable", True)
        if not isinstance(answerable, bool):
            raise ConfigError(f"{path}:{number}: 'answerable' is true or false")
        items.append(
            EvalItem(
                id=str(row.get("id", number)),
                question=question,
                answers=tuple(str(a) for a in _listed(row, "answers", path, number)),
                answerable=answerable,
                gold=tuple(
                    _gold(g, path, number) for g in _listed(row, "gold_sources", path, number)
                ),
            )
        )
    return EvalSet(path.stem, "test", _corpus_for(path, corpus), tuple(items))


def _listed(row: dict[str, Any], key: str, path: Path, number: int) -> list[Any]:
    """`row[key]` as a list: absent or null is empty, one string is a list of one."""
    value = row.get(key)
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list):
        raise ConfigError(f"{path}:{number}: '{key}' is a string or a list")
    return value


def _gold(value: Any, path: Path, number: int) -> GoldSource:
    if isinstance(value, str):
        found = _RANGE.match(value)
        if found:
            start = int(found["start"])
            return GoldSource(found["source"], (start, int(found["end"] or start)))
        return GoldSource(value)
    if isinstance(value, dict) and isinstance(value.get("source"), str):
        lines = value.get("lines")
        span = (
            (int(lines[0]), int(lines[1])) if isinstance(lines, list) and len(lines) == 2 else None
        )
        text = value.get("text")
        return GoldSource(value["source"], span, text if isinstance(text, str) else None)
    raise ConfigError(f"{path}:{number}: a gold source is a string or {{'source': ...}}")


def _corpus_for(path: Path, corpus: Path | None) -> Path:
    if corpus is not None:
        if not corpus.exists():
            raise ConfigError(f"corpus {corpus} does not exist")
        return corpus
    for candidate in (path.parent / "corpus.jsonl", path.parent / "corpus"):
        if candidate.exists():
            return candidate
    raise ConfigError(f"no corpus for {path}: pass --corpus PATH (a folder, file or .jsonl)")


def _need(path: Path) -> Path:
    if not path.exists():
        raise ConfigError(f"{path} is missing from the shared data")
    return path


def _by_hash(items: Sequence[EvalItem]) -> list[EvalItem]:
    return sorted(items, key=lambda item: hashlib.sha1(item.id.encode()).hexdigest())


def _split(items: Sequence[EvalItem], split: str, dev_share: float = 0.3) -> tuple[EvalItem, ...]:
    ordered = _by_hash(items)
    cut = round(len(ordered) * dev_share)
    return tuple(ordered[:cut] if split == "dev" else ordered[cut:])


def clapnq(root: Path, split: str, cache: Path) -> EvalSet:
    """ClapNQ dev: long-form answers, half of the questions unanswerable from the corpus."""
    folder = root / "clapnq_dev"
    items = [
        EvalItem(
            id=row["id"],
            question=row["question"],
            answers=tuple(
                g["answer"] for g in row.get("gold_answers", []) if g.get("answer") != "NA"
            ),
            answerable=bool(row["answerable"]),
            gold=tuple(GoldSource(p) for p in row.get("passage_ids", [])),
        )
        for row in rows(_need(folder / "questions.jsonl"))
    ]
    ordered = _by_hash(items)
    report = [i for i in ordered if i.answerable][:50] + [i for i in ordered if not i.answerable][
        :50
    ]
    chosen = {i.id for i in report}
    picked = report if split == "test" else [i for i in ordered if i.id not in chosen]
    return EvalSet("clapnq", split, folder / "corpus.jsonl", tuple(picked))


def musique(root: Path, split: str, cache: Path) -> EvalSet:
    """MuSiQue: 2–4-hop questions; gold = the supporting paragraphs."""
    folder = root / "multihop_qa" / "musique_100"
    items = [
        EvalItem(
            id=row["id"],
            question=row["question"],
            answers=(row["answer"], *row.get("answer_aliases", [])),
            answerable=bool(row.get("answerable", True)),
            gold=tuple(GoldSource(d) for d in row.get("supporting_doc_ids", [])),
        )
        for row in rows(_need(folder / "questions.jsonl"))
    ]
    return EvalSet("musique", split, folder / "corpus.jsonl", _split(items, split))


def hotpotqa(root: Path, split: str, cache: Path) -> EvalSet:
    """HotpotQA: 2-hop questions; gold = the supporting sentences."""
    folder = root / "multihop_qa" / "hotpotqa_100"
    items = [
        EvalItem(
            id=row["id"],
            question=row["question"],
            answers=(row["answer"],),
            gold=tuple(
                GoldSource(f["doc_id"], text=f["sentence"].strip())
                for f in row.get("supporting_facts", [])
            ),
        )
        for row in rows(_need(folder / "questions.jsonl"))
    ]
    return EvalSet("hotpotqa", split, folder / "corpus.jsonl", _split(items, split))


def multihop_rag(root: Path, split: str, cache: Path) -> EvalSet:
    """MultiHop-RAG over its evidence facts (no article bodies); null queries unanswerable."""
    folder = root / "multihop_qa" / "multihoprag_500"
    corpus = cache / "multihop-rag-facts.jsonl"
    if not corpus.exists():
        cache.mkdir(parents=True, exist_ok=True)
        facts = [
            {
                "doc_id": row["fact_id"],
                "title": f"{row.get('source', '')}: {row.get('title', '')}".strip(": "),
                "text": row["fact"],
            }
            for row in rows(_need(folder / "evidence_facts.jsonl"))
        ]
        corpus.write_text("".join(json.dumps(f) + "\n" for f in facts), encoding="utf-8")
    items = []
    for row in rows(_need(folder / "questions.jsonl")):
        null = row.get("question_type") == "null_query"
        items.append(
            EvalItem(
                id=str(row["id"]),
                question=row["question"],
                answers=() if null else (row["answer"],),
                answerable=not null,
                gold=tuple(GoldSource(f) for f in row.get("evidence_fact_ids", [])),
            )
        )
    return EvalSet(
        "multihop-rag",
        split,
        corpus,
        _split(items, split),
        notes=("corpus: the 438 evidence facts (the article bodies are not in the shared data)",),
    )


def scifact(root: Path, split: str, cache: Path) -> EvalSet:
    """BEIR SciFact: claims as queries over abstracts, retrieval only."""
    folder = root / "scifact"
    if split == "test":
        texts = {row["_id"]: row["text"] for row in rows(_need(folder / "queries.jsonl"))}
        qrels: dict[str, dict[str, int]] = {}
        for line in _need(folder / "qrels" / "test.tsv").read_text().splitlines()[1:]:
            query, doc, score = line.split("\t")
            qrels.setdefault(query, {})[doc] = int(score)
        items = [
            EvalItem(q, texts[q], gold=tuple(GoldSource(d, grade=g) for d, g in rel.items()))
            for q, rel in qrels.items()
        ]
    else:
        items = [
            EvalItem(str(row["id"]), row["claim"], gold=tuple(GoldSource(str(d)) for d in docs))
            for row in rows(_need(folder / "claims_train.jsonl"))
            if (docs := row.get("cited_doc_ids"))
        ]
    return EvalSet("scifact", split, folder / "corpus.jsonl", tuple(items), synthesize=False)


def docs_rhdh(root: Path, split: str, cache: Path) -> EvalSet:
    """Red Hat Developer Hub guides with generated questions (internal use only)."""
    folder = root / "docs_rhdh"
    items = []
    for row in rows(_need(folder / "questions.jsonl")):
        sources = row.get("source_doc_ids", [])
        answer = row.get("reference_answer")
        items.append(
            EvalItem(
                id=row["id"],
                question=row["question"],
                answers=(answer,) if answer else (),
                gold=tuple(GoldSource(str(s)) for s in sources),
            )
        )
    return EvalSet(
        "docs-rhdh",
        split,
        folder / "corpus.jsonl",
        _split(items, split),
        notes=("questions generated by Ragas: synthetic and unlicensed, internal use only",),
    )


_BUILT_IN_LOADERS = {
    "clapnq": clapnq,
    "musique": musique,
    "hotpotqa": hotpotqa,
    "multihop-rag": multihop_rag,
    "scifact": scifact,
    "docs-rhdh": docs_rhdh,
}
