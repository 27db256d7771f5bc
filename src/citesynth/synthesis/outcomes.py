"""Answers that are not written: ranked chunks only, not found, or the fallback after a failure.

Also how a finished answer is streamed again (a cached answer replays as the same events).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

from citesynth.answers import Answer, Fallback
from citesynth.events import DoneEvent, Event, SourcesEvent, TokenEvent, VerificationEvent
from citesynth.synthesis.drafting import Unusable, elapsed_ms
from citesynth.synthesis.extractive import NOT_FOUND
from citesynth.synthesis.finishing import Header
from citesynth.synthesis.inert import inline
from citesynth.synthesis.markup import strip_markup
from citesynth.synthesis.sources import Source, document_count, numbered, record
from citesynth.synthesis.writers import Writer
from citesynth.types import Hit

NOT_RELEVANT = "no source is relevant enough"
"""How the warning of a not-found that retrieval decided begins."""


def unwritten(header: Header, hits: Sequence[Hit], *, synthesize: bool) -> Answer:
    """The answer when nothing is written: the ranked chunks only, or not found."""
    sources = numbered(hits)
    records = [record(source) for source in sources]
    if not synthesize:
        return Answer(
            **header.fields(),
            answer="",
            sources=records,
            source_doc_count=document_count(sources),
            confidence=round(hits[0].confidence, 4) if hits else 0.0,
            warnings=["synthesis off: the sources are the ranked chunks"],
        )
    best = f"{hits[0].confidence:.2f}" if hits else "none"
    return Answer(
        **header.fields(),
        answer=NOT_FOUND,
        sources=records,
        source_doc_count=document_count(sources),
        not_found=True,
        warnings=[f"{NOT_RELEVANT} (best Pass-1 confidence: {best})"],
    )


def fallback(header: Header, sources: Sequence[Source], reason: str, *, grouped: bool) -> Answer:
    """The ranked chunks, with why the answer could not be written; confidence 0."""
    lines = [f"The answer could not be written ({reason}). The most relevant passages:"]
    lines.extend(
        f"[{s.number}] {inline(s.chunk.location)}: {' '.join(s.chunk.text.split())[:300]}"
        for s in sources
    )
    return Answer(
        **header.fields(),
        answer=strip_markup("\n\n".join(lines)),  # passages quoted as text, never markup
        sources=[record(s) for s in sources],
        synthesis_mode=grouped,
        source_doc_count=document_count(sources),
        fallback=Fallback(reason=reason),
        confidence=0.0,
        warnings=[f"fallback: {reason}"],
    )


def failure_reason(error: Exception, writer: Writer) -> str:
    """One line for the user saying why the writer failed."""
    if isinstance(error, TimeoutError):
        return f"{writer.name} timed out after {writer.timeout:g} s"
    if isinstance(error, Unusable):
        return str(error)
    message = str(error) or type(error).__name__
    return f"{writer.name} failed: {message}"


def verification_event(answer: Answer) -> VerificationEvent:
    """The `verification` event of a finished answer."""
    return VerificationEvent(
        claims=tuple(answer.claims),
        conflicts=tuple(answer.conflicts),
        confidence=answer.confidence,
        summary=answer.verification,
        low_confidence=answer.low_confidence,
    )


async def replay(answer: Answer) -> AsyncIterator[Event]:
    """A finished answer as the events of a stream: sources, its text, verification, done."""
    yield SourcesEvent(request_id=answer.request_id, sources=tuple(answer.sources))
    if answer.answer:
        yield TokenEvent(text=answer.answer)
    yield verification_event(answer)
    yield DoneEvent(answer=answer)


def timed(answer: Answer, timings: dict[str, float], started: float) -> Answer:
    """`answer` with its per-stage latencies and the total since `started`."""
    latency = {stage: round(ms, 2) for stage, ms in timings.items()} | {
        "total": elapsed_ms(started)
    }
    usage = answer.usage.model_copy(update={"latency_ms": latency})
    return answer.model_copy(update={"usage": usage})
