"""Research reports: plan subtopics, research and write each, one citation index, checks.

    async for event in engine.report("How does the client handle timeouts?", max_words=800):
        if isinstance(event, ReportProgress): ...    # stage, subtopic, done/total, ETA
        else: report = event.report                  # ReportDone: the finished `Report`

See `pipeline` for the stages and docs/reports.md for the template, the checks and the files.
"""

from __future__ import annotations

from citesynth.report.pipeline import DEFAULT_WORDS, ReportOptions, write_report
from citesynth.report.render import FORMATS, Format, render
from citesynth.report.research import CorpusSearch, Tool
from citesynth.report.values import (
    Observation,
    QualityCheck,
    Report,
    ReportDone,
    ReportProgress,
    ReportSource,
    Section,
    Subtopic,
)
from citesynth.report.web import WebSearch

__all__ = [
    "DEFAULT_WORDS",
    "FORMATS",
    "CorpusSearch",
    "Format",
    "Observation",
    "QualityCheck",
    "Report",
    "ReportDone",
    "ReportOptions",
    "ReportProgress",
    "ReportSource",
    "Section",
    "Subtopic",
    "Tool",
    "WebSearch",
    "render",
    "write_report",
]
