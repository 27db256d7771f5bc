"""A comparison the source never makes: "X gets more weight than Y" against "half and half".

The embedded model, asked how BM25 and dense results are combined, wrote "dense search
results are given more weight than BM25 results" against a passage saying the two lists
are "weighted half and half"; both verifiers passed it (lexical 0.58, trained 0.73): every
word of it is in the passage but the comparison. A claim comparing two things ("more …
than", "fewer … than", "younger than") states a comparison; the sources make it only if a
sentence about the same thing (two or more of the claim's content terms) compares
something: "than", a comparative ("more", "higher", "better", …), "compared", "versus",
"outperforms", "exceeds", "prefer". Which way round is left to the other checks
(`swaps`, `opposites`): here only whether any comparison is made at all.

It is a veto (`Alignment.disagrees`). Measured on 2026-11-30 against the lexical verifier:
on the tuning splits (WiCE dev, SciFact train, HaluEval 0–249, the 600 written
documentation claims) it fired on 3 right claims and 26 wrong ones, and among the claims
the verifier passed, on 3 wrong ones and no right one; on the report splits on 1 right and
9 wrong claims, among those passed on 3 wrong ones and no right one. The trained
verifier, which passes more right claims, lost one on SciFact dev ("ubiquitinated at a
higher rate than" against "the main targets") and caught two wrong ones there (balanced
accuracy 0.7148 → 0.7161).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citesynth.analysis import content_terms
from citesynth.ingest.sentences import sentence_spans

_NOT_COMPARATIVE = "rather|other|either|whether|neither|together|however|never|over|under|after"
CLAIMED = re.compile(
    r"\b(more|less|fewer|greater|higher|lower|better|worse"
    rf"|(?!(?:{_NOT_COMPARATIVE})\b)[a-z]{{3,}}er)\b(?:\s+[\w-]+){{0,4}}?\s+than\b",
    re.IGNORECASE,
)
"""A comparison of the claim: a comparative and its "than", at most four words apart."""
_MADE = re.compile(
    r"\b(?:than|more|less|fewer|greater|higher|lower|better|worse|outperform\w*|exceed\w*"
    r"|superior|inferior|compared?|comparison|versus|vs|prefer\w*)\b",
    re.IGNORECASE,
)
"""A comparison a source sentence makes, whatever its terms."""
_ABOUT = 2
"""Content terms of the claim a source sentence must hold to be about the same thing."""


PAST_UPPER = frozenset(
    "more greater larger higher longer bigger exceed exceeds exceeding beyond above over".split()
)
PAST_LOWER = frozenset("less fewer smaller shorter lower below under".split())
COMPARISONS = PAST_UPPER | PAST_LOWER
"""Words that go past a bound, above or below it."""
NEGATED_BOUND = re.compile(
    r"(?:\b(?:not|no|never|cannot)|n't)\b(?:\W+\w+){0,8}?\W+(?P<past>"
    + "|".join(sorted(COMPARISONS, key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)
"""A limit stated as what may not happen past it: "Do not GZip responses that are smaller
than this minimum size", "must not exceed 64 KB", "cannot have more than 1000 fields"."""
BOUND_WORDS = frozenset(
    "smallest largest biggest least fewest lowest highest shortest longest minimum maximum".split()
)
"""The words of a claim that name a bound ("the smallest response compressed is 500 bytes")."""
_UPPER_BOUND = re.compile(
    r"\b(?:maximum|largest|highest|longest|biggest|at\s+most|up\s+to)\b", re.I
)
_LOWER_BOUND = re.compile(r"\b(?:minimum|smallest|lowest|shortest|fewest|at\s+least)\b", re.I)


def bound_denied(claim: str, sentence: str) -> bool:
    """Whether `claim` denies going past the bound that `sentence` names, on the same side.

    aiohttp's "`client_max_fields`: maximum number of form fields accepted by
    `BaseRequest.post` … Default is ``1000``" states "the form cannot have more than 1000
    fields": "not … more / greater / larger / higher / longer / exceed / above" restates
    "maximum", "at most", "up to"; "not … fewer / less / smaller / below" restates
    "minimum", "at least". A claim's "cannot have more than" against a "minimum" does not.
    Whether the bound's number is the sentence's, the number check decides. The mirror of
    `bound_restated` (a claim naming the bound of a source's denial).
    """
    denied = NEGATED_BOUND.search(claim)
    if denied is None:
        return False
    upper = denied.group("past").lower() in PAST_UPPER
    return (_UPPER_BOUND if upper else _LOWER_BOUND).search(sentence) is not None


def bound_restated(claim: str, sentence: str) -> bool:
    """Whether a plain `claim` names as a bound what `sentence` states as a denial.

    "The smallest response GZipMiddleware compresses is 500 bytes" restates "Do not GZip
    responses that are smaller than this minimum size": the source's "not" bounds a
    comparison, and the claim gives the bound ("smallest", "minimum", "maximum"). Whether the
    bound's number is the source's, the number check decides. A claim making the comparison
    itself ("GZips responses smaller than this minimum size") denies the source. The mirror
    of `bound_denied`.
    """
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", claim)}
    return (
        not words.isdisjoint(BOUND_WORDS)
        and words.isdisjoint(COMPARISONS)
        and NEGATED_BOUND.search(sentence) is not None
    )


def unstated_comparison(claim: str, passages: Sequence[str]) -> str | None:
    """The comparison `claim` makes ("more weight than"), unless the passages make one.

    None when the claim compares nothing or a sentence of `passages` about the same thing
    makes any comparison, or names the bound the claim denies going past (`bound_denied`).
    """
    claimed = CLAIMED.search(claim)
    if claimed is None:
        return None  # most claims: nothing else is read
    wanted = set(content_terms(claim))
    for passage in passages:
        for start, end in sentence_spans(passage):
            sentence = passage[start:end]
            made = _MADE.search(sentence) or bound_denied(claim, sentence)
            if made and len(wanted & set(content_terms(sentence))) >= _ABOUT:
                return None
    return claimed.group()
