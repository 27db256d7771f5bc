"""Repair over documentation claims: does it cite a source only where one states the claim?

    python -m benchmarks.repair_claims [--tuning [--probe NAME ...]] [--weights DIR [--fit-bar]]

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
Jinja, Werkzeug; the trained verifier was fitted on them, so its figures there flatter it),
and with `--probe NAME` a probe's claims (`verifier_pairs.PROBES`). `--weights DIR` reads
with the weights `train_crossencoder` wrote in DIR too, beside the shipped ones; when they
had a docs stage (`train_crossencoder --probe`), every verifier is measured, on a set that
stage trained on, only on the passages it held out (`verifier_pairs.holdout`), all of each
set's passages still being sources.
Each repair keeps the verdict score of the source it chose (`score`, and `scores` for the
recoveries), so a stricter bar for sources repair adds can be read off the tuning sets:
`--tuning --weights DIR --fit-bar` fits it (`fitted_bar`) and writes it to DIR's
`crossencoder.json` as `repair_threshold`.
Results: `benchmarks/results/repair_claims.json` (report sets, shipped weights only).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.calibrate_lexical_sure import docs_stage_probes
from benchmarks.common import write_result
from benchmarks.docs_claims import corpus_subject, load_claims
from benchmarks.held_out_docs import HELD_OUT
from benchmarks.verifier_pairs import (
    PROBES,
    WRITTEN_CLAIMS,
    holdout,
    read_under,
    written_files,
    written_group,
)
from citesynth.errors import ConfigError
from citesynth.evaluation.datafiles import data_dir
from citesynth.verify import LexicalVerifier, Verifier
from citesynth.verify.base import Passage, check_of
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


async def measure(
    verifier: Verifier, claims: Claims, subject: str, read: Claims | None = None
) -> dict[str, Any]:
    """The three cases of the module docstring for the claims of `read` (default: all of
    `claims`), every passage of `claims` a source, under `subject`."""
    sources = pool(claims, subject)
    claims = claims if read is None else read
    by_text = {p.text: p for p in sources}
    false_repairs: list[dict[str, Any]] = []
    supported = [c for c in claims if c["label"] == "supported"]
    unsupported = [c for c in claims if c["label"] != "supported"]
    recovered: list[float] = []
    elsewhere = 0
    for claim in supported:
        own = by_text[claim["passage"]]
        wrong = other_passage(own, sources)
        result = await review(cited(claim["claim"], [wrong.number]), sources, verifier)
        after = result.repairs[0].after if result.repairs else ()
        if after == (own.number,):
            recovered.append(await _score(verifier, claim["claim"], [own]))
        elsewhere += bool(after) and after != (own.number,)
    for claim in unsupported:
        own = by_text[claim["passage"]]
        for case, numbers in (("cited", [own.number]), ("uncited", [])):
            result = await review(cited(claim["claim"], numbers), sources, verifier)
            if result.repairs:
                given = result.repairs[0].after
                chosen = _numbered(sources, given)
                false_repairs.append(
                    {
                        "case": case,
                        "own_passage": given == (own.number,),
                        "id": claim.get("id", ""),
                        "change": claim.get("change"),
                        "claim": claim["claim"],
                        "score": await _score(verifier, claim["claim"], chosen),
                        "given": [p.text[:300] for p in chosen],
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
        "recovered": _share(len(recovered), len(supported)),
        "moved_elsewhere": _share(elsewhere, len(supported)),
        "unsupported_claims": len(unsupported),
        "supported_claims": len(supported),
        "false_repairs": false_repairs,
        "scores": sorted(recovered),
    }


async def _score(verifier: Verifier, claim: str, sources: Sequence[Passage]) -> float:
    """The verdict score of `claim` against `sources` together (what repair chose by)."""
    (verdict,) = await verifier.verify([check_of(claim, sources)])
    return round(verdict.score, 4)


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


def tuning_sets(probes: Sequence[str] = ()) -> dict[str, tuple[Claims, str]]:
    """The written tuning claims and those of the named probes, each with the subject the
    pipeline reads its project's chunks under (`verifier_pairs.WRITTEN_CLAIMS`, `PROBES`)."""
    return {name: (load_claims(path), subject) for name, subject, path in written_files(probes)}


def held_out_of(name: str, claims: Claims, learnt: Sequence[str] | None) -> Claims | None:
    """The claims of set `name` weights may be measured on: all of them (None) unless the
    weights' docs stage trained on the set (`learnt`), then those of the passages it held out."""
    if learnt is None or (name not in WRITTEN_CLAIMS and name not in learnt):
        return None
    return [c for c in claims if holdout(written_group(name, c["passage"]))]


FALSE_REPAIR_COST = 3
"""Missed recoveries one false repair is worth when fitting the bar: a false repair shows a
claim no source states as verified (what users must be able to trust), a missed recovery
only leaves a true claim flagged for them to check."""


def fitted_bar(found: Sequence[dict[str, Any]], threshold: float) -> tuple[float, int, int]:
    """The score a source repair adds should reach, from a verifier's results on the tuning
    sets (`measure`): of the bars from `threshold` up, in hundredths, the lowest with the
    most recoveries less `FALSE_REPAIR_COST` times the false repairs to *another* passage
    (the search's own errors; one to the claim's own passage is the verdict's, whatever
    the bar); with the recoveries and false repairs it keeps."""
    recovered = [score for result in found for score in result["scores"]]
    false = [
        f["score"] for result in found for f in result["false_repairs"] if not f["own_passage"]
    ]

    def kept(bar: float) -> tuple[int, int]:
        return sum(s >= bar for s in recovered), sum(s >= bar for s in false)

    bars = [round(threshold + step / 100, 2) for step in range(0, 51)]
    value = {bar: kept(bar)[0] - FALSE_REPAIR_COST * kept(bar)[1] for bar in bars}
    best = max(bars, key=lambda bar: (value[bar], -bar))
    return (best, *kept(best))


def chosen_verifiers(weights: Path | None, *, fit_bar: bool = False) -> dict[str, Verifier]:
    """The verifiers measured: lexical, the shipped trained one when installed, and the one
    over `weights` beside it (with no bar of its own when `fit_bar`: the bar is fitted on
    what repair would add without one).

    Raises:
        ConfigError: `weights` holds no weights, or the trained verifier is not installed.
    """
    verifiers: dict[str, Verifier] = {"lexical": LexicalVerifier()}
    if not available():
        if weights is not None:
            raise ConfigError("--weights needs the trained verifier (the embed extra)")
        return verifiers
    from citesynth.verify.trained import TrainedVerifier

    verifiers["trained"] = TrainedVerifier.load()
    if weights is not None:  # measured beside the shipped ones, on the same claims
        other = TrainedVerifier.load(weights)
        if fit_bar:
            other.repair_threshold = None
        verifiers[str(weights)] = other
    return verifiers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tuning", action="store_true", help="the written tuning claims")
    parser.add_argument("--probe", action="append", default=[], choices=sorted(PROBES))
    parser.add_argument("--weights", type=Path, help="a folder train_crossencoder --out wrote")
    parser.add_argument(
        "--fit-bar",
        action="store_true",
        help="fit the bar for sources repair adds on the tuning sets and write it to "
        "--weights' crossencoder.json as repair_threshold",
    )
    args = parser.parse_args()
    if args.probe and not args.tuning:
        parser.error("--probe reads tuning claims: give --tuning too")
    if args.fit_bar and (args.weights is None or not args.tuning):
        parser.error("--fit-bar fits on the tuning sets for --weights: give --tuning and --weights")
    try:
        verifiers = chosen_verifiers(args.weights, fit_bar=args.fit_bar)
    except ConfigError as error:  # the message a user gets for `--verifier trained:DIR`
        parser.error(str(error))
    learnt = docs_stage_probes(args.weights) if args.weights is not None else None
    if args.tuning:
        sets = tuning_sets(args.probe)
    else:
        sets = {
            name: (claims, asyncio.run(corpus_subject(corpus)) if corpus is not None else "")
            for name, (claims, corpus) in report_sets().items()
        }
    payload: dict[str, Any] = {}
    for name, (claims, subject) in sets.items():
        payload[name] = {"subject": subject}
        read = held_out_of(name, claims, learnt) if args.tuning else None
        for label, verifier in verifiers.items():
            found = asyncio.run(measure(verifier, claims, subject, read))
            payload[name][label] = found
            shown = {k: v for k, v in found.items() if k != "false_repairs"}
            print(name, label, json.dumps(shown), flush=True)
    if not args.tuning and args.weights is None:
        write_result("repair_claims", payload)
    else:
        print(json.dumps(payload, indent=2))
    if args.fit_bar:
        meta = args.weights / "crossencoder.json"
        data = json.loads(meta.read_text())
        bar, recovered, false = fitted_bar(
            [found[str(args.weights)] for found in payload.values()], float(data["threshold"])
        )
        data["repair_threshold"] = bar
        meta.write_text(json.dumps(data, indent=2) + "\n")
        print(f"repair_threshold {bar} (keeps {recovered} recoveries, {false} false repairs)")


if __name__ == "__main__":
    main()
