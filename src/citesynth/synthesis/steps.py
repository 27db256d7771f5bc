"""Pass 2's steps are public, so that answers, reports and agents compose them.

    found = await retrieve(question, parts, options, mode)     # Pass 1 + what it refers to
    plan = await make_plan(question, found, parts, mode)       # numbered, trimmed sources
    plan, _ = await planned(question, found, parts, mode, options)  # the same, each source
                                                               # told what its document is about
    async for event in write(parts.writer, plan, draft): ...   # see `drafting`
    answer = await finish(header, plan, draft, ...)            # see `finishing`

`Parts` holds what the steps share (the index, the embedder, the writer, the verifier);
`Engine` builds it once. Every value passed between steps is frozen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from citesynth.embed.base import Embedder
from citesynth.index.store import Store
from citesynth.retrieve.hybrid import Reranker, RetrievalOptions
from citesynth.retrieve.hybrid import retrieve as search
from citesynth.retrieve.links import follow_references
from citesynth.retrieve.subjects import common_terms, subjects
from citesynth.synthesis import evidence, verifying
from citesynth.synthesis.about import documents_about, read_documents, told
from citesynth.synthesis.asked import asks_number
from citesynth.synthesis.bounds import asks_bound
from citesynth.synthesis.modes import MULTI_SOURCE_EXTRA_TOKENS, Mode
from citesynth.synthesis.options import AskOptions
from citesynth.synthesis.sources import Counter_, boost_entities, multi_source, numbered, trim
from citesynth.synthesis.writers import Plan, Writer
from citesynth.types import Chunk, Hit
from citesynth.verify.base import Verifier
from citesynth.verify.conflicts import describe


@dataclass(frozen=True, slots=True)
class Parts:
    """What answering needs: the index, the embedder, the writer, the verifier."""

    store: Store
    embedder: Embedder | None
    writer: Writer
    prompt_version: str = ""
    retrieval: RetrievalOptions = field(default_factory=RetrievalOptions)
    reranker: Reranker | None = None
    count_tokens: Counter_ | None = None
    verifier: Verifier | None = None


@dataclass(frozen=True, slots=True)
class Retrieved:
    """Pass 1's hits, best first, and how many of them were added by following references."""

    hits: tuple[Hit, ...]
    linked: int = 0

    @property
    def best(self) -> float:
        """The best hit's Pass-1 confidence (0 when nothing was found)."""
        return self.hits[0].confidence if self.hits else 0.0


async def retrieve(question: str, parts: Parts, options: AskOptions, mode: Mode) -> Retrieved:
    """Pass 1, then the passages the best hits refer to (when options allow)."""
    writer_cap = parts.writer.max_sources or mode.sources
    hits = await search(
        question,
        store=parts.store,
        embedder=parts.embedder,
        k=options.k or min(mode.sources, writer_cap),
        options=parts.retrieval,
        reranker=parts.reranker,
    )
    if options.follow_references and options.synthesize and hits:
        expanded, linked = await follow_references(hits, parts.store)
        return Retrieved(tuple(expanded), linked)
    return Retrieved(tuple(hits))


async def make_plan(
    question: str,
    found: Retrieved,
    parts: Parts,
    mode: Mode,
    *,
    conflicts: bool = True,
    prompt: str = "answer",
    values: Mapping[str, str] | None = None,
) -> Plan:
    """Number, boost, trim and compress the sources into what the writer is given.

    Deep mode puts the sources sharing the question's entities first; the context is
    trimmed by whole sources (lowest rank first) to the mode's budget; writers that want it
    see each source cut to its most relevant sentences. Where the sources disagree
    (`conflicts`), the plan names the disagreements so the writer presents both sides.
    """
    sources = numbered(found.hits, " ".join(await subjects(parts.store)))
    if mode.boost_entities:
        sources = boost_entities(sources, question)
    sources, trimmed = await trim(sources, mode.context_tokens, parts.count_tokens)
    if parts.writer.evidence_tokens is not None:
        sources = await evidence.select(
            question, sources, budget=parts.writer.evidence_tokens, embedder=parts.embedder
        )
    grouped = multi_source(sources)
    disagreements = tuple(verifying.conflicts(sources)) if conflicts else ()
    return Plan(
        question=question,
        sources=tuple(sources),
        grouped=grouped,
        max_tokens=mode.output_tokens + (MULTI_SOURCE_EXTRA_TOKENS if grouped else 0),
        conflicts=describe(disagreements) if disagreements else "",
        found=disagreements,
        trimmed=trimmed,
        linked=found.linked,
        prompt=prompt,
        values=dict(values or {}),
        common=(
            await common_terms(parts.store, question)
            if asks_number(question) or asks_bound(question)
            else frozenset()
        ),
    )


async def planned(
    question: str,
    found: Retrieved,
    parts: Parts,
    mode: Mode,
    options: AskOptions,
    prompt: str = "answer",
    values: Mapping[str, str] | None = None,
) -> tuple[Plan, Mapping[str, Sequence[Chunk]]]:
    """The writer's plan (`make_plan`), its sources told what their documents are about.

    Also the sources' documents, read once for the question when a verifier or the gate
    will use them (`about.read_documents`).
    """
    verifier = parts.verifier if options.verify else None
    plan = await make_plan(
        question,
        found,
        parts,
        mode,
        conflicts=verifier is not None,
        prompt=prompt,
        values=values,
    )
    reads = verifier is not None or options.answerability
    documents = await read_documents(question, plan.sources, parts.store) if reads else {}
    plan = replace(plan, sources=told(plan.sources, documents_about(question, documents)))
    return plan, documents
