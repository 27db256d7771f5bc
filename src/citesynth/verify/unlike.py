"""What a source says "unlike X" of something else, said of X by a claim.

    unlike_attributed("Because bound loggers need more flexibility when being instantiated, "
                      "structlog has you configure a factory …", evidence)
    → ("bound loggers", "Unlike with *bound loggers*, you often need more flexibility when
       instantiating them")

structlog's docs on loggers read "Unlike with *bound loggers*, you often need more
flexibility when instantiating them": the flexibility is the wrapped loggers' need, not the
bound loggers'. Every word of the claim above is on the page, so coverage passed it.

A sentence of the passages contrasting a thing ("Unlike X, …", "In contrast to X, …") says
what follows of something else. A claim writing the last two content words of X side by
side (`negated_pairs`' pairs: a claim that negates, contrasts or denies in a word writes
none) says it of X when the clause holding them holds at least `MIN_HELD` content terms of
what follows, and at least a quarter of them (X's own terms left out). A claim writing
"like", "whereas", "while" or "contrast" may be contrasting the two itself and is not read,
nor is code.

Measured on the tuning splits (2026-12-07), lexical: the 760 written documentation claims,
wrong passed 96 → 95 (trained 103 → 102), no right claim vetoed; WiCE dev, SciFact train,
HaluEval 0–249, Developer Hub dev and the changed-detail claims unchanged. Prose sentences
of the tuning documentation read against their own page: 20 of 85,285 fail, as before.
"""

from __future__ import annotations

import re

from citesynth.verify.analysed import Evidence, is_prose, text_of
from citesynth.verify.negated_pairs import plain_pairs, written_stems
from citesynth.verify.numbers import canonical
from citesynth.verify.opposites import WRITTEN_TOKEN, content_of

MIN_HELD = 2
"""Content terms of what a contrast says that a claim's clause must hold."""
_CONTRASTED = re.compile(
    r"\b(?:unlike|in\s+contrast\s+to)\s+(?:with\s+)?([^,;:.!?\n]{2,80}?),\s*([^;:.!?]{5,300})",
    re.IGNORECASE,
)
"""A thing contrasted and what is said of the other: "Unlike with X, you often need …"."""
_CLAIM_CONTRASTS = re.compile(r"\b(?:unlike|like|contrast|whereas|while)\b", re.IGNORECASE)


def unlike_attributed(claim: str, evidence: Evidence) -> tuple[str, str] | None:
    """(the claim's words for X, the source's contrast) when it says of X what is not X's.

    See the module docstring.
    """
    if _CLAIM_CONTRASTS.search(claim):
        return None
    pairs = plain_pairs(claim)
    if not pairs:
        return None
    for sentence in evidence.sentences:
        text = text_of(evidence, sentence)
        if "nlike" not in text and "ontrast" not in text:
            continue
        for found in _CONTRASTED.finditer(text):
            thing = [
                canonical(term)
                for token in WRITTEN_TOKEN.finditer(found.group(1))
                for term in content_of(token.group().lower())
            ]
            if len(thing) < 2 or (thing[-2], thing[-1]) not in pairs:
                continue
            words, clause = pairs[thing[-2], thing[-1]]
            said = written_stems(found.group(2)) - set(thing)
            held = said & written_stems(clause)
            if len(held) < MIN_HELD or 4 * len(held) < len(said):
                continue
            if is_prose(evidence, sentence):
                return words, " ".join(found.group().split())
    return None
