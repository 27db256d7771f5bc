"""Labelled claim–evidence pairs from the shared data sets, as verifier checks.

| data set | tune split        | report split     | claim                  | evidence            |
|----------|-------------------|------------------|------------------------|---------------------|
| wice     | `dev` (349)       | `test` (358)     | the Wikipedia sentence | the cited web page  |
| scifact  | `train` (919)     | `dev` (340)      | the claim              | the cited abstract  |
| halueval | `dev` (0–249)     | `test` (250–499) | question + answer      | the knowledge text  |

Positive means supported: WiCE `supported` (partially supported counts as not supported),
SciFact `SUPPORT` (contradicted and not-enough-info are not), HaluEval's right answers.
The data is read from `$CITESYNTH_DATA` or `../shared/data` beside the project.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citesynth.errors import ConfigError
from citesynth.evaluation.datafiles import data_dir
from citesynth.evaluation.datafiles import rows as jsonl_rows

DATASETS = ("wice", "scifact", "halueval")
SPLITS = {"wice": ("dev", "test"), "scifact": ("train", "dev"), "halueval": ("dev", "test")}
"""Per data set: the split to tune on, then the split to report."""


@dataclass(frozen=True, slots=True)
class Example:
    """One labelled claim and the evidence it is checked against."""

    id: str
    claim: str
    passages: tuple[str, ...]
    supported: bool
    group: str = ""
    """What examples share (a claim id, a sample id), for splitting without leaks."""


def load(dataset: str, split: str, root: Path | None = None) -> list[Example]:
    """The examples of one split of one data set.

    Raises:
        ConfigError: unknown data set or split, or the data is not there.
    """
    if dataset not in SPLITS:
        raise ConfigError(f"unknown data set {dataset!r}: choose one of {', '.join(DATASETS)}")
    if split not in SPLITS[dataset]:
        tune, report = SPLITS[dataset]
        raise ConfigError(
            f"{dataset} has no {split!r} split here: "
            f"{tune!r} is for tuning, {report!r} for reporting"
        )
    folder = data_dir(root)
    if not folder.is_dir():
        raise ConfigError(f"data folder {folder} not found (set CITESYNTH_DATA or pass --data)")
    loader = {"wice": _wice, "scifact": _scifact, "halueval": _halueval}[dataset]
    return list(loader(folder, split))


def _rows(path: Path) -> Iterator[dict[str, Any]]:
    if not path.is_file():
        raise ConfigError(f"{path} not found (set CITESYNTH_DATA or pass --data)")
    return jsonl_rows(path)


def _wice(folder: Path, split: str) -> Iterator[Example]:
    for row in _rows(folder / "wice" / f"claim_{split}.jsonl"):
        yield Example(
            id=row["id"],
            claim=row["claim"],
            passages=("\n\n".join(row["evidence"]),),
            supported=row["label"] == "supported",
            group=row["id"],
        )


def _scifact(folder: Path, split: str) -> Iterator[Example]:
    abstracts: dict[str, str] = {}
    for row in _rows(folder / "scifact" / "corpus.jsonl"):
        text = row["text"]
        sentences = [text[a:b] for a, b in row["sentence_offsets"]]
        abstracts[str(row["_id"])] = row["title"] + "\n\n" + "\n\n".join(sentences)
    for row in _rows(folder / "scifact" / f"claim_doc_pairs_{split}.jsonl"):
        doc = str(row["doc_id"])
        if doc not in abstracts:
            continue
        yield Example(
            id=f"{row['claim_id']}:{doc}",
            claim=row["claim"],
            passages=(abstracts[doc],),
            supported=row["label"] == "SUPPORT",
            group=str(row["claim_id"]),
        )


_GLUED = re.compile(r"(?<=[a-z0-9)][.!?])(?=[A-Z])")


def _halueval(folder: Path, split: str) -> Iterator[Example]:
    rows = list(_rows(folder / "halueval_qa" / "pairs.jsonl"))
    samples = sorted({row["sample_id"] for row in rows})
    half = set(samples[: len(samples) // 2])
    for row in rows:
        if (row["sample_id"] in half) != (split == "dev"):
            continue
        # The knowledge joins its Wikipedia sentences without a space ("century.First").
        knowledge = _GLUED.sub(" ", row["knowledge"])
        yield Example(
            id=row["id"],
            claim=f"{row['question'].strip()} {row['answer'].strip()}",
            passages=(knowledge,),
            supported=row["label"] == "supported",
            group=row["sample_id"],
        )
