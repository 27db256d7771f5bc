"""Query-aware evidence selection: keep the sentences of each source that matter.

For a small local model every prompt token costs time (about 20–45 tokens/s of prefill on two
cores), so each source is cut down to its most relevant sentences, in their original order,
with "…" where text was left out. Tables and headings inside a prose chunk are left out
(a small model copies them verbatim); a chunk of code keeps its lines. Code is left out too,
except what a kept sentence introduces ("To include HTTP/2 support, use:" above
`pip install httpx[http2]`): such a block follows its sentence, fenced and cut to
`CODE_LINES` lines, while the answer's `CODE_TOKENS` last, best sentences first. The
sentence alone answers nothing, and code an answer copies is checked as a quotation
(`verify/code.py`).
Relevance mixes the dense cosine between question and sentence (when an embedder is
available) with the share of the question's terms the sentence holds. Every source keeps at
least its best sentence; the budget is shared between sources in proportion to their rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from citesynth.analysis import coverage, estimate_tokens, query_terms, terms
from citesynth.embed.base import Embedder
from citesynth.ingest.rst import rendered_roles
from citesynth.ingest.sentences import is_heading, prose_sentences, sentence_spans
from citesynth.synthesis.introduced import fenced, introduced, literal_mark_read
from citesynth.synthesis.sources import Source

GAP = " … "
CODE_LINES = 10
"""At most this many lines of one introduced code block in a prompt."""
CODE_TOKENS = 150
"""Introduced code one prompt shows in all, beyond the sentences' budget (≈ 3 s of prefill)."""


async def select(
    question: str, sources: Sequence[Source], *, budget: int, embedder: Embedder | None
) -> list[Source]:
    """Sources whose `shown` text is cut to the sentences most relevant to `question`."""
    spans = [_spans(source.chunk.text) for source in sources]
    pairs = zip(sources, spans, strict=True)
    sentences = [[source.chunk.text[a:b] for a, b in group] for source, group in pairs]
    flat = [sentence for group in sentences for sentence in group]
    if not flat:
        return list(sources)
    scores = await relevance(question, flat, embedder)
    shares = _shares(len(sources), budget)
    kept: list[list[int]] = []
    offset = 0
    for group, share in zip(sentences, shares, strict=True):
        # Headings are context the prompt already gives (the source's heading path); kept
        # inline they would run into the next sentence once lines are joined.
        headings = [is_heading(sentence) for sentence in group]
        ranked = sorted(range(len(group)), key=lambda i: (headings[i], -scores[offset + i]))
        keep: list[int] = []
        used = 0
        for index in ranked:
            cost = estimate_tokens(group[index])
            if keep and (used + cost > share or headings[index]):
                continue
            keep.append(index)
            used += cost
        kept.append(keep)
        offset += len(group)
    blocks = _code(sources, spans, kept)
    return [
        replace(source, shown=_join(group, sorted(keep), shown))
        for source, group, keep, shown in zip(sources, sentences, kept, blocks, strict=True)
    ]


def _code(
    sources: Sequence[Source], spans: Sequence[Sequence[tuple[int, int]]], kept: Sequence[list[int]]
) -> list[dict[int, str]]:
    """The fenced code each source shows after a kept sentence, by sentence index.

    Blocks are taken in the order the sentences were kept (each source's best first, the
    sources in rank order) while `CODE_TOKENS` lasts; a block that does not fit is left out.
    """
    shown: list[dict[int, str]] = [{} for _ in sources]
    left = CODE_TOKENS
    for number, (source, group, keep) in enumerate(zip(sources, spans, kept, strict=True)):
        text = source.chunk.text
        for index in keep:
            block = introduced(text, *group[index])
            if block is None or block.kind != "code":
                continue
            code = fenced(block, CODE_LINES)
            cost = estimate_tokens(code)
            if cost <= left:
                shown[number][index] = code
                left -= cost
    return shown


async def relevance(
    question: str, sentences: Sequence[str], embedder: Embedder | None
) -> list[float]:
    """How well each sentence answers `question`: 0.6 × cosine + 0.4 × term coverage."""
    wanted = set(query_terms(question))
    lexical = [coverage(wanted, terms(sentence)) for sentence in sentences]
    if embedder is None:
        return lexical
    vectors = await embedder.embed([question, *sentences], "document")
    cosines = vectors[1:] @ vectors[0]
    return [float(0.6 * c + 0.4 * lex) for c, lex in zip(np.asarray(cosines), lexical, strict=True)]


def _spans(text: str) -> list[tuple[int, int]]:
    """The prose sentences of a chunk (no code, tables or headings); all of them for code."""
    return prose_sentences(text, min_words=3) or sentence_spans(text)


def _shares(count: int, budget: int) -> list[int]:
    """Token budgets per source, higher for better-ranked ones (weights 1/rank^0.5)."""
    weights = [1 / (rank**0.5) for rank in range(1, count + 1)]
    total = sum(weights)
    return [max(1, int(budget * weight / total)) for weight in weights]


def _join(sentences: Sequence[str], keep: Sequence[int], code: Mapping[int, str]) -> str:
    """The kept sentences on one line, "…" between those not next to each other.

    A sentence with its code (`code`, by index) ends its line, reStructuredText's "::"
    read as ":"; the block follows on lines of its own, and the text goes on below it.
    """
    text = "… " if keep and keep[0] > 0 else ""
    previous = -1
    for index in keep:
        if previous != -1:
            text += "\n" if previous in code else " "
            text += "" if index == previous + 1 else GAP.lstrip()
        sentence = " ".join(rendered_roles(sentences[index]).split())
        text += f"{literal_mark_read(sentence)}\n{code[index]}" if index in code else sentence
        previous = index
    if keep and keep[-1] < len(sentences) - 1:
        text += "\n…" if previous in code else " …"
    return text
