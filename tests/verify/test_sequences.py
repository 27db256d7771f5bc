"""Two steps a claim puts in the other order from its source (`verify.sequences`)."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import LexicalVerifier
from citesynth.verify.base import Check
from citesynth.verify.sequences import sequence_reversed

JSON_OR_FORM = (
    "The `json_or_form` location does this -- first trying to load data as JSON and\n"
    "then falling back to a form body -- and its implementation is quite simple:"
)
WRAPPERS = (
    "The return value or exception propagate to further hook wrappers, and finally\n"
    "to the hook caller."
)


@pytest.mark.parametrize(
    ("claim", "source", "words"),
    [
        (
            "The json_or_form location first tries to load the data as a form post and "
            "only falls back to parsing the body as JSON if that fails.",
            JSON_OR_FORM,
            ("form", "JSON"),
        ),
        (
            "Whatever value or exception a hook wrapper produces propagates first to the "
            "hook caller and then on to any further hook wrappers.",
            WRAPPERS,
            ("caller", "wrapper"),
        ),
    ],
)
def test_steps_in_the_other_order_are_vetoed(
    claim: str, source: str, words: tuple[str, str]
) -> None:
    assert sequence_reversed(claim, [source]) == words
    (verdict,) = LexicalVerifier().verify_now([Check(claim, (source,))])
    assert not verdict.supported


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the source's own order
        (
            "The json_or_form location first tries to load the data as JSON and then "
            "falls back to a form body.",
            JSON_OR_FORM,
        ),
        ("The value propagates to further hook wrappers and then to the caller.", WRAPPERS),
        # a condition orders nothing
        (
            "If the form body fails then JSON is loaded.",
            "If JSON fails then the form body is loaded.",
        ),
        # another sentence orders them the claim's way
        (
            "It first loads the form and then parses JSON.",
            "It first parses JSON and then loads the form. Later it first loads the form and "
            "then parses JSON again.",
        ),
    ],
)
def test_an_order_is_not_read_against_the_claim_when_it_should_not_be(
    claim: str, source: str
) -> None:
    sentences = [s.strip() + "." for s in source.split(". ") if s.strip()]
    assert sequence_reversed(claim, sentences) is None


def test_the_source_order_is_supported() -> None:
    right = (
        "The json_or_form location first tries to load the data as JSON and then falls "
        "back to a form body."
    )
    (verdict,) = LexicalVerifier().verify_now([Check(right, (JSON_OR_FORM,))])
    assert verdict.supported


def test_hostile_orders_are_read_in_bounded_time() -> None:
    sentence = "first load JSON and then parse the form, " * 48  # just under the longest read
    claim = "first parse the form and then load JSON, " * 48
    started = time.perf_counter()
    assert sequence_reversed(claim, [sentence] * 200) is not None
    assert sequence_reversed(claim * 100, [sentence * 100] * 200) is None  # too long to read
    assert time.perf_counter() - started < 5
