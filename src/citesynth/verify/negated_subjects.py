"""What a source says its subject is not, said of that subject by a claim.

    subject_negated("Nested multipart is supported by the form data parser.", evidence)
    → ("Nested multipart is supported by the form data parser",
       "Nested multipart is not currently supported")

Werkzeug's page on form data reads "The following formats are currently supported by the
form data parser: …" and, below the list, "Nested multipart is not currently supported".
The negation check (`align._negation_differs`) reads the sentences stating most of a claim,
and the first states five of its six terms with no negation, so the claim above passed as
supported; `negated_pairs` reads the words after a negation, and here the claim's pair is
the subject before it.

A subject negation is a negating word after an auxiliary ("is not", "cannot", "doesn't",
"are never") whose subject ends in two content words ("Nested multipart", "the connection
pool"), with its predicate: the first content word after the negation that is no adverb
("currently"). A claim writing the subject's two words side by side (`negated_pairs`'
pairs: a claim that negates, contrasts or denies in a word writes none) is read as saying
the opposite when its clause holding them holds the predicate after them, as the source's
subject does (pytest's "Test modules can't import each other" says nothing against
"importlib to import test modules"), or when the predicate denies a capability
("supported", "allowed", "available": `CAPABILITIES`) and the clause asserts one
("handles", "including": `ASSERTED`): "Werkzeug's form data parser handles … bodies,
including nested multipart data". Not read so:

- a negation hedged before its predicate ("is not always supported", "is not the only
  option", "is not as fast as": `_HEDGES`), inside a condition ("If the pool is not
  closed, …"), or a privative ("without");
- a subject some sentence of the passages states plainly with the predicate (no negation
  in it): the passages speak of two cases.

The other way round, a claim that negates its subject's predicate as a source does
(`negated_alike`) is backed by that source: "Nested multipart is not supported by the form
data parser" had been vetoed, its negation differing from the list's opening sentence.

Measured on the tuning splits (2026-12-07), lexical: the 760 written documentation claims,
wrong passed 97 → 96 (the claim above), no right claim vetoed; WiCE dev, SciFact train,
HaluEval 0–249 and Developer Hub dev unchanged. Reading any claim naming a subject the
source denies a capability of, without a capability in the claim's clause, vetoed two
right claims ("an ordered list stops …" against "Sane Lists do not allow the mixing of
list types"; a plugin "installed using the Extensions UI" against "in a production
environment … plugin installation is not permitted"). Prose sentences of the tuning
documentation read against their own page: the predicate read anywhere in the claim's
clause vetoed one more (the pytest sentence above); read after the subject, 20 of 85,285
fail, as before.
"""

from __future__ import annotations

import itertools
import re
from typing import NamedTuple

from citesynth.verify.analysed import Evidence, is_prose, remembered_when_short, text_of
from citesynth.verify.negated_pairs import (
    FARTHEST,
    REACH,
    STOP,
    Pair,
    conditional,
    plain_in,
    plain_pairs,
    written_stems,
)
from citesynth.verify.negation import AUXILIARY, PRIVATIVE, denies, negation_cues
from citesynth.verify.numbers import canonical
from citesynth.verify.opposites import WRITTEN_TOKEN, content_of

CAPABILITIES = written_stems(
    "supported allowed permitted available possible implemented handled accepted recognized"
    " recognised parsed"
)
"""Predicates whose denial says a thing cannot be had: "is not currently supported"."""
ASSERTED = written_stems(
    "supports handles accepts allows permits enables includes including parses recognizes"
    " recognises understands"
)
"""Words of a claim's clause asserting such a capability of what it names."""
_AUXILIARY = re.compile(rf"\b(?:{AUXILIARY}|be|been|shall|had)\s*\Z", re.IGNORECASE)
"""The auxiliary a negating word follows: "is not", "can never"."""
_JOINED = re.compile(r"(?:n't|n’t|cannot)\Z", re.IGNORECASE)
"""A negating word that is its own auxiliary: "isn't", "cannot"."""
_SUBJECT_OPENS = re.compile(
    r"[,;:.!?()\n]|\b(?:and|or|but|which|that|who|if|when|while|because|since|unless)\b",
    re.IGNORECASE,
)
"""Where the subject before an auxiliary can open at the latest."""
_HEDGES = frozenset(
    "as so more less too only just merely simply solely all every always necessarily much"
    " that quite entirely fully".split()
)
"""Words before a negation's predicate that make it no denial of it: "not always"."""
_ADVERB = re.compile(r"ly\Z")


class SubjectNegation(NamedTuple):
    """A subject negation of a sentence (see the module docstring)."""

    start: int
    """Where its subject's two words start."""
    end: int
    """Where its predicate ends."""
    negation: int
    """Where its negating word starts."""
    subject: Pair
    predicate: str
    """The predicate's stem."""


def subject_negated(claim: str, evidence: Evidence) -> tuple[str, str] | None:
    """(the claim's clause, the source's negation) when a source denies it of its subject.

    See the module docstring.
    """
    pairs = plain_pairs(claim)
    if not pairs:
        return None
    for sentence in evidence.sentences:
        if not sentence.negated:
            continue
        text = text_of(evidence, sentence)
        for found in subject_negations(text):
            if found.subject not in pairs or not is_prose(evidence, sentence):
                continue
            words, clause = pairs[found.subject]
            said = written_stems(clause)
            capable = found.predicate in CAPABILITIES and bool(said & ASSERTED)
            if not capable and found.predicate not in _after(words, clause):
                continue
            if conditional(text, found.negation) or denies(clause, text):
                continue
            if _stated_plainly(found, evidence):
                continue
            return " ".join(clause.split()), " ".join(text[found.start : found.end].split())
    return None


def negated_alike(claim: str, evidence: Evidence) -> bool:
    """Whether a prose sentence of the passages negates the claim's predicate of its subject.

    The claim's subject negation and the sentence's name the same two words and the same
    predicate, neither in a condition.
    """
    mine = {(found.subject, found.predicate) for found in subject_negations(claim)}
    if not mine:
        return False
    return any(
        (found.subject, found.predicate) in mine and not conditional(text, found.negation)
        for sentence in evidence.sentences
        if sentence.negated and is_prose(evidence, sentence)
        for text in [text_of(evidence, sentence)]
        for found in subject_negations(text)
    )


@remembered_when_short(maxsize=4096)
def subject_negations(text: str, /) -> tuple[SubjectNegation, ...]:
    """Each subject negation of `text`. Remembered: a source is read for every claim."""
    found = []
    for offset, word in negation_cues(text):
        if word.lower() in PRIVATIVE:
            continue
        before = text[max(0, offset - FARTHEST) : offset]
        if not _JOINED.search(word):
            auxiliary = _AUXILIARY.search(before)
            if auxiliary is None:
                continue
            before = before[: auxiliary.start()]
        subject = _subject(before)
        predicate = predicate_after(text, offset + len(word))
        if subject is None or predicate is None:
            continue
        (first, second, opened) = subject
        start = max(0, offset - FARTHEST) + opened
        found.append(SubjectNegation(start, predicate[1], offset, (first, second), predicate[0]))
    return tuple(found)


def _subject(before: str) -> tuple[str, str, int] | None:
    """The two content stems ending the subject written `before` an auxiliary, and where."""
    opened = max((m.end() for m in _SUBJECT_OPENS.finditer(before)), default=0)
    tokens = list(WRITTEN_TOKEN.finditer(before, opened))
    if len(tokens) < 2 or before[tokens[-1].end() :].strip():
        return None
    first, second = (content_of(token.group().lower()) for token in tokens[-2:])
    if len(first) != 1 or len(second) != 1:
        return None
    return canonical(first[0]), canonical(second[0]), tokens[-2].start()


def predicate_after(text: str, after: int) -> tuple[str, int] | None:
    """The stem of the first content word no adverb after a negation, and where it ends.

    Within `REACH` words, before `STOP`; None when a hedge comes first ("not always").
    """
    stop = STOP.search(text, after, after + FARTHEST)
    limit = stop.start() if stop else after + FARTHEST
    for token in itertools.islice(WRITTEN_TOKEN.finditer(text, after, limit), REACH):
        word = token.group().lower()
        if word in _HEDGES:
            return None
        terms = content_of(word)
        if terms and not _ADVERB.search(word):
            return canonical(terms[0]), token.end()
    return None


def _after(words: str, clause: str) -> frozenset[str]:
    """The stems `clause` writes after `words`, its subject.

    "Test modules can import" has "import" after "test modules"; "importlib imports test
    modules" has none.
    """
    written = " ".join(clause.split())
    at = written.find(words)
    return written_stems(written[at + len(words) :]) if at >= 0 else frozenset()


def _stated_plainly(found: SubjectNegation, evidence: Evidence) -> bool:
    """Whether a sentence without negation writes the subject and the predicate's stem."""
    return any(
        not sentence.negated
        and found.subject in plain_in(text)
        and found.predicate in written_stems(text)
        for sentence in evidence.sentences
        for text in [text_of(evidence, sentence)]
    )
