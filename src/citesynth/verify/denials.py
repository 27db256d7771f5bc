"""A plain claim restating what its source denies: "supports Windows" against "does not".

    denied("Gunicorn supports Windows.", [(text, terms, negated), ...], negation_cues)
    → ("supports Windows", "not support Windows")      # a sentence: "It does not support Windows."

`align` checks negation against the sentence stating most of the claim. A claim joining
several facts is stated by the sentence holding most of them, and a fact it flips may sit
in another sentence of the passage: "Gunicorn is a pure-Python WSGI server that supports
Windows directly, installs without extra dependencies ..." against a list whose second
item reads "It does not support Windows". Both verifiers passed such claims.

A source sentence denies a pair of terms when its first two content terms after a
negation cue ("not", "no", "never", "n't"; `cues` finds them as `align` does), within the
cue's clause, are that pair: "does not support Windows" denies (support, windows), "has no
further WebSocket support" (further, websocket), "Not all proxies set all the headers"
(proxies, set). A claim restates the denial when it holds the pair in that order, at most
one content term apart, with no negation cue (nor "rather than", "instead of", "unlike")
before them in their clause, and nothing in the passages states the pair that way: "uWSGI
does not support Windows; Gunicorn supports Windows" denies nothing to a claim about
Gunicorn. Only plain claims are read (`align` checks a negated one against the sentence
stating it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from citesynth.analysis import content_terms

Cues = Callable[[str], list[tuple[int, str]]]

_WORD = re.compile(r"[A-Za-z][\w'’-]*")
_CLAUSE_END = re.compile(r"[,;:.!?()\[\]]|\s[–—-]+\s|\bbut\b")
_DENYING = frozenset("not no never cannot none neither nor".split())
"""Cues that deny what follows them (`align`'s privative words and "fail to" deny a state,
not the event words after them)."""
_CONTRASTED = re.compile(r"\b(?:rather\s+than|instead\s+of|unlike)\b", re.IGNORECASE)
"""What sets the words after it aside as the other alternative, as a negation does: "the first
versions with the features rather than minimum supported ones"."""
_GAP = 1
"""Content terms allowed between the two terms of a pair."""


@lru_cache(maxsize=2048)
def _sequence(text: str) -> tuple[tuple[str, int], ...]:
    """The content terms of `text` in order, each with the offset of its word."""
    return tuple(
        (term, match.start())
        for match in _WORD.finditer(text)
        for term in content_terms(match.group())
    )


def _clause_start(text: str, offset: int) -> int:
    """Where the clause holding `offset` starts."""
    ends = [m.end() for m in _CLAUSE_END.finditer(text, 0, offset)]
    return ends[-1] if ends else 0


def _denied_pairs(sentence: str, cues: Cues) -> list[tuple[str, str, str]]:
    """(first term, second term, the words) each negation cue of `sentence` denies."""
    found = []
    for offset, word in cues(sentence):
        if word not in _DENYING and not word.endswith("n't"):
            continue
        after = sentence[offset + len(word) :]
        end = _CLAUSE_END.search(after)
        clause = after[: end.start() if end else 120]
        following = [term for term, _ in _sequence(clause)]
        if len(following) >= 2:
            found.append((following[0], following[1], f"{word}{clause}".strip()))
    return found


def _states(text: str, first: str, second: str, cues: Cues) -> str | None:
    """The words of `text` stating the pair (`first`, then `second`) plainly, or None.

    Plainly: no negation cue, "rather than", "instead of" or "unlike" before them in their
    clause.
    """
    sequence = _sequence(text)
    denials = [offset for offset, _ in cues(text)] + [m.start() for m in _CONTRASTED.finditer(text)]
    for index, (term, offset) in enumerate(sequence):
        if term != first:
            continue
        for later, end in sequence[index + 1 : index + 2 + _GAP]:
            if later != second:
                continue
            start = _clause_start(text, offset)
            if not any(start <= cue < offset for cue in denials):
                stop = _WORD.match(text, end)
                return text[offset : stop.end() if stop else end]
    return None


def denied(
    claim: str, sentences: Sequence[tuple[str, frozenset[str], bool]], cues: Cues
) -> tuple[str, str] | None:
    """(the claim's words, the source's denial) of a pair it states and the source denies.

    None when there is none (see the module docstring).

    `sentences` are the passages' sentences as (text, stemmed terms, whether negated).
    """
    pairs = [
        pair for text, _, negated in sentences if negated for pair in _denied_pairs(text, cues)
    ]
    for first, second, denial in pairs:
        stated = _states(claim, first, second, cues)
        if stated is None:
            continue
        holding = (text for text, held, _ in sentences if first in held and second in held)
        if any(_states(text, first, second, cues) for text in holding):
            continue
        return stated, denial
    return None
