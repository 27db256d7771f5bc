"""Hits as JSON (the stable search schema) and as short query-focused snippets."""

from __future__ import annotations

from typing import Any

from citesynth.analysis import query_terms, terms
from citesynth.ingest.sentences import sentence_spans
from citesynth.types import Hit

SEARCH_SCHEMA_VERSION = 1
"""Bump when a field of `hit_json` changes meaning or disappears (adding fields is fine)."""


def hit_json(hit: Hit) -> dict[str, Any]:
    """One hit in the documented `citesynth search --json` schema (docs/search-json.md)."""
    chunk = hit.chunk
    signals = hit.signals
    return {
        "chunk_id": chunk.id,
        "doc_id": chunk.document_id,
        "path": chunk.path,
        "title": chunk.title,
        "page": chunk.page,
        "start_line": chunk.start_line,
        "end_line": chunk.end_line,
        "char_start": chunk.char_start,
        "char_end": chunk.char_end,
        "text": chunk.text,
        "score": round(hit.score, 6),
        "confidence": round(hit.confidence, 4),
        "record_id": chunk.record_id,
        "heading_path": list(chunk.heading_path),
        "location": chunk.location,
        "signals": {
            "lexical_rank": signals.lexical_rank,
            "lexical_score": None
            if signals.lexical_score is None
            else round(signals.lexical_score, 4),
            "dense_rank": signals.dense_rank,
            "cosine": None if signals.cosine is None else round(signals.cosine, 4),
            "coverage": round(signals.coverage, 4),
        },
    }


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
