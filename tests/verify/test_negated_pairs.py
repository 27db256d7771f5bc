"""Two words a claim writes side by side that its source negates (`verify.negated_pairs`)."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import LexicalVerifier
from citesynth.verify.analysed import analyse
from citesynth.verify.base import Check
from citesynth.verify.negated_pairs import pair_negated

GUNICORN = """`Gunicorn`_ is a pure Python WSGI server with simple configuration and multiple
worker implementations for performance tuning.

*   It tends to integrate easily with hosting platforms.
*   It does not support Windows (but does run on WSL).
*   It is easy to install as it does not require additional dependencies
    or compilation.
*   It has built-in async worker support using gevent or eventlet.
"""
WINDOWS = (
    "Gunicorn is a pure-Python WSGI server that supports Windows directly, installs without "
    "extra dependencies or compilation, and has built-in gevent or eventlet workers."
)


def test_a_pair_the_source_negates_side_by_side_is_negated() -> None:
    assert pair_negated(WINDOWS, analyse([GUNICORN])) == (
        "supports Windows",
        "not support Windows",
    )
    blueprint = (
        "The name given to the Blueprint constructor does not modify the URL, only the endpoint."
    )
    claim = "The name given to the Blueprint constructor modifies the URL of the function."
    assert pair_negated(claim, analyse([blueprint])) == ("modifies the URL", "not modify the URL")


def test_the_lexical_verifier_names_the_negated_pair() -> None:
    (verdict,) = LexicalVerifier().verify_now([Check(WINDOWS, (GUNICORN,))])
    assert not verdict.supported
    assert "the source says 'not support Windows', not 'supports Windows'" in verdict.reasons
    right = "Gunicorn is a pure-Python WSGI server that has built-in gevent or eventlet workers."
    (verdict,) = LexicalVerifier().verify_now([Check(right, (GUNICORN,))])
    assert verdict.supported


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the claim negates, or denies in its own words, what the source negates
        ("Gunicorn does not support Windows.", GUNICORN),
        ("Gunicorn runs on WSL rather than supports Windows.", GUNICORN),
        (
            "Note that set_cookie currently leaves SameSite unset by default; set SameSite.",
            "Currently, set_cookie does not set SameSite by default.",
        ),
        ("Unlike uWSGI, Gunicorn supports Windows.", GUNICORN),
        # the negation stands in a condition, or after "otherwise"
        (
            "The debug console is served to trusted hosts only.",
            "If a request comes from a page that is not served on a trusted URL, a 400 error "
            "will be returned.",
        ),
        (
            "greenlet is required so context locals work as expected.",
            "greenlet>=1.0 is required, otherwise context locals will not work as expected.",
        ),
        # another sentence writes the pair plainly: the passage speaks of two things
        (
            "uWSGI comes with SSL support built in.",
            "The pyuwsgi package does not provide SSL support.\n\n"
            "Either method will include SSL support.",
        ),
        # the negation bears on other words, or the pair is not side by side there
        ("Gunicorn supports Windows.", "Gunicorn does not need Windows support."),
        (
            "Gunicorn supports Windows directly.",
            "Gunicorn is not slow, and supports Windows directly.",
        ),
        # a privative states a condition, and code is no prose
        ("Gunicorn supports Windows.", "Gunicorn runs without support of Windows paths."),
        (
            "The loop skips empty rows.",
            "```python\nif not empty rows:\n    skip()\n```",
        ),
    ],
)
def test_a_pair_is_not_read_as_negated_when_the_claim_or_source_says_otherwise(
    claim: str, source: str
) -> None:
    assert pair_negated(claim, analyse([source])) is None


def test_hostile_negations_are_read_in_linear_time() -> None:
    sentence = "It does not support Windows " * 4000 + "."
    claim = "It supports Windows " + "and supports Linux " * 2000 + "."
    started = time.perf_counter()
    assert pair_negated(claim, analyse([sentence])) == ("supports Windows", "not support Windows")
    assert time.perf_counter() - started < 5
