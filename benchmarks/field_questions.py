"""Questions only a Sphinx info field answers, through the extractive writer.

    python -m benchmarks.field_questions                  # label "now"
    PYTHONPATH=OLD/src python -m benchmarks.field_questions --label before   # another tree

aiohttp 3.11.11's hand-written API reference (its `docs/` from the PyPI sdist, a tryout
corpus, no report set) describes 167 parameters in fields (":param int limit: total number
simultaneous connections. …"). Each parameter field whose name no other field of the docs
has, under a described object, with five words or more, is a question "What does the
`NAME` parameter of `OWNER` do?"; the first `--limit` by a hash of the pair are asked.
An answer is scored on what its field says: whether it quotes the field's first sentence,
the share of that sentence's terms it holds, whether it answers at all, and the share of its
claims the verifier did not mark supported. Each label's figures are kept in
`benchmarks/results/field_questions.json` beside the others' (run `--label before` with an
older tree on `PYTHONPATH` to compare: the questions are kept in
`benchmarks/.cache/field_questions.json` by the first run, so that a tree that cannot read
fields asks the same ones).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import citesynth
from benchmarks.common import CACHE, RESULTS, write_result
from benchmarks.sdist_docs import sdist_docs
from citesynth import Engine, Settings
from citesynth.analysis import terms
from citesynth.ingest.rst import described_at, rendered_rst
from citesynth.ingest.sentences import prose_sentences

PROJECT = ("aiohttp", "3.11.11")
QUESTIONS = CACHE / "field_questions.json"
_MIN_WORDS = 5


@dataclass(frozen=True, slots=True)
class FieldQuestion:
    """A question a field answers, and the field's first sentence."""

    question: str
    path: str
    first: str


def field_questions(docs: Path, limit: int) -> list[FieldQuestion]:
    """The questions of the docs' parameter fields (see the module docstring), kept."""
    if QUESTIONS.is_file():
        kept = [FieldQuestion(**row) for row in json.loads(QUESTIONS.read_text())]
        if len(kept) >= limit:
            return kept[:limit]
    from citesynth.ingest.fields import info_fields  # not in a tree from before fields

    found: list[tuple[str, str, str, str]] = []  # (name, owner, path, first sentence)
    for path in sorted(docs.rglob("*.rst")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for described in info_fields(text):
            owner = described_at(text, described.start).rsplit(".", 1)[-1]
            spans = prose_sentences(described.text, min_words=1)
            first = described.text[: spans[0][1]] if spans else described.text
            if described.kind == "param" and owner and len(first.split()) >= _MIN_WORDS:
                found.append((described.name, owner, str(path.relative_to(docs)), first))
    names = Counter(name for name, *_ in found)
    unique = [f for f in found if names[f[0]] == 1]
    unique.sort(key=lambda f: hashlib.sha1(f"{f[1]}.{f[0]}".encode()).hexdigest())
    asked = [
        FieldQuestion(f"What does the `{name}` parameter of `{owner}` do?", path, first)
        for name, owner, path, first in unique[:limit]
    ]
    QUESTIONS.write_text(json.dumps([asdict(q) for q in asked], indent=1) + "\n")
    return asked


def _plain(text: str) -> str:
    """`text` as read: reStructuredText rendered, no code or emphasis marks, lower case."""
    return " ".join(rendered_rst(text).replace("`", "").replace("*", "").lower().split())


async def run(limit: int) -> dict[str, Any]:
    docs = sdist_docs(*PROJECT)
    questions = field_questions(docs, limit)
    rows = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        base = Settings.from_env(model="extractive")
        settings = replace(base, index_dir=root / "index", root=docs.parent)
        async with await Engine.open(settings=settings, indexing=True) as engine:
            await engine.index([docs])
            for asked in questions:
                answer = await engine.answer(asked.question, cache=False)
                wanted = set(terms(asked.first))
                held = set(terms(answer.answer))
                rows.append(
                    {
                        "question": asked.question,
                        "path": asked.path,
                        "field": asked.first,
                        "answered": not answer.not_found,
                        "quoted": _plain(asked.first).rstrip(".") in _plain(answer.answer),
                        "term_recall": round(len(wanted & held) / max(1, len(wanted)), 4),
                        "claims": len(answer.claims),
                        "not_supported": sum(c.label != "supported" for c in answer.claims),
                        "answer": answer.answer,
                    }
                )
                print(f"{len(rows)}/{len(questions)} quoted={rows[-1]['quoted']}", flush=True)
    count = max(1, len(rows))
    claims = sum(r["claims"] for r in rows)
    return {
        "code": str(Path(citesynth.__file__).parent),
        "questions": len(rows),
        "answered": round(sum(r["answered"] for r in rows) / count, 4),
        "field_quoted": round(sum(r["quoted"] for r in rows) / count, 4),
        "term_recall": round(sum(r["term_recall"] for r in rows) / count, 4),
        "claims_not_supported": round(sum(r["not_supported"] for r in rows) / max(1, claims), 4),
        "seconds": round(time.perf_counter() - started, 1),
        "answers": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=40)
    parser.add_argument("--label", default="now")
    args = parser.parse_args()
    result = asyncio.run(run(args.limit))
    kept = RESULTS / "field_questions.json"
    labels = json.loads(kept.read_text())["labels"] if kept.is_file() else {}
    labels[args.label] = result
    print(
        f"{args.label}: answered {result['answered']:.0%}, field quoted "
        f"{result['field_quoted']:.0%}, term recall {result['term_recall']:.2f}, "
        f"claims not supported {result['claims_not_supported']:.1%}"
    )
    write_result("field_questions", {"project": "-".join(PROJECT), "labels": labels})


if __name__ == "__main__":
    main()
