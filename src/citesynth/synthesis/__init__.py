"""Pass 2: writers found by name, and the steps that turn a question into a cited answer.

| name            | writer                                                              |
|-----------------|---------------------------------------------------------------------|
| `auto`          | `local` when the embedded model is installed, else `extractive`     |
| `local[:0.5b]`  | the embedded model; sources cut to their key sentences (5 at most)  |
| `extractive`    | no model: the sources' own sentences, cited                         |
| `naive:MODEL`   | the benchmark baseline: plain prompt, no multi-source mode          |
| anything else   | a chat model from `citesynth.llm.get_model`, full grounding prompt  |

Writers register through `register_writer(prefix, factory)`, as a plugin's would.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from citesynth.embed.base import Embedder
from citesynth.llm import get_model, local_available
from citesynth.registry import Registry
from citesynth.synthesis.extractive import ExtractiveWriter, SentenceScorer
from citesynth.synthesis.prompts import Prompt
from citesynth.synthesis.writers import LLMWriter, NaiveWriter, Writer

LOCAL_EVIDENCE_TOKENS = 450
"""Evidence budget for the embedded model: ≈ 10 s of prefill at 45 tokens/s on two cores."""
LOCAL_SOURCES = 5
LOCAL_OUTPUT_TOKENS = 320

DEFAULT_TIMEOUTS = {"local": 180.0, "extractive": 30.0, "fake": 30.0}
REMOTE_TIMEOUT = 90.0


@dataclass(frozen=True, slots=True)
class WriterSetup:
    """What a writer factory is given besides the rest of the name."""

    embedder: Embedder | None
    prompts: Mapping[str, Prompt]
    timeout: float | None
    """The configured time limit in seconds (None: the writer's family default)."""
    environ: Mapping[str, str]
    scorer: SentenceScorer | None = None
    """Reads a question against candidate sentences (the extractive writer ranks with it)."""

    def limit(self, family: str) -> float:
        """The time limit for a writer of `family`."""
        return self.timeout or DEFAULT_TIMEOUTS.get(family, REMOTE_TIMEOUT)


WriterFactory = Callable[[str, WriterSetup], Writer]
"""Makes a writer from the rest of its name (after `prefix:`) and the setup."""

WRITERS: Registry[WriterFactory] = Registry("writer")


def register_writer(
    prefix: str, factory: WriterFactory, *, usage: str = "", replace: bool = False
) -> None:
    """Make `factory` answer the writer names `prefix` and `prefix:...`."""
    WRITERS.register(prefix, factory, usage=usage, replace=replace)


def resolve_name(name: str) -> str:
    """`auto` made concrete: the embedded model when installed, else extractive."""
    if name.strip().lower() != "auto":
        return name.strip()
    return "local" if local_available() else "extractive"


def get_writer(
    name: str,
    *,
    embedder: Embedder | None,
    prompts: Mapping[str, Prompt],
    timeout: float | None = None,
    environ: Mapping[str, str] | None = None,
    scorer: SentenceScorer | None = None,
) -> Writer:
    """The writer called `name` (see the module docstring).

    Raises:
        ConfigError: unknown name, missing extra or missing key, with the fix.
    """
    concrete = resolve_name(name)
    setup = WriterSetup(
        embedder, prompts, timeout, os.environ if environ is None else environ, scorer
    )
    found = WRITERS.find(concrete)
    if found is not None:
        factory, rest = found
        return factory(rest, setup)
    family = concrete.partition(":")[0].lower()
    return LLMWriter(get_model(concrete, setup.environ), prompts, timeout=setup.limit(family))


def _extractive(rest: str, setup: WriterSetup) -> Writer:
    writer = ExtractiveWriter(setup.embedder, scorer=setup.scorer)
    writer.timeout = setup.limit("extractive")
    return writer


def _naive(rest: str, setup: WriterSetup) -> Writer:
    small = rest.partition(":")[0] == "local"
    return NaiveWriter(
        get_model(rest, setup.environ),
        setup.prompts,
        timeout=setup.limit(rest.partition(":")[0]),
        max_output_tokens=LOCAL_OUTPUT_TOKENS if small else None,
        max_sources=LOCAL_SOURCES if small else None,
    )


def _local(rest: str, setup: WriterSetup) -> Writer:
    return LLMWriter(
        get_model(f"local:{rest}" if rest else "local", setup.environ),
        setup.prompts,
        reasoning=False,
        max_output_tokens=LOCAL_OUTPUT_TOKENS,
        timeout=setup.limit("local"),
        evidence_tokens=LOCAL_EVIDENCE_TOKENS,
        max_sources=LOCAL_SOURCES,
    )


register_writer("extractive", _extractive, usage="extractive")
register_writer("naive", _naive, usage="naive:MODEL")
register_writer("local", _local, usage="local[:0.5b]")

__all__ = [
    "WRITERS",
    "ExtractiveWriter",
    "LLMWriter",
    "NaiveWriter",
    "SentenceScorer",
    "Writer",
    "WriterFactory",
    "WriterSetup",
    "get_writer",
    "register_writer",
    "resolve_name",
]
