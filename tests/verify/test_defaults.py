"""A default the claim names that its sources give as another value (`verify.defaults`)."""

from __future__ import annotations

import asyncio

import pytest

from citesynth.verify import get_verifier
from citesynth.verify.base import Check
from citesynth.verify.codevalues import differing_code
from citesynth.verify.defaults import defaulted_values, other_default

CHECK = (
    "To check if a feature branch adds at least one news fragment, run::\n\n"
    "   $ towncrier check\n\n"
    "By default, ``towncrier`` compares the current branch against ``origin/main`` (and\n"
    "falls back to ``origin/master`` with a warning if it exists, *for now*).\n\n"
    ".. option:: --compare-with REMOTE-BRANCH\n\n"
    "   Use ``REMOTE-BRANCH`` instead of ``origin/main``::\n\n"
    "      $ towncrier check --compare-with origin/trunk\n"
)
OPTIONS = (
    "The ``--workers`` option sets how many worker processes serve requests.\n"
    "It defaults to ``1``.\n\n"
    "The ``--bind`` option gives the socket to bind. Default: ``127.0.0.1:8000``.\n"
)


@pytest.mark.parametrize(
    ("claim", "values"),
    [
        ("The default branch to compare with is `REMOTE-BRANCH`.", ("REMOTE-BRANCH",)),
        ("The `--workers` option defaults to `4`.", ("4",)),
        ("`origin/main` is the default.", ("origin/main",)),
        ("It compares against `origin/main` by default.", ("origin/main",)),
        ("By default, towncrier compares the branch against `origin/main`.", ("origin/main",)),
        ("Use `--compare-with` to compare with another branch than the default.", ()),
        ("By default, `towncrier check` runs in CI.", ()),
    ],
)
def test_code_bound_to_the_word_default_is_the_claims_default(
    claim: str, values: tuple[str, ...]
) -> None:
    assert defaulted_values(claim) == values


@pytest.mark.parametrize(
    ("claim", "passages", "expected"),
    [
        # the embedded model's answer on towncrier's docs (2026-12-05): the placeholder
        (
            "The default branch to compare with is `REMOTE-BRANCH`.",
            [CHECK],
            ("REMOTE-BRANCH", "origin/main"),
        ),
        (
            "By default, the current branch is compared against `origin/trunk`.",
            [CHECK],
            ("origin/trunk", "origin/main"),
        ),
        (
            "The `--bind` option binds to `0.0.0.0:80` by default.",
            [OPTIONS],
            ("0.0.0.0:80", "127.0.0.1:8000"),
        ),
        (
            "The default socket the `--bind` option binds is `0.0.0.0:80`.",
            [OPTIONS],
            ("0.0.0.0:80", "127.0.0.1:8000"),
        ),
        ("The default number of worker processes is `4`.", [OPTIONS], ("4", "1")),
        # the value the sources give, or the subject's default not stated as code
        ("The default branch to compare with is `origin/main`.", [CHECK], None),
        ("By default, `towncrier check` compares against `origin/main`.", [CHECK], None),
        ("The default number of worker processes is `1`.", [OPTIONS], None),
        ("The default timeout is `30` seconds.", [CHECK], None),
        ("The default branch to compare with is not `REMOTE-BRANCH`.", [CHECK], None),
        # a reStructuredText link is no code (towncrier's tutorial)
        (
            "The five default types are: ``removal``: Signifying a removal of public API.",
            [
                "There are five default types, but you can configure them freely (see "
                "`Configuration <configuration.html>`_ for details).\n\nThe five default "
                "types are:\n\n``feature``: Signifying a new feature.\n\n``removal``: "
                "Signifying a removal of public API.\n"
            ],
            None,
        ),
        # a line no reader takes for a sentence gives the claim's value (aiohttp's docs)
        (
            "The default keep-alive timeout for sockets is `3630` seconds.",
            [
                "By default, the sockets keep-alive timeout applies to ``sock_connect``.\n\n"
                ":param keepalive_timeout: Default: ``3630`` seconds"
            ],
            None,
        ),
    ],
)
def test_a_default_the_sources_give_otherwise(
    claim: str, passages: list[str], expected: tuple[str, str] | None
) -> None:
    negated = "not" in claim.split()
    found = differing_code(claim, passages, negated=negated)
    assert (found[0] if found else None) == expected
    if not negated:
        assert other_default(claim, passages) == expected


def test_a_claim_naming_thousands_of_defaults_reads_a_few() -> None:
    claim = " ".join(f"The default x mode is `v{i}`." for i in range(5000))
    source = " ".join(f"By default, the x mode is ``w{i}``." for i in range(2000))
    assert other_default(claim, [source]) == ("v0", "w0")


def test_the_verifier_never_supports_a_default_given_otherwise() -> None:
    claims = [
        "The default branch to compare with is `REMOTE-BRANCH`.",
        "The default branch to compare with is `origin/main`.",
    ]
    verifier = get_verifier("lexical")
    wrong, right = asyncio.run(verifier.verify([Check(c, (CHECK,)) for c in claims]))
    assert wrong.label != "supported"
    assert any("origin/main" in reason for reason in wrong.reasons)
    assert right.label == "supported"


def test_a_page_of_thousands_of_defaults_is_read_in_one_pass() -> None:
    # Each line is held to the sentences already read in order, never to all of them
    # (20,000 lines against 10,000 sentences had been 200 million comparisons).
    page = "".join(
        f"By default, the x{i} mode is ``w{i}`` here.\n:param y{i}: Default: ``z{i}``\n"
        for i in range(10_000)
    )
    claim = "The default x5 mode is `v5`."
    assert other_default(claim, [page]) == ("v5", "w5")
