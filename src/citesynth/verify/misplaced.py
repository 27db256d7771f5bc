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

The sentence stating a claim (the best-aligned one, `align`) gives its words to other code
when

- the claim's prose (its words outside inline code and citation markers) has three content
  terms or more, 80 % of them in that sentence's prose: it says what the sentence says;
- a name the claim writes as code (`reload_templates`, `VersionRange.to_specifier_set()`
  by its last part, `to_specifier_set`) is not in that sentence (an identifier as
  written, a plain word in any form: `twine upload` is in "uploading new packages"), nor,
  when it points back ("so it returns …"), in the 300 characters before it; though the
  passages write it elsewhere (a name they never write is `identifiers_missing`' to
  read); a literal (`True`, `None`, `5`, a quoted string) is no name, nor is code of five
  words or more (a YAML block written inline);
- that sentence writes code the claim does not: what it says it says of that;
- and no other sentence of the passages both writes the name and says 80 % of the claim's
  prose (items of a list worded alike: the aligner takes one of them).
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


def code_elsewhere(claim: str, stating: str, passages: Sequence[str]) -> tuple[str, str] | None:
    """(the claim's code, the stating sentence's) when that sentence says it of other code.

    None unless every condition of the module docstring holds.
    """
    mine = [
        code
        for code in dict.fromkeys(code_spans(claim))
        if not _LITERAL.fullmatch(code) and _namewords(code)
    ]
    if not mine:
        return None
    sentence = rendered_roles(stating)
    theirs = code_spans(sentence)
    claimed = words(claim)
    others = [code for code in theirs if _namewords(code) and not _namewords(code) <= claimed]
    if not others:
        return None
    said = words(sentence)
    said_terms = frozenset(terms(sentence))
    written = _written(tuple(passages))
    missing = [
        code
        for code in mine
        if not _said(_namewords(code), said, said_terms) and _namewords(code) <= written
    ]
    if _POINTING.search(sentence):  # "so it returns …": the sentence before names it
        before = _before(stating, passages)
        missing = [code for code in missing if not _namewords(code) <= words(before)]
    if not missing:
        return None
    wanted = _prose_terms(claim)
    if len(wanted) < LEAST_TERMS or coverage(wanted, set(_prose_terms(sentence))) < STATED_SHARE:
        return None
    missing = [code for code in missing if not _stated_elsewhere(code, wanted, passages)]
    return (missing[0], others[0]) if missing else None


def _stated_elsewhere(code: str, wanted: list[str], passages: Sequence[str]) -> bool:
    """Whether another sentence of the passages writes `code` and says the claim's prose.

    A list of items worded alike ("`.aiter_bytes()` - async bytes iterator", "`.aiter_raw()`
    - async bytes iterator") has several sentences stating the claim, and the aligner
    takes one of them.
    """
    name = _namewords(code)
    for passage in passages:
        text = rendered_roles(passage)
        for start, end in passage_sentences(text):
            sentence = text[start:end]
            if _said(name, words(sentence), frozenset(terms(sentence))) and (
                coverage(wanted, set(_prose_terms(sentence))) >= STATED_SHARE
            ):
                return True
    return False
