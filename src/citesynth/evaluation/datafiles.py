"""Where the shared data sets live, and reading their JSONL files with clear errors."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from citesynth.errors import ConfigError


def data_dir(explicit: Path | None = None) -> Path:
    """Where the shared data sets live."""
    if explicit is not None:
        return explicit
    if os.environ.get("CITESYNTH_DATA"):
        return Path(os.environ["CITESYNTH_DATA"])
    for base in (Path.cwd(), Path(__file__).resolve()):
        for parent in (base, *base.parents):
            candidate = parent.parent / "shared" / "data"
            if candidate.is_dir():
                return candidate
    return Path.cwd().parent / "shared" / "data"


def numbered_rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each JSON object of a JSONL file with its line number (blank lines skipped).

    Raises:
        ConfigError: unreadable file, invalid JSON or a line that is not an object,
            naming the file and line.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"cannot read {path}: {error}") from error
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise ConfigError(f"{path}:{number}: invalid JSON ({error.msg})") from error
        if not isinstance(row, dict):
            raise ConfigError(f"{path}:{number}: not a JSON object")
        yield number, row


def rows(path: Path) -> Iterator[dict[str, Any]]:
    """The JSON objects of a JSONL file (see `numbered_rows`)."""
    return (row for _, row in numbered_rows(path))
