"""A how-to claim's goal and what it asserts: "To <goal>, <assertion>".

    split_goal("To ask the user a yes/no question, call the `confirm` function.")
    → Goal(goal="To ask the user a yes/no question", assertion="Call the `confirm` function.")

Answers to how-to questions open most sentences with the question, restated as a purpose
clause, and state the answer after it. Documentation states the same thing the other way
round ("To ask if a user wants to continue with an action, the `confirm` function comes in
handy"), or states the answer under a heading that names the goal. The cross-encoder reads
the whole sentence and weighs the restated question as much as the answer, so it rejects
right answers whose goal is worded as the user asked it.

`goal_backed` is the second reading `verify.trained` gives such a claim: the assertion,
checked on its own by the whole verifier, and the goal's terms, most of which the sources
(their passages, titles and headings) must hold. A goal the sources do not mention ("To
pickle a Client to share it between processes, use the `with` statement") still fails: the
assertion is true, but nothing says it achieves that goal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from citesynth.analysis import INLINE_CODE, content_terms, coverage, terms

GOAL_COVERAGE = 0.6
"""The share of a goal's content terms the sources must hold (passages, titles, headings).

Set on the Developer Hub `dev` answer claims and the written documentation claims (tuning):
their right goals are held in full or nearly (a user's "yes/no question" where the source
says "confirmation"); the invented goal of the issue's example ("pickle", "share",
"processes") holds two terms in five."""

_OPENING = re.compile(r"\s*(?:in\s+order\s+)?to\s+[a-z]+\b", re.IGNORECASE)
_COMMA = re.compile(r",\s+")
_FIRST_WORD = re.compile(r"[A-Za-z.]+")
_GOES_ON = frozenset(
    """such as e.g eg i.e ie for including like or and nor without with within in on at
    from into onto that which where when while whether so even especially instead rather
    not both either via using by of than then but if unless as""".split()
)
"""Words that open a piece of the goal itself after a comma ("To pass a file such as
-foo.txt, as an argument, ..."), never the answer."""


@dataclass(frozen=True, slots=True)
class Goal:
    """A purpose clause and the sentence it opens."""

    goal: str
    assertion: str


def split_goal(claim: str) -> Goal | None:
    """The claim's opening purpose clause and the assertion after it; None without one.

    The clause ends at the first comma (outside inline code) whose next word does not go
    on with it ("such as", "as", "without", ...); an assertion of fewer than three words
    is no assertion.
    """
    if not _OPENING.match(claim):
        return None
    code = iter(m.span() for m in INLINE_CODE.finditer(claim))
    span = next(code, None)
    for comma in _COMMA.finditer(claim):
        while span is not None and span[1] <= comma.start():
            span = next(code, None)  # commas and spans both come in order: one pass
        if span is not None and span[0] <= comma.start():
            continue  # inside inline code
        first = _FIRST_WORD.match(claim, comma.end())
        if first is None or first.group().lower().rstrip(".") in _GOES_ON:
            continue
        rest = claim[comma.end() :]
        if len(rest.split()) < 3:
            return None
        return Goal(claim[: comma.start()].strip(), rest[:1].upper() + rest[1:])
    return None


def goal_backed(goal: str, passages: Sequence[str], about: str = "") -> bool:
    """Whether the sources hold most of the goal's content terms (`GOAL_COVERAGE`)."""
    wanted = content_terms(goal)
    if not wanted:
        return False
    found = set(terms(" ".join([about, *passages])))
    return coverage(wanted, found) >= GOAL_COVERAGE
