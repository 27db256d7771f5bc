"""A default the claim names that its sources give as another value (`verify.defaults`)."""

from __future__ import annotations

import asyncio
import time

import pytest

from citesynth.ingest.rst import rendered_roles
from citesynth.ingest.sentences import prose_sentences
from citesynth.verify import get_verifier
from citesynth.verify.base import Check
from citesynth.verify.codevalues import differing_code
from citesynth.verify.defaults import defaulted_values, other_default, other_default_number

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


THREADS = (
    "Starlette runs synchronous endpoints in a thread pool.\n\n"
    "The default thread pool size is only 40 _tokens_. This means that only 40 threads can "
    "run at the same time. You can change it:\n\n"
    "```python\nlimiter = anyio.to_thread.current_default_thread_limiter()\n"
    "limiter.total_tokens = 100\n```\n"
)
TABS = (
    "The `tab_length` keyword sets the length of tabs in the source as an integer.\n\n"
    "```python\nmarkdown.markdown(src, tab_length=2)\n```\n\n"
    "The default value is `4`.\n"
)


@pytest.mark.parametrize(
    ("claim", "source", "expected"),
    [
        # the number an example sets, given as the default (Starlette's and
        # Python-Markdown's docs, written tuning claims)
        (
            "Starlette's default thread pool allows 100 tokens, meaning 100 threads can run at "
            "the same time.",
            THREADS,
            ("100", "40"),
        ),
        (
            "The tab_length keyword sets the length of tabs as an integer, with a default "
            "value of 2.",
            TABS,
            ("2", "4"),
        ),
        ("Gunicorn starts four worker threads by default.", THREADS, None),  # not its subject
        ("The default thread pool allows 40 tokens.", THREADS, None),
        ("By default, forty threads run at the same time in the pool.", THREADS, None),
        ("The tab_length keyword defaults to four.", TABS, None),
        # a claim denying the default says no default
        ("The default thread pool does not allow 100 tokens.", THREADS, None),
        # the claim writes the source's default too
        ("The default thread pool of 40 tokens can be raised to 100.", THREADS, None),
    ],
)
def test_a_default_number_the_sources_give_otherwise(
    claim: str, source: str, expected: tuple[str, str] | None
) -> None:
    assert other_default_number(claim, [source]) == expected
    found = differing_code(claim, [source], negated=False)
    assert (found[0] if found else None) == expected


def test_a_page_of_thousands_of_default_numbers_is_read_in_one_pass() -> None:
    # One pass costs about what splitting the page into its sentences once does, measured
    # in the same run: a fixed 5 s failed on a slow, shared CI machine under coverage
    # (5.7 s), though most of it is that split. Holding each statement to each other, or
    # the claim's 2,000 sentences to each statement, takes minutes.
    page = "".join(f"The default x{i} size is {i} tokens here.\n\n" for i in range(10_000))
    claim = "The default x5 size is 99999 tokens. " * 2_000
    started = time.perf_counter()
    assert len(prose_sentences(rendered_roles(page), min_words=3)) == 10_000
    split_once = time.perf_counter() - started
    started = time.perf_counter()
    assert other_default_number(claim, [page]) == ("99999", "5")
    assert time.perf_counter() - started < 4 * split_once + 1


def test_a_default_number_any_statement_about_the_subject_gives_is_not_otherwise() -> None:
    limits = (
        "* `max_keepalive_connections`, number of allowable keep-alive connections, or "
        "`None` to always allow. (Defaults 20)\n"
        "* `keepalive_expiry`, time limit on idle keep-alive connections in seconds, or "
        "`None` for no limit. (Default 5)\n"
    )
    claim = "The default number of idle keep-alive connections kept is 20."
    assert other_default_number(claim, [limits]) is None
    assert other_default_number(claim.replace("20", "50"), [limits]) == ("50", "5")
