"""Who does what to whom: a claim giving a word's two sides each other's places.

    arguments_exchanged("A middleware is an application that is wrapped by another "
                        "application", "A middleware is an application that wraps "
                        "another application")
    → ('wrapped', 'another')

"Django REST Framework and colander were inspired by marshmallow" against "marshmallow is
inspired by Django REST Framework and colander" holds every word of its source, and so
does a claim that turns "wraps" into "is wrapped by" and leaves the rest as it was. Each
puts on one side of the relation what its source puts on the other.

A word written once in the claim and once in the stating sentence is the pivot; the
`WINDOW` content terms nearest it on each side, within its clause, are its two sides (what
is written on both sides of one text is neither's). A passive ("is wrapped by", "inspired
by") turns its sides round: what follows "by" does it. The claim exchanges the sides when
each of its sides shares a term with the source's other side and none with the same side.
Never read:

- a pivot that is no verb relating its sides one way (`ONE_WAY`: "wraps", "overrides",
  "inherits", "inspired", "calls"; not "similar to", "compatible with" or a noun), or one
  standing in a list (a comma, "and" or "or" next to it);
- a pivot with "be" before it and no "by" after ("can be configured with X"), or a
  participle with a preposition after it ("a `ValidationError` raised in a method"): who
  does it is not written;
- a pivot written as no verb: "-ing" ("by using X" is a means), "-s" after an article,
  the bare form after no modal, "to" or "not" ("air quality control");
- when another sentence of the passages writes the claim's sides in its order around the
  same pivot: the passages say it both ways.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from citesynth.ingest.rst import rendered_roles
from citesynth.verify.opposites import content_of

WINDOW = 3
"""How many content terms on each side of the pivot are its side."""
_MAX_PIVOTS = 40
"""Pivots read per claim (a longer claim is read for its first 40 shared words)."""
_PIECE = re.compile(r"\d+(?:[.,]\d+)*|[a-z]+(?:-[a-z]+)*|[,;:()!?]|\.(?=\s|\Z)")
_STOPS = frozenset(";:()!?.")
"""Tokens that end a clause: a side is read within the pivot's clause."""
_LISTED = frozenset({",", "and", "or", "nor"})
_BE = frozenset("be is are was were been being get gets got".split())
_IRREGULAR = frozenset("sent caught bought sold taught hid".split())
_PREPOSITIONS = frozenset(
    "in on at from with for to through into within during under via inside as after before".split()
)
_ARTICLES = frozenset("a an the its their his her our your my of".split())
_AUXILIARIES = frozenset(
    "to not cannot can could will would shall should may might must do does did never".split()
)
_SKIPPED = frozenset("not also then only always never still just often usually".split())
ONE_WAY = frozenset(
    content
    for word in (
        "wrap wraps wrapped call calls called invoke invokes invoked override overrides "
        "overrode overridden overwrite overwrites inherit inherits inherited subclass "
        "subclasses subclassed extend extends extended implement implements implemented "
        "import imports imported contain contains contained include includes included "
        "precede precedes preceded follow follows followed replace replaces replaced "
        "supersede supersedes superseded inspire inspires inspired influence influences "
        "influenced convert converts converted send sends sent forward forwards forwarded "
        "delegate delegates delegated proxy proxies proxied redirect redirects redirected "
        "receive receives received raise raises raised catch catches caught handle handles "
        "handled trigger triggers triggered decorate decorates decorated register registers "
        "registered own owns owned manage manages managed control controls controlled "
        "create creates created produce produces produced generate generates generated "
        "derive derives derived parse parses parsed render renders rendered serialize "
        "serializes serialized emit emits emitted consume consumes consumed embed embeds "
        "embedded mount mounts mounted host hosts hosted serve serves served spawn spawns "
        "spawned launch launches launched block blocks blocked protect protects protected "
        "hide hides hid hidden shadow shadows shadowed mask masks masked encapsulate "
        "encapsulates encapsulated instantiate instantiates instantiated validate validates "
        "validated configure configures configured depend depends depended require requires "
        "required use uses used beat beats defeat defeats defeated succeed succeeds "
        "succeeded acquire acquires acquired buy buys bought sell sells sold employ employs "
        "employed hire hires hired appoint appoints appointed teach teaches taught adopt "
        "adopts adopted cause causes caused affect affects affected outperform outperforms "
        "outperformed"
    ).split()
    for content in content_of(word)
)
"""Terms of relations that hold one way: their sides exchanged say something else."""


@dataclass(frozen=True, slots=True)
class _Text:
    """A text's tokens (punctuation kept) and, for each, its content terms."""

    written: tuple[str, ...]
    terms: tuple[tuple[str, ...], ...]
    counts: Counter[str]
    first: dict[str, int]
    """Where each term is first written."""

    @classmethod
    def of(cls, text: str) -> _Text:
        written = tuple(_PIECE.findall(text.lower()))
        terms = tuple(content_of(token) for token in written)
        first: dict[str, int] = {}
        for index, found in enumerate(terms):
            for term in found:
                first.setdefault(term, index)
        return cls(written, terms, Counter(t for found in terms for t in found), first)

    def sides(self, pivot: str) -> tuple[frozenset[str], frozenset[str]] | None:
        """The two sides of the token first holding `pivot`, the doer's first.

        None when it is no verb, stands in a list or in a passive without "by".
        """
        at = self.first[pivot]
        before, after = self.written[at - 1 : at], self.written[at + 1 : at + 2]
        if set(before) & _LISTED or set(after) & _LISTED:
            return None
        passive = after == ("by",)
        if not _verbal(self.written[at], before) or (
            not passive and (self._be_before(at) or _reduced(self.written[at], after))
        ):
            return None
        left = _side(self, range(at - 1, -1, -1))
        right = _side(self, range(at + 2 if passive else at + 1, len(self.written)))
        common = left & right
        left, right = left - common, right - common
        return (right, left) if passive else (left, right)

    def _be_before(self, at: int) -> bool:
        for index in range(at - 1, -1, -1):
            token = self.written[index]
            if token in _BE:
                return True
            if token not in _SKIPPED and not token.endswith("ly"):
                return False
        return False


def _verbal(token: str, before: tuple[str, ...]) -> bool:
    """Whether `token` is written as a verb.

    A past or passive form, "-s" after no article, or the bare form after a modal, "to" or
    "not"; never "-ing" ("by using X" is a means) nor "air quality control" (a noun).
    """
    if token.endswith(("ed", "en", "wn")) or token in _IRREGULAR:
        return True
    if token.endswith("s") and not token.endswith(("ss", "us", "is")):
        return not set(before) & _ARTICLES
    return bool(set(before) & _AUXILIARIES)


def _reduced(token: str, after: tuple[str, ...]) -> bool:
    """Whether a participle with a preposition after it describes its noun.

    "A `ValidationError` raised in a method": what is done to it, by no one written.
    """
    participle = token.endswith(("ed", "en", "wn")) or token in _IRREGULAR
    return participle and bool(set(after) & _PREPOSITIONS)


def _side(text: _Text, walk: range) -> frozenset[str]:
    found: list[str] = []
    for index in walk:
        if text.written[index] in _STOPS or len(found) >= WINDOW:
            break
        found.extend(text.terms[index][: WINDOW - len(found)])
    return frozenset(found)


def arguments_exchanged(
    claim: str, stating: str, others: Iterable[str] = ()
) -> tuple[str, str] | None:
    """The pivot and a word moved, when `claim` exchanges a relation's sides, or None.

    As the claim writes them: `claim` gives the two sides of a one-way word each other's
    places in `stating` (see the module's note).
    """
    mine, theirs = _parsed(claim), _parsed(rendered_roles(stating))
    counted, source = mine.counts, theirs.counts
    pivots = [t for t in counted if counted[t] == 1 and source[t] == 1 and t in ONE_WAY]
    for pivot in pivots[:_MAX_PIVOTS]:
        claimed, stated = mine.sides(pivot), theirs.sides(pivot)
        if claimed is None or stated is None or not _crossed(claimed, stated):
            continue
        if any(
            pivot in s.lower() and _stated_so(pivot, claimed, _parsed(rendered_roles(s)))
            for s in others
        ):
            return None
        moved = min(claimed[0] & stated[1] or claimed[1] & stated[0])
        return mine.written[mine.first[pivot]], mine.written[mine.first[moved]]
    return None


def _crossed(
    claimed: tuple[frozenset[str], frozenset[str]], stated: tuple[frozenset[str], frozenset[str]]
) -> bool:
    """Each side of the claim shares a term with the source's other side, none with its own."""
    (doer, done), (their_doer, their_done) = claimed, stated
    crossed = doer & their_done and done & their_doer
    return bool(crossed) and not (doer & their_doer or done & their_done)


def _stated_so(pivot: str, claimed: tuple[frozenset[str], frozenset[str]], text: _Text) -> bool:
    """Whether `text` writes `pivot` once with the claim's sides on the claim's sides."""
    if text.counts[pivot] != 1:
        return False
    stated = text.sides(pivot)
    return stated is not None and bool(claimed[0] & stated[0]) and bool(claimed[1] & stated[1])


@lru_cache(maxsize=2048)
def _parsed(text: str) -> _Text:
    return _Text.of(text)
