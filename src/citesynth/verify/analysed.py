"""Passages split into sentences, each analysed once into what alignment reads.

A passage is split at blank lines first, then into sentences (`sentence_spans`); headings
are never a sentence that supports anything. Each `Sentence` holds its stemmed terms with
their positions, its numbers (with a unit the sentence before names), and whether it
negates or says something goes up or down. `Evidence` is the passages a claim is checked
against, analysed once for any number of claims (`align`, the trained verifier's
`evidence`); a `Context` is what the passages are about (titles and headings).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Concatenate, ParamSpec, TypeVar, cast

from citesynth.analysis import terms
from citesynth.ingest.blocks import LIST_MARKER
from citesynth.ingest.comments import code_comments
from citesynth.ingest.sentences import prose_sentences, sentence_spans
from citesynth.ingest.titles import HEADING_WORDS, is_title_or_rule
from citesynth.verify.negation import CODE, negation_cues
from citesynth.verify.numbers import WORD, canonical, numbers_of, quantities, stated_in

_PARAGRAPH = re.compile(r"\n[ \t\r]*\n")
_UP = frozenset(
    """increase increases increased increasing higher more greater larger raise raises raised
    rise rises rose improve improves improved enhance enhances enhanced promote promotes
    promoted upregulate upregulates upregulated induce induces induced activate activates
    activated accelerate accelerates accelerated exceed exceeds above faster longer
    stronger better""".split()
)
_DOWN = frozenset(
    """decrease decreases decreased decreasing lower less fewer smaller reduce reduces reduced
    reducing decline declines declined drop drops dropped inhibit inhibits inhibited suppress
    suppresses suppressed downregulate downregulates downregulated impair impairs impaired
    prevent prevents prevented slow slows slowed below slower shorter weaker worse""".split()
)


LARGEST_REMEMBERED = 50_000
"""Characters of text beyond which what is read of it is not remembered (alignments,
clauses): chunks are a few thousand; a page passed whole (or a hostile one) would stay in
memory."""

_Given = ParamSpec("_Given")
_Read = TypeVar("_Read")


def remembered_when_short(
    maxsize: int,
) -> Callable[
    [Callable[Concatenate[str, _Given], _Read]], Callable[Concatenate[str, _Given], _Read]
]:
    """A reading of a text, its `maxsize` latest results remembered for short texts.

    A text of more than `LARGEST_REMEMBERED` characters is read anew each time: a whole
    page is not kept in memory. The arguments after the text must be hashable, as
    `lru_cache` wants them.
    """

    def remembering(
        read: Callable[Concatenate[str, _Given], _Read],
    ) -> Callable[Concatenate[str, _Given], _Read]:
        remembered = cast(
            "Callable[Concatenate[str, _Given], _Read]", lru_cache(maxsize=maxsize)(read)
        )

        def reading(text: str, /, *args: _Given.args, **kwargs: _Given.kwargs) -> _Read:
            if len(text) > LARGEST_REMEMBERED:
                return read(text, *args, **kwargs)
            return remembered(text, *args, **kwargs)

        reading.__doc__ = read.__doc__
        return reading

    return remembering


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of one passage, analysed."""

    passage: int
    start: int
    end: int
    terms: frozenset[str]
    positions: dict[str, tuple[int, ...]]
    numbers: frozenset[str]
    negated: bool
    up: bool
    down: bool
    listed: int = -1
    """The index (in its passage) of the first sentence of the list holding it, -1 for none."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """The passages a claim is checked against, split into analysed sentences."""

    passages: tuple[str, ...]
    sentences: tuple[Sentence, ...]
    vocabulary: frozenset[str]
    numbers: frozenset[str]


@dataclass(frozen=True, slots=True)
class Context:
    """The terms and numbers of what the passages are about (titles, headings)."""

    terms: frozenset[str] = frozenset()
    numbers: frozenset[str] = frozenset()
    text: str = ""
    """The titles and headings as written, lower case (identifiers are looked up in it)."""


NO_CONTEXT = Context()


@lru_cache(maxsize=1024)
def context_of(about: str) -> Context:
    """The `Context` of a title and heading text (empty text: none)."""
    if not about.strip():
        return NO_CONTEXT
    found = terms(about)
    return Context(
        frozenset(found) | frozenset(canonical(t) for t in found),
        numbers_of(about) | quantities(about),
        about.lower(),
    )


def text_of(evidence: Evidence, sentence: Sentence) -> str:
    """The text of `sentence` as its passage writes it."""
    return evidence.passages[sentence.passage][sentence.start : sentence.end]


def passage_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans of `text`, never crossing a blank line."""
    spans: list[tuple[int, int]] = []
    start = 0
    for boundary in [*(m.start() for m in _PARAGRAPH.finditer(text)), len(text)]:
        spans.extend(sentence_spans(text, start, boundary))
        start = boundary
    return spans


_LIST_ITEM = re.compile(r"\s*" + LIST_MARKER + r"\s")


def flags(text: str) -> tuple[bool, bool, bool]:
    """Whether `text` negates, and whether it says something goes up or down."""
    words = {w.lower().replace("’", "'") for w in WORD.findall(CODE.sub(" ", text))}
    return bool(negation_cues(text)), bool(words & _UP), bool(words & _DOWN)


def _heading(text: str, start: int, end: int, comments: frozenset[int]) -> bool:
    """Whether the piece `text[start:end]` the sentence splitter cut is a Markdown heading.

    A line opening with "#" (`# Title`); one of more than `HEADING_WORDS` words only when
    it is a whole line: text whose line breaks were lost runs its headings into its first
    sentence ("# Installing dynamic plugins in Red Hat Developer Hub The dynamic plugin
    support is based on … dynamically. You can use …"), which the splitter leaves whole,
    while a news page's headline of twenty words stands on a line of its own. A comment of
    code (`comments`: where the comments of `ingest.comments` start) is no heading:
    Starlette's "# Don't do this: `/users/me` will never match incoming requests." above
    its routes is what the page says of them.
    """
    piece = text[start:end]
    if not piece.startswith("#") or "\n" in piece:
        return False
    mark = len(piece) - len(piece.lstrip("# \t"))
    if start + mark in comments:
        return False
    line_end = text.find("\n", end)
    whole = not text[end : len(text) if line_end < 0 else line_end].strip()
    return whole or len(piece.split()) <= HEADING_WORDS


@lru_cache(maxsize=512)
def _analysed(text: str) -> tuple[Sentence, ...]:
    """The sentences of one passage, analysed (as passage 0), cached.

    An answer's sources are checked several times: claims, precision, repair.
    """
    found: list[Sentence] = []
    comments = frozenset(c.start for c in code_comments(text))
    listed = -1  # the list the sentence before is in
    for start, end in passage_sentences(text):
        piece = text[start:end]
        if _heading(text, start, end, comments) or is_title_or_rule(text, start, end):
            listed = -1
            continue  # a heading (`# Title`, or a title over `-----`): never the supporting span
        item = _LIST_ITEM.match(piece) is not None
        previous_end = found[-1].end if found else 0
        listed = _list_of(text, start, item, (listed, previous_end), len(found))
        # The sentence before, in the same paragraph or list item, may name the unit.
        joined = bool(found) and text.count("\n", previous_end, start) <= 1 and not item
        unit_given = (
            stated_in(text[found[-1].start : found[-1].end], piece) if joined else frozenset()
        )
        tokens = [canonical(t) for t in terms(piece)]
        positions: dict[str, list[int]] = {}
        for position, term in enumerate(tokens):
            positions.setdefault(term, []).append(position)
        negated, up, down = flags(piece)
        found.append(
            Sentence(
                passage=0,
                start=start,
                end=end,
                terms=frozenset(tokens),
                positions={t: tuple(p) for t, p in positions.items()},
                numbers=numbers_of(piece) | quantities(piece) | unit_given,
                negated=negated,
                up=up,
                down=down,
                listed=listed,
            )
        )
    return tuple(found)


def is_prose(evidence: Evidence, sentence: Sentence) -> bool:
    """Whether `sentence` is prose: not code, a table or a rule (`prose_sentences`).

    Read when asked, not for every sentence analysed: most claims never ask.
    """
    text = evidence.passages[sentence.passage]
    spans, ends = prose_spans(text)
    at = bisect_right(ends, sentence.start)
    return at < len(spans) and spans[at][0] < sentence.end


@remembered_when_short(maxsize=1024)
def prose_spans(text: str) -> tuple[list[tuple[int, int]], list[int]]:
    """The prose sentences of `text` (`prose_sentences`) and where they end, remembered.

    `is_prose` reads a passage's; `renamed` whether a sentence stating a claim is prose.
    """
    spans = prose_sentences(text, min_words=1)
    return spans, [end for _, end in spans]


def _list_of(text: str, start: int, item: bool, previous: tuple[int, int], index: int) -> int:
    """The list the sentence at `start` (the `index`-th; a list `item` or not) is in.

    `previous` is the list the sentence before is in (-1 for none) and where it ends.
    An item opens a list, or goes on with the one before; a sentence on the line of the
    sentence before, or on an indented line, goes on with its item (structlog's "- A
    built-in printer." and, indented below it, "Easy to use and fast."); any other
    sentence is in none.
    """
    before, end = previous
    if item:
        return before if before >= 0 else index
    if before < 0:
        return -1
    line = text.rfind("\n", end, start) + 1  # read from the sentence before: linear
    return before if line == 0 or (start > line and not text[line:start].strip()) else -1


def analyse(passages: Sequence[str]) -> Evidence:
    """Split and analyse `passages` once, for any number of claims."""
    sentences = [
        s if index == 0 else replace(s, passage=index)
        for index, text in enumerate(passages)
        for s in _analysed(text)
    ]
    vocabulary = union(s.terms for s in sentences)
    numbers = union(s.numbers for s in sentences)
    return Evidence(tuple(passages), tuple(sentences), vocabulary, numbers)


def union(sets: Iterable[frozenset[str]]) -> frozenset[str]:
    """Every item of `sets`."""
    found: set[str] = set()
    for items in sets:
        found |= items
    return frozenset(found)
