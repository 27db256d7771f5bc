"""The engine: the one place that turns settings into concrete parts and wires them.

    async with await Engine.open(".citesynth") as engine:
        report = await engine.index(["docs/"])
        hits = await engine.search("how do timeouts work?", k=5)
        answer = await engine.answer("how do timeouts work?")
        async for event in engine.ask("how do timeouts work?"):
            ...  # sources, token, citation, verification, done (or error, done)

`SyncEngine` offers the same calls, blocking, for scripts and notebooks.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Coroutine, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, TypeVar

from citesynth.answers import Answer
from citesynth.embed import get_embedder
from citesynth.embed.base import Embedder
from citesynth.events import AnswerEvent, DoneEvent, IndexEvent, IndexFinished
from citesynth.index.sqlite import SQLiteStore
from citesynth.index.store import Store
from citesynth.indexing import IngestOptions, run_index
from citesynth.retrieve.fusion import FusionMethod
from citesynth.retrieve.hybrid import Reranker, RetrievalOptions, retrieve
from citesynth.settings import Settings
from citesynth.synthesis import ExtractiveWriter, Writer, get_writer
from citesynth.synthesis.chat import Turn, condense, recent
from citesynth.synthesis.pipeline import AskOptions, Parts, ask
from citesynth.synthesis.prompts import BUILT_IN, Prompt, version_of
from citesynth.synthesis.prompts import load as load_prompts
from citesynth.types import Hit, IndexedFile, IndexReport, IndexStats
from citesynth.verify import LexicalVerifier, Verifier, get_verifier

T = TypeVar("T")


class Engine:
    """Index documents, search them, and answer questions from them with citations."""

    def __init__(
        self,
        *,
        store: Store,
        embedder: Embedder | None,
        root: Path,
        ingest: IngestOptions = IngestOptions(),
        retrieval: RetrievalOptions = RetrievalOptions(),
        reranker: Reranker | None = None,
        writer: Writer | None = None,
        prompts: Mapping[str, Prompt] | None = None,
        answering: AskOptions | None = None,
        verifier: Verifier | Literal["default"] | None = "default",
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.root = root
        self.ingest = ingest
        self.retrieval = retrieval
        self.reranker = reranker
        self.prompts = dict(prompts or BUILT_IN)
        self.writer = writer or ExtractiveWriter(embedder)
        self.answering = answering or AskOptions()
        self.verifier = LexicalVerifier() if verifier == "default" else verifier
        """Checks every answer's claims (None: answers are not verified)."""

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
        prompts = load_prompts(chosen.prompts_dir)
        writer = get_writer(
            chosen.model, embedder=embedder, prompts=prompts, timeout=chosen.timeout or None
        )
        verifier = None if chosen.verifier == "none" else get_verifier(chosen.verifier)
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
            writer=writer,
            prompts=prompts,
            verifier=verifier,
            answering=AskOptions(
                mode=chosen.mode,
                cache=chosen.cache_ttl > 0,
                cache_ttl=chosen.cache_ttl,
                not_found_below=chosen.not_found_below,
                strict=chosen.strict,
            ),
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

    def ask(
        self, question: str, *, request_id: str = "", **options: Any
    ) -> AsyncIterator[AnswerEvent]:
        """Answer `question`, streaming the events of DESIGN §6.

        `options` override the engine's `AskOptions` for this call: `mode`, `k`,
        `synthesize`, `renumber`, `cache`, `not_found_below`, `require_citations`, ...
        `request_id` names the answer (a random one when empty).
        """
        chosen = replace(self.answering, **options)
        return ask(question, self._parts(), chosen, request_id=request_id)

    async def answer(self, question: str, *, request_id: str = "", **options: Any) -> Answer:
        """The finished answer to `question` (the `done` event of `ask`)."""
        return await final_answer(self.ask(question, request_id=request_id, **options))

    async def files(self) -> list[IndexedFile]:
        """Every indexed file, with its document and chunk counts."""
        return await self.store.files()

    async def forget(self, paths: Sequence[str]) -> IndexReport:
        """Drop these indexed files (absolute paths, as `files()` gives) from the index.

        The files on disk are left alone; indexing their folder again brings them back.
        """
        known = await self.store.file_states()
        gone = [path for path in paths if path in known]
        if not gone:
            return IndexReport()
        async with self.store.writing():
            result = await self.store.write([], gone)
            await self.store.prune_vectors()
        return IndexReport(removed=len(gone), chunks_removed=result.chunks_removed)

    def chat(self, *, history: int = 6, **options: Any) -> Conversation:
        """A multi-turn conversation that keeps the last `history` turns."""
        return Conversation(self, history=history, **options)

    def _parts(self) -> Parts:
        counter = getattr(getattr(self.writer, "model", None), "count_tokens", None)
        return Parts(
            store=self.store,
            embedder=self.embedder,
            writer=self.writer,
            prompt_version=version_of(self.prompts),
            retrieval=self.retrieval,
            reranker=self.reranker,
            count_tokens=counter,
            verifier=self.verifier,
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


async def final_answer(events: AsyncIterator[AnswerEvent]) -> Answer:
    """The answer carried by the `done` event of a stream."""
    async for event in events:
        if isinstance(event, DoneEvent):
            return event.answer
    raise RuntimeError("the answer stream ended without a done event")


class Conversation:
    """Questions in a row: follow-ups are condensed into standalone questions first."""

    def __init__(self, engine: Engine, *, history: int = 6, **options: Any) -> None:
        self.engine = engine
        self.limit = history
        self.options = options
        self.turns: list[Turn] = []

    async def standalone(self, question: str) -> str:
        """`question` rewritten to stand on its own, given the recent turns."""
        model = getattr(self.engine.writer, "model", None)
        return await condense(question, recent(self.turns, self.limit), model, self.engine.prompts)

    async def ask(self, question: str, *, request_id: str = "") -> AsyncIterator[AnswerEvent]:
        """Answer a follow-up, streaming events; the turn is remembered when done."""
        standalone = await self.standalone(question)
        async for event in self.ask_standalone(question, standalone, request_id=request_id):
            yield event

    async def ask_standalone(
        self, question: str, standalone: str, *, request_id: str = ""
    ) -> AsyncIterator[AnswerEvent]:
        """Answer `standalone` (the rewritten `question`) and remember the turn."""
        async for event in self.engine.ask(standalone, request_id=request_id, **self.options):
            if isinstance(event, DoneEvent):
                self.turns.append(Turn(question, standalone, event.answer.answer))
                self.turns = recent(self.turns, self.limit)
            yield event

    async def answer(self, question: str) -> Answer:
        """The finished answer to a follow-up."""
        return await final_answer(self.ask(question))


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

    def answer(self, question: str, **options: Any) -> Answer:
        """The finished answer to `question`."""
        return self._call(self.engine.answer(question, **options))

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
