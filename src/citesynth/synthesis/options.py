"""How to answer one question: `AskOptions`, the one place their defaults are written.

`Settings` starts from these defaults, `Engine.open` turns settings into an `AskOptions`,
and a call may override any field by name:

    await engine.answer("How do retries work?", mode="deep", k=12)

`AskOverrides` types those keyword arguments (a test keeps it in step with `AskOptions`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

NOT_FOUND_BELOW = 0.2
"""Default Pass-1 confidence under which the best hit counts as "nothing relevant"."""


@dataclass(frozen=True, slots=True)
class AskOptions:
    """How to answer one question."""

    mode: str = "simple"
    k: int | None = None
    """How many chunks to retrieve (default: the mode's source count)."""
    synthesize: bool = True
    """False: return the ranked chunks, no writing."""
    renumber: bool = False
    """Renumber citations in order of first use in the final answer."""
    cache: bool = True
    cache_ttl: float = 86_400.0
    not_found_below: float = NOT_FOUND_BELOW
    low_confidence_below: float = 0.5
    require_citations: bool = True
    """An answer that cites no source (and is not "not found") falls back to the chunks;
    when verification runs and removes unsupported claims, a model that wrote no marker at
    all has each sentence cited where a source supports it, and the rest removed."""
    attribute: bool = True
    """Cite uncited sentences that one source clearly holds (see `attribute.py`)."""
    verify: bool = True
    """Check every claim against its sources (when the engine has a verifier)."""
    repair: bool = True
    """Move or add citations where another source supports a claim."""
    follow_references: bool = True
    """Add the passages that the top retrieved passages refer to (links, "see section X")."""
    strict: bool = False
    """Unsupported claims: one rewrite with the verdicts as feedback, keep the better
    version, then remove what is still unsupported."""
    answerability: bool = True
    """Say "Not found" before writing when no top source answers the question (needs a
    verifier that scores answerability: the trained one)."""
    keep_unsupported: bool = False
    """Keep the claims no source supports in the answer (flagged) instead of removing them
    to `removed_claims`."""


class AskOverrides(TypedDict, total=False):
    """Per-call overrides of `AskOptions`, by field name (all optional)."""

    mode: str
    k: int | None
    synthesize: bool
    renumber: bool
    cache: bool
    cache_ttl: float
    not_found_below: float
    low_confidence_below: float
    require_citations: bool
    attribute: bool
    verify: bool
    repair: bool
    follow_references: bool
    strict: bool
    answerability: bool
    keep_unsupported: bool
