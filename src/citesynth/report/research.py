"""Research: the tools a report runs for each subtopic, and what each returned.

A tool takes a query and returns ranked hits; every call is recorded as an `Observation`
(which tool, what query, what came back, how long it took, and why it failed when it did),
so a report shows how each section was researched; a failing tool never fails the report.
`CorpusSearch` is Pass 1 over the index; other tools (`web.WebSearch`, a search API)
implement the same one-method interface and are passed in beside it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from citesynth.report.values import Observation
from citesynth.synthesis.modes import Mode
from citesynth.synthesis.options import AskOptions
from citesynth.synthesis.steps import Parts, Retrieved, retrieve


@runtime_checkable
class Tool(Protocol):
    """A research tool: ranked hits for a query."""

    name: str

    async def run(self, query: str) -> Retrieved:
        """What the tool found for `query`, best first."""
        ...


class CorpusSearch:
    """Pass 1 over the index (hybrid search, then what the best hits refer to)."""

    name = "corpus_search"

    def __init__(self, parts: Parts, options: AskOptions, mode: Mode) -> None:
        self.parts = parts
        self.options = options
        self.mode = mode

    async def run(self, query: str) -> Retrieved:
        """The index's hits for `query`."""
        return await retrieve(query, self.parts, self.options, self.mode)


async def research(query: str, tools: Sequence[Tool]) -> tuple[Retrieved, list[Observation]]:
    """Every tool's hits for `query`, each chunk once, by confidence (ties: tool order)."""
    observations: list[Observation] = []
    merged: dict[str, Retrieved] = {}
    for tool in tools:
        started = time.perf_counter()
        error = None
        try:
            found = await tool.run(query)
        except Exception as failure:  # a failing tool leaves research with the others
            found, error = Retrieved(()), f"{type(failure).__name__}: {failure}"
        merged[tool.name] = found
        observations.append(
            Observation(
                tool=tool.name,
                query=query,
                found=[hit.chunk.location for hit in found.hits],
                chunk_ids=[hit.chunk.id for hit in found.hits],
                milliseconds=round((time.perf_counter() - started) * 1000, 2),
                error=error,
            )
        )
    seen: set[str] = set()
    hits = []
    for found in merged.values():
        for hit in found.hits:
            if hit.chunk.id not in seen:
                seen.add(hit.chunk.id)
                hits.append(hit)
    linked = sum(found.linked for found in merged.values())
    hits.sort(key=lambda hit: -hit.confidence)  # stable: ties keep the tools' order
    return Retrieved(tuple(hits), linked), observations
