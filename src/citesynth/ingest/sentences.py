"""Sentence spans inside a region of text, by rule (no model), for prose in many formats."""

from __future__ import annotations

import re

# A sentence ends at . ! ? (and closing quotes/brackets) followed by whitespace and a
# plausible sentence start; or at a line break that begins a list item.
_END = re.compile(r"""[.!?…]+["'”’)\]]*(?=\s+["'“‘(\[]?[A-Z0-9])""")
_LIST_BREAK = re.compile(r"\n(?=[ \t]*(?:[-*+•]|\d{1,3}[.)])[ \t]+)")
_ABBREVIATIONS = frozenset(
    """mr mrs ms dr prof sr jr st vs etc e.g i.e cf al fig figs eq eqs no nos vol vols pp
    approx inc ltd co corp dept est min max sec ref refs resp u.s u.k jan feb mar apr jun jul
    aug sep sept oct nov dec""".split()
)
_WORD_BEFORE = re.compile(r"([\w.]+)$")


def _is_abbreviation(text: str, dot: int) -> bool:
    """Whether the period at `dot` closes an abbreviation, an initial or a number."""
    match = _WORD_BEFORE.search(text, max(0, dot - 12), dot)
    if match is None:
        return False
    word = match.group(1).lower().strip(".")
    if word in _ABBREVIATIONS:
        return True
    # Single-letter initials ("J. Smith") and section numbers ("Fig. 3.")
    return len(word) == 1 and word.isalpha()


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Split `text[start:end]` into sentences; returns `(start, end)` offsets into `text`.

    Spans exclude surrounding whitespace, cover every non-space character of the region,
    and never overlap. A region with no boundary is one span.
    """
    stop = len(text) if end is None else end
    cuts: list[int] = []
    for match in _END.finditer(text, start, stop):
        single_period = text[match.start()] == "." and match.end() - match.start() == 1
        if single_period and _is_abbreviation(text, match.start()):
            continue
        cuts.append(match.end())
    cuts.extend(match.start() for match in _LIST_BREAK.finditer(text, start, stop))
    spans: list[tuple[int, int]] = []
    previous = start
    for cut in sorted(set(cuts)):
        _append_trimmed(text, previous, cut, spans)
        previous = cut
    _append_trimmed(text, previous, stop, spans)
    return spans


def _append_trimmed(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        spans.append((start, end))
