"""The comments of the code in a text: runs of `#` or `//` comment lines inside code.

Code here is a fenced block (not one fenced as Markdown or reStructuredText, whose `#` lines
are headings), or a line indented by two columns or more (a reStructuredText literal or
code directive, Markdown's indented code; a Markdown heading is not indented so in
practice, though CommonMark allows three spaces). A comment line is its mark, a space and
some text; a run is the comment lines right below one another at one indentation, read as
one comment, its lines joined by spaces. A doctest's comment follows its prompt (`>>> # We
can check if a specifier set can never be satisfied`, packaging's specifiers page), and a
line opening with the prompt is code at any indentation. Shared by the extractive writer's captions
(`synthesis.captions`) and the verifier's quotation of a comment (`verify.evidence`), so
that both read a comment alike.

Linear in the text: each line is read once, fences are looked up by bisection, and no
pattern backtracks over a run of spaces.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from citesynth.ingest.blocks import columns, lines_from
from citesynth.ingest.fences import fenced_blocks

_MARK = re.compile(r"([ \t]*)(>>>[ \t]+)?(?:#|//)[ \t]+(?=\S)")
"""A comment line's mark: its indentation, a doctest prompt if any, then `#` or `//`."""
_FENCE_INFO = re.compile(r"[ \t]*(?:`{3,}|~{3,})[ \t]*([\w+#.-]*)")
_PROSE_FENCES = frozenset({"markdown", "md", "myst", "rst", "restructuredtext", "text", "txt"})
"""Fence languages whose `#` lines are headings or plain text, not comments."""


@dataclass(frozen=True, slots=True)
class Comment:
    """A run of comment lines of code, read as one comment."""

    start: int
    """Where the comment's text starts (after the mark of its first line)."""
    text: str
    """The text of its lines, joined by single spaces."""
    indent: str
    """The indentation of its lines."""
    after: int
    """The index (in `blocks.lines_from(text)`) of the first line below the run."""
    fence: tuple[int, int] | None
    """The fenced block holding it, if any."""


@lru_cache(maxsize=256)
def code_comments(text: str) -> tuple[Comment, ...]:
    """The comments of the code in `text`, in order (see the module docstring).

    Cached: the verifiers look for a quoted comment in each source once per claim.
    """
    if "#" not in text and "//" not in text:
        return ()
    every = lines_from(text)
    fences = [f for f in fenced_blocks(text) if fence_language(text, f) not in _PROSE_FENCES]
    starts = [f[0] for f in fences]
    found: list[Comment] = []
    index = 0
    while index < len(every):
        offset, line = every[index]
        mark = _MARK.match(line)
        at = bisect_right(starts, offset) - 1
        fence = fences[at] if at >= 0 and fences[at][0] < offset < fences[at][1] else None
        if mark is None or (fence is None and mark.group(2) is None and columns(mark.group(1)) < 2):
            index += 1
            continue
        indent = mark.group(1)
        parts = [line[mark.end() :].rstrip(" \t")]
        start = offset + mark.end()
        index += 1
        while index < len(every):
            more = _MARK.match(every[index][1])
            if more is None or more.group(1) != indent or more.group(2) != mark.group(2):
                break
            parts.append(every[index][1][more.end() :].rstrip(" \t"))
            index += 1
        found.append(Comment(start, " ".join(parts), indent, index, fence))
    return tuple(found)


def fence_language(text: str, fence: tuple[int, int] | None) -> str:
    """The language a fenced block's opening line names, lower case ("" for other code)."""
    if fence is None:
        return ""
    info = _FENCE_INFO.match(text, fence[0])
    return info.group(1).lower() if info else ""
