"""Observability: the structured event every answer logs, and a JSON log formatter.

Every finished answer (written, not found, fallback or served from the cache) is logged once
on the `citesynth.answer` logger at INFO with one extra attribute, `answer_event`: the dict
built by `answer_event`. Anything that wants figures (`SynthesisStats`, behind the service's
`/api/debug/synthesis/stats`; a log shipper) reads that attribute; nothing parses messages.

    logging.getLogger("citesynth.answer").addHandler(handler)  # handler.emit gets each record
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

from citesynth.answers import Answer

ANSWER_LOGGER = "citesynth.answer"

log = logging.getLogger(ANSWER_LOGGER)


def answer_event(answer: Answer) -> dict[str, Any]:
    """The figures of one answer that are worth aggregating (no question or answer text)."""
    cited = answer.citations
    unsupported = sum(1 for claim in answer.claims if claim.label == "unsupported")
    return {
        "request_id": answer.request_id,
        "mode": answer.mode,
        "model": answer.model,
        "synthesis_mode": answer.synthesis_mode,
        "source_doc_count": answer.source_doc_count,
        "sources": len(answer.sources),
        "citations": len(cited),
        "multi_source_citations": sum(1 for citation in cited if citation.multi_source),
        "claims": len(answer.claims),
        "unsupported_claims": unsupported,
        "not_found": answer.not_found,
        "fallback": answer.fallback.reason if answer.fallback else None,
        "cached": answer.cached,
        "confidence": answer.confidence,
        "latency_ms": dict(answer.usage.latency_ms),
        "prompt_tokens": answer.usage.prompt_tokens,
        "completion_tokens": answer.usage.completion_tokens,
    }


def log_answer(answer: Answer) -> None:
    """Log the structured event of a finished answer."""
    log.info("answer %s", answer.request_id, extra={"answer_event": answer_event(answer)})


class JSONFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and any structured event."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a single line of JSON."""
        line: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in ("request_id", "answer_event", "http"):
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


class SynthesisStats(logging.Handler):
    """Aggregates the `answer_event` of every answer logged (see `citesynth.observe`)."""

    def __init__(self, window: int = 10_000) -> None:
        super().__init__(logging.INFO)
        self.events: deque[dict[str, Any]] = deque(maxlen=window)

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record's structured event, if it has one."""
        event = getattr(record, "answer_event", None)
        if isinstance(event, dict):
            self.events.append(event)

    def summary(self) -> dict[str, Any]:
        """Rates, means and per-stage latency percentiles over the recent answers."""
        events = list(self.events)
        count = len(events)

        def rate(name: str) -> float | None:
            return round(sum(1 for e in events if e.get(name)) / count, 4) if count else None

        written = [e for e in events if e["sources"]]
        citations = sum(e["citations"] for e in events)
        stages: dict[str, list[float]] = {}
        for event in events:
            for stage, ms in event["latency_ms"].items():
                stages.setdefault(stage, []).append(float(ms))
        return {
            "answers": count,
            "window": self.events.maxlen,
            "synthesis_mode_rate": rate("synthesis_mode"),
            "mean_source_doc_count": (
                round(sum(e["source_doc_count"] for e in written) / len(written), 3)
                if written
                else None
            ),
            "multi_source_citation_share": (
                round(sum(e["multi_source_citations"] for e in events) / citations, 4)
                if citations
                else None
            ),
            "fallback_rate": rate("fallback"),
            "not_found_rate": rate("not_found"),
            "cache_hit_rate": rate("cached"),
            "unsupported_claim_rate": _share(events, "unsupported_claims", "claims"),
            "latency_ms": {
                stage: {"p50": percentile(samples, 0.5), "p95": percentile(samples, 0.95)}
                for stage, samples in sorted(stages.items())
            },
            "models": sorted({e["model"] for e in events}),
        }


def _share(events: list[dict[str, Any]], part: str, whole: str) -> float | None:
    total = sum(e[whole] for e in events)
    return round(sum(e[part] for e in events) / total, 4) if total else None


def percentile(samples: Sequence[float], share: float) -> float | None:
    """The nearest-rank percentile (`share` in 0..1) of `samples`."""
    if not samples:
        return None
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]
