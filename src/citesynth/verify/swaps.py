"""Swapped details: a claim pairing two values with each other's subjects.

"The connect timeout is 10 seconds and the read timeout is 5 seconds" against "The
connect timeout is 5 seconds; the read timeout is 10 seconds" holds every word and number
of its source, in pairs close together, so coverage passes it; so does "Uploads are
synchronous, while downloads stay asynchronous" against the reverse. Each states of one
subject what the source states of the other, and a claim that swaps two names does too.

Two items of a claim are swapped against the sentence stating it (the anchor of the
alignment) when that sentence holds both and the binding is crossed both ways: each
item's neighbours in the claim (the `NEAR` content words on either side, within its
clause) share more terms with what only the other item's neighbours hold in the sentence
than with what only its own hold there. The items are the numbers the claim writes in
digits, the two sides of a contradictory pair (`opposites.CONTRARIES`) when the claim and
the sentence hold a word of each, and the claim's proper names (capitalised words inside
a sentence, `analysis.NAME`): "Cardiff beat Swansea 2-1 at Ninian Park" against "Swansea
beat Cardiff 2-1 at Ninian Park". Items written side by side, or joined by "and",
"or", "to" and the like, on either side ("public and private unions", "aged 10-24", "April
4, 2011") are coordinated, bound to nothing apart, and never read as swapped.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

from citesynth.analysis import NAME
from citesynth.verify.opposites import CONTRARIES, TOKEN, content_of, near, tokens

_NAMES = re.compile(NAME.pattern + r"(?:\s+[A-Z][\w'’-]*)*")
"""A proper name of one or more capitalised words ("President Robert Mugabe": one name)."""
_CLAUSE = re.compile(r"[,;:()!?\n]|\.(?:\s|\Z)|\s(?:and|but|while|whereas|with|or)\s", re.I)
"""Where a clause ends: an item's neighbours are read within its own clause."""


@lru_cache(maxsize=4096)
def _clauses(text: str) -> tuple[tuple[str, ...], ...]:
    """The tokens of each clause of `text`."""
    return tuple(
        found for part in _CLAUSE.split(text.lower()) if (found := tuple(TOKEN.findall(part)))
    )


def _kinds(claim: str, stating: str) -> list[list[frozenset[str]]]:
    """The claim's items the stating sentence holds too, by kind.

    Its numbers, the two sides of each contradictory pair, its names; each item as the
    tokens that write it. A swap exchanges like with like: a number with a number, a name
    with a name.
    """
    written = [token for clause in _clauses(claim) for token in clause]
    said = frozenset(written)
    source = frozenset(token for clause in _clauses(stating) for token in clause)
    kinds = [[frozenset({t}) for t in dict.fromkeys(written) if t[0].isdigit() and t in source]]
    kinds += [
        [left, right]
        for left, right in CONTRARIES
        if said & left and said & right and source & left and source & right
    ]
    runs = dict.fromkeys(match.group().lower() for match in _NAMES.finditer(claim))
    names = (frozenset(w for w in run.split() if w.isalpha() and w in source) for run in runs)
    kinds.append([name for name in dict.fromkeys(names) if name])
    return kinds


def swapped(claim: str, stating: str) -> tuple[str, str] | None:
    """Two items of `claim` bound the other way round in `stating`, or None.

    The items as the claim writes them.
    """
    for items in _kinds(claim, stating):
        for first, second in itertools.combinations(items, 2):
            if not first & second and _crossed(claim, stating, first, second):
                written = frozenset(token for clause in _clauses(claim) for token in clause)
                return min(first & written), min(second & written)
    return None


_JOINING = frozenset("and or nor to through than versus vs from between".split())
"""Words that may stand between two coordinated items ("public and private", "5 to 10")."""


def _coordinated(text: str, first: frozenset[str], second: frozenset[str]) -> bool:
    """Whether `text` writes the two items side by side, or joined by `_JOINING` words."""
    written = tokens(text)
    at = [i for i, t in enumerate(written) if t in first]
    other = [i for i, t in enumerate(written) if t in second]
    return any(
        abs(i - j) <= 3 and all(t in _JOINING for t in written[min(i, j) + 1 : max(i, j)])
        for i in at
        for j in other
    )


def _crossed(claim: str, stating: str, first: frozenset[str], second: frozenset[str]) -> bool:
    if _coordinated(claim, first, second) or _coordinated(stating, first, second):
        return False
    words = {t for item in (first, second) for w in item for t in content_of(w)}
    mine = [near(_clauses(claim), first) - words, near(_clauses(claim), second) - words]
    theirs = [near(_clauses(stating), first) - words, near(_clauses(stating), second) - words]
    own = [theirs[0] - theirs[1], theirs[1] - theirs[0]]
    return all(len(mine[i] & own[1 - i]) > len(mine[i] & own[i]) for i in range(2))
