"""Two lists a source pairs item by item ("respectively"), paired otherwise by a claim.

Falcon's docs: "By default, the framework installs `JSONHandler`, `URLEncodedFormHandler`,
and `MultipartFormHandler` for the `application/json`, `application/x-www-form-urlencoded`,
and `multipart/form-data` media types, respectively." A claim installing
"MultipartFormHandler for application/x-www-form-urlencoded and URLEncodedFormHandler for
multipart/form-data" holds every word of it, and the rules reading clauses never see the
pairing: it is in the order of two lists.

A source sentence pairs when it ends its lists with "respectively": its last two lists of
the same length before that word, each of two or more items written as code or quoted
("`dump_only` and `load_only` … "read-only" and "write-only" fields, respectively"). A
claim pairs two items when a clause of it (`roles` cuts them) holds exactly one item of
each list. It pairs them otherwise when it writes two such pairs or more and one of them
joins items at different places of the lists. A claim listing the items in order
("`dump_only` and `load_only` are read-only and write-only, respectively") pairs nothing
clause by clause, so it is never read as pairing them otherwise.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache

from citesynth.ingest.rst import rendered_roles
from citesynth.ingest.sentences import sentence_spans
from citesynth.verify.roles import claim_clauses

_ITEM = r"(?:``[^`\n]{1,80}``|`[^`\n]{1,80}`|\"[^\"\n]{1,40}\"|'[^'\n]{1,40}')"
"""One item of a list: a code span or a short quotation."""
_LIST = re.compile(rf"{_ITEM}(?:\s*,\s*{_ITEM})*,?\s+(?:and|or)\s+{_ITEM}")
"""Two items or more: "`a`, `b`, and `c`", "'lax' or 'strict'"."""
_ITEMS = re.compile(_ITEM)
_RESPECTIVELY = re.compile(r"\brespectively\b", re.I)
_MAX_SENTENCE = 2_000
"""The longest sentence read for lists (a page run into one line is not one sentence)."""
_MAX_ITEMS = 12
"""The most items of a list read: each is looked for in the claim."""


def paired_otherwise(claim: str, passages: Sequence[str]) -> tuple[str, str] | None:
    """The two items `claim` pairs that a passage pairs with others, or None.

    As the claim writes them (see the module docstring).
    """
    if not any(_RESPECTIVELY.search(passage) for passage in passages):
        return None  # most sources: nothing more is read
    bounds = claim_clauses(claim)
    for passage in passages:
        for first, second in _paired_lists(passage):
            found = _crossed_pair(claim, bounds, first, second)
            if found is not None:
                return found
    return None


@lru_cache(maxsize=256)
def _paired_lists(passage: str) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """The two lists each sentence of `passage` pairs with "respectively"."""
    found = []
    text = rendered_roles(passage)
    for start, end in sentence_spans(text, 0, len(text)):
        sentence = text[start:end]
        if len(sentence) > _MAX_SENTENCE:
            continue
        at = _RESPECTIVELY.search(sentence)
        if at is None:
            continue
        lists = [
            tuple(_bare(item) for item in _ITEMS.findall(run.group()))
            for run in _LIST.finditer(sentence, 0, at.start())
        ]
        lists = [items for items in lists if len(items) <= _MAX_ITEMS]
        for later in range(len(lists) - 1, 0, -1):
            earlier = next(
                (lists[i] for i in range(later - 1, -1, -1) if len(lists[i]) == len(lists[later])),
                None,
            )
            if earlier is not None:
                found.append((earlier, lists[later]))
                break
    return tuple(found)


def _bare(item: str) -> str:
    """An item as a claim may write it: no quotes, a dotted name by its last part."""
    inner = item.strip("`").strip("\"'").strip()
    if item[0] == "`" and re.fullmatch(r"[\w.]+(?:\(\))?", inner):
        return inner.removesuffix("()").rpartition(".")[2]
    return inner


def _crossed_pair(
    claim: str, bounds: Sequence[int], first: Sequence[str], second: Sequence[str]
) -> tuple[str, str] | None:
    """The first clause's pair of `claim` joining items at different places, or None."""
    clauses: dict[int, tuple[list[int], list[int]]] = {}
    for side, items in enumerate((first, second)):
        for place, item in enumerate(items):
            for found in re.finditer(rf"(?<![\w/.-]){re.escape(item)}(?![\w/-])", claim, re.I):
                held = clauses.setdefault(bisect_right(bounds, found.start()), ([], []))
                if place not in held[side]:
                    held[side].append(place)
    pairs = [
        (mine[0], theirs[0]) for mine, theirs in clauses.values() if len(mine) == len(theirs) == 1
    ]
    if len(pairs) < 2:
        return None
    return next(((first[a], second[b]) for a, b in pairs if a != b), None)
