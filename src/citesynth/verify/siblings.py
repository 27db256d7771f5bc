"""A name that says the opposite of the claim: `trylast` for what should run first.

pluggy's documentation says 'If marked with a ``"tryfirst"`` or ``"trylast"`` option it
will be executed *first* or *last* respectively'. Asked how to make a hook implementation
run before the others, the embedded model answered "use the `trylast=True` option", and
both verifiers passed it: every word of it is in the source, and which of the two options
does what is said only by the word each name is spelt with.

A claim names the wrong one of two sibling names when:

- a name it writes as code is spelt with a word of one side of a pair of contrary words
  (`SIDES`: first / last, minimum / maximum, enable / disable, request / response, …),
  joined to more than that word (`trylast`, `max_size`, `enable_http2`, never `enabled`
  alone: the word itself is an ordinary word there);
- the sources write the sibling: the same name with that word turned into one of the
  other side (`tryfirst`, `min_size`, `disable_http2`);
- the claim's words outside code hold a word of the other side ("run *before* the
  others") and none of the name's own side: it says of the name what the sibling does;
- nothing negates it: no "not", "never", "n't" in the claim and no false value given to
  the name (`enable_http2=False` is how one disables HTTP/2);
- the claim does not name the sibling too ("the pre_load and pre_dump decorators"):
  which of two names it gives does what is `roles.crossed_names`' to read.

A name outside backticks counts when it is written as code (dotted, snake_case or
camelCase: `request.headers`, `pre_load`, `maxSize`).

It is a veto (`Alignment.disagrees`, read as `misattributed`: "the source says this of
tryfirst, not of trylast"). Measured on 2026-11-30 over every labelled claim here: on the
tuning sets (WiCE dev, SciFact train, HaluEval 0–249, the Developer Hub `dev` answer
claims and the 600 written documentation claims) it fires on one wrong claim, which both
verifiers had passed ("the function decorated with Response.application returns its HTML
wrapped in a Request object" against `Request.application`), and on no right one; on the
report sets (WiCE test, SciFact dev, HaluEval 250–499, the HTTPX, Click and cattrs claims,
the Developer Hub test claims) it fires on none. Rare, then, and never on a right claim:
what it catches is an answer telling the reader to do the opposite of what works.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citesynth.analysis import INLINE_CODE

SIDES: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (frozenset(left.split()), frozenset(right.split()))
    for left, right in (
        ("first before earlier earliest", "last after later latest"),
        ("min minimum smallest lowest fewest", "max maximum largest highest"),
        ("enable enabled enables enabling", "disable disabled disables disabling"),
        ("include included includes", "exclude excluded excludes"),
        ("allow allowed allows", "deny denied denies disallow disallowed forbid"),
        ("lower lowercase", "upper uppercase"),
        ("sync synchronous synchronously", "async asynchronous asynchronously"),
        ("request requests", "response responses"),
        ("startup start starting", "shutdown stop stopping"),
        ("dump dumps dumping serialize serializing", "load loads loading deserialize"),
        ("read reading reads", "write writing writes"),
        ("input inputs", "output outputs"),
        ("prefix", "suffix"),
    )
)
"""Pairs of contrary words a name may be spelt with, each side with the words prose says
it in ("before the others" is the `tryfirst` side): a name holds one of them (`max_size`,
`trylast`), its sibling one of the other side."""

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_CODE_CASE = re.compile(
    r"\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b|\b[a-z0-9]+(?:_[a-z0-9]+)+\b|\b[a-z]+[A-Z]\w*\b"
    r"|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b"
)
"""A name written as code outside backticks: dotted, snake_case, camelCase or CamelCase."""
_FALSE = re.compile(r"\s*[=:]\s*(?:False|false|None|0|off|no)\b|\s+is\s+False\b")
_NEGATED = re.compile(r"\b(?:not|never|no|without|cannot)\b|n't\b", re.IGNORECASE)
_WORD = re.compile(r"[a-z]+")


def _parts(name: str) -> list[str]:
    """`name` in lower-case words, dotted, snake_case and camelCase names split.

    "request.maxSize": request, max, size.
    """
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return [part for part in re.split(r"[_.]", spaced.lower()) if part]


def _spelt_with(name: str) -> list[tuple[str, int]]:
    """The sides' words `name` is spelt with, each with its pair's index.

    A word part of a longer name, or the start or end of a part at least three letters
    longer (`trylast`).
    """
    parts = _parts(name)
    found = []
    for index, (left, right) in enumerate(SIDES):
        for word in {w for side in (left, right) for w in side}:
            for part in parts:
                whole = part == word and len(parts) > 1
                joined = len(part) >= len(word) + 3 and (
                    part.startswith(word) or part.endswith(word)
                )
                if whole or joined:
                    found.append((word, index))
    return found


def _siblings(name: str, word: str, other: frozenset[str]) -> set[str]:
    """`name` with `word` turned into each word of `other`, in lower case."""
    lowered = name.lower()
    return {
        re.sub(rf"(?<![a-z]){word}|{word}(?![a-z])", twin, lowered, count=1) for twin in other
    } - {lowered}


def misnamed_sibling(claim: str, passages: Sequence[str]) -> tuple[str, str] | None:
    """(the claim's name, its sibling in the sources), or None.

    When the claim says of a name what its sibling does (see the module docstring).
    """
    outside = INLINE_CODE.sub(" ", claim)
    codes = [m.group(1) for m in INLINE_CODE.finditer(claim)]
    codes += [m.group() for m in _CODE_CASE.finditer(outside)]
    if not codes or _NEGATED.search(outside):
        return None
    prose = set(_WORD.findall(_CODE_CASE.sub(" ", outside).lower()))
    named = {m.group().lower() for code in codes for m in _NAME.finditer(code)}
    written: set[str] | None = None
    for code in codes:
        for found in _NAME.finditer(code):
            name = found.group()
            if _FALSE.match(code, found.end()):
                continue
            for word, index in _spelt_with(name):
                left, right = SIDES[index]
                own, other = (left, right) if word in left else (right, left)
                if prose & own or not prose & other:
                    continue
                if written is None:
                    written = {m.group().lower() for p in passages for m in _NAME.finditer(p)}
                twins = _siblings(name, word, other) & written
                if twins & named:
                    continue  # the claim names both: which does what is `roles`' to read
                if twins:
                    return name, min(twins)
    return None
