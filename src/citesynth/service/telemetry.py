"""Optional OpenTelemetry export: one span per answer, from its logged `answer_event`.

Active when `opentelemetry` is installed (`pip install 'citesynth[otel]'`); spans go wherever
the process's tracer provider sends them (configure it with the SDK or
`opentelemetry-instrument`). Without the package, nothing here runs.
"""

from __future__ import annotations

import logging
import time
from typing import Any

try:
    from opentelemetry import trace
except ImportError:  # the optional extra is not installed
    trace = None  # type: ignore[assignment]


def available() -> bool:
    """Whether OpenTelemetry is installed."""
    return trace is not None


class AnswerSpans(logging.Handler):
    """Turns each answer's structured event into a `citesynth.answer` span."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        assert trace is not None, "OpenTelemetry is not installed"
        self.tracer = trace.get_tracer("citesynth")

    def emit(self, record: logging.LogRecord) -> None:
        """Record a span covering the answer, with its figures as attributes."""
        event = getattr(record, "answer_event", None)
        if not isinstance(event, dict):
            return
        total_ms = float(event.get("latency_ms", {}).get("total", 0.0))
        end = time.time_ns()
        start = end - int(total_ms * 1e6)
        span = self.tracer.start_span("citesynth.answer", start_time=start)
        for key, value in _attributes(event).items():
            span.set_attribute(key, value)
        span.end(end_time=end)


def _attributes(event: dict[str, Any]) -> dict[str, str | int | float | bool]:
    flat: dict[str, str | int | float | bool] = {}
    for key, value in event.items():
        if isinstance(value, dict):
            for stage, ms in value.items():
                flat[f"citesynth.{key}.{stage}"] = float(ms)
        elif isinstance(value, str | int | float | bool):
            flat[f"citesynth.{key}"] = value
    return flat
