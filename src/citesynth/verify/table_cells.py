"""A claim that a table's yes-or-no cell denies.

Documentation states what works with what in tables: Gunicorn's HTTP/2 guide has

    | Worker | HTTP/2 Support | Notes |
    | `sync` | No | Single-threaded, cannot multiplex streams |
    | `gthread` | Yes | Recommended for HTTP/2 |

Asked whether HTTP/2 works with the default sync worker, the embedded model wrote
"HTTP/2 will work with the default sync worker [4]", and both verifiers passed it: every
word of it is in the table and the sentences around it. Read as words, "The sync worker
supports HTTP/2." scored 0.94 against that table, the same as its denial.

A table row answers for its first cell (the row's key, "sync") under each header. A claim
says what a yes-or-no cell says when it is narrow enough to be that cell's statement:

- it names one row's key (no other row's) and, in the same clause, a word of one yes-or-no
  column's header that says what is supported ("HTTP/2"; not "support", "required");
- every other word of it is the key's, that header's, the first column's header's
  ("Worker") or a word saying what a cell says ("work", "use", "default", "supports");
- it sets nothing against anything ("unlike", "other than", "but not", "rather than").

Such a claim states the opposite of a "No" cell (✗, "false", "unsupported") when that clause
denies nothing, and of a "Yes" cell (✓, "true", "supported") when it does.
`denied_in_table` gives the row and header so read, which align reports as the source's
opposite word. A claim saying more ("The `sync` worker is supported on every platform",
"… supports Python 3.7") is left to the other checks.
"""

from __future__ import annotations

import re
from functools import lru_cache

from citesynth.analysis import content_terms, without_consensus
from citesynth.ingest.tables import Row, table_rows

_NO = frozenset({"no", "✗", "✘", "❌", "false", "unsupported", "not supported"})
"""A cell saying no."""
_YES = frozenset({"yes", "✓", "✔", "✅", "true", "supported"})
"""A cell saying yes."""
_VAGUE = frozenset(content_terms("support supported enabled available allowed required"))
"""Header words that say nothing of what is supported ("HTTP/2 Support": "HTTP/2" does)."""
_SAYING = frozenset(
    content_terms("work works use used run runs default supports support enabled available can")
)
"""Words a claim may use to say what a yes-or-no cell says."""
_AGAINST = re.compile(
    r"\b(?:unlike|other\s+than|except|but\s+not|rather\s+than|instead\s+of|whereas|while)\b",
    re.I,
)
_CLAUSE = re.compile(r"[;,:]|\s(?:but|and|or)\s", re.I)
_DENIAL = re.compile(r"\b(?:not|no|never|cannot|without)\b|n't\b", re.I)


def denied_in_table(claim: str, passage: str) -> tuple[str, str] | None:
    """(what the claim says, what the table says) when a yes-or-no cell denies `claim`.

    A cell of `passage`'s tables (see the module docstring); None when none denies it.
    """
    if "|" not in passage or _AGAINST.search(claim):
        return None
    claim = without_consensus(claim)  # "The sources say that HTTP/2 will work with …"
    rows = _keyed_rows(passage)
    if not rows:
        return None
    claimed = set(content_terms(claim))
    named = {key for _, key in rows if key and key <= claimed}
    if len(named) != 1:
        return None  # no row's key, or two rows': which one the claim is about is unclear
    for row, key in rows:
        if key in named and (said := _denied(row, key, claim, claimed)):
            return said
    return None


@lru_cache(maxsize=256)
def _keyed_rows(passage: str) -> tuple[tuple[Row, frozenset[str]], ...]:
    """The rows of `passage`'s tables that have a header, each with its key's terms.

    Read once per passage: repair checks every claim against every source.
    """
    rows = (row for row in table_rows(passage) if len(row.header) == len(row.cells) > 1)
    return tuple((row, frozenset(content_terms(row.cells[0]))) for row in rows)


def _denied(row: Row, key: frozenset[str], claim: str, claimed: set[str]) -> tuple[str, str] | None:
    """What a row's yes-or-no cell under the header the claim names says against it."""
    columns = [
        (header, cell, frozenset(content_terms(header)) - _VAGUE)
        for header, cell in zip(row.header[1:], row.cells[1:], strict=True)
        if _value(cell) in _NO | _YES
    ]
    told = [column for column in columns if column[2] and column[2] & claimed]
    if len(told) != 1:
        return None  # no yes-or-no column named, or two: which cell is meant is unclear
    header, cell, distinct = told[0]
    allowed = key | set(content_terms(header)) | set(content_terms(row.header[0])) | _SAYING
    if not claimed <= allowed:
        return None  # the claim says more than the cell
    clause = next((c for c in _CLAUSE.split(claim) if key <= set(content_terms(c))), "")
    if not distinct & set(content_terms(clause)):
        return None
    denies = _DENIAL.search(clause.replace("’", "'")) is not None
    value = _value(cell)
    if (value in _NO and denies) or (value in _YES and not denies):
        return None
    name = row.cells[0].strip(" `*_")
    mine = f"{header} for {name}" if value in _NO else f"no {header} for {name}"
    return mine, f"{name}: {header}: {cell.strip()}"


def _value(cell: str) -> str:
    """A cell's text, lower case, markup and runs of spaces aside."""
    return " ".join(cell.strip(" `*_").lower().split())
