"""Answer modes: how many sources, how much context and output each may use."""

from __future__ import annotations

from dataclasses import dataclass

from citesynth.errors import ConfigError


@dataclass(frozen=True, slots=True)
class Mode:
    """One mode's budgets (tokens) and source count."""

    name: str
    sources: int
    context_tokens: int
    output_tokens: int
    boost_entities: bool = False


MODES: dict[str, Mode] = {
    "simple": Mode("simple", sources=8, context_tokens=6_000, output_tokens=4_096),
    "detailed": Mode("detailed", sources=12, context_tokens=12_000, output_tokens=8_192),
    "deep": Mode(
        "deep", sources=16, context_tokens=12_000, output_tokens=8_192, boost_entities=True
    ),
}
MULTI_SOURCE_EXTRA_TOKENS = 200


def get_mode(name: str) -> Mode:
    """The mode called `name`.

    Raises:
        ConfigError: no such mode.
    """
    try:
        return MODES[name]
    except KeyError:
        raise ConfigError(f"unknown mode {name!r}: use simple, detailed or deep") from None
