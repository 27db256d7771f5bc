"""Nested calls a claim writes in another order than its source: `striptags(title(name))`.

    rearranged_calls("… is equivalent to striptags(title(name)), so …", [source])
    → (("striptags(title(name))", "title(striptags(name))"),)

Jinja's docs say `{{ name|striptags|title }}` "will remove all HTML Tags from variable
`name` and title-case the output (``title(striptags(name))``)". A claim calling it
`striptags(title(name))` holds every word and name of that sentence, so coverage and the
trained model pass it; the order of the calls is what it gets wrong, and with it which runs
first. A nested call of the claim (a call inside a call's parentheses) the passages never
write, whitespace aside, differs when they write a nested call of the same names in
another order.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence

_CALL = re.compile(r"(?<![\w.])[A-Za-z_][\w.]*\(")
"""Where a call opens: a name and its "(" ("title(", "os.path.join(")."""
_CALLEE = re.compile(r"[A-Za-z_][\w.]*(?=\()")
_MOST = 20
"""The most nested calls of a claim read: a sentence quotes a few."""
_LONGEST = 200
"""The most characters a call is read for its closing parenthesis: longer is no expression
a sentence quotes."""


def rearranged_calls(claim: str, passages: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """Each nested call of `claim` that the passages write only in another order, and theirs."""
    mine = list(dict.fromkeys(itertools.islice(_nested(claim), _MOST)))
    if not mine:
        return ()  # most claims: no source is read
    written = "".join("".join(passages).split())
    theirs: dict[tuple[str, ...], str] = {}
    for call in _nested("\n".join(passages)):
        theirs.setdefault(_names(call), call)
    found = []
    for call in mine:
        other = theirs.get(_names(call))
        if (
            other is not None
            and call not in written
            and _CALLEE.findall(call) != _CALLEE.findall(other)
        ):
            found.append((call, other))  # the same names, called in another order
    return tuple(found)


def _names(call: str) -> tuple[str, ...]:
    """The names a nested call calls, in any order."""
    return tuple(sorted(_CALLEE.findall(call)))


def _nested(text: str) -> Iterator[str]:
    """The calls of `text` holding another call, whitespace removed, outermost only."""
    closing = _closing(text)
    end = 0
    for found in _CALL.finditer(text):
        close = closing.get(found.end() - 1)
        if found.start() < end or close is None or close - found.start() > _LONGEST:
            continue  # inside the call read last, never closed, or too long to be quoted
        call = "".join(text[found.start() : close].split())
        if len(_CALLEE.findall(call)) >= 2:
            end = close
            yield call


def _closing(text: str) -> dict[int, int]:
    """Where each "(" of `text` closes (after its ")"): one pass, however many there are."""
    opened: list[int] = []
    found: dict[int, int] = {}
    for paren in _PAREN.finditer(text):
        if paren.group() == "(":
            opened.append(paren.start())
        elif opened:
            found[opened.pop()] = paren.end()
    return found


_PAREN = re.compile(r"[()]")
