"""What the best sentences of the evidence hold of a claim: its terms, numbers and names.

The first half of an alignment (`align`): the claim's content terms, numbers and proper
names; the anchor sentence (the one covering most of its terms) and up to two more that
add terms it lacks (more for a long claim); how much of the claim they, and the whole
evidence, cover; and the numbers and names no sentence holds. Terms, names and numbers
the `Context` (titles and headings) states are given: left out of what the sentences
must cover.

Every feature the lexical verifier weighs comes from here but one, whether negation
differs, which `align` decides with the rest of what disagrees. So a claim's coverage
bounds its score whatever disagrees (`LexicalVerifier.could_support`): repair reads a
claim against every retrieved source, most of which share almost nothing with it.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from citesynth.analysis import NAME, POSSESSIVE, content_terms, terms
from citesynth.verify.analysed import NO_CONTEXT, Context, Evidence, Sentence, analyse, flags, union
from citesynth.verify.negation import goal_negated_only
from citesynth.verify.numbers import (
    canonical,
    converted_quantities,
    labelled_numbers,
    numbered_names_changed,
    numbers_claimed,
    quantities_claimed,
    unit_differs,
)

FEATURES = (
    "anchor_coverage",
    "top3_coverage",
    "all_coverage",
    "pair_share",
    "missing_log",
    "missing_any",
    "numbers_missing",
    "numbers_far",
    "names_missing",
    "names_far",
    "names_missing_log",
    "negation_mismatch",
    "direction_mismatch",
    "claim_log_terms",
    "evidence_log_sentences",
)
"""The feature names, in the order the trained weights use."""

DECIDED_BY_ALIGN = "negation_mismatch"
"""The one feature coverage leaves open (0.0 in `Coverage.features`)."""


@dataclass(frozen=True, slots=True)
class Coverage:
    """The claim's parts, the sentences that best cover them, and what none holds."""

    wanted: tuple[str, ...]
    """The claim's content terms the sentences must cover (not those the context gives)."""
    negated: bool
    """Whether the claim is negated (not by a "not" of an opening purpose clause only)."""
    best: tuple[Sentence, ...]
    missing_terms: tuple[str, ...]
    missing_numbers: tuple[str, ...]
    labelled: tuple[str, ...]
    """Numbers of the claim the passages write only as a label ("No. 21")."""
    missing_names: tuple[str, ...]
    grounding: frozenset[str]
    """The numbers the evidence and its context state, and the claim's converted ones."""
    direction_mismatch: bool
    features: dict[str, float]
    """Every feature of `FEATURES`, `DECIDED_BY_ALIGN` at 0.0."""


FILLER = frozenset(
    canonical(t)
    for t in terms(
        "also still yet since plus instead whatever whichever especially usually typically"
        " thus therefore hence however although though simply merely really perhaps maybe"
        " indeed e.g whereas anyway already"
    )
)
"""Linking words and hedges that state nothing a source could be checked for: a claim's
term among them is wanted only when the evidence holds it.

A paraphrase adds them freely: "If you call structlog.get_logger without configuring
anything, you still get a perfectly usable PrintLogger, since the authors don't think
silent loggers make a sensible default" lost its support for "still" and "since", which
its source words otherwise. Left out: words whose stem is a content word's ("quite" is
"quit", "basically" "basic", "actually" "actual", "essentially" "essential",
"particularly" "particular"), and words that relate ("rather", "unless", "otherwise",
"like": "unlike" turned into "like" is a changed claim)."""


_ONE_BEFORE = re.compile(r"\bone\s+(?=(?:of|another|after|particular)\b)", re.I)
_ONE_AFTER = re.compile(r"\b((?:a\s+single|no|any|each|every|which|this|that|the)\s+)one\b", re.I)
""""one" counting nothing: "one of Jinja's global functions", "one particular
abbreviation", "a single one or a list", "no one": no source need write the number 1."""


@lru_cache(maxsize=1024)
def claim_parts(
    claim: str,
) -> tuple[list[str], list[str], list[str], tuple[bool, bool, bool]]:
    """A claim's content terms, numbers, proper names and flags, cached.

    The negation flag leaves out a "not" that stands only in an opening purpose clause
    (`goal_negated_only`).

    Repair checks one claim against every source.
    """
    counted = _ONE_AFTER.sub(r"\1", _ONE_BEFORE.sub("", claim))
    wanted = list(dict.fromkeys(canonical(t) for t in content_terms(counted)))
    negated, up, down = flags(claim)
    negated = negated and not goal_negated_only(claim)  # the goal's "not" asserts nothing
    return wanted, numbers_claimed(claim), claim_names(claim), (negated, up, down)


def claim_terms(claim: str) -> tuple[str, ...]:
    """A claim's content terms as alignment reads them (stemmed, numbers and units as one)."""
    return tuple(claim_parts(claim)[0])


def claim_names(claim: str) -> list[str]:
    """Stemmed terms of capitalised words that do not open a sentence: proper names."""
    found: list[str] = []
    for match in NAME.finditer(claim):  # "HTTPX's" names HTTPX
        found.extend(canonical(t) for t in terms(POSSESSIVE.sub("", match.group())))
    return list(dict.fromkeys(found))


def _pairs_found(pairs: Sequence[tuple[str, str]], sentences: Sequence[Sentence]) -> int:
    """How many ordered term pairs occur within five positions in one of `sentences`."""
    found = 0
    for first, second in pairs:
        for sentence in sentences:
            a = sentence.positions.get(first)
            b = sentence.positions.get(second)
            if a and b and any(0 < abs(q - p) <= 5 for p in a for q in b):
                found += 1
                break
    return found


def _given_terms(
    wanted: Sequence[str], vocabulary: frozenset[str], context: Context
) -> frozenset[str]:
    return frozenset(t for t in wanted if t in context.terms and t not in vocabulary)


def given(claim: str, evidence: Evidence, context: Context) -> bool:
    """Whether `context` states a term, name or number of `claim` that `evidence` lacks."""
    if context is NO_CONTEXT:
        return False
    wanted, claim_numbers, names, _ = claim_parts(claim)
    vocabulary = evidence.vocabulary
    return bool(
        _given_terms([*wanted, *names], vocabulary, context)
        or any(n in context.numbers and n not in evidence.numbers for n in claim_numbers)
    )


def named(claim: str, text: str, context: Context) -> bool:
    """Whether `context` states a proper name of `claim` that `text` lacks.

    `given` for names alone: what the trained verifier's chosen sentences must show when
    the rest of the passage names it ("Click" in a chunk's opening sentence, left out).
    `text` is analysed only when `context` states one of the claim's names.
    """
    names = [n for n in claim_parts(claim)[2] if n in context.terms]
    return bool(names) and bool(_given_terms(names, analyse([text]).vocabulary, context))


_BEST = 3
_JOINING = 12
_MORE_PER = 5


def _unit(sentence: Sentence) -> tuple[int, int]:
    """What `sentence` counts as among the best: its list, or itself when in none."""
    listed = sentence.listed if sentence.listed >= 0 else -1 - sentence.start
    return sentence.passage, listed


def _best_sentences(
    needed: set[str], sentences: Sequence[Sentence]
) -> tuple[list[Sentence], set[str]]:
    """The anchor (most of `needed`) and up to two more adding terms it lacks, and their terms.

    Each added sentence is the one adding the most terms still lacking (ties: the one
    holding more of `needed`), not the next holding most of them whatever it adds: a
    sentence repeating the anchor's terms and adding one left the one adding four out.
    A long claim joins more facts than two sentences add to the anchor: one of more than
    `_JOINING` content terms may draw on one more sentence for each `_MORE_PER` terms past
    them. Werkzeug's "On a FileStorage, `stream` is …, `name` is the form field's name,
    and `filename` is …, which may be a str or os.PathLike" holds 17 and states what four
    attribute descriptions say: the best three had left "name of the form field" out.
    The items of one list (`Sentence.listed`) count as one sentence: "SQLAlchemy,
    SQLModel, Tortoise ORM and Piccolo are named as popular choices" names four items of
    Starlette's list of database libraries.
    """
    best: list[Sentence] = []
    covered: set[str] = set()
    most = _BEST + max(0, (len(needed) - _JOINING) // _MORE_PER)
    units: set[tuple[int, int]] = set()  # a list, or a sentence in none
    if needed:
        ranked = sorted(sentences, key=lambda s: -len(needed & s.terms))[:40]
        while ranked and covered != needed:
            full = len(units) >= most
            gains = [
                len((needed - covered) & s.terms) if not full or _unit(s) in units else 0
                for s in ranked
            ]
            top = max(range(len(ranked)), key=gains.__getitem__)
            if best and gains[top] == 0:
                break
            best.append(ranked.pop(top))
            covered |= needed & best[-1].terms
            units.add(_unit(best[-1]))
    return best, covered


def cover(claim: str, evidence: Evidence, context: Context = NO_CONTEXT) -> Coverage:
    """How the sentences of `evidence` (and its `context`) cover `claim`."""
    wanted, claim_numbers, names, (negated, up, down) = claim_parts(claim)
    sentences, vocabulary = evidence.sentences, evidence.vocabulary
    evidence_numbers = evidence.numbers | context.numbers
    converted = converted_quantities(claim, evidence_numbers)  # "10 minutes" for "600 seconds"
    converted_numbers = {q.split(" ")[0] for q in converted}
    given = _given_terms(wanted, vocabulary, context) | {
        canonical(term) for quantity in converted for term in quantity.split(" ")
    }
    wanted = [t for t in wanted if t not in given and (t not in FILLER or t in vocabulary)]
    needed = set(wanted)
    best, covered = _best_sentences(needed, sentences)
    top = best[0] if best else None
    count = max(len(wanted), 1)
    anchor = len(needed & top.terms) / count if top else 0.0
    in_all = len(needed & vocabulary) / count
    missing_terms = tuple(t for t in wanted if t not in covered)
    pairs = list(itertools.pairwise(wanted))
    pair_share = _pairs_found(pairs, best) / len(pairs) if pairs else anchor

    best_numbers = union(s.numbers for s in best) | context.numbers
    missing_numbers = tuple(
        n for n in claim_numbers if n not in evidence_numbers and n not in converted_numbers
    )
    missing_numbers += tuple(
        q
        for q in quantities_claimed(claim)
        if q not in evidence_numbers
        and q not in converted
        and q.split(" ")[0] not in missing_numbers
        and unit_differs(q, evidence_numbers, best_numbers)
    )
    shown = list(evidence.passages)
    labelled = labelled_numbers(claim, claim_numbers, shown, missing_numbers)
    missing_numbers += labelled + numbered_names_changed(claim, shown)
    far_numbers = [n for n in claim_numbers if n not in best_numbers]
    missing_names = tuple(n for n in names if n not in vocabulary and n not in context.terms)
    far_names = [
        n for n in names if n not in covered and (n in vocabulary or n not in context.terms)
    ]
    best_up = any(s.up for s in best)
    best_down = any(s.down for s in best)
    direction_mismatch = bool(best) and (
        (up and not down and best_down and not best_up)
        or (down and not up and best_up and not best_down)
    )
    features = {
        "anchor_coverage": anchor,
        "top3_coverage": len(covered) / count,
        "all_coverage": in_all,
        "pair_share": pair_share,
        "missing_log": math.log1p(len(missing_terms)),
        "missing_any": float(bool(missing_terms)),
        "numbers_missing": len(missing_numbers) / max(len(claim_numbers), 1),
        "numbers_far": len(far_numbers) / max(len(claim_numbers), 1),
        "names_missing": len(missing_names) / max(len(names), 1),
        "names_far": len(far_names) / max(len(names), 1),
        "names_missing_log": math.log1p(len(missing_names)),
        DECIDED_BY_ALIGN: 0.0,
        "direction_mismatch": float(direction_mismatch),
        "claim_log_terms": math.log1p(len(wanted)),
        "evidence_log_sentences": math.log1p(len(sentences)),
    }
    return Coverage(
        wanted=tuple(wanted),
        negated=negated,
        best=tuple(best),
        missing_terms=missing_terms,
        missing_numbers=missing_numbers,
        labelled=tuple(labelled),
        missing_names=missing_names,
        grounding=frozenset(evidence_numbers | converted_numbers),
        direction_mismatch=direction_mismatch,
        features=features,
    )
