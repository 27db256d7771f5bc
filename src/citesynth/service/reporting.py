"""Report requests: `POST /api/reports` (JSON), `/api/reports/stream` (SSE), kept by id."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from pydantic import Field

from citesynth.engine import Conversation, Engine
from citesynth.errors import ConfigError
from citesynth.events import ErrorEvent, Event, sse
from citesynth.report import Report, ReportDone, WebSearch
from citesynth.service.config import ServiceConfig
from citesynth.service.schemas import ConversationId, _Body
from citesynth.service.state import Book, Bounded
from citesynth.service.streaming import Item, frames


class ReportRequest(_Body):
    """A report to write, with the same option names as `citesynth report`."""

    question: str = Field(min_length=1, max_length=4000)
    model: str | None = Field(default=None, max_length=200, description="As for --model")
    max_words: int | None = Field(
        default=None, ge=50, le=20_000, description="Default: the server's report_words"
    )
    outline: str | None = Field(
        default=None, max_length=20_000, description="One subtopic per heading, item or line"
    )
    title: str | None = Field(default=None, max_length=300)
    judge: str | None = Field(
        default=None, max_length=200, description="A model that scores and revises the report"
    )
    web: bool = Field(default=False, description="Also search the web (the server's search API)")
    conversation_id: str | None = ConversationId


class Reporting:
    """Writes reports with the engine and keeps the finished ones by request id."""

    def __init__(
        self,
        engine: Engine,
        config: ServiceConfig,
        conversations: Bounded[str, Conversation] | None = None,
    ) -> None:
        self.engine = engine
        self.config = config
        self.book: Book[Report] = Book(config.answers_kept)
        self.conversations = conversations or Bounded(config.conversations_kept)

    def events(self, body: ReportRequest, request_id: str) -> AsyncIterator[Event]:
        """The report's progress events and, last, `report_done`."""
        searcher = WebSearch.from_env() if body.web else None
        if body.web and searcher is None:
            raise ConfigError("this server has no web search configured (CITESYNTH_WEB_SEARCH_KEY)")
        self.book.start(request_id)
        engine = self.engine.with_model(body.model) if body.model else self.engine
        writer: Engine | Conversation = engine
        if body.conversation_id is not None:  # a follow-up report in a conversation
            history = self.config.history_turns
            writer = self.conversations.setdefault(
                body.conversation_id, lambda: Conversation(engine, history=history)
            )
            writer.switch(engine, {})
        return writer.report(
            body.question,
            max_words=body.max_words,
            outline=body.outline,
            title=body.title,
            judge=body.judge,
            tools=[searcher] if searcher else [],
        )

    async def report(self, body: ReportRequest, request_id: str) -> Report:
        """The finished report (within the report timeout)."""
        try:
            async with asyncio.timeout(self.config.report_timeout):
                async for event in self.events(body, request_id):
                    if isinstance(event, ReportDone):
                        self.book.end(request_id, "done", event.report)
                        return event.report
        except TimeoutError:
            message = f"no report within {self.config.report_timeout:g} s"
            self.book.end(request_id, "failed", message=message)
            raise TimeoutError(message) from None
        except BaseException as error:
            self.book.end(request_id, "failed", message=str(error) or type(error).__name__)
            raise
        raise RuntimeError("the report stream ended without its report")

    async def stream(self, body: ReportRequest, request_id: str) -> AsyncIterator[bytes]:
        """The report as server-sent events: `report_progress`*, then `report_done`."""

        def frame(item: Item) -> tuple[bytes, bool]:
            if item is None:
                return b"", True
            if isinstance(item, BaseException):
                message = (
                    f"no report within {self.config.report_timeout:g} s"
                    if isinstance(item, TimeoutError)
                    else str(item) or type(item).__name__
                )
                self.book.end(request_id, "failed", message=message)
                return sse(ErrorEvent(request_id=request_id, message=message, fallback=())), True
            if isinstance(item, ReportDone):
                self.book.end(request_id, "done", item.report)
                return sse(item), True
            return sse(item), False

        async for data in frames(
            lambda: self.events(body, request_id),
            limit_s=self.config.report_timeout,
            frame=frame,
            on_cancel=lambda: self.book.cancel(request_id),
            name=f"report-{request_id}",
        ):
            yield data
