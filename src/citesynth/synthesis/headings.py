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

from citesynth.ingest.fences import fenced_line_numbers
from citesynth.synthesis.layout import single_blank_lines
from citesynth.synthesis.sources import Source
from citesynth.synthesis.tidying import HEADING_LINE
from citesynth.synthesis.verifying import lines_kept
from citesynth.verify.claims import MARKER

_DECORATION = re.compile(r"^\s*(?:#{1,6}\s+)?(?:\*\*)?|(?:\*\*)?:?\s*$")
_SEPARATOR = re.compile(r"\s*(?:›|>|»)\s*")
_STOP = (".", "!", "?", ";", ",")
_ELLIPSIS = re.compile(r"…|\.{3}")
BOLD_LINE = re.compile(r"\*\*([^*\n]+)\*\*")
"""A bold line (`fullmatch` on a stripped line): how the extractive writer heads a group."""


def copied_headings(text: str, sources: Sequence[Source]) -> tuple[str, int]:
    """`text` with each line copying a source's heading made a heading; how many changed."""
    names = _names(sources)
    if not names:
        return text, 0
    lines = text.split("\n")
    code = fenced_line_numbers(text)
    changed = 0
    for index, line in enumerate(lines):
        if index in code:
            continue  # code is quoted as written
        words = _DECORATION.sub("", MARKER.sub("", line)).strip()
        if not words or words.endswith(_STOP) or _folded(words) not in names:
            continue
        if _introduces_code(lines, index):
            continue  # "Usage: [1]" over the section's example: a lead-in, cited
        heading = f"**{words}**"
        if heading != line.strip():
            lines[index] = heading
            changed += 1
    text = "\n".join(lines) if changed else text
    text, dropped = empty_headings_dropped(text)
    return text, changed + dropped


def _introduces_code(lines: Sequence[str], index: int) -> bool:
    """Whether `lines[index]` ends in ":" with a fenced block right below it.

    The extractive writer quotes an example that opens its section under that section's
    heading ("Usage: [1]" over packaging's doctest, `captions.titled_examples`); made a
    bold heading, it lost the citation its code is checked against.
    """
    if not MARKER.sub("", lines[index]).rstrip().endswith(":"):
        return False
    below = next((line for line in lines[index + 1 :] if line.strip()), "")
    return _FENCE.match(below) is not None


_FENCE = re.compile(r"[ \t]*(?:`{3,}|~{3,})")


def empty_headings_dropped(text: str) -> tuple[str, int]:
    """`text` without bold heading lines that have nothing under them; how many went.

    Read again once verification has removed claims: a heading whose claims all went is
    left over, last or above the next heading (HTTPX yes/no `yh21`, "**Enabling HTTP/2**").
    Read from the end as verification reads emptied sections (`verifying.lines_kept`).
    """
    lines = text.split("\n")
    kept = lines_kept(lines, fenced_line_numbers(text), _empty_heading)
    if len(kept) == len(lines):
        return text, 0
    tidied = single_blank_lines("\n".join(kept)).strip("\n").rstrip()
    return tidied, len(lines) - len(kept)


def _empty_heading(line: str, below: str | None) -> bool:
    """Whether `line` is a bold heading with no text under it before the next heading."""
    if not BOLD_LINE.fullmatch(line.strip()):
        return False
    return below is None or HEADING_LINE.fullmatch(below.strip()) is not None


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
    """`text` compared as a heading: case, spacing, code marks, separators, ellipses aside.

    structlog's "Why …" page heads a part "… structlog?", copied as "structlog? › Highly
    testable".
    """
    text = _ELLIPSIS.sub(" ", text.replace("`", ""))
    return " ".join(_SEPARATOR.sub(" › ", text).casefold().split())
