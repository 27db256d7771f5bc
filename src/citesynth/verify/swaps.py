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
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from citesynth.analysis import INLINE_CODE, NAME
from citesynth.ingest.rst import rendered_roles
from citesynth.verify.opposites import (
    CONTRARIES,
    TOKEN,
    WRITTEN_TOKEN,
    content_of,
    near,
    related,
    sides,
    stems,
    tokens,
)

NAMES = re.compile(NAME.pattern + r"(?:\s+[A-Z][\w'’-]*)*")
"""A proper name of one or more capitalised words ("President Robert Mugabe": one name)."""
_CLAUSE = re.compile(r"[,;:()!?\n]|\.(?:\s|\Z)|\s(?:and|but|while|whereas|with|or)\s", re.I)
"""Where a clause ends: an item's neighbours are read within its own clause."""


@lru_cache(maxsize=4096)
def clause_tokens(text: str) -> tuple[tuple[str, ...], ...]:
    """The tokens of each clause of `text`."""
    return tuple(
        found for part in _CLAUSE.split(text.lower()) if (found := tuple(TOKEN.findall(part)))
    )


def clause_matches(text: str) -> Iterator[tuple[str, list[re.Match[str]]]]:
    """Each clause of `text` as written, with its tokens (`WRITTEN_TOKEN`, offsets in `text`).

    Cut as `clause_tokens` cuts it.
    """
    start = 0
    for cut in [*_CLAUSE.finditer(text), None]:
        end = cut.start() if cut else len(text)
        yield text[start:end], list(WRITTEN_TOKEN.finditer(text, start, end))
        start = cut.end() if cut else end


@lru_cache(maxsize=4096)
def flat_tokens(text: str) -> tuple[str, ...]:
    """The tokens of `text` as its clauses cut them ("1,000" is "1" and "000" there)."""
    return tuple(token for clause in clause_tokens(text) for token in clause)


def _kinds(claim: str, stating: str) -> list[list[frozenset[str]]]:
    """The claim's items the stating sentence holds too, by kind.

    Its numbers, the two sides of each contradictory pair, its names; each item as the
    tokens that write it. A swap exchanges like with like: a number with a number, a name
    with a name.
    """
    written = flat_tokens(claim)
    said = frozenset(written)
    source = frozenset(flat_tokens(stating))
    kinds = [[frozenset({t}) for t in dict.fromkeys(written) if t[0].isdigit() and t in source]]
    kinds += [
        [left, right]
        for left, right in CONTRARIES
        if said & left and said & right and source & left and source & right
    ]
    runs = dict.fromkeys(match.group().lower() for match in NAMES.finditer(claim))
    names = (frozenset(w for w in run.split() if w.isalpha() and w in source) for run in runs)
    kinds.append([name for name in dict.fromkeys(names) if name])
    return kinds


@dataclass(frozen=True, slots=True)
class _Item:
    """One item as the claim writes it, where it stands and what stands near it on each side."""

    written: frozenset[str]
    own: frozenset[str]
    """The item's own terms, never counted as its neighbours' (nor the other item's)."""
    at_claim: tuple[int, ...]
    at_stating: tuple[int, ...]
    near_claim: frozenset[str]
    near_stating: frozenset[str]


def swapped(claim: str, stating: str) -> tuple[str, str] | None:
    """Two items of `claim` bound the other way round in `stating`, or None.

    The items as the claim writes them. Each item's neighbours and positions are read
    once: repair aligns every claim with every source.
    """
    stating = rendered_roles(stating)  # ":ref:`WebSocket <ws>`" ends no clause
    claim_tokens, stating_tokens = flat_tokens(claim), flat_tokens(stating)
    for kind in _kinds(claim, stating):
        if len(kind) < 2:
            continue
        items = [
            _Item(
                written=item,
                own=frozenset(t for w in item for t in content_of(w)),
                at_claim=tuple(i for i, t in enumerate(claim_tokens) if t in item),
                at_stating=tuple(i for i, t in enumerate(stating_tokens) if t in item),
                near_claim=near(clause_tokens(claim), item),
                near_stating=near(clause_tokens(stating), item),
            )
            for item in kind[:MAX_ITEMS]
        ]
        for first, second in itertools.combinations(items, 2):
            if not first.written & second.written and _crossed(
                first, second, claim_tokens, stating_tokens
            ):
                said = frozenset(claim_tokens)
                return min(first.written & said), min(second.written & said)
    return None


def relation_reversed(
    claim: str, stating: str, others: Iterable[str] = ()
) -> tuple[str, str] | None:
    """Two words `claim` relates the other way round from `stating`, or None.

    "When a widget is called, its default behaviour is to delegate the rendering to the
    field" against "When a field is called, the default behaviour is to delegate the
    rendering to its widget": two content words each written once on both sides, in
    opposite order, with the same content words between them (`_BETWEEN` of each side's,
    at least `_LEAST_BETWEEN`): what is said between them is said from the other end.
    Never when "by" stands between them on either side (a passive restating it: "the
    widget is called by the field"), nor when only items of a list stand between them in
    the claim ("A, B, C and D" against "D, C, B and A"): no word but "and" and "or" joins
    them there; nor when one of the `others` sentences writes the two in its order
    (Pyramid's "The ACL helper will *allow* everyone …, even though later in the ACL you
    have an ACE that denies everyone …", then the same with deny and allow exchanged) with
    the same words between them; those are read only then. The two words as the claim writes them.
    """
    mine, theirs = _Terms.of(claim), _Terms.of(rendered_roles(stating))
    counted, source = Counter(mine.terms), Counter(theirs.terms)
    once = [t for t in counted if counted[t] == 1 and source[t] == 1][:_MAX_ONCE]
    at_mine = {t: i for i, t in enumerate(mine.terms) if t in once}
    at_theirs = {t: i for i, t in enumerate(theirs.terms) if t in once}
    for first, second in itertools.permutations(once, 2):
        a, b = at_mine[first], at_mine[second]
        c, d = at_theirs[second], at_theirs[first]
        if a >= b or c >= d:
            continue
        between, said = set(mine.terms[a + 1 : b]), set(theirs.terms[c + 1 : d])
        shared = len(between & said)
        if len(between) < _LEAST_BETWEEN or shared < _BETWEEN * max(len(between), len(said)):
            continue
        words, their_words = mine.between(a, b), theirs.between(c, d)
        if "by" in words or "by" in their_words or all(w in _LISTING for w in words):
            continue
        if any(_in_order(first, second, between, sentence) for sentence in others):
            return None
        return mine.written[mine.at[a]], mine.written[mine.at[b]]
    return None


def _in_order(first: str, second: str, between: set[str], sentence: str) -> bool:
    """Whether `sentence` writes the term `first`, then `_BETWEEN` of `between`, then `second`."""
    terms = _Terms.of(rendered_roles(sentence)).terms
    if first not in terms or second not in terms[terms.index(first) + 1 :]:
        return False
    start = terms.index(first)
    said = set(terms[start + 1 : terms.index(second, start + 1)])
    return len(between & said) >= _BETWEEN * len(between)


_MAX_ONCE = 40
"""Words written once on both sides that are read (at most 1,560 ordered pairs)."""
_LEAST_BETWEEN = 2
_BETWEEN = 0.8
"""What share of the content words between the two each side must hold of the other's."""
_LISTING = frozenset({"and", "or"})


@dataclass(frozen=True, slots=True)
class _Terms:
    """A text's tokens, its content terms in order and the token writing each."""

    written: tuple[str, ...]
    terms: tuple[str, ...]
    at: tuple[int, ...]

    @classmethod
    def of(cls, text: str) -> _Terms:
        written = tokens(text)
        found = [(i, term) for i, token in enumerate(written) for term in content_of(token)]
        return cls(written, tuple(term for _, term in found), tuple(i for i, _ in found))

    def between(self, first: int, second: int) -> frozenset[str]:
        """The function words between the content terms at `first` and `second`."""
        return frozenset(
            token
            for token in self.written[self.at[first] + 1 : self.at[second]]
            if not content_of(token)
        )


MAX_ITEMS = 8
"""Items of one kind read per claim (a sentence listing twenty years is read by its first
eight): at most 28 pairs."""
_JOINING = frozenset("and or nor to through than versus vs from between".split())
"""Words that may stand between two coordinated items ("public and private", "5 to 10")."""


def _coordinated(written: Sequence[str], at: Sequence[int], other: Sequence[int]) -> bool:
    """Whether the items at `at` and `other` in `written` are coordinated.

    Side by side, or joined by `_JOINING` words only (at most three tokens apart: each
    position is compared with its six neighbours, never with every other position).
    """
    others = frozenset(other)
    return any(
        j in others and all(t in _JOINING for t in written[min(i, j) + 1 : max(i, j)])
        for i in at
        for j in range(i - 3, i + 4)
    )


def _crossed(first: _Item, second: _Item, claim: Sequence[str], stating: Sequence[str]) -> bool:
    """Whether the two items' binding is crossed both ways (see the module docstring)."""
    if _coordinated(claim, first.at_claim, second.at_claim) or _coordinated(
        stating, first.at_stating, second.at_stating
    ):
        return False
    words = first.own | second.own
    mine = [first.near_claim - words, second.near_claim - words]
    theirs = [first.near_stating - words, second.near_stating - words]
    own = [theirs[0] - theirs[1], theirs[1] - theirs[0]]
    return all(len(mine[i] & own[1 - i]) > len(mine[i] & own[i]) for i in range(2))


_INSTEAD = re.compile(
    r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of|takes?\s+precedence\s+over"
    r"|(?:is|are)\s+used\s+over|(?:has|have)\s+(?:a\s+)?(?:higher\s+)?priority\s+over"
    r"|(?:is|are)\s+preferred\s+(?:over|to)|(?<!`)overrides(?!`)|wins?\s+over|and\s+not)\b",
    re.I,
)
_PREFERRED = "insteadof"
"""The one word "instead of", "rather than", "in place of", "and not" and what says one
thing wins over another ("takes precedence over", "are used over", "overrides") are read
as. Not the noun: "a translation override file", "the `overrides` list"."""


_MAX_PREFERENCES = 16
"""Phrases of a claim and of its source that are compared (every pair of them is): a text
repeating one thousands of times is read in linear time."""


def preferred_reversed(claim: str, stating: str) -> tuple[str, str] | None:
    """The two things `claim` prefers one to the other the other way round, or None.

    "You need PrintLogger instead of WriteLogger" against "you must use WriteLogger
    instead of PrintLogger" (or "rather than", "in place of"): what stands left of the
    claim's phrase stands right of the source's, and the reverse, both, as
    `opposites.related` reads sides. Never when a side is empty ("Rather than X, use Y"
    opens the sentence) or the source also relates them the claim's way. The source's
    roles are read as Sphinx renders them (`{func}` is no word beside the phrase). The
    pair is the nearest content word on each side of the claim's phrase.
    """
    if not _INSTEAD.search(claim):
        return None  # most claims: read before any tokenising (repair aligns each source)
    marked = _INSTEAD.sub(f" {_PREFERRED} ", claim)
    source = _INSTEAD.sub(f" {_PREFERRED} ", rendered_roles(stating))
    return _reversed_around(marked, source, _PREFERRED)


_ORDER = re.compile(r"\b(before|after)\b", re.I)


def order_reversed(claim: str, stating: str) -> tuple[str, str] | None:
    """The two things `claim` orders with "before" or "after" the other way round, or None.

    "Calling websocket.accept() before websocket.close() makes the server send a 403"
    against Starlette's "If you call `websocket.close()` before calling
    `websocket.accept()` then the server will … send a HTTP 403": the same word, its sides
    crossed, read as `preferred_reversed` reads a preference. The converse word ("B after
    A") restates it and is `opposites.reversed_order`'s to read.
    """
    words = {m.group(1).lower() for m in _ORDER.finditer(claim)}
    source = rendered_roles(stating).lower()
    for word in sorted(words):
        if re.search(rf"\b{word}\b", source) and (found := _reversed_around(claim, source, word)):
            return found
    return None


_SPAN = re.compile(r"\b(from\s+)?([a-z0-9]+)(?:\s+|-)to(?:\s+|-)([a-z0-9]+)\b")
"""Two words joined by "to", "from" before them or not: "from bottom to top", "top-to-bottom"."""


def span_reversed(claim: str, stating: str) -> tuple[str, str] | None:
    """A span `claim` runs the other way from `stating` ("from A to B" for "B to A"), or None.

    "Middleware is evaluated from bottom to top" against Starlette's "Middleware is
    evaluated from top-to-bottom": the same two words, "to" between them, in the other
    order, and "from" before one of them; never when the source also writes the claim's.
    """
    mine = _spans(claim)
    if not mine:
        return None
    theirs = _spans(rendered_roles(stating))
    said = {pair for pair, _ in theirs}
    for (first, second), started in mine:
        if first == second or not content_of(first) or not content_of(second):
            continue
        reversed_only = (second, first) in said and (first, second) not in said
        if reversed_only and (started or ((second, first), True) in theirs):
            return first, second
    return None


@lru_cache(maxsize=2048)
def _spans(text: str) -> frozenset[tuple[tuple[str, str], bool]]:
    return frozenset(
        {((m.group(2), m.group(3)), m.group(1) is not None) for m in _SPAN.finditer(text.lower())}
    )


def _reversed_around(claim: str, source: str, word: str) -> tuple[str, str] | None:
    """The nearest content words around `word` in `claim`, when the source's sides cross.

    What stands left of the claim's `word` stands right of the source's, and the reverse
    (as `opposites.related` reads sides, or the two words next to it exchanged), and the
    source never relates them the claim's way.
    """
    mine = sides(claim, word)[:_MAX_PREFERENCES]
    theirs = sides(source, word)[:_MAX_PREFERENCES]
    if related(mine, theirs) or not (
        related(mine, theirs, crossed=True) or _next_exchanged(claim, source, word)
    ):
        return None
    written = tokens(claim)
    at = written.index(word)
    before = next((w for w in reversed(written[:at]) if content_of(w)), "")
    after = next((w for w in written[at + 1 :] if content_of(w)), "")
    return before, after


def _next_exchanged(claim: str, source: str, word: str) -> bool:
    """Whether the words next to a preference of `claim` stand next to the source's, exchanged.

    "made over HTTPS rather than HTTP" against "made over HTTP (rather than HTTPS)": the
    words both write before it ("made over") outweigh the exchange for `related`, which
    reads three words a side. Never when the source also writes them the claim's way.
    """
    mine = sides(claim, word, 1)[:_MAX_PREFERENCES]
    theirs = sides(source, word, 1)[:_MAX_PREFERENCES]
    pairs = {(left, right) for left, right in theirs if left and right}
    return any((right, left) in pairs and (left, right) not in pairs for left, right in mine)


_REJECTED = re.compile(r"(?:\s*+,)?\s++(?:rather\s++than|instead\s++of|and\s++not|not)\s++")
"""What stands between code a source prefers and other code: "patch ``mymodule.getcwd``
rather than ``os.getcwd``" (also "instead of", "not"); read without backtracking."""
_GAP = 40
"""The most characters between the two code spans of a preference."""
_DECLINES = re.compile(
    r"\b(?:not|never|no|rather\s+than|instead\s+of|avoid|cannot)\b|n['’]t\b", re.I
)
"""A claim that may be declining the code it names ("rather than `os.getcwd`", "You
shouldn't patch `os.getcwd`")."""
_CONDITION = re.compile(r"\b(?:if|when|whenever|unless)\b", re.I)
"""A condition in the clause before the preferred code: the sentence describes what
happens ("The connection leaks if you call ``session.close`` rather than
``session.aclose``"), it prefers nothing."""


def rejected_chosen(claim: str, stating: str) -> tuple[str, str] | None:
    """The code `claim` chooses that `stating` prefers other code to, with that code.

    Asked "Should I patch os.getcwd, or something else?", the embedded model answered "you
    should patch `os.getcwd` [3]" over pytest's "… if your module does ``from os import
    getcwd``, patch ``mymodule.getcwd`` rather than ``os.getcwd``", and both verifiers
    passed it: every word is there. A claim writing the rejected code and not the
    preferred one, and declining nothing, chose the other; (rejected, preferred). None
    otherwise.
    """
    if "`" not in stating or _DECLINES.search(claim):
        return None
    written = {_bare(m.group(1)) for m in INLINE_CODE.finditer(claim)}
    written |= {_bare(word) for word in re.findall(r"[\w.]+(?:\(\))?", claim) if "." in word}
    code = list(INLINE_CODE.finditer(stating))
    for first, second in itertools.pairwise(code):
        if second.start() - first.end() > _GAP:
            continue
        if not _REJECTED.fullmatch(stating, first.end(), second.start()):
            continue
        clause = stating[: first.start()]
        if _CONDITION.search(clause, max(map(clause.rfind, ",;:.!?")) + 1):
            continue
        preferred, rejected = _bare(first.group(1)), _bare(second.group(1))
        if preferred != rejected and rejected in written and preferred not in written:
            return rejected, preferred
    return None


def _bare(code: str) -> str:
    """Code as compared: no call parentheses, stops or spaces around it."""
    return code.strip().removesuffix("()").strip(".")


_RATHER = re.compile(r"\b(?:rather\s+than|instead\s+of)\s+", re.I)
"""A claim's own preference: what it chooses stands left of it, what it rejects right."""


def rejected_stated(
    claim: str, stating: Iterable[str], passages: Sequence[str]
) -> tuple[str, str] | None:
    """(the word the claim chooses, the word it rejects) when a source states the rejected.

    "default_error_messages, which replaces rather than merges with the parent classes'
    dictionaries" against marshmallow's "… dictionary gets merged with its parent classes'
    … dictionaries": every word but "replaces" is there, and the one the claim turns down
    is what the source says. It counts when a sentence stating the claim, not negated
    (`stating`), holds the rejected word (as a stem, "merged" for "merges") and no passage
    holds the chosen one: a source writing both may say either.
    """
    if not _RATHER.search(claim):
        return None  # most claims: read before any tokenising
    written = tokens(_RATHER.sub(f" {_PREFERRED} ", claim))
    texts = list(stating)
    for at in range(1, len(written) - 1):
        if written[at] != _PREFERRED:
            continue
        chosen, rejected = content_of(written[at - 1]), content_of(written[at + 1])
        if not chosen or not rejected:
            continue  # "instead of the default": no word of its own on a side
        if any(set(rejected) <= stems(text) for text in texts) and not any(
            set(chosen) & stems(passage) for passage in passages
        ):
            return written[at - 1], written[at + 1]
    return None
