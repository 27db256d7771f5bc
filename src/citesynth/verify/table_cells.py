"""A claim that a table's yes-or-no cell denies.

Documentation states what works with what in tables: Gunicorn's HTTP/2 guide has

    | Worker | HTTP/2 Support | Notes |
    | `sync` | No | Single-threaded, cannot multiplex streams |
    | `gthread` | Yes | Recommended for HTTP/2 |

Asked whether HTTP/2 works with the default sync worker, the embedded model wrote
"HTTP/2 will work with the default sync worker [4]", and both verifiers passed it: every
word of it is in the table and the sentences around it. Read as words, "The sync worker
supports HTTP/2." scored 0.94 against that table, the same as its denial.

A table row answers for its first cell (the row's key, "sync") under each header: a claim
naming that key, and no other row's, and a word of a header whose cell says "No" (or ✗,
"false", "unsupported") states the opposite when it denies nothing; one denying what a
"Yes" cell says (✓, "true", "supported") does too. `denied_in_table` gives the row and
header so read, which align reports as the source's opposite word.
"""

from __future__ import annotations

from citesynth.analysis import content_terms
from citesynth.ingest.tables import Row, table_rows

_NO = frozenset({"no", "✗", "✘", "❌", "false", "unsupported", "not supported"})
"""A cell saying no."""
_YES = frozenset({"yes", "✓", "✔", "✅", "true", "supported"})
"""A cell saying yes."""


def denied_in_table(claim: str, passage: str, *, denies: bool) -> tuple[str, str] | None:
    """(what the claim says, what the table says) when a yes-or-no cell denies `claim`.

    A cell of `passage`'s tables (see the module docstring); `denies` tells whether the
    claim denies what it says (align's negation flag). None when no cell denies it.
    """
    rows = [row for row in table_rows(passage) if len(row.header) == len(row.cells) > 1]
    if not rows:
        return None
    claimed = set(content_terms(claim))
    keys = [frozenset(content_terms(row.cells[0])) for row in rows]
    named = [key for key in set(keys) if key and key <= claimed]
    if len(named) != 1:
        return None  # no row's key, or two rows': which one the claim is about is unclear
    for row, key in zip(rows, keys, strict=True):
        if key == named[0] and (said := _denied(row, claimed, denies=denies)):
            return said
    return None


def _denied(row: Row, claimed: set[str], *, denies: bool) -> tuple[str, str] | None:
    """What a row's yes-or-no cell under a header the claim names says against it."""
    key = row.cells[0].strip(" `*_")
    for header, cell in zip(row.header[1:], row.cells[1:], strict=True):
        value = " ".join(cell.strip(" `*_").lower().split())
        if not set(content_terms(header)) & claimed:
            continue
        if (value in _NO and not denies) or (value in _YES and denies):
            mine = f"{header} for {key}" if value in _NO else f"no {header} for {key}"
            return mine, f"{key}: {header}: {cell.strip()}"
    return None
