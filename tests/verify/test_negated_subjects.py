"""What a source says its subject is not, said of it by a claim (`verify.negated_subjects`)."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import LexicalVerifier
from citesynth.verify.analysed import analyse
from citesynth.verify.base import Check
from citesynth.verify.negated_subjects import negated_alike, subject_negated, subject_negations

FORMS = """The following formats are currently supported by the form data parser:

-   `application/x-www-form-urlencoded`
-   `multipart/form-data`

Nested multipart is not currently supported (Werkzeug 0.9), but it isn't used by any of the
modern web browsers.
"""
NESTED = "Nested multipart is not currently supported"


def test_a_subject_negation_is_its_two_words_and_its_predicate() -> None:
    sentence = "Nested multipart is not currently supported (Werkzeug 0.9)."
    (found,) = subject_negations(sentence)
    assert (found.subject, found.predicate) == (("nest", "multipart"), "support")
    assert sentence[found.start : found.end] == NESTED  # "currently" is no predicate
    (shared,) = subject_negations("The connection pool cannot be shared.")
    assert (shared.subject, shared.predicate) == (("connect", "pool"), "share")
    (joined,) = subject_negations("The connection pool isn't shared between clients.")
    assert (joined.subject, joined.predicate) == (("connect", "pool"), "share")
    assert subject_negations("The pool cannot be shared.") == ()  # one word: too loose


@pytest.mark.parametrize(
    "claim",
    [
        "Nested multipart is supported by the form data parser.",
        "Werkzeug's form data parser supports nested multipart data.",
        # a capability the source denies, asserted in other words
        "The form data parser handles multipart/form-data bodies, including nested multipart data.",
    ],
)
def test_a_claim_saying_what_the_source_denies_of_its_subject_is_vetoed(claim: str) -> None:
    denied = subject_negated(claim, analyse([FORMS]))
    assert denied is not None and denied[1] == NESTED
    (verdict,) = LexicalVerifier().verify_now([Check(claim, (FORMS,))])
    assert not verdict.supported
    assert any(NESTED in reason for reason in verdict.reasons)


def test_a_claim_negating_it_alike_is_backed() -> None:
    claim = "Nested multipart is not supported by the form data parser."
    assert negated_alike(claim, analyse([FORMS]))
    (verdict,) = LexicalVerifier().verify_now([Check(claim, (FORMS,))])
    assert verdict.supported
    assert not negated_alike("Nested multipart is not parsed quickly.", analyse([FORMS]))
    (verdict,) = LexicalVerifier().verify_now(
        [Check("The form data parser supports multipart/form-data.", (FORMS,))]
    )
    assert verdict.supported


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the claim negates, or denies in a word
        ("Nested multipart is never supported.", FORMS),
        ("The parser leaves nested multipart unsupported.", FORMS),
        # hedged: "not always", "not the only", "not as fast as"
        ("The connection pool is shared.", "The connection pool is not always shared."),
        ("The connection pool is an option.", "The connection pool is not the only option."),
        ("The connection pool is fast.", "The connection pool is not as fast as a cache."),
        # in a condition
        ("The connection pool is closed.", "If the connection pool is not closed, it leaks."),
        # another sentence states it plainly: two cases
        (
            "The connection pool is shared by default.",
            "The connection pool is shared by default.\n\n"
            "With `isolated=True` the connection pool is not shared.",
        ),
        # the claim names the subject, yet asserts neither its predicate nor a capability
        (
            "With Sane Lists, an ordered list stops when an unordered list item appears.",
            "Sane Lists do not allow the mixing of list types.",
        ),
        # the claim writes the subject's words after the predicate: no subject of it
        (
            "This mode uses importlib to import test modules, without changing sys.path.",
            "Test modules can't import each other.",
        ),
        # code is no prose
        ("Nested multipart is supported.", "```\nnested multipart is not supported\n```"),
    ],
)
def test_a_subject_negation_is_not_read_against_the_claim_when_it_should_not_be(
    claim: str, source: str
) -> None:
    assert subject_negated(claim, analyse([source])) is None


def test_hostile_subject_negations_are_read_in_linear_time() -> None:
    sentence = "Nested multipart is not supported, " * 4000 + "."
    claim = "Nested multipart is supported " + "and nested multipart is handled " * 2000 + "."
    started = time.perf_counter()
    assert subject_negated(claim, analyse([sentence])) is not None
    assert time.perf_counter() - started < 5
