"""The engine: the one place that turns settings into concrete parts and wires them.

    async with await Engine.open(".citesynth") as engine:
        report = await engine.index(["docs/"])
        hits = await engine.search("how do timeouts work?", k=5)

`SyncEngine` offers the same calls, blocking, for scripts and notebooks.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Coroutine, Sequence
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from citesynth.embed import get_embedder
from citesynth.embed.base import Embedder
from citesynth.events import IndexEvent, IndexFinished
from citesynth.index.sqlite import SQLiteStore
from citesynth.index.store import Store
from citesynth.indexing import IngestOptions, run_index
from citesynth.retrieve.fusion import FusionMethod
from citesynth.retrieve.hybrid import Reranker, RetrievalOptions, retrieve
from citesynth.settings import Settings
from citesynth.types import Hit, IndexReport, IndexStats

T = TypeVar("T")


class Engine:
    """Index documents and search them; later issues add answers and reports."""

    def __init__(
        self,
        *,
        store: Store,
        embedder: Embedder | None,
        root: Path,
        ingest: IngestOptions = IngestOptions(),
        retrieval: RetrievalOptions = RetrievalOptions(),
        reranker: Reranker | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.root = root
        self.ingest = ingest
        self.retrieval = retrieval
        self.reranker = reranker

    @classmethod
    async def open(
        cls,
        index_dir: str | Path | None = None,
        *,
        settings: Settings | None = None,
        reranker: Reranker | None = None,
    ) -> Engine:
        """Open the index at `index_dir` (default `.citesynth`), creating it if needed.

        Paths are shown relative to the folder that holds the index.
        """
        chosen = settings or Settings.from_env()
        if index_dir is not None:
            chosen = replace(chosen, index_dir=Path(index_dir))
        embedder = get_embedder(chosen.embedder)
        store = await SQLiteStore.open(chosen.index_dir)
        fusion: FusionMethod = "rrf" if chosen.fusion == "rrf" else "convex"
        return cls(
            store=store,
            embedder=embedder,
            root=chosen.index_dir.resolve().parent,
            ingest=IngestOptions(
                chosen.chunk_tokens, chosen.overlap_tokens, chosen.max_file_bytes, chosen.exclude
            ),
            retrieval=RetrievalOptions(depth=chosen.depth, fusion=fusion, alpha=chosen.alpha),
            reranker=reranker,
        )

    async def index_events(self, paths: Sequence[str | Path]) -> AsyncIterator[IndexEvent]:
        """Index `paths` (files or folders) incrementally, yielding progress events."""
        async with self.store.writing():
            async for event in run_index(
                paths, store=self.store, root=self.root, embedder=self.embedder, options=self.ingest
            ):
                yield event

    async def index(self, paths: Sequence[str | Path]) -> IndexReport:
        """Index `paths` and return the report."""
        report = IndexReport()
        async for event in self.index_events(paths):
            if isinstance(event, IndexFinished):
                report = event.report
        return report

    async def search(self, query: str, k: int = 10) -> list[Hit]:
        """The `k` best chunks for `query` (BM25, plus dense when an embedder is set)."""
        return await retrieve(
            query,
            store=self.store,
            embedder=self.embedder,
            k=k,
            options=self.retrieval,
            reranker=self.reranker,
        )

    async def stats(self) -> IndexStats:
        """What the index holds."""
        return await self.store.stats(self.embedder.name if self.embedder else None)

    async def close(self) -> None:
        """Release the index."""
        await self.store.close()

    async def __aenter__(self) -> Engine:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()


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
