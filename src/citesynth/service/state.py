"""What the service remembers between requests: results by request id and conversations.

All of it is bounded (oldest first out), so memory stays flat however long the service runs.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

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
class Entry(Generic[V]):
    """One request's result as far as it got."""

    request_id: str
    status: Status
    started_at: float
    result: V | None = None
    message: str | None = None


class Book(Generic[V]):
    """Results by request id (answers, reports): a client that lost its stream fetches them."""

    def __init__(self, limit: int) -> None:
        self._entries: Bounded[str, Entry[V]] = Bounded(limit)

    def start(self, request_id: str) -> None:
        """A request began."""
        self._entries.put(request_id, Entry(request_id, "running", time.time()))

    def end(
        self, request_id: str, status: Status, result: V | None = None, message: str = ""
    ) -> None:
        """A request ended with `status` (and its result when it has one)."""
        began = self._entries.get(request_id)
        started = began.started_at if began else time.time()
        self._entries.put(request_id, Entry(request_id, status, started, result, message or None))

    def cancel(self, request_id: str) -> None:
        """The client went away: a request still running is cancelled."""
        entry = self._entries.get(request_id)
        if entry is not None and entry.status == "running":
            self.end(request_id, "cancelled", message="the client went away")

    def get(self, request_id: str) -> Entry[V] | None:
        """The entry, or None when unknown (or long forgotten)."""
        return self._entries.get(request_id)
