"""Answerability: do the passages found answer the question at all?

Retrieval finds on-topic passages for on-topic questions that the documents do not answer
("How do I pickle a Client?"), and a writer given them writes something. Before writing,
a verifier that can score question–passage pairs (`AnswerabilityScorer`: the trained
verifier's gate, a cross-encoder over all-mpnet-base-v2 with `citesynth[gate]`, else its
MiniLM claim model) reads the question against the best sentences of the top sources,
with each source's retrieval confidence; when no source reaches the calibrated threshold
(fitted on the tuning questions of ClapNQ, the Red Hat guides and MultiHop-RAG, never on a
report slice), the top four are read two at a time, two of different documents each
(`pair_gate`: a nested question, "Where was the author of X born?", is answered by two
documents holding one hop each), against a threshold of their own
(`benchmarks.calibrate_pair_gate`); when no pair reaches it either, the answer is "Not
found in the sources." with the ranked passages as what was found nearby. Before any
score, a question naming an acronym none of the top passages holds ("JWT", "S3") is a
not-found too, with or without a scorer (`named`), unless a top passage's document is
about it (`synthesis.about`: a page of ACM's paper template says "Figure captions are
placed below the figure" without writing "ACM"). After writing,
an answer whose cited claims are all unsupported is a not-found too (`finishing.verified`).
The lexical verifier has no such score: without the trained verifier only retrieval
confidence and the claims' verdicts decide.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, runtime_checkable

from citesynth.analysis import content_terms
from citesynth.answers import Answer
from citesynth.synthesis.asked import asks_how, question_sentences
from citesynth.synthesis.extractive import NOT_FOUND
from citesynth.synthesis.finishing import Header
from citesynth.synthesis.named import unnamed, unnamed_code, unnamed_proper
from citesynth.synthesis.sources import Source, document_count, record
from citesynth.synthesis.things import unnamed_things

TOP = 5
"""How many of the top sources are read against the question."""
PAIRED = 4
"""How many of the top sources are read two at a time (two of different documents) when
none answers alone."""


@runtime_checkable
class AnswerabilityScorer(Protocol):
    """A verifier that can also say whether a passage answers a question."""

    answerable_threshold: float

    async def answerable(
        self, question: str, passages: Sequence[str], retrieval: Sequence[float]
    ) -> list[float]:
        """Per passage, the probability that it answers `question`.

        `retrieval` holds each passage's Pass-1 confidence, in the same order.
        """
        ...


@runtime_checkable
class HowToScorer(AnswerabilityScorer, Protocol):
    """An answerability scorer with a threshold of its own for how-to questions."""

    answerable_how_to_threshold: float | None
    """The threshold for a question asking how to do something (`asked.asks_how`); None:
    `answerable_threshold`."""


@runtime_checkable
class PairScorer(AnswerabilityScorer, Protocol):
    """An answerability scorer that can also read two passages together."""

    answerable_pair_threshold: float | None
    """The threshold for two passages read together; None: passages are read alone only."""

    async def answerable_together(
        self, question: str, pairs: Sequence[tuple[str, str]], retrieval: Sequence[float]
    ) -> list[float]:
        """Per pair of passages, the probability that together they answer `question`.

        `retrieval` holds each pair's Pass-1 confidence, in the same order.
        """
        ...


@dataclass(frozen=True, slots=True)
class Gate:
    """The best question–passage score of the top sources (or pair of them), and its threshold."""

    score: float
    threshold: float
    best: int
    """The number of the source that scored best, or of a pair's first source (0 when
    there were none)."""
    partner: int = 0
    """The source read together with `best` when a pair scored (0: `best` alone)."""
    together: Gate | None = None
    """When no source answered alone: the best pair's reading, which did not answer either
    (None: no pair was read)."""
    unnamed: tuple[str, ...] = ()
    """Acronyms the question names that none of the top sources holds (`named.unnamed`),
    names it writes as code that none of the sources writes (`named.unnamed_code`), and
    capitalised names a how-to question writes that none of them does
    (`named.unnamed_proper`)."""

    off_topic: tuple[str, ...] = ()
    """The words of a how-to question that tell the sources' documents apart, when no top
    source is on all of them (`on_topic`)."""

    @property
    def answerable(self) -> bool:
        """Whether the best source (or pair) reaches the threshold, naming what is asked."""
        return self.score >= self.threshold and not self.unnamed and not self.off_topic


async def gate(
    question: str,
    sources: Sequence[Source],
    scorer: object,
    *,
    compound: bool = True,
    pairs: bool = True,
    unheard: Collection[str] = (),
    subjects: Collection[str] = (),
    topics: Mapping[str, frozenset[str]] | None = None,
) -> Gate | None:
    """Score the top sources against `question`; None when `scorer` cannot.

    First, whatever the scorer: a question naming an acronym that none of the top sources
    holds is not answered by them (`named.unnamed`: "JWT" against Flask's pages on CSRF
    tokens), nor one writing a name as code that none of the sources writes
    (`named.unnamed_code`: "uuid.UUID"), nor a how-to question naming a tool none of the
    sources names (`named.unnamed_proper`: "Husky"), nor any question naming one or two
    things of which one is `unheard` of ("Celery" in Django's docs), or three or four of
    which that one alone is, nor one asking whether a thing exists, or which of a kind,
    that holds a word `unheard` of (`things.unnamed_things`: "Does WTForms include a
    honeypot field?", "Which logger name should I configure?"); an acronym in
    `subjects`, which a top source's document is about (`synthesis.about`), counts as held.
    A how-to question whose names tell the sources' documents apart (`topics`) is read
    against the sources on all of them only (`on_topic`; a compound one, whose parts may be
    on different documents, is not), and is not answered when there are none. A compound
    question ("What is the connect timeout, and are failed requests retried?") is answerable
    when each of its parts is (`question_parts`; `compound=False` reads it whole only): each
    may be answered by a different source, and a source answering one part scores low
    against the whole. A question whose last sentence asks what a scene before it leads up
    to is answerable when that sentence, read alone, is (`asked_alone`). When none of
    these answers, two sources are read together (`pair_gate`;
    `pairs=False`: never). A how-to question is read at the scorer's how-to threshold when
    it has one and no term of the question is `unheard` of: held by no chunk of the index
    (`unheard_terms`).
    """
    if not sources:
        return None
    top = list(sources[:TOP])
    missing = tuple(name for name in unnamed(question, top) if name not in subjects)
    missing += unnamed_code(question, sources)
    missing += unnamed_proper(question, sources, unheard)
    if missing := missing + unnamed_things(question, sources, unheard):
        return Gate(0.0, 0.0, top[0].number, unnamed=missing)
    if topics and asks_how(question) and len(question_parts(question)) == 1:
        top, telling = on_topic(question, top, topics)
        if not top:
            return Gate(0.0, 0.0, sources[0].number, off_topic=telling or ("?",))
    if not isinstance(scorer, AnswerabilityScorer):
        return None
    how_to = asks_how(question) and not unheard
    found = await _best(question, top, scorer, how_to=how_to)
    if found.answerable:
        return found
    parts = question_parts(question) if compound else [question]
    if len(parts) > 1:
        weakest = min(
            [await _best(part, top, scorer, how_to=how_to) for part in parts],
            key=lambda g: g.score,
        )
        if weakest.answerable:
            return weakest
    if (asked := asked_alone(question)) is not None:
        alone = await _best(asked, top, scorer, how_to=how_to)
        if alone.answerable:
            return alone
    paired = await pair_gate(question, top[:PAIRED], scorer) if pairs else None
    if paired is not None and paired.answerable:
        return paired
    return replace(found, together=paired) if paired is not None else found


def on_topic(
    question: str, top: Sequence[Source], topics: Mapping[str, frozenset[str]]
) -> tuple[list[Source], tuple[str, ...]]:
    """The sources a how-to question may be answered by, and its words for what they are on.

    `topics` lists, per document, the question's terms that tell the sources' documents
    apart and that it is about (`about.documents_on`). Asked "How do I fit a zero-inflated
    Poisson model with lme4?" over lme4's and sandwich's papers, a source from sandwich's
    on zero-inflated models that never names lme4 does not say how lme4 fits one: the
    pair of it and an lme4 page had passed the gate. A source is kept when it is on every
    one of those terms: its document is about it, or its text, title or headings hold it.
    """
    telling = frozenset().union(*topics.values())
    kept = [
        source
        for source in top
        if telling
        <= topics.get(source.chunk.document_id, frozenset())
        | set(content_terms(f"{source.chunk.text} {source.about}"))
    ]
    words = [w for w in re.findall(r"[\w.+-]+", question) if telling & set(content_terms(w))]
    return kept, tuple(dict.fromkeys(words))


async def _best(
    question: str, top: Sequence[Source], scorer: AnswerabilityScorer, *, how_to: bool
) -> Gate:
    scores = await scorer.answerable(
        question, [s.chunk.text for s in top], [s.hit.confidence for s in top]
    )
    best = max(range(len(top)), key=lambda i: scores[i])
    return Gate(round(scores[best], 4), threshold(scorer, how_to=how_to), top[best].number)


def threshold(scorer: AnswerabilityScorer, *, how_to: bool) -> float:
    """The scorer's threshold (read after it scored: a gate sets its own when it loads).

    A how-to question has a lower one when the scorer has it: worded as the user asked
    it, not as the documentation says it, it scores lower against the passage that
    answers it ("How do I stop Black from formatting a block of code?" against "Black will
    not reformat … blocks that start with `# fmt: off`"). The how-to questions the
    documents do not answer mostly name a tool none of the sources names
    (`named.unnamed_proper`), withheld before any score, or a thing the documents never
    mention ("pickle", "bandwidth", "XML"), which keeps the question at the scorer's
    threshold (`unheard_terms`).
    """
    if how_to and isinstance(scorer, HowToScorer) and scorer.answerable_how_to_threshold:
        return min(scorer.answerable_threshold, scorer.answerable_how_to_threshold)
    return scorer.answerable_threshold


async def unheard_terms(question: str, store: object) -> tuple[str, ...]:
    """The terms of `question` (`analysis.content_terms`) that no chunk of the index holds.

    Read only when `store` can count (`TermCounter`).
    """
    if not isinstance(store, TermCounter):
        return ()
    wanted = list(dict.fromkeys(content_terms(question)))[:_MAX_COUNTED]
    shares = await store.term_shares(wanted)
    return tuple(term for term in wanted if not shares.get(term))


_MAX_COUNTED = 64
"""Distinct terms of one question counted in the index (a question pasted with a whole
page of text is read by its first 64: each is a search of the index)."""


@runtime_checkable
class TermCounter(Protocol):
    """A store that says how many chunks hold each term (`index.store.Store.term_shares`)."""

    async def term_shares(self, terms: Sequence[str]) -> dict[str, float]:
        """Per analysed term, the share of all chunks whose text holds it."""
        ...


async def pair_gate(
    question: str, top: Sequence[Source], scorer: AnswerabilityScorer
) -> Gate | None:
    """The best of the top sources read two at a time, two of different documents each.

    A nested question ("Where was the composer of X born?") is answered by two documents
    that each hold one hop and score low against the whole. The pair's retrieval
    confidence is the lower of the two, and it must reach a threshold of its own
    (`answerable_pair_threshold`, calibrated so that pairs let few unanswerable tuning
    questions through). None: the scorer reads no pairs, or all sources share a document.
    A scorer may set its pair threshold when its model loads, at its first `answerable`
    call (`TrainedVerifier.gate`): `gate` always reads the sources alone first.
    """
    if not isinstance(scorer, PairScorer) or scorer.answerable_pair_threshold is None:
        return None
    threshold = scorer.answerable_pair_threshold
    pairs = [(a, b) for i, a in enumerate(top) for b in top[i + 1 :] if a.document != b.document]
    if not pairs:
        return None
    scores = await scorer.answerable_together(
        question,
        [(a.chunk.text, b.chunk.text) for a, b in pairs],
        [min(a.hit.confidence, b.hit.confidence) for a, b in pairs],
    )
    best = max(range(len(pairs)), key=lambda i: scores[i])
    a, b = pairs[best]
    return Gate(round(scores[best], 4), threshold, a.number, b.number)


_ASKING = (
    r"(?:are|is|was|were|does|do|did|can|could|will|would|should|has|have|"
    r"how|what|which|who|whom|whose|when|where|why)\b"
)
_JOINED = re.compile(rf"(?:,\s*(?:and|or|but)\s+|;\s*|\s+(?:and|or|but)\s+)(?={_ASKING})", re.I)
_QUESTION = re.compile(rf"^\W*{_ASKING}", re.I)


def question_parts(question: str) -> list[str]:
    """The questions a compound question joins, or `[question]`.

    Split where "and", "or", "but" or a semicolon is followed by a question word or an
    auxiliary verb ("…, and are failed requests retried?"), when the question itself opens
    with one; every part keeps at least three words. A relative clause ("Who is the
    person …, and was compared to …?") splits too; its fragment is scored as it reads.
    """
    if not _QUESTION.match(question):
        return [question]
    parts = [p.strip(" ,;?") for p in _JOINED.split(question)]
    if len(parts) < 2 or any(len(p.split()) < 3 for p in parts):
        return [question]
    return [f"{p}?" for p in parts]


_REFERS_BACK = re.compile(
    r"\b(?:it|its|they|them|their|this|these|those|he|she|his|her|such|same|above)\b"
    r"|(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )\bthere\b(?!\s+(?:is|are|was|were)\b|'s)"
    r"|\b(?:is|was|are|were|do|does|did|doing|turns?|keeps?|makes?|gets?|sets?|use|of|for"
    r"|with|about|to|on|in|from|by)\s+that\b|\bthat\s*[?,.]",
    re.I,
)
_ALONE_TERMS = 4


def asked_alone(question: str) -> str | None:
    """The question a user's setting of the scene leads up to, when it reads on its own.

    "Our servers still run an older Python. What is the minimum Python version Jinja
    supports?" asks its last sentence; the scene before it shares no words with the
    passage that answers ("Jinja supports Python 3.7 and newer."), and the gate, reading
    the whole, scored that passage 0.05 where the question alone scores 0.36. None when
    the question is one sentence, asks more than once, or asks in words that lean on the
    scene ("Which option does that?", "Is there a cap on it?", "Is that conversion off?")
    or in fewer than four content terms ("Which environment class should I use?").
    """
    sentences = question_sentences(question)
    if len(sentences) < 2 or not sentences[-1].rstrip().endswith("?"):
        return None
    if any(s.rstrip().endswith("?") for s in sentences[:-1]):
        return None
    asked = sentences[-1].strip()
    if _REFERS_BACK.search(asked) or len(set(content_terms(asked))) < _ALONE_TERMS:
        return None
    return asked


UNANSWERED = "the passages found do not answer the question"
"""How the warning of a not-found that the gate decided begins."""


def unanswerable(header: Header, sources: Sequence[Source], found: Gate) -> Answer:
    """Not found: the passages are on the ranked list, none of them answers the question."""
    if found.off_topic:
        warning = (
            f"{UNANSWERED}: no top passage is on all of {', '.join(found.off_topic)}; "
            "the nearest passages are listed as sources"
        )
    elif found.unnamed:
        warning = (
            f"{UNANSWERED}: none of the top passages names {', '.join(found.unnamed)}; "
            "the nearest passages are listed as sources"
        )
    else:
        warning = (
            f"{UNANSWERED} (best answerability "
            f"{found.score:.2f} for [{found.best}], below {found.threshold:.2f}"
            f"{_together(found.together)}); the nearest passages are listed as sources"
        )
    return Answer(
        **header.fields(),
        answer=NOT_FOUND,
        sources=[record(s) for s in sources],
        source_doc_count=document_count(sources),
        not_found=True,
        warnings=[warning],
    )


def _together(pair: Gate | None) -> str:
    """The best pair's reading, for the not-found warning ("" when none was read)."""
    if pair is None:
        return ""
    return (
        f"; read two at a time, {pair.score:.2f} for [{pair.best}] with [{pair.partner}], "
        f"below {pair.threshold:.2f}"
    )
