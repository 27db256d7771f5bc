"""Compare claim verifiers' weights through the whole verifier, on tuning claims then report ones.

    python -m benchmarks.verifier_variants DIR [DIR ...]     # the shipped weights and each DIR

`train_crossencoder` reports its model on held-out tuning pairs, before the rules the
verifier adds (quotes, vetoes, `lexical_sure`). A decision between weights reads them as
answers do: each claim through `TrainedVerifier.verify_now`, in the same run for every
folder (`shipped` is the package's own weights).

- **Tuning** (what a decision may rest on): the held-out groups of WiCE `dev`, SciFact
  `train` and HaluEval `dev` (`calibrate_lexical_sure.tuning_claims`), the Developer Hub
  `dev` answer claims, and the held-out fifth of the written documentation claims
  (`verifier_pairs.written_claim_pairs`), each under its project's name and heading path.
  Their mean balanced accuracy is the figure to compare.
- **Report** (measured once the decision is made, never tuned on): WiCE `test`, SciFact
  `dev` pairs, HaluEval samples 250–499, and the HTTPX and Click documentation claims
  (`docs_claims`), each with balanced accuracy, the share of supported and unsupported
  claims passed, and the ROC AUC of the verdict's score (how often a supported claim
  outscores an unsupported one: discrimination apart from the threshold).

Results: `benchmarks/results/verifier_variants.json`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.calibrate_answerability import roc_auc
from benchmarks.calibrate_lexical_sure import tuning_claims
from benchmarks.common import require, write_result
from benchmarks.docs_claims import CLAIMS, corpus_subject, load_claims, pass_rates
from benchmarks.held_out_docs import HELD_OUT
from benchmarks.verifier_pairs import PROBES, holdout, probe_file, read_under, written_claims
from citesynth.evaluation.datafiles import data_dir
from citesynth.evaluation.verifier_data import SPLITS, load
from citesynth.verify import Check

Labelled = tuple[list[Check], list[bool]]


def written_held_out(probes: Sequence[str] = ()) -> Labelled:
    """The written documentation claims the docs stage held out (of the five projects and of
    the named probes), read as it reads them."""
    held = [
        (check, supported) for check, supported, group in written_claims(probes) if holdout(group)
    ]
    return [check for check, _ in held], [supported for _, supported in held]


def tuning_sets(probes: Sequence[str] = ()) -> dict[str, Labelled]:
    sets = {
        name: ([Check(c, p) for c, p, _ in claims], [bool(y) for _, _, y in claims])
        for name, claims in tuning_claims().items()
    }
    sets["docs-written"] = written_held_out(probes)
    return sets


def unseen_probes(names: Sequence[str]) -> dict[str, Labelled]:
    """Whole probes no compared weights trained on (`--unseen-probe`), one set each and one
    of them all: whether what a docs stage learns carries to projects it never read. The
    lexical checks were read off every probe, so these figures compare weights, and are no
    held-out measure of the verifier."""
    sets = {f"probe:{name}": written_set(probe_file(name), PROBES[name][0]) for name in names}
    if len(names) > 1:
        sets["probes-unseen"] = (
            [check for checks, _ in sets.values() for check in checks],
            [label for _, labels in sets.values() for label in labels],
        )
    return sets


def report_sets() -> dict[str, Labelled]:
    sets = {
        f"{name}/{report}": (
            [Check(e.claim, e.passages) for e in examples],
            [e.supported for e in examples],
        )
        for name, (_, report) in SPLITS.items()
        for examples in [load(name, report)]
    }
    httpx_docs = data_dir() / "docs_httpx" / "docs"
    for name, path, corpus in (
        ("httpx", CLAIMS, httpx_docs if httpx_docs.is_dir() else None),
        *((h.name, h.claims, h.docs if h.docs.is_dir() else None) for h in HELD_OUT),
    ):
        subject = asyncio.run(corpus_subject(corpus)) if corpus else name.capitalize()
        sets[name] = written_set(path, subject)
    return sets


def written_set(path: Path, subject: str) -> Labelled:
    """A file of written documentation claims, each against its passage read under the
    corpus's `subject` and its heading path, and whether it is supported."""
    claims = load_claims(path)
    return (
        [Check(c["claim"], (c["passage"],), read_under(subject, c)) for c in claims],
        [c["label"] == "supported" for c in claims],
    )


def measure(verifier: Any, checks: list[Check], labels: list[bool]) -> dict[str, Any]:
    """Balanced accuracy, pass rates and the ROC AUC of the verdicts' scores."""
    verdicts = verifier.verify_now(checks)
    tpr, fpr = pass_rates([v.label == "supported" for v in verdicts], labels)
    return {
        "claims": len(checks),
        "balanced_accuracy": round((tpr + 1 - fpr) / 2, 4),
        "supported_passed": round(tpr, 4),
        "unsupported_passed": round(fpr, 4),
        "roc_auc": roc_auc([(v.score, y) for v, y in zip(verdicts, labels, strict=True)]),
    }


def compare(
    folders: list[str], probes: Sequence[str] = (), unseen: Sequence[str] = ()
) -> dict[str, Any]:
    from citesynth.verify.crossencoder import CrossEncoder
    from citesynth.verify.trained import TrainedVerifier

    tuning, report = tuning_sets(probes), report_sets()
    roles = [("tuning", tuning), ("report", report)]
    if unseen:
        roles.insert(1, ("unseen probes", unseen_probes(unseen)))
    payload: dict[str, Any] = {}
    for folder in folders:
        model = CrossEncoder.load(folder=None if folder == "shipped" else Path(folder))
        verifier = TrainedVerifier(model)
        found: dict[str, Any] = {"trained_on": model.meta.trained_on}
        for role, sets in roles:
            figures = {name: measure(verifier, *labelled) for name, labelled in sets.items()}
            mean = sum(f["balanced_accuracy"] for f in figures.values()) / len(figures)
            found[role] = {"mean_balanced_accuracy": round(mean, 4), **figures}
        payload[folder] = found
        print(folder, json.dumps(found["tuning"]["mean_balanced_accuracy"]), flush=True)
    return payload


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", help="folders train_crossencoder --out wrote")
    parser.add_argument(
        "--probe",
        action="append",
        default=[],
        choices=sorted(PROBES),
        help="a probe the docs stage trained on: its held-out fifth joins the tuning claims",
    )
    parser.add_argument(
        "--unseen-probe",
        action="append",
        default=[],
        choices=sorted(PROBES),
        help="a probe no compared weights trained on, measured apart (`unseen_probes`)",
    )
    parser.add_argument(
        "--result", default="verifier_variants", help="the results file's name (no .json)"
    )
    args = parser.parse_args()
    require(data_dir())
    payload = compare(["shipped", *args.folders], args.probe, args.unseen_probe)
    print(json.dumps(payload, indent=2))
    write_result(args.result, payload)


if __name__ == "__main__":
    main()
