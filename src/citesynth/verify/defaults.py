"""A default the claim names that its sources give as another value.

    other_default("The default branch to compare with is `REMOTE-BRANCH`.", source)
    → ("REMOTE-BRANCH", "origin/main")

towncrier's docs state "By default, ``towncrier`` compares the current branch against
``origin/main``" and, a line below, `.. option:: --compare-with REMOTE-BRANCH`: "Use
``REMOTE-BRANCH`` instead of ``origin/main``". The embedded model wrote "The default branch
to compare with is `REMOTE-BRANCH`" (2026-12-05): every word of it is in the source, the
placeholder too, so coverage and the cross-encoder passed it as supported. It is the
issue's "swapped default": the source names a default, and the claim names another value.

A claim names a default value when it binds inline code to the word: "the default … is
`V`", "defaults to `V`", "`V` is the default", "`V` by default", "by default, … uses
`V`". Its sources state defaults in their prose sentences saying "default" with code (one
opening "It" or "This" is read with the sentence before) and in the lines a reader takes
for no sentence ("Default: ``3630`` seconds" in a field list, read with the two lines
above, which name what it is the default of). The statements closest to the claim's
subject decide: those sharing the most of its content terms (besides "default", its
values and its citation markers), at least two, or all of a one-term subject. The
sources give the claim's default otherwise when none of the closest writes its value and
the claim writes none of the code they give.

A table row writing the value as code beside the subject states it (a "Default" column),
and a claim that negates anything is not read ("the default is not `V`").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from citesynth.analysis import content_terms
from citesynth.ingest.rst import rendered_roles
from citesynth.ingest.sentences import prose_sentences
from citesynth.verify.identifiers import MARKERS, code_spans, words

_DEFAULT_WORD = re.compile(r"\bdefault(?:s|ed)?\b", re.IGNORECASE)
_CODE = r"`+([^`\n<>]+?)`+(?!_)"
"""Inline code; not a reStructuredText link, `Configuration <configuration.html>`_."""
_BOUND = (
    re.compile(
        r"\bdefault(?:s|ed)?\b[^.;]{0,80}?\b(?:is|are|was|will\s+be|:)\s+(?:set\s+to\s+)?" + _CODE,
        re.IGNORECASE,
    ),
    re.compile(r"\bdefault(?:s|ed)?\s+to\s+" + _CODE, re.IGNORECASE),
    re.compile(_CODE + r"\s+(?:is|are|was)\s+(?:the\s+)?default\b", re.IGNORECASE),
    re.compile(_CODE + r"\s+by\s+default\b", re.IGNORECASE),
    re.compile(
        r"\bby\s+default\b[^.;]{0,80}?\b(?:uses?|is|are|against|to|as)\s+" + _CODE,
        re.IGNORECASE,
    ),
)
"""How a claim binds inline code to "default" (see the module docstring)."""
_POINTING = re.compile(r"(?:it|its|this|that)\b", re.IGNORECASE)
"""A sentence opening on what the one before names: "It defaults to ``1``."."""
_ROW = re.compile(r"^[ \t]*\|.*\|[ \t]*$", re.MULTILINE)
"""A row of a Markdown (or grid) table."""
_MOST_VALUES = 8
"""Values of one claim or sentence read (each is held to every default sentence)."""
_LEAST_SHARED = 2
"""Content terms a source's default sentence shares with the claim to be about its subject."""
_Given = TypeVar("_Given")


def defaulted_values(claim: str) -> tuple[str, ...]:
    """The inline code `claim` binds to "default", in order (maybe none)."""
    found = (m for pattern in _BOUND for m in pattern.finditer(claim))
    return tuple(dict.fromkeys(m.group(1).strip() for m in found))[:_MOST_VALUES]


@dataclass(frozen=True, slots=True)
class _Stated:
    """A sentence or line of a source saying "default", with code."""

    terms: frozenset[str]
    """Its content terms (with the sentence before, when it points back)."""
    words: frozenset[str]
    code: tuple[str, ...]
    """The code it gives as the default, else all the code it writes."""


def _stated(text: str, about: Sequence[str] = ()) -> _Stated | None:
    if not _DEFAULT_WORD.search(text):
        return None
    code = defaulted_values(text) or code_spans(text)
    if not code:
        return None
    return _Stated(frozenset([*content_terms(text), *about]), words(text), code)


@lru_cache(maxsize=256)
def _default_statements(source: str) -> tuple[_Stated, ...]:
    """The sentences and lines of `source` that give a default as code.

    Prose sentences first; then the lines outside them a reader sees as no sentence (a
    field list's "Default: ``3630`` seconds", a setting's "Default: ``True``" under its
    name), each read with the two lines above it, which name what it is the default of.
    """
    text = rendered_roles(source)
    found = []
    before: list[str] = []  # the sentence before, which one pointing back speaks of
    covered: list[tuple[int, int]] = []
    for start, end in prose_sentences(text, min_words=3):
        sentence = " ".join(text[start:end].split())
        stated = _stated(sentence, before if _POINTING.match(sentence) else ())
        if stated is not None:
            found.append(stated)
            covered.append((start, end))
        before = content_terms(sentence)
    lines = text.split("\n")
    offset = 0
    spans = iter(covered)  # in order, as the lines are: one pass over both
    span = next(spans, None)
    for index, line in enumerate(lines):
        while span is not None and span[1] <= offset:
            span = next(spans, None)
        inside = span is not None and span[0] <= offset
        offset += len(line) + 1
        if inside or not _DEFAULT_WORD.search(line):
            continue
        above = [content_terms(above) for above in lines[max(0, index - 2) : index]]
        stated = _stated(line, [term for terms in above for term in terms])
        if stated is not None:
            found.append(stated)
    return tuple(found)


def _in_row(value: str, source: str, subject: set[str], least: int) -> bool:
    """Whether a row of a table in `source` writes `value` as code beside the subject."""
    for row in _ROW.finditer(source):
        cells = row.group()
        if (
            re.search(rf"`+\s*{re.escape(value)}\s*`+", cells)
            and len(subject & set(content_terms(cells))) >= least
        ):
            return True
    return False


def _about(
    subject: set[str], stated: Sequence[tuple[frozenset[str], _Given]]
) -> tuple[list[_Given], list[_Given]]:
    """The statements about `subject`, and the closest of them (none: neither).

    About it: sharing `_LEAST_SHARED` of its terms (all of a shorter subject); closest:
    sharing the most. Each statement comes with its terms.
    """
    least = min(_LEAST_SHARED, len(subject))
    shared = [(len(subject & terms), given) for terms, given in stated]
    about = [(count, given) for count, given in shared if count >= least]
    closest = max((count for count, _ in about), default=0)
    return [given for _, given in about], [g for count, g in about if count == closest]


def other_default(claim: str, passages: Sequence[str]) -> tuple[str, str] | None:
    """(the claim's default value, the sources') when they give that default otherwise.

    None when the claim names no default as code, or the sources' statement of a default
    closest to its subject gives the claim's value, or no statement is about its subject
    (see the module docstring).
    """
    values = defaulted_values(claim)
    if not values:
        return None
    unbound = MARKERS.sub(" ", claim)
    for value in values:
        unbound = unbound.replace(value, " ")
    subject = set(content_terms(unbound)) - {"default"}
    if not subject:
        return None
    least = min(_LEAST_SHARED, len(subject))
    if any(_in_row(value, passage, subject, least) for value in values for passage in passages):
        return None  # a table's row gives it (under a "Default" column, maybe)
    stated = [(s.terms, s) for passage in passages for s in _default_statements(passage)]
    _, top = _about(subject, stated)
    if not top:
        return None
    written = words(claim)
    if any(words(value) <= s.words for value in values for s in top):
        return None  # the closest statement gives the claim's value
    if any(words(code) <= written for s in top for code in s.code):
        return None  # the claim writes the default the closest statement gives
    return values[0], top[0].code[0]


_NUMBER_WORDS = {
    word: str(value)
    for value, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve".split()
    )
}
_NUMBER = re.compile(
    r"(?<![\w.,-])(\d+(?:[.,]\d+)*|" + "|".join(_NUMBER_WORDS) + r")(?![\w-])", re.I
)
"""A number as prose writes it: digits ("40", "1,000", "0.5") or a word up to twelve."""
_NUMBER_BOUND = (
    re.compile(r"\bdefault(?:s|ed)?\b[^.;,:!?]{0,60}?" + _NUMBER.pattern, re.I),
    re.compile(_NUMBER.pattern + r"[^.;,:!?]{0,40}?\bby\s+default\b", re.I),
)
"""A number a claim binds to "default" in one clause: "the default thread pool allows 100
tokens", "defaults to 3", "starts four workers by default"."""
_DENIED = re.compile(r"\b(?:not|no|never)\b|n['’]t\b", re.I)


def _value(number: str) -> str:
    """A number as compared: a word as its digits, no thousands commas."""
    return _NUMBER_WORDS.get(number.lower(), number.replace(",", ""))


def _numbers(text: str) -> tuple[str, ...]:
    """Every number `text` writes, as compared (`_value`), in order, each once."""
    return tuple(dict.fromkeys(_value(m.group(1)) for m in _NUMBER.finditer(text)))


@lru_cache(maxsize=256)
def _number_statements(source: str) -> tuple[tuple[frozenset[str], tuple[str, ...]], ...]:
    """The prose sentences of `source` giving a number with "default": (terms, numbers).

    Each is read with the prose sentence before it, which names what the default is of
    when the sentence does not ("The default value is `4`." after "The `tab_length`
    keyword sets the length of tabs …").
    """
    text = rendered_roles(source)
    found = []
    before: list[str] = []
    for start, end in prose_sentences(text, min_words=3):
        sentence = " ".join(text[start:end].split())
        terms = content_terms(sentence)
        if _DEFAULT_WORD.search(sentence) and (numbers := _numbers(sentence)):
            found.append((frozenset([*terms, *before]), numbers))
        before = terms
    return tuple(found)


def other_default_number(claim: str, passages: Sequence[str]) -> tuple[str, str] | None:
    """(the claim's default number, the sources') when they give that default otherwise.

    "Starlette's default thread pool allows 100 tokens" against "The default thread pool
    size is only 40 _tokens_", whose page sets `limiter.total_tokens = 100` in an example
    below: the number is there, in the code that changes the default. A claim binding a
    number to "default" (`_NUMBER_BOUND`) and denying nothing is read against the prose
    sentences of its sources giving a number with "default" that share at least two of its
    subject's terms (as `other_default` reads them): given otherwise when none of them
    writes its number and it writes none of the closest ones'. Not the closest alone: a
    list of settings gives a default a line ("Time limit on idle keep-alive connections
    … (Default 5)" beside "number of allowable keep-alive connections … (Defaults 20)").
    """
    if not _DEFAULT_WORD.search(claim) or _DENIED.search(claim):
        return None
    unbound = MARKERS.sub(" ", claim)
    values = tuple(
        dict.fromkeys(
            _value(m.group(1)) for pattern in _NUMBER_BOUND for m in pattern.finditer(unbound)
        )
    )[:_MOST_VALUES]
    if not values:
        return None
    subject = set(content_terms(_NUMBER.sub(" ", unbound))) - {"default"}
    if not subject:
        return None
    stated = [s for passage in passages for s in _number_statements(passage)]
    about, top = _about(subject, stated)
    if not top:
        return None
    written = _numbers(unbound)
    if any(value in numbers for value in values for numbers in about):
        return None  # a statement about its subject gives the claim's number
    if any(set(numbers) & set(written) for numbers in top):
        return None  # the claim writes a number the closest statement gives
    return values[0], top[0][0]
