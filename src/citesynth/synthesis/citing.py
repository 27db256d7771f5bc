"""From a resolved answer to its citations, claims and supporting spans.

Each cited source becomes a `Citation` with its provenance, a Tavily-style record, and the
exact span of the source that best supports the sentences citing it: the source sentence
sharing the most terms with them, with its character offsets and line numbers in the
original file (`chunk.start_line` plus the line breaks before the span).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from citesynth.analysis import terms
from citesynth.answers import Citation, Claim, EvidenceSpan, Support, TavilyRecord
from citesynth.citations.resolve import (
    Resolved,
    cited_numbers,
    factual_spans,
    shows_code,
)
from citesynth.ingest.sentences import prose_sentences, sentence_spans
from citesynth.passages import chunk_url
from citesynth.synthesis.sources import Source, provenance
from citesynth.types import Chunk
from citesynth.verify.claims import split_claims


def evidence_span(chunk: Chunk, claims: Sequence[str]) -> EvidenceSpan | None:
    """The sentence of `chunk` that shares the most terms with `claims` (None if nothing)."""
    wanted = set(terms(" ".join(claims)))
    best: tuple[float, int, int] | None = None
    for start, end in prose_sentences(chunk.text, min_words=3) or sentence_spans(chunk.text):
        words = set(terms(chunk.text[start:end]))
        if not words:
            continue
        score = len(wanted & words) / (len(words) ** 0.5)
        if best is None or score > best[0]:
            best = (score, start, end)
    if best is None or best[0] == 0:
        return None
    _, start, end = best
    first = chunk.start_line + chunk.text.count("\n", 0, start)
    return EvidenceSpan(
        char_start=chunk.char_start + start,
        char_end=chunk.char_start + end,
        start_line=first,
        end_line=first + chunk.text.count("\n", start, end),
        text=chunk.text[start:end],
    )


def claims_of(text: str) -> list[Claim]:
    """The answer's factual sentences with what each cites, and its code (unchecked).

    Code is a block, or the inline code of a sentence that only shows it (`shows_code`).
    """
    sentences = [
        (start, Claim(text=text[start:end], citations=cited_numbers(text[start:end])))
        for start, end in factual_spans(text)
        if not shows_code(text[start:end])
    ]
    code = [
        (c.start, Claim(text=c.text, citations=list(c.citations), kind="code"))
        for c in split_claims(text)
        if c.code
    ]
    return [claim for _, claim in sorted([*sentences, *code], key=lambda item: item[0])]


def citations(
    sources: Sequence[Source],
    resolved: Resolved,
    claims: Sequence[Claim],
    question: str,
    verified: Mapping[int, tuple[Support, EvidenceSpan | None]] | None = None,
) -> list[Citation]:
    """One citation per cited source, in order of first use.

    `verified` gives, per source number, the verifier's label and supporting span; without
    it the span is the sentence sharing the most terms with the claims, and support is
    `unchecked`.
    """
    by_number = {source.number: source for source in sources}
    found: list[Citation] = []
    for number in resolved.used:
        source = by_number[number]
        chunk = source.chunk
        supporting = [claim.text for claim in claims if number in claim.citations] or [question]
        label, span = (verified or {}).get(number, ("unchecked", None))
        span = span or evidence_span(chunk, supporting)
        snippet = " ".join((span.text if span else chunk.text[:300]).split())
        found.append(
            Citation(
                **provenance(chunk),
                number=number,
                snippet=snippet,
                relevance=round(source.hit.confidence, 4),
                multi_source=number in resolved.multi_source,
                support=label,
                evidence=span,
                record=TavilyRecord(
                    id=chunk.id,
                    title=chunk.title or chunk.path,
                    url=chunk_url(chunk),
                    content=chunk.text,
                    snippet=snippet,
                ),
            )
        )
    return found
