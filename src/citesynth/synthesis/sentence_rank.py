"""Which candidate sentences the extractive writer quotes: relevance and what else tells.

Relevance (`evidence.relevance`: MiniLM cosine and the share of the question's terms a
sentence holds) ranks each sentence on its own. Read over the documentation tuning sets
(the answerable questions of `benchmarks.fit_sentence_rank`, each candidate labelled by
whether it holds the gold answer), more tells which sentence answers:

- how far below the best candidate it is, and its place among them;
- the rank of its source (retrieval's order);
- the share of the *asked* sentence's terms it holds: a user sets the scene ("I'm
  cross-compiling Windows ARM64 wheels on an Intel runner and the extension comes out as
  x64.") before asking ("Which build backends does cibuildwheel support …?"), and the
  scene's words are shared by every sentence on the topic;
- whether it writes code, and whether the question asks for a named thing (an option, a
  flag, an environment variable) that code would be;
- its length (a longer sentence says more), and whether it is a change log's.

A logistic model over these (`sentence_rank.json`, fitted by `benchmarks.fit_sentence_rank`
on tuning sets only) scores each candidate; the writer quotes the best by that score, as
many as relevance puts in reach (`ordered`). With a sentence scorer (the trained
verifier's gate, a cross-encoder reading the question and the sentence together:
`extractive.SentenceScorer`), a sentence below reach that it finds answering (`ANSWERS`)
better than every sentence in reach adds one to how many are quoted: relevance missed the
answer (Flask's "use ``flask run --port 5001``", 0.79, where the best in reach had 0.03;
ClapNQ's "Enhanced spectral range allows the viewer to take advantage of … near-infrared
or ultraviolet radiation", asked which waves night vision devices use). Its probability
is no feature: fitted with it, the model gave it a weight of 0.03 (the gate reads a
documentation sentence without its section, and is no surer of the one answering).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from citesynth.analysis import query_terms, terms, unwritten
from citesynth.synthesis.asked import asks_named, question_sentences
from citesynth.synthesis.changelogs import change_log
from citesynth.synthesis.sources import Source

Ranked = tuple[float, Source, int, str]
"""A candidate as the writer ranks it: (relevance, source, offset in its chunk, sentence)."""

FEATURES = (
    "relevance",
    "behind_best",
    "relevance_place",
    "source_place",
    "asked_coverage",
    "question_coverage",
    "code",
    "named_code",
    "length",
    "change_log",
)
"""The features, in the order `features` gives them and the weights file lists them."""
ANSWERS = 0.5
"""A scorer's probability from which a sentence below reach counts as in reach, when no
sentence in reach has as much."""

SCORED = 40
"""How many of the best candidates by relevance are scored; the rest keep their place."""
POOL = 0.6
"""The share of the best candidate's relevance a candidate needs to be chosen by the
model: Python-Markdown's "Defaults to `Jump back to footnote {} in the text`." (0.58 of
the best), shown with its option's sentence already, had taken the other option's place
in an answer asked for the backlink's text."""

WEIGHTS_FILE = Path(__file__).with_name("sentence_rank.json")


@dataclass(frozen=True, slots=True)
class Weights:
    """A logistic model over `FEATURES`."""

    coefficients: tuple[float, ...]
    intercept: float

    def score(self, row: Sequence[float]) -> float:
        """The model's log-odds that the candidate described by `row` answers."""
        return self.intercept + sum(w * x for w, x in zip(self.coefficients, row, strict=True))


@cache
def shipped() -> Weights | None:
    """The fitted ranker shipped with the package (None when the file is absent or stale)."""
    if not WEIGHTS_FILE.is_file():
        return None
    data = json.loads(WEIGHTS_FILE.read_text())
    coefficients = tuple(float(w) for w in data.get("coefficients", ()))
    if tuple(data.get("features", ())) != FEATURES or len(coefficients) != len(FEATURES):
        return None
    return Weights(coefficients, float(data["intercept"]))


SHIPPED = shipped()
"""The shipped ranker, the extractive writer's default."""


def asked_sentence(question: str) -> str:
    """The question's last sentence: what it asks, after any setting of the scene."""
    sentences = question_sentences(question)
    return sentences[-1] if sentences else question


def features(question: str, ranked: Sequence[Ranked]) -> list[list[float]]:
    """One row of `FEATURES` per candidate of `ranked` (best relevance first)."""
    if not ranked:
        return []
    wanted = set(query_terms(question))
    asked = set(query_terms(asked_sentence(question))) or wanted
    named = asks_named(question)
    best = ranked[0][0]
    rows: list[list[float]] = []
    for place, (relevance, source, _, sentence) in enumerate(ranked):
        found = set(terms(sentence))
        held = found | (wanted - unwritten(wanted, found))  # "fallback" writes "fall back"
        code = "`" in sentence
        rows.append(
            [
                relevance,
                relevance - best,
                1 / (1 + place),
                1 / max(1, source.number),
                len(asked & held) / max(1, len(asked)),
                len(wanted & held) / max(1, len(wanted)),
                float(code),
                float(named and code),
                math.log1p(len(sentence.split())),
                float(change_log(source.document, source.chunk.title)),
            ]
        )
    return rows


def ordered(
    question: str,
    ranked: list[Ranked],
    floor: float,
    weights: Weights,
    answering: Sequence[float] | None = None,
) -> list[Ranked]:
    """`ranked` (by relevance) with those in reach chosen and ordered by `weights`.

    As many candidates are in reach as relevance puts at or above `floor`, but which they
    are and their order is the model's, among the best `SCORED` within `POOL` of the best
    (or below it, when fewer are). With `answering` (the scorer's probabilities for the
    best `SCORED`), each below `floor` that the scorer finds answering better than every
    one above it (`ANSWERS`) is in reach too. Each one in reach is scored `floor` plus its
    probability (so in reach, best first), each one left out just under `floor`; the rest
    keep their place below.
    """
    scored = ranked[:SCORED]
    above = [score >= floor for score, *_ in scored]
    reach = sum(above)
    if reach == 0:
        return ranked
    brought: set[int] = set()
    if answering is not None:
        best = max(p for p, up in zip(answering, above, strict=True) if up)
        brought = {
            i
            for i, (p, up) in enumerate(zip(answering, above, strict=True))
            if not up and p >= ANSWERS and p > best
        }
    odds = [weights.score(row) for row in features(question, scored)]
    pool = POOL * scored[0][0]
    order = sorted(range(len(scored)), key=lambda i: (scored[i][0] < pool, -odds[i], i))
    chosen = set(order[:reach]) | brought
    order = sorted(order, key=lambda i: (-odds[i], i))
    below = math.nextafter(floor, -math.inf)
    lifted = [(floor + _probability(odds[i]), *scored[i][1:]) for i in order if i in chosen]
    dropped = [(min(scored[i][0], below), *scored[i][1:]) for i in order if i not in chosen]
    return [*lifted, *sorted(dropped, key=lambda item: -item[0]), *ranked[SCORED:]]


def _probability(odds: float) -> float:
    return 1 / (1 + math.exp(-odds))
