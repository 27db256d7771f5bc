"""A research report: plan subtopics, research each, write each, assemble, check.

    report_progress(plan) → report_progress(research|write, per subtopic, with an ETA)*
    → report_progress(check) → report_done

1. Plan: the user's outline, else the parts the question lists, else the model's subtopics
   (`report.plan`), else clusters of what retrieval finds for the question (`planning`); at
   least the question itself.
2. Research: each subtopic's query through the tools (corpus search, plus any passed in);
   every call is an `Observation` on the section.
3. Write: the answer pipeline (`synthesis.pipeline.ask`) on what research found, so each
   section is written, verified, repaired, checked for disagreement and gated for
   answerability exactly as an answer is; a writer failure leaves the research output (the
   best passages' opening sentences, cited), and an unanswered subtopic says so plainly.
4. Assemble: one citation index for the whole report (`citing`), sections cut to the word
   budget, the executive summary and conclusions drawn from them (`compose`).
5. Check: structure, coverage, citations, length, support (`checks`).

6. Judge (when a judge model is given, `judging`): scores on five dimensions; below 3.5
   the report is revised and judged again, at most twice, and the best version is kept.
"""

from __future__ import annotations

import copy
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from citesynth.citations.resolve import numbers_in, relabel
from citesynth.llm.base import ChatModel
from citesynth.report import prompts as _prompts  # noqa: F401  (registers the templates)
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
from citesynth.report.judging import MAX_REVISIONS, REVISE_BELOW, JudgeFailed, judge
from citesynth.report.planning import (
    MAX_SUBTOPICS,
    from_clusters,
    from_model,
    from_outline,
    from_question,
)
from citesynth.report.research import CorpusSearch, Tool, research
from citesynth.report.values import (
    Judgement,
    Report,
    ReportDone,
    ReportProgress,
    Section,
    Subtopic,
)
from citesynth.synthesis.disagreement import asks, statement
from citesynth.synthesis.extractive import ExtractiveWriter
from citesynth.synthesis.modes import get_mode
from citesynth.synthesis.options import AskOptions
from citesynth.synthesis.pipeline import ask, final_answer
from citesynth.synthesis.prompts import Prompt
from citesynth.synthesis.steps import Parts, Retrieved, retrieve
from citesynth.synthesis.writers import LLMWriter
from citesynth.types import Hit
from citesynth.verify.conflicts import Found, find_conflicts

DEFAULT_WORDS = 1500
SECTION_WORDS = 500
LONG_SUBTOPICS = 20
LONG_REPORT = 2000
LONG_SECTION = 200
"""In a report longer than `LONG_REPORT` words, a section whose share is longer than this
gets a writer with more room (`_sized`)."""
SUMMARY_WORDS = 40
"""The executive summary may take a fifth of the words, and at least this many."""


@dataclass(frozen=True, slots=True)
class ReportOptions:
    """How to write a report: its length, outline, title, research tools and judge."""

    max_words: int = DEFAULT_WORDS
    outline: str | None = None
    title: str | None = None
    plan_with_model: bool = True
    tools: tuple[Tool, ...] = ()
    judge: ChatModel | None = None
    max_revisions: int = MAX_REVISIONS


async def write_report(
    question: str,
    parts: Parts,
    prompts: dict[str, Prompt],
    options: AskOptions = AskOptions(),
    how: ReportOptions = ReportOptions(),
) -> AsyncIterator[ReportProgress | ReportDone]:
    """The report on `question`, as progress events and the finished report last."""
    started = time.perf_counter()
    timings: dict[str, float] = {}
    yield ReportProgress(stage="plan", message="choosing subtopics", done=0, total=1)
    title, subtopics = await _plan(question, parts, prompts, options, how)
    timings["plan"] = _since(started)
    writer = _SectionWriter(*_sized(parts, options, how.max_words, len(subtopics)), how.tools)
    sections: list[Section] = []
    writing = time.perf_counter()
    async for event in writer.write(subtopics, sections):
        yield event
    timings["write"] = _since(writing)
    yield ReportProgress(
        stage="check", message="assembling and checking", done=1, total=1, eta_seconds=0.0
    )
    checking = time.perf_counter()
    report = _assemble(question, title, subtopics, sections, writer.index, parts, how)
    timings["check"] = _since(checking)
    if how.judge is not None:
        judging = time.perf_counter()
        async for step in _judged(report, subtopics, sections, writer, how, prompts, title):
            if isinstance(step, Report):
                report = step
            else:
                yield step
        timings["judge"] = _since(judging)
    timings["total"] = _since(started)
    yield ReportDone(report=report.model_copy(update={"timings_ms": timings}))


class _SectionWriter:
    """Researches and writes sections; its citation index grows over every version."""

    def __init__(self, parts: Parts, options: AskOptions, tools: Sequence[Tool]) -> None:
        self.parts = parts
        self.options = options
        self.tools: tuple[Tool, ...] = (
            CorpusSearch(parts, options, get_mode(options.mode)),
            *tools,
        )
        self.index = CitationIndex(accessed=datetime.now(UTC).date().isoformat())

    async def write(
        self, subtopics: Sequence[Subtopic], into: list[Section], *, strict: bool = False
    ) -> AsyncIterator[ReportProgress]:
        """Each subtopic researched and written, appended to `into` (progress as it goes)."""
        started = time.perf_counter()
        for number, subtopic in enumerate(subtopics):
            eta = _eta(started, number, len(subtopics))
            yield ReportProgress(
                stage="research",
                message=subtopic.title,
                done=number,
                total=len(subtopics),
                eta_seconds=eta,
            )
            found, observations = await research(subtopic.query, self.tools)
            found = _focused(found, subtopic.document)
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
            answer = await final_answer(ask(subtopic.query, self.parts, chosen, found=found))
            into.append(self.index.section(subtopic, answer, observations))


async def _judged(
    report: Report,
    subtopics: list[Subtopic],
    sections: list[Section],
    writer: _SectionWriter,
    how: ReportOptions,
    prompts: dict[str, Prompt],
    title: str,
) -> AsyncIterator[ReportProgress | Report]:
    """Judge the report; below `REVISE_BELOW`, revise and judge again; the best one last.

    A revision researches and writes the subtopics the judge found missing (three at most)
    and rewrites, strictly, the sections whose claims were removed as unsupported.
    """
    assert how.judge is not None
    versions: list[Report] = []
    judgements: list[Judgement] = []
    for cycle in range(how.max_revisions + 1):
        yield ReportProgress(
            stage="judge", message=f"version {cycle + 1}", done=cycle, total=how.max_revisions + 1
        )
        try:
            verdict = await judge(
                how.judge, prompts, report.question, [s.title for s in subtopics], report.markdown
            )
        except JudgeFailed as error:
            note = f"not judged: {error}"
            yield report.model_copy(
                update={"warnings": [*_unjudged(report.warnings), note], "judgements": judgements}
            )
            return
        judgements.append(verdict)
        versions.append(report)
        if verdict.overall >= REVISE_BELOW or cycle == how.max_revisions:
            break
        known = {s.title.lower() for s in subtopics}
        added = [
            Subtopic(
                title=m, query=m if m.endswith("?") else f"{m}: {report.question}", origin="judge"
            )
            for m in dict.fromkeys(verdict.missing)
            if m.lower() not in known
        ][:3]
        weak = [i for i, s in enumerate(sections) if s.removed_claims and s.subtopic]
        rewritten: list[Section] = []
        redo = [next(t for t in subtopics if t.title == sections[i].subtopic) for i in weak]
        async for event in writer.write(redo, rewritten, strict=True):
            yield event
        for index, section in zip(weak, rewritten, strict=True):
            sections[index] = section
        async for event in writer.write(added, sections):
            yield event
        subtopics = [*subtopics, *added]
        report = _assemble(
            report.question, title, subtopics, sections, writer.index, writer.parts, how
        )
    best = max(range(len(versions)), key=lambda i: judgements[i].overall)
    chosen = versions[best]
    yield chosen.model_copy(
        update={
            "judged": True,
            "judgements": [*judgements[:best], *judgements[best + 1 :], judgements[best]],
            "revisions": len(versions) - 1,
            "warnings": _unjudged(chosen.warnings),
        }
    )


def subtopics_for(max_words: int) -> int:
    """How many subtopics a report of `max_words` plans at most.

    Eight, one per 500 words beyond 4,000, and 20 at most (a 10,000-word report has about
    500 words a section).
    """
    return max(MAX_SUBTOPICS, min(LONG_SUBTOPICS, max_words // SECTION_WORDS))


def _sized(
    parts: Parts, options: AskOptions, max_words: int, sections: int
) -> tuple[Parts, AskOptions]:
    """The writer and retrieval depth for sections of their share of `max_words`.

    An answer is a few sentences from a few sources; a section of a long report (more than
    2,000 words) is longer:
    the extractive writer keeps up to one sentence per 22 words of its share (from more
    sources), a model gets 1.3 output tokens per word. Ordinary reports are left as is.
    """
    share = int(max_words * 0.8 / max(1, sections))
    if max_words <= LONG_REPORT or share <= LONG_SECTION:
        return parts, options
    writer = parts.writer
    if isinstance(writer, ExtractiveWriter):
        writer = ExtractiveWriter(
            writer.embedder,
            max_sentences=share // 22,
            min_score=writer.min_score,
            keep_ratio=0.0,
            duplicate=writer.duplicate,
        )
    elif isinstance(writer, LLMWriter):
        writer = copy.copy(writer)
        writer.max_output_tokens = max(writer.max_output_tokens or 0, int(1.3 * share) + 64)
    sources = max(get_mode(options.mode).sources, share // 40)
    return replace(parts, writer=writer), replace(options, k=max(options.k or 0, sources))


def _stated_in(found: Found, sections: Sequence[Section]) -> bool:
    """Whether a section already states this disagreement (the same two sources)."""
    pair = set(found.sources)
    return any(set(c.sources) == pair for s in sections for c in s.conflicts)


def _focused(found: Retrieved, document: str | None) -> Retrieved:
    """The hits from `document` only, when there are any (a cluster keeps to its source)."""
    if document is None:
        return found
    own = tuple(h for h in found.hits if _document(h) == document)
    return Retrieved(own, found.linked) if own else found


def _document(hit: Hit) -> str:
    chunk = hit.chunk
    return chunk.path if chunk.record_id is None else f"{chunk.path}#{chunk.record_id}"


def _unjudged(warnings: Sequence[str]) -> list[str]:
    return [w for w in warnings if not w.startswith("not judged")]


async def _plan(
    question: str,
    parts: Parts,
    prompts: dict[str, Prompt],
    options: AskOptions,
    how: ReportOptions,
) -> tuple[str, list[Subtopic]]:
    title = how.title
    subtopics: list[Subtopic] = []
    if how.outline:
        outline_title, subtopics = from_outline(how.outline, question)
        title = title or outline_title
    if not subtopics:
        subtopics = from_question(question)
    model = parts.writer.model
    most = subtopics_for(how.max_words)
    if not subtopics and how.plan_with_model and model is not None:
        subtopics = await from_model(question, model, prompts, most=most)
    if not subtopics:
        wide = replace(options, k=max(options.k or 0, 3 * most))
        found = await retrieve(question, parts, wide, get_mode(options.mode))
        subtopics = from_clusters(question, found.hits, limit=most)
    if not subtopics:
        subtopics = [Subtopic(title=question, query=question, origin="question")]
    return title or _title(question), subtopics


def _assemble(
    question: str,
    title: str,
    subtopics: Sequence[Subtopic],
    sections: Sequence[Section],
    index: CitationIndex,
    parts: Parts,
    how: ReportOptions,
) -> Report:
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
        title, without_repeats(sections, droppable=clusters), index, how.max_words, across
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
        warnings.append(f"left out to stay within {how.max_words} words: {left}")
    shown = {s.title for s in kept}
    if left_out := [t for t in unanswered if t not in shown]:
        names = "; ".join(left_out)
        warnings.append(f"clusters left out, their sources do not answer the question: {names}")
    if words(body(text)) > how.max_words:
        warnings.append(f"the report is longer than {how.max_words} words")
    claims = [c for s in kept for c in s.claims]
    verified = [c for c in claims if c.label != "unchecked"]
    share = sum(c.label == "supported" for c in verified) / len(verified) if verified else None
    checks = check(text, kept, index.sources, how.max_words)
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
        max_words=how.max_words,
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


def _title(question: str) -> str:
    text = " ".join(question.split()).rstrip("?.! ")
    return text[:1].upper() + text[1:] if text else "Report"


def _eta(started: float, done: int, total: int) -> float | None:
    if not done:
        return None
    return round((time.perf_counter() - started) / done * (total - done), 1)


def _since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
