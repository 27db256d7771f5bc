"""The quality check of a finished report: structure, coverage, citations, length, support.

| check          | passes when                                                             |
|----------------|-------------------------------------------------------------------------|
| `structure`    | Executive Summary, Key Findings, Conclusions and Sources are all there   |
| `coverage`     | the sources answer at least 80 % of the subtopics                        |
| `citations`    | every marker names a listed source, and every listed source is cited     |
| `cited`        | the findings cite at least one source                                    |
| `length`       | the body (without Sources) holds at most `max_words` words               |
| `supported`    | no claim left in the report is unsupported by its sources                |
"""

from __future__ import annotations

from collections.abc import Sequence

from citesynth.citations.markers import find_markers
from citesynth.citations.resolve import CANONICAL, numbers_in
from citesynth.report.compose import body, words
from citesynth.report.values import QualityCheck, ReportSource, Section

MIN_COVERAGE = 0.8
HEADINGS = ("## Executive Summary", "## Key Findings", "## Conclusions", "## Sources")


def check(
    text: str, sections: Sequence[Section], sources: Sequence[ReportSource], max_words: int
) -> list[QualityCheck]:
    """Every check of the module docstring, in its order."""
    return [
        _structure(text),
        coverage_check(sections),
        _citations(text, sources),
        _cited(sections),
        _length(text, max_words),
        _supported(sections),
    ]


def markers(text: str) -> list[str]:
    """The citation markers in `text`, in order (not `items[0]` inside code)."""
    return [m.raw for m in find_markers(text, ()) if CANONICAL.fullmatch(m.raw)]


def coverage(sections: Sequence[Section]) -> float:
    """The share of subtopics the sources answer."""
    return sum(not s.not_found for s in sections) / len(sections) if sections else 0.0


def coverage_check(sections: Sequence[Section]) -> QualityCheck:
    """`coverage` as a check."""
    share = coverage(sections)
    missing = [s.title for s in sections if s.not_found]
    detail = f"{share:.0%} of {len(sections)} subtopics answered"
    if missing:
        detail += "; not found: " + "; ".join(missing)
    return QualityCheck(name="coverage", passed=share >= MIN_COVERAGE, detail=detail)


def _structure(text: str) -> QualityCheck:
    lacking = [h.removeprefix("## ") for h in HEADINGS if f"\n{h}\n" not in text]
    detail = "all sections present" if not lacking else "missing: " + ", ".join(lacking)
    return QualityCheck(name="structure", passed=not lacking, detail=detail)


def _citations(text: str, sources: Sequence[ReportSource]) -> QualityCheck:
    listed = {s.number for s in sources}
    cited = {n for m in markers(body(text)) for n in numbers_in(m)}
    unknown = sorted(cited - listed)
    unused = sorted(listed - cited)
    problems = []
    if unknown:
        problems.append(f"markers naming no listed source: {unknown}")
    if unused:
        problems.append(f"listed sources never cited: {unused}")
    detail = "; ".join(problems) or f"{len(cited)} sources cited, all listed"
    return QualityCheck(name="citations", passed=not problems, detail=detail)


def _cited(sections: Sequence[Section]) -> QualityCheck:
    count = sum(len(markers(s.text)) for s in sections)
    return QualityCheck(name="cited", passed=count > 0, detail=f"{count} citation markers")


def _length(text: str, max_words: int) -> QualityCheck:
    count = words(body(text))
    return QualityCheck(
        name="length", passed=count <= max_words, detail=f"{count} words (limit {max_words})"
    )


def _supported(sections: Sequence[Section]) -> QualityCheck:
    claims = [c for s in sections for c in s.claims]
    bad = [c for c in claims if c.label == "unsupported"]
    removed = sum(len(s.removed_claims) for s in sections)
    supported = sum(c.label == "supported" for c in claims)
    detail = f"{supported} of {len(claims)} claims supported, {len(bad)} unsupported"
    if removed:
        detail += f"; {removed} unsupported claim(s) removed"
    return QualityCheck(name="supported", passed=not bad, detail=detail)
