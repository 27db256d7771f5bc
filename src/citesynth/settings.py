"""Settings: defaults, overridden by `CITESYNTH_*` environment variables, then by arguments.

Only `Engine.open` reads settings; everything below it takes explicit arguments.

| setting         | environment variable      | default                                       |
|-----------------|---------------------------|-----------------------------------------------|
| index_dir       | CITESYNTH_INDEX           | `.citesynth`                                  |
| embedder        | CITESYNTH_EMBEDDER        | `auto` (MiniLM if installed)                  |
| chunk_tokens    | CITESYNTH_CHUNK_TOKENS    | 200                                           |
| overlap_tokens  | CITESYNTH_OVERLAP_TOKENS  | 30                                            |
| max_file_mb     | CITESYNTH_MAX_FILE_MB     | 64                                            |
| exclude         | CITESYNTH_EXCLUDE (a,b,…) | none                                          |
| fusion          | CITESYNTH_FUSION          | `convex` (or `rrf`)                           |
| alpha           | CITESYNTH_ALPHA           | 0.5 (dense weight in `convex`)                |
| depth           | CITESYNTH_DEPTH           | 100 candidates per retriever                  |
| model           | CITESYNTH_MODEL           | `auto`: local if installed, else extractive   |
| mode            | CITESYNTH_MODE            | `simple` (or `detailed`, `deep`)              |
| timeout         | CITESYNTH_TIMEOUT         | 0: the model's own (local 180 s, remote 90 s) |
| prompts_dir     | CITESYNTH_PROMPTS         | none (the built-in prompts)                   |
| cache_ttl       | CITESYNTH_CACHE_TTL       | 86400 s (0 turns the answer cache off)        |
| not_found_below | CITESYNTH_NOT_FOUND_BELOW | 0.2 (best hit's Pass-1 confidence)            |
| verifier        | CITESYNTH_VERIFIER        | `lexical` (or `judge:MODEL`, `none`)          |
| strict          | CITESYNTH_STRICT          | false: unsupported claims are flagged, kept   |
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
    model: str = "auto"
    mode: str = "simple"
    timeout: float = 0.0
    prompts_dir: Path | None = None
    cache_ttl: float = 86_400.0
    not_found_below: float = 0.2
    verifier: str = "lexical"
    strict: bool = False

    def __post_init__(self) -> None:
        # Accept the obvious spellings: a string path, a list of globs.
        object.__setattr__(self, "index_dir", Path(self.index_dir))
        object.__setattr__(self, "exclude", tuple(self.exclude))
        if self.prompts_dir is not None:
            object.__setattr__(self, "prompts_dir", Path(self.prompts_dir))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Defaults, then `CITESYNTH_*` variables, then `overrides` (None means "not given")."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for item in fields(cls):
            raw = env.get(f"CITESYNTH_{_VARIABLES.get(item.name, item.name.upper())}")
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
        if self.mode not in {"simple", "detailed", "deep"}:
            raise ConfigError(f"mode must be simple, detailed or deep, got {self.mode!r}")
        if self.timeout < 0 or self.cache_ttl < 0:
            raise ConfigError("timeout and cache_ttl must not be negative")
        if not 0.0 <= self.not_found_below <= 1.0:
            raise ConfigError(f"not_found_below must be within 0..1, got {self.not_found_below}")
        return self

    @property
    def max_file_bytes(self) -> int:
        """The file size cap in bytes."""
        return int(self.max_file_mb * 2**20)


_VARIABLES = {"index_dir": "INDEX", "prompts_dir": "PROMPTS"}


def _parse(name: str, raw: str) -> Any:
    try:
        if name in {"index_dir", "prompts_dir"}:
            return Path(raw)
        if name == "exclude":
            return tuple(part.strip() for part in raw.split(",") if part.strip())
        if name in {"chunk_tokens", "overlap_tokens", "depth"}:
            return int(raw)
        if name in {"max_file_mb", "alpha", "timeout", "cache_ttl", "not_found_below"}:
            return float(raw)
        if name == "strict":
            return raw.lower() in {"1", "true", "yes", "on"}
    except ValueError:
        raise ConfigError(f"CITESYNTH_{name.upper()} must be a number, got {raw!r}") from None
    return raw
