"""Questions only a parameter's description answers, through the extractive writer.

    python -m benchmarks.field_questions                         # both corpora, label "now"
    python -m benchmarks.field_questions --corpus werkzeug-source
    PYTHONPATH=OLD/src python -m benchmarks.field_questions --label before   # another tree

Three corpora, none a report set: aiohttp 3.11.11's hand-written API reference (its
`docs/` from the PyPI sdist, a tryout corpus), which describes 167 parameters in Sphinx
info fields (":param int limit: total number simultaneous connections. …"); Werkzeug
3.1.4's own source (`src/` from its sdist), whose docstrings describe parameters the same
way; and lodash-es 4.17.21's JavaScript (`npm pack`), whose JSDoc blocks do it with
`@param {number} [size=1] The length of each chunk`. Each parameter whose name no other
field of the corpus has, described in five words or more by a field under a named object
(a documented class or function; a docstring's function, or its class for `__init__`; the
function declared below a JSDoc block), is a question "What does the `NAME` parameter of
`OWNER` do?"; the first `--limit` by a hash of the pair are asked. An answer is scored on
what its field says: whether it quotes the field's first sentence, the share of that
sentence's terms it holds, whether it answers at all, and the share of its claims the
verifier did not mark supported. Each label's figures are kept in
`benchmarks/results/field_questions.json` beside the others' (run `--label before` with an
older tree on `PYTHONPATH` to compare: the questions are kept in
`benchmarks/.cache/field_questions_CORPUS.json` by the first run, so that a tree that
cannot read fields asks the same ones).
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import hashlib
import json
import re
import subprocess
import tarfile
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

CORPORA = {
    "aiohttp-docs": ("aiohttp", "3.11.11", "docs"),
    "werkzeug-source": ("werkzeug", "3.1.4", "src"),
    "lodash-source": ("lodash-es", "4.17.21", "npm"),
}
"""Each corpus: a package (name, version) and the folder of it that is indexed: of a PyPI
sdist, or "npm" for an npm package's files."""
_JS_OWNER = re.compile(r"\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\*?\s+(\w+)")
"""The function a JSDoc block documents: the declaration right below it."""
_MIN_WORDS = 5


@dataclass(frozen=True, slots=True)
class FieldQuestion:
    """A question a field answers, and the field's first sentence."""

    question: str
    path: str
    first: str


def field_questions(corpus: str, folder: Path, limit: int) -> list[FieldQuestion]:
    """The questions of a corpus's parameter fields (see the module docstring), kept."""
    kept_in = CACHE / f"field_questions_{corpus}.json"
    if kept_in.is_file():
        kept = [FieldQuestion(**row) for row in json.loads(kept_in.read_text())]
        if len(kept) >= limit:
            return kept[:limit]
    if corpus.startswith("lodash"):
        found = _jsdoc_fields(folder)
    else:
        found = _source_fields(folder) if corpus.endswith("-source") else _docs_fields(folder)
    names = Counter(name for name, *_ in found)
    unique = [f for f in found if names[f[0]] == 1]
    unique.sort(key=lambda f: hashlib.sha1(f"{f[1]}.{f[0]}".encode()).hexdigest())
    asked = [
        FieldQuestion(f"What does the `{name}` parameter of `{owner}` do?", path, first)
        for name, owner, path, first in unique[:limit]
    ]
    kept_in.write_text(json.dumps([asdict(q) for q in asked], indent=1) + "\n")
    return asked


_Found = list[tuple[str, str, str, str]]
"""(parameter, owner, path, the first sentence of its description)."""


def _docs_fields(docs: Path) -> _Found:
    from citesynth.ingest.fields import info_fields  # not in a tree from before fields

    found: _Found = []
    for path in sorted(docs.rglob("*.rst")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for described in info_fields(text):
            owner = described_at(text, described.start).rsplit(".", 1)[-1]
            found += _kept(described.kind, described.name, owner, path, docs, described.text)
    return found


def _source_fields(source: Path) -> _Found:
    from citesynth.ingest.fields import info_fields

    found: _Found = []
    for path in sorted(source.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        classes = {
            id(f): c.name for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for f in c.body
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            owner = classes.get(id(node), node.name) if node.name == "__init__" else node.name
            for described in info_fields(ast.get_docstring(node) or ""):
                found += _kept(described.kind, described.name, owner, path, source, described.text)
    return found


def _jsdoc_fields(source: Path) -> _Found:
    """The @param tags of the JSDoc blocks right above a function declaration."""
    from citesynth.ingest.doc_comments import doc_comment_units  # not in an older tree

    found: _Found = []
    for path in sorted(source.rglob("*.js")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for block in re.finditer(r"/\*\*.*?\*/", text, re.DOTALL):
            owner = _JS_OWNER.match(text, block.end())
            if owner is None:
                continue
            for unit in doc_comment_units(block.group()):
                named = re.match(r"`([^`]+)`(?: \([^()]*\))?: (.+)", unit.text)
                if named is not None:
                    found += _kept(
                        "param", named.group(1), owner.group(1), path, source, named.group(2)
                    )
    return found


def npm_package(name: str, version: str) -> Path:
    """The files of the npm package NAME@VERSION (`npm pack`), unpacked once in the cache."""
    folder = CACHE / name / f"{name}-{version}" / "package"
    if folder.is_dir() and any(folder.iterdir()):
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    packed = subprocess.run(
        ["npm", "pack", f"{name}@{version}", "--silent", "--pack-destination", str(folder.parent)],
        capture_output=True,
        text=True,
    )
    archive = folder.parent / f"{name}-{version}.tgz"
    if packed.returncode != 0 or not archive.is_file():
        raise SystemExit(f"could not fetch the npm package {name}@{version}: {packed.stderr}")
    with tarfile.open(archive) as unpacked:
        unpacked.extractall(folder.parent, filter="data")
    return folder


def _kept(kind: str, name: str, owner: str, path: Path, root: Path, text: str) -> _Found:
    """The field as a question's (parameter, owner, path, first sentence), if it makes one."""
    spans = prose_sentences(text, min_words=1)
    first = text[: spans[0][1]] if spans else text
    if kind != "param" or not owner or len(first.split()) < _MIN_WORDS:
        return []
    return [(name, owner, str(path.relative_to(root)), first)]


def _plain(text: str) -> str:
    """`text` as read: reStructuredText rendered, no code or emphasis marks, lower case."""
    return " ".join(rendered_rst(text).replace("`", "").replace("*", "").lower().split())


async def run(corpus: str, limit: int) -> dict[str, Any]:
    name, version, part = CORPORA[corpus]
    folder = npm_package(name, version) if part == "npm" else sdist_docs(name, version, part)
    questions = field_questions(corpus, folder, limit)
    rows = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        base = Settings.from_env(model="extractive")
        settings = replace(base, index_dir=root / "index", root=folder.parent)
        async with await Engine.open(settings=settings, indexing=True) as engine:
            await engine.index([folder])
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
    parser.add_argument("--corpus", choices=sorted(CORPORA), action="append")
    parser.add_argument("--limit", type=int, default=40)
    parser.add_argument("--label", default="now")
    args = parser.parse_args()
    kept = RESULTS / "field_questions.json"
    corpora = json.loads(kept.read_text())["corpora"] if kept.is_file() else {}
    for corpus in args.corpus or sorted(CORPORA):
        result = asyncio.run(run(corpus, args.limit))
        corpora.setdefault(corpus, {"labels": {}})["labels"][args.label] = result
        print(
            f"{corpus} {args.label}: answered {result['answered']:.0%}, field quoted "
            f"{result['field_quoted']:.0%}, term recall {result['term_recall']:.2f}, "
            f"claims not supported {result['claims_not_supported']:.1%}"
        )
    write_result("field_questions", {"corpora": corpora})


if __name__ == "__main__":
    main()
