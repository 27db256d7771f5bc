"""Pass 2: from a question to a cited answer, as a stream of events (DESIGN §6).

    sources → token* / citation* → verification → done        (or error → done)

1. A cached answer for the same question, corpus generation, writer, mode and prompt
   version is replayed as the same events, marked `cached`.
2. Retrieval. When the best hit's Pass-1 confidence is below `not_found_below`, the
   answer is "Not found in the sources." and no model is called.
3. The hits are numbered (deep mode puts those sharing the question's entities first),
   trimmed by whole chunks to the context budget, and, for writers that want it, cut to
   their most relevant sentences. Multi-source mode is on when two documents each give
   two chunks.
4. The writer's text passes through the marker scanner as it streams: plain text goes out
   as `token` events, each marker as its canonical `[n]` token plus a `citation` event.
   Numbers that name no source are dropped on the spot.
5. Model error, timeout or unusable output → an `error` event, then `done` with the
   ranked chunks, `fallback.reason` and confidence 0. Never a hang, never a traceback.
6. The finished text is resolved (groups merged, compact ranges, invalid numbers
   reported), optionally renumbered by first use; claims, uncited claims, citations with
   their supporting spans, warnings and confidence are computed; the answer is cached.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from citesynth.answers import SCHEMA_VERSION, Answer, Citation, Claim, Fallback, UsageReport
from citesynth.citations.markers import Marker, MarkerStream
from citesynth.citations.resolve import Resolved, compact, renumber, resolve, says_not_found
from citesynth.embed.base import Embedder
from citesynth.events import (
    AnswerEvent,
    CitationEvent,
    DoneEvent,
    ErrorEvent,
    SourcesEvent,
    TokenEvent,
    VerificationEvent,
)
from citesynth.index.store import Store
from citesynth.llm.base import Usage
from citesynth.observe import log_answer
from citesynth.retrieve.hybrid import Reranker, RetrievalOptions, retrieve
from citesynth.retrieve.links import follow_references
from citesynth.synthesis import evidence, verifying
from citesynth.synthesis.attribute import attribute
from citesynth.synthesis.citing import (
    citations,
    claims_of,
    drop_pointers,
    drop_repeats,
    has_words,
    strip_layout,
)
from citesynth.synthesis.extractive import NOT_FOUND
from citesynth.synthesis.modes import MULTI_SOURCE_EXTRA_TOKENS, Mode, get_mode
from citesynth.synthesis.sources import (
    Counter_,
    Source,
    boost_entities,
    document_count,
    multi_source,
    numbered,
    record,
    refs,
    trim,
)
from citesynth.synthesis.writers import Plan, Writer
from citesynth.types import Hit
from citesynth.verify.base import Verifier
from citesynth.verify.confidence import confidence as calibrated
from citesynth.verify.conflicts import Found, describe

log = logging.getLogger("citesynth.answer")

NOT_FOUND_BELOW = 0.2
"""Default Pass-1 confidence under which the best hit counts as "nothing relevant"."""


@dataclass(frozen=True, slots=True)
class AskOptions:
    """How to answer one question."""

    mode: str = "simple"
    k: int | None = None
    """How many chunks to retrieve (default: the mode's source count)."""
    synthesize: bool = True
    """False: return the ranked chunks, no writing."""
    renumber: bool = False
    """Renumber citations in order of first use in the final answer."""
    cache: bool = True
    cache_ttl: float = 86_400.0
    not_found_below: float = NOT_FOUND_BELOW
    low_confidence_below: float = 0.5
    require_citations: bool = True
    """An answer that cites no source (and is not "not found") falls back to the chunks."""
    attribute: bool = True
    """Cite uncited sentences that one source clearly holds (see `attribute.py`)."""
    verify: bool = True
    """Check every claim against its sources (when the parts have a verifier)."""
    repair: bool = True
    """Move or add citations where another source supports a claim."""
    follow_references: bool = True
    """Add the passages that the top retrieved passages refer to (links, "see section X")."""
    strict: bool = False
    """Unsupported claims: one rewrite with the verdicts as feedback, keep the better
    version, then remove what is still unsupported."""


@dataclass(frozen=True, slots=True)
class Parts:
    """What answering needs: the index, the embedder, the writer and retrieval settings."""

    store: Store
    embedder: Embedder | None
    writer: Writer
    prompt_version: str = ""
    retrieval: RetrievalOptions = field(default_factory=RetrievalOptions)
    reranker: Reranker | None = None
    count_tokens: Counter_ | None = None
    verifier: Verifier | None = None


class _Unusable(Exception):
    """The writer produced nothing that can be shown as an answer."""


async def ask(
    question: str, parts: Parts, options: AskOptions = AskOptions(), *, request_id: str = ""
) -> AsyncIterator[AnswerEvent]:
    """Answer `question` from the index, as events (see the module docstring)."""
    started = time.perf_counter()
    rid = request_id or uuid.uuid4().hex[:16]
    mode = get_mode(options.mode)
    question = " ".join(question.split())
    key = await _cache_key(question, parts, options) if options.cache else ""
    cached = await parts.store.get_cached(key, time.time() - options.cache_ttl) if key else None
    if cached is not None:
        answer = Answer.model_validate_json(cached)
        answer = _timed(answer.model_copy(update={"cached": True, "request_id": rid}), {}, started)
        log_answer(answer)
        async for event in _replay(answer):
            yield event
        return
    timings: dict[str, float] = {}
    hits, linked = await _retrieve(question, parts, options, mode)
    timings["retrieve"] = _ms(started)
    base: dict[str, object] = {
        "question": question,
        "model": parts.writer.name,
        "mode": mode.name,
        "request_id": rid,
    }
    if not options.synthesize or not hits or hits[0].confidence < options.not_found_below:
        answer = _unwritten(base, hits, synthesize=options.synthesize)
        answer = _timed(answer, timings, started)
        if key and options.synthesize:
            await parts.store.put_cached(
                key, answer.model_dump_json(), drop_before=time.time() - 7 * 86400
            )
        log_answer(answer)
        async for event in _replay(answer):
            yield event
        return

    plan, trimmed = await _plan(question, hits, parts, mode)
    sources = list(plan.sources)
    verifier = parts.verifier if options.verify else None
    found = verifying.conflicts(sources) if verifier is not None else []
    if found:
        plan = replace(plan, conflicts=describe(found))
    base |= {"synthesis_mode": plan.grouped, "source_doc_count": document_count(sources)}
    records = [record(source) for source in sources]
    timings["prepare"] = _ms(started) - timings["retrieve"]
    yield SourcesEvent(tuple(records))

    written = _Written()
    try:
        async for event in _write(parts.writer, plan, written, started):
            yield event
        _check(written, sources, options)
    except Exception as error:  # any failure of the writer becomes a fallback, never a crash
        reason = _reason(error, parts.writer)
        log.debug("writer %s failed", parts.writer.name, exc_info=error)
        answer = _timed(_fallback(base, sources, reason), timings | written.timings, started)
        log_answer(answer)
        yield ErrorEvent(reason, tuple(records))
        yield DoneEvent(answer)
        return

    checking = time.perf_counter()
    finish = partial(
        _finish, base, question, sources, options=options, trimmed=trimmed,
        verifier=verifier, found=found,
    )  # fmt: skip
    answer = await finish(written)
    if options.strict and _unsupported(answer):
        answer = await _strict(answer, written, finish, plan, parts, options, started)
    if linked:
        note = f"{linked} source(s) added because retrieved passages refer to them"
        answer = answer.model_copy(update={"warnings": [*answer.warnings, note]})
    timings["verify" if verifier is not None else "finish"] = _ms(checking) - timings.get(
        "retry", 0.0
    )
    answer = _timed(answer, timings | written.timings, started)
    if key:  # before the last event: a consumer may stop reading at `done`
        await parts.store.put_cached(
            key, answer.model_dump_json(), drop_before=time.time() - 7 * 86400
        )
    log_answer(answer)
    yield _verification(answer)
    yield DoneEvent(answer)


def _verification(answer: Answer) -> VerificationEvent:
    return VerificationEvent(
        tuple(answer.claims),
        tuple(answer.conflicts),
        answer.confidence,
        answer.verification,
        answer.low_confidence,
    )


Finish = Callable[..., Awaitable[Answer]]


async def _strict(
    first: Answer,
    written: _Written,
    finish: Finish,
    plan: Plan,
    parts: Parts,
    options: AskOptions,
    started: float,
) -> Answer:
    """Strict mode: rewrite once with the verdicts, keep the better, remove what stays weak.

    The unsupported claims go back to the writer as feedback; the version with more mean
    verified support is kept; its claims that are still unsupported are removed.
    """
    weak = [c.text for c in first.claims if c.label == "unsupported"]
    again = replace(plan, feedback="\n".join(f"- {text}" for text in weak))
    retried = _Written()
    notes = []
    kept, kept_written = first, written
    try:
        async for _ in _write(parts.writer, again, retried, started):
            pass
        _check(retried, plan.sources, options)
    except Exception as error:  # the first answer stands
        log.debug("strict retry failed", exc_info=error)
        notes.append("strict mode: the rewrite failed; kept the first version")
    else:
        second = await finish(retried)
        if _support(second) > _support(first):
            kept, kept_written = second, retried
        which = "second" if kept is second else "first"
        notes.append(f"strict mode: rewrote once with the verdicts; kept the {which} version")
    if _unsupported(kept):
        kept = await finish(kept_written, remove=True)
    summary = kept.verification
    if summary is not None:
        summary = summary.model_copy(update={"regenerated": True})
    return kept.model_copy(update={"verification": summary, "warnings": [*kept.warnings, *notes]})


def _unsupported(answer: Answer) -> bool:
    return answer.verification is not None and answer.verification.unsupported > 0


def _support(answer: Answer) -> float:
    """Mean verified support over claims; an answer without claims scores 0."""
    scores = [c.support or 0.0 for c in answer.claims]
    return sum(scores) / len(scores) if scores else 0.0


async def _retrieve(
    question: str, parts: Parts, options: AskOptions, mode: Mode
) -> tuple[list[Hit], int]:
    """Pass 1, then what the best hits refer to; the hits and how many references added."""
    hits = await retrieve(
        question,
        store=parts.store,
        embedder=parts.embedder,
        k=options.k or min(mode.sources, parts.writer.max_sources or mode.sources),
        options=parts.retrieval,
        reranker=parts.reranker,
    )
    if options.follow_references and options.synthesize and hits:
        return await follow_references(hits, parts.store)
    return list(hits), 0


async def _plan(question: str, hits: Sequence[Hit], parts: Parts, mode: Mode) -> tuple[Plan, int]:
    """Number, boost, trim and compress the sources; returns the plan and how many were cut."""
    sources = numbered(hits)
    if mode.boost_entities:
        sources = boost_entities(sources, question)
    sources, trimmed = await trim(sources, mode.context_tokens, parts.count_tokens)
    if parts.writer.evidence_tokens is not None:
        sources = await evidence.select(
            question, sources, budget=parts.writer.evidence_tokens, embedder=parts.embedder
        )
    grouped = multi_source(sources)
    extra = MULTI_SOURCE_EXTRA_TOKENS if grouped else 0
    plan = Plan(question, tuple(sources), grouped, mode.output_tokens + extra)
    return plan, trimmed


@dataclass(slots=True)
class _Written:
    """What the writer produced, as it arrives."""

    text: str = ""
    invalid_markers: int = 0
    markers: int = 0
    attributed: int = 0
    invalid: list[int] = field(default_factory=list)
    usage: Usage | None = None
    timings: dict[str, float] = field(default_factory=dict)


async def _write(
    writer: Writer, plan: Plan, written: _Written, started: float
) -> AsyncIterator[AnswerEvent]:
    """Stream the writer's output as token and citation events, within its timeout."""
    valid = {source.number: source for source in plan.sources}
    scanner = MarkerStream(refs(plan.sources))
    deadline = asyncio.get_running_loop().time() + writer.timeout
    pieces = aiter(writer.write(plan))
    generating = time.perf_counter()
    try:
        while True:
            try:
                async with asyncio.timeout_at(deadline):
                    piece = await anext(pieces)
            except StopAsyncIteration:
                break
            if isinstance(piece, Usage):
                written.usage = piece
                continue
            if piece and "first_token" not in written.timings:
                written.timings["first_token"] = _ms(started)
            for item in scanner.feed(piece):
                for event in _events(item, valid, written, plan.question):
                    yield event
        for item in scanner.close():
            for event in _events(item, valid, written, plan.question):
                yield event
    finally:
        close = getattr(pieces, "aclose", None)
        if close is not None:
            await close()
        written.timings["generate"] = _ms(generating)


def _events(
    item: object, valid: dict[int, Source], written: _Written, question: str
) -> list[AnswerEvent]:
    if not isinstance(item, Marker):
        text = getattr(item, "text", "")
        written.text += text
        return [TokenEvent(text)] if text else []
    written.markers += 1
    good = [n for n in dict.fromkeys(item.numbers) if n in valid]
    if len(good) < len(item.numbers):
        written.invalid_markers += 1
        written.invalid.extend(
            n for n in item.numbers if n not in valid and n not in written.invalid
        )
    if not good:
        return []
    token = compact(good)
    written.text += token
    cited = [valid[n] for n in good]
    last = written.text[-400:]
    resolved = resolve(token, refs(cited))
    found = citations(cited, resolved, [Claim(text=last, citations=good)], question)
    return [TokenEvent(token), CitationEvent(tuple(good), tuple(found))]


async def _finish(
    base: dict[str, object],
    question: str,
    sources: Sequence[Source],
    written: _Written,
    options: AskOptions,
    *,
    trimmed: int = 0,
    verifier: Verifier | None = None,
    found: Sequence[Found] = (),
    remove: bool = False,
) -> Answer:
    resolved = resolve(written.text, refs(sources))
    text, repeated = drop_repeats(resolved.text)
    text, pointers = drop_pointers(text)
    if repeated or pointers:
        resolved = resolve(text, refs(sources))
    shown = list(sources)
    not_found = says_not_found(text)
    checked = None
    if verifier is not None and not not_found:
        checked = await _verified(text, shown, verifier, repair=options.repair, remove=remove)
        text = checked.text
        resolved = resolve(text, refs(shown))
    if options.renumber and resolved.used:
        order = [*resolved.used, *(s.number for s in sources if s.number not in resolved.used)]
        text, mapping = renumber(text, order)
        shown = sorted((replace(s, number=mapping[s.number]) for s in sources), key=_number)
        resolved = resolve(text, refs(shown))
        found = [replace(f, sources=(mapping[f.sources[0]], mapping[f.sources[1]])) for f in found]
        checked = verifying.renumbered(checked, mapping) if checked else None
    claims = [] if not_found else checked.claims if checked else claims_of(text)
    uncited = [claim.text for claim in claims if not claim.citations]
    warnings = _warnings(resolved, written, shown, not_found, repeated, trimmed)
    if pointers:
        warnings.append(f"dropped {pointers} sentence(s) that only pointed at a source")
    if checked is not None:
        warnings.extend(checked.warnings)
    if uncited:
        warnings.append(f"{len(uncited)} sentence(s) cite no source")
    cited = citations(shown, resolved, claims, question, checked.support if checked else None)
    if not_found:
        confidence = 0.0
    elif checked is not None:
        relevance = {s.number: s.hit.confidence for s in shown}
        signal = verifying.signals(
            claims,
            relevance,
            found,
            markers=written.markers,
            invalid_markers=written.invalid_markers,
        )
        confidence = calibrated(signal)
        summary = checked.summary.model_copy(
            update={"signals": {k: round(v, 4) for k, v in signal.as_dict().items()}}
        )
        checked = replace(checked, summary=summary)
    else:
        confidence = _confidence(cited, claims, written)
    low = not not_found and confidence < options.low_confidence_below
    usage = written.usage
    return Answer(
        **base,  # type: ignore[arg-type]
        answer=NOT_FOUND if not_found and not text.strip() else text,
        citations=cited,
        sources=[record(s) for s in shown],
        claims=claims,
        uncited_claims=uncited,
        conflicts=verifying.conflict_records(found),
        verification=checked.summary if checked else None,
        confidence=confidence,
        low_confidence=low,
        disclaimer=_disclaimer(claims) if low else None,
        not_found=not_found,
        warnings=warnings,
        usage=UsageReport(
            prompt_tokens=usage.prompt_tokens if usage else None,
            completion_tokens=usage.completion_tokens if usage else None,
            markers=written.markers,
            invalid_markers=written.invalid_markers,
        ),
    )


def _disclaimer(claims: Sequence[Claim]) -> str:
    """One line saying why confidence is low: weak support, or weak retrieval."""
    if any(c.label in {"unsupported", "partial"} or not c.citations for c in claims):
        return "Low confidence: the sources only partly support this answer; check the citations."
    return (
        "Low confidence: the passages found match the question only weakly; "
        "check that they answer it."
    )


def _warnings(
    resolved: Resolved,
    written: _Written,
    shown: Sequence[Source],
    not_found: bool,
    repeated: int,
    trimmed: int,
) -> list[str]:
    """What was cleaned up or left out while finishing the answer, one line each."""
    warnings = list(resolved.warnings)
    if written.invalid:
        shown_numbers = ", ".join(f"[{n}]" for n in written.invalid)
        warnings.append(f"removed citation(s) {shown_numbers}: no source has that number")
    unused = [s.number for s in shown if s.number not in resolved.used]
    if unused and not not_found:
        warnings.append(f"source(s) {compact(unused)} were not cited")
    if written.attributed:
        warnings.append(
            f"{written.attributed} citation(s) added by matching uncited sentences to sources"
        )
    if repeated:
        warnings.append(f"dropped {repeated} sentence(s) that repeated an earlier one")
    if trimmed:
        warnings.append(f"{trimmed} lower-ranked source(s) left out to fit the context budget")
    return warnings


async def _verified(
    text: str, shown: Sequence[Source], verifier: Verifier, *, repair: bool, remove: bool
) -> verifying.Checked:
    """Check (and repair) the answer; remove what is unsupported when asked (strict mode)."""
    checked = await verifying.check(text, shown, verifier, repair=repair)
    if not remove:
        return checked
    kept, removed = verifying.without_unsupported(checked.text, checked.claims, checked.review)
    if not removed or not has_words(kept):
        return checked
    again = await verifying.check(kept, shown, verifier, repair=False)
    summary = again.summary.model_copy(
        update={"removed": removed, "repairs": checked.summary.repairs}
    )
    note = f"strict mode: removed {removed} unsupported claim(s)"
    return replace(again, summary=summary, warnings=[*checked.warnings[:-1], note])


def _check(written: _Written, sources: Sequence[Source], options: AskOptions) -> None:
    """Tidy the written text in place; raise `_Unusable` when it cannot be the answer."""
    written.text = strip_layout(written.text)
    if not written.text.strip():
        raise _Unusable("the model returned no text")
    if not has_words(written.text):
        raise _Unusable("the model's answer holds only citation markers")
    if options.attribute:
        tidy = resolve(written.text, refs(sources)).text  # markers inside their sentences
        written.text, written.attributed = attribute(tidy, sources)
    if options.require_citations and not _cites(written) and not says_not_found(written.text):
        raise _Unusable("the model's answer cites no source")


def _cites(written: _Written) -> bool:
    return written.markers > written.invalid_markers or written.attributed > 0


def _number(source: Source) -> int:
    return source.number


def _confidence(cited: Sequence[Citation], claims: Sequence[Claim], written: _Written) -> float:
    """Provisional confidence from verifiable signals, before claim verification.

    Each claim counts as supported with probability 1 - Π(1 - r) over the Pass-1 relevance
    r of the sources it cites (0 when it cites none); the answer's confidence is the mean
    over claims, lowered by half the share of markers that named no source.
    """
    relevance = {citation.number: citation.relevance for citation in cited}
    if not relevance:
        return 0.0
    per_claim = [
        1.0 - math.prod(1.0 - relevance.get(n, 0.0) for n in claim.citations)
        if claim.citations
        else 0.0
        for claim in claims
    ] or [max(relevance.values())]
    invalid = written.invalid_markers / written.markers if written.markers else 0.0
    return round(sum(per_claim) / len(per_claim) * (1 - 0.5 * invalid), 4)


def _unwritten(base: dict[str, object], hits: Sequence[Hit], *, synthesize: bool) -> Answer:
    """The answer when nothing is written: ranked chunks only, or not found."""
    sources = numbered(hits)
    records = [record(source) for source in sources]
    if not synthesize:
        return Answer(
            **base,  # type: ignore[arg-type]
            answer="",
            sources=records,
            source_doc_count=document_count(sources),
            confidence=round(hits[0].confidence, 4) if hits else 0.0,
            warnings=["synthesis off: the sources are the ranked chunks"],
        )
    best = f"{hits[0].confidence:.2f}" if hits else "none"
    return Answer(
        **base,  # type: ignore[arg-type]
        answer=NOT_FOUND,
        sources=records,
        source_doc_count=document_count(sources),
        not_found=True,
        warnings=[f"no source is relevant enough (best Pass-1 confidence: {best})"],
    )


def _fallback(base: dict[str, object], sources: Sequence[Source], reason: str) -> Answer:
    lines = [f"The answer could not be written ({reason}). The most relevant passages:"]
    lines.extend(
        f"[{s.number}] {s.chunk.location}: {' '.join(s.chunk.text.split())[:300]}" for s in sources
    )
    return Answer(
        **base,  # type: ignore[arg-type]
        answer="\n\n".join(lines),
        sources=[record(s) for s in sources],
        fallback=Fallback(reason=reason),
        confidence=0.0,
        warnings=[f"fallback: {reason}"],
    )


def _reason(error: Exception, writer: Writer) -> str:
    if isinstance(error, TimeoutError):
        return f"{writer.name} timed out after {writer.timeout:g} s"
    if isinstance(error, _Unusable):
        return str(error)
    message = str(error) or type(error).__name__
    return f"{writer.name} failed: {message}"


async def _replay(answer: Answer) -> AsyncIterator[AnswerEvent]:
    yield SourcesEvent(tuple(answer.sources))
    if answer.answer:
        yield TokenEvent(answer.answer)
    yield _verification(answer)
    yield DoneEvent(answer)


async def _cache_key(question: str, parts: Parts, options: AskOptions) -> str:
    fields = [
        SCHEMA_VERSION,
        question.casefold(),
        await parts.store.generation(),
        parts.writer.name,
        parts.writer.evidence_tokens,
        parts.prompt_version,
        parts.embedder.name if parts.embedder else None,
        parts.retrieval.fusion,
        parts.retrieval.alpha,
        options.mode,
        options.k,
        options.synthesize,
        options.renumber,
        options.not_found_below,
        parts.verifier.name if parts.verifier and options.verify else None,
        options.repair,
        options.strict,
        options.follow_references,
    ]
    return hashlib.sha256(json.dumps(fields).encode()).hexdigest()


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 2)


def _timed(answer: Answer, timings: dict[str, float], started: float) -> Answer:
    latency = {stage: round(ms, 2) for stage, ms in timings.items()} | {"total": _ms(started)}
    usage = answer.usage.model_copy(update={"latency_ms": latency})
    return answer.model_copy(update={"usage": usage})
