"""One confidence per answer, from signals anyone can check, calibrated on dev data.

    z = bias + w_retrieval · retrieval + w_cited · cited + w_support · support
        + w_documents · documents + w_conflict · conflict + w_invalid · invalid
        + w_coverage · coverage
    confidence = 1 / (1 + e^-z)

| signal      | what it is                                                                 |
|-------------|----------------------------------------------------------------------------|
| retrieval   | mean Pass-1 confidence of the cited sources                                |
| cited       | share of claims that cite a source                                         |
| support     | mean verified support score of the claims (an uncited claim scores 0)      |
| documents   | mean over claims of min(independent supporting documents, 2) / 2           |
| conflict    | 1 when the cited sources disagree somewhere (see `conflicts.py`), else 0   |
| invalid     | share of the writer's citation markers that named no source                |
| coverage    | share of the question's content terms the answer's text states             |

Coverage is the one signal that reads the answer against the question: every other one
says how well the answer is backed, none whether it is about what was asked. With the
extractive writer every claim is a verified sentence of a source, so support is near 1 on
right and wrong answers alike, and retrieval strength alone told right from wrong worse
than chance on most held-out runs (docs/verification.md, "Confidence").

The weights (`confidence.json`) are a logistic regression of answer correctness on these
signals, fitted by `benchmarks/calibrate_answers.py` on the written answers of the tuning
runs of `benchmarks.eval_suite` (`tune-*`: ClapNQ, Developer Hub and MultiHop-RAG dev
questions and three documentation sets' how-to questions; the extractive writer and the
embedded model), each run weighing the same; the same command reports the expected
calibration error of every other run, rescored from the signals its records keep.
Below `low_confidence_below` (0.5) the answer is flagged `low_confidence` with a disclaimer.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources

from citesynth.analysis import content_terms, coverage, terms
from citesynth.verify.claims import plain

SIGNALS = ("retrieval", "cited", "support", "documents", "conflict", "invalid", "coverage")


@dataclass(frozen=True, slots=True)
class Signals:
    """The verifiable signals behind an answer's confidence, each in 0..1."""

    retrieval: float
    cited: float
    support: float
    documents: float
    conflict: float
    invalid: float
    coverage: float

    def as_dict(self) -> dict[str, float]:
        """The signals by name."""
        return asdict(self)


def question_coverage(question: str, answer: str) -> float:
    """The `coverage` signal: the share of the question's content terms the answer states.

    The answer's text is read without its citation markers; a question of function words
    only gets 0.
    """
    return coverage(content_terms(question), terms(plain(answer)))


@cache
def shipped_weights() -> Mapping[str, float]:
    """The fitted weights shipped in `confidence.json`, by name (with `bias`)."""
    text = resources.files("citesynth.verify").joinpath("confidence.json").read_text()
    data = json.loads(text)
    return {name: float(data["weights"][name]) for name in ("bias", *SIGNALS)}


def confidence(signals: Signals, weights: Mapping[str, float] | None = None) -> float:
    """The calibrated confidence in 0..1 for `signals`."""
    w = weights or shipped_weights()
    z = w["bias"] + sum(w[name] * value for name, value in signals.as_dict().items())
    return round(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z)))), 4)
