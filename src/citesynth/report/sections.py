"""Sections: research a subtopic, write it through the answer pipeline, size it.

`SectionWriter` researches each subtopic through the tools, keeps a cluster to its own
document, and writes the section with the `report.section` prompts (the report's
question, its outline and a digest of what earlier sections said) through
`synthesis.pipeline.ask`, so each section is verified, repaired, gated and checked for
disagreement as an answer is. `sized` gives the writer more room in long reports.
"""

from __future__ import annotations

import copy
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from citesynth.citations.resolve import factual_spans
from citesynth.report.citing import CitationIndex
from citesynth.report.research import CorpusSearch, Tool, research
from citesynth.report.values import ReportProgress, Section, Subtopic
from citesynth.synthesis.extractive import ExtractiveWriter
from citesynth.synthesis.modes import get_mode
from citesynth.synthesis.options import AskOptions
from citesynth.synthesis.pipeline import ask, final_answer
from citesynth.synthesis.steps import Parts, Retrieved
from citesynth.synthesis.writers import LLMWriter
from citesynth.verify.claims import plain

LONG_REPORT = 2000
LONG_SECTION = 200
"""In a report longer than `LONG_REPORT` words, a section whose share is longer than this
gets a writer with more room (`sized`)."""
MIN_SECTION_TOKENS = 200
"""The fewest output tokens a model writes a section in (a short answer's length)."""


class SectionWriter:
    """Researches and writes sections; its citation index grows over every version."""

    def __init__(self, parts: Parts, options: AskOptions, tools: Sequence[Tool]) -> None:
        self.parts = parts
        self.options = options
        self.tools: tuple[Tool, ...] = (
            CorpusSearch(parts, options, get_mode(options.mode)),
            *tools,
        )
        self.index = CitationIndex(accessed=datetime.now(UTC).date().isoformat())
        self.research_ms = 0.0
        """Time spent researching so far, every version (writing is the rest)."""

    async def write(
        self,
        subtopics: Sequence[Subtopic],
        into: list[Section],
        *,
        strict: bool = False,
        outline: Sequence[Subtopic] = (),
        question: str = "",
        review: str = "",
    ) -> AsyncIterator[ReportProgress]:
        """Each subtopic researched and written, appended to `into` (progress as it goes).

        A model writes with the `report.section` prompts: the report's question, its
        `outline` and a digest of what the sections before said, so that it stays on its
        subject and does not repeat them; in a revision, also the judge's `review` of the
        previous version.
        """
        reviewed = (
            "Feedback on the previous version of the report (address it where the sources "
            f"allow):\n{review}\n"
            if review.strip()
            else ""
        )
        started = time.perf_counter()
        for number, subtopic in enumerate(subtopics):
            eta = eta_of(started, number, len(subtopics))
            yield ReportProgress(
                stage="research",
                message=subtopic.title,
                done=number,
                total=len(subtopics),
                eta_seconds=eta,
            )
            researching = time.perf_counter()
            found, observations = await research(subtopic.query, self.tools)
            self.research_ms += (time.perf_counter() - researching) * 1000
            found = focused(found, subtopic.document)
            yield ReportProgress(
                stage="write",
                message=subtopic.title,
                done=number,
                total=len(subtopics),
                eta_seconds=eta,
            )
            # A cluster is, by construction, something the corpus holds: it is not gated.
            gated = subtopic.origin != "clusters" and self.options.answerability
            chosen = replace(
                self.options, answerability=gated, strict=strict or self.options.strict
            )
            values = {
                "report_question": question or subtopic.query,
                "outline": "\n".join(f"- {t.title}" for t in (outline or subtopics)),
                "digest": digest(into) or "(nothing yet)",
                "review": reviewed,
            }
            answer = await final_answer(
                ask(
                    subtopic.query,
                    self.parts,
                    chosen,
                    found=found,
                    prompt="report.section",
                    values=values,
                )
            )
            into.append(self.index.section(subtopic, answer, observations))


def digest(sections: Sequence[Section], per_section: int = 25, most: int = 6) -> str:
    """What the last `most` sections said, a line each: their first sentence, cut short."""
    lines = []
    for section in sections[-most:]:
        if section.not_found:
            continue
        first = next(iter(factual_spans(section.text)), None)
        if first is None:
            continue
        words_ = plain(section.text[first[0] : first[1]]).split()
        cut = " ".join(words_[:per_section]) + (" …" if len(words_) > per_section else "")
        lines.append(f"- {section.title}: {cut}")
    return "\n".join(lines)


def sized(
    parts: Parts, options: AskOptions, max_words: int, sections: int
) -> tuple[Parts, AskOptions]:
    """The writer and retrieval depth for sections of their share of `max_words`.

    A model gets 1.3 output tokens per word of its section's share (and 64 for markers),
    at least `MIN_SECTION_TOKENS`: a short report's sections are not written at an
    answer's length only to be cut. An answer is a few sentences from a few sources; a
    section of a long report (more than 2,000 words) is longer: the extractive writer keeps
    up to one sentence per 22 words of its share, from more sources.
    """
    share = int(max_words * 0.8 / max(1, sections))
    tokens = max(MIN_SECTION_TOKENS, int(1.3 * share) + 64)
    long = max_words > LONG_REPORT and share > LONG_SECTION
    writer = parts.writer
    if isinstance(writer, ExtractiveWriter):
        writer = copy.copy(writer)
        writer.titled = False  # a section has a heading of its own
        if long:
            writer.max_sentences, writer.keep_ratio = share // 22, 0.0
    if not long:
        if isinstance(writer, LLMWriter):
            writer = copy.copy(writer)
            writer.max_output_tokens = min(writer.max_output_tokens or tokens, tokens)
        return replace(parts, writer=writer), options
    if isinstance(writer, LLMWriter):
        writer = copy.copy(writer)
        writer.max_output_tokens = max(writer.max_output_tokens or 0, tokens)
    sources = max(get_mode(options.mode).sources, share // 40)
    return replace(parts, writer=writer), replace(options, k=max(options.k or 0, sources))


def focused(found: Retrieved, document: str | None) -> Retrieved:
    """The hits from `document` only, when there are any (a cluster keeps to its source)."""
    if document is None:
        return found
    own = tuple(h for h in found.hits if h.chunk.document == document)
    return Retrieved(own, found.linked) if own else found


def eta_of(started: float, done: int, total: int) -> float | None:
    """Seconds left at the pace so far (None before anything is done)."""
    if not done:
        return None
    return round((time.perf_counter() - started) / done * (total - done), 1)
