"""`citesynth eval DATASET`: index the set's corpus once (cached), run it, summarise it."""

from __future__ import annotations

import datetime
import hashlib
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from citesynth.engine import Engine
from citesynth.evaluation.harness import PIPELINES, Harness, RunOptions
from citesynth.evaluation.qa_data import EvalSet, load_set, take
from citesynth.evaluation.report import build_summary
from citesynth.events import IndexEvent
from citesynth.settings import Settings
from citesynth.synthesis import resolve_name
from citesynth.verify import get_verifier


def default_cache() -> Path:
    """Where indexes of evaluation corpora are kept between runs."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "citesynth" / "eval"


@dataclass(frozen=True, slots=True)
class EvalRequest:
    """One evaluation run, as the command line describes it."""

    dataset: str
    split: str = "test"
    limit: int | None = None
    model: str = "extractive"
    pipelines: tuple[str, ...] = PIPELINES
    k: int = 10
    verifier: str = "default"
    judge: str | None = None
    embedder: str | None = None
    """None: the `CITESYNTH_EMBEDDER` setting, else auto (MiniLM when installed)."""
    data: Path | None = None
    corpus: Path | None = None
    cache: Path | None = None
    store: str | None = None
    """Where corpus indexes live instead of `cache`: one part of this store per corpus."""


@dataclass(frozen=True, slots=True)
class Hooks:
    """Progress callbacks: indexing events, then the number of steps, then each step."""

    on_index: Callable[[IndexEvent], None] = lambda event: None
    on_start: Callable[[int], None] = lambda total: None
    on_step: Callable[[int], None] = lambda done: None


def prepare(request: EvalRequest) -> EvalSet:
    """The question set, cut to `limit`.

    Raises:
        ConfigError: unknown data set or split, missing data.
    """
    cache = request.cache or default_cache()
    found = load_set(
        request.dataset, request.split, data=request.data, corpus=request.corpus, cache=cache
    )
    return replace(found, items=take(found.items, request.limit))


def index_settings(request: EvalRequest, eval_set: EvalSet) -> Settings:
    """The settings a run of `request` over `eval_set` answers with, and where it indexes.

    A corpus is indexed apart from the user's own index: in the eval cache, or in a
    schema of its own of the database the request or the environment names; one index
    per corpus.
    """
    cache = request.cache or default_cache()
    chosen = Settings.from_env(
        embedder=request.embedder, model=resolve_name(request.model), verifier=request.verifier
    )
    corpus = eval_set.corpus.resolve()
    where = hashlib.sha1(str(corpus).encode()).hexdigest()[:8]
    folder = f"{eval_set.name}-{chosen.embedder.replace(':', '-')}-{where}"
    root = corpus if corpus.is_dir() else corpus.parent
    shared = chosen.store if chosen.on_server else None
    settings = replace(chosen, index_dir=cache / "index" / folder, root=root, store="")
    if store := request.store or shared:
        settings = replace(settings, store=replace(settings, store=store).part_location(folder))
    return settings


async def evaluate(
    request: EvalRequest, eval_set: EvalSet, hooks: Hooks = Hooks()
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run `eval_set` as `request` says; the summary and the per-question records."""
    model = resolve_name(request.model)
    settings = index_settings(request, eval_set)
    corpus = eval_set.corpus.resolve()
    started = time.perf_counter()
    async with await Engine.open(settings=settings, indexing=True) as engine:
        async for event in engine.index_events([corpus]):
            hooks.on_index(event)
        options = RunOptions(
            pipelines=request.pipelines,
            model=model,
            k=request.k,
            verifier=engine.verifier,  # the one ours checks with, not a second copy
            judge=get_verifier(f"judge:{request.judge}") if request.judge else None,
        )
        harness = Harness(engine, options)
        hooks.on_start(len(eval_set.items) * len(options.pipelines))
        records = await harness.run(eval_set, hooks.on_step)
        writers = {
            p: ("retrieval only" if not eval_set.synthesize else harness.writer_name(p))
            for p in options.pipelines
        }
        embedder = engine.embedder.name if engine.embedder else "none"
    header = {
        "dataset": eval_set.name,
        "split": eval_set.split,
        "questions": len(eval_set.items),
        "model": model if eval_set.synthesize else "none (retrieval only)",
        "embedder": embedder,
        "verifier": request.verifier,
        "judge": request.judge,
        "k": request.k,
        "date": datetime.date.today().isoformat(),
        "seconds": round(time.perf_counter() - started, 1),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "notes": list(eval_set.notes) + _notes(eval_set, options),
    }
    return build_summary(header, records, writers), records


def _notes(eval_set: EvalSet, options: RunOptions) -> list[str]:
    notes = []
    if "naive" in options.pipelines:
        notes.append(
            "naive: BM25 top chunks, plain prompt, no multi-source mode, not-found gate, "
            "attribution or verification"
            + ("" if eval_set.synthesize else " (here: BM25 retrieval only)")
        )
    if eval_set.synthesize and "ours" in options.pipelines:
        notes.append(
            f"ours repairs citations with the {options.verifier.name if options.verifier else ''} "
            "verifier that also measures them; --judge MODEL gives an independent check"
        )
    if eval_set.synthesize and options.model == "extractive" and "naive" in options.pipelines:
        notes.append("extractive has no model to prompt: the baseline writer is naive:fake")
    return notes
