"""Parallel list items: a claim must say of an item what that item says.

Documentation describes parameters, options and modes in parallel lists, where every item
shares the vocabulary of its siblings:

    * The **connect** timeout ... to wait until a socket connection ... is established.
    * The **pool** timeout ... to wait for acquiring a connection from the connection pool.

"The pool timeout caps how long HTTPX waits for a socket connection to be established" holds
every term of the passage, in pairs the lexical alignment finds, yet it says of *pool* what
the source says of *connect*. Such a claim is misattributed when:

- it names exactly one item of a list by that item's own name (inline code or bold within
  its first words, or a short "Label:" opening it), and the name is written nowhere else in
  the passage (a name the passage uses throughout, "OpenShift Container Platform", is no
  item's alone);
- another item with a name of its own states clearly more of the claim: at least two more
  of the claim's content terms than the named item, and at least three and half of them
  (names, and terms every item shares, such as "timeout", left out).

Fitted on no labelled claim: on the 484 reference-answer claims of the Developer Hub tuning
questions, read against their whole guides, it fires on none; on 109 claims made by
swapping the name of a list item of those guides for a sibling's, it fires on 28.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from citesynth.analysis import content_terms, terms

_ITEM = re.compile(r"^([ \t]*)(?:[-*+•]|\d{1,3}[.)])[ \t]+", re.MULTILINE)
_BLANK = re.compile(r"\n[ \t]*\n")
_MARKED = re.compile(r"`([^`\n]+)`|\*\*([^*\n]+)\*\*|__([^_\n]+)__")
_LABEL = re.compile(r"^([A-Za-z][\w .'/-]{0,40}?)\s*(?::|\s[-–—]\s)")
_OPENERS = frozenset(
    """to for if when after before in on at by with from the a an this that these those you
    your use see note optional""".split()
)
"""Words that open a sentence, not a label ("To install it: ...")."""
_PLAIN_WORD = re.compile(r"[a-z]+")
_NAME_WORDS = 3
"""How many words may come before an item's marked name ("The **connect** timeout")."""
_MARGIN = 2
"""How many more of the claim's terms another item must state."""


@dataclass(frozen=True, slots=True)
class Item:
    """One list item: the names that head it and the terms of the rest of it."""

    names: tuple[str, ...]
    text: str
    terms: frozenset[str]


def _marked(match: re.Match[str]) -> str:
    return next(group for group in match.groups() if group)


def _names(body: str) -> tuple[str, ...]:
    """The names heading an item: marked within its first words, or a short label.

    A single lower-case word in code (`package`, `name`) is too common to tell an item by;
    in bold ("The **connect** timeout") it is the item's own word.
    """
    found = [
        _marked(m)
        for m in _MARKED.finditer(body)
        if len(body[: m.start()].split()) <= _NAME_WORDS
        and not (m.group(1) and _PLAIN_WORD.fullmatch(m.group(1).strip()))
    ]
    label = _LABEL.match(_MARKED.sub(_marked, body))
    words = label.group(1).split() if label else []
    if 0 < len(words) <= 3 and words[0].lower() not in _OPENERS:
        found.append(" ".join(words))
    names = (name.strip() for name in found)
    return tuple(dict.fromkeys(n for n in names if len(n) >= 3))


@lru_cache(maxsize=512)
def parallel_lists(text: str) -> tuple[tuple[Item, ...], ...]:
    """The lists of `text` (items at one indentation) of two items or more, cached."""
    marks = list(_ITEM.finditer(text))
    by_indent: dict[int, list[Item]] = {}
    for index, mark in enumerate(marks):
        end = marks[index + 1].start() if index + 1 < len(marks) else len(text)
        blank = _BLANK.search(text, mark.end(), end)
        body = text[mark.end() : blank.start() if blank else end]
        names = _names(body)
        own = frozenset(t for name in names for t in terms(name))
        item = Item(names, body, frozenset(terms(_MARKED.sub(" ", body))) - own)
        by_indent.setdefault(len(mark.group(1).expandtabs()), []).append(item)
    return tuple(tuple(items) for items in by_indent.values() if len(items) >= 2)


def _count(name: str, text: str) -> int:
    return len(re.findall(rf"(?<![\w.-]){re.escape(name.lower())}(?![\w-])", text.lower()))


def misattributed(claim: str, passages: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """(the name the claim gives, the sibling whose item states it) per misattribution."""
    found: list[tuple[str, str]] = []
    read = [(text, lists) for text in passages if (lists := parallel_lists(text))]
    wanted = frozenset(content_terms(claim)) if read else frozenset()
    for text, lists in read:
        for items in lists:
            named = [i for i, item in enumerate(items) if any(_count(n, claim) for n in item.names)]
            if len(named) != 1:
                continue
            item = items[named[0]]
            given = [n for n in item.names if _count(n, claim)]
            inside = sum(_count(n, other.text) for n in given for other in items)
            if sum(_count(n, text) for n in given) > inside:
                continue  # the passage writes the name outside the list too
            shared = frozenset.intersection(*(other.terms for other in items))
            names = frozenset(t for other in items for n in other.names for t in terms(n))
            rest = wanted - names - shared
            stated = [len(rest & other.terms) for other in items]
            best = max(range(len(items)), key=stated.__getitem__)
            if (
                best != named[0]
                and items[best].names
                and stated[best] >= stated[named[0]] + _MARGIN
                and stated[best] >= max(3, len(rest) / 2)
            ):
                found.append((given[0], items[best].names[0]))
    return tuple(dict.fromkeys(found))
