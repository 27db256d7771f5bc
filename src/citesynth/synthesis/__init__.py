"""Pass 2: writers found by name, and the answer pipeline.

| name            | writer                                                              |
|-----------------|---------------------------------------------------------------------|
| `auto`          | `local` when the embedded model is installed, else `extractive`     |
| `local[:0.5b]`  | the embedded model; sources cut to their key sentences (5 at most)  |
| `extractive`    | no model: the sources' own sentences, cited                         |
| `naive:MODEL`   | the benchmark baseline: plain prompt, no multi-source mode          |
| anything else   | a chat model from `citesynth.llm.get_model`, full grounding prompt  |
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from citesynth.embed.base import Embedder
from citesynth.llm import get_model, local_available
from citesynth.synthesis.extractive import ExtractiveWriter
from citesynth.synthesis.prompts import Prompt
from citesynth.synthesis.writers import LLMWriter, NaiveWriter, Writer

LOCAL_EVIDENCE_TOKENS = 450
"""Evidence budget for the embedded model: ≈ 10 s of prefill at 45 tokens/s on two cores."""
LOCAL_SOURCES = 5
LOCAL_OUTPUT_TOKENS = 320

DEFAULT_TIMEOUTS = {"local": 180.0, "extractive": 30.0, "fake": 30.0}
REMOTE_TIMEOUT = 90.0


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
) -> Writer:
    """The writer called `name` (see the module docstring).

    Raises:
        ConfigError: unknown name, missing extra or missing key, with the fix.
    """
    concrete = resolve_name(name)
    family = concrete.partition(":")[0].lower()
    limit = timeout or DEFAULT_TIMEOUTS.get(family, REMOTE_TIMEOUT)
    env = os.environ if environ is None else environ
    if family == "extractive":
        writer = ExtractiveWriter(embedder)
        writer.timeout = limit
        return writer
    if family == "naive":
        inner = concrete.partition(":")[2]
        small = inner.partition(":")[0] == "local"
        return NaiveWriter(
            get_model(inner, env),
            prompts,
            timeout=timeout or DEFAULT_TIMEOUTS.get(inner.partition(":")[0], REMOTE_TIMEOUT),
            max_output_tokens=LOCAL_OUTPUT_TOKENS if small else None,
            max_sources=LOCAL_SOURCES if small else None,
        )
    model = get_model(concrete, env)
    if family == "local":
        return LLMWriter(
            model,
            prompts,
            reasoning=False,
            max_output_tokens=LOCAL_OUTPUT_TOKENS,
            timeout=limit,
            evidence_tokens=LOCAL_EVIDENCE_TOKENS,
            max_sources=LOCAL_SOURCES,
        )
    return LLMWriter(model, prompts, timeout=limit)


__all__ = ["ExtractiveWriter", "LLMWriter", "NaiveWriter", "Writer", "get_writer", "resolve_name"]
