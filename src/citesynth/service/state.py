"""What the service remembers between requests: answers by request id, conversations, stats.

All of it is bounded (oldest first out), so memory stays flat however long the service runs.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from citesynth.answers import Answer
from citesynth.evaluation.metrics import percentile

K = TypeVar("K")
V = TypeVar("V")

Status = Literal["running", "done", "failed", "cancelled"]


class Bounded(Generic[K, V]):
    """A mapping that keeps the `limit` most recently used entries."""

    def __init__(self, limit: int) -> None:
        self.limit = max(1, limit)
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The entry (now the most recently used), or None."""
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        """Keep `value`, dropping the least recently used entry when full."""
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.limit:
            self._items.popitem(last=False)

    def setdefault(self, key: K, make: Callable[[], V]) -> V:
        """The entry, created by `make` when missing."""
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value)
        return value


@dataclass(frozen=True, slots=True)
class AnswerEntry:
    """One request's answer as far as it got."""

    request_id: str
    status: Status
    started_at: float
    answer: Answer | None = None
    message: str | None = None


class AnswerBook:
    """Answers by request id, so a client that lost its stream can fetch the result."""

    def __init__(self, limit: int) -> None:
        self._entries: Bounded[str, AnswerEntry] = Bounded(limit)

    def start(self, request_id: str) -> None:
        """A request began."""
        self._entries.put(request_id, AnswerEntry(request_id, "running", time.time()))

    def end(
        self, request_id: str, status: Status, answer: Answer | None = None, message: str = ""
    ) -> None:
        """A request ended with `status` (and its answer when it has one)."""
        began = self._entries.get(request_id)
        started = began.started_at if began else time.time()
        entry = AnswerEntry(request_id, status, started, answer, message or None)
        self._entries.put(request_id, entry)

    def get(self, request_id: str) -> AnswerEntry | None:
        """The entry, or None when unknown (or long forgotten)."""
        return self._entries.get(request_id)


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
