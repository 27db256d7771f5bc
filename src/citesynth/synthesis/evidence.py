"""Query-aware evidence selection: keep the sentences of each source that matter.

For a small local model every prompt token costs time (about 20–45 tokens/s of prefill on two
cores), so each source is cut down to its most relevant sentences, in their original order,
with "…" where text was left out. Code blocks, tables and headings inside a prose chunk are
left out too (a small model copies them verbatim); a chunk of code keeps its lines.
Relevance mixes the dense cosine between question and sentence (when an embedder is
available) with the share of the question's terms the sentence holds. Every source keeps at
least its best sentence (asked why, its best stating a reason, when one is within reach of
its best: such sentences are kept first, `reasons`); the budget is shared between sources
in proportion to their rank.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from citesynth.analysis import DEFAULT_VALUE, coverage, estimate_tokens, query_terms, terms
from citesynth.embed.base import Embedder
from citesynth.ingest.code import language_of
from citesynth.ingest.fields import field_text, info_fields
from citesynth.ingest.markdown import rendered_markup
from citesynth.ingest.rst import described_at
from citesynth.ingest.sentences import prose_sentences, sentence_spans
from citesynth.ingest.tables import row_text, table_rows
from citesynth.ingest.titles import is_heading
from citesynth.synthesis.defaults import with_stop
from citesynth.synthesis.reasons import asks_why, states_reason
from citesynth.synthesis.sources import Source
from citesynth.verify.numbers import NUMBER_WORDS

GAP = " … "
_MIN_WORDS = 3
"""How many words a sentence needs to be shown (but one stating a default)."""


async def select(
    question: str, sources: Sequence[Source], *, budget: int, embedder: Embedder | None
) -> list[Source]:
    """Sources whose `shown` text is cut to the sentences most relevant to `question`."""
    sentences = [
        _sentences(source.chunk.text, fields=language_of(source.chunk.path) is None)
        for source in sources
    ]
    flat = [sentence for group in sentences for sentence in group]
    if not flat:
        return list(sources)
    scores = await relevance(question, flat, embedder)
    shares = _shares(len(sources), budget)
    why = asks_why(question)
    selected: list[Source] = []
    offset = 0
    for source, group, share in zip(sources, sentences, shares, strict=True):
        # Headings are context the prompt already gives (the source's heading path); kept
        # inline they would run into the next sentence once lines are joined.
        headings = [is_heading(sentence) for sentence in group]
        own = scores[offset : offset + len(group)]
        first = _reasons(group, own, headings) if why else [False] * len(group)
        ranked = sorted(range(len(group)), key=lambda i: (headings[i], not first[i], -own[i]))
        keep: list[int] = []
        used = 0
        for index in ranked:
            cost = estimate_tokens(group[index])
            if keep and (used + cost > share or headings[index]):
                continue
            keep.append(index)
            used += cost
        offset += len(group)
        selected.append(replace(source, shown=_join(group, sorted(keep))))
    return selected


async def relevance(
    question: str, sentences: Sequence[str], embedder: Embedder | None
) -> list[float]:
    """How well each sentence answers `question`: 0.6 × cosine + 0.4 × term coverage.

    A number counts as one term in digits or in words: "How do I run a job every 2 hours?"
    wants APScheduler's "Schedule job_function to be called every two hours".
    """
    wanted = {_numeral(term) for term in query_terms(question)}
    lexical = [
        coverage(wanted, [_numeral(term) for term in terms(sentence)]) for sentence in sentences
    ]
    if embedder is None:
        return lexical
    vectors = await embedder.embed([question, *sentences], "document")
    cosines = vectors[1:] @ vectors[0]
    return [float(0.6 * c + 0.4 * lex) for c, lex in zip(np.asarray(cosines), lexical, strict=True)]


REACH = 0.7
"""A sentence scoring at least this share of the best is in reach: of a source's best, of a
reason asked here; of the best candidate, of the extractive writer (its `keep_ratio`)."""


def _reasons(group: Sequence[str], scores: Sequence[float], headings: Sequence[bool]) -> list[bool]:
    """Per sentence of a source, whether it states a reason (`reasons`) within `REACH`.

    Within reach of its best sentence, that is; headings, never kept, aside.

    Asked why, those are kept first: with about ninety tokens a source, the sentences
    sharing the question's words had left structlog's "This is because `PrintLogger` uses
    `print(…)` …, and `print` writes the `log` message and a newline … separately" out of
    the prompt, asked why its lines and logging's are interleaved.
    """
    floor = max((c for c, h in zip(scores, headings, strict=True) if not h), default=0.0) * REACH
    return [
        score >= floor and not heading and states_reason(sentence)
        for sentence, score, heading in zip(group, scores, headings, strict=True)
    ]


def _numeral(term: str) -> str:
    """A number word's digits ("two" → "2"); any other term as it is."""
    return NUMBER_WORDS.get(term, term)


def _sentences(text: str, *, fields: bool = True) -> list[str]:
    """The prose sentences, table rows and info fields of a chunk, in order; code's all.

    A table's row reads as a statement (`tables.row_text`): Jinja's loop variables and
    Python-Markdown's option defaults are in tables, which the model was never shown. So
    does a field of a Sphinx info field list (`fields.field_text`: "`limit` (int): total
    number simultaneous connections. …"), unless `fields` is False (a source file, whose
    docstrings are code). A Sphinx object description's first sentence is headed by its
    name (`rst.described_at`: "TEMPLATES_AUTO_RELOAD: Reload templates when they are
    changed."), and a short sentence stating a default is kept ("Default: ``None``").
    """
    spans = [
        (start, end)
        for start, end in prose_sentences(text, min_words=1)
        if len(text[start:end].split()) >= _MIN_WORDS or DEFAULT_VALUE.match(text, start)
    ]
    rows = table_rows(text)
    listed = info_fields(text) if fields else ()
    if not spans and not rows and not listed:
        spans = sentence_spans(text)
    named: set[str] = set()
    units = []
    for start, end in spans:
        described = described_at(text, start)
        sentence = text[start:end]
        if described and described not in named:  # the body's first sentence names it
            named.add(described)
            sentence = f"{described}: {sentence}"
        if DEFAULT_VALUE.match(sentence):
            sentence = with_stop(sentence)
        units.append((start, sentence))
    units += [(row.start, row_text(row)) for row in rows]
    units += [(field.start, field_text(field)) for field in listed]
    return [unit for _, unit in sorted(units)]


def _shares(count: int, budget: int) -> list[int]:
    """Token budgets per source, higher for better-ranked ones (weights 1/rank^0.5)."""
    weights = [1 / (rank**0.5) for rank in range(1, count + 1)]
    total = sum(weights)
    return [max(1, int(budget * weight / total)) for weight in weights]


def _join(sentences: Sequence[str], keep: Sequence[int]) -> str:
    parts: list[str] = []
    previous = -1
    for index in keep:
        if previous != -1 and index != previous + 1:
            parts.append(GAP.strip())
        parts.append(" ".join(rendered_markup(sentences[index]).split()))
        previous = index
    text = " ".join(parts)
    if keep and keep[0] > 0:
        text = "… " + text
    if keep and keep[-1] < len(sentences) - 1:
        text += " …"
    return text
