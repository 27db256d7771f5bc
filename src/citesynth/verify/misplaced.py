"""Code put where the sentence stating the claim names other code.

    code_elsewhere("Setting `pyramid.reload_templates` to `True` affects performance "
                   "dramatically.", stating, passages)
    → ("pyramid.reload_templates", "pyramid.reload_assets")

Pyramid's docs say "Setting ``pyramid.reload_assets`` to ``True`` affects performance
*dramatically*"; the embedded model wrote it of `pyramid.reload_templates`, which the same
page names a few lines above, and both verifiers passed it (2026-12-04): every word of the
claim is on the page, and a cross-encoder reads one setting's name for another's. Over the
tuning documentation, prose sentences with their first inline code replaced by the code
nearest them on the page passed the trained verifier 96 % of the time
(`benchmarks.code_swaps`): the issue's "right words in the wrong relation".

The sentences saying a claim give its words to other code when

- they are the sentences of the passages (the best-aligned one, `align`'s, first) holding
  80 % of the content terms of the claim's prose (its words outside inline code and
  citation markers), and there is at least one: they say what the claim says;
- a name the claim writes as code (`reload_templates`, `VersionRange.to_specifier_set()`
  by its last part, `to_specifier_set`) is in none of them (an identifier as written, a
  plain word in any form: `twine upload` is in "uploading new packages"), nor, when one
  points back ("so it returns …"), in the 300 characters before it; though the passages
  write it elsewhere (a name they never write is `identifiers_missing`' to read); a
  literal (`True`, `None`, `5`, a quoted string) is no name, nor is code of five words or
  more (a YAML block written inline);
- and one of them writes other code: between the words the claim writes its name
  ("maximum of 10 `PoolManager` instances" where it says "maximum of 10
  `ConnectionPool` instances"), which "it" before the sentence does not excuse, nor the
  name written as a plain word ("create one `Template` object … to load templates",
  where it says "one ``Environment`` object"): there, only code naming it does; or
  anywhere, code the claim does not write, when the claim's prose has three content terms
  or more (fewer say too little to tell what the sentence says it of).

A claim with no backtick reads its identifiers written plain (dotted, snake_case,
CamelCase: "a maximum of 10 PoolManager instances") as code when the passages write them
as code: a model often drops the backticks. Only code written in its place tells then
("httpx.Limits allows by default 20 keep-alive connections" is no claim about
``max_keepalive_connections``, which the sentence saying it names).

Over the tuning documentation (`benchmarks.code_swaps`, 2026-12-05), reading the other
sentences saying the claim and the code written in its place took the swapped names
passed from 330 to 142 of 720 and the defaults swapped for code the page never gives as a
default from 89 to 30 of 327, every sentence as written still passing (718 of 720); the
swapped names written without backticks from 207 to 49 of 222.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from citesynth.analysis import INLINE_CODE, content_terms, coverage, terms
from citesynth.ingest.rst import rendered_roles
from citesynth.verify.analysed import passage_sentences
from citesynth.verify.identifiers import MARKERS, code_spans, words

STATED_SHARE = 0.8
"""The share of the claim's prose terms the stating sentence must hold to say the same."""
LEAST_TERMS = 3
"""Prose content terms a claim needs before its code is read so (fewer say too little)."""
NAME_WORDS = 5
"""Words from which inline code is a piece of code, not a name (`twine upload --repository x`
is still one)."""
BEFORE = 300
"""Characters before a sentence pointing back ("it", "this") that may name what it means."""
_POINTING = re.compile(r"\b(?:it|its|this|they|them|their)\b", re.IGNORECASE)
_CALL = re.compile(r"\(.*\)$")
_LITERAL = re.compile(r"""(?:true|false|none|null|nil|[-+]?\d[\w.]*|'.*'|".*")""", re.IGNORECASE)


def _namewords(code: str) -> frozenset[str]:
    """The words of the name `code` writes: a call's name, a dotted name's last part.

    Nothing for code longer than a name (`NAME_WORDS` words or more: a YAML block written
    inline).
    """
    if len(code.split()) >= NAME_WORDS:
        return frozenset()
    name = _CALL.sub("", code.strip())
    if "." in name and " " not in name:
        name = name.rstrip(".").rsplit(".", 1)[-1]
    return words(name)


def _said(name: frozenset[str], words: frozenset[str], stems: frozenset[str]) -> bool:
    """Whether a sentence (its words, their stems) writes a name.

    An identifier (`reload_templates`) as written, a plain word (`twine upload`) in any
    form ("uploading").
    """
    return all(
        word in words or ("_" not in word and any(stem in stems for stem in terms(word)))
        for word in name
    )


def _before(stating: str, passages: Sequence[str]) -> str:
    """The text a passage holds right before the sentence `stating` (`BEFORE` characters)."""
    for passage in passages:
        if (at := passage.find(stating)) >= 0:
            return passage[max(0, at - BEFORE) : at]
    return ""


def _prose_terms(text: str) -> list[str]:
    return content_terms(MARKERS.sub(" ", INLINE_CODE.sub(" ", text)))


@lru_cache(maxsize=256)
def _written(passages: tuple[str, ...]) -> frozenset[str]:
    return words(" ".join(rendered_roles(p) for p in passages))


def _code_words(text: str) -> frozenset[str]:
    """The words `text` writes in inline code (a role's target too)."""
    return words(" ".join(m.group(1) for m in INLINE_CODE.finditer(text)))


@lru_cache(maxsize=256)
def _coded(passages: tuple[str, ...]) -> frozenset[str]:
    """The words the passages write in inline code."""
    return frozenset().union(*(_code_words(rendered_roles(p)) for p in passages))


_PLAIN_WORD = re.compile(r"(?<![\w.`/@-])([A-Za-z_][\w.]*+)(\(\))?(?![\w`/@-])")
"""A word of letters, digits, underscores and dots, and the call after it (possessive: a
run-on word is read once, never backtracked into)."""
_CAMEL = re.compile(r"[a-z0-9][A-Z]")
_PART = re.compile(r"[A-Za-z_]\w+")


def _identifier(word: str) -> bool:
    """Whether a word written without backticks is an identifier.

    A dotted name (`pyramid.reload_assets`, `Schema.load`; not "e.g."), snake_case
    (`reload_templates`), CamelCase (`PoolManager`, `HTTPRouteNotFound`, `camelCase`).
    """
    if "." in word:
        return all(_PART.fullmatch(part) for part in word.split("."))
    return "_" in word.strip("_") or _CAMEL.search(word) is not None


def _marked(claim: str, passages: tuple[str, ...]) -> tuple[str, bool]:
    """`claim` with the identifiers it writes plain in backticks, and whether it had any.

    Those the passages write as code, in a claim with no backtick: a model often drops
    them all ("a maximum of 10 PoolManager instances").
    """
    if "`" in claim:
        return claim, False
    coded = _coded(passages)
    marked = _PLAIN_WORD.sub(lambda m: _backticked(m, coded), claim)
    return marked, marked != claim


def _backticked(match: re.Match[str], coded: frozenset[str]) -> str:
    """The word in backticks when it is an identifier the passages write as code."""
    word = match.group(1).rstrip(".")
    dots = match.group(1)[len(word) :]
    name = word + (match.group(2) or "")
    if word and _identifier(word) and (found := _namewords(name)) and found <= coded:
        return f"`{name}`{dots}"
    return match.group()


def code_elsewhere(claim: str, stating: str, passages: Sequence[str]) -> tuple[str, str] | None:
    """(the claim's code, the other code) when the sentences saying the claim name other code.

    `stating` is the aligner's best sentence, read first; the passages' other sentences
    saying the claim's prose are read too (the aligner may rank first a sentence that
    writes the claim's code, and not its prose). None unless every condition of the
    module docstring holds.
    """
    claim, plain = _marked(claim, tuple(passages))
    mine = [
        code
        for code in dict.fromkeys(code_spans(claim))
        if not _LITERAL.fullmatch(code) and _namewords(code)
    ]
    wanted = _prose_terms(claim)
    if not mine or not wanted:
        return None
    written = _written(tuple(passages))
    mine = [code for code in mine if _namewords(code) <= written]
    placed = _slots(claim)
    claimed = words(claim)
    other: str | None = None
    for sentence, before in _saying(wanted, stating, passages):
        said = words(sentence)
        said_terms = frozenset(terms(sentence))
        pointed = words(before) if _POINTING.search(sentence) else frozenset()
        slots = _slots(sentence)
        instead = {  # the sentence's code between the words the claim writes its code
            code: next((c for c, slot in slots.items() if slot == placed.get(code)), None)
            for code in mine
        }
        coded = _code_words(sentence)
        mine = [
            code
            for code in mine
            if (
                not _namewords(code) <= coded
                if instead[code] is not None  # `Template` where it says `Environment`
                else not _said(_namewords(code), said, said_terms)
                and not _namewords(code) <= pointed
            )
        ]
        if not mine:
            return None
        other = (
            other
            or next(filter(None, (instead[code] for code in mine)), None)
            or next(
                (
                    code
                    for code in code_spans(sentence)
                    if len(wanted) >= LEAST_TERMS
                    and not plain  # written plain, only code in its place tells
                    and _namewords(code)
                    and not _namewords(code) <= claimed
                ),
                None,
            )
        )
    return (mine[0], other) if other else None


_NOWHERE = (None, None)
_PROSE_WORD = re.compile(r"\w+")


def _slots(text: str) -> dict[str, tuple[str | None, str | None]]:
    """Each piece of inline code of `text` with the words right before and after it.

    "… a maximum of 10 `PoolManager` instances" puts `PoolManager` between "10" and
    "instances". A claim writing its code where the sentence writes other code, between
    the same words, put it there: "it" before that sentence does not excuse it. Read in
    one pass: a run-on text of thousands of code spans is read in linear time.
    """
    plain = MARKERS.sub(" ", text)
    spans = list(INLINE_CODE.finditer(plain))
    ends = [0, *(span.end() for span in spans)]
    starts = [*(span.start() for span in spans), len(plain)]
    gaps = [_PROSE_WORD.findall(plain[end:start]) for end, start in zip(ends, starts, strict=True)]
    before: list[str | None] = []
    for gap in gaps[:-1]:  # the last prose word before each span, across spans between
        before.append(gap[-1].lower() if gap else (before[-1] if before else None))
    after: list[str | None] = [None] * len(spans)
    following: str | None = None
    for index in range(len(spans) - 1, -1, -1):
        gap = gaps[index + 1]
        following = gap[0].lower() if gap else following
        after[index] = following
    found: dict[str, tuple[str | None, str | None]] = {}
    for span, slot in zip(spans, zip(before, after, strict=True), strict=True):
        if slot != _NOWHERE:
            found.setdefault(span.group(1).strip(), slot)
    return found


def _saying(wanted: list[str], stating: str, passages: Sequence[str]) -> list[tuple[str, str]]:
    """The sentences saying `wanted` (80 % of its terms), `stating` first.

    Each comes with the `BEFORE` characters before it.

    A list of items worded alike ("`.aiter_bytes()` - async bytes iterator", "`.aiter_raw()`
    - async bytes iterator") has several sentences stating the claim, and the aligner
    takes one of them.
    """
    first = rendered_roles(stating)
    found = []
    if coverage(wanted, set(_prose_terms(first))) >= STATED_SHARE:
        found.append((first, _before(stating, passages)))
    for passage in passages:
        for sentence, before, prose in _sentences(passage):
            if sentence.strip() != first.strip() and coverage(wanted, prose) >= STATED_SHARE:
                found.append((sentence, before))
    return found


@lru_cache(maxsize=256)
def _sentences(passage: str) -> tuple[tuple[str, str, frozenset[str]], ...]:
    """Each sentence of a passage (its roles rendered), the text before it, its prose terms.

    Not a fenced code block run into one line with its prose (a flattened page): what
    its backticks enclose is no inline code.
    """
    text = rendered_roles(passage)
    return tuple(
        (
            text[start:end],
            text[max(0, start - BEFORE) : start],
            frozenset(_prose_terms(text[start:end])),
        )
        for start, end in passage_sentences(text)
        if "```" not in text[start:end]
    )
