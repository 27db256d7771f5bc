"""Short query-focused snippets of chunk texts, for people reading a list of hits."""

from __future__ import annotations

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
