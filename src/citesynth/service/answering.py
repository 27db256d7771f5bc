"""Chat requests turned into answer streams: model choice, conversations, SSE, diagnostics."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from citesynth.answers import Answer
from citesynth.engine import Conversation, Engine
from citesynth.events import (
    AnswerEvent,
    CitationEvent,
    DoneEvent,
    ErrorEvent,
    SourcesEvent,
    TokenEvent,
    VerificationEvent,
)
from citesynth.service.config import ServiceConfig
from citesynth.service.schemas import ChatRequest, ChatResponse, Diagnostics, RetrievedSource
from citesynth.service.state import AnswerBook, Bounded
from citesynth.synthesis import get_writer
from citesynth.synthesis.prompts import version_of

KEEPALIVE_SECONDS = 15.0
"""A comment line is sent this often while nothing else is, so proxies keep the stream."""


@dataclass
class Request:
    """One chat request on its way: the engine (model) it uses and its conversation."""

    request_id: str
    question: str
    engine: Engine
    options: dict[str, Any]
    conversation_id: str | None = None
    standalone: str | None = None


class Answering:
    """Answers chat requests with the engine, remembering answers and conversations."""

    def __init__(self, engine: Engine, config: ServiceConfig) -> None:
        self.engine = engine
        self.config = config
        self.book = AnswerBook(config.answers_kept)
        self.conversations: Bounded[str, Conversation] = Bounded(config.conversations_kept)
        self._engines: dict[str, Engine] = {engine.writer.name: engine}

    def engine_for(self, model: str | None) -> Engine:
        """The engine answering with `model` (the server's own when None).

        Raises:
            ConfigError: unknown model, or one whose extra or key is missing.
        """
        if not model:
            return self.engine
        if model not in self._engines:
            writer = get_writer(
                model,
                embedder=self.engine.embedder,
                prompts=self.engine.prompts,
                timeout=self.engine.writer.timeout,
            )
            chosen = self._engines.get(writer.name)
            if chosen is None:
                chosen = copy.copy(self.engine)  # shares the index, the embedder, the verifier
                chosen.writer = writer
                self._engines[writer.name] = chosen
            self._engines[model] = chosen
        return self._engines[model]

    def request(self, body: ChatRequest, request_id: str) -> Request:
        """Check `body` and prepare its request (raises `ConfigError` for a bad model)."""
        options: dict[str, Any] = {"synthesize": body.synthesize}
        if body.mode is not None:
            options["mode"] = body.mode
        if body.k is not None:
            options["k"] = body.k
        engine = self.engine_for(body.model)
        return Request(request_id, body.question, engine, options, body.conversation_id)

    async def events(self, request: Request) -> AsyncIterator[AnswerEvent]:
        """The answer's events; follow-ups in a conversation are condensed first."""
        self.book.start(request.request_id)
        if request.conversation_id is None:
            stream = request.engine.ask(
                request.question, request_id=request.request_id, **request.options
            )
        else:
            history = self.config.history_turns
            conversation = self.conversations.setdefault(
                request.conversation_id, lambda: Conversation(request.engine, history=history)
            )
            conversation.engine, conversation.options = request.engine, request.options
            request.standalone = await conversation.standalone(request.question)
            stream = conversation.ask_standalone(
                request.question, request.standalone, request_id=request.request_id
            )
        async for event in stream:
            yield event

    def respond(self, request: Request, answer: Answer) -> ChatResponse:
        """The answer with its diagnostics; remembered under its request id."""
        diagnostics = Diagnostics(
            retrieval=[
                RetrievedSource(
                    number=s.number,
                    chunk_id=s.chunk_id,
                    location=s.location,
                    score=s.score,
                    confidence=s.confidence,
                )
                for s in answer.sources
            ],
            timings_ms=dict(answer.usage.latency_ms),
            model=answer.model,
            prompt_version=version_of(request.engine.prompts),
            cache_hit=answer.cached,
            conversation_id=request.conversation_id,
            standalone_question=request.standalone,
        )
        response = ChatResponse(**dict(answer), diagnostics=diagnostics)
        self.book.end(request.request_id, "done", response)
        return response

    async def answer(self, request: Request) -> ChatResponse:
        """The finished answer (within the request timeout)."""
        try:
            async with asyncio.timeout(self.config.request_timeout):
                async for event in self.events(request):
                    if isinstance(event, DoneEvent):
                        return self.respond(request, event.answer)
        except TimeoutError:
            message = f"no answer within {self.config.request_timeout:g} s"
            self.book.end(request.request_id, "failed", message=message)
            raise TimeoutError(message) from None
        except BaseException as error:
            self.book.end(request.request_id, "failed", message=_describe(error))
            raise
        raise RuntimeError("the answer stream ended without a done event")

    async def stream(self, request: Request) -> AsyncIterator[bytes]:
        """The answer as server-sent events (DESIGN §6); stops the model if the client goes."""
        queue: asyncio.Queue[AnswerEvent | BaseException | None] = asyncio.Queue(maxsize=256)

        async def pump() -> None:
            try:
                async with asyncio.timeout(self.config.request_timeout):
                    async for event in self.events(request):
                        await queue.put(event)
                await queue.put(None)
            except Exception as error:  # sent to the client as an `error` event
                await queue.put(error)

        task = asyncio.create_task(pump(), name=f"answer-{request.request_id}")
        finished = False
        try:
            while not finished:
                try:
                    item = await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    yield b": keep-alive\n\n"
                    continue
                frame, finished = self._frame(request, item)
                if frame:
                    yield frame
        finally:
            if not task.done():
                task.cancel()  # the client went away: stop the model call
                entry = self.book.get(request.request_id)
                if entry is not None and entry.status == "running":
                    self.book.end(request.request_id, "cancelled", message="the client went away")

    def _frame(
        self, request: Request, item: AnswerEvent | BaseException | None
    ) -> tuple[bytes, bool]:
        if item is None:
            return b"", True
        if isinstance(item, BaseException):
            message = (
                f"no answer within {self.config.request_timeout:g} s"
                if isinstance(item, TimeoutError)
                else _describe(item)
            )
            self.book.end(request.request_id, "failed", message=message)
            payload = {"request_id": request.request_id, "message": message, "fallback": []}
            return sse("error", payload), True
        if isinstance(item, DoneEvent):
            response = self.respond(request, item.answer)
            return sse("done", response.model_dump(mode="json")), True
        return sse(item.kind, event_payload(item, request.request_id)), False


def event_payload(event: AnswerEvent, request_id: str) -> dict[str, Any]:
    """The JSON body of a stream event (DESIGN §6)."""
    if isinstance(event, SourcesEvent):
        sources = [s.model_dump(mode="json") for s in event.sources]
        return {"request_id": request_id, "sources": sources}
    if isinstance(event, TokenEvent):
        return {"text": event.text}
    if isinstance(event, CitationEvent):
        cited = [c.model_dump(mode="json") for c in event.citations]
        return {"numbers": list(event.numbers), "citations": cited}
    if isinstance(event, VerificationEvent):
        return {
            "claims": [c.model_dump(mode="json") for c in event.claims],
            "conflicts": [c.model_dump(mode="json") for c in event.conflicts],
            "confidence": event.confidence,
            "low_confidence": event.low_confidence,
            "summary": event.summary.model_dump(mode="json") if event.summary else None,
        }
    if isinstance(event, ErrorEvent):
        fallback = [s.model_dump(mode="json") for s in event.fallback]
        return {"request_id": request_id, "message": event.message, "fallback": fallback}
    return {"answer": event.answer.model_dump(mode="json")}


def sse(event: str, data: dict[str, Any]) -> bytes:
    """One server-sent event."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


def _describe(error: BaseException) -> str:
    return str(error) or type(error).__name__
