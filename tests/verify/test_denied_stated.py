"""What a claim denies that a sentence of its source states plainly (`verify.denied_stated`)."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import LexicalVerifier
from citesynth.verify.analysed import analyse
from citesynth.verify.base import Check
from citesynth.verify.denied_stated import denies_stated

SIGNED = """Given a key only you know, you can cryptographically sign your data and hand it
over to someone else. When you get the data back you can ensure that nobody tampered
with it.

The receiver can see the data, but they can not modify it unless they also have your key.
"""
CLAIM = (
    "The receiver of the signed data cannot see it, and cannot modify it either unless "
    "they also have your key."
)


def test_a_denial_of_what_the_source_states_plainly_is_vetoed() -> None:
    assert denies_stated(CLAIM, analyse([SIGNED])) == (
        "cannot see",
        "The receiver can see the data",
    )
    (verdict,) = LexicalVerifier().verify_now([Check(CLAIM, (SIGNED,))])
    assert not verdict.supported
    right = "The receiver can see the data but cannot modify it without your key."
    (verdict,) = LexicalVerifier().verify_now([Check(right, (SIGNED,))])
    assert verdict.supported


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the passages negate the predicate somewhere: they speak of two cases
        (
            "Tests in Jinja cannot accept arguments.",
            "Tests can accept arguments. Filters cannot accept arguments.",
        ),
        # a hedge denies nothing of the predicate
        ("The receiver cannot always see the data.", "The receiver can see the data."),
        # a condition in the claim, or in the source
        ("If it is signed, the receiver cannot see the data.", "The receiver can see the data."),
        (
            "The receiver cannot see the data.",
            "If the key leaks, the receiver can see the data.",
        ),
        # the source denies in a word
        (
            "Templates don't have to be parsed on first use.",
            "Templates are stored elsewhere to avoid parsing the templates on first use.",
        ),
        # another subject
        (
            "WTForms doesn't handle file uploads.",
            "Every web framework handles file uploads somewhat differently.",
        ),
        # "no" denies a thing, not what it does
        ("There is no caching of the logger on first use.", "The logger caches on first use."),
    ],
)
def test_a_denial_is_not_read_against_the_source_when_it_should_not_be(
    claim: str, source: str
) -> None:
    assert denies_stated(claim, analyse([source])) is None


def test_hostile_denials_are_read_in_linear_time() -> None:
    source = "The receiver can see the data. " * 3000
    claim = "The receiver cannot see the data, " * 300 + "."
    started = time.perf_counter()
    assert denies_stated(claim, analyse([source])) is not None
    negated = "The receiver can not see it, " * 3000 + "."
    assert denies_stated(claim, analyse([negated])) is None
    assert time.perf_counter() - started < 5
