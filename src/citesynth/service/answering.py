"""Chat requests turned into answer streams: model choice, conversations, SSE, diagnostics."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

from citesynth.answers import Answer
from citesynth.engine import Conversation, Engine
from citesynth.events import DoneEvent, ErrorEvent, Event, sse
from citesynth.service.config import ServiceConfig
from citesynth.service.schemas import ChatRequest, ChatResponse, Diagnostics, RetrievedSource
from citesynth.service.state import Book, Bounded
from citesynth.service.streaming import frames
from citesynth.synthesis.options import AskOverrides


@dataclass
class Request:
    """One chat request on its way: the engine (model) it uses and its conversation."""

    request_id: str
    question: str
    engine: Engine
    overrides: AskOverrides
    conversation_id: str | None = None
    standalone: str | None = None


class Answering:
    """Answers chat requests with the engine, remembering answers and conversations."""

    def __init__(self, engine: Engine, config: ServiceConfig) -> None:
        self.engine = engine
        self.config = config
        self.book: Book[ChatResponse] = Book(config.answers_kept)
        self.conversations: Bounded[str, Conversation] = Bounded(config.conversations_kept)

    def request(self, body: ChatRequest, request_id: str) -> Request:
        """Check `body` and prepare its request (raises `ConfigError` for a bad model).

        The engine answering it is the server's own, or `Engine.with_model(body.model)`.
        """
        overrides = AskOverrides(synthesize=body.synthesize)
        if body.keep_unsupported:
            overrides["keep_unsupported"] = True
        if body.mode is not None:
            overrides["mode"] = body.mode
        if body.k is not None:
            overrides["k"] = body.k
        engine = self.engine.with_model(body.model) if body.model else self.engine
        return Request(request_id, body.question, engine, overrides, body.conversation_id)

    async def events(self, request: Request) -> AsyncIterator[Event]:
        """The answer's events; follow-ups in a conversation are condensed first."""
        self.book.start(request.request_id)
        if request.conversation_id is None:
            stream = request.engine.ask(
                request.question, request_id=request.request_id, **request.overrides
            )
        else:
            history = self.config.history_turns
            conversation = self.conversations.setdefault(
                request.conversation_id, lambda: Conversation(request.engine, history=history)
            )
            conversation.switch(request.engine, request.overrides)
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
            prompt_version=request.engine.prompt_version,
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
        async for data in frames(
            lambda: self.events(request),
            limit_s=self.config.request_timeout,
            frame=lambda item: self._frame(request, item),
            on_cancel=lambda: self.book.cancel(request.request_id),
            name=f"answer-{request.request_id}",
        ):
            yield data

    def _frame(self, request: Request, item: Event | BaseException | None) -> tuple[bytes, bool]:
        if item is None:
            return b"", True
        if isinstance(item, BaseException):
            message = (
                f"no answer within {self.config.request_timeout:g} s"
                if isinstance(item, TimeoutError)
                else _describe(item)
            )
            self.book.end(request.request_id, "failed", message=message)
            failed = ErrorEvent(request_id=request.request_id, message=message, fallback=())
            return sse(failed), True
        if isinstance(item, DoneEvent):
            return sse(DoneEvent(answer=self.respond(request, item.answer))), True
        return sse(item), False


def _describe(error: BaseException) -> str:
    return str(error) or type(error).__name__
