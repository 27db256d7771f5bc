"""JSONL corpora: one document per record with `doc_id` or `_id` (or `id`), `title`, `text`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

_ID_KEYS = ("doc_id", "_id", "id")


@dataclass(frozen=True, slots=True)
class Record:
    """One corpus record."""

    record_id: str
    title: str
    text: str
    path: str | None


@dataclass(frozen=True, slots=True)
class BadLine:
    """A line that is not a usable record, and why."""

    line: int
    reason: str


def read_records(text: str) -> Iterator[Record | BadLine]:
    """Parse JSONL text into records; lines that cannot be used come back as `BadLine`."""
    seen: set[str] = set()
    # JSON Lines separates records by "\n" only; `str.splitlines` would also cut at U+2028,
    # U+0085 and other characters that JSON strings may hold raw, breaking valid records.
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            yield BadLine(number, f"invalid JSON ({error.msg})")
            continue
        if not isinstance(value, dict):
            yield BadLine(number, "not a JSON object")
            continue
        body = value.get("text")
        if not isinstance(body, str) or not body.strip():
            yield BadLine(number, "no 'text' field")
            continue
        raw_id = next((value[key] for key in _ID_KEYS if value.get(key) is not None), None)
        record_id = str(raw_id) if raw_id is not None else f"line-{number}"
        if record_id in seen:
            yield BadLine(number, f"duplicate id {record_id!r}")
            continue
        seen.add(record_id)
        title = value.get("title")
        path = value.get("path")
        yield Record(
            record_id,
            title if isinstance(title, str) else "",
            body,
            path if isinstance(path, str) else None,
        )
