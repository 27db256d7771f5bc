"""Keep the supported part of a claim whose tail no source supports.

A model often states a right fact and adds a wrong or unsupported one to it in the same
sentence: "Shelley Morrison played Rosario on Will & Grace and is still alive [1]." The
claim as written is unsupported and would go whole. Cut where a new predicate or clause
begins ("and is", ", but", ", which", "; ") and check the part before the cut with the same
verifier: when a leading part is *supported* by the sources the claim cites, the answer keeps
that part with the claim's citation ("Shelley Morrison played Rosario on Will & Grace [1].")
and the claim as written is still listed as removed. Nothing is ever added or reworded; the
longest supported leading part wins; a part shorter than `MIN_WORDS` words, or ending on a
word that needs what follows ("between", "of", "the"), is never kept, and neither is a part
whose tail limits it (", but only for idempotent requests": the part alone would overstate).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from citesynth.citations.resolve import compact
from citesynth.verify.base import Check, Passage, Verifier
from citesynth.verify.claims import MARKER, ClaimSpan

MIN_WORDS = 4
"""The fewest words a kept part may have."""

KEEPS = "the answer keeps only"
"""How the reason on a trimmed claim begins (the terminal and the page show it)."""

_CUT = re.compile(
    r"(?:\s*;\s+|\s+[–—]\s+"
    r"|,?\s+(?:and|but|or)\s+(?=(?:is|are|was|were|has|have|had|does|did|will|can|also|then|"
    r"later|now|still|it|they|he|she|its|their|his|her|this|these|there)\b)"
    r"|,\s+(?:but|while|whereas|although|though|which|who|where|making|including|with"
    r"|as well as)\s+"
    r"|\s+(?:but|while|whereas|although|though)\s+)",
    re.I,
)
_DANGLING = frozenset(
    "a an the of to for from in on at by with between and or but as than that which who "
    "whose its their his her this these those not no".split()
)
_LIMITING = frozenset("only not never except unless if when no without nor just solely".split())
"""A tail starting so limits what comes before it: the part before would overstate."""


@dataclass(frozen=True, slots=True)
class Trim:
    """A claim cut to the leading part its cited sources support."""

    claim: ClaimSpan
    kept: str
    """The supported leading part (no markers, no closing punctuation)."""

    def reason(self) -> str:
        """Why the claim as written is listed as removed while part of it stays."""
        return f"{KEEPS} {self.kept!r}: its source does not support the rest"

    def describe(self) -> str:
        """One line for `warnings`."""
        dropped = self.claim.text[len(self.kept) :].strip(" ,;:.")
        quoted = dropped if len(dropped) <= 60 else dropped[:57] + "..."
        return (
            f"kept the supported part of a claim and dropped {quoted!r}, which no source supports"
        )


def leading_parts(text: str) -> list[str]:
    """The parts of `text` before each clause cut, longest first, that may stand alone."""
    parts = []
    for cut in _CUT.finditer(text):
        part = text[: cut.start()].rstrip(" ,")
        words = part.split()
        tail = text[cut.end() :].split()[:1]
        if tail and tail[0].lower().strip(".,") in _LIMITING:
            continue
        if len(words) >= MIN_WORDS and words[-1].lower().strip(".,") not in _DANGLING:
            parts.append(part)
    return sorted(set(parts), key=len, reverse=True)


async def trims(
    claims: Sequence[tuple[ClaimSpan, bool]],
    passages: Sequence[Passage],
    verifier: Verifier,
) -> list[Trim]:
    """The longest leading part its cited sources support, per unsupported claim.

    `claims` are (claim, supported) pairs; supported claims and uncited ones are skipped.
    """
    by_number = {p.number: p for p in passages}
    asked: list[tuple[ClaimSpan, str]] = []
    for claim, supported in claims:
        cited = [n for n in claim.citations if n in by_number]
        if supported or not cited:
            continue
        asked.extend((claim, part) for part in leading_parts(claim.text))
    if not asked:
        return []
    verdicts = await verifier.verify(
        [
            Check(part, tuple(by_number[n].text for n in claim.citations if n in by_number))
            for claim, part in asked
        ]
    )
    found: dict[int, Trim] = {}
    for (claim, part), verdict in zip(asked, verdicts, strict=True):
        if verdict.supported and claim.start not in found:  # longest first
            found[claim.start] = Trim(claim, part)
    return list(found.values())


def apply(answer: str, cuts: Sequence[Trim]) -> str:
    """`answer` with each trimmed claim replaced by its kept part and its citation."""
    pieces = []
    position = 0
    for trim in sorted(cuts, key=lambda t: t.claim.start):
        claim = trim.claim
        body = MARKER.sub("", answer[claim.start : claim.end]).rstrip()
        ending = ""
        while body and body[-1] in ".!?;,":
            ending = body[-1] + ending
            body = body[:-1]
        cited = compact(claim.citations)
        pieces.append(answer[position : claim.start] + f"{trim.kept} {cited}{ending}")
        position = claim.end
    pieces.append(answer[position:])
    return "".join(pieces)
