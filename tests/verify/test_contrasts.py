"""A contrast whose halves a claim gives each other's names."""

from __future__ import annotations

import pytest

from citesynth.verify import Check, LexicalVerifier
from citesynth.verify.contrasts import moved_across

COERCION = (
    "The plain :class:`Marker` class implements ``__len__`` to return zero, while "
    "``__bool__`` and the rest raise an error."
)
TWISTED = (
    "The plain Marker class implements __bool__ to return zero, while __len__ raises an error."
)
EXTRACTORS = (
    "Keyword arguments are fully supported by the Sphinx builder, but might not render as "
    "expected with other documentation builders."
)


def test_two_names_given_each_others_half_are_found() -> None:
    assert moved_across(TWISTED, [COERCION]) == (
        "The plain Marker class implements __bool__ to return zero",
        "The plain `Marker` class implements ``__len__`` to return zero",
    )


def test_one_name_moved_to_the_other_half_is_found() -> None:
    claim = (
        "Keyword arguments are fully supported by other documentation builders but might not "
        "render as expected with the Sphinx builder."
    )
    found = moved_across(claim, [EXTRACTORS])
    assert found == (
        "might not render as expected with the Sphinx builder.",
        "might not render as expected with other documentation builders.",
    )


def test_words_each_half_takes_from_the_others_are_found() -> None:
    source = "A tab is expanded to four spaces in the code view but kept as-is in the diff."
    claim = "A tab is kept as-is in the code view but expanded to four spaces in the diff."
    assert moved_across(claim, [source]) == (
        "A tab is kept as-is in the code view",
        "A tab is expanded to four spaces in the code view",
    )


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the same names in the same halves, worded otherwise
        (
            "Marker's __len__ gives zero, whereas __bool__ and the others raise an error.",
            COERCION,
        ),
        # halves that do not correspond: each says more of the other
        (
            "__bool__ and the rest raise an error, while Marker implements __len__ to return 0.",
            COERCION,
        ),
        # "but only if" restricts, "; for instance" exemplifies: neither contrasts two things
        (
            "Converters transform a `tid` value; for instance, int(8) gives an int when it has "
            "eight digits.",
            "The `int` converter turns the value of `tid` into an int, but only if it has "
            "eight digits.",
        ),
        # "while" with a verb in -ing says what happens meanwhile, contrasting nothing
        (
            "The bridge keeps the old way of declaring events while creating the lifespan "
            "internally, so existing packages stay compatible.",
            "The bridge makes sure you can still use the old way of declaring events, and it "
            "creates the lifespan internally. Compatibility is assured for existing packages "
            "while maintaining the lifespan events.",
        ),
        # a claim contrasting nothing
        ("The plain Marker class implements __bool__ to return zero.", COERCION),
    ],
)
def test_names_kept_in_their_half_or_no_contrast_are_not(claim: str, source: str) -> None:
    assert moved_across(claim, [source]) is None


def test_a_contrast_of_thousands_of_turns_is_never_read() -> None:
    long = " while ".join(["Marker returns zero"] * 5_000)
    assert moved_across(long, [long]) is None
    assert moved_across("A is big, while B is small.", [long]) is None


def test_the_verifier_says_what_the_sources_half_says() -> None:
    ((verdict, alignment),) = LexicalVerifier().aligned([Check(TWISTED, (COERCION,), COERCION)])
    assert not verdict.supported
    assert alignment is not None
    assert any("implements ``__len__`` to return zero" in r for r in alignment.reasons)
