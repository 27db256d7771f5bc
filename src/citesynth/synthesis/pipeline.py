"""Pass 2 for one question: the public steps composed into a stream of events (DESIGN §6).

    sources → token* / citation* → verification → done        (or error → done)

1. A cached answer for the same question and setup replays as the same events (`cached`).
2. `retrieve`: Pass 1 and what the best hits refer to. When the best hit's Pass-1
   confidence is below `not_found_below`, the answer is "Not found in the sources." and no
   model is called.
3. `make_plan`: sources numbered, boosted, trimmed to the budget, compressed for writers
   that want it; multi-source mode when two documents each give two chunks; conflicts named.
4. `write`: the writer's text streams out as `token` and `citation` events.
5. Model error, timeout or unusable output → an `error` event, then `done` with the ranked
   chunks, `fallback.reason` and confidence 0. Never a hang, never a traceback.
6. `finish`: claims verified and repaired, citations resolved, confidence computed; strict
   mode rewrites once. The answer is cached and logged.

A report or an agent composes the same steps differently; nothing here is private to `ask`.
An agent that already searched passes what it found (`found`), and step 2 is skipped (so is
the cache: the answer depends on that search, not only on the question); a report names its
own prompt family and values (`prompt`, `values`: an outline, a digest of earlier sections).
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Mapping, Sequence

from citesynth.answers import Answer
from citesynth.events import DoneEvent, ErrorEvent, Event, SourcesEvent
from citesynth.llm.base import closing
from citesynth.observe import log_answer
from citesynth.synthesis.about import documents_on
from citesynth.synthesis.answerability import (
    TOP,
    Gate,
    gate,
    unanswerable,
    unheard_terms,
)
from citesynth.synthesis.asked import asks_how
from citesynth.synthesis.cache import AnswerCache
from citesynth.synthesis.declined import quote_instead
from citesynth.synthesis.drafting import Draft, elapsed_ms, write
from citesynth.synthesis.finishing import Header, finish, finishing_for, tidy_draft
from citesynth.synthesis.modes import get_mode
from citesynth.synthesis.named import proper_names
from citesynth.synthesis.options import AskOptions
from citesynth.synthesis.outcomes import (
    failure_reason,
    fallback,
    replay,
    timed,
    unwritten,
    verification_event,
)
from citesynth.synthesis.sources import record
from citesynth.synthesis.steps import Parts, Retrieved, planned, retrieve
from citesynth.synthesis.strict import rewrite_strictly, unsupported
from citesynth.synthesis.things import things_asked
from citesynth.synthesis.writers import Plan
from citesynth.types import Chunk

log = logging.getLogger("citesynth.answer")


async def ask(
    question: str,
    parts: Parts,
    options: AskOptions = AskOptions(),
    *,
    cache: AnswerCache | None = None,
    request_id: str = "",
    found: Retrieved | None = None,
    prompt: str = "answer",
    values: Mapping[str, str] | None = None,
) -> AsyncIterator[Event]:
    """Answer `question` from the index (or from `found`), as events (see the module docstring)."""
    started = time.perf_counter()
    mode = get_mode(options.mode)
    header = Header.of(question, parts.writer.name, mode.name, request_id)
    cache = cache if found is None else None
    key, cached = await _lookup(cache, header.question, parts, options)
    if cached is not None:
        answer = cached.model_copy(update={"cached": True, "request_id": header.request_id})
        async for event in _delivered(timed(answer, {}, started), None, ""):
            yield event
        return

    timings: dict[str, float] = {}
    given = found  # an agent's search; else the writer's, capped at what it reads
    found = found or await retrieve(header.question, parts, options, mode)
    timings["retrieve"] = elapsed_ms(started)
    if not options.synthesize or found.best < options.not_found_below or not found.hits:
        answer = timed(
            unwritten(header, found.hits, synthesize=options.synthesize), timings, started
        )
        async for event in _delivered(answer, cache, key if options.synthesize else ""):
            yield event
        return

    verifier = parts.verifier if options.verify else None
    plan, documents = await planned(header.question, found, parts, mode, options, prompt, values)
    judged = (
        await _gated(header.question, plan, parts, verifier, documents)
        if options.answerability
        else None
    )
    if judged is not None and not judged.answerable:
        answer = timed(unanswerable(header, plan.sources, judged), timings, started)
        async for event in _delivered(answer, cache, key):
            yield event
        return
    records = tuple(record(source) for source in plan.sources)
    timings["prepare"] = elapsed_ms(started) - timings["retrieve"]
    yield SourcesEvent(request_id=header.request_id, sources=records)

    how = finishing_for(header.question, plan, verifier, options)
    draft = Draft()
    try:
        async for event in write(parts.writer, plan, draft, started):
            yield event
        tidy_draft(draft, plan, options, how)
    except Exception as error:  # any failure of the writer becomes a fallback, never a crash
        reason = failure_reason(error, parts.writer)
        log.debug("writer %s failed", parts.writer.name, exc_info=error)
        answer = fallback(header, plan.sources, reason, grouped=plan.grouped)
        answer = timed(answer, timings | draft.timings, started)
        log_answer(answer)
        yield ErrorEvent(request_id=header.request_id, message=reason, fallback=records)
        yield DoneEvent(answer=answer)
        return

    checking = time.perf_counter()
    answer = await finish(header, plan, draft, how)
    if options.strict and unsupported(answer):
        answer = await rewrite_strictly(
            answer,
            draft,
            header=header,
            plan=plan,
            writer=parts.writer,
            how=how,
            attribute_uncited=options.attribute,
            require_citations=options.require_citations,
        )
    answer = await quote_instead(answer, judged, header, plan, given, parts, mode, options)
    if plan.linked:
        note = f"{plan.linked} source(s) added because retrieved passages refer to them"
        answer = answer.model_copy(update={"warnings": [*answer.warnings, note]})
    timings["verify" if verifier is not None else "finish"] = elapsed_ms(checking)
    answer = timed(answer, timings | draft.timings, started)
    if cache and key:  # before the last event: a consumer may stop reading at `done`
        await cache.put(key, answer)
    log_answer(answer)
    yield verification_event(answer)
    yield DoneEvent(answer=answer)


async def _gated(
    question: str,
    plan: Plan,
    parts: Parts,
    verifier: object,
    documents: Mapping[str, Sequence[Chunk]],
) -> Gate | None:
    """The answerability gate's verdict on the plan's sources (`answerability.gate`).

    The index is asked for the question's unheard terms (`unheard_terms`: names the
    documents never write are a not-found; they keep a how-to question at the scorer's
    threshold) only when they can decide something: for a how-to question, one naming
    something capitalised (`named.proper_names`) or one asking whether a thing exists or
    which of a kind (`things.things_asked`); the sources' `documents`, read once for the
    question (`about.read_documents`), tell what a how-to question's names are on.
    """
    named = asks_how(question) or proper_names(question) or things_asked(question)
    unheard = await unheard_terms(question, parts.store) if named else ()
    subjects = {name for source in plan.sources[:TOP] for name in source.named}
    topics = documents_on(question, documents) if asks_how(question) else {}
    return await gate(
        question, plan.sources, verifier, unheard=unheard, subjects=subjects, topics=topics
    )


async def _lookup(
    cache: AnswerCache | None, question: str, parts: Parts, options: AskOptions
) -> tuple[str, Answer | None]:
    """The cache key for this question and setup ("" when not caching) and a cached answer."""
    if cache is None or not options.cache:
        return "", None
    key = await cache.key(question, parts, options)
    return key, await cache.get(key, options.cache_ttl)


async def final_answer(events: AsyncIterator[Event]) -> Answer:
    """The answer carried by the `done` event of a stream (the stream is closed after it)."""
    async with closing(events) as stream:
        async for event in stream:
            if isinstance(event, DoneEvent):
                return event.answer
    raise RuntimeError("the answer stream ended without a done event")


async def _delivered(answer: Answer, cache: AnswerCache | None, key: str) -> AsyncIterator[Event]:
    """An answer decided without writing: cached (under `key`), logged, replayed as events."""
    if cache and key:
        await cache.put(key, answer)
    log_answer(answer)
    async for event in replay(answer):
        yield event
