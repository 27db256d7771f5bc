"""Settings: defaults, overridden by `CITESYNTH_*` environment variables, then by arguments.

Only `Engine.open` reads settings; everything below it takes explicit arguments.

| setting          | environment variable        | default                          |
|------------------|-----------------------------|----------------------------------|
| index_dir        | CITESYNTH_INDEX             | `.citesynth`                     |
| embedder         | CITESYNTH_EMBEDDER          | `auto` (MiniLM if installed)     |
| chunk_tokens     | CITESYNTH_CHUNK_TOKENS      | 200                              |
| overlap_tokens   | CITESYNTH_OVERLAP_TOKENS    | 30                               |
| max_file_mb      | CITESYNTH_MAX_FILE_MB       | 64                               |
| exclude          | CITESYNTH_EXCLUDE (a,b,…)   | none                             |
| fusion           | CITESYNTH_FUSION            | `convex` (or `rrf`)              |
| alpha            | CITESYNTH_ALPHA             | 0.5 (dense weight in `convex`)   |
| depth            | CITESYNTH_DEPTH             | 100 candidates per retriever     |
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from citesynth.errors import ConfigError


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything that can be configured; see the module docstring for the variables."""

    index_dir: Path = Path(".citesynth")
    embedder: str = "auto"
    chunk_tokens: int = 200
    overlap_tokens: int = 30
    max_file_mb: float = 64.0
    exclude: tuple[str, ...] = ()
    fusion: str = "convex"
    alpha: float = 0.5
    depth: int = 100

    def __post_init__(self) -> None:
        # Accept the obvious spellings: a string path, a list of globs.
        object.__setattr__(self, "index_dir", Path(self.index_dir))
        object.__setattr__(self, "exclude", tuple(self.exclude))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Defaults, then `CITESYNTH_*` variables, then `overrides` (None means "not given")."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for item in fields(cls):
            raw = env.get(f"CITESYNTH_{'INDEX' if item.name == 'index_dir' else item.name.upper()}")
            if raw is not None and raw.strip():
                values[item.name] = _parse(item.name, raw.strip())
        values.update({key: value for key, value in overrides.items() if value is not None})
        return replace(cls(), **values).validated()

    def validated(self) -> Settings:
        """These settings, or a `ConfigError` naming the first bad value."""
        if self.chunk_tokens < 32:
            raise ConfigError(f"chunk_tokens must be at least 32, got {self.chunk_tokens}")
        if not 0 <= self.overlap_tokens < self.chunk_tokens:
            raise ConfigError("overlap_tokens must be between 0 and chunk_tokens")
        if self.max_file_mb <= 0:
            raise ConfigError("max_file_mb must be positive")
        if self.fusion not in {"convex", "rrf"}:
            raise ConfigError(f"fusion must be 'convex' or 'rrf', got {self.fusion!r}")
        if not 0.0 <= self.alpha <= 1.0:
            raise ConfigError(f"alpha must be within 0..1, got {self.alpha}")
        if self.depth < 1:
            raise ConfigError("depth must be at least 1")
        return self

    @property
    def max_file_bytes(self) -> int:
        """The file size cap in bytes."""
        return int(self.max_file_mb * 2**20)


def _parse(name: str, raw: str) -> Any:
    try:
        if name == "index_dir":
            return Path(raw)
        if name == "exclude":
            return tuple(part.strip() for part in raw.split(",") if part.strip())
        if name in {"chunk_tokens", "overlap_tokens", "depth"}:
            return int(raw)
        if name in {"max_file_mb", "alpha"}:
            return float(raw)
    except ValueError:
        raise ConfigError(f"CITESYNTH_{name.upper()} must be a number, got {raw!r}") from None
    return raw
