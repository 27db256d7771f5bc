"""What people read on a terminal: query-focused snippets, and text made safe to print."""

from __future__ import annotations

import unicodedata

from citesynth.analysis import query_terms, terms
from citesynth.ingest.sentences import sentence_spans


def snippet(text: str, query: str, width: int = 240) -> str:
    """The sentence of `text` that shares most terms with `query`, trimmed to `width`."""
    wanted = set(query_terms(query))
    best = (0, 0, len(text))
    for start, end in sentence_spans(text):
        overlap = len(wanted.intersection(terms(text[start:end])))
        if overlap > best[0]:
            best = (overlap, start, end)
    _, start, _ = best
    flat = " ".join(text[start:].split())
    if len(flat) <= width:
        prefix = "…" if start > 0 else ""
        return prefix + flat
    cut = flat.rfind(" ", 0, width)
    return ("…" if start > 0 else "") + flat[: cut if cut > width // 2 else width] + "…"


# Bidirectional controls reorder what a terminal shows (a name can read as another).
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_UNSAFE = frozenset({"Cc", "Zl", "Zp", "Cs"})


def printable(text: str, *, keep: str = "") -> str:
    r"""`text` as it can be shown on a terminal: control characters become escapes.

    A file name (or a heading, a snippet) may hold newlines, escape sequences (`ESC [ ...`)
    or bidirectional controls, which would break a line or drive the terminal; they are
    written as Python writes them in a string (`\n`, `\x1b`, `\u202e`). Rich markup is a
    separate matter: escape it with `rich.markup.escape` as well. Characters in `keep` pass
    through (an answer keeps its line breaks: `keep="\n\t"`).
    """
    if text.isprintable():
        return text
    return "".join(
        repr(char)[1:-1]
        if char not in keep and (char in _BIDI or unicodedata.category(char) in _UNSAFE)
        else char
        for char in text
    )
