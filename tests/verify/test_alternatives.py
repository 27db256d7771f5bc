"""The other alternative of a question "A or B?" given as its answer (`verify.alternatives`)."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import LexicalVerifier
from citesynth.verify.alternatives import alternative_chosen
from citesynth.verify.analysed import analyse
from citesynth.verify.base import Check

DIRECTORS = (
    "Mark L. Lester (born November 26, 1946) is an American film director, screenwriter, "
    "and producer.",
    "Kenneth Loach (born 17 June 1936) is an English film and television director.",
)
QUESTION = "Which director is American, Mark L. Lester or Ken Loach?"


def test_the_other_alternative_given_as_the_answer_is_found() -> None:
    wrong = f"{QUESTION} Ken Loach is the American director."
    assert alternative_chosen(wrong, analyse(list(DIRECTORS))) == ("Ken Loach", "Mark L. Lester")
    right = f"{QUESTION} Mark L. Lester is the American director."
    assert alternative_chosen(right, analyse(list(DIRECTORS))) is None


def test_the_lexical_verifier_names_the_alternative_the_passages_answer() -> None:
    wrong = f"{QUESTION} Ken Loach is the American director."
    (verdict,) = LexicalVerifier().verify_now([Check(wrong, DIRECTORS)])
    assert not verdict.supported
    assert "the source says this of Mark L. Lester, not of Ken Loach" in verdict.reasons


def test_the_reason_names_the_alternative_as_the_sources_write_it() -> None:
    claim = (
        "Which private research university is located in Chestnut Hill, Massachusetts Boston "
        "College or Stanford University? Stanford University is located in Chestnut Hill."
    )
    source = "Boston College is a private research university in Chestnut Hill, Massachusetts."
    found = alternative_chosen(claim, analyse([source]))
    assert found == ("Stanford University", "Boston College")  # not "Massachusetts Boston …"
    named = f"{QUESTION} Ken Loach is the American director."
    assert alternative_chosen(named, analyse(["Mark L. Lester is an American director."])) == (
        "Ken Loach",
        "Mark L. Lester",
    )


@pytest.mark.parametrize(
    ("claim", "passages"),
    [
        # no question restated, or no answer after it
        ("Ken Loach is the American director.", DIRECTORS),
        (QUESTION, DIRECTORS),
        # the answer names both alternatives, or neither
        (f"{QUESTION} Both Mark L. Lester and Ken Loach direct films.", DIRECTORS),
        (f"{QUESTION} Neither.", DIRECTORS),
        # a comparison's predicate is answered by two sentences, never one
        ("Who is older, Mark L. Lester or Ken Loach? Mark L. Lester", DIRECTORS),
        # two names sharing a word: which one the answer names is no matter of words
        (
            "What shopping mall is the largest in south Texas, Mall del Norte or La Plaza "
            "Mall? La Plaza Mall",
            ("Mall del Norte is the largest mall in South Texas.",),
        ),
        # a rank is no answer to a superlative
        (
            "Which city is the largest in Texas, Houston or Dallas? Dallas",
            ("Houston is the fourth largest city in the United States and in Texas.",),
        ),
        # the sentences answering it name both, or the claim's alternative
        (
            f"{QUESTION} Ken Loach is the American director.",
            ("Mark L. Lester and Ken Loach: an American film director each.",),
        ),
    ],
)
def test_no_other_alternative_is_read_when_the_texts_do_not_give_one(
    claim: str, passages: tuple[str, ...]
) -> None:
    assert alternative_chosen(claim, analyse(list(passages))) is None


def test_a_long_question_of_capitalised_words_is_read_in_bounded_time() -> None:
    claim = "Which One " + "Name Word " * 5000 + "Or Other? Other"
    started = time.perf_counter()
    assert alternative_chosen(claim, analyse(list(DIRECTORS))) is None
    capped = "Which One " + "Name Word " * 90 + "or Other? Other"  # under 1,000 characters
    assert alternative_chosen(capped, analyse(list(DIRECTORS))) is None
    assert time.perf_counter() - started < 5
