"""Context expansion: a retrieved passage that refers elsewhere brings what it refers to.

"see [Retries](retries.md#backoff)" or "see section Limits" in a retrieved chunk adds the
chunk it points to, and so does a term defined elsewhere ("**Settlement window** is ...").
A chunk that ends on a sentence introducing what follows ("… has some known
limitations:") brings the chunk after it: chunking cut there because the list or example
below did not fit beside it.
Indexing stores each chunk's references and defined terms (`ingest/references.py`); this
module resolves them at query time with the store's storage primitives, so a target indexed
later is still found and every backend resolves them the same way.

The target goes right after the passage that refers to it, with that passage's score and a
slightly lower Pass-1 confidence, so the writer reads them together and budget trimming
(lowest rank first) drops expansions before the passages that found them.
"""

from __future__ import annotations

import contextlib
import re
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from citesynth.analysis import terms
from citesynth.index.store import Store
from citesynth.ingest.references import matches
from citesynth.ingest.sentences import prose_sentences
from citesynth.types import Chunk, ChunkId, Hit, Reference

_DOCUMENT_CHUNKS = 2000
"""How many chunks of a target document are searched for the referenced section."""


@dataclass(frozen=True, slots=True)
class _Terms:
    """Every defined term, its first definer and one pattern matching any of them."""

    generation: int
    pattern: re.Pattern[str] | None
    first: dict[str, ChunkId]


# Compiled once per store and content generation: the pattern can hold thousands of terms.
_TERMS: weakref.WeakKeyDictionary[object, _Terms] = weakref.WeakKeyDictionary()


async def follow_references(
    hits: Sequence[Hit], store: Store, *, from_top: int = 3, limit: int = 2, included: int = 3
) -> tuple[list[Hit], int]:
    """`hits` with up to `limit` chunks the top `from_top` hits refer to; and how many.

    A file a hit includes (`.. literalinclude:: snippets/run_sync.py`) is part of the page
    as a reader sees it: every hit brings those, up to `included` in all, right after it
    and before its other references, which `limit` counts apart. AnyIO's "To run a
    (synchronous) callable in a worker thread:" was the seventh hit, and its code, another
    file, was never read; a top hit's other references had taken the places of its own.
    """
    reading = _Reading(store)  # the top hits' references and documents are read once
    shown = await _linked([hit.chunk for hit in hits], reading, INCLUDES) if included else {}
    found = await _linked([hit.chunk for hit in hits[:from_top]], reading) if limit > 0 else {}
    present = {hit.chunk.id for hit in hits}
    expanded: list[Hit] = []
    added = brought = 0
    for hit in hits:
        expanded.append(hit)
        for chunk in shown.get(hit.chunk.id, []):  # before its other references: its own
            if brought < included and chunk.id not in present:
                expanded.append(Hit(chunk, hit.score, round(hit.confidence * 0.9, 4)))
                present.add(chunk.id)
                brought += 1
        for chunk in found.get(hit.chunk.id, []):
            if added < limit and chunk.id not in present:
                expanded.append(Hit(chunk, hit.score, round(hit.confidence * 0.9, 4)))
                present.add(chunk.id)
                added += 1
    return expanded, added + brought


INCLUDES = frozenset({"include"})
"""The kind of reference (`ingest.references`) that is a file the page includes."""


async def linked(
    chunks: Sequence[Chunk], store: Store, kinds: frozenset[str] | None = None
) -> dict[ChunkId, list[Chunk]]:
    """The chunks each of `chunks` refers to, by referring chunk id.

    A reference to a document gives its first chunk; to a section, the first chunk under
    that heading; a defined term, the first chunk that defines it. Cross-references come
    first, then definitions, each in the order they appear. Targets that are not indexed are
    left out, and so is a chunk's reference to itself. With `kinds`, only references of
    those kinds (no next chunks, no definitions).
    """
    return await _linked(chunks, _Reading(store), kinds)


async def _linked(
    chunks: Sequence[Chunk], reading: _Reading, kinds: frozenset[str] | None = None
) -> dict[ChunkId, list[Chunk]]:
    """`linked`, reading the store through `reading`."""
    if not chunks:
        return {}
    found: dict[ChunkId, list[Chunk]] = {}
    pairs = [] if kinds is not None else await _next_chunks(chunks, reading)
    pairs += await _referenced(chunks, reading, kinds)
    pairs += [] if kinds is not None else await _definitions(chunks, reading.store)
    for source, target in pairs:
        targets = found.setdefault(source, [])
        if target not in targets:
            targets.append(target)
    return found


class _Reading:
    """A store's documents' chunks and chunks' references, each read once."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.read: dict[str, list[Chunk]] = {}
        self.written: dict[ChunkId, list[Reference]] = {}

    async def chunks(self, path: str) -> list[Chunk]:
        if path not in self.read:
            self.read[path] = await self.store.document_chunks(path, _DOCUMENT_CHUNKS)
        return self.read[path]

    async def references(self, chunks: Sequence[Chunk]) -> dict[ChunkId, list[Reference]]:
        """The references each of `chunks` writes (those not read before, in one query)."""
        unread = [chunk.id for chunk in chunks if chunk.id not in self.written]
        if unread:
            found = await self.store.references(unread)
            self.written.update((id_, found.get(id_, [])) for id_ in unread)
        return self.written


async def _next_chunks(chunks: Sequence[Chunk], reading: _Reading) -> list[tuple[ChunkId, Chunk]]:
    """(chunk id, the chunk after it) for each chunk ending on an introduction."""
    pairs = []
    for chunk in chunks:
        if introduces_next(chunk.text):
            after = _next_chunk(chunk, await reading.chunks(chunk.path))
            if after is not None:
                pairs.append((chunk.id, after))
    return pairs


async def _referenced(
    chunks: Sequence[Chunk], reading: _Reading, kinds: frozenset[str] | None
) -> list[tuple[ChunkId, Chunk]]:
    """(chunk id, the chunk a cross-reference of it names), references of `kinds` only."""
    references = await reading.references(chunks)
    pairs = []
    for chunk in chunks:
        for reference in references.get(chunk.id, []):
            if kinds is not None and reference.kind not in kinds:
                continue
            target = next(
                (
                    c
                    for c in await reading.chunks(reference.path or chunk.path)
                    if matches(reference.heading, c.heading_path, c.text)
                ),
                None,
            )
            if target is not None and target.id != chunk.id:
                pairs.append((chunk.id, target))
    return pairs


def introduces_next(text: str) -> bool:
    """Whether a chunk ends on a prose sentence that introduces what follows ("… as follows:").

    Not on code or a table: `def f():` introduces nothing of the next chunk's.
    """
    spans = prose_sentences(text, min_words=3)
    return bool(spans) and spans[-1][1] == len(text.rstrip()) and text.rstrip().endswith(":")


def _next_chunk(chunk: Chunk, document: Sequence[Chunk]) -> Chunk | None:
    """The chunk after `chunk` in its document's reading order, if indexed."""
    ids = [c.id for c in document]
    if chunk.id not in ids:
        return None
    index = ids.index(chunk.id) + 1
    if index < len(document) and document[index].document_id == chunk.document_id:
        return document[index]
    return None


async def _definitions(chunks: Sequence[Chunk], store: Store) -> list[tuple[ChunkId, Chunk]]:
    """(chunk id, the chunk defining a term it uses) for the given chunks."""
    defined = await _terms(store)
    if defined.pattern is None:
        return []
    wanted: list[tuple[ChunkId, ChunkId]] = []
    for chunk in chunks:
        used = dict.fromkeys(m.group(0).casefold() for m in defined.pattern.finditer(chunk.text))
        wanted.extend(
            (chunk.id, defined.first[t]) for t in used if defined.first.get(t, chunk.id) != chunk.id
        )
    if not wanted:
        return []
    definers = await store.chunks(sorted({definer for _, definer in wanted}))
    return [(source, definers[definer]) for source, definer in wanted if definer in definers]


async def _terms(store: Store) -> _Terms:
    """The store's defined terms, compiled once per content generation."""
    generation = await store.generation()
    cached = None
    with contextlib.suppress(TypeError):  # a store that cannot be weakly referenced: no cache
        cached = _TERMS.get(store)
    if cached is not None and cached.generation == generation:
        return cached
    first = await store.defined_terms()
    common = await _common(first, store)
    first = {term: definer for term, definer in first.items() if term not in common}
    pattern = (
        re.compile(
            r"\b(?:" + "|".join(map(re.escape, sorted(first, key=len, reverse=True))) + r")\b",
            re.IGNORECASE,
        )
        if first
        else None
    )
    compiled = _Terms(generation, pattern, first)
    with contextlib.suppress(TypeError):
        _TERMS[store] = compiled
    return compiled


COMMON_SHARE = 0.05
"""The least share of the chunks using a defined term for it to be the corpus's common
vocabulary, whose definition no passage using it lacks: Pillow's licence file writes "The
Python Imaging Library (PIL) is …" and 48 % of Pillow's chunks write "PIL", so it had come
with nearly every hit (listed under "Closest passages" of each not-found); Celery's glossary
defines "task" (51 % of the chunks), Django's "values" (16 %). A phrase counts by its rarest
word, which bounds its own share from above: "Python Imaging Library" (its rarest word in
7 % of Pillow's chunks) went on bringing the licence to the handbook's coordinate system."""
COMMON_CHUNKS = 20
"""The fewest chunks using such a term: in a small corpus a share says little."""


async def _common(first: Mapping[str, ChunkId], store: Store) -> frozenset[str]:
    """The terms of `first` that the corpus uses commonly (`COMMON_SHARE`)."""
    words = {term: written for term in first if (written := terms(term))}
    if not words:
        return frozenset()
    shares = await store.term_shares(sorted({w for written in words.values() for w in written}))
    chunks = (await store.stats()).chunks
    return frozenset(
        term
        for term, written in words.items()
        if (share := min(shares.get(w, 0.0) for w in written)) >= COMMON_SHARE
        and share * chunks >= COMMON_CHUNKS
    )
