"""Assembly: the sections fitted to the length, the summary and conclusions, the checks.

Clusters whose source does not answer are left out; disagreements between sources of
different sections, on the point asked, join the conclusions; the sections are cut to the
word budget (`compose.fit`), or the last ones left out when one sentence each is too
long; the citation index closes up when a cut took a source's only citation.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from citesynth.citations.resolve import numbers_in, relabel
from citesynth.report.checks import check, markers
from citesynth.report.citing import CitationIndex, renumbered
from citesynth.report.compose import (
    body,
    conclusions,
    executive_summary,
    fit,
    markdown,
    without_repeats,
    words,
)
from citesynth.report.values import Report, Section, Subtopic
from citesynth.synthesis.disagreement import asks, statement
from citesynth.synthesis.steps import Parts
from citesynth.verify.conflicts import Found, find_conflicts

SUMMARY_WORDS = 40
"""The executive summary may take a fifth of the words, and at least this many."""


def assemble(
    question: str,
    title: str,
    subtopics: Sequence[Subtopic],
    sections: Sequence[Section],
    index: CitationIndex,
    parts: Parts,
    max_words: int,
) -> Report:
    """The report from its sections: fitted, summarised, concluded, indexed and checked."""
    clusters = {s.title for s in subtopics if s.origin == "clusters"}
    # A cluster is the planner's guess: one whose source turns out not to answer is left out.
    unanswered = [s.title for s in sections if s.not_found and s.title in clusters]
    sections = [s for s in sections if not (s.not_found and s.title in clusters)] or sections[:1]
    across = [
        statement(found)
        for found in find_conflicts(index.passages())
        if asks(found, question) and not _stated_in(found, sections)
    ]
    kept, summary, closing, text, dropped = _fitted(
        title, without_repeats(sections, droppable=clusters), index, max_words, across
    )
    cited = {n for marker in markers(body(text)) for n in numbers_in(marker)}
    if cited != index.numbers():  # a cut took the only citation of some source
        index, mapping = index.keep(cited)
        kept = [renumbered(section, mapping) for section in kept]
        summary = relabel(summary, mapping)
        closing = relabel(closing, mapping)
        text = markdown(title, summary, kept, closing, index.sources)
    warnings = [
        f"{s.title}: written from research output ({s.fallback})" for s in kept if s.fallback
    ]
    if dropped:
        left = "; ".join(dropped)
        warnings.append(f"left out to stay within {max_words} words: {left}")
    for section in kept:
        if section.uncited:
            warnings.append(
                f"{section.title}: {len(section.uncited)} sentence(s) citing no source left out"
            )
    shown = {s.title for s in kept}
    if left_out := [t for t in unanswered if t not in shown]:
        names = "; ".join(left_out)
        warnings.append(f"clusters left out, their sources do not answer the question: {names}")
    if words(body(text)) > max_words:
        warnings.append(f"the report is longer than {max_words} words")
    claims = [c for s in kept for c in s.claims]
    verified = [c for c in claims if c.label != "unchecked"]
    share = sum(c.label == "supported" for c in verified) / len(verified) if verified else None
    checks = check(text, kept, index.sources, max_words)
    warnings.append("not judged: no judge model was given (--judge)")
    return Report(
        question=question,
        title=title,
        markdown=text,
        sections=list(kept),
        subtopics=list(subtopics),
        sources=index.sources,
        checks=checks,
        warnings=warnings,
        words=words(body(text)),
        max_words=max_words,
        citations=len(markers(body(text))),
        supported_share=round(share, 4) if share is not None else None,
        model=parts.writer.name,
        verifier=parts.verifier.name if parts.verifier is not None else None,
        prompt_version=parts.prompt_version,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
    )


def _fitted(
    title: str,
    sections: list[Section],
    index: CitationIndex,
    max_words: int,
    across: Sequence[str] = (),
) -> tuple[list[Section], str, str, str, list[str]]:
    """The report fitted to `max_words`: sections, summary, conclusions, text, left out.

    The summary is drawn from what is kept, so: fit, measure, fit again. When even one
    sentence per section is too long, the last (least relevant) sections are left out.
    """
    dropped: list[str] = []
    while True:
        closing = conclusions(sections, across)
        budget = max_words - words(closing)
        for _ in range(4):
            kept = fit(sections, max(budget, 0))
            summary = executive_summary(kept, max(SUMMARY_WORDS, max_words // 5))
            text = markdown(title, summary, kept, closing, index.sources)
            over = words(body(text)) - max_words
            if over <= 0 or budget <= 0:
                break
            budget = sum(words(s.text) for s in kept) - over
        if over <= 0 or len(sections) <= 1:
            return kept, summary, closing, text, dropped
        dropped.insert(0, sections[-1].title)
        sections = sections[:-1]


def _stated_in(found: Found, sections: Sequence[Section]) -> bool:
    """Whether a section already states this disagreement (the same two sources)."""
    pair = set(found.sources)
    return any(set(c.sources) == pair for s in sections for c in s.conflicts)
