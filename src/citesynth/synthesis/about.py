"""What a source's document is about, of the acronyms a question names.

A paper or a guide names its subject on many of its pages, not on each. ACM's sample paper
says "Figure captions are placed below the figure" under "12 FIGURES", in a paper titled
"The Name of the Title Is Hope", and writes "ACM" in 22 of its 55 chunks. An acronym of the
question that at least `DOCUMENT_SHARE` of a document's chunks hold is what the document is
about (`documents_about`; the publisher's acronym is in 0.36-0.45 of each of six papers'
chunks, "SI" in 0.03 of ASME's):

- the answerability gate counts it as held by the document's passages (`pipeline._gated`
  reads `Source.named` of the top sources into `answerability.gate`'s `subjects`);
- the verifiers read it with the document's title and headings (`Source.named`), and a
  claim naming an acronym that some source's document is about is unsupported by sources
  whose text and documents never state it (`AboutChecked`). "The ACM template places
  figure captions below the figures [1]", citing ASME's guide, had passed the trained
  verifier: the fact is ACM's too, but the source cited states ASME's rule. Repair may move
  the citation to a source about ACM that says it.

Each record of a JSONL file is a document of its own, never read with the file's other
records.

The names a how-to question writes may tell the sources' documents apart the same way
(`documents_on`): "lme4" is in 0.62 of lme4's paper's chunks and 0.01 of sandwich's, and
the gate reads "How do I fit a zero-inflated Poisson model with lme4?" against the
sources on lme4 only (`answerability.on_topic`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Protocol, runtime_checkable

from citesynth.analysis import code_names, content_terms
from citesynth.synthesis.asked import asks_how
from citesynth.synthesis.named import acronyms, proper_names, unnamed_in, written
from citesynth.synthesis.sources import Source
from citesynth.types import Chunk
from citesynth.verify.base import Check, Holding, Verdict, Verifier, with_reason

DOCUMENT_SHARE = 0.25
"""The least share of a document's chunks holding an acronym for the document to be about it."""
DOCUMENT_CHUNKS = 400
"""The most chunks of a document read for what it is about."""
RARE_SHARE = 0.05
"""The most share of another document's chunks holding a term for the term to tell the
documents apart (`documents_on`)."""


@runtime_checkable
class DocumentReader(Protocol):
    """A store that lists a document's chunks (`index.store.Store.document_chunks`)."""

    async def document_chunks(self, path: str, limit: int) -> list[Chunk]:
        """Up to `limit` chunks of the documents at `path`, in reading order."""
        ...


async def read_documents(
    question: str, sources: Sequence[Source], store: object
) -> dict[str, list[Chunk]]:
    """The chunks of each document of `sources` (by id) that `question` needs read.

    Read once for both readings (`documents_about`, `documents_on`), and only when the
    question names an acronym or is a how-to question writing a name; nothing when `store`
    cannot list a document's chunks.
    """
    if unnamed_in(question, "") or (asks_how(question) and _name_terms(question)):
        return await _documents(sources, store)
    return {}


def documents_about(
    question: str, documents: Mapping[str, Sequence[Chunk]]
) -> dict[str, tuple[str, ...]]:
    """Per document (by id), the acronyms of `question` it is about.

    `documents` are the chunks `read_documents` read. Documents about none are left out;
    so is everything when the question names no acronym.
    """
    wanted = unnamed_in(question, "")
    if not wanted:
        return {}
    about: dict[str, tuple[str, ...]] = {}
    for document, chunks in documents.items():
        absent = [set(unnamed_in(question, written(chunk))) for chunk in chunks]
        held = tuple(
            name
            for name in wanted
            if sum(name not in names for names in absent) >= DOCUMENT_SHARE * len(chunks)
        )
        if held:
            about[document] = held
    return about


async def _documents(sources: Sequence[Source], store: object) -> dict[str, list[Chunk]]:
    """The chunks (up to `DOCUMENT_CHUNKS` a file) of each document of `sources`, by id.

    A file is read once; each record of a JSONL file is a document of its own. Nothing
    when `store` cannot list a document's chunks.
    """
    if not isinstance(store, DocumentReader):
        return {}
    documents: dict[str, set[str]] = {}  # path -> the documents of sources read there
    for source in sources:
        documents.setdefault(source.chunk.path, set()).add(source.chunk.document_id)
    found: dict[str, list[Chunk]] = {}
    for path, wanted_documents in documents.items():
        read = await store.document_chunks(path, DOCUMENT_CHUNKS)
        for document in wanted_documents:
            chunks = [chunk for chunk in read if chunk.document_id == document]
            if chunks:
                found[document] = chunks
    return found


def _name_terms(question: str) -> frozenset[str]:
    """The terms of the names `question` writes.

    Capitalised past its first word, acronyms, code, and words of letters then digits
    ("lme4", "log4j"). A question's plain words ("data", "object", "secret") are what one
    page of a project's docs is about and another barely mentions, and told its documents
    apart wrongly: over three projects' docs, 6 of 104 answerable how-to tuning questions
    were withheld for them.
    """
    names = [*proper_names(question), *acronyms(question), *code_names(question)]
    names += _NUMBERED_NAME.findall(question)
    return frozenset(content_terms(" ".join(names)))


_NUMBERED_NAME = re.compile(r"(?<![\w.-])[A-Za-z]+\d\w*")


def documents_on(
    question: str, documents: Mapping[str, Sequence[Chunk]]
) -> dict[str, frozenset[str]]:
    """Per document (by id), the terms of `question`'s names that tell it apart.

    `documents` are the chunks `read_documents` read. A term of a name (stemmed,
    `analysis.content_terms`; `_name_terms`) tells documents apart when a quarter or more
    of one document's chunks hold it (`DOCUMENT_SHARE`: the document is about it) and at
    most `RARE_SHARE` of another's do: "lme4" in "How do I fit a zero-inflated Poisson
    model with lme4?" is in 0.62 of lme4's paper's chunks and 0.01 of sandwich's paper's;
    a corpus's own subject is in every document. Only documents about one such term are
    listed; none when no term tells them apart.
    """
    names = _name_terms(question)
    terms = [term for term in content_terms(question) if term in names]
    if not terms or len(documents) < 2:
        return {}
    shares: dict[str, dict[str, float]] = {}
    for document, chunks in documents.items():
        held = [frozenset(content_terms(written(chunk))) for chunk in chunks]
        shares[document] = {t: sum(t in h for h in held) / len(held) for t in terms}
    telling = [
        term
        for term in terms
        if max(share[term] for share in shares.values()) >= DOCUMENT_SHARE
        and min(share[term] for share in shares.values()) <= RARE_SHARE
    ]
    on = {
        document: frozenset(t for t in telling if share[t] >= DOCUMENT_SHARE)
        for document, share in shares.items()
    }
    return {document: held for document, held in on.items() if held}


def told(sources: Sequence[Source], about: Mapping[str, tuple[str, ...]]) -> tuple[Source, ...]:
    """`sources`, each told what its document is about (`Source.named`)."""
    return tuple(
        replace(source, named=about.get(source.chunk.document_id, ())) for source in sources
    )


class AboutChecked(Holding):
    """A verifier whose verdicts hold a claim naming what another document is about.

    A claim naming an acronym in `named` (what some source's document is about) is
    unsupported by passages whose text, titles, headings and documents never state it.
    The verdicts are otherwise the `wrapped` verifier's, under its name.
    """

    def __init__(self, wrapped: Verifier, named: frozenset[str]) -> None:
        self.wrapped = wrapped
        self.named = named
        self.name = wrapped.name

    def _held(self, check: Check, verdict: Verdict) -> Verdict:
        if verdict.label == "unsupported":
            return verdict
        stated = " ".join((*check.passages, check.about))
        other = [name for name in unnamed_in(check.claim, stated) if name in self.named]
        if not other:
            return verdict
        reason = (
            f"names {', '.join(other)}, which the cited source never states: another "
            "source's document is about it"
        )
        return with_reason(verdict, reason, "unsupported")


def about_checked(verifier: Verifier | None, sources: Sequence[Source]) -> Verifier | None:
    """`verifier` holding claims to what the sources' documents are about, when any is."""
    named = frozenset(name for source in sources for name in source.named)
    if verifier is None or not named:
        return verifier
    return AboutChecked(verifier, named)
