"""A proper name put where the sentence stating the claim names another (`verify.renamed`)."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import LexicalVerifier
from citesynth.verify.analysed import analyse
from citesynth.verify.base import Check
from citesynth.verify.renamed import name_replaced

SIGNED = "Moreau was signed to the Falcons practice squad on October 29, 2013."
TEAMS = SIGNED + "\n\nHe later trained with the Denver Broncos and left in 2016."


def _terms(*texts: str) -> list[frozenset[str]]:
    return [sentence.terms for sentence in analyse(list(texts)).sentences]


def test_a_name_written_where_the_stating_sentence_names_another_is_replaced() -> None:
    claim = "Moreau was signed to the Denver Broncos practice squad in 2013."
    assert name_replaced(claim, SIGNED, _terms(TEAMS)) == ("Denver Broncos", "Falcons")
    assert name_replaced(SIGNED, SIGNED, _terms(TEAMS)) is None  # the same name


@pytest.mark.parametrize(
    ("claim", "stating"),
    [
        # an acronym of the other name, or one written inside the other
        (
            "Dynamic plugins of RHDH load at startup.",
            "Dynamic plugins of Red Hat Developer Hub load at startup.",
        ),
        (
            "The operator creates a SonataFlowPlatform custom resource.",
            "The operator creates a SonataFlow custom resource.",
        ),
        # a function word, a single letter or an admonition label is no name
        (
            "Henin was ranked first among Belgian players.",
            "Henin was ranked No. 1 among all players.",
        ),
        (
            "Here a Python list of methods should be allowed.",
            "Here A list of methods should be allowed.",
        ),
        (
            "Here the browser allows the GET method for requests.",
            "Here the browser allows HTTP methods for requests.",
        ),
        (
            "The Developer Preview features are not supported.",
            "IMPORTANT Developer Preview features are not supported.",
        ),
        # a month or a day is a date's; a name spelt a little otherwise is the same name
        (
            "Moreau joined the club squad in January of 2019.",
            "Moreau joined the club squad in Aug of 2019.",
        ),
        (
            "Moreau joined the club squad on a Monday in 2019.",
            "Moreau joined the club squad on a Friday in 2019.",
        ),
        (
            "The suite retells a Rusian folk tale for strings.",
            "The suite retells a Russian folk tale for strings.",
        ),
        # a question restated before the answer asserts nothing of the names it asks of
        (
            "Which Lyon practice squad signed Moreau? The Falcons",
            "The club said the Paris practice squad signed Moreau.",
        ),
        # another name somewhere else in the sentence, not in the claim's name's place
        (
            "Moreau was signed by the Denver Broncos in 2013.",
            "In 2013, Moreau, a Falcons fan, was signed to a practice squad.",
        ),
    ],
)
def test_names_one_thing_may_have_or_words_that_are_no_names_are_never_replaced(
    claim: str, stating: str
) -> None:
    assert name_replaced(claim, stating, _terms(stating)) is None


def test_two_names_the_passages_relate_may_stand_for_each_other() -> None:
    claim = "The museum stands in a village of Kent County near the river."
    stating = "The museum stands in Millbrook near the river."
    assert name_replaced(claim, stating, _terms(stating)) == ("Kent County", "Millbrook")
    related = _terms(stating, "Millbrook is a village of Kent County.")
    assert name_replaced(claim, stating, related) is None


def test_code_is_no_sentence_naming_another_in_place() -> None:
    claim = "The Falcons client is created with a Colts timeout."
    code = "client = Client(timeout=Falcons)\n    client.get(url)"
    assert name_replaced(claim, code, _terms(code)) is None


def test_the_lexical_verifier_vetoes_a_replaced_name_and_says_which() -> None:
    verifier = LexicalVerifier()
    right = "Moreau was signed to the Falcons practice squad on October 29, 2013."
    wrong = right.replace("Falcons", "Denver Broncos")
    first, second = verifier.verify_now([Check(right, (TEAMS,)), Check(wrong, (TEAMS,))])
    assert first.label == "supported"
    assert second.label != "supported"
    assert "the source says this of Falcons, not of Denver Broncos" in second.reasons


def test_a_sentence_writing_names_many_times_is_read_in_linear_time() -> None:
    # a question read with a backtracking pattern took 11 s for a claim of 9,000 names
    kent = "The museum stands in Kent near the river."
    names = " ".join(f"Kentish{i}" for i in range(9_000))
    for claim, stating in (
        (kent, "The museum stands in Millbrook near the river. " + "Millbrook " * 40_000),
        (kent, "The museum stands in Millbrook near the river " + "Millbrook the " * 30_000),
        (kent, "The museum stands " + " ".join(f"Town{i} near" for i in range(20_000))),
        (kent, "The museum stands in " + names + " near"),
        (
            "The museum stands in " + names + " now",
            "The museum stands in " + names.replace("Kentish", "Kentesh"),
        ),
    ):
        sentences = _terms(stating)
        started = time.perf_counter()
        name_replaced(claim, stating, sentences)
        assert time.perf_counter() - started < 5  # read quadratically: minutes
