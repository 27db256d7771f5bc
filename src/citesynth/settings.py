"""Settings: defaults, then a settings file, then `CITESYNTH_*` variables, then arguments.

The settings file is TOML with the names below as keys (`store = "postgresql://db/docs"`,
`exclude = ["*.log"]`): `$CITESYNTH_CONFIG` when set, else `citesynth.toml` in the current
folder when there is one. Every `serve` replica can read the same file.

Only `Engine.open` reads settings; everything below it takes explicit arguments. Defaults
that an option value also has (`IngestOptions`, `RetrievalOptions`, `AskOptions`) are read
off that value, so each is written once.

| setting         | environment variable      | default                                       |
|-----------------|---------------------------|-----------------------------------------------|
| index_dir       | CITESYNTH_INDEX           | `.citesynth`                                  |
| store           | CITESYNTH_STORE           | empty: the SQLite store in `index_dir`        |
| root            | CITESYNTH_ROOT            | the index folder's parent (paths shown below) |
| embedder        | CITESYNTH_EMBEDDER        | `auto`: the index's, else MiniLM if installed |
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
| verifier        | CITESYNTH_VERIFIER        | `default`: `trained`, or `lexical` without torch |
| strict          | CITESYNTH_STRICT          | false: no rewrite with the verdicts           |
| keep_unsupported | CITESYNTH_KEEP_UNSUPPORTED | false: claims no source supports are removed |
| report_words    | CITESYNTH_REPORT_WORDS    | 1500 (a report's length limit)                |
| report_judge    | CITESYNTH_REPORT_JUDGE    | none: not judged (`local`, `judge:openai:X`)  |
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from citesynth.errors import ConfigError
from citesynth.index.stores import location_folder, part_location, shown_location
from citesynth.indexing import IngestOptions
from citesynth.retrieve.fusion import FusionMethod
from citesynth.retrieve.hybrid import RetrievalOptions
from citesynth.synthesis.modes import MODE_NAMES
from citesynth.synthesis.options import AskOptions

# The defaults below are read off the option values, where they are written once.
_INGEST = IngestOptions()
_RETRIEVAL = RetrievalOptions()
_ASK = AskOptions()


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything that can be configured; see the module docstring for the variables."""

    index_dir: Path = Path(".citesynth")
    store: str = ""
    root: Path | None = None
    embedder: str = "auto"
    chunk_tokens: int = _INGEST.chunk_tokens
    overlap_tokens: int = _INGEST.overlap_tokens
    max_file_mb: float = _INGEST.max_file_bytes / 2**20
    exclude: tuple[str, ...] = _INGEST.exclude
    fusion: str = _RETRIEVAL.fusion
    alpha: float = _RETRIEVAL.alpha
    depth: int = _RETRIEVAL.depth
    model: str = "auto"
    mode: str = _ASK.mode
    timeout: float = 0.0
    prompts_dir: Path | None = None
    cache_ttl: float = _ASK.cache_ttl
    not_found_below: float = _ASK.not_found_below
    verifier: str = "default"
    strict: bool = _ASK.strict
    keep_unsupported: bool = _ASK.keep_unsupported
    report_words: int = 1500
    """The length limit of a report's body, in words, when a call gives none."""
    report_judge: str = ""
    """The model that judges reports when a call names none (empty: not judged)."""

    def __post_init__(self) -> None:
        # Accept the obvious spellings: a string path, a list of globs.
        object.__setattr__(self, "index_dir", Path(self.index_dir))
        object.__setattr__(self, "exclude", tuple(self.exclude))
        if self.root is not None:
            object.__setattr__(self, "root", Path(self.root))
        if self.prompts_dir is not None:
            object.__setattr__(self, "prompts_dir", Path(self.prompts_dir))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Defaults, the settings file, `CITESYNTH_*` variables, then `overrides`.

        An override of None means "not given".

        Raises:
            ConfigError: a value is malformed, or the settings file is unreadable, not TOML
                or names an unknown setting.
        """
        env = os.environ if environ is None else environ
        values = _from_file(env)
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
        if self.mode not in MODE_NAMES:
            names = f"{', '.join(MODE_NAMES[:-1])} or {MODE_NAMES[-1]}"
            raise ConfigError(f"mode must be {names}, got {self.mode!r}")
        if self.timeout < 0 or self.cache_ttl < 0:
            raise ConfigError("timeout and cache_ttl must not be negative")
        if self.report_words < 50:
            raise ConfigError(f"report_words must be at least 50, got {self.report_words}")
        if not 0.0 <= self.not_found_below <= 1.0:
            raise ConfigError(f"not_found_below must be within 0..1, got {self.not_found_below}")
        return self

    @property
    def max_file_bytes(self) -> int:
        """The file size cap in bytes."""
        return int(self.max_file_mb * 2**20)

    @property
    def store_location(self) -> str:
        """Where the index lives, as `get_store` reads it (`store`, else `index_dir`)."""
        return self.store or str(self.index_dir)

    @property
    def on_server(self) -> bool:
        """Whether the index lives in a database server, not in a folder."""
        return location_folder(self.store_location) is None

    def part_location(self, name: str) -> str:
        """A store location beside this one for one named part (an eval corpus)."""
        return part_location(self.store_location, name)

    @property
    def store_shown(self) -> str:
        """`store_location` fit for messages (a database password hidden)."""
        return shown_location(self.store_location)

    @property
    def root_dir(self) -> Path:
        """The folder indexed paths are shown relative to.

        Default: the parent of the index folder (of `sqlite:PATH` too); the current folder
        for a store elsewhere (a database server).
        """
        if self.root is not None:
            return self.root.resolve()
        folder = location_folder(self.store_location)
        return Path(folder).resolve().parent if folder else Path.cwd().resolve()

    def ingest_options(self) -> IngestOptions:
        """How indexing chunks files, as these settings say."""
        return IngestOptions(
            chunk_tokens=self.chunk_tokens,
            overlap_tokens=self.overlap_tokens,
            max_file_bytes=self.max_file_bytes,
            exclude=self.exclude,
        )

    def retrieval_options(self) -> RetrievalOptions:
        """How Pass 1 searches, as these settings say."""
        fusion: FusionMethod = "rrf" if self.fusion == "rrf" else "convex"
        return replace(_RETRIEVAL, depth=self.depth, fusion=fusion, alpha=self.alpha)

    def ask_options(self) -> AskOptions:
        """The answering defaults, as these settings say."""
        return replace(
            _ASK,
            mode=self.mode,
            cache=self.cache_ttl > 0,
            cache_ttl=self.cache_ttl,
            not_found_below=self.not_found_below,
            strict=self.strict,
            keep_unsupported=self.keep_unsupported,
        )


_VARIABLES = {"index_dir": "INDEX", "prompts_dir": "PROMPTS"}
_PATHS = {"index_dir", "prompts_dir", "root"}


CONFIG_FILE = "citesynth.toml"
"""The settings file read from the current folder when `CITESYNTH_CONFIG` names none."""


def _from_file(env: Mapping[str, str]) -> dict[str, Any]:
    """The values of the settings file, parsed like the variables; {} when there is none."""
    named = env.get("CITESYNTH_CONFIG", "").strip()
    path = Path(named) if named else Path(CONFIG_FILE)
    if not named and not path.is_file():
        return {}
    try:
        with path.open("rb") as handle:
            table = tomllib.load(handle)
    except OSError as error:
        raise ConfigError(f"cannot read the settings file {path}: {error.strerror}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"the settings file {path} is not valid TOML: {error}") from None
    known = {item.name for item in fields(Settings)}
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in known:
            raise ConfigError(f"{path}: unknown setting {key!r}; known: {', '.join(sorted(known))}")
        if isinstance(value, list):
            value = ",".join(str(part) for part in value)
        if isinstance(value, dict):
            raise ConfigError(f"{path}: {key} must be a value, not a table")
        try:
            values[key] = _parse(key, str(value))
        except ConfigError:
            raise ConfigError(f"{path}: {key} must be a number, got {value!r}") from None
    return values


def _parse(name: str, raw: str) -> Any:
    try:
        if name in _PATHS:
            return Path(raw)
        if name == "exclude":
            return tuple(part.strip() for part in raw.split(",") if part.strip())
        if name in {"chunk_tokens", "overlap_tokens", "depth", "report_words"}:
            return int(raw)
        if name in {"max_file_mb", "alpha", "timeout", "cache_ttl", "not_found_below"}:
            return float(raw)
        if name in {"strict", "keep_unsupported"}:
            return raw.lower() in {"1", "true", "yes", "on"}
    except ValueError:
        raise ConfigError(f"CITESYNTH_{name.upper()} must be a number, got {raw!r}") from None
    return raw
