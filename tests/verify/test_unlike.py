"""What a source says "unlike X" of something else, said of X (`verify.unlike`)."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import LexicalVerifier
from citesynth.verify.analysed import analyse
from citesynth.verify.base import Check
from citesynth.verify.unlike import unlike_attributed

LOGGERS = """Unlike with *bound loggers*, you often need more flexibility when instantiating
them. Therefore you don't configure a class; you configure a *factory* using the
`logger_factory` keyword.
"""
CLAIM = (
    "Because bound loggers need more flexibility when being instantiated, structlog has you "
    "configure a factory for them with the logger_factory keyword."
)


def test_a_claim_saying_of_x_what_the_source_says_unlike_x_is_vetoed() -> None:
    found = unlike_attributed(CLAIM, analyse([LOGGERS]))
    assert found is not None
    assert found[0] == "bound loggers"
    assert found[1].startswith("Unlike with *bound loggers*, you often need more flexibility")
    (verdict,) = LexicalVerifier().verify_now([Check(CLAIM, (LOGGERS,))])
    assert not verdict.supported
    right = "structlog has you configure a factory using the logger_factory keyword."
    (verdict,) = LexicalVerifier().verify_now([Check(right, (LOGGERS,))])
    assert verdict.supported


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the claim contrasts, or negates, itself
        ("Unlike bound loggers, wrapped loggers need more flexibility.", LOGGERS),
        ("Bound loggers don't need more flexibility when instantiated.", LOGGERS),
        (
            "Bound loggers need little, whereas wrapped loggers need more flexibility.",
            LOGGERS,
        ),
        # the claim's clause says something else of X
        ("Bound loggers are configured with a class.", LOGGERS),
        # one word of X: too loose to say it is the same thing
        (
            "Sessions need more flexibility when instantiating them.",
            "Unlike sessions, clients need more flexibility when instantiating them.",
        ),
        # code is no prose
        (
            "Bound loggers need more flexibility when instantiating them.",
            "```\n# Unlike bound loggers, you need more flexibility when instantiating them\n```",
        ),
    ],
)
def test_a_contrast_is_not_read_against_the_claim_when_it_should_not_be(
    claim: str, source: str
) -> None:
    assert unlike_attributed(claim, analyse([source])) is None


def test_hostile_contrasts_are_read_in_linear_time() -> None:
    sentence = "Unlike bound loggers, you need more flexibility, " * 3000 + "."
    claim = "Bound loggers need more flexibility " + "and bound loggers need more " * 2000 + "."
    started = time.perf_counter()
    assert unlike_attributed(claim, analyse([sentence])) is not None
    assert time.perf_counter() - started < 5
