"""Hard negatives from documentation prose: the names of a sentence exchanged or replaced.

    python -m benchmarks.docs_swaps --out /tmp/swaps.jsonl    # writes the pairs, prints counts

Measured on 2026-12-01 (`/tmp`-free: `benchmarks/results/verifier_swaps.json`), the shipped
verifier passed 86 % of the prose sentences of the written tuning claims' passages with two
of their names exchanged, read against the passage that states them the other way round:
it had learnt swapped names from encyclopedic text (capitalised words), while documentation
names things in code (`post_load`, `JSONResponse`, ``request.user``). These pairs teach it
the documentation's way: from the prose sentences (`ingest.sentences.prose_sentences`: no
code, tables or headings) of the documentation of the written claims' five tuning projects
(`verifier_pairs.WRITTEN_CLAIMS`, fetched by `benchmarks.sdist_docs`), grouped into windows
of about the verifier's evidence budget:

- the sentence itself against its window (1, `gen-docs-copy`);
- two of its names exchanged against the same window (0, `gen-docs-swap`), or, when it names
  one thing only, that name replaced by another name of the window (0, `gen-docs-replace`).

A name is what documentation marks as one: inline code (backticks), a dotted or snake_case
identifier, a CamelCase word, or a capitalised word inside the sentence. Nothing comes from
the held-out documentation sets (HTTPX, Click, cattrs) or from the report splits.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from benchmarks.sdist_docs import sdist_docs
from benchmarks.verifier_pairs import WRITTEN_CLAIMS, Pair, in_windows, make_pair
from citesynth.ingest.sentences import prose_sentences
from citesynth.verify.evidence import BUDGET

DOC_SUFFIXES = (".md", ".rst", ".txt")
PER_WINDOW = 2
"""Sentences of one window made into pairs at most."""

_CODE_NAME = re.compile(
    r"``[^`\n]+``|`[^`\n]+`"  # inline code, reStructuredText's or Markdown's
    r"|\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?"  # dotted: request.user, os.environ()
    r"|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"  # snake_case: post_load
    r"|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b"  # CamelCase: JSONResponse, HTTPEndpoint
    r"|(?<=\s)[A-Z][a-zA-Z]{2,}\b"  # a capitalised word past the sentence's first
)


def names(sentence: str) -> list[str]:
    """The distinct names of `sentence`, in order (see the module docstring)."""
    return list(dict.fromkeys(m.group() for m in _CODE_NAME.finditer(sentence)))


def exchanged(sentence: str, rng: random.Random) -> str | None:
    """`sentence` with two of its names exchanged (None when it names fewer than two, or
    the exchange reads the same)."""
    found = names(sentence)
    if len(found) < 2:
        return None
    first, second = rng.sample(found, 2)
    if first in second or second in first:
        return None
    swapped = sentence.replace(first, "\0").replace(second, first).replace("\0", second)
    return swapped if swapped != sentence else None


def replaced(sentence: str, window: list[str], rng: random.Random) -> str | None:
    """`sentence` with one of its names replaced by a name of another sentence of `window`
    that it does not hold."""
    own = names(sentence)
    named = dict.fromkeys(n for s in window for n in names(s))
    others = [n for n in named if n not in sentence and not any(n in o for o in own)]
    if not own or not others:
        return None
    return sentence.replace(rng.choice(own), rng.choice(others), 1)


def prose_windows(text: str, budget: int = BUDGET) -> list[list[str]]:
    """The prose sentences of a documentation file (6 to 60 words), in windows of about
    `budget` words; a window needs two sentences."""
    sentences = [" ".join(text[a:b].split()) for a, b in prose_sentences(text, min_words=6)]
    return in_windows([s for s in sentences if len(s.split()) <= 60], budget)


def documentation_files() -> Iterator[tuple[str, Path]]:
    """(project, file) of each documentation file of the tuning projects, in a fixed order."""
    for project, (_, version) in WRITTEN_CLAIMS.items():
        folder = sdist_docs(project, version)
        for path in sorted(folder.rglob("*")):
            if path.suffix in DOC_SUFFIXES and path.is_file():
                yield project, path


def swap_pairs(limit: int, seed: int = 17, budget: int = BUDGET) -> list[Pair]:
    """Up to `limit` sentences of the tuning projects' documentation, each as a positive
    and a negative pair (module docstring), `PER_WINDOW` sentences a window at most."""
    rng = random.Random(seed)
    candidates: list[tuple[str, str, list[str]]] = []  # (group, sentence, window)
    for project, path in documentation_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for index, window in enumerate(prose_windows(text, budget)):
            named = [s for s in window if names(s)]
            group = f"docs-gen:{project}:{path.name}:{index}"
            for sentence in rng.sample(named, min(len(named), PER_WINDOW)):
                candidates.append((group, sentence, window))
    rng.shuffle(candidates)
    pairs: list[Pair] = []
    for group, sentence, window in candidates:
        if len(pairs) >= 2 * limit:
            break
        changed, kind = exchanged(sentence, rng), "gen-docs-swap"
        if changed is None:
            changed, kind = replaced(sentence, window, rng), "gen-docs-replace"
        if changed is None:
            continue
        evidence = " ".join(window)
        pairs.append(make_pair(sentence, evidence, 1, "gen-docs-copy", group))
        pairs.append(make_pair(changed, evidence, 0, kind, group))
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=3000)
    args = parser.parse_args()
    pairs = swap_pairs(args.limit)
    with args.out.open("w") as handle:
        for pair in pairs:
            handle.write(json.dumps(pair) + "\n")
    print(json.dumps(Counter(p["source"] for p in pairs), indent=1))
    print(f"{len(pairs)} pairs -> {args.out}")


if __name__ == "__main__":
    main()
