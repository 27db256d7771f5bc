"""Defaults given another value: does each verifier pass a sentence whose default is swapped?

    python -m benchmarks.default_swaps [--most 40]

The embedded model answered towncrier's "Which option lets me choose the branch to compare
with?" with "The default branch to compare with is `REMOTE-BRANCH`" (2026-12-05): the
option's placeholder, where the page says "By default, ``towncrier`` compares the current
branch against ``origin/main``". The verifier passed it (0.958): every word is on the page.
The issue names the kind, "a swapped default", among the changed details a verifier must
catch.

From the prose sentences of documentation (`ingest.sentences.prose_sentences`) that bind
code to the word "default" (`verify.defaults.defaulted_values`: "defaults to ``1``", "By
default, … against ``origin/main``"), each sentence is checked against a window of its page
(600 characters either side): as written (it should pass), and with its default replaced
by code of the window the sentence does not write (it should not), of two kinds:

- `other_code`: the nearest code the page never writes a few words after "default" (the
  placeholder `REMOTE-BRANCH` above);
- `another_default`: the nearest code the page gives as the default of something else
  (Black's "`g:black_fast` (defaults to `0`)" made "(defaults to `88`)", the line
  length's default two lines below).

Two splits of documentation:

- `tuning`: the documentation the written question sets were read on
  (`eval_suite.TUNED_DOCS`, `eval_suite.FRESH_DOCS`), at most `--most` sentences a project;
- `held_out`: the HTTPX documentation (`../shared/data/docs_httpx`), Click 8.1.7's and
  cattrs 25.1.1's (`benchmarks.held_out_docs`), which nothing here is tuned on.

Reported per verifier (`lexical`, and `trained` when `citesynth[embed]` is installed): the
share of sentences passed as written, and of changed ones passed as `supported` (lower is
better). Sdists not yet fetched (`benchmarks.sdist_docs`) are skipped with a message.
Results: `benchmarks/results/default_swaps.json`.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from pathlib import Path
from typing import Any

from benchmarks.common import DATA, write_result
from benchmarks.eval_suite import FRESH_DOCS, TUNED_DOCS, sdist_folder
from benchmarks.held_out_docs import HELD_OUT
from citesynth.analysis import INLINE_CODE
from citesynth.ingest.rst import rendered_roles
from citesynth.ingest.sentences import prose_sentences
from citesynth.verify import Check, Verifier, get_verifier
from citesynth.verify.crossencoder import available
from citesynth.verify.defaults import defaulted_values

WINDOW = 600
"""Characters of the page either side of a sentence that its checks read."""
SUFFIXES = frozenset({".rst", ".md", ".txt"})

Case = tuple[str, str, Check, Check]
"""(kind, where, the sentence as written, the sentence with its default swapped)."""
OTHER = "other_code"
"""A swap to code the page names, but never a few words after "default"."""
ANOTHER = "another_default"
"""A swap to code the page gives as the default of something else."""


def _default_near(code: str) -> re.Pattern[str]:
    return re.compile(rf"\bdefault(?:s|ed)?\b[^.`]{{0,40}}`+\s*{re.escape(code)}\s*`+", re.I)


def _words(text: str) -> set[str]:
    return {w for w in "".join(c if c.isalnum() else " " for c in text.lower()).split()}


def page_cases(path: Path, where: str) -> list[Case]:
    """The cases of one page: each default sentence with its swap (see the module docstring)."""
    try:
        text = rendered_roles(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return []
    cases = []
    for start, end in prose_sentences(text):
        sentence = text[start:end]
        values = defaulted_values(sentence)
        if not values:
            continue
        bound = next(
            (m for m in INLINE_CODE.finditer(sentence) if m.group(1).strip() == values[0]), None
        )
        if bound is None:
            continue
        low, high = max(0, start - WINDOW), min(len(text), end + WINDOW)
        window = text[low:high]
        written = _words(sentence)
        nearest: dict[str, str] = {}  # per kind, the code nearest to the sentence
        for _, code in sorted(
            (
                start - (low + m.end()) if low + m.start() < start else low + m.start() - end,
                m.group(1).strip(),
            )
            for m in INLINE_CODE.finditer(window)
            if not (low + m.start() >= start and low + m.end() <= end)
            and m.group(1).strip()
            and not _words(m.group(1)) & written
        ):
            nearest.setdefault(ANOTHER if _default_near(code).search(window) else OTHER, code)
        code = bound.group()
        claim = " ".join(sentence.split())
        for kind, other in nearest.items():
            swapped = sentence[: bound.start()] + code.replace(values[0], other)
            swapped += sentence[bound.end() :]
            cases.append(
                (
                    kind,
                    f"{where}:{start}",
                    Check(claim, (window,)),
                    Check(" ".join(swapped.split()), (window,)),
                )
            )
    return cases


def folder_cases(folder: Path, name: str, most: int | None) -> list[Case]:
    """Up to `most` cases of one project's documentation, its pages in order."""
    cases: list[Case] = []
    for path in sorted(p for p in folder.rglob("*") if p.suffix in SUFFIXES and p.is_file()):
        cases += page_cases(path, f"{name}/{path.relative_to(folder)}")
        if most is not None and len(cases) >= most:
            return cases[:most]
    return cases


def split_cases(most: int) -> dict[str, list[Case]]:
    """The cases of each split, from the documentation fetched so far."""
    tuning: list[Case] = []
    for name, version in (*TUNED_DOCS, *FRESH_DOCS):
        folder = sdist_folder(name, version)
        if folder.is_dir():
            tuning += folder_cases(folder, name, most)
        else:
            print(f"skipped {name} {version}: not fetched ({folder})", file=sys.stderr)
    held_out: list[Case] = []
    httpx = DATA / "docs_httpx" / "docs"
    for folder, name in [(httpx, "httpx"), *((h.docs, h.name) for h in HELD_OUT)]:
        if folder.is_dir():
            held_out += folder_cases(folder, name, None)
        else:
            print(f"skipped {name}: not there ({folder})", file=sys.stderr)
    return {"tuning": tuning, "held_out": held_out}


async def measure(verifier: Verifier, cases: list[Case]) -> dict[str, Any]:
    """Per kind of swap: the shares of sentences passed as written and with the swap."""
    written = await verifier.verify([case[2] for case in cases])
    swapped = await verifier.verify([case[3] for case in cases])
    result: dict[str, Any] = {}
    for kind in (OTHER, ANOTHER):
        mine = [i for i, case in enumerate(cases) if case[0] == kind]
        if not mine:
            continue
        passed = [i for i in mine if swapped[i].label == "supported"]
        result[kind] = {
            "cases": len(mine),
            "written_passed": round(
                sum(written[i].label == "supported" for i in mine) / len(mine), 4
            ),
            "swapped_passed": round(len(passed) / len(mine), 4),
            "swapped_passed_examples": [f"{cases[i][1]}: {cases[i][3].claim}" for i in passed[:8]],
        }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--most", type=int, default=40, help="tuning sentences per project")
    args = parser.parse_args()
    splits = split_cases(args.most)
    names = ["lexical", *(["default"] if available() else [])]
    payload: dict[str, Any] = {"window": WINDOW, "most_per_tuning_project": args.most}
    for split, cases in splits.items():
        payload[split] = {"sentences": len({case[1] for case in cases})}
        for name in names:
            if cases:
                result = asyncio.run(measure(get_verifier(name), cases))
                payload[split]["trained" if name == "default" else name] = result
    print(write_result("default_swaps", payload))


if __name__ == "__main__":
    main()
