"""Repair over documentation claims: does it cite a source only where one states the claim?

    python -m benchmarks.repair_claims [--tuning]

Repair (`verify.review`) moves a citation whose source does not support its claim, or adds
one to an uncited claim, to another retrieved source that does. It searches every source
for each weak claim, so a verifier's false passes add up over the search: the best of
twenty near-misses is likelier to pass than one. Over the written documentation claims
(`docs_claims`: HTTPX, Click, cattrs; nobody tuned on them), every distinct passage of a
set is one retrieved source, read under the corpus's subject and its heading path as the
pipeline reads a chunk, and each claim is reviewed as a one-claim answer:

- **unsupported, cited**: a claim with one detail changed, citing its own passage. Repair
  should leave it unsupported; a citation it moves elsewhere is a *false repair* (unless
  the other passage does state it: each is listed for a reader to judge);
- **unsupported, uncited**: the same claim citing nothing; a citation added is a false
  repair. Added to its own passage, it is the verifier's own false pass on that passage
  (what `docs_claims` measures); added to another, the search's;
- **supported, mis-cited**: a supported paraphrase citing the passage of another section
  (the next distinct passage of the set). Repair should move it to its own passage:
  *recovered*; to a third one: *moved elsewhere*.

Per verifier (lexical, trained): the shares, and every false repair with its source.
`--tuning` reads the written tuning claims instead (Starlette, marshmallow, structlog,
Jinja, Werkzeug; the trained verifier was fitted on them, so its figures there flatter it).
Results: `benchmarks/results/repair_claims.json` (report sets only).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.common import write_result
from benchmarks.docs_claims import corpus_subject, load_claims
from benchmarks.held_out_docs import HELD_OUT
from benchmarks.sdist_docs import sdist_docs
from benchmarks.verifier_pairs import WRITTEN_CLAIMS, read_under, written_claims_file
from citesynth.evaluation.datafiles import data_dir
from citesynth.verify import LexicalVerifier, Verifier
from citesynth.verify.base import Passage
from citesynth.verify.crossencoder import available
from citesynth.verify.review import review

Claims = list[dict[str, Any]]


def pool(claims: Claims, subject: str) -> list[Passage]:
    """Each distinct passage of `claims` as a numbered source, in order of first use."""
    found: dict[str, Passage] = {}
    for claim in claims:
        if claim["passage"] not in found:
            found[claim["passage"]] = Passage(
                number=len(found) + 1,
                text=claim["passage"],
                document=str(claim.get("path") or len(found)),
                about=read_under(subject, claim),
            )
    return list(found.values())


def cited(claim: str, numbers: Sequence[int]) -> str:
    """`claim` as a one-sentence answer citing `numbers` (none: uncited)."""
    body = claim.rstrip().rstrip(".")
    return f"{body} [{','.join(map(str, numbers))}]." if numbers else f"{body}."


def other_passage(own: Passage, sources: Sequence[Passage]) -> Passage:
    """The next passage after `own` from another document, else simply the next one."""
    after = [*sources[own.number :], *sources[: own.number - 1]]
    return next((p for p in after if p.document != own.document), after[0])


async def measure(verifier: Verifier, claims: Claims, subject: str) -> dict[str, Any]:
    """The three cases of the module docstring for `claims` under `subject`."""
    sources = pool(claims, subject)
    by_text = {p.text: p for p in sources}
    false_repairs: list[dict[str, Any]] = []
    supported = [c for c in claims if c["label"] == "supported"]
    unsupported = [c for c in claims if c["label"] != "supported"]
    recovered = elsewhere = 0
    for claim in supported:
        own = by_text[claim["passage"]]
        wrong = other_passage(own, sources)
        result = await review(cited(claim["claim"], [wrong.number]), sources, verifier)
        after = result.repairs[0].after if result.repairs else ()
        recovered += after == (own.number,)
        elsewhere += bool(after) and after != (own.number,)
    for claim in unsupported:
        own = by_text[claim["passage"]]
        for case, numbers in (("cited", [own.number]), ("uncited", [])):
            result = await review(cited(claim["claim"], numbers), sources, verifier)
            if result.repairs:
                given = result.repairs[0].after
                false_repairs.append(
                    {
                        "case": case,
                        "own_passage": given == (own.number,),
                        "id": claim.get("id", ""),
                        "change": claim.get("change"),
                        "claim": claim["claim"],
                        "given": [p.text[:300] for p in _numbered(sources, given)],
                    }
                )
    uncited = [f for f in false_repairs if f["case"] == "uncited"]
    own_passage = sum(f["own_passage"] for f in uncited)
    return {
        "sources": len(sources),
        "false_repair_cited": _share(len(false_repairs) - len(uncited), len(unsupported)),
        "false_repair_uncited": _share(len(uncited), len(unsupported)),
        "false_repair_uncited_own_passage": _share(own_passage, len(unsupported)),
        "false_repair_uncited_other_passage": _share(len(uncited) - own_passage, len(unsupported)),
        "recovered": _share(recovered, len(supported)),
        "moved_elsewhere": _share(elsewhere, len(supported)),
        "unsupported_claims": len(unsupported),
        "supported_claims": len(supported),
        "false_repairs": false_repairs,
    }


def _share(hits: int, total: int) -> float | None:
    return round(hits / total, 4) if total else None


def _numbered(sources: Sequence[Passage], numbers: Sequence[int]) -> list[Passage]:
    return [p for p in sources if p.number in numbers]


def report_sets() -> dict[str, tuple[Claims, Path | None]]:
    """The report sets: HTTPX (when the shared data is there), Click, cattrs."""
    httpx_docs = data_dir() / "docs_httpx" / "docs"
    sets: dict[str, tuple[Claims, Path | None]] = {
        "httpx": (load_claims(), httpx_docs if httpx_docs.is_dir() else None)
    }
    for held_out in HELD_OUT:
        sets[held_out.name] = (load_claims(held_out.claims), held_out.fetch())
    return sets


def tuning_sets() -> dict[str, tuple[Claims, Path | None]]:
    """The written tuning claims, each over its project's documentation."""
    return {
        name: (load_claims(written_claims_file(name)), sdist_docs(name, version))
        for name, (_, version) in WRITTEN_CLAIMS.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tuning", action="store_true", help="the written tuning claims")
    args = parser.parse_args()
    verifiers: dict[str, Verifier] = {"lexical": LexicalVerifier()}
    if available():
        from citesynth.verify.trained import TrainedVerifier

        verifiers["trained"] = TrainedVerifier.load()
    payload: dict[str, Any] = {}
    for name, (claims, corpus) in (tuning_sets() if args.tuning else report_sets()).items():
        subject = asyncio.run(corpus_subject(corpus)) if corpus is not None else ""
        payload[name] = {"subject": subject}
        for label, verifier in verifiers.items():
            found = asyncio.run(measure(verifier, claims, subject))
            payload[name][label] = found
            shown = {k: v for k, v in found.items() if k != "false_repairs"}
            print(name, label, json.dumps(shown), flush=True)
    if not args.tuning:
        write_result("repair_claims", payload)
    else:
        print(json.dumps(payload, indent=2))


if __name__ == "__main__":
    main()
