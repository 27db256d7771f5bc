"""Observability: the structured event every answer logs, and a JSON log formatter.

Every finished answer (written, not found, fallback or served from the cache) is logged once
on the `citesynth.answer` logger at INFO with one extra attribute, `answer_event`: the dict
built by `answer_event`. Anything that wants figures (the service's
`/api/debug/synthesis/stats`, a log shipper) reads that attribute; nothing parses messages.

    logging.getLogger("citesynth.answer").addHandler(handler)  # handler.emit gets each record
"""

from __future__ import annotations

import json
import logging
import time
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
