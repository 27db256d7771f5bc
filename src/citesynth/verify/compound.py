"""A clause of a compound claim that its source states the other way: denied, or plainly.

"Setting DEBUG in your config or code is a reliable way to enable debug mode because the
flask run command can read it early" passed both verifiers against Flask's docs, which
say of `DEBUG` "It can't be read early by the ``flask run`` command": the sentence
stating most of the claim ("In order to set debug mode reliably, use the ``--debug``
option …") denies nothing, and only it was read for negation (`align._negation_differs`).
Nor was Jinja's "… while variables it does not define are stored locally" read against
"… but variables the template does define are stored locally".

`clause_denied` reads each clause of a claim on its own: the claim is cut at commas,
semicolons, colons and the words that join clauses ("because", "so", "and", "but",
"while", …), after an opening purpose or condition ("To output only some fields, …",
"If …, …"), which asserts nothing. A clause of `MIN_TERMS` or more content terms is read
when the sentences holding most of its terms hold at least `SHARE` of them in a clause of
their own (cut as the claim is, or at punctuation only: `_SOURCE_CUT`):

- a plain clause of a claim that denies nothing is contradicted when every such sentence
  negates it there (`negation.negation_cues`; a privative "without" states a condition,
  "In environments without internet access, …"), with no denial the claim's clause
  writes too (`negation.denies`) nor a bound it names (`comparisons.bound_restated`);
- a negated clause ("not", "never", "no") is contradicted when every such sentence
  states it there plainly: no negation, no denying word ("avoid", "disable"), no bound
  denied (`comparisons.bound_denied`).

A clause denying with a word but no negation ("prevents", "is disabled") is not read:
sources deny so in words no list holds ("abolishes", "blocks"), and a claim's "and" often
joins names, not clauses ("… ND3 and ND6 prevents TDP-43-induced neuronal loss", a right
SciFact claim a first version vetoed). Nor are the plain clauses of a claim denying
elsewhere: they may say a denial in other words ("A field removed from a form is skipped
during validation …, as though it had never been defined", where WTForms writes "not be
validated").

Measured on the 760 written documentation tuning and probe claims: four wrong claims
caught (Flask's `DEBUG`, Jinja's template variables, Werkzeug's debugger in forking
environments and "offers further WebSocket support beyond routing"), no right one lost;
no verdict of the labelled tuning claims (WiCE dev, SciFact train, HaluEval 0–249), of
6,805 recorded answer sentences or of the 850 Developer Hub dev answer sentences changed.
A claim's negations are read in the whole claim before it is cut: cut at "but", Invoke's
"… not only forwards your standard input … but it can also be configured to respond
automatically", quoted by the extractive writer, had been read as a denial. Cut inside a Sphinx role
(":envvar:`C_FORCE_ROOT`"), a first version vetoed Celery's own words quoted; cut at
brackets, a right SciFact claim ("Increased diastolic blood pressure (DBP)"); reading a
source's clauses cut at "and" or run past a full stop a flattened page left, its
"without" and a claim's "disabled", four right Developer Hub dev sentences ("… are not
built in", "In environments without internet access"); read against a
sentence whose negated clause holds only some of the claim's, "This order is defined
using a TOML array" against towncrier's "Since TOML mappings aren't ordered, types defined
using this method are always rendered alphabetically".
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache

from citesynth.analysis import terms
from citesynth.verify.analysed import Evidence, remembered_when_short, text_of
from citesynth.verify.comparisons import bound_denied, bound_restated
from citesynth.verify.negation import (
    PRIVATIVE,
    denies,
    denying_terms,
    negation_cues,
    opening,
    otherwise_only,
    outside_code,
)
from citesynth.verify.numbers import canonical, content_stems

MIN_TERMS = 4
"""Content terms a clause needs to be read on its own."""
SHARE = 0.8
"""What share of a clause's terms a source clause must hold to state it."""
_PUNCTUATION = (
    r",(?!\s*(?:such\s+as|e\.g\.|for\s+example|for\s+instance|like|including)\b)\s*"
    r"|[;:](?=\s)\s*"
)
_SENTENCE_END = r"|(?<=[.!?])\s+"
_CUT = re.compile(
    _PUNCTUATION + _SENTENCE_END + r"|\s+(?:because|since|so\s+that|so|and|but|while|whereas)\s+",
    re.I,
)
"""Where a claim's clause ends: not inside inline code, nor at a colon of a role
(":envvar:"), nor at a comma before an example ("…, such as a server that starts
multiple processes"), which belongs to the clause it illustrates."""
_SOURCE_CUT = re.compile(
    _PUNCTUATION
    + _SENTENCE_END
    + r"|\s+(?:because|since|whereas|while"
    + r"|(?<!such\s)(?<!well\s)(?<!same\s)as(?=\s+(?:the|a|an|it|they|this|these|there)\s))\s+",
    re.I,
)
"""Where a source sentence's clause ends when it must state a claim's negated clause
plainly: at its punctuation, at a full stop a flattened page left inside it, and before a
clause giving a reason or a contrast ("because", "since", "whereas", "while", a causal
"as": Jinja's "usually not needed as the default tags and expressions cover all common use
cases" states "the default tags and expressions do not cover common use cases" the other
way; its "not" is the first clause's). Cut at "and", "The Operator Lifecycle Manager
(OLM) framework and the Red Hat Container Registry are not built in" had stated the
framework plainly. Where it must negate a plain one, it is cut as a claim is:
"`Content-Length` is used only to reject an oversized request early and is not trusted to
enforce the limit" does not negate "it uses `Content-Length` only to reject an oversized
request early"."""
_WITH = re.compile(r"\s*with\b[^,;:.!?]*,\s*", re.IGNORECASE)
"""A claim's opening "With …, ": the case it speaks of (`negation.opening` reads the
others: a purpose, a time or a condition)."""


def clause_denied(claim: str, evidence: Evidence) -> bool:
    """Whether a clause of `claim` is stated by `evidence` the other way (module doc)."""
    for part, negating, wanted in _read_parts(claim):
        most = max((len(wanted & s.terms) for s in evidence.sentences), default=0)
        if most < SHARE * len(wanted):
            continue
        stating = (
            text_of(evidence, s) for s in evidence.sentences if len(wanted & s.terms) == most
        )
        if negating:
            if all(_asserts(part, wanted, text) for text in stating):
                return True
        elif all(_denies(part, wanted, text) for text in stating):
            return True
    return False


@lru_cache(maxsize=1024)
def _read_parts(claim: str) -> tuple[tuple[str, bool, frozenset[str]], ...]:
    """The clauses of `claim` to read, each with whether it is negated and its terms.

    Cached: repair reads one claim against every source.
    """
    opened = opening(claim) or _WITH.match(claim)
    parts = _clauses(claim[opened.end() if opened else 0 :], _CUT)
    if len(parts) < 2 and not opened:
        return ()
    negated = bool(negation_cues(claim))
    found = []
    for part, cues, _ in parts:
        if not cues and (negated or denies(part, "")):
            continue
        wanted = content_stems(part) - denying_terms(part)
        if len(wanted) >= MIN_TERMS:
            found.append((part, bool(cues), wanted))
    return tuple(found)


def _asserts(part: str, wanted: frozenset[str], sentence: str) -> bool:
    """Whether every clause of `sentence` stating `SHARE` of `wanted` asserts it plainly.

    A negated clause `part` of a claim against it: no negation there, no denying word, no
    bound the claim denies going past.
    """
    found = [
        (clause, cues)
        for clause, cues, held in _clauses(sentence, _SOURCE_CUT)
        if len(wanted & held) >= SHARE * len(wanted)
    ]
    return bool(found) and not any(
        cues or denies(clause, part) or bound_denied(part, clause) for clause, cues in found
    )


def _denies(part: str, wanted: frozenset[str], sentence: str) -> bool:
    """Whether a clause of `sentence` stating `SHARE` of `wanted` negates it."""
    return any(
        any(word not in PRIVATIVE for word in cues)
        and not denies(part, clause)
        and not bound_restated(part, clause)
        and not otherwise_only(wanted, clause)  # "…, otherwise X will not work"
        for clause, cues, held in _clauses(sentence, _CUT)
        if len(wanted & held) >= SHARE * len(wanted)
    )


Clause = tuple[str, tuple[str, ...], frozenset[str]]
"""A clause as written, its negations and its stemmed terms."""


@remembered_when_short(maxsize=4096)
def _clauses(text: str, cut: re.Pattern[str]) -> tuple[Clause, ...]:
    """`text` cut at each match of `cut` outside inline code, with negations and terms.

    Each clause comes with its negations and its stemmed terms. The negations are read in
    the whole text (`negation.negation_cues`), then given to the clause holding them: cut
    at "but", "not only X but also Y" denies nothing still. Cached: a source's sentences
    are read for every claim citing it.
    """
    bounds = [0, *(x for m in outside_code(cut, text) for x in m.span()), len(text)]
    found = negation_cues(text)
    offsets = [at for at, _ in found]
    clauses = []
    for i in range(0, len(bounds), 2):
        first, last = bisect_left(offsets, bounds[i]), bisect_left(offsets, bounds[i + 1])
        clause = text[bounds[i] : bounds[i + 1]]
        held = frozenset(canonical(t) for t in terms(clause))
        clauses.append((clause, tuple(w for _, w in found[first:last]), held))
    return tuple(clauses)
