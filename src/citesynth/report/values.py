"""The report contract: the JSON written next to a report and the stream's last event.

Pydantic models, like the answer's (`citesynth.answers`), so `report --format json`,
`Engine.write_report` and the `report_done` event have one shape.
Versioned by `REPORT_SCHEMA_VERSION`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from citesynth.answers import Claim, Conflict
from citesynth.events import Event

REPORT_SCHEMA_VERSION = "1"

Origin = Literal["outline", "question", "model", "clusters", "judge"]
Stage = Literal["plan", "research", "write", "check", "judge"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Subtopic(_Frozen):
    """One part of the question: a title for its section and the query researched for it."""

    title: str
    query: str
    origin: Origin = Field(description="Who chose it: the user's outline, the model, or clusters")
    document: str | None = Field(
        default=None, description="The document a cluster comes from: its research keeps to it"
    )


class Observation(_Frozen):
    """What one tool call returned during research."""

    tool: str
    query: str
    found: list[str] = Field(description="Locations of what it returned, best first")
    chunk_ids: list[str]
    milliseconds: float
    error: str | None = Field(default=None, description="Why the tool returned nothing")


class ReportSource(_Frozen):
    """An entry of the report's one citation index (numbers are stable across sections)."""

    number: int
    chunk_id: str
    title: str
    path: str
    location: str = Field(description="path:Lx-Ly or path, p. N")
    url: str
    accessed: str = Field(description="The date the source was read (ISO)")
    snippet: str

    @property
    def entry(self) -> str:
        """`[n] Title. path:Lx-Ly. Accessed DATE.` as the Sources section lists it."""
        title = self.title.rstrip(".") or self.path
        return f"[{self.number}] {title}. {self.location}. Accessed {self.accessed}."


class Section(_Frozen):
    """A section of the report as written, with its markers already in the report's numbers."""

    title: str
    text: str
    subtopic: str | None = Field(default=None, description="The subtopic it reports on")
    not_found: bool = False
    confidence: float | None = None
    claims: list[Claim] = Field(default_factory=list)
    removed_claims: list[Claim] = Field(default_factory=list)
    uncited: list[str] = Field(
        default_factory=list, description="Sentences the writer left without a citation, left out"
    )
    conflicts: list[Conflict] = Field(default_factory=list)
    fallback: str | None = Field(default=None, description="Why research output stands in")
    warnings: list[str] = Field(
        default_factory=list,
        description="The section's citation validation: invalid markers removed, unused sources",
    )
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    observations: list[Observation] = Field(default_factory=list)


class QualityCheck(_Frozen):
    """One check of the finished report (structure, coverage, citations, length)."""

    name: str
    passed: bool
    detail: str


class Judgement(_Frozen):
    """A judge model's scores of one version of the report (1–5 per dimension)."""

    judge: str = Field(description="The model that judged")
    scores: dict[str, float] = Field(
        description="factual_accuracy, completeness, coverage, coherence, bias"
    )
    overall: float = Field(description="The weighted score, 1–5")
    feedback: str = ""
    missing: list[str] = Field(default_factory=list, description="Subtopics it found missing")
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class Report(_Frozen):
    """A research report over the corpus: sections, one citation index, checks, metadata."""

    schema_version: str = REPORT_SCHEMA_VERSION
    question: str
    title: str
    markdown: str = Field(description="The whole report as Markdown, Sources included")
    sections: list[Section]
    subtopics: list[Subtopic]
    sources: list[ReportSource]
    checks: list[QualityCheck]
    warnings: list[str] = Field(default_factory=list)
    words: int
    max_words: int
    citations: int = Field(description="Citation markers in the report")
    supported_share: float | None = Field(
        description="Share of the verified claims judged supported (None: nothing verified)"
    )
    judged: bool = Field(default=False, description="Whether a judge model scored the report")
    judgements: list[Judgement] = Field(
        default_factory=list, description="Every version's scores, in order; the kept one last"
    )
    revisions: int = Field(default=0, description="Revision cycles run after judging")
    model: str
    verifier: str | None
    prompt_version: str
    prompt_versions: dict[str, str] = Field(
        default_factory=dict,
        description="Each report prompt's version (report.plan, report.section.*, report.judge)",
    )
    created: str
    timings_ms: dict[str, float] = Field(
        default_factory=dict,
        description="Milliseconds per stage: plan, research, write, check, judge, total",
    )
    tokens: dict[str, int] = Field(
        default_factory=dict,
        description="Prompt and completion tokens of planning, writing and judging, where reported",
    )


class ReportProgress(Event):
    """A stage of the report started or advanced; `eta_seconds` when it can be estimated."""

    kind: Literal["report_progress"] = "report_progress"
    stage: Stage
    message: str
    done: int
    total: int
    eta_seconds: float | None = None


class ReportDone(Event):
    """The finished report (always the last event)."""

    kind: Literal["report_done"] = "report_done"
    report: Report
