"""The engine: the one place that turns settings into concrete parts and wires them.

    async with await Engine.open(".citesynth") as engine:
        report = await engine.index(["docs/"])
        hits = await engine.search("how do timeouts work?", k=5)
        answer = await engine.answer("how do timeouts work?", mode="deep")
        async for event in engine.ask("how do timeouts work?"):
            ...  # sources, token, citation, verification, done (or error, done)

The command line, the service, MCP and the evaluation talk to the engine only.
`citesynth.sync.SyncEngine` offers the same calls, blocking, for scripts and notebooks.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Literal, TypeVar, Unpack

from citesynth.answers import Answer
from citesynth.embed import get_embedder, spec_of
from citesynth.embed.base import Embedder
from citesynth.errors import ConfigError
from citesynth.events import DoneEvent, Event, IndexEvent, IndexFinished
from citesynth.index.store import Store
from citesynth.index.stores import get_store, location_folder
from citesynth.indexing import EmbedderRecord, IngestOptions, recorded_embedder, run_index
from citesynth.ingest.loaders import loader_for
from citesynth.llm import get_model
from citesynth.llm.base import ChatModel, TokenCounter, closing
from citesynth.report import (
    DEFAULT_WORDS,
    Report,
    ReportDone,
    ReportOptions,
    ReportProgress,
    Tool,
    write_report,
)
from citesynth.retrieve.hybrid import Reranker, RetrievalOptions, retrieve
from citesynth.retrieve.subjects import subjects
from citesynth.settings import Settings
from citesynth.synthesis import ExtractiveWriter, Writer, get_writer
from citesynth.synthesis.cache import AnswerCache
from citesynth.synthesis.chat import Turn, condense, recent
from citesynth.synthesis.extractive import scorer
from citesynth.synthesis.options import AskOptions, AskOverrides
from citesynth.synthesis.pipeline import ask
from citesynth.synthesis.pipeline import final_answer as final_answer  # re-exported
from citesynth.synthesis.prompts import BUILT_IN, Prompt, version_of
from citesynth.synthesis.prompts import load as load_prompts
from citesynth.synthesis.steps import Parts
from citesynth.types import Chunk, Document, Hit, IndexedFile, IndexReport, IndexStats
from citesynth.verify import Verifier, get_verifier

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
        timeout: float | None = None,
        report_words: int = DEFAULT_WORDS,
        report_judge: str = "",
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.root = root
        self.ingest = ingest
        self.retrieval = retrieval
        self.reranker = reranker
        self.prompts = dict(prompts or BUILT_IN)
        self.verifier = get_verifier("default") if verifier == "default" else verifier
        """Checks every answer's claims (None: answers are not verified)."""
        self.writer: Writer = writer or ExtractiveWriter(embedder, scorer=scorer(self.verifier))
        self.answering = answering or AskOptions()
        """The answering defaults; each call may override them by name."""
        self.timeout = timeout
        """The configured writer time limit (None: each writer's default)."""
        self.report_words = report_words
        """A report's length limit in words when a call gives none."""
        self.report_judge = report_judge
        """The model that judges reports when a call names none (empty: none)."""
        self.cache = AnswerCache(store)
        self._variants: dict[str, Engine] = {}
        self._owns_store = True

    @classmethod
    async def open(
        cls,
        index_dir: str | Path | None = None,
        *,
        settings: Settings | None = None,
        reranker: Reranker | None = None,
        create: bool = True,
        indexing: bool = False,
    ) -> Engine:
        """Open the index at `index_dir`, creating it when `create`.

        `index_dir` is a folder (default `.citesynth`) or any store location
        (`sqlite:PATH`, `postgresql://USER@HOST/DB`).

        Paths are shown relative to the folder that holds the index. The embedder is the one
        the index was built with when the settings say `auto`; an explicit other one is
        refused, unless the engine is opened for `indexing`, which re-embeds with it.

        Raises:
            ConfigError: a setting names an unknown or unusable part, or an embedder other
                than the index's (the message says why and what to do).
            StoreError: the index cannot be opened (or does not exist and `create` is off).
        """
        chosen = settings or Settings.from_env()
        if index_dir is not None:
            chosen = _located(chosen, index_dir)
        prompts = load_prompts(chosen.prompts_dir)
        timeout = chosen.timeout or None
        verifier = None if chosen.verifier == "none" else get_verifier(chosen.verifier)
        store = await get_store(chosen.store_location, create=create)
        try:
            recorded = await recorded_embedder(store)
            embedder = _embedder(chosen, recorded, indexing=indexing)
            writer = get_writer(
                chosen.model,
                embedder=embedder,
                prompts=prompts,
                timeout=timeout,
                scorer=scorer(verifier),
            )
        except BaseException:
            await store.close()
            raise
        return cls(
            store=store,
            embedder=embedder,
            root=chosen.root_dir,
            ingest=chosen.ingest_options(),
            retrieval=chosen.retrieval_options(),
            reranker=reranker,
            writer=writer,
            prompts=prompts,
            verifier=verifier,
            answering=chosen.ask_options(),
            report_words=chosen.report_words,
            report_judge=chosen.report_judge,
            timeout=timeout,
        )

    # -- variants -------------------------------------------------------------------------

    def with_writer(self, writer: Writer) -> Engine:
        """This engine answering with `writer`: the same index, embedder, verifier and cache.

        Closing the variant leaves the shared index open; close the original.
        """
        return self._variant(writer, self.embedder)

    def without_dense(self) -> Engine:
        """This engine searching with BM25 alone (no embedder), sharing everything else."""
        return self._variant(self.writer, None)

    def with_model(self, name: str, *, timeout: float | None = None) -> Engine:
        """This engine answering with the model (or writer) called `name`; kept for reuse.

        `timeout` overrides the writer's time limit (default: the configured one).

        Raises:
            ConfigError: unknown model, or one whose extra or key is missing.
        """
        key = f"{name}@{timeout}"
        if key not in self._variants:
            writer = get_writer(
                name,
                embedder=self.embedder,
                prompts=self.prompts,
                timeout=timeout or self.timeout,
                scorer=scorer(self.verifier),
            )
            same = writer.name == self.writer.name and writer.timeout == self.writer.timeout
            self._variants[key] = self if same else self.with_writer(writer)
        return self._variants[key]

    def _variant(self, writer: Writer, embedder: Embedder | None) -> Engine:
        variant = Engine(
            store=self.store,
            embedder=embedder,
            root=self.root,
            ingest=self.ingest,
            retrieval=self.retrieval,
            reranker=self.reranker,
            writer=writer,
            prompts=self.prompts,
            answering=self.answering,
            verifier=self.verifier,
            timeout=self.timeout,
            report_words=self.report_words,
            report_judge=self.report_judge,
        )
        variant._owns_store = False
        return variant

    @property
    def prompt_version(self) -> str:
        """One version string for the prompts in use (part of every answer's cache key)."""
        return version_of(self.prompts)

    # -- indexing -------------------------------------------------------------------------

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

    @staticmethod
    def indexable(name: str) -> bool:
        """Whether a file called `name` has a loader (by its extension or name)."""
        return loader_for(name) is not None

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

    async def stats(self, *, vectors: bool = True) -> IndexStats:
        """What the index holds.

        `vectors=False` skips counting the embedded chunks, a join over every chunk that
        takes a second on a database of a million: health checks and start-up skip it.
        """
        model = self.embedder.name if self.embedder and vectors else None
        return await self.store.stats(model)

    # -- reading --------------------------------------------------------------------------

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

    async def subjects(self) -> tuple[str, ...]:
        """What the whole corpus is about ("Click" for the Click docs; `retrieve.subjects`).

        The verifiers read every source under these names, as its outermost title: a claim
        naming the product its documentation never repeats is not adding a name.
        """
        return await subjects(self.store)

    async def source(self, chunk_id: str) -> tuple[Chunk, Document] | None:
        """The chunk with this id and the whole document it was cut from (None: not indexed)."""
        return await self.store.chunk_in_document(chunk_id)

    def parts(self) -> Parts:
        """What the answering steps need, as this engine has them."""
        model = self.writer.model
        counter = model.count_tokens if isinstance(model, TokenCounter) else None
        return Parts(
            store=self.store,
            embedder=self.embedder,
            writer=self.writer,
            prompt_version=self.prompt_version,
            retrieval=self.retrieval,
            reranker=self.reranker,
            count_tokens=counter,
            verifier=self.verifier,
        )

    def options(self, **overrides: Unpack[AskOverrides]) -> AskOptions:
        """The engine's answering defaults with `overrides` applied."""
        return replace(self.answering, **overrides)

    def ask(
        self, question: str, *, request_id: str = "", **overrides: Unpack[AskOverrides]
    ) -> AsyncIterator[Event]:
        """Answer `question`, streaming the events of DESIGN §6.

        `overrides` replace the engine's `AskOptions` for this call (`mode`, `k`,
        `synthesize`, `renumber`, `cache`, `not_found_below`, ...). `request_id` names the
        answer (a random one when empty).
        """
        chosen = self.options(**overrides)
        return ask(question, self.parts(), chosen, cache=self.cache, request_id=request_id)

    async def answer(
        self, question: str, *, request_id: str = "", **overrides: Unpack[AskOverrides]
    ) -> Answer:
        """The finished answer to `question` (the `done` event of `ask`)."""
        return await final_answer(self.ask(question, request_id=request_id, **overrides))

    def report(
        self,
        question: str,
        *,
        max_words: int | None = None,
        outline: str | None = None,
        title: str | None = None,
        tools: Sequence[Tool] = (),
        judge: str | ChatModel | None = None,
        **overrides: Unpack[AskOverrides],
    ) -> AsyncIterator[ReportProgress | ReportDone]:
        """A research report on `question`: progress events, then `ReportDone` (docs/reports.md).

        `outline` is the text of an outline (one subtopic per heading, item or line);
        `tools` are research tools beside the corpus search; `judge` is a chat model (or
        its name, as `get_model` takes it, also as the verifier's `judge:NAME`) that scores
        the report and has it revised, by default the configured `report_judge`;
        `overrides` apply to every section as they do to `ask`.
        """
        chosen = judge if judge is not None else (self.report_judge or None)
        if isinstance(chosen, str):
            chosen = get_model(chosen.removeprefix("judge:"))
        how = ReportOptions(
            max_words=max_words or self.report_words,
            outline=outline,
            title=title,
            tools=tuple(tools),
            judge=chosen,
        )
        return write_report(question, self.parts(), self.prompts, self.options(**overrides), how)

    async def write_report(
        self,
        question: str,
        *,
        max_words: int | None = None,
        outline: str | None = None,
        title: str | None = None,
        judge: str | ChatModel | None = None,
        **overrides: Unpack[AskOverrides],
    ) -> Report:
        """The finished report on `question` (the last event of `report`)."""
        events = self.report(
            question, max_words=max_words, outline=outline, title=title, judge=judge, **overrides
        )
        async with closing(events) as stream:
            async for event in stream:
                if isinstance(event, ReportDone):
                    return event.report
        raise RuntimeError("the report stream ended without its report")

    def chat(self, *, history: int = 6, **overrides: Unpack[AskOverrides]) -> Conversation:
        """A multi-turn conversation that keeps the last `history` turns."""
        return Conversation(self, history=history, **overrides)

    async def close(self) -> None:
        """Release the index (a variant made by `with_writer` leaves it to its original)."""
        if self._owns_store:
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


def _located(settings: Settings, where: str | Path) -> Settings:
    """`settings` with the index at `where`: a folder, or a store location (`postgresql://…`)."""
    if isinstance(where, str) and location_folder(where) != where:  # a scheme: sqlite:, postgresql:
        return replace(settings, store=where)
    return replace(settings, index_dir=Path(where), store="")


def _embedder(
    settings: Settings, recorded: EmbedderRecord | None, *, indexing: bool
) -> Embedder | None:
    """The embedder to use: as the settings say, reconciled with the one the index records.

    Searching an index with another embedder than it was built with gives scores on another
    scale (or no dense vectors at all), so a conflict is an error, never a quiet fallback.
    """
    asked = settings.embedder.strip().lower()
    if recorded is None:
        return get_embedder(asked)
    built_with = spec_of(recorded.name, recorded.dimension)
    where = settings.store_shown
    if asked == "auto":
        embedder = _recorded(built_with, where)
        if EmbedderRecord.of(embedder) != recorded:
            raise ConfigError(
                f"the index at {where} was built with the embedder {recorded.name!r} "
                f"({recorded.dimension} dimensions), which this install cannot make; "
                f"install it, or re-index with --embedder NAME"
            )
        return embedder
    embedder = get_embedder(asked)
    if indexing or EmbedderRecord.of(embedder) == recorded:
        return embedder
    chosen = EmbedderRecord.of(embedder)
    raise ConfigError(
        f"the index at {where} was built with the embedder {recorded.name!r} "
        f"({recorded.dimension} dimensions), but {chosen.name!r} was asked for "
        f"(--embedder {asked}); leave --embedder out (or pass --embedder {built_with}) to use "
        f"the index as built, or re-index with `citesynth index PATH --embedder {asked}`"
    )


def _recorded(spec: str, where: str) -> Embedder | None:
    try:
        return get_embedder(spec)
    except ConfigError as error:
        raise ConfigError(
            f"the index at {where} was built with the embedder {spec!r}: {error}"
        ) from error


class Conversation:
    """Questions in a row: follow-ups are condensed into standalone questions first."""

    def __init__(
        self, engine: Engine, *, history: int = 6, **overrides: Unpack[AskOverrides]
    ) -> None:
        self.engine = engine
        self.limit = history
        self.overrides = overrides
        self.turns: list[Turn] = []

    def switch(self, engine: Engine, overrides: AskOverrides) -> None:
        """Answer the next turns with `engine` and `overrides` (the turns are kept)."""
        self.engine, self.overrides = engine, overrides

    async def standalone(self, question: str) -> str:
        """`question` rewritten to stand on its own, given the recent turns."""
        model = self.engine.writer.model
        return await condense(question, recent(self.turns, self.limit), model, self.engine.prompts)

    async def ask(self, question: str, *, request_id: str = "") -> AsyncIterator[Event]:
        """Answer a follow-up, streaming events; the turn is remembered when done."""
        standalone = await self.standalone(question)
        async for event in self.ask_standalone(question, standalone, request_id=request_id):
            yield event

    async def ask_standalone(
        self, question: str, standalone: str, *, request_id: str = ""
    ) -> AsyncIterator[Event]:
        """Answer `standalone` (the rewritten `question`) and remember the turn."""
        async for event in self.engine.ask(standalone, request_id=request_id, **self.overrides):
            if isinstance(event, DoneEvent):
                self.turns.append(Turn(question, standalone, event.answer.answer))
                self.turns = recent(self.turns, self.limit)
            yield event

    async def answer(self, question: str) -> Answer:
        """The finished answer to a follow-up."""
        return await final_answer(self.ask(question))

    async def report(
        self,
        question: str,
        *,
        max_words: int | None = None,
        outline: str | None = None,
        title: str | None = None,
        tools: Sequence[Tool] = (),
        judge: str | ChatModel | None = None,
    ) -> AsyncIterator[ReportProgress | ReportDone]:
        """A report on a follow-up ("and now the security side?"), condensed like a question.

        The turn is remembered with the report's executive summary as its answer.
        """
        standalone = await self.standalone(question)
        events = self.engine.report(
            standalone,
            max_words=max_words,
            outline=outline,
            title=title,
            tools=tools,
            judge=judge,
            **self.overrides,
        )
        async for event in events:
            if isinstance(event, ReportDone):
                summary = event.report.markdown.split("## Executive Summary", 1)[-1]
                summary = summary.split("## Key Findings", 1)[0].strip()
                self.turns.append(Turn(question, standalone, summary))
                self.turns = recent(self.turns, self.limit)
            yield event
