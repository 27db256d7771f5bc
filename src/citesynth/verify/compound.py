"""A clause of a compound claim that its source states only denied.

"Setting DEBUG in your config or code is a reliable way to enable debug mode because the
flask run command can read it early" passed both verifiers against Flask's docs, which
say of `DEBUG` "It can't be read early by the ``flask run`` command": the sentence
stating most of the claim ("In order to set debug mode reliably, use the ``--debug``
option …") denies nothing, and only it was read for negation (`align._negation_differs`).

`clause_denied` reads each plain clause of a claim on its own: the claim is cut at commas,
semicolons, colons and the words that join clauses ("because", "so", "and", "but",
"while", …), after an opening purpose or condition ("To output only some fields, …",
"If …, …"), which asserts nothing. A clause of `MIN_TERMS` or more content terms is denied
when the sentences holding most of its terms hold at least `SHARE` of them and every one
of them states them in a clause of its own (cut the same way) that holds a negation
(`negation.negation_cues`) and no denial the claim's clause writes too ("without",
"avoid": `negation.denies`) nor a bound it names (`comparisons.bound_restated`).

Measured on the 760 written documentation tuning and probe claims: two wrong claims
caught (Flask's `DEBUG`, Werkzeug's "offers further WebSocket support beyond routing"),
no right one lost; no verdict of the labelled tuning claims (WiCE dev, SciFact train,
HaluEval 0–249) nor of 6,805 recorded answer sentences changed. A noun phrase in
brackets ("Increased diastolic blood pressure (DBP)") is no clause: cut there, a first
version vetoed a right SciFact claim; and the negated clause must itself state the
claim's clause, or "This order is defined using a TOML array" is denied by towncrier's
"Since TOML mappings aren't ordered, types defined using this method are always rendered
alphabetically".
"""

from __future__ import annotations

import re

from citesynth.analysis import content_terms, terms
from citesynth.verify.analysed import Evidence, text_of
from citesynth.verify.comparisons import bound_restated
from citesynth.verify.negation import denies, negation_cues
from citesynth.verify.numbers import canonical

MIN_TERMS = 4
"""Content terms a clause needs to be read on its own."""
SHARE = 0.8
"""What share of a clause's terms a source clause must hold to state it."""
_CUT = re.compile(r"[,;:]\s*|\s+(?:because|since|so\s+that|so|and|but|while|whereas)\s+", re.I)
_OPENING = re.compile(
    r"\s*(?:(?:in\s+order\s+)?to\s+[a-z]+|after|when|whenever|once|before|while|if|with)\b"
    r"[^,;:.!?]*,\s*",
    re.IGNORECASE,
)
"""A claim's opening purpose or condition: what it serves or when it holds."""


def clause_denied(claim: str, evidence: Evidence) -> bool:
    """Whether a plain clause of `claim` is stated by `evidence` only denied (module doc)."""
    opening = _OPENING.match(claim)
    parts = _cut(claim[opening.end() if opening else 0 :])
    if len(parts) < 2 and not opening:
        return False
    for part in parts:
        if negation_cues(part) or denies(part, ""):
            continue
        wanted = {canonical(t) for t in content_terms(part)}
        if len(wanted) < MIN_TERMS:
            continue
        most = max((len(wanted & s.terms) for s in evidence.sentences), default=0)
        if most < SHARE * len(wanted):
            continue
        stating = (
            text_of(evidence, s) for s in evidence.sentences if len(wanted & s.terms) == most
        )
        if all(_denies(part, wanted, text) for text in stating):
            return True
    return False


def _denies(part: str, wanted: set[str], sentence: str) -> bool:
    """Whether a clause of `sentence` stating `SHARE` of `wanted` negates it."""
    return any(
        negation_cues(clause) and not denies(part, clause) and not bound_restated(part, clause)
        for clause in _cut(sentence)
        if len(wanted & {canonical(t) for t in terms(clause)}) >= SHARE * len(wanted)
    )


def _cut(text: str) -> list[str]:
    """`text` cut at each `_CUT`."""
    bounds = [0, *(x for m in _CUT.finditer(text) for x in m.span()), len(text)]
    return [text[bounds[i] : bounds[i + 1]] for i in range(0, len(bounds), 2)]
