"""A claim whose unsupported words another source denies.

Asked what `atomic()` does with peewee's `SqliteQueueDatabase`, the embedded model wrote
"Atomic() in SqliteQueueDatabase ensures that all write queries are executed atomically,
preventing conflicts or timeout errors … [1]", citing the page's opening ("serializes all
write queries through a single long-lived connection … without conflict or timeout
errors"). Both verifiers passed it: ten of its fifteen words are there. The words the
cited source lacks ("executed atomically") are in another retrieved passage, denied:
"there is no way to guarantee that the statements in a transaction from one thread execute
atomically". The claim is not miscited; it is false.

`denied_elsewhere` reads the words of a claim its cited source leaves unsaid (`missing`,
the lexical alignment's `missing_terms`) against every retrieved sentence. A sentence
denies them when it holds two of them that the claim writes near each other, near
each other too ("executed atomically", "execute atomically"), in a clause holding a
negation ("not", "no", "never"; not a privative "without", which states a condition), and
two more words of the claim (it is about the same thing); no sentence holding as many of
them may state them without a negation. Words the sentence holds far apart deny nothing
of the claim: WiCE's "These clinics … allow UC Davis medical students to gain … experience
during the early stages of their training" against "Volunteering in the clinics provides
an early opportunity for hands-on training that would otherwise not be available". A
claim that denies something itself is left to the negation checks.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Sequence

from citesynth.analysis import code_names
from citesynth.verify.analysed import Sentence, analyse
from citesynth.verify.coverage import claim_terms
from citesynth.verify.negation import negated_for, negation_cues

MAX_GAP = 3
"""How far apart (in words) two words of the claim may stand in a sentence that says them
together: "execute atomically", "execute them atomically"."""
MIN_SHARED = 2
"""Other words of the claim the denying sentence must hold ("writes", "threads") to be
about what the claim is about: "it doesn't have to wait for dozens of tasks to finish at
shutdown" (Celery's prefetching) holds "wait", "tasks" and "finish" of "`celery multi
stopwait` … waits until running tasks finish before exiting" and nothing else of it."""


def denied_elsewhere(claim: str, missing: Collection[str], passages: Sequence[str]) -> str | None:
    """The sentence of `passages` denying what `claim` says beyond its cited source, or None.

    `missing` are the claim's terms (as `align` stems them) its cited sources do not hold;
    see the module docstring.
    """
    unsaid = frozenset(missing)
    if len(unsaid) < 2 or negation_cues(claim):
        return None
    written = analyse([claim]).sentences
    phrases = {
        pair
        for pair in itertools.combinations(sorted(unsaid), 2)
        if any(_together(sentence, pair) for sentence in written)
    }
    if not phrases:
        return None
    said = frozenset(claim_terms(claim)) - unsaid
    evidence = analyse(passages)
    denying: list[tuple[frozenset[str], str]] = []
    stating: list[frozenset[str]] = []
    for sentence in evidence.sentences:
        held = frozenset(t for pair in phrases if _together(sentence, pair) for t in pair)
        if not held:
            continue
        text = evidence.passages[sentence.passage][sentence.start : sentence.end]
        if sentence.negated and negated_for(held, text, privative=False):
            if len(said & sentence.terms) >= MIN_SHARED and _of_the_claim(text, claim):
                denying.append((held, text))
        else:
            stating.append(held)
    for held, text in denying:
        if not any(held <= other for other in stating):
            return " ".join(text.split())
    return None


_OTHERWISE = re.compile(
    r"\b(?:unlike|whereas|while|except|unless|only|instead|rather\s+than|other\s+than"
    r"|in\s+contrast|not\s+(?:all|every|always|necessarily))\b",
    re.I,
)
"""What makes a denial another thing's or a part's: "Unlike a Session, `requests.get()`
does not reuse connections", "Not all backends support nested transactions", "Failed
tasks are not retried unless `autoretry_for` is set"."""


def _of_the_claim(sentence: str, claim: str) -> bool:
    """Whether a negated `sentence` denies without a contrast, and names no code the claim does not.

    A code name only the sentence writes ("`requests.get()`" against "A Session reuses TCP
    connections") makes the denial another thing's.
    """
    if _OTHERWISE.search(sentence):
        return False
    written = {name.lower() for name in code_names(claim)}
    return all(name.lower() in written for name in code_names(sentence))


def _together(sentence: Sentence, pair: tuple[str, str]) -> bool:
    """Whether `sentence` holds both words of `pair` within `MAX_GAP` words of each other."""
    first, second = (sentence.positions.get(term, ()) for term in pair)
    return any(abs(a - b) <= MAX_GAP for a in first for b in second)
