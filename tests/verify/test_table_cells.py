"""A claim that a table's yes-or-no cell denies (`verify.table_cells`)."""

from __future__ import annotations

import asyncio

import pytest

from citesynth.verify import Check, LexicalVerifier
from citesynth.verify.table_cells import denied_in_table

# Gunicorn's HTTP/2 guide
WORKERS = (
    "## Worker Compatibility\n\nNot all workers support HTTP/2:\n\n"
    "| Worker | HTTP/2 Support | Notes |\n|--------|----------------|-------|\n"
    "| `sync` | No | Single-threaded, cannot multiplex streams |\n"
    "| `gthread` | Yes | Recommended for HTTP/2 |\n"
    "| `tornado` | ✗ | Tornado handles its own protocol |\n\n"
    "If you use the sync or tornado worker with HTTP/2 enabled, Gunicorn will log a\n"
    "warning and fall back to HTTP/1.1.\n"
)


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        (
            "HTTP/2 will work with the default sync worker.",
            ("HTTP/2 Support for sync", "sync: HTTP/2 Support: No"),
        ),
        (
            "The tornado worker supports HTTP/2.",
            ("HTTP/2 Support for tornado", "tornado: HTTP/2 Support: ✗"),
        ),
        (
            "The sources say that HTTP/2 will work with the default sync worker.",
            ("HTTP/2 Support for sync", "sync: HTTP/2 Support: No"),
        ),
        (
            "The gthread worker does not support HTTP/2.",
            ("no HTTP/2 Support for gthread", "gthread: HTTP/2 Support: Yes"),
        ),
    ],
)
def test_a_claim_a_yes_or_no_cell_denies_is_found(claim: str, found: tuple[str, str]) -> None:
    assert denied_in_table(claim, WORKERS) == found


@pytest.mark.parametrize(
    "claim",
    [
        "The sync worker does not support HTTP/2.",  # what the cell says
        "HTTP/2 works with the gthread worker.",
        "The sync worker is single-threaded.",  # no yes-or-no header named
        "HTTP/2 works with gthread, unlike the sync worker.",  # two rows: unclear
        "HTTP/2 is supported by most workers.",  # no row named
        # saying more than the cell: left to the other checks
        "The `sync` worker is supported on every platform Gunicorn runs on.",
        "The `sync` worker supports Python 3.7 and later.",
        # the negation or the header in another clause, or one thing set against another
        "HTTP/2 is not enabled by default; the gthread worker supports it.",
        "Unlike `sync`, asynchronous workers support HTTP/2.",
        "HTTP/2 support requires a worker other than `sync`.",
    ],
)
def test_a_claim_no_cell_denies_is_not_found(claim: str) -> None:
    assert denied_in_table(claim, WORKERS) is None


def test_a_claim_naming_two_columns_of_a_matrix_is_not_read() -> None:
    matrix = (
        "| Feature | Postgres | MySQL | SQLite |\n|---|---|---|---|\n"
        "| Window functions | Yes | Yes | No |\n"
    )
    claim = "Window functions are supported by Postgres and MySQL."
    assert denied_in_table(claim, matrix) is None
    assert denied_in_table("Window functions work with SQLite.", matrix) == (
        "SQLite for Window functions",
        "Window functions: SQLite: No",
    )
    required = "| Option | Required | Notes |\n|---|---|---|\n| `timeout` | No | when set |\n"
    assert denied_in_table("The `timeout` option is required.", required) is None


def test_the_verifier_says_what_the_table_says() -> None:
    check = Check("The sync worker supports HTTP/2.", (WORKERS,), "Worker Compatibility")
    [verdict] = asyncio.run(LexicalVerifier().verify([check]))
    assert verdict.label != "supported"
    assert "the source says 'sync: HTTP/2 Support: No'" in " ".join(verdict.reasons)
