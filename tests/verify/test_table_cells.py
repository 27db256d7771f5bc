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
    ("claim", "denies", "found"),
    [
        (
            "HTTP/2 will work with the default sync worker.",
            False,
            ("HTTP/2 Support for sync", "sync: HTTP/2 Support: No"),
        ),
        (
            "The tornado worker supports HTTP/2.",
            False,
            ("HTTP/2 Support for tornado", "tornado: HTTP/2 Support: ✗"),
        ),
        (
            "The gthread worker does not support HTTP/2.",
            True,
            ("no HTTP/2 Support for gthread", "gthread: HTTP/2 Support: Yes"),
        ),
    ],
)
def test_a_claim_a_yes_or_no_cell_denies_is_found(
    claim: str, denies: bool, found: tuple[str, str]
) -> None:
    assert denied_in_table(claim, WORKERS, denies=denies) == found


@pytest.mark.parametrize(
    ("claim", "denies"),
    [
        ("The sync worker does not support HTTP/2.", True),  # what the cell says
        ("HTTP/2 works with the gthread worker.", False),
        ("The sync worker is single-threaded.", False),  # no yes-or-no header named
        ("HTTP/2 works with gthread, unlike the sync worker.", False),  # two rows: unclear
        ("HTTP/2 is supported by most workers.", False),  # no row named
    ],
)
def test_a_claim_no_cell_denies_is_not_found(claim: str, denies: bool) -> None:
    assert denied_in_table(claim, WORKERS, denies=denies) is None


def test_the_verifier_says_what_the_table_says() -> None:
    check = Check("The sync worker supports HTTP/2.", (WORKERS,), "Worker Compatibility")
    [verdict] = asyncio.run(LexicalVerifier().verify([check]))
    assert verdict.label != "supported"
    assert "the source says 'sync: HTTP/2 Support: No'" in " ".join(verdict.reasons)
