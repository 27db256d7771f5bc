"""A claim restating a yes/no question is held to the question's words it repeats."""

from __future__ import annotations

from pathlib import Path

from citesynth import Engine
from citesynth.synthesis.restated import (
    RestatementChecked,
    repeated_unstated,
    restatement_checked,
    yes_no_proposition,
)
from citesynth.verify import Check, LexicalVerifier
from tests.conftest import answered

QUEUES = (
    "# Queue type\n\nDefault: ``classic``. This setting changes the default queue type of the "
    "default queue. The other viable option is ``quorum``, which only RabbitMQ supports and "
    "which sets the queue type with the ``x-queue-type`` queue argument.\n"
)
ASKED = "Can I set the default queue type to stream with the x-queue-type queue argument?"
ECHO = "You can set the default queue type to stream with the x-queue-type queue argument."
QUORUM = "The other viable option is quorum, which only RabbitMQ supports."


def test_a_claim_repeating_the_questions_words_its_source_lacks() -> None:
    assert repeated_unstated(ASKED, ECHO, QUEUES) == ["stream"]
    # stated by the source, or no restatement (a claim of its own): nothing held
    held = "You can set the default queue type to quorum with the x-queue-type queue argument."
    assert repeated_unstated(ASKED, held, QUEUES) == []
    assert repeated_unstated(ASKED, QUORUM, QUEUES) == []
    assert repeated_unstated(ASKED, ECHO, f"{QUEUES} A stream queue is not supported.") == []
    # a denial of what the question supposes is an answer of its own
    denied = "You cannot set the default queue type to stream with the x-queue-type argument."
    assert repeated_unstated(ASKED, denied, QUEUES) == []
    curly = "You can’t set the default queue type to stream with the x-queue-type argument."
    assert repeated_unstated(ASKED, curly, QUEUES) == []
    # words that frame the question are no assertion a source must write
    framed = "Is it possible to run sessions in parallel?"
    said = "It is possible to run sessions in parallel with --parallel."
    assert repeated_unstated(framed, said, "Sessions can run in parallel with --parallel.") == []
    # "make" too (Tornado's RedirectHandler, the source saying "send a temporary redirect")
    temporary = "Is RedirectHandler permanent by default, and how do I make it temporary?"
    added = "To make it temporary, add `permanent=False` to the `.RedirectHandler` arguments."
    redirect = (
        "`.RedirectHandler` uses permanent redirects by default. To send a temporary "
        "redirect with a `.RedirectHandler`, add ``permanent=False`` to its arguments."
    )
    assert repeated_unstated(temporary, added, redirect) == []


async def test_a_restated_yes_no_question_is_partial_at_most() -> None:
    checks = [Check(claim, (QUEUES,), "Queue type") for claim in (ECHO, QUORUM)]
    plain = await LexicalVerifier().verify(checks)
    held = await RestatementChecked(LexicalVerifier(), ASKED).verify(checks)
    assert plain[0].supported  # every word but "stream" is there
    assert held[0].label == "partial"
    assert "repeats the question" in held[0].reasons[-1] and "stream" in held[0].reasons[-1]
    assert held[1] == plain[1]


async def test_the_answer_keeps_what_the_source_says_and_drops_the_echo(
    engine: Engine, tmp_path: Path
) -> None:
    reply = f"{ECHO[:-1]} [1]. {QUORUM[:-1]} [1]."
    answer = await answered(engine, tmp_path / "d", QUEUES, reply, ASKED)
    assert "to stream" not in answer.answer, answer.answer
    assert "quorum, which only RabbitMQ supports" in answer.answer
    assert [c.text for c in answer.removed_claims] == [ECHO]
    # asked otherwise than yes or no, the same sentence is read as before
    how = "How do I set the default queue type with the x-queue-type queue argument?"
    other = await answered(engine, tmp_path / "e", QUEUES, reply, how)
    assert "to stream" in other.answer, other.answer


def test_a_yes_no_question_asked_after_its_situation_is_read_by_its_proposition() -> None:
    # Scrapy's questions: the situation first, a condition, the other choice offered
    situated = (
        "The site answers 429 with a 'Retry-After: 120' header. Does Scrapy's retry "
        "middleware wait the number of seconds given in Retry-After before retrying, or is "
        "there a setting for exponential backoff?"
    )
    assert yes_no_proposition(situated) == (
        "Does Scrapy's retry middleware wait the number of seconds given in Retry-After "
        "before retrying?"
    )
    conditional = (
        "If my parse callback raises a KeyError while processing a response, does Scrapy "
        "call the errback I attached to that Request?"
    )
    assert (
        yes_no_proposition(conditional)
        == "does Scrapy call the errback I attached to that Request?"
    )
    assert yes_no_proposition(ASKED) == ASKED
    assert yes_no_proposition("My pool is full. What is the default pool size?") is None
    # a question cut at an abbreviation's stop is read whole; "or" with no new question,
    # or inside code, offers no other choice
    assert yes_no_proposition("Does Scrapy handle redirects, cookies, etc. automatically?")
    assert yes_no_proposition("Can I tell if a task failed or was retried?") == (
        "Can I tell if a task failed or was retried?"
    )
    assert yes_no_proposition("Does `a, or is b` parse?") == "Does `a, or is b` parse?"
    # a choice between named options stays whole
    assert yes_no_proposition("Does Django keep it in RAM or on disk?") == (
        "Does Django keep it in RAM or on disk?"
    )
    source = "RetryMiddleware retries failed requests; RETRY_TIMES sets how many times."
    echo = (
        "Scrapy's retry middleware waits the number of seconds given in Retry-After before "
        "retrying."
    )
    assert repeated_unstated(yes_no_proposition(situated) or "", echo, source)
    assert repeated_unstated(situated, echo, source) == []  # read whole, too few of its words


async def test_a_situated_yes_no_question_holds_its_restatement() -> None:
    asked = f"We deploy on RabbitMQ 3.13. {ASKED[:-1]}, or is there another queue argument?"
    verifier = restatement_checked(LexicalVerifier(), asked)
    assert isinstance(verifier, RestatementChecked)
    checks = [Check(ECHO, (QUEUES,), "Queue type")]
    assert (await verifier.verify(checks))[0].label == "partial"
    assert restatement_checked(LexicalVerifier(), "We deploy. Which queue types exist?") is not None
    assert not isinstance(
        restatement_checked(LexicalVerifier(), "We deploy. Which queue types exist?"),
        RestatementChecked,
    )


def test_a_pronoun_standing_for_what_is_asked_asserts_the_question() -> None:
    # Hatch: `--cover-xml` writes a coverage report, and "It" says a JUnit report is written
    asked = "Does `hatch test` have a flag to emit a JUnit report?"
    source = (
        "The `--cover-xml` flag generates an XML coverage report for CI systems. "
        "Running `hatch test` runs the tests."
    )
    claim = "It can be achieved by using the `--cover-xml` flag, which generates an XML report."
    assert repeated_unstated(asked, claim, source) == ["emit", "JUnit"]
    assert repeated_unstated(asked, claim.replace("It can be achieved", "This can be done"), source)
    # after a connective it stands for the sentence before (`verifying._leans_on`); "This is
    # handled by …" as often points back too
    assert repeated_unstated(asked, claim.replace("It can", "However, it can"), source) == []
    handled = "This is handled by the `--cover-xml` flag, which generates an XML report."
    assert repeated_unstated(asked, handled, source) == []
    # stated by the source, denied, or a claim with a subject of its own: nothing held
    assert repeated_unstated(asked, claim, f"{source} It can emit a JUnit report.") == []
    assert repeated_unstated(asked, "It cannot be done with a flag.", source) == []
    assert repeated_unstated(asked, "It is possible to write XML coverage.", source) == []
