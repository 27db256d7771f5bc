"""A research report: plan subtopics, research each, write each, assemble, check.

    report_progress(plan) → report_progress(research|write, per subtopic, with an ETA)*
    → report_progress(check) → report_done

1. Plan: the user's outline, else the parts the question lists, else the model's subtopics
   (`report.plan`), else clusters of what retrieval finds for the question (`planning`); at
   least the question itself.
2. Research: each subtopic's query through the tools (corpus search, plus any passed in);
   every call is an `Observation` on the section.
3. Write (`sections`): the answer pipeline (`synthesis.pipeline.ask`) on what research
   found, with the `report.section` prompts (outline, digest of earlier sections), so each
   section is written, verified, repaired, checked for disagreement and gated for
   answerability exactly as an answer is; a writer failure leaves the research output (the
   best passages' opening sentences, cited), and an unanswered subtopic says so plainly.
4. Assemble (`assembly`): one citation index for the whole report (`citing`), sections cut
   to the word budget, the executive summary and conclusions drawn from them (`compose`).
5. Check: structure, coverage, citations, length, support (`checks`).
6. Judge (when a judge model is given, `judging`): scores on five dimensions; below 3.5
   the report is revised and judged again, at most twice, and the best version is kept.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, replace

from citesynth.llm.base import ChatModel, Usage
from citesynth.report import prompts as _prompts  # noqa: F401  (registers the templates)
from citesynth.report.assembly import assemble
from citesynth.report.judging import MAX_REVISIONS, REVISE_BELOW, JudgeFailed, judge
from citesynth.report.planning import (
    MAX_SUBTOPICS,
    MIN_SUBTOPICS,
    from_clusters,
    from_model,
    from_outline,
    from_question,
)
from citesynth.report.research import Tool
from citesynth.report.sections import SectionWriter, sized
from citesynth.report.values import (
    Judgement,
    Report,
    ReportDone,
    ReportProgress,
    Section,
    Subtopic,
)
from citesynth.synthesis.modes import get_mode
from citesynth.synthesis.options import AskOptions
from citesynth.synthesis.prompts import Prompt
from citesynth.synthesis.steps import Parts, retrieve

DEFAULT_WORDS = 1500
SHORT_SECTION_WORDS = 150
SECTION_WORDS = 500
LONG_SUBTOPICS = 20
REPORT_PROMPTS = ("report.plan", "report.section.system", "report.section.user", "report.judge")


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
    title, subtopics, notes, planning = await _plan(question, parts, prompts, options, how)
    timings["plan"] = _since(started)
    writer = SectionWriter(*sized(parts, options, how.max_words, len(subtopics)), how.tools)
    sections: list[Section] = []
    writing = time.perf_counter()
    async for event in writer.write(subtopics, sections, outline=subtopics, question=question):
        yield event
    timings["research"] = round(writer.research_ms, 2)
    timings["write"] = round(_since(writing) - writer.research_ms, 2)
    yield ReportProgress(
        stage="check", message="assembling and checking", done=1, total=1, eta_seconds=0.0
    )
    checking = time.perf_counter()
    report = assemble(question, title, subtopics, sections, writer.index, parts, how.max_words)
    if notes:
        report = report.model_copy(update={"warnings": [*notes, *report.warnings]})
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
    metadata = {
        "timings_ms": timings,
        "tokens": _tokens(report, planning),
        "prompt_versions": {
            n: p.version for n, p in sorted(prompts.items()) if n in REPORT_PROMPTS
        },
    }
    yield ReportDone(report=report.model_copy(update=metadata))


def _tokens(report: Report, planning: Usage | None) -> dict[str, int]:
    """Prompt and completion tokens of planning, writing and judging, where reported."""
    counted: dict[str, int] = {}
    stages: tuple[tuple[str, Sequence[object]], ...] = (
        ("plan", [planning] if planning is not None else []),
        ("write", report.sections),
        ("judge", report.judgements),
    )
    for stage, items in stages:
        for kind in ("prompt", "completion"):
            values = [getattr(item, f"{kind}_tokens") for item in items]
            known = [v for v in values if v is not None]
            if known:
                counted[f"{stage}_{kind}"] = sum(known)
    return counted


async def _judged(
    report: Report,
    subtopics: list[Subtopic],
    sections: list[Section],
    writer: SectionWriter,
    how: ReportOptions,
    prompts: dict[str, Prompt],
    title: str,
) -> AsyncIterator[ReportProgress | Report]:
    """Judge the report; below `REVISE_BELOW`, revise and judge again; the best one last.

    A revision researches and writes the subtopics the judge found missing (three at most)
    and rewrites, strictly, the sections whose claims were removed as unsupported; when
    there are neither, it rewrites every written section. Each sees the judge's feedback.
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
        strict = bool(weak)
        if not weak and not added:  # nothing missing or unsupported: rewrite with the review
            weak = [i for i, s in enumerate(sections) if s.subtopic and not s.not_found]
        rewritten: list[Section] = []
        redo = [next(t for t in subtopics if t.title == sections[i].subtopic) for i in weak]
        async for event in writer.write(
            redo,
            rewritten,
            strict=strict,
            outline=subtopics,
            question=report.question,
            review=verdict.feedback,
        ):
            yield event
        for index, section in zip(weak, rewritten, strict=True):
            sections[index] = section
        async for event in writer.write(
            added,
            sections,
            outline=[*subtopics, *added],
            question=report.question,
            review=verdict.feedback,
        ):
            yield event
        subtopics = [*subtopics, *added]
        report = assemble(
            report.question, title, subtopics, sections, writer.index, writer.parts, how.max_words
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

    One per 150 words up to eight (a 600-word report has four), then one per 500 words
    beyond 4,000, and 20 at most (a 10,000-word report has about 500 words a section).
    """
    short = min(MAX_SUBTOPICS, max_words // SHORT_SECTION_WORDS)
    return max(MIN_SUBTOPICS, min(LONG_SUBTOPICS, max(short, max_words // SECTION_WORDS)))


def _unjudged(warnings: Sequence[str]) -> list[str]:
    return [w for w in warnings if not w.startswith("not judged")]


async def _plan(
    question: str,
    parts: Parts,
    prompts: dict[str, Prompt],
    options: AskOptions,
    how: ReportOptions,
) -> tuple[str, list[Subtopic], list[str], Usage | None]:
    """The title, subtopics, notes (an outline cut to 20) and a model plan's tokens."""
    title = how.title
    subtopics: list[Subtopic] = []
    notes = []
    if how.outline:
        outline_title, subtopics = from_outline(how.outline, question)
        title = title or outline_title
        if len(subtopics) > LONG_SUBTOPICS:  # a report has 20 sections at most
            notes.append(
                f"the outline has {len(subtopics)} subtopics: the first {LONG_SUBTOPICS} are "
                "written"
            )
            subtopics = subtopics[:LONG_SUBTOPICS]
    if not subtopics:
        subtopics = from_question(question)
    model = parts.writer.model
    most = subtopics_for(how.max_words)
    usage: Usage | None = None
    if not subtopics and how.plan_with_model and model is not None:
        subtopics, usage = await from_model(question, model, prompts, most=most)
    by_model = bool(subtopics) and all(s.origin == "model" for s in subtopics)
    if not subtopics or (by_model and len(subtopics) < MIN_SUBTOPICS):
        # No plan, or a model's plan of fewer than three: clusters of what retrieval finds
        # make it or fill it up (a cluster whose source does not answer is left out later).
        wide = replace(options, k=max(options.k or 0, 3 * most))
        found = await retrieve(question, parts, wide, get_mode(options.mode))
        known = {s.title.lower() for s in subtopics}
        clusters = [
            c
            for c in from_clusters(question, found.hits, limit=most)
            if c.title.lower() not in known
        ]
        subtopics = [*subtopics, *clusters][: MIN_SUBTOPICS if subtopics else most]
    if not subtopics:
        subtopics = [Subtopic(title=question, query=question, origin="question")]
    return title or _title(question), subtopics, notes, usage


def _title(question: str) -> str:
    text = " ".join(question.split()).rstrip("?.! ")
    return text[:1].upper() + text[1:] if text else "Report"


def _since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
