"""The answer contract: what `ask --json`, `Engine.answer` and the final stream event carry.

Pydantic models, so the same definitions give the JSON (field names as documented in
docs/answer-json.md) and its JSON Schema (`Answer.model_json_schema()`). Versioned by
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
    """A sentence of the answer and what it cites."""

    text: str
    citations: list[int]
    support: float | None = None
    label: Support = "unchecked"


class Conflict(_Frozen):
    """Where sources disagree."""

    topic: str
    values: list[str]
    sources: list[int]


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
    conflicts: list[Conflict] = Field(default_factory=list)
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
