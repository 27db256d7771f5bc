"""Who does what to whom: a claim giving a word's two sides each other's places.

    arguments_exchanged("A middleware is an application that is wrapped by another "
                        "application", "A middleware is an application that wraps "
                        "another application")
    → ('wrapped', 'another')

"Django REST Framework and colander were inspired by marshmallow" against "marshmallow is
inspired by Django REST Framework and colander" holds every word of its source, and so
does a claim that turns "wraps" into "is wrapped by" and leaves the rest as it was. Each
puts on one side of the relation what its source puts on the other.

A word written once in the claim and once in the stating sentence is the pivot: a verb
relating two things one way (`ONE_WAY`) or a noun doing so before "of" ("the parent class
of"). The `WINDOW` content terms nearest it on each side, within its clause, are its two
sides (what is written on both sides of one text is neither's); in the same voice the one
or two terms both texts write next to it alike are its phrase ("the compiler then
converts"), and the sides are read past them. A passive ("is wrapped by", "inspired by")
turns its sides round: what follows "by" does it. A verb converting one thing into another
(`_CONVERTING`: "converts A into B", "A is converted into B") has A and B as its sides,
and a comparative (`_COMPARING`: "A is faster than B") A and what follows "than", each
read whole; adverbs ("often", "still") are no side's. The claim exchanges the sides when
each of its sides shares a term with the source's other side and none with the same side,
or when the nearest term of each side in each text stands only on the other text's other
side ("Form is the parent class of BaseForm, and most of …" against "BaseForm is the
parent class of Form, and most of …", whose sides go on alike). Never read:

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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from citesynth.ingest.rst import rendered_roles
from citesynth.verify.opposites import content_of

WINDOW = 3
"""How many content terms on each side of the pivot are its side."""
_PHRASE = 2
"""At most how many terms next to the pivot, written alike on both sides, are its phrase."""
_REACH = 12
"""How many content terms on each side are read past the pivot's phrase."""
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
_RELATIONAL = frozenset(
    "parent child subclass superclass ancestor descendant predecessor successor owner "
    "author creator founder wrapper caller sender receiver superset subset".split()
)
"""Nouns relating two things one way, read before "of" ("the parent class of")."""
_CONVERTING = frozenset(
    content
    for word in "convert converts converted turn turns turned transform transforms transformed "
    "translate translates translated cast casts coerce coerces coerced map maps mapped".split()
    for content in content_of(word)
)
"""Verbs turning one thing into another: their sides are what "into" (or "to") parts."""
_INTO = frozenset({"into"})
_THAN = frozenset({"than"})
_TURNING = frozenset("turn turns turned".split())
"""Read with "into" only: "turns to" is no conversion."""
_COMPARING = frozenset(
    content
    for word in "larger smaller bigger greater faster slower quicker higher lower better worse "
    "stronger weaker longer shorter heavier lighter cheaper older newer earlier later".split()
    for content in content_of(word)
)
"""Comparatives: "A is faster than B" relates A to B one way; its sides part at "than"."""
_PIVOTS = (
    _COMPARING
    | _CONVERTING
    | ONE_WAY
    | frozenset(term for word in _RELATIONAL for term in content_of(word))
)


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
        terms = tuple(_terms_of(token) for token in written)
        first: dict[str, int] = {}
        for index, found in enumerate(terms):
            for term in found:
                first.setdefault(term, index)
        return cls(written, terms, Counter(t for found in terms for t in found), first)

    def sides(self, pivot: str) -> _Relation | None:
        """The relation the token first holding `pivot` writes.

        None when it is no verb, stands in a list or in a passive without "by".
        """
        at = self.first[pivot]
        token = self.written[at]
        before, after = self.written[at - 1 : at], self.written[at + 1 : at + 3]
        if set(before) & _LISTED or set(after[:1]) & _LISTED:
            return None
        passive = after[:1] == ("by",)
        than = self._ahead(at, _THAN, _REACH, _STOPS | _LISTED) if pivot in _COMPARING else 0
        if than:  # "A is faster than B"
            left, right = _side(self, range(at - 1, -1, -1)), self._after(than)
            return _Relation(left, right, False, _REACH)
        converting = pivot in _CONVERTING and _verbal(token, before)
        parting = _INTO if token in _TURNING else _INTO | {"to"}
        if converting and (into := self._ahead(at, parting, 2 * _REACH, _STOPS)):
            if self._be_before(at):  # "X is converted into Y": X, then Y
                return _Relation(_side(self, range(at - 1, -1, -1)), self._after(into), False)
            if converted := _side(self, range(at + 1, into)):  # else "X, which … converts into"
                return _Relation(converted, self._after(into), False)
        relational = token in _RELATIONAL and "of" in after
        if not relational and (
            not _verbal(token, before)
            or (not passive and (self._be_before(at) or _reduced(token, after[:1])))
        ):
            return None
        left = _side(self, range(at - 1, -1, -1))
        right = _side(self, range(at + 2 if passive else at + 1, len(self.written)))
        return _Relation(left, right, passive)

    def _ahead(self, at: int, wanted: frozenset[str], reach: int, stops: frozenset[str]) -> int:
        """Where the first of `wanted` stands within `reach` tokens after `at`, or 0.

        Never past one of `stops`: "into" after a converting verb is read in its clause,
        "than" after a comparative in its clause and before any list.
        """
        for index in range(at + 1, min(at + reach, len(self.written))):
            if self.written[index] in stops:
                break
            if self.written[index] in wanted:
                return index
        return 0

    def _after(self, at: int) -> tuple[str, ...]:
        return _side(self, range(at + 1, len(self.written)))

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


def _side(text: _Text, walk: range) -> tuple[str, ...]:
    """The content terms met walking from the pivot, nearest first, within its clause."""
    found: list[str] = []
    for index in walk:
        if text.written[index] in _STOPS or len(found) >= _REACH:
            break
        if text.written[index] not in _SKIPPED:  # "often", "still": no side's
            found.extend(text.terms[index])
    return tuple(found[:_REACH])


@dataclass(frozen=True, slots=True)
class _Relation:
    """What a pivot's token has on each side, nearest first, and whether it is passive."""

    left: tuple[str, ...]
    right: tuple[str, ...]
    passive: bool
    window: int = WINDOW
    """How many terms past its phrase each side is read for: a comparison's sides are
    whole ("… than database access, API calls, and data processing")."""


@dataclass(frozen=True, slots=True)
class _Sides:
    """A relation's two sides as read against another text's, the doer's first."""

    doer: frozenset[str]
    done: frozenset[str]
    heads: tuple[str, str] | None
    """The term nearest the pivot on each side past its phrase, the doer's first."""


def _compared(mine: _Relation, theirs: _Relation) -> tuple[_Sides, _Sides]:
    """Each text's two sides, as the other text's are read.

    In the same voice the words next to the pivot that both write on one side are part of
    its phrase ("the compiler then converts", "the parent class of") and no side's. Each
    side is then the `WINDOW` terms nearest the pivot past them, less what the other side
    holds too (phrase included).
    """
    skip_left = skip_right = 0
    if mine.passive == theirs.passive:
        skip_left = _shared_run(mine.left, theirs.left)
        skip_right = _shared_run(mine.right, theirs.right)
    return _read(mine, skip_left, skip_right), _read(theirs, skip_left, skip_right)


def _shared_run(mine: Sequence[str], theirs: Sequence[str]) -> int:
    """How many terms next to the pivot both write alike: its phrase, or 0.

    A longer run (`_PHRASE` terms) is what the relation relates, not its phrase: past
    "controls whole-body energy homeostasis" come "in beige fat" and "via Ca2+ cycling".
    """
    run = 0
    while run < min(len(mine), len(theirs)) and mine[run] == theirs[run]:
        run += 1
    return run if run <= _PHRASE else 0


def _read(relation: _Relation, skip_left: int, skip_right: int) -> _Sides:
    near_left = relation.left[: skip_left + relation.window]
    near_right = relation.right[: skip_right + relation.window]
    common = frozenset(near_left) & frozenset(near_right)
    left = frozenset(near_left[skip_left:]) - common
    right = frozenset(near_right[skip_right:]) - common
    heads = None
    if len(near_left) > skip_left and len(near_right) > skip_right:
        heads = (near_left[skip_left], near_right[skip_right])
    if relation.passive:
        return _Sides(right, left, heads and (heads[1], heads[0]))
    return _Sides(left, right, heads)


def arguments_exchanged(
    claim: str, stating: str, others: Iterable[str] = ()
) -> tuple[str, str] | None:
    """The pivot and a word moved, when `claim` exchanges a relation's sides, or None.

    As the claim writes them: `claim` gives the two sides of a one-way word each other's
    places in `stating` (see the module's note).
    """
    mine = _parsed(claim)
    candidates = [t for t, count in mine.counts.items() if count == 1 and t in _PIVOTS]
    if not candidates:
        return None  # most claims: the source is never parsed
    theirs = _parsed(rendered_roles(stating))
    pivots = [t for t in candidates if theirs.counts[t] == 1]
    for pivot in pivots[:_MAX_PIVOTS]:
        mine_relation, their_relation = mine.sides(pivot), theirs.sides(pivot)
        if mine_relation is None or their_relation is None:
            continue
        claimed, stated = _compared(mine_relation, their_relation)
        if not (_crossed(claimed, stated) or _heads_crossed(claimed, stated)):
            continue
        if any(
            pivot in s.lower() and _stated_so(pivot, mine_relation, _parsed(rendered_roles(s)))
            for s in others
        ):
            return None
        moved = min(claimed.doer & stated.done or claimed.done & stated.doer)
        return mine.written[mine.first[pivot]], mine.written[mine.first[moved]]
    return None


def _crossed(claimed: _Sides, stated: _Sides) -> bool:
    """Each side of the claim shares a term with the source's other side, none with its own."""
    crossed = claimed.doer & stated.done and claimed.done & stated.doer
    return bool(crossed) and not (claimed.doer & stated.doer or claimed.done & stated.done)


def _heads_crossed(claimed: _Sides, stated: _Sides) -> bool:
    """Each text's nearest term on each side is on the other text's other side, not its own.

    "Form is the parent class of BaseForm, and most of …" against "BaseForm is the parent
    class of Form, and most of …": the sides share the words of the clause after them.
    """
    if claimed.heads is None or stated.heads is None:
        return False
    for mine, theirs in ((claimed, stated), (stated, claimed)):
        doer, done = mine.heads or ("", "")
        if doer not in theirs.done - theirs.doer or done not in theirs.doer - theirs.done:
            return False
    return True


def _stated_so(pivot: str, mine: _Relation, text: _Text) -> bool:
    """Whether `text` writes `pivot` once with the claim's sides on the claim's sides."""
    if text.counts[pivot] != 1 or (theirs := text.sides(pivot)) is None:
        return False
    claimed, stated = _read(mine, 0, 0), _read(theirs, 0, 0)
    return bool(claimed.doer & stated.doer) and bool(claimed.done & stated.done)


@lru_cache(maxsize=2048)
def _parsed(text: str) -> _Text:
    return _Text.of(text)


@lru_cache(maxsize=65_536)
def _terms_of(token: str) -> tuple[str, ...]:
    """A token's content terms, remembered: sources repeat their words."""
    return content_of(token)
