"""A clause of a compound claim that its source states the other way: denied, or plainly.

"Setting DEBUG in your config or code is a reliable way to enable debug mode because the
flask run command can read it early" passed both verifiers against Flask's docs, which
say of `DEBUG` "It can't be read early by the ``flask run`` command": the sentence
stating most of the claim ("In order to set debug mode reliably, use the ``--debug``
option …") denies nothing, and only it was read for negation (`align._negation_differs`).
Nor was "… and also prevents any process_response middleware methods from being called"
read against Falcon's "However, any *process_response* middleware methods will still be
called", nor Jinja's "… because the default tags and expressions do not cover common use
cases" against "… usually not needed as the default tags and expressions cover all common
use cases".

`clause_denied` reads each clause of a claim on its own: the claim is cut at commas,
semicolons, colons and the words that join clauses ("because", "so", "and", "but",
"while", …), after an opening purpose or condition ("To output only some fields, …",
"If …, …"), which asserts nothing. A clause of `MIN_TERMS` or more content terms (the
denying word itself left out) is read when the sentences holding most of its terms hold
at least `SHARE` of them, in a clause of their own cut the same way:

- a plain clause of a claim that denies nothing is contradicted when every such sentence
  negates it there (`negation.negation_cues`), with no denial the claim's clause writes
  too ("without", "avoid": `negation.denies`) nor a bound it names
  (`comparisons.bound_restated`);
- a denying clause ("not", "prevents", "without") is contradicted when every such
  sentence states it there plainly: no negation, no denying word, no bound denied. A
  denial as a purpose ("to prevent …") or a choice declined ("rather than",
  "instead of") is no assertion of the clause and is not read (`_ASIDE`).

A plain clause of a claim that denies elsewhere is not read: "A field removed from a form
is skipped during validation …, as though it had never been defined" states with
"skipped" what WTForms states with "not be validated".

Measured on the 760 written documentation tuning and probe claims: six wrong claims
caught (Flask's `DEBUG`, Falcon's `process_response`, Jinja's extensions and template
variables, Werkzeug's debugger in forking environments and "offers further WebSocket
support beyond routing"), no right one lost; of the labelled tuning claims (WiCE dev,
SciFact train, HaluEval 0–249) one wrong HaluEval claim caught and no other verdict
changed; of 6,805 recorded answer sentences none. Cut inside a Sphinx role
(":envvar:`C_FORCE_ROOT`"), a first version vetoed Celery's own words quoted; cut at
brackets, a right SciFact claim ("Increased diastolic blood pressure (DBP)"); read
against a sentence whose negated clause holds only some of the claim's, "This order is
defined using a TOML array" against towncrier's "Since TOML mappings aren't ordered,
types defined using this method are always rendered alphabetically".
"""

from __future__ import annotations

import re
from bisect import bisect_right

from citesynth.analysis import content_terms, terms
from citesynth.verify.analysed import Evidence, text_of
from citesynth.verify.comparisons import bound_denied, bound_restated
from citesynth.verify.negation import CODE, denies, denying_terms, negation_cues
from citesynth.verify.numbers import canonical

MIN_TERMS = 4
"""Content terms a clause needs to be read on its own."""
SHARE = 0.8
"""What share of a clause's terms a source clause must hold to state it."""
_CUT = re.compile(
    r",(?!\s*(?:such\s+as|e\.g\.|for\s+example|for\s+instance|like|including)\b)\s*"
    r"|[;:](?=\s)\s*|\s+(?:because|since|so\s+that|so|and|but|while|whereas)\s+",
    re.IGNORECASE,
)
"""Where a clause ends: not inside inline code, nor at a colon of a role (":envvar:"), nor
at a comma before an example ("…, such as a server that starts multiple processes"),
which belongs to the clause it illustrates."""
_OPENING = re.compile(
    r"\s*(?:(?:in\s+order\s+)?to\s+[a-z]+|after|when|whenever|once|before|while|if|with)\b"
    r"[^,;:.!?]*,\s*",
    re.IGNORECASE,
)
"""A claim's opening purpose or condition: what it serves or when it holds."""


def clause_denied(claim: str, evidence: Evidence) -> bool:
    """Whether a clause of `claim` is stated by `evidence` the other way (module doc)."""
    opening = _OPENING.match(claim)
    parts = _cut(claim[opening.end() if opening else 0 :])
    if len(parts) < 2 and not opening:
        return False
    negated = bool(negation_cues(claim))
    for part in parts:
        denying = bool(negation_cues(part)) or denies(part, "")
        if (negated and not denying) or (denying and _ASIDE.search(part)):
            continue
        wanted = {canonical(t) for t in content_terms(part)} - denying_terms(part)
        if len(wanted) < MIN_TERMS:
            continue
        most = max((len(wanted & s.terms) for s in evidence.sentences), default=0)
        if most < SHARE * len(wanted):
            continue
        stating = (
            text_of(evidence, s) for s in evidence.sentences if len(wanted & s.terms) == most
        )
        if denying:
            if all(_asserts(part, wanted, text) for text in stating):
                return True
        elif all(_denies(part, wanted, text) for text in stating):
            return True
    return False


_ASIDE = re.compile(r"\bto\s+(?:prevent|avoid)\b|\brather\s+than\b|\binstead\s+of\b", re.I)
"""A denial that is no assertion of the clause: a purpose ("… to prevent denial of service
attacks", which a source stating the attack as a risk backs) or a choice declined ("set
with `Response.set_cookie` or `append_header` rather than `set_header`", which a source
naming only the choice backs)."""


def _asserts(part: str, wanted: set[str], sentence: str) -> bool:
    """Whether every clause of `sentence` stating `SHARE` of `wanted` asserts it plainly."""
    found = [
        clause
        for clause in _cut(sentence)
        if len(wanted & {canonical(t) for t in terms(clause)}) >= SHARE * len(wanted)
    ]
    return bool(found) and not any(
        negation_cues(clause) or denies(clause, part) or bound_denied(part, clause)
        for clause in found
    )


def _denies(part: str, wanted: set[str], sentence: str) -> bool:
    """Whether a clause of `sentence` stating `SHARE` of `wanted` negates it."""
    return any(
        negation_cues(clause) and not denies(part, clause) and not bound_restated(part, clause)
        for clause in _cut(sentence)
        if len(wanted & {canonical(t) for t in terms(clause)}) >= SHARE * len(wanted)
    )


def _cut(text: str) -> list[str]:
    """`text` cut at each `_CUT`."""
    code = [m.span() for m in CODE.finditer(text)]
    starts = [start for start, _ in code]
    cuts = (m for m in _CUT.finditer(text) if not _inside(m.start(), code, starts))
    bounds = [0, *(x for m in cuts for x in m.span()), len(text)]
    return [text[bounds[i] : bounds[i + 1]] for i in range(0, len(bounds), 2)]


def _inside(offset: int, code: list[tuple[int, int]], starts: list[int]) -> bool:
    """Whether `offset` falls inside one of the sorted spans `code` (`starts` their starts)."""
    at = bisect_right(starts, offset) - 1
    return at >= 0 and offset < code[at][1]
