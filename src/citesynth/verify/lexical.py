"""The default verifier: lexical alignment weighed by a logistic model trained on real data.

`align.py` finds the claim's best supporting sentences and measures coverage and
disagreements; a logistic regression over those features (weights in `weights.json`,
trained by `benchmarks/train_verifier.py` on the WiCE dev split, SciFact train pairs and
the first half of HaluEval QA, never on a reporting split) turns them into a support
probability. Then:

- `supported`: probability ≥ the trained threshold, and the claim's numbers all occur in
  the evidence, and its best sentence agrees on negation and on increase/decrease (these
  must agree, whatever the vocabulary overlap says; missing proper names lower the score);
- `partial`: probability ≥ the partial threshold, or a supported score capped by a
  disagreement;
- `unsupported`: otherwise.

Words and numbers of the claim that only the passages' titles and headings hold
(`Check.about`) count as stated: a chunk seldom repeats what its section is about.

Offline, CPU only, no model weights beyond a few numbers: thousands of claims a second.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from citesynth.verify.align import Alignment, align
from citesynth.verify.analysed import LARGEST_REMEMBERED, Evidence, analyse, context_of
from citesynth.verify.base import Check, Label, Span, Verdict
from citesynth.verify.coverage import DECIDED_BY_ALIGN, FEATURES, cover
from citesynth.verify.evidence import quoted_whole


@dataclass(frozen=True, slots=True)
class Weights:
    """A logistic model over the alignment features, with its decision thresholds."""

    bias: float
    weights: Mapping[str, float]
    mean: Mapping[str, float]
    scale: Mapping[str, float]
    supported: float
    partial: float
    trained_on: str = ""

    @classmethod
    def load(cls, text: str | None = None) -> Weights:
        """The shipped weights, or weights from a JSON text."""
        if text is None:
            text = resources.files("citesynth.verify").joinpath("weights.json").read_text()
        data = json.loads(text)
        return cls(
            bias=float(data["bias"]),
            weights={k: float(v) for k, v in data["weights"].items()},
            mean={k: float(v) for k, v in data["mean"].items()},
            scale={k: float(v) for k, v in data["scale"].items()},
            supported=float(data["supported"]),
            partial=float(data["partial"]),
            trained_on=str(data.get("trained_on", "")),
        )

    def probability(self, features: Mapping[str, float]) -> float:
        """The support probability for one claim's features."""
        z = self.bias + sum(
            self.weights[name] * (features[name] - self.mean[name]) / self.scale[name]
            for name in FEATURES
            if name in self.weights
        )
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


class LexicalVerifier:
    """Alignment features and trained weights; the default verifier."""

    name = "lexical"

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights or Weights.load()

    async def verify(self, checks: Sequence[Check]) -> list[Verdict]:
        """One verdict per check (see the module docstring)."""
        return self.verify_now(checks)

    def verify_now(self, checks: Sequence[Check]) -> list[Verdict]:
        """The same, synchronously (it does no I/O)."""
        return [verdict for verdict, _ in self.aligned(checks)]

    def aligned(self, checks: Sequence[Check]) -> list[tuple[Verdict, Alignment | None]]:
        """Each check's verdict with the alignment behind it (None: nothing to compare).

        A check is read against its own passages only, in its own order, so its verdict
        does not depend on the checks verified with it (`remembered_alignment`).
        """
        verdicts: list[tuple[Verdict, Alignment | None]] = []
        for check in checks:
            if _nothing_to_compare(check):
                verdicts.append(
                    (Verdict(0.0, "unsupported", reasons=("nothing to compare",)), None)
                )
                continue
            first: dict[str, int] = {}  # each distinct passage at its first place
            for place, passage in enumerate(check.passages):
                first.setdefault(passage, place)
            local = dict(enumerate(first.values()))
            own = tuple(first)
            if sum(map(len, own)) > LARGEST_REMEMBERED:  # a whole page: not kept in memory
                alignment = align(check.claim, analyse(own), context=context_of(check.about))
            else:
                alignment = remembered_alignment(check.claim, own, check.about)
            verdict = self.judge(alignment, local)
            if verdict.label != "supported" and quoted_whole(check.claim, check.passages):
                verdict = Verdict(1.0, "supported", verdict.spans, ())  # quoted word for word
            verdicts.append((verdict, alignment))
        return verdicts

    def could_support(self, check: Check) -> bool:
        """Whether `check` could be judged partial or better, read only for its coverage.

        Coverage (`coverage.cover`) sets every feature the weights read but whether negation
        differs, so the score with that feature either way bounds the check's score; what
        disagrees only lowers a verdict. A claim quoting a comment of code is supported
        whatever its score. Repair reads each weak claim against every retrieved source,
        most of which share almost nothing with it: those need no reading of what disagrees.
        """
        if _nothing_to_compare(check):
            return False
        evidence = _evidence_of(tuple(dict.fromkeys(check.passages)))
        features = cover(check.claim, evidence, context_of(check.about)).features
        highest = max(
            self.weights.probability({**features, DECIDED_BY_ALIGN: value}) for value in (0.0, 1.0)
        )
        floor = min(self.weights.supported, self.weights.partial)
        return highest >= floor or quoted_whole(check.claim, check.passages)

    def judge(self, alignment: Alignment, local: Mapping[int, int]) -> Verdict:
        """The verdict for one alignment; `local` maps evidence passage indexes to the check's."""
        probability = self.weights.probability(alignment.features)
        hard = alignment.disagrees
        label: Label
        if probability >= self.weights.supported and not hard:
            label = "supported"
        elif probability >= self.weights.partial or probability >= self.weights.supported:
            label = "partial"
        else:
            label = "unsupported"
        spans = tuple(Span(local[s.passage], s.start, s.end) for s in alignment.best)
        reasons = alignment.reasons
        if label != "supported" and alignment.missing_terms:
            shown = ", ".join((alignment.missing_words or alignment.missing_terms)[:6])
            reasons = (*reasons, f"terms not found in the source: {shown}")
        return Verdict(round(probability, 4), label, spans, reasons)


_REMEMBERED = 1024
"""Alignments remembered (each a claim against its passages, kept with them): an answer's
review reads about sixty, so a dozen answers' worth, a few megabytes of chunk-sized text."""


@lru_cache(maxsize=_REMEMBERED)
def remembered_alignment(claim: str, passages: tuple[str, ...], about: str) -> Alignment:
    """`claim` aligned with `passages` (distinct, in its check's order) under `about`.

    Remembered: reviewing an answer aligns a claim with the same sources several times
    (its verdict, the denials read for a supported claim, repair's reading of every
    source, the verdict again after repair), and the trained verifier reads the same
    alignments for its blend. Alignment is a pure function of these three.
    """
    return align(claim, _evidence(passages), context=context_of(about))


@lru_cache(maxsize=_REMEMBERED // 4)
def _evidence(passages: tuple[str, ...]) -> Evidence:
    """`passages` split and analysed, remembered.

    An answer's claims cite the same sources; a long answer's hundreds of claims would
    each analyse them again.
    """
    return analyse(passages)


def _evidence_of(passages: tuple[str, ...]) -> Evidence:
    """`passages` analysed: remembered (`_evidence`) unless they make a whole page."""
    if sum(map(len, passages)) > LARGEST_REMEMBERED:
        return analyse(passages)
    return _evidence(passages)


def _nothing_to_compare(check: Check) -> bool:
    return not check.claim.strip() or not any(p.strip() for p in check.passages)


def forget_alignments() -> None:
    """Forget every remembered alignment and analysed set of passages.

    A measurement of the work an answer costs starts cold.
    """
    remembered_alignment.cache_clear()
    _evidence.cache_clear()
