"""Sources for an answer: numbered hits, multi-source detection, the context block, budgets.

Multi-source synthesis (DESIGN §7) is on when at least two distinct documents each
contribute at least two chunks. The context then groups chunks by document:

    === docs/advanced/timeouts.md ===
    [3: L40-58]
    ...text...

Otherwise each source is one block headed by its number and location:

    [3] docs/advanced/timeouts.md L40-58 — Timeouts › Pool timeout
    ...text...

A header ends with what the source is about, its document's title and the chunk's
headings, when the location does not already say it: a record's title lives only there
(`corpus.jsonl#p0162` is "Milli Vanilli"), and the sentences chosen as evidence may not name
their subject at all ("the group was lip-synching").

Documents are data, never instructions: a line of a document that looks like a source header
(`[7] other.md`, `=== x ===`, also behind zero-width characters or in full-width look-alikes)
or a chat-template control token (`<|im_start|>`) is defanged before the model sees it, and a
path shown in a header is one line with its control characters escaped (`inert.py`), so a
document cannot forge a source or a role. Nor can it lend the model a citation: the
numbered references of a prose source's own text ("as shown in [12]", "France.[3]") are
left out of what the model reads (`citations.references`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from citesynth.analysis import estimate_tokens, terms
from citesynth.answers import SourceRecord
from citesynth.citations.markers import SourceRef
from citesynth.citations.references import without_reference_marks
from citesynth.ingest.code import language_of
from citesynth.passages import chunk_url
from citesynth.synthesis.inert import defang, inline
from citesynth.types import Chunk, Hit
from citesynth.verify.base import about_of

Counter_ = Callable[[str], Awaitable[int]]


@dataclass(frozen=True, slots=True)
class Source:
    """A hit given a number, and the text the model will see for it."""

    number: int
    hit: Hit
    shown: str
    subject: str = ""
    """What the whole corpus is about (`retrieve.subjects`), told to the verifiers."""
    named: tuple[str, ...] = ()
    """The acronyms of the question its document is about (`synthesis.about`), told to the
    verifiers with its title and headings."""

    @property
    def chunk(self) -> Chunk:
        """The underlying chunk."""
        return self.hit.chunk

    @property
    def document(self) -> str:
        """Which document the source comes from (a record counts as its own document)."""
        return self.chunk.document

    @property
    def about(self) -> str:
        """What its document is about: the title and headings (`verify.base.Check.about`).

        The question's acronyms the document is about (`named`) come last.
        """
        return about_of(self.chunk.title, (*self.chunk.heading_path, *self.named))

    @property
    def label(self) -> str:
        """`L40-58`, `p.5` or `p.5 L3-9`."""
        chunk = self.chunk
        lines = (
            f"L{chunk.start_line}-{chunk.end_line}"
            if chunk.end_line != chunk.start_line
            else f"L{chunk.start_line}"
        )
        if chunk.page is not None:
            return f"p.{chunk.page} {lines}"
        return "" if chunk.record_id is not None else lines


def numbered(hits: Sequence[Hit], subject: str = "") -> list[Source]:
    """Number hits 1..n in rank order (each told the corpus's `subject`)."""
    return [
        Source(number, hit, hit.chunk.text, subject) for number, hit in enumerate(hits, start=1)
    ]


def multi_source(sources: Sequence[Source]) -> bool:
    """At least two distinct documents each contribute at least two chunks."""
    per_document = Counter(source.document for source in sources)
    return sum(1 for count in per_document.values() if count >= 2) >= 2


def document_count(sources: Sequence[Source]) -> int:
    """Distinct documents among the sources."""
    return len({source.document for source in sources})


def refs(sources: Sequence[Source]) -> list[SourceRef]:
    """What citation markers may name each source by."""
    return [
        SourceRef(
            s.number, s.chunk.path, s.chunk.page, s.chunk.start_line, s.chunk.end_line, s.chunk.text
        )
        for s in sources
    ]


SOURCES_FORMAT = "2"
"""The version of the context's layout (part of the answer cache key): 2 adds the subject."""

ABOUT_CHARACTERS = 120
"""At most this much of a title and headings in a header."""


def subject(chunk: Chunk, *, title: bool = True, headings: bool = True) -> str:
    """What a header adds about `chunk`: its document's title and its headings, joined by ›.

    A part whose words the location (or an earlier part) already holds is left out, and
    invisible and control characters are dropped; the result is one line of at most
    `ABOUT_CHARACTERS` (a chat token is made inert, which only shortens it).
    """
    said = [set(terms(chunk.document))]
    parts: list[str] = []
    for index, part in enumerate((chunk.title, *chunk.heading_path)):
        part = " ".join("".join(c for c in part if c.isprintable() or c.isspace()).split())
        words = set(terms(part))
        if not words or any(words <= known for known in said):
            continue
        said.append(words)
        if title if index == 0 else headings:
            parts.append(part)
    return inline(_shortened(" › ".join(parts)))


def _shortened(text: str) -> str:
    """`text` cut to `ABOUT_CHARACTERS`: after a whole sentence when one fits, else a word."""
    if len(text) <= ABOUT_CHARACTERS:
        return text
    head = text[:ABOUT_CHARACTERS]
    end = max(head.rfind(mark) for mark in (". ", "? ", "! "))
    if end >= ABOUT_CHARACTERS // 3:
        return head[: end + 1]
    return head[:-1].rsplit(" ", 1)[0] + "…"


def _header(head: str, about: str) -> str:
    return f"{head} — {about}" if about else head


def heading(source: Source) -> str:
    """What follows a source's number in its header: `docs/a.md L4-9 — Title › Heading`."""
    return _header(f"{inline(source.document)} {source.label}".rstrip(), subject(source.chunk))


def shown_text(source: Source) -> str:
    """A source's text as the model reads it.

    Inert (`inert.defang`), and, for prose, without the numbered references it writes
    itself (`citations.references`).
    """
    text = source.shown.strip()
    if language_of(source.chunk.path) is None:
        text = without_reference_marks(text)
    return defang(text)


def context(sources: Sequence[Source], *, grouped: bool) -> str:
    """The sources as the model reads them (see the module docstring)."""
    if not grouped:
        return "\n\n".join(f"[{s.number}] {heading(s)}\n{shown_text(s)}" for s in sources)
    blocks: list[str] = []
    order = list(dict.fromkeys(s.document for s in sources))
    for document in order:
        members = [s for s in sources if s.document == document]
        title = subject(members[0].chunk, headings=False)
        lines = [_header(f"=== {inline(document)}", title) + " ==="]
        lines.extend(
            _header(f"[{s.number}: {s.label}]".replace(": ]", "]"), subject(s.chunk, title=False))
            + f"\n{shown_text(s)}"
            for s in members
        )
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


_ENTITY = re.compile(r"\b(?:[A-Z][\w.-]*(?:\s+[A-Z][\w.-]*)*|\d[\d.,:/-]*|`[^`]+`|\"[^\"]+\")")


def entities(question: str) -> set[str]:
    """Names, numbers, quoted strings and code identifiers in a question, as stemmed terms."""
    found = set()
    for match in _ENTITY.finditer(question):
        words = terms(match.group().strip('`"'))
        if match.start() == 0 and len(words) == 1:
            continue  # the question's first word is capitalised anyway
        found.update(words)
    return found


def boost_entities(sources: Sequence[Source], question: str) -> list[Source]:
    """Put sources that share entities with the question first (stable otherwise)."""
    wanted = entities(question)
    if not wanted:
        return list(sources)

    def shared(source: Source) -> int:
        return len(wanted.intersection(terms(source.chunk.text)))

    ordered = sorted(sources, key=lambda s: -shared(s))
    return [replace(s, number=i) for i, s in enumerate(ordered, start=1)]


async def trim(
    sources: Sequence[Source], budget: int, count: Counter_ | None = None
) -> tuple[list[Source], int]:
    """Drop whole sources, lowest rank first, until the context fits `budget` tokens.

    Uses the model's own token count when `count` is given, an estimate otherwise. Returns
    the kept sources and how many were dropped. The first source is always kept.
    """
    kept = list(sources)
    while len(kept) > 1:
        text = context(kept, grouped=multi_source(kept))
        used = await count(text) if count is not None else estimate_tokens(text)
        if used <= budget:
            break
        kept.pop()
    return kept, len(sources) - len(kept)


def provenance(chunk: Chunk) -> dict[str, Any]:
    """Where a chunk lives, as the answer's records and citations name it."""
    return {
        "chunk_id": chunk.id,
        "path": chunk.path,
        "title": chunk.title,
        "page": chunk.page,
        "start_line": chunk.start_line,
        "end_line": chunk.end_line,
        "location": chunk.location,
    }


def record(source: Source) -> SourceRecord:
    """The source as it appears in the answer."""
    chunk = source.chunk
    return SourceRecord(
        **provenance(chunk),
        number=source.number,
        doc_id=chunk.document_id,
        heading_path=list(chunk.heading_path),
        record_id=chunk.record_id,
        url=chunk_url(chunk),
        text=chunk.text,
        shown=source.shown,
        score=round(source.hit.score, 6),
        confidence=round(source.hit.confidence, 4),
    )
