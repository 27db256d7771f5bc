"""What a claim denies of its subject that a sentence of its source states plainly.

    denies_stated("The receiver of the signed data cannot see it, and cannot modify it "
                  "either unless they also have your key.", evidence)
    → ("cannot see", "The receiver can see the data")

itsdangerous' docs read "The receiver can see the data, but they can not modify it unless
they also have your key." The claim negates twice and the sentence once, so the negation
check (`align._negation_differs`, which compares whole sentences) finds no difference, and
every word of the claim is there. `negated_pairs` reads the other way round: a pair the
claim writes plainly that a source negates.

A claim denies a predicate when it writes "not", "n't", "never" or "cannot" outside a
condition, and the first content word after it (within `negated_pairs.REACH` words, no
adverb, no hedge such as "not only" or "not always": `negated_subjects.predicate_after`)
is the predicate. Its subject is what
the claim writes from its clause's start to the negation. A prose sentence of the passages
states it plainly when one of its clauses (`swaps`' clauses) holds the predicate, at least
one term of the subject and at least `MIN_SHARED` terms of the claim's clause besides the
predicate, stands in no condition, and neither side denies in a word (`negation.denies`:
"avoid parsing" is "don't have to be parsed"). Never when any sentence of the passages
negates the predicate (a privative's "without" too): the passages speak of two cases.

Measured on the tuning splits (2026-12-07), lexical: of 3,900 claims (written
documentation, WiCE dev, SciFact train, HaluEval 0–249, Developer Hub dev, and the
documentation probes first read that day) it vetoes no right claim.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from citesynth.verify.analysed import (
    Evidence,
    Sentence,
    is_prose,
    remembered_when_short,
    text_of,
)
from citesynth.verify.negated_pairs import CONDITION, conditional, negated_runs, written_stems
from citesynth.verify.negated_subjects import predicate_after
from citesynth.verify.negation import denies, negation_cues
from citesynth.verify.swaps import clause_matches

_MAX_DENIALS = 8
"""The most denials of one claim read: each is looked for in every sentence."""
MIN_SHARED = 2
"""Terms of the claim's clause (its predicate aside) a source clause must hold."""
_DENYING = re.compile(r"not|n['’]t|never|cannot", re.IGNORECASE)
"""The negations read: a verb's ("does not", "cannot"), not "no" or "nothing", which deny
a thing rather than what it does ("no caching of the logger")."""
_CLAUSE_START = re.compile(r"[,;:()]")


class Denial(NamedTuple):
    """A predicate a claim denies: its stem, the stems of its subject and of its clause."""

    predicate: str
    subject: frozenset[str]
    clause: frozenset[str]
    clause_text: str
    written: str


def denies_stated(claim: str, evidence: Evidence) -> tuple[str, str] | None:
    """(the claim's denial as written, the source's clause stating it plainly), or None.

    See the module docstring.
    """
    found = _denials(claim)
    if not found:
        return None  # most claims: no sentence of the passages is read
    negated = _negated(evidence)
    found = tuple(denial for denial in found if denial.predicate not in negated)
    wanted = {denial.predicate for denial in found}
    for sentence in evidence.sentences:
        text = text_of(evidence, sentence)
        if not wanted & written_stems(text):
            continue
        for denial in found:
            if stated := _stated_in(denial, text, evidence, sentence):
                return denial.written, stated
    return None


@remembered_when_short(maxsize=1024)
def _denials(claim: str, /) -> tuple[Denial, ...]:
    """The predicates `claim` denies (see the module docstring)."""
    found: dict[Denial, None] = {}
    clauses = list(clause_matches(claim))
    for offset, word in negation_cues(claim):
        if len(found) == _MAX_DENIALS:
            break
        if not _DENYING.fullmatch(word) or conditional(claim, offset):
            continue
        after = predicate_after(claim, offset + len(word))
        if after is None:
            continue
        stem, end = after
        clause = next(
            (text for text, words in clauses if words and words[0].start() <= offset < end),
            claim,
        )
        before = claim[:offset]
        opened = max((m.end() for m in _CLAUSE_START.finditer(before)), default=0)
        denial = Denial(
            predicate=stem,
            subject=written_stems(before[opened:]) - {stem},
            clause=written_stems(clause) - {stem},
            clause_text=clause,
            written=" ".join(claim[offset:end].split()),
        )
        found[denial] = None
    return tuple(found)


def _negated(evidence: Evidence) -> frozenset[str]:
    """The stems some sentence of the passages negates (a privative's too)."""
    found: set[str] = set()
    for sentence in evidence.sentences:
        if not sentence.negated:
            continue
        text = text_of(evidence, sentence)
        found.update(stem for _, run in negated_runs(text, privative=True) for stem, _ in run)
        for offset, word in negation_cues(text):
            if (after := predicate_after(text, offset + len(word))) is not None:
                found.add(after[0])
    return frozenset(found)


def _stated_in(denial: Denial, text: str, evidence: Evidence, sentence: Sentence) -> str | None:
    """The clause of `sentence` (its `text`) stating the denied predicate plainly, or None."""
    if CONDITION.match(text.lstrip()):  # what it states, it states only then
        return None  # "If the key leaks, the receiver can see the data"
    for clause, words in clause_matches(text):
        stems = written_stems(clause)
        if (
            denial.predicate in stems
            and stems & denial.subject
            and len(stems & denial.clause) >= MIN_SHARED
            and not conditional(text, words[0].start())
            and not denies(denial.clause_text, clause)
            and not denies(clause, denial.clause_text)
            and is_prose(evidence, sentence)
        ):
            return " ".join(clause.split())
    return None
