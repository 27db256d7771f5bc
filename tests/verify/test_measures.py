"""A claim measuring another thing than its source does (`verify.measures`)."""

from __future__ import annotations

import pytest

from citesynth.verify import Check, LexicalVerifier
from citesynth.verify.crossencoder import available
from citesynth.verify.measures import other_measure, other_unit
from citesynth.verify.trained import TrainedVerifier

SOURCE = (
    "MAX_CONTENT_LENGTH\n    The maximum number of bytes that will be read during this "
    "request. If this value is exceeded, a 413 error is raised."
)
WRONG = (
    "The Flask config key that sets the maximum number of concurrent requests is "
    "`MAX_CONTENT_LENGTH`."
)


@pytest.mark.parametrize(
    ("claim", "passage", "found"),
    [
        (WRONG, SOURCE, ("number of concurrent requests", "number of bytes")),
        ("`MAX_CONTENT_LENGTH` is the maximum number of bytes read from a request.", SOURCE, None),
        # the thing measured is stated elsewhere in the passage
        (WRONG, SOURCE + " Flask serves any number of concurrent requests.", None),
        # the same last word: "open requests" measures requests too
        (
            "The limit sets the number of concurrent requests.",
            "The limit sets the number of open requests.",
            None,
        ),
        # another kind of quantity: "size" is not "number"
        ("The size of the pool is 10.", "The number of connections is 10.", None),
        # a sentence on another subject measuring something else says nothing of the claim
        ("The number of retries is 3.", "Gardens need a number of bees.", None),
        ("The pool keeps 10 connections.", SOURCE, None),  # the claim measures nothing
        # two names of things may be one thing said two ways: no unit tells them apart
        (
            "The number of participants in the trial was 120.",
            "In the trial the number of subjects was 120.",
            None,
        ),
        (
            "Obesity raises the number of adipocytes.",
            "Obesity raises the number of fat cells.",
            None,
        ),
        ("The maximum number of retries is 3.", "The maximum number of attempts is 3.", None),
        # a unit against a count of things is another quantity
        (
            "The setting limits the number of open files.",
            "The setting limits the number of bytes of a file.",
            ("number of open files", "number of bytes"),
        ),
    ],
)
def test_a_measure_of_another_thing_is_found(
    claim: str, passage: str, found: tuple[str, str] | None
) -> None:
    assert other_measure(claim, [passage]) == found


async def test_the_lexical_verifier_says_what_the_source_measures() -> None:
    wrong, right = await LexicalVerifier().verify(
        [
            Check(WRONG, (SOURCE,)),
            Check(
                "`MAX_CONTENT_LENGTH` is the maximum number of bytes read in a request.", (SOURCE,)
            ),
        ]
    )
    assert not wrong.supported
    assert "the source gives the 'number of bytes', not the 'number of concurrent requests'" in (
        wrong.reasons
    )
    assert right.supported


@pytest.mark.skipif(not available(), reason="the trained verifier needs citesynth[embed]")
async def test_the_trained_verifier_is_vetoed_by_another_measure() -> None:
    [verdict] = await TrainedVerifier.load().verify([Check(WRONG, (SOURCE,))])
    assert not verdict.supported


HOOKS = (
    "``QueryEvent`` is a named tuple with ``sql``, ``params``, ``duration`` (in\n"
    "seconds, including connection or cursor acquisition), and ``exception``, which\n"
    "is ``None`` on success. Hooks observe the query and cannot modify it.\n"
)


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        ("The `event.duration` is in milliseconds.", ("milliseconds", "in seconds")),
        ("The duration is in seconds.", None),  # what it says
        ("The query event's exception is None in minutes.", ("minutes", "in seconds")),
        ("The duration is in bytes.", None),  # another kind of unit: left to the others
        ("Hooks run in milliseconds.", None),  # no sentence sharing a word names a unit
    ],
)
def test_a_measure_in_another_unit_is_found(claim: str, found: tuple[str, str] | None) -> None:
    assert other_unit(claim, [HOOKS]) == found


def test_a_unit_the_passages_write_or_a_sentence_about_another_thing_is_no_other_unit() -> None:
    settings = (
        "The `timeout` setting is in seconds. The `keepalive` setting is the number of "
        "milliseconds to wait for the next request."
    )
    assert other_unit("The `keepalive` setting is in milliseconds.", [settings]) is None
    assert other_unit("The `keepalive` setting is in minutes.", [settings]) is None
    two = "`duration` is in seconds; multiply it by 1000 to express it in milliseconds."
    assert other_unit(two, [HOOKS]) is None


async def test_the_verifier_says_which_unit_the_source_measures_in() -> None:
    [verdict] = await LexicalVerifier().verify(
        [Check("The `event.duration` is in milliseconds.", (HOOKS,), "Query hooks")]
    )
    assert verdict.label != "supported"
    assert "the source says 'in seconds', not 'milliseconds'" in verdict.reasons
