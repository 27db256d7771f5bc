"""A quantity of another thing: "the number of X" where the source counts something else.

"The Flask config key that sets the maximum number of concurrent requests is
`MAX_CONTENT_LENGTH`" against

    MAX_CONTENT_LENGTH
        The maximum number of bytes that will be read during this request.

holds the setting, "maximum", "number" and "request": the trained verifier passed it, and
coverage misses only "concurrent". The claim says what the setting counts, and the source
counts bytes. A claim's measure ("number of concurrent requests", "size of the pool") is
measured elsewhere when:

- no sentence of the passages holds every content term of the measured thing (a source
  writing "concurrent requests" anywhere states it);
- no sentence measures the same kind of quantity ("number", "size", …) of something with
  the same last word ("number of open requests" names requests too);
- a sentence sharing a content term with the rest of the claim measures that kind of
  quantity of something else, whose last word the claim never uses ("bytes");
- and one of the two is a unit (`UNITS`: bytes, seconds, characters, …) that the other is
  not: a count of things ("requests") is no amount of bytes, while two names of things
  ("participants" and "subjects", "retries" and "attempts", "CPUs" and "processors") may
  be one thing said two ways.

A measure in another unit (`other_unit`): "`event.duration` is in milliseconds" against a
sentence about the same thing that measures it "in seconds".

It is a veto (`Alignment.disagrees`). Measured on 2026-11-30, it fires on none of the
3,453 labelled claims of WiCE, SciFact and HaluEval (tuning and report splits) nor on the
760 documentation claims (`docs_claims` tuning sets, HTTPX, Click, cattrs): a narrow rule,
for the embedded model's wrong-thing answers. A paraphrase of the thing measured in other
words is left to the other checks unless a unit tells the two apart: "the number of
participants" against "the number of subjects" had been vetoed by the first version.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citesynth.analysis import INLINE_CODE, content_terms
from citesynth.ingest.sentences import sentence_spans
from citesynth.verify.analysed import passage_sentences
from citesynth.verify.negation import CODE
from citesynth.verify.numbers import IN_UNIT, WORD
from citesynth.verify.numbers import UNITS as UNIT_OF

_MEASURE = re.compile(
    r"\b(number|amount|count|size|length|duration)\s+of\s+(?:the\s+|a\s+|an\s+)?"
    r"((?:[A-Za-z][\w-]*\s+){0,2}?[A-Za-z][\w-]*)(?=\s+(?:that|which|who|to|for|in|on|at|"
    r"per|of|is|are|was|were|will|can|by|from|with|during|before|after|allowed|sent|read|"
    r"written|used|kept|held|open|running|stored)\b|\s*[.,;:)!?]|\s*$)",
    re.IGNORECASE,
)
"""A kind of quantity and the thing it measures, up to three words, ending where a
clause, preposition or stop does: "number of bytes that will be read", "size of the
connection pool."."""


UNITS = frozenset(
    content_terms(
        """byte bytes kilobyte kilobytes megabyte megabytes gigabyte gigabytes kb mb gb kib
        mib gib bit bits second seconds millisecond milliseconds microsecond microseconds
        nanosecond nanoseconds minute minutes hour hours day days week weeks month months
        year years character characters char chars line lines token tokens word words
        page pages digit digits column columns row rows pixel pixels percent
        degree degrees meter meters metre metres kilometer kilometers mile miles gram grams
        kilogram kilograms liter liters litre litres"""
    )
)
"""Units a quantity is measured in (stemmed): a count of them is no count of things."""


def other_measure(claim: str, passages: Sequence[str]) -> tuple[str, str] | None:
    """(the claim's measure, the source's) when the source measures something else.

    None when the claim measures nothing, or the passages state what it measures (see the
    module docstring).
    """
    wanted = list(_MEASURE.finditer(claim))
    if not wanted:
        return None
    sentences = [
        passage[start:end] for passage in passages for start, end in sentence_spans(passage)
    ]
    read = [(sentence, set(content_terms(sentence))) for sentence in sentences]
    claim_terms = set(content_terms(claim))
    for measure in wanted:
        kind, thing = measure.group(1).lower(), content_terms(measure.group(2))
        if not thing or any(set(thing) <= terms for _, terms in read):
            continue
        rest = claim_terms - set(thing) - set(content_terms(kind))
        other = _measured_otherwise(kind, thing[-1], rest, claim_terms, read)
        if other is not None:
            return measure.group(0), other
    return None


def _measured_otherwise(
    kind: str,
    head: str,
    rest: set[str],
    claim_terms: set[str],
    read: Sequence[tuple[str, set[str]]],
) -> str | None:
    """The passages' measure of the same `kind` of another thing, if any.

    Only in a sentence on the claim's subject (sharing a term of `rest`); None when one of
    the passages measures `head` too.
    """
    found = None
    for sentence, terms in read:
        for theirs in _MEASURE.finditer(sentence):
            if theirs.group(1).lower() != kind:
                continue
            measured = content_terms(theirs.group(2))
            if not measured:
                continue
            if measured[-1] == head:
                return None
            apart = (measured[-1] in UNITS) != (head in UNITS)
            if found is None and apart and measured[-1] not in claim_terms and terms & rest:
                found = theirs.group(0)
    return found


_DIMENSION = {
    **dict.fromkeys(("ms", "s", "min", "h", "day", "week", "month", "year"), "time"),
    **dict.fromkeys(("byte", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib"), "size"),
}
"""What each unit of `numbers.UNITS` measures, where another unit measures the same."""


def other_unit(claim: str, passages: Sequence[str]) -> tuple[str, str] | None:
    """(the claim's unit, the passages' unit) when they measure in another unit, or None.

    A claim naming its measure in words ("`event.duration` is in milliseconds", `IN_UNIT`)
    where a sentence of the passages about the same thing names another unit of the same
    kind ("``duration`` (in seconds, …)", peewee's query hooks): the embedded model's
    answer, which both verifiers had passed, every other word being the source's. About the
    same thing: it writes a name the claim writes as code, or two more of the claim's words.
    Not when the passages write the claim's unit anywhere, in any form ("the number of
    milliseconds"), nor when the claim names two units of a kind.
    """
    mine = {UNIT_OF[m.group(1).lower()]: m.group(1) for m in IN_UNIT.finditer(claim)}
    kinds = [_DIMENSION[unit] for unit in mine if unit in _DIMENSION]
    if len(kinds) != 1 or len(mine) != 1:
        return None
    ((unit, written),) = mine.items()
    words = {w.lower() for p in passages for w in WORD.findall(p)}
    if any(alias in words for alias, same in UNIT_OF.items() if same == unit):
        return None
    code = {name.lower() for name in _code_names(claim)}
    said = {t for t in content_terms(IN_UNIT.sub(" ", CODE.sub(" ", claim)))}
    for passage in passages:
        for start, end in passage_sentences(passage):
            sentence = passage[start:end]
            shared = said & set(content_terms(sentence))
            if not (len(shared) >= 2 or code & {n.lower() for n in _code_names(sentence)}):
                continue
            for found in IN_UNIT.finditer(sentence):
                other = UNIT_OF[found.group(1).lower()]
                if other != unit and _DIMENSION.get(other) == kinds[0]:
                    return written, f"in {found.group(1)}"
    return None


def _code_names(text: str) -> set[str]:
    """The names `text` writes as inline code, and each one's last dotted part."""
    names = {m.group(1).strip() for m in INLINE_CODE.finditer(text)}  # ``duration`` too
    return names | {name.rsplit(".", 1)[-1] for name in names if name}
