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

`goal_elsewhere` is the converse: a goal the sources hold, given to code they name for
another goal of the same verb. "To disable SSL certificate verification, you can use
`urllib3.disable_warnings`" against "if you ... wish to disable these warnings, you can
use `urllib3.disable_warnings`" holds every word of its source's section (certificate
verification is the section's subject), so coverage, the goal's terms and the model all
passed it; the one sentence naming the function says what it disables, and it is not the
claim's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from citesynth.analysis import INLINE_CODE, bare_name, content_terms, coverage, terms
from citesynth.ingest.rst import rendered_roles
from citesynth.ingest.sentences import prose_sentences

GOAL_COVERAGE = 0.6
"""The share of a goal's content terms the sources must hold (passages, titles, headings).

Set on the Developer Hub `dev` answer claims and the written documentation claims (tuning):
their right goals are held in full or nearly (a user's "yes/no question" where the source
says "confirmation"); the invented goal of the issue's example ("pickle", "share",
"processes") holds two terms in five."""

_OPENING = re.compile(r"\s*(?:in\s+order\s+)?to\s+[a-z]+\b", re.IGNORECASE)
_PURPOSE = re.compile(
    r"\b(?:in\s+order\s+)?to\s+([a-z]+)\s+((?:[^,.;:()!?]|\.(?=\w))+)", re.IGNORECASE
)
"""A purpose clause anywhere in a sentence: its verb and what follows it up to the clause's
end ("to disable these warnings"; a dotted name, "CliRunner.isolated_filesystem", goes on)."""
_PURPOSES = re.compile(f"(?={_PURPOSE.pattern})", re.IGNORECASE)
"""`_PURPOSE` read at every "to", so that one clause never swallows the next."""
_POINTING = re.compile(r"(?:this|that|these|those|it|them|they|such)\b", re.IGNORECASE)
"""A goal that points back ("To enable this feature"): what it names is in another sentence."""
_GENERIC = frozenset(
    content_terms("feature features behaviour behavior option options setting settings mode")
)
"""What an object pointing back names without saying which: "this feature", "that option"."""
_LITERALS = frozenset({"true", "false", "none", "null", "nil"})
_CALLED = re.compile(r"~?([A-Za-z_][\w.]*)(?:\(.*\)|\s*=.*)?")
"""An inline code span that is one name, maybe called or set: `disable_warnings()`,
`timeout=5`; never a path or a command (`dynamic-plugins.yaml`, `pip install x`)."""
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


def _code_names(text: str) -> list[str]:
    """The last dotted part of each name `text` writes as inline code (three letters or more).

    Not a literal (`False`, `None`), nor a name that only holds another: the package of
    "`structlog.WriteLogger` from the `structlog` library" is where the recommended thing
    lives, and its name is in every sentence.
    """
    names = []
    for span in INLINE_CODE.finditer(text):
        called = _CALLED.fullmatch(span.group(1).strip())
        if called and (name := bare_name(called.group(1))) and name.lower() not in _LITERALS:
            names.append(name)
    holders = _prefixes(names)
    return list(
        dict.fromkeys(
            last
            for name in names
            if len(last := name.rsplit(".", 1)[-1]) >= 3 and name not in holders
        )
    )


def _prefixes(names: Sequence[str]) -> frozenset[str]:
    """Every proper dotted prefix of the names: "a" and "a.b" of "a.b.c"."""
    return frozenset(
        ".".join(parts[:cut])
        for name in names
        for parts in [name.split(".")]
        for cut in range(1, len(parts))
    )


@lru_cache(maxsize=512)
def _prose(passage: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The prose sentences of a passage (roles rendered, one line each), with their code.

    The names each writes as code (`_code_names`). Cached: a claim is aligned with its
    passages several times.
    """
    text = rendered_roles(passage)
    sentences = (" ".join(text[start:end].split()) for start, end in prose_sentences(text))
    return tuple((sentence, tuple(_code_names(sentence))) for sentence in sentences)


def _purposes(sentence: str) -> list[tuple[str, str]]:
    """(verb, object) of each purpose clause of a sentence, overlapping ones too.

    "Set `verify` to False to disable verification" holds "to disable verification",
    which a first match "to False to disable verification" would have swallowed. An
    object pointing back at something generic ("to enable this feature") says nothing.
    """
    found = []
    for purpose in _PURPOSES.finditer(sentence):
        verb, thing = purpose.group(1), purpose.group(2).strip()
        if _POINTING.match(thing) and set(content_terms(thing)) <= _GENERIC:
            continue
        found.append((verb, thing))
    return found


def goal_elsewhere(claim: str, passages: Sequence[str]) -> tuple[str, str] | None:
    """(the code, the sources' own purpose for it) when the claim gives it another goal.

    The claim opens with a purpose clause ("To <verb> <object>, ...", `split_goal`) and
    its assertion names code; a prose sentence of the passages writes that code, and no
    other, as code, with a purpose clause of the same verb whose object shares no content
    term with the claim's; and no sentence writing it has a purpose of that verb sharing
    one. A goal that points back ("To enable this feature") is never compared.
    """
    goal = split_goal(claim)
    opening = _PURPOSE.match(goal.goal.strip()) if goal else None
    if goal is None or opening is None or _POINTING.match(opening.group(2)):
        return None
    verb, wanted = terms(opening.group(1)), set(content_terms(opening.group(2)))
    names = set(_code_names(goal.assertion))
    if not verb or not wanted or not names:
        return None
    other = None
    for passage in passages:
        for sentence, written in _prose(passage):
            if names.isdisjoint(written):
                continue
            for their_verb, thing in _purposes(sentence):
                theirs = set(content_terms(thing))
                if terms(their_verb) != verb or not theirs:
                    continue
                if theirs & wanted:
                    return None
                if set(written) <= names:  # other code may be what the clause is about
                    other = other or (written[0], f"to {their_verb} {thing}")
    return other
