"""A yes/no question and a reply that only says yes or no: the reply's answer is stated."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import Check, LexicalVerifier
from citesynth.verify.replies import replied_otherwise

UPLOADS = (
    "Currently, it does not. This is because FormKit strives to be framework-agnostic, and "
    "every web framework handles file uploads somewhat differently. FormKit has a FileField "
    "which will let you render a file input widget, but the rest is up to you."
)
ASKED = "FormKit FAQ Does FormKit handle file uploads?"


@pytest.fixture(scope="module")
def lexical() -> LexicalVerifier:
    return LexicalVerifier()


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("FormKit handles file uploads.", False),
        ("Yes, FormKit handles file uploads through its FileField.", False),
        ("FormKit does not handle file uploads.", True),
        ("FormKit currently doesn't handle file uploads, since it is framework-agnostic.", True),
        # what the reply does not speak to is read as before
        ("FormKit has a FileField that renders a file input widget.", True),
    ],
)
def test_a_heading_question_answered_no(
    lexical: LexicalVerifier, claim: str, supported: bool
) -> None:
    verdict = lexical.verify_now([Check(claim, (UPLOADS,), ASKED)])[0]
    assert verdict.supported is supported, verdict.reasons


def test_a_question_in_the_passage_answered_yes_or_no() -> None:
    no = "Can I render a form without a request object?\n\nNo. A form always reads the request."
    yes = "Can I render a form without a request object?\n\nYes, you can. Pass the data instead."
    claim = "You can render a form without a request object."
    assert replied_otherwise(claim, [no]) is True
    assert replied_otherwise(claim, [yes]) is False  # agrees: the reply backs its "without"
    denied = "You cannot render a form without a request object."
    assert replied_otherwise(denied, [no]) is False
    assert replied_otherwise(denied, [yes]) is True


@pytest.mark.parametrize(
    ("passage", "about"),
    [
        (UPLOADS, "FormKit FAQ How does FormKit handle file uploads?"),  # no yes/no question
        (UPLOADS, "FormKit FAQ File uploads"),  # no question at all
        (
            "It does not matter which web framework handles file uploads. FormKit renders "
            "the widget.",
            ASKED,
        ),  # a sentence saying more than yes or no
    ],
)
def test_no_reply_no_reading(passage: str, about: str) -> None:
    assert replied_otherwise("FormKit handles file uploads.", [passage], about) is None


def test_many_replies_are_read_in_bounded_time() -> None:
    page = " ".join(["Does FormKit handle file uploads? No."] * 3000)
    started = time.perf_counter()
    assert replied_otherwise("FormKit handles file uploads.", [page]) is True
    assert time.perf_counter() - started < 5
