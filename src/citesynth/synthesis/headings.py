"""A source's heading copied into an answer: a heading of the answer, never a claim.

Shown its sources under their headings ("[2: L156-161] — 0.40.0 (October 15, 2024) ›
Fixed"), the embedded model heads the parts of an answer with them, marker and all:
"0.40.0 (October 15, 2024) › Fixed [2]", and last "1.3.1 (June 12, 2026) [4]" with nothing
under it (Starlette yes/no tuning, yt05). Read as claims, the cross-encoder passed both
(0.95, 0.96): the source holds the words. `copied_headings` makes a line that is, apart
from its markers and emphasis, a shown source's title, one of its headings or a run of its
heading path, a bold heading line (`**Fixed**`), which no check reads as a claim
(`citations.resolve.factual_spans`), and drops one with nothing under it. A line ending in
a stop is a sentence, whatever its words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from citesynth.citations.resolve import CANONICAL
from citesynth.ingest.sentences import fenced_blocks
from citesynth.synthesis.sources import Source

_MARKER = re.compile(rf"\s*{CANONICAL.pattern}")
_HEADING = re.compile(r"#{1,6}\s+\S|\*\*[^*\n]+\*\*:?\s*$")
"""A heading line of the answer already ("## Limits", "**Limits**")."""
_DECORATION = re.compile(r"^\s*(?:#{1,6}\s+)?(?:\*\*)?|(?:\*\*)?:?\s*$")
_SEPARATOR = re.compile(r"\s*(?:›|>|»)\s*")
_STOP = (".", "!", "?", ";", ",")


def copied_headings(text: str, sources: Sequence[Source]) -> tuple[str, int]:
    """`text` with each line copying a source's heading made a heading; how many changed."""
    names = _names(sources)
    if not names:
        return text, 0
    lines = text.split("\n")
    code = _in_code(text, lines)
    changed = 0
    for index, line in enumerate(lines):
        if code[index]:
            continue  # code is quoted as written
        words = _DECORATION.sub("", _MARKER.sub("", line)).strip()
        if not words or words.endswith(_STOP) or _folded(words) not in names:
            continue
        heading = f"**{words}**"
        if heading != line.strip():
            lines[index] = heading
            changed += 1
    text = "\n".join(lines) if changed else text
    text, dropped = empty_headings_dropped(text)
    return text, changed + dropped


def empty_headings_dropped(text: str) -> tuple[str, int]:
    """`text` without bold heading lines that have nothing under them; how many went.

    Read again once verification has removed claims: a heading whose claims all went is
    left over, last or above the next heading (HTTPX yes/no `yh21`, "**Enabling HTTP/2**").
    """
    lines = text.split("\n")
    code = _in_code(text, lines)
    kept = [
        line for index, line in enumerate(lines) if code[index] or not _empty_heading(lines, index)
    ]
    if len(kept) == len(lines):
        return text, 0
    tidied = re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip("\n").rstrip()
    return tidied, len(lines) - len(kept)


def _in_code(text: str, lines: Sequence[str]) -> list[bool]:
    """Whether each of `lines` (`text` split at line breaks) is inside a fenced code block."""
    fences = fenced_blocks(text)
    inside = []
    at = 0
    for line in lines:
        inside.append(any(first <= at < last for first, last in fences))
        at += len(line) + 1
    return inside


def _empty_heading(lines: Sequence[str], index: int) -> bool:
    """Whether `lines[index]` is a bold heading with no text under it before the next one."""
    if not re.fullmatch(r"\*\*[^*\n]+\*\*", lines[index].strip()):
        return False
    below = next((line for line in lines[index + 1 :] if line.strip()), None)
    return below is None or _HEADING.match(below.strip()) is not None


def _names(sources: Iterable[Source]) -> frozenset[str]:
    """Every title, heading and run of a heading path of `sources`, folded."""
    names: set[str] = set()
    for source in sources:
        path = [p for p in (source.chunk.title, *source.chunk.heading_path) if p and p.strip()]
        for start in range(len(path)):
            for end in range(start + 1, len(path) + 1):
                names.add(_folded(" › ".join(path[start:end])))
    return frozenset(names)


def _folded(text: str) -> str:
    """`text` compared as a heading: case, spacing, code marks and path separators aside."""
    return " ".join(_SEPARATOR.sub(" › ", text.replace("`", "")).casefold().split())
