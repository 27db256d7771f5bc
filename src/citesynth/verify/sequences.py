"""Two steps a claim puts in the other order from its source ("first A, then B").

    sequence_reversed("The json_or_form location first tries to load the data as a form "
                      "post and only falls back to parsing the body as JSON if that fails.",
                      "The `json_or_form` location does this -- first trying to load data "
                      "as JSON and then falling back to a form body")
    → ('form', 'JSON')

webargs' docs on `json_or_form` and pluggy's on hook wrappers ("The return value or
exception propagate to further hook wrappers, and finally to the hook caller") hold every
word of a claim that runs their steps the other way round, so coverage passes it, and the
before / after checks (`swaps.order_reversed`, `opposites.reversed_order`) never see it:
neither side writes "before" or "after".

A sentence orders two steps when it writes "then", "finally", "afterwards", "followed by"
or "falls back to" (`_NEXT`): the earlier step runs from "first" before it in the sentence,
or else from the clause's start, the later one to the end of its clause. A conditional
("if A then B") orders nothing. A claim's steps are read the other way round when a term
of its earlier step only the stating sentence's later step holds, and a term of its later
step only that sentence's earlier step holds, and no sentence stating it orders those
terms the claim's way.

Measured on the tuning splits (2026-12-07), lexical: of 3,900 claims (written
documentation, WiCE dev, SciFact train, HaluEval 0–249, Developer Hub dev) 74 order two
steps; it vetoes no right one, and two wrong claims of documentation probes first read
on that day (`tests/fixtures/docs_claims_probe_*.jsonl`: webargs, pluggy).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator

from citesynth.ingest.rst import rendered_roles
from citesynth.verify.negated_pairs import written_stems
from citesynth.verify.numbers import canonical
from citesynth.verify.opposites import WRITTEN_TOKEN, content_of

_NEXT = re.compile(
    r"(?:,?\s+and)?\s*,?\s*\b(?:then|finally|afterwards|followed\s+by"
    r"|(?:and\s+|only\s+|then\s+)?fall(?:s|ing)?\s+back\s+(?:to|on))\b",
    re.IGNORECASE,
)
"""What puts a step after another ("and then", ", and finally", "falls back to")."""
_FIRST = re.compile(r"\b(?:first|firstly)\b", re.IGNORECASE)
_CLAUSE_START = re.compile(r"[,;:]|\s--\s|\s—\s")
_CLAUSE_END = re.compile(r"[,;:.!?(]|\s--\s|\s—\s")
_CONDITION = re.compile(r"\b(?:if|unless|whether)\b", re.IGNORECASE)
"""A condition ("if A then B"); not `negated_pairs.CONDITION`'s "when" and "once", which
order ("once A, then B")."""
_MAX_LENGTH = 2_000
"""The longest sentence read for steps (a page run into one line is not one sentence)."""
_MAX_STEPS = 16
"""The most orderings read of a claim (and four times as many of the sentences stating it):
each of the claim's is compared with each of theirs."""

Steps = tuple[frozenset[str], frozenset[str]]
"""The terms of the earlier step only, and of the later step only."""


def sequence_reversed(claim: str, stating: Iterable[str]) -> tuple[str, str] | None:
    """A word of the claim's earlier step and one of its later step, or None.

    When the sentences `stating` the claim order the two the other way round (see the
    module docstring).
    """
    if not _NEXT.search(claim):
        return None  # most claims: read before any sentence is
    mine = list(itertools.islice(_steps(claim), _MAX_STEPS))
    if not mine:
        return None
    theirs = list(
        itertools.islice(
            (steps for sentence in stating for steps in _steps(rendered_roles(sentence))),
            4 * _MAX_STEPS,
        )
    )
    for earlier, later in mine:
        for first, then in theirs:
            ahead, behind = (earlier & then) - first, (later & first) - then
            if ahead and behind and not any(ahead & a and behind & b for a, b in theirs):
                return _written(claim, ahead), _written(claim, behind)
    return None


def _steps(sentence: str) -> Iterator[Steps]:
    """The two steps of each ordering `sentence` writes, as stems."""
    if len(sentence) > _MAX_LENGTH:
        return
    for found in _NEXT.finditer(sentence):
        before = sentence[: found.start()]
        firsts = list(_FIRST.finditer(before))
        if firsts:
            start = firsts[-1].end()
        else:
            starts = list(_CLAUSE_START.finditer(before))
            start = starts[-1].end() if starts else 0
        earlier = before[start:]
        if _CONDITION.search(earlier):
            continue  # "if A then B": a condition, not an order
        rest = sentence[found.end() :]
        end = _CLAUSE_END.search(rest)
        later = rest[: end.start()] if end else rest
        first, then = written_stems(earlier), written_stems(later)
        if first - then and then - first:
            yield first - then, then - first


def _written(claim: str, wanted: frozenset[str]) -> str:
    """The first word of `claim` all of whose stems are `wanted`."""
    for token in WRITTEN_TOKEN.finditer(claim):
        found = content_of(token.group().lower())
        if found and all(canonical(t) in wanted for t in found):
            return token.group()
    return sorted(wanted)[0]
