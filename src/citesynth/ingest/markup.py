"""What a text file is written in: reStructuredText or Markdown kept under a plain name.

Many projects write their documentation in reStructuredText and name the files `.txt`:
Django's 600 pages, docutils', a `README.txt` or `CHANGES.txt` beside the code. Read as
plain text, such a page has no headings (its title is its file name) and its chunks run on
from one section into the next: Django's settings reference gave "Default: ``'default'``
… .. setting:: SESSION_COOKIE_AGE ``SESSION_COOKIE_AGE`` ---- Default: ``1209600``" as
one chunk, under no heading, and an answer quoted "The age of session cookies, in seconds"
without the setting it describes or its default. Markdown notes saved as `.txt` lose their
headings and fences the same way.

`markup_of` reads the first lines for markup only a writer of that language puts there
and returns which, or None for text with none (an RFC, a licence, a log): that is read
as blank-line paragraphs, as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from citesynth.ingest.rst import title_at

Markup = Literal["rst", "markdown"]

_READ_LINES = 2000
"""Markup shows in a page's first lines; a huge log is not read to its end to decide."""

_EXPLICIT = re.compile(r"\.\.[ \t]+(?:[\w.+:-]+::|_[^:\n]+:|\|[^|\n]+\|)")
"""A directive (".. note::", ".. setting:: X"), a link target (".. _label:") or a
substitution (".. |name| image::"), at a line's start."""
_ROLE = re.compile(r"(?<![\w`]):[a-z][\w.+-]*(?::[a-z][\w.+-]*)?:`[^`\n]+`")
"""An interpreted text role: ":setting:`MIDDLEWARE`", ":py:func:`run`"."""
_LITERAL = re.compile(r"(?<!`)``[^`\n]+``(?!`)")
"""reStructuredText's inline literal, ``value`` (Markdown writes `value`)."""
_ATX = re.compile(r"#{1,6} +\S")
_FENCE = re.compile(r"[ \t]{0,3}(?:```|~~~)")
_LINK = re.compile(r"\[[^\[\]\n]+\]\([^()\s]+\)")
"""A link, "[text](target)"; its text holds no "[", so a run of them is read in one pass."""
_CODE_SPAN = re.compile(r"(?<!`)`[^`\n]+`(?![`_])")


@dataclass(frozen=True, slots=True)
class _Signs:
    titles: int = 0
    """Lines underlined (or over- and underlined) by at least their length of one mark."""
    overlined: int = 0
    """Titles with a line of the same mark above too, as only reStructuredText writes."""
    explicit: int = 0
    roles: int = 0
    literals: int = 0
    headings: int = 0
    """Markdown's "# Heading" lines."""
    fences: int = 0
    links: int = 0
    code_spans: int = 0


def markup_of(text: str) -> Markup | None:
    """Which markup `text` is written in: "rst", "markdown", or None for plain text.

    reStructuredText: two underlined titles ("Title / =====", which plain text and
    Markdown write too, and which are headings either way), one with any markup of
    reStructuredText's own (a line of marks over the title too, a directive, a link
    target, a role, a ``literal``), or that markup twice. Markdown: a fenced block, a "#"
    heading set apart by a blank line with a link, or two with a `code span`. A file
    holding both kinds of markup is read as the one whose own markup it holds more of
    (underlined titles are either's). A script ("#!") is plain text.
    """
    signs = _signs(text.split("\n", _READ_LINES)[:_READ_LINES])
    if text.startswith("#!"):  # a script, its comments no headings
        return None
    rst_own = signs.overlined + signs.explicit + signs.roles + signs.literals
    markdown_own = signs.fences + signs.headings + signs.links
    is_rst = (signs.titles >= 1 and (signs.titles >= 2 or rst_own >= 1)) or rst_own >= 2
    is_markdown = (
        signs.fences >= 2
        or (signs.headings >= 1 and signs.links >= 1)
        or (signs.headings >= 2 and signs.code_spans >= 1)
    )
    if is_rst and is_markdown:  # underlined titles are either's: the markup of its own
        return "rst" if rst_own > markdown_own else "markdown"
    if is_rst:
        return "rst"
    return "markdown" if is_markdown else None


def _signs(lines: list[str]) -> _Signs:
    titles = overlined = explicit = roles = literals = headings = fences = links = 0
    code_spans = 0
    underline = -1
    for index, line in enumerate(lines):
        if _is_title(lines, index):
            titles += 1
            overlined += index > 0 and lines[index - 1].rstrip() == lines[index + 1].rstrip()
            underline = index + 1
        if _EXPLICIT.match(line):
            explicit += 1
        if _is_heading(lines, index):
            headings += 1
        if _FENCE.match(line) and index != underline and _next_to_text(lines, index):
            fences += 1
        if "`" in line:
            roles += len(_ROLE.findall(line))
            literals += len(_LITERAL.findall(line))
            code_spans += len(_CODE_SPAN.findall(_LITERAL.sub("", _ROLE.sub("", line))))
        if "](" in line:
            links += len(_LINK.findall(line))
    return _Signs(titles, overlined, explicit, roles, literals, headings, fences, links, code_spans)


def _next_to_text(lines: list[str], index: int) -> bool:
    """Whether line `index` has text right above or below it, as a fence has its code.

    A row of tildes between blank lines is a separator drawn in plain text.
    """
    before = lines[index - 1] if index > 0 else ""
    after = lines[index + 1] if index + 1 < len(lines) else ""
    return bool(before.strip() or after.strip())


def _is_heading(lines: list[str], index: int) -> bool:
    """Whether `lines[index]` is a Markdown "# Heading" set apart by a blank line.

    Not one of a run of "#" comments ("# Copyright (C) 2000 …" over "#" over "# This file
    is part of …").
    """
    if not _ATX.match(lines[index]):
        return False
    before = lines[index - 1] if index > 0 else ""
    after = lines[index + 1] if index + 1 < len(lines) else ""
    return not before.strip() and not after.startswith("#")


def _is_title(lines: list[str], index: int) -> bool:
    """Whether `lines[index]` is a title underlined by a mark at least as long as it is.

    reStructuredText asks an underline to be as long as its title, so a line of dashes
    under a longer line of prose (a rule drawn below a paragraph) is no title.
    """
    if title_at(lines, index) is None:
        return False
    title = lines[index].rstrip()
    return len(title) <= 120 and len(lines[index + 1].rstrip()) >= len(title)
