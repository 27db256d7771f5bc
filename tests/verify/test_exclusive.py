"""What a source says only one thing does, said by a claim of only another
(`verify.exclusive`)."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import LexicalVerifier
from citesynth.verify.base import Check
from citesynth.verify.exclusive import only_other

NESTED = """Field dictionaries can be nested within each other.

.. note::

    Of the default supported locations in webargs, only the ``json`` request location
    supports nested datastructures. You can, however, implement your own data loader to
    add nested field functionality to the other locations, such as query.
"""
CLAIM = (
    "Of the default locations in webargs, only the query location supports nested data structures."
)


def test_only_another_thing_is_vetoed() -> None:
    assert only_other(CLAIM, [NESTED]) == ("only the query", "only the ``json``")
    (verdict,) = LexicalVerifier().verify_now([Check(CLAIM, (NESTED,))])
    assert not verdict.supported
    right = "Of the default locations in webargs, only the json location supports nesting."
    (verdict,) = LexicalVerifier().verify_now([Check(right, (NESTED,))])
    assert verdict.supported


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the same thing singled out
        ("Only the JSON location supports nested data.", NESTED),
        # what follows says something else
        ("Only the query location is parsed by default.", NESTED),
        # the passages single out the claim's thing too
        (
            "Only the query location supports nested data.",
            "Only the json location supports nested data. Only the query location supports "
            "nested data in version 9.",
        ),
        # no "the": a verb, not a thing, follows "only"
        ("It only supports nested data in json.", NESTED),
    ],
)
def test_only_is_not_read_against_the_claim_when_it_should_not_be(claim: str, source: str) -> None:
    assert only_other(claim, [source]) is None


def test_hostile_onlys_are_read_in_bounded_time() -> None:
    source = "only the json location supports nested data, " * 5000
    claim = "only the query location supports nested data, " * 5000
    started = time.perf_counter()
    assert only_other(claim, [source] * 10) is not None
    assert only_other(claim, [claim]) is None
    assert time.perf_counter() - started < 5
