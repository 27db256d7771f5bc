"""Which class is whose subclass: a claim against the passages' own class statements.

    parent_reversed("JSONResponse is defined as a subclass of OrjsonResponse",
                    ["class OrjsonResponse(JSONResponse): ..."])
    → ('JSONResponse', 'OrjsonResponse')

Starlette's docs show `class OrjsonResponse(JSONResponse)`, and a claim making
`JSONResponse` the subclass holds every name and word of the passage. A claim saying that
X is a subclass of Y ("X subclasses Y", "X inherits from Y", "X derives from Y", "X extends
Y", "X is a subclass of Y") is reversed when the passages' code defines `class Y(…X…)`
and never `class X(…Y…)`. Names are compared as their last dotted part, case-blind.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_NAME = r"`?([A-Za-z_]\w*(?:\.\w+)*)(?:\(\))?`?"
_CLAIMED = re.compile(
    _NAME + r"\s+(?:is\s+(?:defined\s+as\s+|declared\s+as\s+)?an?\s+(?:direct\s+)?subclass\s+of"
    r"|subclasses|inherits\s+from|derives\s+from|extends)\s+(?:the\s+)?" + _NAME
)
""""X is (defined as) a subclass of Y", "X subclasses Y", "X inherits from Y" …: (X, Y)."""
_CUE = re.compile(r"subclass|inherits|derives|extends")
_DEFINED = re.compile(r"\bclass\s+([A-Za-z_]\w*)\s*\(([^)\n]{0,300})\)")
"""A class statement: its name and what stands in its parentheses."""
_BASE = re.compile(r"[A-Za-z_]\w*(?:\.\w+)*")


def parent_reversed(claim: str, passages: Sequence[str]) -> tuple[str, str] | None:
    """(the class the claim makes a subclass, its claimed parent) when reversed, or None."""
    if not _CUE.search(claim):
        return None  # most claims: read before the name-by-name search
    claimed = [(m.group(1), m.group(2)) for m in _CLAIMED.finditer(claim)]
    if not claimed:
        return None
    defined = {
        (_last(m.group(1)), _last(base))
        for passage in passages
        for m in _DEFINED.finditer(passage)
        for base in _BASE.findall(m.group(2))
    }
    for child, parent in claimed:
        pair = (_last(child), _last(parent))
        if pair[0] != pair[1] and (pair[1], pair[0]) in defined and pair not in defined:
            return child, parent
    return None


def _last(name: str) -> str:
    return name.rsplit(".", 1)[-1].lower()
