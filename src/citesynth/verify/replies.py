"""A yes/no question and its short reply ("Currently, it does not.").

    replied_otherwise("WTForms handles file uploads.", [passage], about)
    → True   (the reply says it does not)

WTForms' FAQ asks "Does WTForms handle file uploads?" in a heading and answers, in the
chunk under it, "Currently, it does not. This is because WTForms strives to be
framework-agnostic, and every web framework handles file uploads somewhat differently."
The reply holds no word of what it denies; the next sentence holds them all and denies
nothing. So "WTForms handles file uploads" was supported (0.93) and the right answer,
"WTForms currently doesn't handle file uploads", had its negation read as a mismatch. A
reply that only says yes or no (`_REPLY`: "No.", "Currently, it does not.", "Yes, you
can.") states what its question asks, negated as the reply is.

A question is one a heading asks (`Check.about`) of the passage opening with the reply, or
a sentence ending in "?" right before the reply; it opens with an auxiliary ("Does",
"Can", "Is", …). A clause of the claim is about it when at least `_SHARED` of its content
terms, and `_SHARE` of them, are the question's or the reply's. Such a clause disagrees
with the reply when it denies what the words of the question say (an odd number of
negations) and the reply does not, or the reverse: "No" to "Does X handle uploads?"
denies them, and so does "Yes" to "Can I render it without a request?". Clauses are cut
at commas, semicolons and the conjunctions that join facts ("since", "because", "but", …).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from citesynth.verify.analysed import passage_sentences
from citesynth.verify.negation import AUXILIARY, negation_cues
from citesynth.verify.numbers import content_stems

_LEAD = (
    r"(?:yes|no|nope|not\s+yet|not\s+currently|currently|unfortunately|sadly|indeed|actually"
    r"|at\s+(?:the\s+moment|present|this\s+time)|as\s+of\s+now|right\s+now|for\s+now)"
)
_REPLY = re.compile(
    rf"\s*(?:{_LEAD}\b[\s,;:!—–-]*)*"
    r"(?:(?:it|they|this|that|there|we|you|he|she)\s+"
    rf"{AUXILIARY}(?:\s*n[’']t|\s+not|\s+never)?"
    r"(?:\s+(?:be\s+)?(?:possible|supported|available|required|needed|necessary))?"
    r"(?:\s+(?:yet|currently|today|at\s+the\s+moment))?\s*)?[.!]?\s*",
    re.I,
)
"""A sentence saying yes or no and nothing else."""
_NEGATIVE = re.compile(r"\b(?:no|nope|not|never)\b|n[’']t\b", re.I)
_QUESTION = re.compile(
    r"(?<!what )(?<!how )(?<!why )(?<!where )(?<!when )(?<!which )(?<!who )"
    rf"\b{AUXILIARY}\s[^?]{{3,200}}\?",
    re.I,
)
"""A yes/no question as a heading asks it (headings are read lower-cased): never one a
question word opens ("How does it work?")."""
_ASKING = re.compile(rf"\s*{AUXILIARY}\b", re.I)
_CLAUSE = re.compile(
    r"[,;:]|\s(?:since|because|but|while|whereas|although|though|so|and\s+so)\s", re.I
)
_PIECE = re.compile(r"(?<=[.!?])\s+")
"""Where a sentence as `passage_sentences` cuts it goes on: it reads "No." as an abbreviation."""
_SHARED = 2
_SHARE = 0.75


def replied_otherwise(claim: str, passages: Sequence[str], about: str = "") -> bool | None:
    """Whether a short reply to a question the claim restates says the opposite.

    True when a clause about a replied question disagrees with its reply; False when the
    claim's every clause about one agrees with it and each of the claim's negated clauses
    is one of them (the reply backs the claim's negation); None when no reply speaks to the
    claim.
    """
    replies = [reply for passage in passages for reply in _replies(passage, about)]
    if not replies:
        return None
    agreed = unbacked = False
    for clause in _clauses(claim):
        wanted = _terms(clause)
        answers = [
            denied
            for asked, denied in replies
            if len(wanted & asked) >= max(_SHARED, _SHARE * len(wanted))
        ]
        if answers and _odd(clause) != answers[0]:
            return True
        agreed = agreed or bool(answers)
        unbacked = unbacked or (not answers and bool(negation_cues(clause)))
    return False if agreed and not unbacked else None


def _odd(text: str) -> bool:
    """Whether `text` denies what its words say: an odd number of negations.

    "You cannot render a form without a request object" denies nothing of "rendering a
    form without one" that "No" to "Can I … without …?" does not.
    """
    return len(negation_cues(text)) % 2 == 1


def _clauses(claim: str) -> list[str]:
    return [part for part in _CLAUSE.split(claim) if part.strip()]


@lru_cache(maxsize=2048)
def _terms(text: str) -> frozenset[str]:
    return content_stems(text)


@lru_cache(maxsize=512)
def _replies(passage: str, about: str) -> tuple[tuple[frozenset[str], bool], ...]:
    """Each short reply of `passage` with its question's terms (and its own).

    And whether the two deny what the question's words say: a "no" to a question that
    negates nothing, or a "yes" to one that does ("Can I render it without a request?").
    """
    spans = passage_sentences(passage)
    texts = [passage[start:end] for start, end in spans]
    found: list[tuple[frozenset[str], bool]] = []
    for at, text in enumerate(texts):
        text = _PIECE.split(text.strip(), maxsplit=1)[0]  # "No. A form reads …": one sentence
        if not re.search("[A-Za-z]", text) or not _REPLY.fullmatch(text):
            continue
        said_no = bool(_NEGATIVE.search(text))
        found.extend(
            (_terms(question) | _terms(text), said_no != _odd(question))
            for question in _asked(texts, at, about)
        )
    return tuple(found)


def _asked(texts: Sequence[str], at: int, about: str) -> Iterator[str]:
    """The questions the reply at `at` answers.

    The sentence before it when that asks one, or the headings' when it opens the passage.
    """
    if at > 0:
        before = _PIECE.split(texts[at - 1].strip())[-1]
        if before.endswith("?") and _ASKING.match(before):
            yield before
        return
    yield from (m.group() for m in _QUESTION.finditer(about))
