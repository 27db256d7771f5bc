"""Answer modes: how many sources, how much context and output each may use.

`MODES` is the one list of modes; the CLI's choices, the service's request schema, the MCP
tool and the settings check are all derived from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from citesynth.errors import ConfigError

ModeName = Literal["simple", "detailed", "deep"]
"""The names of the modes, as a type (request schemas, tool signatures)."""


@dataclass(frozen=True, slots=True)
class Mode:
    """One mode's budgets (tokens) and source count."""

    name: ModeName
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
MODE_NAMES: tuple[str, ...] = get_args(ModeName)
MULTI_SOURCE_EXTRA_TOKENS = 200

assert set(MODE_NAMES) == set(MODES), "ModeName and MODES must name the same modes"


def get_mode(name: str) -> Mode:
    """The mode called `name`.

    Raises:
        ConfigError: no such mode.
    """
    try:
        return MODES[name]
    except KeyError:
        raise ConfigError(
            f"unknown mode {name!r}: use {', '.join(MODE_NAMES[:-1])} or {MODE_NAMES[-1]}"
        ) from None
