"""Where a reference page says what an option's default is, for the extractive writer.

Reference pages describe an option in a list item or a paragraph, and state its default in
a later sentence of it: Werkzeug's "`max_form_parts` - Stop parsing `multipart/form-data`
if more than this number of parts are received. This is useful to stop a very large number
of very small fields, especially files. The default is 1000." A question asking for the
default ranks the item's first sentence, which names the option, and must show the
sentence stating the value with it; alone, the first sentence answers nothing ("What is the
default limit on the number of multipart form parts?" had been answered without 1000).
The same holds for a default that is none: "… which is why it's not set by default."
A Sphinx object description states it in a paragraph of its own ("Default: ``None``" under
Flask's ".. py:data:: TEMPLATES_AUTO_RELOAD"): `body_defaults`. Django's settings reference
states it first, right under the setting's title, and describes the setting after it:
`titled_defaults`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from citesynth.analysis import DEFAULT_VALUE
from citesynth.ingest.blocks import ITEM_START
from citesynth.ingest.rst import described_objects

_STOPS = (".", "!", "?", ":", ";")
_CLOSERS = "\"')]*_`"


def with_stop(sentence: str) -> str:
    """`sentence` ending with a stop, one added when it has none.

    A default stated with no stop ("Default: ``None``", Django's and Flask's reference
    pages) would run into the sentence shown after it and be read as one with it. A stop
    inside closing quotes, brackets or markup counts ("… (or ``None``.)").
    """
    said = sentence.rstrip()
    return said if said.rstrip(_CLOSERS).endswith(_STOPS) else f"{said}."


DEFAULT_ASKED = re.compile(r"\bdefault", re.I)
"""A question asking what a default is ("What text is used … by default?")."""
_STATES_DEFAULT = re.compile(
    r"\b(?:by\s+default|defaults?\s+(?:to|is)|default(?:\s+value)?\s*(?::|is\b)"
    r"|the\s+default(?:\s+[\w-]+){0,2}\s+is|\(the\s+default\))",
    re.I,
)
"""A sentence stating what a default is, or that there is none ("… not set by default"),
naming it or not: "The default is 1000.", "The default limit size is 100." (aiohttp's
`TCPConnector.limit`, which the writer had quoted without its value)."""
_BLANK_LINE = re.compile(r"\n[ \t\r]*\n")
MOST_SENTENCES = 3
"""How many sentences after an item's first one are shown, at most, to reach its default."""


def item_defaults(
    text: str, sentences: Sequence[tuple[int, int]]
) -> dict[int, tuple[int, int, int]]:
    """The default each item of `text` states, by the offset of the item's first sentence.

    `sentences` are the (start, end) of `text`'s sentences in order. An item is a list item
    or a paragraph: sentences with no blank line between them, the later not opening a list
    item. A later sentence of an item stating a default (`_STATES_DEFAULT`), at most
    `MOST_SENTENCES` on, gives the offsets (first, start, end): the sentences shown run
    unbroken from `first`, the item's second, to `end`, the default's own. Never the first
    sentence and a far one alone: "It is enabled by default." five sentences on is said of
    another option. The first such sentence of an item counts. An item opening with a
    sentence naming only a type ("A number.") is found by its second sentence as well.
    """
    found: dict[int, tuple[int, int, int]] = {}
    head = 0
    for index, (start, end) in enumerate(sentences):
        if index and _item_opens(text, sentences[index - 1][1], start):
            head = index
        close = 0 < index - head <= MOST_SENTENCES
        if close and sentences[head][0] not in found and _STATES_DEFAULT.search(text, start, end):
            found[sentences[head][0]] = (sentences[head + 1][0], start, end)
            if index - head > 1 and _type_only(text, *sentences[head]):
                found[sentences[head + 1][0]] = (sentences[head + 2][0], start, end)
    return found


_TYPE_ONLY = re.compile(r"\s*(?:An?|The)\s+[\w/ -]{1,40}?\.\s*$")


def _type_only(text: str, start: int, end: int) -> bool:
    """Whether the sentence at `start`–`end` only names a type: "A number.", "A boolean.".

    Too short to be quoted, so the item's second sentence stands for it: Celery's
    "A number. If ``retry_backoff`` is enabled, this option will set a maximum delay …
    By default, this option is set to ``600``, which is 10 minutes."
    """
    return len(text[start:end].split()) <= 3 and _TYPE_ONLY.match(text, start, end) is not None


def _item_opens(text: str, previous_end: int, start: int) -> bool:
    """Whether the sentence at `start` opens an item: after a blank line or a list mark."""
    if _BLANK_LINE.search(text, previous_end, start):
        return True
    line_start = text.rfind("\n", 0, start) + 1
    return line_start >= previous_end and ITEM_START.match(text, line_start) is not None


def body_defaults(
    text: str, sentences: Sequence[tuple[int, int]]
) -> dict[int, tuple[int, int, int]]:
    """The default each object description of `text` states, by its body's first sentence.

    As `item_defaults` gives them (first, start, end), the default sentence alone: a later
    sentence of the body opening with "Default:", "Defaults to" or the like
    (`DEFAULT_VALUE`), however many paragraphs down.
    """
    found: dict[int, tuple[int, int, int]] = {}
    for body_start, body_end, _ in described_objects(text):
        inside = [(a, b) for a, b in sentences if body_start <= a < body_end]
        stated = next(((a, b) for a, b in inside[1:] if DEFAULT_VALUE.match(text, a)), None)
        if stated is not None:
            found.setdefault(inside[0][0], (stated[0], stated[0], stated[1]))
    return found


def titled_defaults(
    text: str, sentences: Sequence[tuple[int, int]], titles: Sequence[int]
) -> dict[int, tuple[int, int, int]]:
    """The default a section states right under its title, by the section's next sentence.

    Django's settings reference titles each setting and states its default before saying
    what it is: "``DATA_UPLOAD_MAX_MEMORY_SIZE``" over its underline, "Default: ``2621440``
    (i.e. 2.5 MB)." and then "The maximum size in bytes that a request body may be before
    a SuspiciousOperation … is raised." Asked for the default, the description is what the
    question's words find; it is shown with the default above it. `titles` are where the
    section titles of `text` end (0 too: a chunk opens in a section's text, its title in
    its heading path). As `item_defaults` gives them (first, start, end), with
    `first` the default's own offset, before the sentence it is of: the next paragraph,
    one blank line down, not a list item ("- on connect errors" is no description).
    """
    found: dict[int, tuple[int, int, int]] = {}
    for (start, end), (after, _) in pairwise(sentences):
        if not DEFAULT_VALUE.match(text, start):
            continue
        titled = any(not text[title:start].strip() for title in titles if title <= start)
        gap = text[end:after]
        one_blank = len(_BLANK_LINE.findall(gap)) == 1 and not gap.strip()
        if titled and one_blank and not ITEM_START.match(text, text.rfind("\n", 0, after) + 1):
            found[after] = (start, start, end)
    return found
