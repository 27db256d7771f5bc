"""Parallel list items: a claim must say of an item what that item says.

Documentation describes parameters, options and modes in parallel lists, where every item
shares the vocabulary of its siblings:

    * The **connect** timeout ... to wait until a socket connection ... is established.
    * The **pool** timeout ... to wait for acquiring a connection from the connection pool.

"The pool timeout caps how long HTTPX waits for a socket connection to be established" holds
every term of the passage, in pairs the lexical alignment finds, yet it says of *pool* what
the source says of *connect*. Such a claim is misattributed when:

- it names exactly one item of a list by that item's own name (inline code or bold within
  its first words, or a short "Label:" opening it), written in the item's case but for its
  first letter ("get" does not name `GET`), and the name is written nowhere else in the
  passage (a name the passage uses throughout, "OpenShift Container Platform", is no
  item's alone); a list is the items at one indentation with only whitespace between them;
- another item with a name of its own states clearly more of the claim: at least two more
  of the claim's content terms than the named item, and at least three and half of them
  (names, and terms every item shares, such as "timeout", left out).

Fitted on no labelled claim: on the 484 reference-answer claims of the Developer Hub tuning
questions, read against their whole guides, it fires on none; on 109 claims made by
swapping the name of a list item of those guides for a sibling's, it fires on 16.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from citesynth.analysis import ADMONITIONS, content_terms, terms
from citesynth.ingest.blocks import LIST_MARKER
from citesynth.ingest.sentences import RST_FIELD_NAME

_ITEM = re.compile(r"^([ \t]*)(?:" + LIST_MARKER + r"[ \t]+|:(?=" + RST_FIELD_NAME + "))", re.M)
"""A list item's marker, or the colon opening a reStructuredText field (":Exit code 5: No
tests were collected"), whose name is then the item's label."""
_BLANK = re.compile(r"\n[ \t\r\f\v]*\n")
_FENCE = re.compile(
    r"^[ \t]*(?:```|~~~)[^\n]*\n.*?^[ \t]*(?:```|~~~)[ \t]*$", re.MULTILINE | re.DOTALL
)
_MARKED = re.compile(r"`([^`\n]+)`|\*\*([^*\n]+)\*\*|__([^_\n]+)__")
_HEAD = 200
"""How far into an item its name is looked for (characters)."""
_LABEL = re.compile(r"^([A-Za-z][\w .'/-]{0,40}?)\s*(?::|\s[-–—]\s)")
_OPENERS = frozenset(
    """to for if when after before in on at by with from the a an this that these those you
    your use see note optional""".split()
)
"""Words that open a sentence, not a label ("To install it: ...")."""
_PLAIN_WORD = re.compile(r"[a-z]+")
_NOT_NAMES = frozenset(label.lower() for label in ADMONITIONS)
"""Labels that say how to read an item ("**Important**:"), never what it is about."""
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

    A single lower-case word in code or as a label (`package`, `name:`) is too common to
    tell an item by; in bold ("The **connect** timeout") it is the item's own word. An
    admonition's label ("**Important**:") is no name.
    """
    head = body[:_HEAD]
    found = [
        _marked(m)
        for m in _MARKED.finditer(head)
        if len(head[: m.start()].split()) <= _NAME_WORDS
        and not (m.group(1) and _PLAIN_WORD.fullmatch(m.group(1).strip()))
    ]
    label = _LABEL.match(_MARKED.sub(_marked, head))
    words = label.group(1).split() if label else []
    label_name = " ".join(words)
    usable = 0 < len(words) <= 3 and words[0].lower() not in _OPENERS
    if usable and not _PLAIN_WORD.fullmatch(label_name):
        found.append(label_name)
    names = (name.strip() for name in found)
    return tuple(dict.fromkeys(n for n in names if len(n) >= 3 and n.lower() not in _NOT_NAMES))


@lru_cache(maxsize=512)
def parallel_lists(text: str) -> tuple[tuple[Item, ...], ...]:
    """The lists of `text` of two items or more, cached.

    A list is the items at one indentation with nothing but whitespace between them; text,
    a heading or a code block between two items, or an item less indented (a sub-list's
    next parent), ends it. Lines inside code blocks are never items.
    """
    code = _FENCE.sub(lambda m: "`" * len(m.group()), text)  # same offsets, no items inside
    marks = list(_ITEM.finditer(code))
    lists: list[list[Item]] = []
    open_lists: dict[int, list[Item]] = {}
    after = 0  # where the last item's text ended
    for index, mark in enumerate(marks):
        if code[after : mark.start()].strip():
            open_lists = {}  # text between two items: a new list
        indent = len(mark.group(1).expandtabs())
        open_lists = {i: items for i, items in open_lists.items() if i <= indent}
        end = marks[index + 1].start() if index + 1 < len(marks) else len(text)
        blank = _BLANK.search(code, mark.end(), end)
        after = blank.start() if blank else end
        body = text[mark.end() : after]
        names = _names(body)
        own = frozenset(t for name in names for t in terms(name))
        item = Item(names, body, frozenset(terms(_MARKED.sub(" ", body))) - own)
        if indent not in open_lists:
            open_lists[indent] = []
            lists.append(open_lists[indent])
        open_lists[indent].append(item)
    return tuple(tuple(items) for items in lists if len(items) >= 2)


def _count(name: str, text: str) -> int:
    """How often `text` writes `name` as the list does.

    The same case but for its first character: "With forwarding, …" names **Forwarding**,
    "you get the headers" does not name `GET`.
    """
    pattern = f"(?i:{re.escape(name[:1])}){re.escape(name[1:])}"
    return len(re.findall(rf"(?<![\w.-]){pattern}(?![\w-])", text))


def misattributed(claim: str, passages: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """(the name the claim gives, the sibling whose item states it) per misattribution."""
    found: list[tuple[str, str]] = []
    read = [(text, lists) for text in passages if (lists := parallel_lists(text))]
    wanted = frozenset(content_terms(claim)) if read else frozenset()
    for text, lists in read:
        for items in lists:
            named = [i for i, item in enumerate(items) if any(_count(n, claim) for n in item.names)]
            if not named:
                found.extend(_valued(claim, text, items) or _worded(claim, text, items))
            if len(named) != 1:
                found.extend(_numbered(claim, wanted, items))
                continue
            item = items[named[0]]
            given = [n for n in item.names if _count(n, claim)]
            inside = sum(_count(n, other.text) for n in given for other in items)
            if sum(_count(n, text) for n in given) > inside:
                continue  # the passage writes the name outside the list too
            other = _others_default(claim, text, items, named[0])
            if other is not None:
                found.append((given[0], items[other].names[0]))
                continue
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


def _valued(claim: str, text: str, items: Sequence[Item]) -> list[tuple[str, str]]:
    """A misattribution by value: the claim quotes an item's value and describes another item.

    Reference pages list options with their defaults ("* **`BACKLINK_TEXT`**: The text
    string that links from the footnote definition back … Defaults to `&#8617;`." above
    "* **`BACKLINK_TITLE`**: … Defaults to `Jump back to footnote {} in the text`."). The
    embedded model wrote "The text string that links from the footnote definition back to
    the position in the document is set to `Jump back to footnote {} in the text`", and
    both verifiers passed it: every word is in the passage. The claim names no item; its
    inline code, written in one item only and nowhere else in the passage, stands for that
    item (`_owner`). It is misattributed when another item with a name states clearly more
    of the claim's other words (`_MARGIN` more, at least three and half of them). A claim
    that names one item and quotes another's own default ("`BACKLINK_TEXT` defaults to
    `Jump back to footnote {} in the text`") is misattributed in `misattributed` itself;
    quoting another item's other code is not ("The `separator` option sets the character
    that `slugify` puts in place of white space" combines two items).
    """
    owner = _owner(claim, text, items)
    if owner is None:
        return []
    code, holder = owner
    shared = frozenset.intersection(*(item.terms for item in items))
    names = frozenset(t for item in items for n in item.names for t in terms(n))
    rest = frozenset(content_terms(_CODE.sub(" ", claim))) - names - shared
    stated = [len(rest & item.terms) for item in items]
    best = max(range(len(items)), key=stated.__getitem__)
    if (
        best != holder
        and items[best].names
        and stated[best] >= stated[holder] + _MARGIN
        and stated[best] >= max(3, len(rest) / 2)
    ):
        return [(f"`{code}`", items[best].names[0])]
    return []


def _worded(claim: str, text: str, items: Sequence[Item]) -> list[tuple[str, str]]:
    """A claim naming an item by the words of its name, and giving it another item's default.

    "The text used for the footnote backlink by default is `Jump back to footnote {} in the
    text`" names `BACKLINK_TEXT` by its words ("backlink", "text"; not `BACKLINK_TITLE`,
    whose "title" it lacks) and quotes `BACKLINK_TITLE`'s default (the embedded model's
    answer). A name of two words or more, all of them in the claim, for one item only.
    """
    said = frozenset(terms(claim))
    worded = [
        index
        for index, item in enumerate(items)
        if item.names and len(words := _name_words(item.names[0])) >= 2 and words <= said
    ]
    other = _others_default(claim, text, items, worded[0]) if len(worded) == 1 else None
    return [] if other is None else [(items[worded[0]].names[0], items[other].names[0])]


def _others_default(claim: str, text: str, items: Sequence[Item], named: int) -> int | None:
    """The item other than `items[named]` whose own default the claim quotes, if any.

    Its own: `_owner`; a default: written right after "Defaults to", "Default:" or the like
    (`_DEFAULTS_TO`); an item with a name, for the veto to say which.
    """
    owner = _owner(claim, text, items)
    if owner is None or owner[1] == named or not items[owner[1]].names:
        return None
    code, holder = owner
    before = _spaced(items[holder].text).split(f"`{code}`")[0]
    return holder if _DEFAULTS_TO.search(before) else None


def _name_words(name: str) -> frozenset[str]:
    """The terms of a name's words: `BACKLINK_TEXT` → backlink, text; `toc_depth` → toc, depth."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])|[_.\-`*]+", " ", name)
    return frozenset(terms(spaced))


def _owner(claim: str, text: str, items: Sequence[Item]) -> tuple[str, int] | None:
    """(the claim's inline code, the item holding it) when it quotes one item's own code.

    Its own: written in that item only, once in the whole passage, and none of the items'
    names; None when the claim quotes no such code, or such code of two items.
    """
    names = {name.strip("`") for item in items for name in item.names}
    spaced = [_spaced(item.text) for item in items]
    owned: dict[str, int] = {}
    for code in dict.fromkeys(code.strip() for code in _CODE.findall(claim)):
        if len(code) < 2 or code in names:
            continue
        held = [i for i, item_text in enumerate(spaced) if f"`{code}`" in item_text]
        if len(held) == 1 and _spaced(text).count(f"`{code}`") == 1:
            owned[code] = held[0]
    if len(set(owned.values())) != 1:
        return None
    return next(iter(owned.items()))


_CODE = re.compile(r"`([^`\n]+)`")
_DEFAULTS_TO = re.compile(r"\bDefault(?:s|\s+value)?(?:\s+(?:to|is))?\s*:?\s*$", re.I)
"""What comes right before an item's default value ("Defaults to `Jump back …`")."""
_SPACES = re.compile(r"\s+")


def _spaced(text: str) -> str:
    """`text` with every run of white space one space (a code span wraps in the source)."""
    return _SPACES.sub(" ", text)


_WHOLE = re.compile(r"(?<![\w.,])\d+(?![\w,]|\.\d)")


def _numbered(claim: str, wanted: frozenset[str], items: Sequence[Item]) -> list[tuple[str, str]]:
    """A misattribution in a list whose items are named alike but for a number.

    ":Exit code 4: pytest command line usage error" and ":Exit code 5: No tests were
    collected" are told apart by their numbers alone, which a claim writes anywhere ("The
    exit code returned when no tests were collected is 4", the embedded model's answer
    that both verifiers passed). The claim names the item whose number it holds, with the
    words the names share; it is misattributed when one other item, and no more, restates
    the most of its own words in the claim (at least two, and half of them), twice the share
    of the item the claim names.
    """
    frames = [_frame(item.names) for item in items]
    known = [frame for frame in frames if frame is not None]
    if len(known) != len(items) or len({frame for frame, _ in known}) != 1:
        return []
    numbers = [number for _, number in known]
    frame_terms = frozenset(terms(known[0][0]))
    said = set(_WHOLE.findall(claim)) & set(numbers)
    if len(said) != 1 or len(set(numbers)) != len(numbers) or not frame_terms <= set(terms(claim)):
        return []
    number = said.pop()
    named = numbers.index(number)
    rest = wanted - frame_terms - frozenset(numbers)
    own = [
        frozenset(content_terms(item.text)) - frame_terms - {n}
        for item, n in zip(items, numbers, strict=True)
    ]
    shares = [len(rest & terms_) / len(terms_) if terms_ else 0.0 for terms_ in own]
    best = max(range(len(items)), key=shares.__getitem__)
    if (
        best == named
        or shares.count(shares[best]) > 1
        or len(rest & own[best]) < 2
        or shares[best] < 0.5
        or shares[named] * 2 > shares[best]
        or number in _WHOLE.findall(items[best].text)  # "… takes about 3 minutes": its own
    ):
        return []
    return [(items[named].names[0], items[best].names[0])]


def _frame(names: Sequence[str]) -> tuple[str, str] | None:
    """An item's one name with one whole number, as (the name with `#` for it, the number)."""
    found = _WHOLE.findall(names[0]) if len(names) == 1 else []
    if len(found) != 1:
        return None
    return _WHOLE.sub("#", names[0]), found[0]
