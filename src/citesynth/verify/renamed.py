"""A proper name put where the sentence stating the claim names another.

    name_replaced("Moreau signed to the Denver Broncos practice squad in 2015.",
                  "Moreau was signed to the Falcons practice squad on October 29, 2013.",
                  sentences)
    → ("Denver Broncos", "Falcons")

Every word of such a claim is in its passages, the name too, a few sentences away, so
coverage passes it, and so does a cross-encoder: over the tuning splits of WiCE, SciFact
and HaluEval, supported claims with one name replaced by another name of their passages
passed the lexical verifier 62 % of the time (`benchmarks.verifier_pairs.perturb`). It is
the prose twin of `misplaced.code_elsewhere`, which reads code.

A name of the claim is replaced when a sentence stating the claim (one of the best-aligned
sentences `align` reads, `name_replaced` is given each) holds no word of it, and holds
another name, none of whose words the claim writes, in its place: the two names share
`SHARED` terms of their neighbours (the `NEAR` content words on either side, within the
clause), the nearest content word on one side among them ("the Falcons practice squad",
"the Denver Broncos practice squad"). Names are runs of capitalised words inside a
sentence (`swaps.NAMES`); none is a function word ("No.1", "A list"), a single letter, an
admonition label ("IMPORTANT"), a month or a day ("January", "Aug": a date's), nor a word
in capitals alone: documentation writes its terms so ("the GET method", "a list of HTTP
methods", "JSON"), and one names a kind the other is of. A question a claim restates
before its answer ("Who … from Italy, Chris Evert or Mara Santangelo? Mara Santangelo")
asserts nothing of the names it asks of, and they are not read.

Not read as replaced, since the sources may call one thing by both names:
- one name the other's acronym ("RHDH", "Red Hat Developer Hub"), written inside the
  other ("SonataFlow", "SonataFlowPlatform"), or spelt alike ("Rusian", "Russian");
- two names the passages relate in one sentence: "Fiapre is a town in the Sunyani West
  District" lets a claim speak of "a town in Sunyani West District" where the anchor says
  "in Fiapre", and a genus the passages name with another's.
Nor is a sentence that is no prose (code, a table: `analysed.prose_spans`).

Measured on the tuning splits (2026-12-07), lexical: wrong claims passed, WiCE dev 51 →
50, HaluEval 0–249 146 → 141, Developer Hub dev 52 → 51; no right claim of any tuning set
(the 760 written documentation claims, WiCE dev, SciFact train, HaluEval 0–249, Developer
Hub dev) is vetoed, nor any changed detail (`benchmarks.verifier_pairs.perturb`) of
another kind. The claims with a name changed pass as before (177 of 285): those it
caught named the changed name in the question part of HaluEval's "question? answer",
where right claims name the other hops' names too, and lost two right HaluEval claims
when read (a month read as a name lost a WiCE one; reading the anchor alone, not every
stating sentence, caught three fewer wrong claims).
Requiring one shared neighbour, not two, vetoed three more changed names and eight right
claims.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from citesynth.analysis import ADMONITIONS, CALENDAR
from citesynth.verify.analysed import prose_spans, remembered_when_short
from citesynth.verify.numbers import canonical
from citesynth.verify.opposites import content_of, near
from citesynth.verify.swaps import NAMES, clause_tokens, flat_tokens

SHARED = 2
"""Neighbouring terms a claim's name and the anchor's other name must share."""
_ALIKE = 0.85
"""How alike two names' letters must be to be one name misspelt ("Rusian", "Russian")."""
_MOST = 16
"""The names read on each side, the first ones: each is looked for in the whole text."""


@dataclass(frozen=True, slots=True)
class _Name:
    """A proper name as written, its words lower-cased, and the terms of those words."""

    written: str
    words: frozenset[str]
    own: frozenset[str]


def name_replaced(
    claim: str, stating: str, sentences: Iterable[frozenset[str]]
) -> tuple[str, str] | None:
    """(the claim's name, the name `stating` writes in its place), or None (module doc).

    `stating` is a sentence stating the claim; `sentences` the stemmed terms of each
    sentence of the passages, read only when a name is found replaced.
    """
    asserted = claim.rpartition("?")[2]  # a question asserts nothing of the names it asks of
    held = frozenset(flat_tokens(stating))
    claimed = [name for name in _names(asserted) if name.words.isdisjoint(held)]
    if not claimed:  # most claims: the sentence writes every name they do, or they name none
        return None
    said = frozenset(flat_tokens(claim))
    others = [name for name in _names(stating) if name.words.isdisjoint(said)]
    if not others:
        return None
    names, others_placed = _placed(claimed, asserted), _placed(others, stating)
    found = [
        (name, other)
        for name, around, nearest in names
        for other, around_other, nearest_other in others_placed
        if len(around & around_other) >= SHARED
        and nearest & nearest_other
        and not _one_named(name, other)
    ]
    if not found or not prose_spans(stating)[0]:
        return None
    related = list(sentences)
    for name, other in found:
        both = frozenset(canonical(t) for t in name.own | other.own)  # as `Sentence.terms`
        if not any(both <= terms for terms in related):
            return name.written, other.written
    return None


@remembered_when_short(maxsize=4096)
def _names(text: str) -> tuple[_Name, ...]:
    """The proper names of `text` (module doc: no function word, letter or label).

    Remembered: repair reads one claim against every source, and a source's sentences
    state many claims.
    """
    found = []
    for match in NAMES.finditer(text):
        words = [w for w in match.group().split() if w.isalpha()]
        if words and all(map(_naming, words)) and not (len(words) == 1 and words[0].isupper()):
            lowered = frozenset(w.lower() for w in words)
            own = frozenset(t for w in lowered for t in content_of(w))
            found.append(_Name(" ".join(words), lowered, own))
    return tuple(found)


def _naming(word: str) -> bool:
    """Whether a capitalised word can be part of a name.

    Not a letter, an admonition label, a function word, a month or a day ("January", "Aug").
    """
    lowered = word.lower()
    return (
        len(word) > 1
        and word.upper() not in ADMONITIONS
        and lowered not in CALENDAR
        and lowered not in _CALENDAR_SHORT
        and bool(content_of(lowered))
    )


_CALENDAR_SHORT = frozenset(day[:3] for day in CALENDAR) | {"sept"}
"""Months and days as dates abbreviate them ("Aug", "Sept", "Fri")."""


def _one_named(first: _Name, second: _Name) -> bool:
    """Whether one name is the other's acronym, written inside it, or spelt alike."""
    a, b = first.written.split(), second.written.split()
    joined_a, joined_b = "".join(a).lower(), "".join(b).lower()
    initials_a = "".join(w[0] for w in a).lower()
    initials_b = "".join(w[0] for w in b).lower()
    return (
        joined_a in joined_b
        or joined_b in joined_a
        or _spelt_alike(joined_a, joined_b)
        or (len(a) == 1 and joined_a == initials_b)
        or (len(b) == 1 and joined_b == initials_a)
    )


def _spelt_alike(first: str, second: str) -> bool:
    """Whether two names' letters are `_ALIKE`: compared only when names are short."""
    if max(len(first), len(second)) > _LONGEST:
        return False
    matcher = SequenceMatcher(None, first, second)
    return matcher.real_quick_ratio() >= _ALIKE and matcher.ratio() >= _ALIKE


_LONGEST = 80
"""Letters of the longest name compared for spelling: a longer run of capitalised words
is a title or a hostile text, and comparing it costs the product of the two lengths."""


def _placed(
    names: Sequence[_Name], text: str
) -> list[tuple[_Name, frozenset[str], frozenset[tuple[int, str]]]]:
    """The first `_MOST` names, each with the terms near it in `text` and the nearest ones.

    A name stands where another did when they share `SHARED` terms near them, the nearest
    content word on one side among them (module doc). Each name is read once, so a
    sentence writing one name thousands of times is read once for it.
    """
    runs = clause_tokens(text)
    kept = list({name.words: name for name in names}.values())[:_MOST]
    return [(n, near(runs, n.words) - n.own, _nearest(runs, n.words)) for n in kept]


def _nearest(runs: Sequence[Sequence[str]], words: frozenset[str]) -> frozenset[tuple[int, str]]:
    """The terms of the nearest content word on each side (-1 left, 1 right) of `words`.

    Read from each end of each run of the name's words, up to the next content word or
    the next run: linear however often a sentence writes the name.
    """
    found: set[tuple[int, str]] = set()
    for written in runs:
        end = len(written)
        for index, token in enumerate(written):
            if token not in words or (index and written[index - 1] in words):
                continue
            last = index
            while last + 1 < end and written[last + 1] in words:
                last += 1
            for side, steps in ((-1, range(index - 1, -1, -1)), (1, range(last + 1, end))):
                for at in steps:
                    if written[at] in words:
                        break  # the name again: nothing stands between
                    if content := content_of(written[at]):
                        found.update((side, term) for term in content)
                        break
    return frozenset(found)
