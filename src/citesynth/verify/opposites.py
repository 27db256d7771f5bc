"""Opposite words: a claim saying "enabled" where its source says "disabled".

A claim with one word turned into its opposite keeps every other word of its source, so
coverage passes it, and the trained cross-encoder reads two sentences that differ in one
word as near-duplicates: on claims with one detail changed it passed 42 % of those with an
antonym (`benchmarks/changed_details.py`), and on hand-written documentation claims 57 % of
HTTPX's and 33 % of Click's. "The name argument is optional" against "The name argument is
required" passed both verifiers.

A claim opposes the sentence stating it when:

- it holds a word of one side of a pair of contradictory words (`CONTRARIES`: required /
  optional, synchronous / asynchronous, true / false, public / private, ...) and none of
  the other side;
- the sentence of its source that states it (the anchor of the alignment) holds a word
  of the other side, and none of the sentences stating it holds the claim's word, or one
  does of another occurrence of it only (`_held_apart`: "displayed at the top …, and
  clicking it jumps to the top of the traceback" against "… displayed at the top.
  Clicking it jumps to the bottom of the traceback.");
- the two words say it of the same thing: a term of the `NEAR` content words on either
  side of the one is among those of the other ("South America" is not contradicted by
  "northern silky oak");
- the claim and that sentence are both negated or both not: "not required" is optional,
  which `align` reads as agreement (the negation check alone had vetoed it).

Only contradictory pairs are listed here, never converse ones: "A runs before B" is "B runs
after A", "A is older than B" is "B is younger than A", so before/after, older/younger,
buy/sell or win/defeat would reject right paraphrases. Before / after and earlier / later
are read apart (`reversed_order`, 2026-11-29): a claim's word contradicts its converse in
the source only when what stands on its left and on its right (`SIDE` content words each)
is what stands on the same sides of the converse ("pre_load runs after deserialization"
against "pre_load runs before deserialization"), never crossed ("deserialization runs
after pre_load"), and no source sentence relates them with the claim's own word. On the
600 written documentation tuning claims it caught 7 of the 50 antonym and relation
edits the rest had passed, and it vetoes no supported claim of any set. First / last,
top / bottom, shallow / deep, encourage / discourage, high- / low-level and naive /
aware were added on 2026-11-28 from the written documentation tuning claims (general /
specific too, until it vetoed two right SciFact claims, "more effective than general
exercise therapy"); on every labelled set, tuning and report (5,800 supported claims),
they veto no supported claim. Innermost / outermost and safe / unsafe (a bare "safe" is
no participle, so its "un-" form was not read) joined on 2026-12-05 from the same claims
("The loop variable always refers to the outermost loop" against Jinja's "closest
(innermost) loop"; "the translated string is marked unsafe" against "marked safe");
beginning / end was tried and dropped (a right claim's "at the beginning of the header
tag" against "placed at the start …, … placed at the end of the header content"). Push /
pop and shared / separate joined on 2026-12-06 from the same claims (Flask's "called when
the application context is popped", Jinja's "looked up in separate namespaces"); they veto
no supported claim of any set, though "separate" read as "not shared" also lets one wrong
claim through that an accidental negation veto had stopped (its reversed cause now does).
Tight / loose, upgrade / downgrade, FIFO / LIFO, long / short and same / different joined
on 2026-12-07 from documentation probes first read that day (pluggy's "loosely coupled",
itsdangerous' "a long random string", Flask-WTF's "usually the same as your Flask app
secret key"): each catches one of their changed claims, and on the tuning splits (written
documentation, WiCE dev, SciFact train, HaluEval 0–249, Developer Hub dev) they change no
verdict; much / little (h11's "tries to buffer as little as it can") and "distinct" beside
"different" followed from the next four probes, the same way. Increase/decrease words are
`align`'s direction check; always/never, with/without and fail are negation. A word and
its "un-" or "non-" form are contradictory too ("supported" / "unsupported",
"blocking" / "non-blocking") when the bare word reads as an adjective or participle, and
its "in-" form (im-, ir-, il- before p, b, m, r, l: "ineffective", "irrelevant") when it
ends as a Latin adjective does ("-ive", "-ent", "-ible", …; 2026-12-07: SciFact's
"Ambulatory blood pressure monitoring is inaccurate at diagnosing hypertension" against
an abstract calling it accurate, one wrong tuning claim more caught and no verdict of
another tuning claim changed).
Words are read as written (lower case, hyphenated words whole): stems would confuse
"optional" with "option".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from citesynth.analysis import content_terms, terms

CONTRARIES: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (frozenset(left.split()), frozenset(right.split()))
    for left, right in (
        ("enable enables enabled enabling", "disable disables disabled disabling"),
        ("required mandatory compulsory", "optional"),
        (
            "synchronous synchronously sync",
            "asynchronous asynchronously async",
        ),
        ("true", "false"),
        ("include includes included", "exclude excludes excluded excluding"),
        (
            "allow allows allowed permit permits permitted",
            "forbid forbids forbidden prohibit prohibits prohibited disallow disallows disallowed",
        ),
        ("accept accepts accepted", "reject rejects rejected"),
        ("agree agrees agreed", "disagree disagrees disagreed"),
        ("public publicly", "private privately"),
        ("minimum", "maximum"),
        ("ascending", "descending"),
        ("inclusive", "exclusive"),
        ("explicit explicitly", "implicit implicitly"),
        ("lowercase lower-case", "uppercase upper-case"),
        ("local locally", "remote remotely"),
        ("internal internally", "external externally"),
        ("temporary temporarily", "permanent permanently"),
        ("static statically", "dynamic dynamically"),
        ("manual manually", "automatic automatically"),
        ("inside", "outside"),
        ("horizontal horizontally", "vertical vertically"),
        ("singular", "plural"),
        ("positive positively", "negative negatively"),
        ("male", "female"),
        ("like", "unlike"),
        ("valid", "invalid"),
        ("correct correctly", "incorrect incorrectly"),
        ("possible", "impossible"),
        ("legal legally", "illegal illegally"),
        ("mutable", "immutable"),
        ("visible", "invisible hidden"),
        ("secure securely", "insecure insecurely"),
        ("sensitive case-sensitive", "insensitive case-insensitive"),
        ("guilty", "innocent"),
        ("encrypted", "unencrypted"),
        ("north northern", "south southern"),
        ("east eastern", "west western"),
        ("first", "last"),
        ("shallow", "deep"),
        ("top", "bottom"),
        ("encourage encourages encouraged", "discourage discourages discouraged"),
        ("high-level", "low-level"),
        ("naive", "aware timezone-aware"),
        ("innermost", "outermost"),
        ("safe", "unsafe"),
        ("push pushes pushed pushing", "pop pops popped popping"),
        ("shared", "separate separated"),
        ("tight tightly", "loose loosely"),
        ("upgrade upgrades upgraded upgrading", "downgrade downgrades downgraded downgrading"),
        ("fifo", "lifo"),
        ("long", "short"),
        ("same", "different distinct"),
        ("much", "little"),
    )
)
"""Pairs of word sets of which a sentence holding one contradicts one holding the other."""

CONVERSES: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (frozenset(left.split()), frozenset(right.split()))
    for left, right in (
        ("before", "after"),
        ("earlier", "later"),
        ("faster quicker", "slower"),
        ("higher", "lower"),
        ("larger bigger", "smaller"),
        ("more", "less fewer"),
    )
)
"""Pairs of converse words: "A before B" contradicts "A after B" but restates "B after A".

Comparatives are converse too ("A is faster than B" is "B is slower than A"); they joined
on 2026-12-05 (Starlette's "higher value results in slower compression", written "a
higher compresslevel gives faster compression"); more / less on 2026-12-06 (Jinja's "With
less logic, the template is easier to understand", written "adding more logic to a template
makes it easier to understand"; on every labelled set, tuning and report, it vetoes no
supported claim)."""
SIDE = 3
"""Content words read on each side of a converse word: what it relates on its left and right."""

Entry = tuple[frozenset[str], frozenset[str], bool]
"""A pair of words read one way round: (claim's side, source's side, prefixed)."""


def _both_ways(pairs: Iterable[tuple[frozenset[str], frozenset[str]]]) -> tuple[Entry, ...]:
    """Each pair both ways round, as entries none of which is prefixed."""
    return tuple(
        (mine, theirs, False)
        for left, right in pairs
        for mine, theirs in ((left, right), (right, left))
    )


_LISTED = _both_ways(CONTRARIES)
"""Each pair of `CONTRARIES` both ways round."""
TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[a-z]+(?:[-_][a-z]+)*")
"""A number as written, or a lower-case word (hyphenated words and identifiers whole:
`pre_load` and `post_load` are two things, never "pre" or "post" beside a "load")."""
WRITTEN_TOKEN = re.compile(TOKEN.pattern, re.IGNORECASE)
"""`TOKEN` read in text as written (lower it after), so that its offsets are the text's."""
NEAR = 2
"""How many content words on each side of the two opposite words must share a term: "optional
`filter`" is no contradiction of "the mandatory fields", "the `name` argument is optional"
is one of "the `name` argument is required"."""
_ADJECTIVE = re.compile(r"(?:ed|able|ible|ful|al|ive|ic|ent|ant|ous|ly|own|ure|ing)\Z")
"""Endings of a word whose "un-" form is its contradiction ("supported", "known", "safe"
is left out: "under" / "der", "unit" / "it", "uncover" / "cover" are not pairs)."""


@lru_cache(maxsize=4096)
def tokens(text: str) -> tuple[str, ...]:
    """The `TOKEN`s of `text` lower-cased, in order (code too: `follow_redirects=False`).

    "once" opening a clause is "after" (`_ONCE`): Starlette's "The lifespan teardown will
    run once all connections have been closed" runs it after them.
    """
    return tuple(TOKEN.findall(_ONCE.sub("after", text.lower())))


_ONCE = re.compile(
    r"\bonce(?=\s+(?:all|the|any|every|it|they|you|we|this|these|those|your|its|their)\b)"
)
"""A "once" that opens a clause of time ("once all connections have been closed"), never
an adverb ("once a day", "only once")."""


@lru_cache(maxsize=4096)
def words(text: str) -> frozenset[str]:
    """The distinct `tokens` of `text`."""
    return frozenset(tokens(text))


def neighbours(text: str, word: str) -> frozenset[str]:
    """The terms of the `NEAR` content words on each side of each `word` in `text`.

    Function words are skipped: "they are not reusable" reaches back to "inline".
    """
    return near([tokens(text)], frozenset({word}))


def near(runs: Iterable[Sequence[str]], item: frozenset[str]) -> frozenset[str]:
    """The terms of the `NEAR` content tokens on each side of each token of `item`.

    Each side is read within its run of tokens (a whole text, or one clause of it).
    """
    found: set[str] = set()
    for written in runs:
        for index, token in enumerate(written):
            if token not in item:
                continue
            # walk out from the item, never copying the run: an item may stand thousands
            # of times in one long sentence
            for side in (range(index - 1, -1, -1), range(index + 1, len(written))):
                found |= _side(written, side, NEAR)
    return frozenset(found)


@lru_cache(maxsize=8192)
def content_of(token: str) -> tuple[str, ...]:
    """The content terms of one token (none for a function word)."""
    return tuple(content_terms(token))


@lru_cache(maxsize=4096)
def stems(text: str) -> frozenset[str]:
    """The stemmed terms of `text`."""
    return frozenset(terms(text))


@lru_cache(maxsize=1024)
def _prefixed(claim: frozenset[str]) -> tuple[tuple[frozenset[str], frozenset[str], bool], ...]:
    """The claim's words and their "un-", "non-" and "in-" contradictions, as `_LISTED` entries.

    Cached: repair reads one claim against every source.
    """
    found = []
    for word in sorted(claim):
        prefix = next((p for p in ("non-", "un") if word.startswith(p)), None)
        if prefix is not None:
            bare = word[len(prefix) :]
            if len(bare) >= 4 and _ADJECTIVE.search(bare):
                found.append((frozenset({word}), frozenset({bare}), True))
            continue
        bare = word[2:]
        if len(bare) >= 5 and _LATIN_ADJECTIVE.search(word) and _in_form(bare) == word:
            found.append((frozenset({word}), frozenset({bare}), True))  # "ineffective"
        if len(word) >= 4 and _ADJECTIVE.search(word):
            theirs = {"un" + word, "non-" + word}
            if len(word) >= 5 and _LATIN_ADJECTIVE.search(word):
                theirs.add(_in_form(word))
            found.append((frozenset({word}), frozenset(theirs), True))
    return tuple(found)


_LATIN_ADJECTIVE = re.compile(r"(?:ive|ent|ant|ible|able|al|ic|ous|ate|ect|ete|ure)\Z")
"""Endings of a word whose "in-" form is its contradiction ("effective", "complete",
"relevant"); a word ending otherwise is not read so ("interest" is no "terest" denied)."""


_ASSIMILATED = {"p": "im", "b": "im", "m": "im", "r": "ir", "l": "il"}
"""The form "in-" takes before a word's first letter (else "in")."""


def _in_form(word: str) -> str:
    """`word` with the "in-" that contradicts it, as English writes it before its letter.

    "im-" before p, b and m ("impossible"), "ir-" before r ("irrelevant"), "il-" before l
    ("illegal"), else "in-" ("ineffective").
    """
    return _ASSIMILATED.get(word[:1], "in") + word


def opposed(
    claim: str, stating: str, others: Iterable[str] = (), *, shared: int = 1
) -> tuple[str, str] | None:
    """(the claim's word, the source's opposite) when `stating` says the opposite.

    `stating` is the sentence of the source that states the claim; `others` are further
    sentences stating part of it, any of which may hold the claim's own word. Negation
    agreement is the caller's: this reads words only.
    """
    said = words(claim)
    source = words(stating)
    pairs = _LISTED + _prefixed(said)
    rest = list(others)
    for mine, theirs, prefixed in pairs:
        claimed = said & mine
        if not claimed or said & theirs or source & mine:
            continue
        found = source & theirs
        if not found:
            continue
        if prefixed and _stated(min(claimed), [stating, *rest]):
            continue  # "differentiated" against "... undifferentiated and may differentiate"
        held = _held_apart(claim, claimed, [text for text in rest if words(text) & mine], mine)
        said_of = [(other, neighbours(stating, other)) for other in sorted(found)]
        for word in sorted(claimed):
            for around in held.get(word, ()):
                for other, near_other in said_of:
                    if len(around & near_other) >= shared:
                        return word, other
    return None


def _held_apart(
    claim: str, claimed: frozenset[str], holding: Sequence[str], mine: frozenset[str]
) -> dict[str, list[frozenset[str]]]:
    """The neighbours of each occurrence of the claim's words no `holding` text accounts for.

    All of them when no source sentence holds a word of the claim's side. When one does,
    it accounts for the occurrences whose neighbours it shares, and the rest are read only
    if it accounts for one: "the error message is displayed at the top of the page, and
    clicking it jumps to the top of the traceback" against "The error message is displayed
    at the top. Clicking it jumps to the bottom of the traceback." A claim writing the word
    once is read only when no sentence holds it ("the following dependencies are optional"
    keeps "… and itsdangerous for SessionMiddleware are optional" from "Required for
    `SessionMiddleware` support").
    """
    found = {word: _each_neighbours(claim, word) for word in claimed}
    if not holding:
        return found
    theirs = [neighbours(text, word) for text in holding for word in words(text) & mine]
    apart = {
        word: [around for around in arounds if not any(around & other for other in theirs)]
        for word, arounds in found.items()
    }
    accounted = sum(map(len, found.values())) > sum(map(len, apart.values()))
    return apart if accounted else {}


def _each_neighbours(text: str, word: str) -> list[frozenset[str]]:
    """The `NEAR` content words' terms on each side of each `word` in `text`, apart."""
    return [left | right for left, right in sides(text, word, NEAR)]


@lru_cache(maxsize=1024)
def contradicting_words(claim: str) -> frozenset[str]:
    """The words a sentence must hold to contradict `claim`.

    By `opposed` or by relating its converse word the other way round (`reversed_order`):
    what to look for before reading a whole passage.
    """
    said = words(claim)
    found: set[str] = set()
    for mine, theirs, _ in _LISTED + _prefixed(said) + _CONVERSED:
        if said & mine and not said & theirs:
            found |= theirs
    return frozenset(found)


_CONVERSED = _both_ways(CONVERSES)
"""Each pair of `CONVERSES` both ways round."""


def reversed_order(claim: str, stating: str, others: Iterable[str] = ()) -> tuple[str, str] | None:
    """(the claim's word, the source's converse) when `stating` relates the same two things.

    Related the other way round, that is: "pre_load runs after deserialization" against
    "pre_load runs before deserialization", never against "deserialization runs after
    pre_load". `others` are further sentences stating the claim.
    """
    said = words(claim)
    source = words(stating)
    texts = [stating, *others]
    for left, right in CONVERSES:
        for mine, theirs in ((left, right), (right, left)):
            claimed = said & mine
            found = source & theirs
            if not claimed or not found or said & theirs:
                continue
            conversed = [(other, sides(stating, other)) for other in sorted(found)]
            for word in sorted(claimed):
                said_so = [sides(text, word) for text in texts]
                for side in sides(claim, word):  # each occurrence apart: "A runs after X,
                    # and B runs after Y" against "A runs before X, and B runs after Y";
                    # the sources' own word relating it as closely clears it
                    same = max((_closeness(side, other) for other in said_so), default=0)
                    for other, other_sides in conversed:
                        if _closeness(side, other_sides) > same:
                            return word, other
    return None


def _closeness(
    claim: tuple[frozenset[str], frozenset[str]],
    source: Sequence[tuple[frozenset[str], frozenset[str]]],
) -> int:
    """How closely a source occurrence relates what the claim's does: shared terms, 0 none.

    On both sides (`_along`), or on one side by `HEADLESS` terms when the source's other
    side holds nothing: a list item whose subject is the line leading into it. structlog's
    "It behaves exactly like the generic BoundLogger except: - it's slightly faster due
    to less overhead" relates nothing left of "faster", and "… is a bit slower due to
    extra overhead" says the opposite of it.
    """
    closest = 0
    for their_left, their_right in source:
        closest = max(closest, _along(claim, (their_left, their_right)))
        for mine, theirs, empty in (
            (claim[1], their_right, their_left),
            (claim[0], their_left, their_right),
        ):
            if not empty and len(mine & theirs) >= HEADLESS:
                closest = max(closest, len(mine & theirs))
    return closest


HEADLESS = 2
"""Terms one side must share when the source's other side holds none (`_closeness`)."""


def sides(text: str, word: str, limit: int = SIDE) -> list[tuple[frozenset[str], frozenset[str]]]:
    """The terms of the `limit` content words left and right of each `word` in `text`."""
    written = tokens(text)
    found = []
    for index, token in enumerate(written):
        if token != word:
            continue
        left, right = (
            _side(written, range(index - 1, -1, -1), limit, word),
            _side(written, range(index + 1, len(written)), limit, word),
        )
        found.append((left, right))
    return found


_DEGREE = frozenset(
    "s slightly bit much far lot little somewhat considerably significantly".split()
)
"""Words that grade a comparison or are a contraction's part ("it's"): never what it relates."""


def _side(
    written: Sequence[str], at: Iterable[int], limit: int = SIDE, stop: str = ""
) -> frozenset[str]:
    """The terms of the first `limit` content tokens of `written` at the positions `at`.

    Never past `stop`: in "A over B, which in turn takes over C" the second phrase's left
    side is not "B".
    """
    found: list[str] = []
    taken = 0
    for index in at:
        if taken == limit or written[index] == stop:
            break
        if written[index] in _DEGREE:
            continue
        if content := content_of(written[index]):
            found.extend(content)
            taken += 1
    return frozenset(found)


def related(
    claim: Sequence[tuple[frozenset[str], frozenset[str]]],
    source: Sequence[tuple[frozenset[str], frozenset[str]]],
    *,
    crossed: bool = False,
) -> bool:
    """Whether some occurrence relates what the source's does on the same sides, both.

    With `crossed`, on the other sides: the claim's left is the source's right and its
    right the source's left. Either way more shared terms than the other reading has.
    """
    return any(
        _along(mine, (right, left) if crossed else (left, right))
        for mine in claim
        for left, right in source
    )


def _along(
    mine: tuple[frozenset[str], frozenset[str]], theirs: tuple[frozenset[str], frozenset[str]]
) -> int:
    """The terms two occurrences share on the same sides (0 unless both sides share one).

    Also 0 when as many are shared crossed, the claim's left with the source's right.
    """
    (mine_left, mine_right), (their_left, their_right) = mine, theirs
    left, right = mine_left & their_left, mine_right & their_right
    across = len(mine_left & their_right) + len(mine_right & their_left)
    shared = len(left) + len(right)
    return shared if left and right and shared > across else 0


def _stated(word: str, texts: Iterable[str]) -> bool:
    """Whether any of `texts` holds `word` in another form (same stem)."""
    wanted = stems(word)
    return bool(wanted) and any(wanted <= stems(text) for text in texts)
