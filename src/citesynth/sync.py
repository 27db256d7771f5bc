"""The engine's calls, blocking, for scripts and notebooks (a loop on a background thread)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar, Unpack

from citesynth.answers import Answer
from citesynth.engine import Engine
from citesynth.report import Report
from citesynth.settings import Settings
from citesynth.synthesis.options import AskOverrides
from citesynth.types import Hit, IndexReport, IndexStats

T = TypeVar("T")


class SyncEngine:
    """The engine's calls, blocking: it runs its own event loop on a background thread.

    Works where an event loop is already running (Jupyter), unlike `asyncio.run`.
    """

    def __init__(
        self, index_dir: str | Path | None = None, *, settings: Settings | None = None
    ) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="citesynth-sync", daemon=True
        )
        self._thread.start()
        try:
            self.engine = self._call(Engine.open(index_dir, settings=settings))
        except BaseException:
            self._stop()
            raise

    def _call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def index(self, paths: Sequence[str | Path]) -> IndexReport:
        """Index `paths` and return the report."""
        return self._call(self.engine.index(paths))

    def search(self, query: str, k: int = 10) -> list[Hit]:
        """The `k` best chunks for `query`."""
        return self._call(self.engine.search(query, k))

    def answer(self, question: str, **overrides: Unpack[AskOverrides]) -> Answer:
        """The finished answer to `question`."""
        return self._call(self.engine.answer(question, **overrides))

    def report(
        self,
        question: str,
        *,
        max_words: int | None = None,
        outline: str | None = None,
        title: str | None = None,
        judge: str | None = None,
        **overrides: Unpack[AskOverrides],
    ) -> Report:
        """The finished research report on `question` (docs/reports.md)."""
        return self._call(
            self.engine.write_report(
                question,
                max_words=max_words,
                outline=outline,
                title=title,
                judge=judge,
                **overrides,
            )
        )

    def stats(self) -> IndexStats:
        """What the index holds."""
        return self._call(self.engine.stats())

    def close(self) -> None:
        """Release the index and stop the background loop."""
        try:
            self._call(self.engine.close())
        finally:
            self._stop()

    def _stop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def __enter__(self) -> SyncEngine:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
