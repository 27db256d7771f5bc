"""What a source says only one thing does, said by a claim of only another.

    only_other("Of the default locations in webargs, only the query location supports "
               "nested data structures.", ["… only the ``json`` request location supports "
               "nested datastructures."])
    → ('only the query', 'only the ``json``')

webargs' docs read "Of the default supported locations in webargs, only the ``json``
request location supports nested datastructures"; a claim giving that to the query
location holds every other word, and "query" is on the page too, so coverage passed it.

A claim's "only the X …" (X one word, or up to `_MOST_WORDS` words: what stands right after
"the") contradicts a source's "only the Y …" when what follows them in their clauses
shares at least `MIN_SHARED` content terms, X and Y share none, and the passages never
write "only the" before X.

Measured on the tuning splits (2026-12-07), lexical: 7 of 3,900 claims (written
documentation and its probes, WiCE dev, SciFact train, HaluEval 0–249, Developer Hub dev)
write "only the"; it fires on two, both wrong, one of which the rest had passed. Without
"the" ("only cares about", "only wrap an application") it vetoed three right claims.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence

from citesynth.verify.negated_pairs import written_stems

MIN_SHARED = 2
"""Content terms what follows the two "only the"s must share."""
_MOST_WORDS = 3
_ONLY = re.compile(
    rf"\bonly\s+the\s+((?:[`\w.-]+\s+){{0,{_MOST_WORDS - 1}}}?[`\w.-]+)\s+([^,;.:!?()]{{3,80}})",
    re.IGNORECASE,
)
"""ONLY THE, what it singles out (lazily: one word if it can), and the rest of its clause."""
_MAX_READ = 32
"""The most "only the"s read of the passages: each is compared with each of the claim's."""

Singled = tuple[frozenset[str], frozenset[str], str]
"""What an "only the" singles out, what it says of it (as stems), and "only the X" written."""


def only_other(claim: str, passages: Sequence[str]) -> tuple[str, str] | None:
    """("only the X" as the claim writes it, "only the Y" as a passage does), or None."""
    if "only the" not in claim.lower():
        return None  # most claims: no passage is read
    mine = list(_singled(claim))
    if not mine:
        return None
    theirs = list(
        itertools.islice(itertools.chain.from_iterable(map(_singled, passages)), _MAX_READ)
    )
    for thing, said, written in mine[:_MAX_READ]:
        if any(thing & other for other, _, _ in theirs):
            continue  # the passages single it out too
        for _, stated, source in theirs:
            if len(said & stated) >= MIN_SHARED:
                return written, source
    return None


def _singled(text: str) -> Iterator[Singled]:
    """What each "only the" of `text` singles out and says of it."""
    for found in _ONLY.finditer(text):
        thing, said = written_stems(found.group(1)), written_stems(found.group(2))
        if thing and said:
            written = " ".join(text[found.start() : found.end(1)].split())
            yield thing, said - thing, written
