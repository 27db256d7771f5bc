"""Labelled claims over documentation nobody tuned on: does each verifier tell them apart?

    python -m benchmarks.docs_claims [--weights DIR] [--probes]

`tests/fixtures/httpx_claims.jsonl` holds 80 claims written for this project against
passages of the HTTPX documentation (`../shared/data/docs_httpx`), each with the heading
path of its section: 40 paraphrases the passage supports and 40 on-topic claims it does
not (a number or default changed, negation added or removed, names swapped, an antonym,
words in the wrong relation, or something the passage never says); some name what only
the heading states ("The default timeout is five seconds" under "Timeouts", beside
"The default is 5 seconds"). No verifier, threshold or recipe was fitted on them.

Reported per verifier: balanced accuracy ("supported" as the positive class), the share
of supported claims passed and of unsupported ones passed per kind of change, and on the
claims that need their heading. The verifiers read the passage with its heading path
(`Check.about`), as the answer pipeline gives them a chunk with its title and headings;
`alone` repeats the measure on the passage alone (as before headings were read).

A second, larger documentation set (`rhdh_test`, when `../shared/data` is there): the
sentences of the reference answers of the Red Hat Developer Hub *test* questions (written
by a model from the question's reference context, so supported paraphrases of
documentation) against that context, and against the context of another test question on
the same guide (unsupported, unless it holds 80 % of the claim's content terms); the
recipe's `docs_claim_pairs`, which `--docs-claims` trains on for the tuning split.
A third set (`click`), written the same way over another kind of documentation: 40 claims
against passages of the Click 8.1.7 reStructuredText docs (`tests/fixtures/click_claims.jsonl`,
written by a helper that saw none of the pipeline; 20 supported paraphrases, 20 with one
detail changed, an "addition" being something the passage never says); the passages are
in the file, so it needs no download. A fourth (`cattrs`, 2026-11-28), written the same
way over the cattrs 25.1.1 MyST Markdown docs: 40 claims over 20 passages
(`tests/fixtures/cattrs_claims.jsonl`; `benchmarks.held_out_docs`).

Each set is read as the answer pipeline reads its sources: under what its whole corpus is
about (`Engine.subjects`, found on a throwaway index of the corpus: "HTTPX", "Click",
"Red Hat Developer Hub", "cattrs"), then the heading path. `*_without_subject` repeats the measure
without the corpus's subject (as before 2026-11-27).
Results: `benchmarks/results/docs_claims.json`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT, write_result
from benchmarks.held_out_docs import HELD_OUT
from benchmarks.verifier_pairs import PROBES, docs_claim_pairs, probe_file, read_under
from citesynth import Engine, Settings
from citesynth.evaluation.datafiles import data_dir
from citesynth.verify import Check, LexicalVerifier, Verifier
from citesynth.verify.crossencoder import available

CLAIMS = ROOT / "tests" / "fixtures" / "httpx_claims.jsonl"


def load_claims(path: Path = CLAIMS) -> list[dict[str, Any]]:
    """The labelled claims, one object per line."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def pass_rates(passed: list[bool], supported: list[bool]) -> tuple[float, float]:
    """The share of the supported claims passed and of the unsupported ones passed."""
    right = [p for p, s in zip(passed, supported, strict=True) if s]
    wrong = [p for p, s in zip(passed, supported, strict=True) if not s]
    return sum(right) / max(len(right), 1), sum(wrong) / max(len(wrong), 1)


def _share(hits: list[bool]) -> float | None:
    return round(sum(hits) / len(hits), 4) if hits else None


async def measure(
    verifier: Verifier,
    claims: list[dict[str, Any]],
    *,
    headings: bool = True,
    subject: str = "",
) -> Any:
    """Balanced accuracy and pass rates of `verifier` on `claims` (with their headings,
    under the corpus's `subject`)."""
    checks = [
        Check(c["claim"], (c["passage"],), read_under(subject, c) if headings else "")
        for c in claims
    ]
    passed = [v.supported for v in await verifier.verify(checks)]
    tpr, fpr = pass_rates(passed, [c["label"] == "supported" for c in claims])
    kinds = Counter(c["change"] for c in claims if c["change"])
    heading = [
        (p, c["label"] == "supported")
        for p, c in zip(passed, claims, strict=True)
        if c.get("needs_heading")
    ]
    return {
        "balanced_accuracy": round((tpr + 1 - fpr) / 2, 4),
        "supported_passed": round(tpr, 4),
        "unsupported_passed": round(fpr, 4),
        "unsupported_passed_by_change": {
            kind: _share([p for p, c in zip(passed, claims, strict=True) if c["change"] == kind])
            for kind in sorted(kinds)
        },
        "needs_heading": {
            "supported_passed": _share([p for p, s in heading if s]),
            "unsupported_passed": _share([p for p, s in heading if not s]),
        },
    }


def rhdh_claims(split: str = "test") -> list[dict[str, Any]]:
    """The Developer Hub reference-answer claims of `split`, each against its whole passage
    (see the module docstring)."""
    return [
        {
            "claim": pair["text"],
            "passage": pair["evidence"],
            "label": "supported" if pair["label"] else "unsupported",
            "change": "",
        }
        for pair in docs_claim_pairs(data_dir(), lambda _, passages: "\n\n".join(passages), split)
    ]


async def corpus_subject(corpus: Path) -> str:
    """What the pipeline tells the verifiers `corpus` is about (`Engine.subjects`).

    Found on a throwaway index of it (hashing embedder: no model is needed for it).
    """
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(index_dir=Path(folder), embedder="hashing", model="extractive")
        async with await Engine.open(settings=settings, indexing=True) as engine:
            await engine.index([corpus])
            return " ".join(await engine.subjects())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=Path, help="a folder train_crossencoder --out wrote")
    parser.add_argument("--probes", action="store_true", help="the tuning probes (`PROBES`)")
    args = parser.parse_args()
    if args.probes:
        probes = {
            name: (load_claims(probe_file(name)), subject) for name, (subject, _) in PROBES.items()
        }
        report("docs_claims_probes", probes, args.weights)
        return
    httpx_docs = data_dir() / "docs_httpx" / "docs"
    rhdh = rhdh_claims() if (data_dir() / "docs_rhdh").is_dir() else []
    if not rhdh:
        print("docs_rhdh not found under the shared data: the rhdh_test set is skipped")
    sets: dict[str, tuple[list[dict[str, Any]], str]] = {
        "httpx": (
            load_claims(),
            asyncio.run(corpus_subject(httpx_docs)) if httpx_docs.is_dir() else "",
        ),
    }
    for held_out in HELD_OUT:  # Click, cattrs
        sets[held_out.name] = (
            load_claims(held_out.claims),
            asyncio.run(corpus_subject(held_out.fetch())),
        )
    if rhdh:
        corpus = data_dir() / "docs_rhdh" / "corpus.jsonl"
        sets["rhdh_test"] = (rhdh, asyncio.run(corpus_subject(corpus)))
    report("docs_claims", sets, args.weights)


def report(
    name: str, sets: dict[str, tuple[list[dict[str, Any]], str]], weights: Path | None
) -> None:
    """Each verifier's figures on each set of claims (read under its subject), printed and,
    for the shipped weights, written to `results/NAME.json`."""
    verifiers: dict[str, Verifier] = {"lexical": LexicalVerifier()}
    payload: dict[str, Any] = {}
    if available():
        from citesynth.verify.crossencoder import CrossEncoder
        from citesynth.verify.trained import TrainedVerifier

        verifiers["trained"] = TrainedVerifier(CrossEncoder.load(folder=weights))
        payload["trained_on"] = verifiers["trained"].model.meta.trained_on  # type: ignore[attr-defined]
    for set_name, (claims, subject) in sets.items():
        found: dict[str, Any] = {
            "claims": len(claims),
            "labels": dict(Counter(c["label"] for c in claims)),
            "changes": dict(Counter(c["change"] for c in claims if c["change"])),
            "needs_heading": sum(bool(c.get("needs_heading")) for c in claims),
            "subject": subject,
        }
        for label, verifier in verifiers.items():
            found[label] = asyncio.run(measure(verifier, claims, subject=subject))
            found[f"{label}_without_subject"] = asyncio.run(measure(verifier, claims))
            found[f"{label}_alone"] = asyncio.run(measure(verifier, claims, headings=False))
        payload[set_name] = found
    print(json.dumps(payload, indent=2))
    if weights is None:
        write_result(name, payload)


if __name__ == "__main__":
    main()
