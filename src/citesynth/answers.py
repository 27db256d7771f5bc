"""The answer contract: what `ask --json`, `Engine.answer` and the final stream event carry.

Pydantic models, so the same definitions give the JSON (field names as documented in
docs/answers.md, "The answer JSON") and its JSON Schema (`Answer.model_json_schema()`,
committed as docs/schemas/answer.schema.json and pinned by a test). Versioned by
`SCHEMA_VERSION`: fields may be added; none changes meaning or disappears without a bump.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = "1"

Support = Literal["supported", "partial", "unsupported", "unchecked"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SourceRecord(_Frozen):
    """A source shown to the model, numbered as the answer cites it."""

    number: int
    chunk_id: str
    doc_id: str
    path: str
    title: str
    page: int | None
    start_line: int
    end_line: int
    heading_path: list[str]
    record_id: str | None = Field(
        default=None, description="The record's id when the source is a JSONL record"
    )
    location: str = Field(
        description="How to cite it: path:Lstart-Lend, path, p. N, or path#record"
    )
    url: str = Field(description="file://path#Lstart-Lend or file://path#page=N")
    text: str = Field(description="The chunk text")
    shown: str = Field(
        description="What the model was shown: the text, or the evidence kept from it"
    )
    score: float
    confidence: float = Field(description="Pass-1 confidence that the chunk is relevant, 0..1")


class EvidenceSpan(_Frozen):
    """The exact supporting span inside a cited source."""

    char_start: int
    char_end: int
    start_line: int
    end_line: int
    text: str
    number: int | None = Field(default=None, description="The source (citation number) it is in")


class TavilyRecord(_Frozen):
    """The source as tools that expect Tavily-style search results read it."""

    id: str
    title: str
    url: str
    content: str
    snippet: str


class Citation(_Frozen):
    """One cited source, with its provenance."""

    number: int
    chunk_id: str
    path: str
    title: str
    page: int | None
    start_line: int
    end_line: int
    location: str
    snippet: str
    relevance: float = Field(description="The source's Pass-1 confidence")
    multi_source: bool = Field(description="Cited together with another source at least once")
    support: Support = "unchecked"
    evidence: EvidenceSpan | None = None
    record: TavilyRecord


class Claim(_Frozen):
    """A sentence (or clause) of the answer, what it cites, and how well that supports it."""

    text: str
    citations: list[int]
    support: float | None = Field(
        default=None, description="Verified support by the cited sources together, 0..1"
    )
    label: Support = "unchecked"
    evidence: list[EvidenceSpan] = Field(
        default_factory=list, description="The supporting sentences, best first"
    )
    documents: int = Field(
        default=0, description="Distinct documents among the cited sources that support it alone"
    )
    precise: list[int] = Field(
        default_factory=list, description="The citations that support it or are needed for it"
    )
    reasons: list[str] = Field(
        default_factory=list, description="Why it is not supported (and what of it was kept)"
    )
    kind: Literal["sentence", "code"] = Field(
        default="sentence",
        description="A sentence (or clause), or a code block checked as a quotation",
    )


class Verification(_Frozen):
    """What checking the answer's claims found (DESIGN §5; docs/verification.md)."""

    verifier: str
    claims: int
    supported: int
    partial: int
    unsupported: int
    citation_recall: float | None = Field(
        description="Share of claims supported by the union of their citations (ALCE)"
    )
    citation_precision: float | None = Field(
        description="Share of citations that support their claim or are needed for it (ALCE)"
    )
    repairs: int = Field(default=0, description="Citations moved or added")
    removed: int = Field(default=0, description="Unsupported claims removed from the answer")
    regenerated: bool = Field(default=False, description="Strict mode asked for a rewrite")
    signals: dict[str, float] = Field(
        default_factory=dict, description="The confidence signals (docs/verification.md)"
    )


class Conflict(_Frozen):
    """Where sources disagree: the same subject with different values in two documents."""

    topic: str
    values: list[str] = Field(description="The differing values, one per source")
    sources: list[int] = Field(description="The source numbers, in the order of `values`")
    kind: str = Field(default="value", description="number | date | negation | name")


class Fallback(_Frozen):
    """Why the answer is the ranked chunks instead of a written answer."""

    reason: str


class UsageReport(_Frozen):
    """Tokens, time, and how clean the writer's citation markers were before cleanup."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_ms: dict[str, float] = Field(default_factory=dict)
    markers: int = Field(default=0, description="Citation markers the writer produced")
    invalid_markers: int = Field(default=0, description="Of those, markers naming no source")


class Answer(_Frozen):
    """A grounded answer with checkable citations (the contract of DESIGN §5)."""

    schema_version: str = SCHEMA_VERSION
    question: str
    answer: str
    citations: list[Citation] = Field(default_factory=list)
    sources: list[SourceRecord] = Field(default_factory=list)
    claims: list[Claim] = Field(default_factory=list)
    uncited_claims: list[str] = Field(default_factory=list)
    removed_claims: list[Claim] = Field(
        default_factory=list,
        description="Claims taken out of the answer because no source supports them, as "
        "written; a claim cut to the leading part its sources support says so in its reasons "
        "(kept in the answer, flagged, when asked with keep_unsupported)",
    )
    conflicts: list[Conflict] = Field(default_factory=list)
    verification: Verification | None = None
    confidence: float = 0.0
    low_confidence: bool = False
    disclaimer: str | None = None
    synthesis_mode: bool = False
    source_doc_count: int = 0
    not_found: bool = False
    fallback: Fallback | None = None
    warnings: list[str] = Field(default_factory=list)
    usage: UsageReport = UsageReport()
    model: str
    mode: str
    request_id: str
    cached: bool = False
