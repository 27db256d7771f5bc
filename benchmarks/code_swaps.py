"""Code swapped for the page's other code: does each verifier pass the changed sentence?

    python -m benchmarks.code_swaps [--most-defaults 40] [--most-code 20]

The embedded model answered towncrier's "Which option lets me choose the branch to compare
with?" with "The default branch to compare with is `REMOTE-BRANCH`" (2026-12-05): the
option's placeholder, where the page says "By default, ``towncrier`` compares the current
branch against ``origin/main``", and Pyramid's docs with "Setting
`pyramid.reload_templates` to `True` affects performance dramatically", which the page says
of ``pyramid.reload_assets``. The verifiers passed both: every word is on the page. The
issue names the kinds, "a swapped default" and "right words in the wrong relation".

From the prose sentences of documentation (`ingest.sentences.prose_sentences`), each
checked against a window of its page (600 characters either side), as written (it should
pass) and with one piece of its inline code replaced by code of the window the sentence
does not write (it should not):

- `default_other_code`: a sentence binding code to the word "default"
  (`verify.defaults.defaulted_values`: "defaults to ``1``", "By default, … against
  ``origin/main``"), its default replaced by the nearest code the page never writes a few
  words after "default" (the placeholder `REMOTE-BRANCH` above);
- `default_another`: the same sentences, their default replaced by the nearest code the
  page gives as the default of something else (Black's "`g:black_fast` (defaults to `0`)"
  made "(defaults to `88`)", the line length's default two lines below);
- `named_code`: any other sentence of six words or more naming code (not a literal such as
  `True` or `5`), its first name replaced by the nearest code of the window.
- `named_code_plain`: those of `named_code` whose new code is an identifier (dotted,
  snake_case or CamelCase: `PoolManager`, `reload_templates`), with every backtick of
  the sentence dropped, as written and swapped: a model often writes code so
  ("a maximum of 10 PoolManager instances").

Two splits of documentation:

- `tuning`: the documentation the written question sets were read on
  (`eval_suite.TUNED_DOCS`, `eval_suite.FRESH_DOCS`), at most `--most-defaults` default
  sentences and `--most-code` other sentences a project, its pages in order;
- `held_out`: the HTTPX documentation (`../shared/data/docs_httpx`), Click 8.1.7's and
  cattrs 25.1.1's (`benchmarks.held_out_docs`), which nothing here is tuned on, and build
  1.6.1's and griffe 2.4.1's (`UNSEEN`), fetched after the vetoes were built; all of
  their sentences.

Reported per verifier (`lexical`, and `trained` when `citesynth[embed]` is installed) and
kind: the share of sentences passed as written, and of changed ones passed as
`supported` (lower is better). Sdists not yet fetched (`benchmarks.sdist_docs`) are
skipped with a message. Results: `benchmarks/results/code_swaps.json`.
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
"""(kind, where, the sentence as written, the sentence with its code swapped)."""
OTHER = "default_other_code"
"""A default swapped for code the page names, but never a few words after "default"."""
ANOTHER = "default_another"
"""A default swapped for code the page gives as the default of something else."""
NAMED = "named_code"
"""Any other sentence's first name swapped for the nearest code."""
PLAIN = "named_code_plain"
"""`NAMED` cases whose new code is an identifier, every backtick dropped."""
KINDS = (OTHER, ANOTHER, NAMED, PLAIN)
_IDENTIFIER = re.compile(r"[A-Za-z_][\w.]*(?:\(\))?")
_CODE_LIKE = re.compile(r"[A-Z].*[a-z]|_|\.")
_BACKTICKED = re.compile(r"`+([^`\s][^`]*?)`+(?!_)")
_LITERAL = re.compile(r"""(?:true|false|none|null|[-+]?\d[\w.]*|'.*'|".*")""", re.I)


def _default_near(code: str) -> re.Pattern[str]:
    return re.compile(rf"\bdefault(?:s|ed)?\b[^.`]{{0,40}}`+\s*{re.escape(code)}\s*`+", re.I)


def _words(text: str) -> set[str]:
    return {w for w in "".join(c if c.isalnum() else " " for c in text.lower()).split()}


def _swapped(sentence: str, found: re.Match[str], other: str) -> str:
    code = found.group()
    changed = sentence[: found.start()] + code.replace(found.group(1).strip(), other)
    return " ".join((changed + sentence[found.end() :]).split())


def _nearest(text: str, start: int, end: int) -> list[str]:
    """The code of the window around text[start:end] that the sentence does not write,
    nearest first."""
    low, high = max(0, start - WINDOW), min(len(text), end + WINDOW)
    written = _words(text[start:end])
    found = sorted(
        (start - m.end() if m.start() < start else m.start() - end, m.group(1).strip())
        for m in INLINE_CODE.finditer(text, low, high)
        if not (m.start() >= start and m.end() <= end)
        and m.group(1).strip()
        and not _words(m.group(1)) & written
    )
    return [code for _, code in found]


def page_cases(path: Path, where: str) -> list[Case]:
    """The cases of one page (see the module docstring)."""
    try:
        text = rendered_roles(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return []
    cases = []
    for start, end in prose_sentences(text):
        sentence = text[start:end]
        nearest = _nearest(text, start, end)
        if not nearest:
            continue
        window = text[max(0, start - WINDOW) : min(len(text), end + WINDOW)]
        values = defaulted_values(sentence)
        spans = list(INLINE_CODE.finditer(sentence))
        swaps: dict[str, tuple[re.Match[str], str]] = {}
        if values:
            bound = next((m for m in spans if m.group(1).strip() == values[0]), None)
            for code in nearest if bound is not None else ():
                kind = ANOTHER if _default_near(code).search(window) else OTHER
                swaps.setdefault(kind, (bound, code))  # type: ignore[arg-type]
        elif len(sentence.split()) >= 6:
            named = next((m for m in spans if not _LITERAL.fullmatch(m.group(1).strip())), None)
            if named is not None:
                swaps[NAMED] = (named, nearest[0])
        claim = " ".join(sentence.split())
        for kind, (found, other) in swaps.items():
            changed = _swapped(sentence, found, other)
            cases.append(
                (kind, f"{where}:{start}", Check(claim, (window,)), Check(changed, (window,)))
            )
            if kind == NAMED and _IDENTIFIER.fullmatch(other) and _CODE_LIKE.search(other[1:]):
                plain, swapped = (_BACKTICKED.sub(r"\1", text) for text in (claim, changed))
                cases.append(
                    (PLAIN, f"{where}:{start}", Check(plain, (window,)), Check(swapped, (window,)))
                )
    return cases


def folder_cases(folder: Path, name: str, most: dict[str, int] | None) -> list[Case]:
    """The cases of one project's documentation, its pages in order, up to `most` a kind."""
    cases: list[Case] = []
    for path in sorted(p for p in folder.rglob("*") if p.suffix in SUFFIXES and p.is_file()):
        cases += page_cases(path, f"{name}/{path.relative_to(folder)}")
    if most is None:
        return cases
    chosen = {kind: [c for c in cases if c[0] == kind][: most[kind]] for kind in most}
    named = {case[1] for case in chosen[NAMED]}  # the plain ones of the named ones kept
    chosen[PLAIN] = [case for case in cases if case[0] == PLAIN and case[1] in named]
    return [case for kind in KINDS for case in chosen[kind]]


UNSEEN = ("build", "griffe")
"""Projects of `FRESH_DOCS` whose documentation was fetched after the vetoes these swaps
measure were built (2026-12-05), so held out from them."""


def split_cases(most: dict[str, int]) -> dict[str, list[Case]]:
    """The cases of each split, from the documentation fetched so far."""
    tuning: list[Case] = []
    held_out: list[Case] = []
    for name, version in (*TUNED_DOCS, *FRESH_DOCS):
        folder = sdist_folder(name, version)
        if not folder.is_dir():
            print(f"skipped {name} {version}: not fetched ({folder})", file=sys.stderr)
        elif name in UNSEEN:
            held_out += folder_cases(folder, name, None)
        else:
            tuning += folder_cases(folder, name, most)
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
    for kind in KINDS:
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
    parser.add_argument("--most-defaults", type=int, default=40, help="a tuning project's")
    parser.add_argument("--most-code", type=int, default=20, help="a tuning project's")
    args = parser.parse_args()
    most = {OTHER: args.most_defaults, ANOTHER: args.most_defaults, NAMED: args.most_code}
    splits = split_cases(most)
    names = ["lexical", *(["default"] if available() else [])]
    payload: dict[str, Any] = {"window": WINDOW, "most_per_tuning_project": most}
    for split, cases in splits.items():
        payload[split] = {"sentences": len({case[1] for case in cases})}
        for name in names:
            if cases:
                result = asyncio.run(measure(get_verifier(name), cases))
                payload[split]["trained" if name == "default" else name] = result
    print(write_result("code_swaps", payload))


if __name__ == "__main__":
    main()
