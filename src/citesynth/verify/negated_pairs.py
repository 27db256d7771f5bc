"""Two words a claim writes side by side that a sentence of its source negates side by side.

    pair_negated("Gunicorn is a pure-Python WSGI server that supports Windows directly, "
                 "installs without extra dependencies or compilation, …", evidence)
    → ("supports Windows", "not support Windows")

Werkzeug's deployment page lists of Gunicorn "It does not support Windows (but does run
on WSL)". The negation check (`align._negation_differs`) reads the sentences stating most
of a claim, and a list item stating one short thing of a long claim is none of them; nor
does `compound.clause_denied` read a clause of fewer than four terms ("that supports
Windows directly"). Every word of the claim is on the page, so coverage passed it.

A claim's pair is two content words side by side in one of its clauses (`swaps`' clauses;
function words between them are skipped: "supports Windows", "modifies the URL"). It is
negated when a negation of a prose sentence of the passages bears on the two side by side:
among the `REACH` words right after a negating word ("not", "never", "no"; not a privative
"without", which often states a condition), before its clause ends ("does not modify the
URL, only the endpoint"). Not read so:

- a claim that negates anything itself, or whose clause holding the pair denies in a word
  (`negation.denies`: "rather than minimum supported ones", "untrusted"), or writes an
  "un-" word of one of the pair ("leaves SameSite unset" against "does not set
  `SameSite` by default"): it may say the denial in its own words;
- a negation inside a condition ("If a request comes from a page that is not served on a
  trusted URL, …": it asserts nothing of the trusted hosts) or followed by an "otherwise"
  (`negation.otherwise_only`);
- a pair some sentence of the passages writes side by side plainly (uWSGI's "it does not
  provide SSL support" above "Either method will include SSL support": the passage speaks
  of two things).

`denials.denied_elsewhere` reads pairs too, but only of the words a cited source leaves
unsaid, near (three words) rather than side by side, in a negated clause rather than
right after its negation. Read so over every word of a claim, it vetoed five right tuning
claims for three wrong ones caught.

Measured on the tuning splits (2026-12-07), lexical: wrong claims passed, WiCE dev 50 →
49, SciFact train 1 fewer, the 760 written documentation claims 100 → 97; no right claim
of any tuning set (the documentation claims, WiCE dev, SciFact train, HaluEval 0–249,
Developer Hub dev) vetoed. Six words after the negation, not four, vetoed a right
Developer Hub claim and one documentation claim; reading privatives changed nothing.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping

from citesynth.verify.analysed import Evidence, is_prose, remembered_when_short, text_of
from citesynth.verify.negation import PRIVATIVE, denies, negation_cues, otherwise_only
from citesynth.verify.numbers import canonical
from citesynth.verify.opposites import WRITTEN_TOKEN, content_of
from citesynth.verify.swaps import clause_matches, clause_tokens

REACH = 4
"""Words after a negating word it bears on: "does not support Windows (…)"."""
STOP = re.compile(
    r"[,;:.!?()\[\]\n]|\s(?:but|which|that|who|and|or|because|since|while|whereas|unless|if"
    r"|when)\s",
    re.I,
)
"""Where what a negation bears on ends: its clause's end, or a clause opening inside it."""
FARTHEST = 200
"""Characters after a negating word read for its `REACH` words: a sentence of many
negations and no punctuation costs no more than its length."""
CONDITION = re.compile(r"\b(?:if|unless|whether|when|once)\b", re.I)
"""A word opening a condition: a negation after it in its clause asserts nothing."""
_CLAUSE_START = re.compile(r"[,;:.!?()]")
_CONTRAST = re.compile(r"\bunlike\b", re.I)
"""A claim's contrast with another thing ("unlike"; `denies` reads "rather than")."""
_UN_WORD = re.compile(r"\bun([a-z]{3,})", re.IGNORECASE)

Pair = tuple[str, str]
Stem = tuple[str, int]
"""A stem and where the word giving it ends."""


def pair_negated(claim: str, evidence: Evidence) -> tuple[str, str] | None:
    """(the claim's words, the source's negation of them) when a source negates a pair.

    See the module docstring.
    """
    pairs = plain_pairs(claim)
    if not pairs:
        return None
    plainly: dict[Pair, bool] = {}  # a long page may negate one pair in many sentences
    for sentence in evidence.sentences:
        if not sentence.negated:
            continue
        text = text_of(evidence, sentence)
        for start, run in negated_runs(text):
            for (first, _), (second, end) in itertools.pairwise(run):
                pair = (first, second)
                if pair not in pairs or not is_prose(evidence, sentence):
                    continue
                words, clause = pairs[pair]
                if conditional(text, start) or denies(clause, text):
                    continue
                if otherwise_only(pair, text):
                    continue
                if pair not in plainly:
                    plainly[pair] = _stated_plainly(pair, evidence)
                if not plainly[pair]:
                    return words, " ".join(text[start:end].split())
    return None


@remembered_when_short(maxsize=1024)
def plain_pairs(claim: str, /) -> Mapping[Pair, tuple[str, str]]:
    """The claim's pairs, each with its words as written and the clause writing them.

    None when the claim negates anything (a privative aside) or contrasts ("unlike"), nor
    pairs holding a word the claim writes an "un-" word of. Remembered when short: repair
    reads one claim against every source.
    """
    if any(word.lower() not in PRIVATIVE for _, word in negation_cues(claim)):
        return {}
    if _CONTRAST.search(claim):
        return {}
    unsaid = {
        canonical(t)
        for found in _UN_WORD.finditer(claim)
        for t in content_of(found.group(1).lower())
    }
    pairs: dict[Pair, tuple[str, str]] = {}
    for clause, words in clause_matches(claim):
        stems = [
            (canonical(term), found.start(), found.end())
            for found in words
            for term in content_of(found.group().lower())
        ]
        for (first, opened, _), (second, _, closed) in itertools.pairwise(stems):
            if first != second and not {first, second} & unsaid:
                written = " ".join(claim[opened:closed].split())
                pairs.setdefault((first, second), (written, clause))
    return pairs


@remembered_when_short(maxsize=4096)
def negated_runs(
    text: str, /, *, privative: bool = False
) -> tuple[tuple[int, tuple[Stem, ...]], ...]:
    """Each negation of `text` (a privative one if asked): where it starts, and its stems.

    The stems of the `REACH` words after the negating word, before `STOP`, each with
    where its word ends. Remembered: a source's sentences are read for every claim.
    """
    found = []
    for offset, word in negation_cues(text):
        if word.lower() in PRIVATIVE and not privative:
            continue
        after = offset + len(word)
        stop = STOP.search(text, after, after + FARTHEST)
        limit = stop.start() if stop else after + FARTHEST
        words = itertools.islice(WRITTEN_TOKEN.finditer(text, after, limit), REACH)
        run = tuple(
            (canonical(t), match.end())
            for match in words
            for t in content_of(match.group().lower())
        )
        if len(run) >= 2:
            found.append((offset, run))
    return tuple(found)


def conditional(text: str, offset: int) -> bool:
    """Whether the negation at `offset` of `text` stands in a condition ("If … is not …")."""
    before = text[max(0, offset - FARTHEST) : offset]
    opened = max((m.end() for m in _CLAUSE_START.finditer(before)), default=0)
    return CONDITION.search(before, opened) is not None


def _stated_plainly(pair: Pair, evidence: Evidence) -> bool:
    """Whether a sentence of the passages writes `pair` side by side, no negation on it."""
    return any(pair in plain_in(text_of(evidence, sentence)) for sentence in evidence.sentences)


@remembered_when_short(maxsize=4096)
def plain_in(text: str, /) -> frozenset[Pair]:
    """The pairs `text` writes side by side that none of its negations bears on.

    A privative's counts: "without SSL support" states no SSL support.
    """
    runs = negated_runs(text, privative=True)
    negated = {(a, b) for _, run in runs for (a, _), (b, _) in itertools.pairwise(run)}
    found: set[Pair] = set()
    for tokens in clause_tokens(text):
        stems = [canonical(t) for token in tokens for t in content_of(token)]
        found.update(itertools.pairwise(stems))
    return frozenset(found - negated)


def written_stems(text: str) -> frozenset[str]:
    """The canonical content stems of `text`'s tokens (a hyphenated word or identifier whole)."""
    return frozenset(
        canonical(t)
        for tokens in clause_tokens(text)
        for token in tokens
        for t in content_of(token)
    )
