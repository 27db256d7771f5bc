"""A claim that links two facts as cause and effect, and whether a source links them.

    "GZipMiddleware defaults to compresslevel 9 because it is an integer ranging from 1 to 9."

Both facts are in the source ("`compresslevel` - … It is an integer ranging from 1 to 9.
Defaults to `9`."), so nearly every word of the claim is, and the cross-encoder and the
lexical verifier both passed it; the source never says the one is why the other holds.
Asked why, the small model writes such a link from whatever two facts it was given
("attrs ships a C extension because it is meant to be a kit for building classes"; attrs
ships none), or gives a fact of the source as the reason where the source gives another.

`link_of` reads the link a claim makes: "X because Y", "X due to Y", "Because Y, X", "X,
since Y", "X, so Y", "X, which means Y", and a claim pointing back to the sentence before it
("This is because Y", "That's why Y"), whose other side is not in the claim. Not a purpose
("so that", "in order to") nor what a writer infers ("Therefore, …"). `unstated_link` is
that link when its reason is a fact of the sources (`REASON_HELD`) and no passage links the
two sides (`_READINGS`):

- one sentence with a cue word (`cues.states_reason`) holding most of both sides;
- two sentences, the second pointing back ("The default thread pool size is only 40
  tokens. This means that only 40 threads can run at the same time.", "The reason is
  that …");
- a question or heading asking why, and the sentences under it.

A link a cue word states the other way round (`cues.sides_of`: the claim's cause is the
source's effect) is `reversed`. Two facts with no cue between them state no link, side by
side ("It is an integer ranging from 1 to 9. Defaults to `9`.") or in one sentence
("Starlette supports WebSockets, GraphQL and HTTP/2"): on the tuning claims, reading such
juxtapositions as links let five wrong claims through and kept no right one.

`LinksChecked` holds a verifier's verdicts to this: every link when the question asks why
(the link is then what was asked), a claim pointing back whatever was asked. A link stated
the other way round is wrong whatever was asked: `align` vetoes it in every claim (since
2026-12-06: "Because the blueprint cannot handle 404 routing errors, the 404 ends up
occurring at the routing level" against Flask's "the blueprint cannot handle 404 routing
errors because the 404 occurs at the routing level …"; on every
labelled set, tuning and report, it vetoes no supported claim).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from citesynth.analysis import content_terms
from citesynth.citations.resolve import CANONICAL
from citesynth.ingest.blocks import ITEM_START
from citesynth.verify.analysed import passage_sentences
from citesynth.verify.base import Check, Holding, Verdict, Verifier, with_reason
from citesynth.verify.claims import MARKER, ClaimSpan, plain
from citesynth.verify.cues import (
    ASKING_WORDS,
    FINITE,
    LINKS_BACK,
    NOT_DATING,
    PARAGRAPH_END,
    POINTING,
    cause_opens,
    points_back_to,
    sides_of,
    states_reason,
)
from citesynth.verify.purpose import split_goal

LINK = re.compile(
    r"(?<![\s,])(?:"
    r",?\s+because(?:\s+of)?,?\s+"
    r"|,?\s+(?:due|owing)\s+to\s+(?!be\b)"
    r"|,?\s+as\s+a\s+(?:result|consequence)\s+of\s+"
    r"|,\s+so\s+(?!far\b|much\b|many\b|long\b|on\b|as\b|that\b|to\s+speak\b)"
    r"|[,;]\s+(?:which|this|that)\s+(?:means|is\s+why|leads?\s+to|results?\s+in)\s+(?:that\s+)?"
    rf"|,\s+(?P<since>since)\b{NOT_DATING}\s*"
    r")",
    re.I,
)
"""A link inside a claim, between the fact before it and the one after it: "X because Y",
"X due to Y" (not "due to be"), "X, so Y", "X, which means Y" (not "the value that results
in an error"), "X, since Y". It starts after a word, so a run of spaces is tried once.
Not a purpose ("X so that Y", "X in order for Y"): sources state one in too many ways ("A
pool keeps idle connections open for reuse"), and an opening goal is `purpose`'s to check.
Not "therefore", "thus" or "hence": those mark what the writer infers ("Therefore, the
answer is …"), and the facts it infers from are checked as claims of their own."""
_OPENING_CAUSE = re.compile(
    rf"(?:because(?:\s+of)?|due\s+to|as\s+a\s+result\s+of|(?P<since>since)\b{NOT_DATING})\s+"
    r"(?P<first>[^,]{3,}?),\s+(?P<second>.+)",
    re.I,
)
"""A claim opening with its cause: "Because Y, X", "Since Y, X", "Due to Y, X"."""
_CONSEQUENCE = re.compile(r"[,;]?\s+(?:so|which|this|that)\b", re.I)
"""A link whose second side is the consequence of its first ("X, so Y", "X, which means Y")."""
_WHY = re.compile(r"(?:^|\n)\s*(?:#+\s*|\*\*)?(?:why|how\s+come)\b", re.I)
"""A question or heading asking why: the text under it answers it."""
_REFERRING = re.compile(r"\s*(?:this|that|these|those|it|so)\b", re.I)
"""A sentence whose subject is the one before it: "This is often not a problem because …"."""
_CLAUSE_START = re.compile(r"[,;:\"“]\s*|\s[–—]\s")
"""Where the clause a link explains may begin: "As the docs put it, HTTP/2 is off by
default because …" explains only what follows the comma."""
_QUOTED = re.compile(r"(?<!`)`+[^`\n]+?`+|\"[^\"\n]{1,300}\"|“[^”\n]{1,300}”")
"""Inline code and a quotation: their cue words are what is quoted ('reads "failed because
of timeout"'), and a "?" in them ends no question."""
_ASKED = re.compile(r"\?(?=\s|$)")
"""The end of a question the claim holds (HaluEval's "question? answer"): not a "?" of a
query string, "/items?limit=10"."""
_PERFECT = re.compile(r"\b(?:has|have|had)\s+(?:\w+\s+)?(?:been|\w+ed|\w+en)\b|\bever\b", re.I)
"""A perfect before "since": the time since which something holds ("has been stable, since
it was rewritten")."""
_NEAR = 200
"""How far around a cue word its reading looks, in characters (each match reads no more:
a claim of many "so"s is read in linear time)."""
_DEGREE = re.compile(r"\bso\s+[\w-]+\s*$", re.I)
"""A clause ending "so <adjective>" before ", so": degree, listed ("so fast, so small")."""
_ASKS_WHY = re.compile(r"\b(?:why|how\s+come)\b", re.I)


SIDE_COVERAGE = 0.5
"""The share of a side's content terms the linking sentences must hold (both sides)."""
REASON_HELD = 0.67
"""The share of the reason's terms the sources must hold for the link to be what is wrong:
a fact of theirs given as the reason for something they never give it for ("because it is
an integer ranging from 1 to 9"). A reason they lack ("due to his success with HomeCorp"
against pages that never name HomeCorp) is the claim's other checks' and the model's to
weigh."""
_UNDER_WHY = 4
"""How many sentences after a why-question or heading answer it."""
REVERSED_BY = 2
"""How many more of the claim's terms must sit on the source's other side of its cue for the
link to read the other way round ("ASGI is designed to handle concurrent requests because
state should be scoped to `__call__`" against "Because ASGI is designed …, state should
be …")."""


@dataclass(frozen=True, slots=True)
class Link:
    """A claim's link between two facts; `first` is empty when it points back."""

    first: str
    second: str
    cue: str
    """The linking words as written ("because", ", which means that")."""
    cause_first: bool = False
    """Whether `first` is the cause ("X, so Y", "X, which means Y"), not `second` ("X
    because Y", "This is because Y")."""

    reversed: bool = False
    """Whether a source states the link the other way round (`unstated_link`)."""

    def sides(self) -> tuple[str, str]:
        """(the cause, the effect) as the claim writes them."""
        return (self.first, self.second) if self.cause_first else (self.second, self.first)

    def describe(self) -> str:
        """The link as a reader of a verdict's reasons reads it."""
        if not self.first:
            return f"{self.cue.strip(' ,')} {self.second}"
        return f"{self.first} {self.cue.strip(' ,')} {self.second}"


@lru_cache(maxsize=1024)
def link_of(claim: str) -> Link | None:
    """The link `claim` makes between two facts, if any (see the module docstring).

    Remembered: repair aligns one claim with every source.
    """
    link = _read_link(claim)
    return link if link is not None and link.second.strip() else None


def _read_link(claim: str) -> Link | None:
    """`link_of`'s reading, which may leave a side empty ("This is because")."""
    text = plain(claim).rstrip(" .!?")
    masked = _masked(text)
    asked = max((m.end() for m in _ASKED.finditer(masked)), default=0)
    text, masked = text[asked:].lstrip(), masked[asked:].lstrip()  # a question states no link
    if goal := split_goal(text):  # "To X so that Y, do Z": the link is in the question asked
        text = goal.assertion.rstrip(" .!?")
        masked = _masked(text)
    if pointing := POINTING.match(masked):
        # "This is because Y" gives the cause of the sentence before; "That's why Y" its effect
        gives_effect = points_back_to(masked) == "effect"
        return Link("", text[pointing.end() :], text[: pointing.end()], gives_effect)
    opens = _OPENING_CAUSE.match(masked)
    if opens is None and (start := cause_opens(masked)):  # "X, and because Y, Z"
        text, masked = text[start:], masked[start:]
        opens = _OPENING_CAUSE.match(masked)
    if opening := opens:
        if opening.group("since") and not FINITE.search(opening.group("first")):
            return None  # "Since its acquisition by Dignity Health, …": since when
        cue = text[: opening.start("first")]
        return Link(
            text[opening.start("second") :],
            text[opening.start("first") : opening.end("first")],
            cue,
        )
    inside = next((m for m in LINK.finditer(masked) if _links(masked, m)), None)
    if inside is None:
        return None
    before = masked[: inside.start()].rstrip(" ,;")
    cut = _clause_start(before)
    if len(content_terms(before[cut:])) < 2:  # "X, Y and Z because …": the whole
        cut = 0
    cue = text[inside.start() : inside.end()]
    return Link(
        text[cut : len(before)], text[inside.end() :], cue, _CONSEQUENCE.match(cue) is not None
    )


def _masked(text: str) -> str:
    """`text` with its inline code and quotations blanked out (their cue words link nothing)."""
    return _QUOTED.sub(lambda quoted: "x" * len(quoted.group()), text)


def _links(masked: str, found: re.Match[str]) -> bool:
    """Whether a `LINK` match links two facts (not "since" of time, not "so" of degree)."""
    before = masked[: found.start()]
    if found.group("since"):  # "since" before a clause, and not after a perfect: a reason
        after = masked[found.end() : found.end() + _NEAR]
        return FINITE.search(after) is not None and not _PERFECT.search(before[-_NEAR:])
    if found.group().lstrip(" ,").lower().startswith("so"):
        return _DEGREE.search(before[-_NEAR:]) is None  # "so fast, so small": degree
    return True


def _clause_start(before: str) -> int:
    """Where the clause ending `before` begins (0: `before` is one clause).

    After its last comma, semicolon, colon, quote or dash outside brackets.
    """
    start = 0
    depth = 0
    for position, character in enumerate(before):
        if character in "([":
            depth += 1
        elif character in ")]":
            depth = max(0, depth - 1)
        elif depth == 0 and (found := _CLAUSE_START.match(before, position)):
            start = found.end()
    return start


@dataclass(frozen=True, slots=True)
class _Sentence:
    text: str
    terms: frozenset[str]
    cued: bool
    points_back: bool
    asks_why: bool


@lru_cache(maxsize=512)
def _sentences(passage: str) -> tuple[_Sentence, ...]:
    """The passage's sentences in order, headings included, with what links them.

    A sentence run over list items is one (`_run_over_items`): structlog's "… except:" over
    "- it's slightly faster due to less overhead,", "- has an explicit API …," and "- hence
    causing less cryptic error messages …" links the API to the messages across items.
    """
    found = []
    for start, end in _run_over_items(passage, passage_sentences(passage)):
        text = passage[start:end]
        bare = text.lstrip("#*> \t-")
        cued = states_reason(text)
        found.append(
            _Sentence(
                text,
                frozenset(content_terms(text)),
                cued,
                LINKS_BACK.match(bare) is not None or (cued and _REFERRING.match(text) is not None),
                _WHY.match(text) is not None,
            )
        )
    return tuple(found)


def _run_over_items(passage: str, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """`spans` with each run of list items that goes on from one to the next joined.

    An item goes on when it ends in "," or ";" (or "and", "or") and the next span is an item.
    """
    joined: list[tuple[int, int]] = []
    for start, end in spans:
        goes_on = joined and _GOES_ON.search(passage[joined[-1][0] : joined[-1][1]])
        if goes_on and ITEM_START.match(passage, start, end) is not None:
            joined[-1] = (joined[-1][0], end)
        else:
            joined.append((start, end))
    return joined


_GOES_ON = re.compile(r"(?:[,;]|\b(?:and|or))[ \t]*$")


def _holds(side: frozenset[str], found: frozenset[str], least: float = SIDE_COVERAGE) -> bool:
    return not side or len(side & found) / len(side) >= least


def _stated(first: frozenset[str], second: frozenset[str], passage: str, link: Link) -> str:
    """How the passage links the two sides: "stated", "reversed" or "" (not at all).

    "reversed" when it only links them the other way round; `_READINGS` are tried at each
    of its sentences.
    """
    sentences = _sentences(passage)
    sides = Sides(first, second, link)
    reversed_ = False
    for index in range(len(sentences)):
        for reading in _READINGS:
            found = reading(sides, sentences, index)
            if found == "stated":
                return found
            reversed_ = reversed_ or found == "reversed"
    return "reversed" if reversed_ else ""


@dataclass(frozen=True, slots=True)
class Sides:
    """The content terms of a link's two sides, less what the sources' titles give."""

    first: frozenset[str]
    second: frozenset[str]
    link: Link

    def held_by(self, terms: frozenset[str]) -> bool:
        """Whether `terms` hold enough of both sides."""
        return _holds(self.first, terms) and _holds(self.second, terms)

    def read(self, sides: tuple[frozenset[str], frozenset[str]] | None) -> str:
        """The reading: "stated", or "reversed" when the source's cause and effect swap."""
        return "reversed" if _reversed(self.first, self.second, self.link, sides) else "stated"


def _in_one(sides: Sides, sentences: Sequence[_Sentence], index: int) -> str:
    """One sentence with a cue word holding both sides.

    Not a sentence holding both with none: "Starlette supports WebSockets, GraphQL and
    HTTP/2" says nothing of why it supports any.
    """
    sentence = sentences[index]
    if _linked_alone(sides.first, sides.second, sentence):
        return sides.read(sides_of(sentence.text))
    return ""


def _pointing(sides: Sides, sentences: Sequence[_Sentence], index: int) -> str:
    """A sentence pointing back ("This means …", "Therefore …") and the one before it."""
    sentence = sentences[index]
    if not index or not sentence.points_back:
        return ""
    before = sentences[index - 1]
    if _linked_alone(sides.first, sides.second, before):
        return ""  # the one before links them itself: `_in_one` read it
    joined = sentence.terms | before.terms
    if sentence.text.rstrip().endswith(":") and index + 1 < len(sentences):
        joined |= sentences[index + 1].terms  # "Therefore structlog comes with:" …
    if not sides.held_by(joined):
        return ""
    return sides.read(_pointing_sides(sentence, before, joined))


def _under_why(sides: Sides, sentences: Sequence[_Sentence], index: int) -> str:
    """A question or heading asking why, and the sentences under it."""
    if not sentences[index].asks_why:
        return ""
    under = frozenset[str]().union(*(s.terms for s in sentences[index : index + _UNDER_WHY + 1]))
    return "stated" if sides.held_by(under) else ""


_READINGS = (_in_one, _pointing, _under_why)
"""The ways a passage may state a link, tried at each of its sentences."""


def _linked_alone(first: frozenset[str], second: frozenset[str], sentence: _Sentence) -> bool:
    """Whether `sentence` links both sides itself (what points back to it adds nothing)."""
    return sentence.cued and _holds(first, sentence.terms) and _holds(second, sentence.terms)


def _pointing_sides(
    sentence: _Sentence, before: _Sentence, joined: frozenset[str]
) -> tuple[frozenset[str], frozenset[str]] | None:
    """The cause and the effect of a sentence pointing back and the one before it."""
    gives = points_back_to(sentence.text)
    if gives == "cause":  # "This is because Y": the cause of the one before
        return sentence.terms, before.terms
    if gives == "effect":  # "That's why Y", "Therefore Y", "This means Y"
        return joined - sentence.terms, sentence.terms
    return None


def _reversed(
    first: frozenset[str],
    second: frozenset[str],
    link: Link,
    sides: tuple[frozenset[str], frozenset[str]] | None,
) -> bool:
    """Whether the source gives the claim's cause as its effect and its effect as its cause."""
    if sides is None or not first:
        return False
    cause, effect = (first, second) if link.cause_first else (second, first)
    theirs, outcome = sides[0] - sides[1], sides[1] - sides[0]
    right = len(cause & theirs) + len(effect & outcome)
    wrong = len(cause & outcome) + len(effect & theirs)
    return wrong >= right + REVERSED_BY


def unstated_link(
    claim: str, passages: Sequence[str], about: str = "", asked: str = "", antecedent: str = ""
) -> Link | None:
    """The link `claim` makes when none of `passages` states it (see the module docstring).

    The words of `about` (the sources' titles and headings) count as held by every
    sentence: a passage leaves its subject to them. The words of the question `asked`
    count as held by the effect: "Why does the last processor matter so much?" answered
    "The last processor matters so much because …" needs a source stating the reason as
    one, not one saying "matters so much". A claim pointing back ("This is because Y") has
    the `antecedent` it points back to as its other side, when the answer has one.
    """
    link = link_of(claim)
    if link is None:
        return None
    if not link.first and antecedent:
        link = replace(link, first=plain(antecedent))
    given = frozenset(content_terms(about)) | _NAMES_A_LINK
    first = frozenset(content_terms(link.first)) - given
    second = frozenset(content_terms(link.second)) - given
    question = frozenset(content_terms(asked)) - ASKING_WORDS
    if link.cause_first:
        second -= question
    else:
        first -= question
    if not first and not second:
        return None
    vocabulary = frozenset().union(*(s.terms for p in passages for s in _sentences(p)))
    if not _holds(first if link.cause_first else second, vocabulary, REASON_HELD):
        return None  # a reason the sources lack: the claim's other checks weigh that
    found = [_stated(first, second, passage, link) for passage in passages]
    if "stated" in found:
        return None
    if "reversed" in found:
        return replace(link, reversed=True)
    if _ASKS_WHY.search(about) and any(
        _holds(first | second, frozenset(content_terms(passage))) for passage in passages
    ):
        return None  # the heading asks why: the section under it answers
    return link


def reversed_link(claim: str, passages: Sequence[str]) -> Link | None:
    """The link `claim` makes when a source states it the other way round, or None.

    Only when the claim reads the same way as a source sentence would be read
    (`cues.sides_of`): a claim of two cue words ("A small typo caused the worker to hang
    …, this was because the environment wasn't patched") may be read by the one as
    linking what the other reads it not to, and then a sentence compared with itself would
    read reversed. What `align` vetoes, whatever was asked.
    """
    link = unstated_link(claim, passages)
    if link is None or not link.reversed or not link.first:
        return None
    read = sides_of(claim)
    if read is None:
        return None
    cause, effect = link.sides()
    mine = frozenset(content_terms(cause)), frozenset(content_terms(effect))
    alike = all(len(mine[i] & read[i]) > len(mine[i] & read[1 - i]) for i in range(2))
    return link if alike else None


def with_antecedents(answer: str, claims: Sequence[ClaimSpan]) -> list[ClaimSpan]:
    """`claims` (in order), each pointing back to the claim before it with that one's text.

    A claim opening "This is because Y", "That's why Y", "This means Y" right after
    another claim of its paragraph, nothing but citation markers and punctuation between
    them (no heading, list item's mark or blank line), links the two
    (`ClaimSpan.antecedent`). Asked why pip
    keeps installing a package's pure-Python build, the embedded model wrote the docs'
    reason, "… because it is seeing a cached wheel … [1]", and then "This is because pip is
    using an isolated environment, which means it will install build-time Python
    dependencies in a temporary directory [4]": its source says that of build isolation,
    pointing back to its own sentence, and read alone the claim's link had passed.
    """
    linked = []
    previous: ClaimSpan | None = None
    for claim in claims:
        if claim.code:
            linked.append(claim)
            previous = None
            continue
        lead = _LEAD.match(answer, claim.start, claim.end)  # a marker a span may open with
        opens = lead.end() if lead else claim.start
        between = MARKER.sub("", answer[previous.end : opens]) if previous else ""
        if (
            previous is not None
            and not between.strip(" \t\r\n.,;:!?")
            and not PARAGRAPH_END.search(between)
            and POINTING.match(_masked(plain(claim.text)))
        ):
            claim = replace(claim, antecedent=previous.text)
        linked.append(claim)
        previous = claim
    return linked


_LEAD = re.compile(rf"(?:\s++|{CANONICAL.pattern})*+")
"""Whitespace and (resolved) citation markers a claim's span may open with."""


_NAMES_A_LINK = frozenset(content_terms("reason"))
"""A word naming the link, not a fact on either side of it: "The reason pip keeps
installing the pure-Python version is because it is seeing a cached wheel …" (pip's
docs: "… pip will use that cached wheel … This is because pip is seeing a cached wheel
…"); held to a source writing "reason", the embedded model's right answer had been
removed."""


class LinksChecked(Holding):
    """A verifier whose verdicts hold a claim to the link of cause and effect it makes.

    A claim pointing back ("This is because Y", "This means Y") is the link, whatever was
    asked; a link inside a claim ("X because Y") is what a why-question asks for, so it is
    held only then (`every`). A claim whose link no cited source states (`unstated_link`)
    is `partial` at most: its facts may be the sources', the link is not. The verdicts are
    otherwise the `wrapped` verifier's, under its name.
    """

    def __init__(self, wrapped: Verifier, *, every: bool, question: str = "") -> None:
        self.wrapped = wrapped
        self.every = every
        self.question = question
        self.name = wrapped.name

    def _held(self, check: Check, verdict: Verdict) -> Verdict:
        if verdict.label != "supported":
            return verdict
        link = link_of(check.claim)
        if link is None or (link.first and not self.every):
            return verdict
        unstated = unstated_link(
            check.claim, check.passages, check.about, self.question, check.antecedent
        )
        if unstated is None:
            return verdict
        reason = (
            f"the cited source states the link the other way round: {link.describe()!r}"
            if unstated.reversed
            else f"no cited source states the link it makes: {link.describe()!r}"
        )
        return with_reason(verdict, reason, "partial")
