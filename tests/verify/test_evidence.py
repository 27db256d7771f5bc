"""What the trained verifier reads: evidence within a word budget, and quotations it needs no
model for."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from citesynth.verify.evidence import (
    comment_quoted,
    evidence_text,
    mostly_quoted,
    quoted,
    sentence_quoted,
)

PAGE = (
    "The bridge in Kallport was built over four years. "
    "Engineers from three countries worked on it. "
    "It opened to traffic in March 2009, replacing a ferry. "
    "The toll was abolished in 2015 after a vote. "
    "Cyclists use a separate lane on the eastern side. "
    "A light-rail line is planned for 2027."
)


def test_evidence_that_fits_the_budget_is_read_whole() -> None:
    assert evidence_text("Anything.", [PAGE], budget=200) == " ".join(PAGE.split())


def test_a_similarity_chooses_the_sentences_words_alone_miss() -> None:
    claim = "Bicycles have a path of their own."

    def similarity(_claim: str, sentences: Sequence[str]) -> list[float]:
        return [1.0 if "Cyclists" in s else 0.0 for s in sentences]

    lexical = evidence_text(claim, [PAGE], budget=12)
    chosen = evidence_text(claim, [PAGE], budget=12, similarity=similarity)
    assert "Cyclists" not in lexical
    assert chosen.startswith("Cyclists use a separate lane")
    assert len(chosen.split()) <= 12 + 1


def test_sentences_are_read_in_document_order_with_gaps_marked() -> None:
    def similarity(_claim: str, sentences: Sequence[str]) -> list[float]:
        return [2.0 if "light-rail" in s else 1.0 if "bridge" in s else 0.0 for s in sentences]

    chosen = evidence_text("Rail on the bridge.", [PAGE], budget=20, similarity=similarity)
    assert chosen.index("bridge in Kallport") < chosen.index("light-rail")
    assert "…" in chosen


@pytest.mark.parametrize(
    ("claim", "is_quote"),
    [
        ("It opened to traffic in March 2009, replacing a ferry.", True),
        ("It opened to traffic in March 2009", True),  # the sentence's opening
        ("the **toll** was abolished in 2015", True),  # markup and case do not matter
        ("It opened to traffic in March 2010", False),  # one detail changed
        ("It opened to traffic in March 2", False),  # a number's first digit is not the number
        ("Opened to traffic", False),  # too short to be a claim of its own
        ("Cyclists use a separate lane", True),
        ("three countries worked on it", False),  # a fragment from the middle of a sentence
    ],
)
def test_a_quotation_is_recognised(claim: str, is_quote: bool) -> None:
    assert quoted(claim, [PAGE]) is is_quote


def test_a_quotation_of_a_sentence_with_markup_before_its_punctuation_is_recognised() -> None:
    source = "The default is a **convex combination of z-scores**: each score is standardised."
    claim = "The default is a convex combination of z-scores: each score is standardised."
    assert quoted(claim, [source])
    assert not quoted(claim.replace("convex", "linear"), [source])


@pytest.mark.parametrize(
    "sentence",
    [
        "It is not true that the client retries failed requests.",
        "If the flag is set, the client retries failed requests.",
        "Some users claimed that the client retries failed requests.",
    ],
)
def test_a_quotation_negated_or_qualified_before_it_is_not_support(sentence: str) -> None:
    assert not quoted("the client retries failed requests", [sentence])


LME4 = (
    "lme4 incorporates two built-in optimization choices, an implementation of the\n"
    "Nelder-Mead simplex algorithm adapted from Steven Johnson’s NLopt C library (Johnson\n"
    "2014) and a wrapper for Powell’s BOBYQA algorithm, implemented in the minqa package."
)
COPIED = (
    "Nelder-Mead simplex algorithm adapted from Steven Johnson’s NLopt C library (Johnson "
    "2014) and a wrapper for Powell’s BOBYQA algorithm, implemented in the minqa package."
)


@pytest.mark.parametrize(
    ("opening", "is_quote"),
    [
        ("The optimizers built into lme4 are the", True),  # the embedded model's words
        ("lme4's two built-in optimization choices are the", True),
        ("The optimizers removed from lme4 are the", False),  # a word the sentence never says
        ("The only optimizers built into lme4 are the", False),
        ("The optimizers built into nlme are the", False),
    ],
)
def test_a_claim_copying_the_rest_of_a_sentence_after_its_own_words(
    opening: str, is_quote: bool
) -> None:
    assert mostly_quoted(f"{opening} {COPIED}", [LME4]) is is_quote


def test_too_little_copied_or_qualified_before_it_is_no_quotation() -> None:
    assert not mostly_quoted("The optimizers built into lme4 are in the minqa package.", [LME4])
    qualified = "If it is built, lme4 has a " + COPIED
    assert not mostly_quoted("lme4 has a " + COPIED, [qualified])
    assert not mostly_quoted(f"The optimizers built into lme4 are the {COPIED[:-1]} now.", [LME4])


def test_the_title_leads_the_evidence_when_it_states_part_of_the_claim() -> None:
    text = "Boats leave the harbour every 40 minutes from 6 a.m. The crossing takes 25 minutes."
    about = "Northwind Ferry Service"
    named = "Northwind ferries leave every 40 minutes."
    assert evidence_text(named, [text], about=about) == f"{about}: {text}"
    assert evidence_text("Boats leave every 40 minutes.", [text], about=about) == text
    assert evidence_text(named, [text]) == text


def test_a_sentence_copied_with_its_rst_roles_rendered_is_still_a_quotation() -> None:
    source = "To ask for confirmation, the :func:`confirm` function comes in handy here."
    assert quoted("To ask for confirmation, the `confirm` function comes in handy here.", [source])


def test_the_title_leads_when_the_passage_names_it_only_outside_the_chosen_sentences() -> None:
    opening = "Northwind is the ferry line of the northern islands, founded by the harbour board."
    filler = " ".join(f"The {w} terminal has a waiting room and a kiosk." for w in "ABCDEF")
    text = f"{opening} {filler} Boats leave the harbour every 40 minutes from 6 a.m."
    about = "Northwind Ferry Service"
    claim = "The boats of Northwind leave every 40 minutes."
    led = evidence_text(claim, [text], about=about, budget=20)
    assert led.startswith(f"{about}: ") and "every 40 minutes" in led
    assert "founded" not in led  # the opening that names it was not chosen
    # A claim naming nothing the title states reads the passage's sentences alone.
    plain = evidence_text("Boats leave every 40 minutes.", [text], about=about, budget=20)
    assert not plain.startswith(about)


def test_a_passage_of_markup_only_is_read_without_it() -> None:
    """An API page of autodoc directives gives the verifier headings, not statements."""
    api = (
        "Task groups\n-----------\n\n.. autofunction:: anyio.create_task_group\n\n"
        ".. autoclass:: anyio.abc.TaskGroup\n   :members:\n\n"
        ".. _Trio: https://trio.readthedocs.io/en/latest/\n   #cancellation"
    )
    assert evidence_text("A task group cancels its tasks.", [api]) == "Task groups"
    prose = api + "\n\nA task group waits for all of its child tasks to finish."
    assert ".. autofunction:: anyio.create_task_group" in evidence_text("Anything.", [prose])


def test_a_whole_code_comment_is_quoted_not_a_piece_or_a_short_one() -> None:
    code = (
        "```python\n# Schedules job_function to be run on the third Friday\n"
        "# of June and July at 00:00\nsched.add_job(job_function, 'cron')\n# Start it\n```"
    )
    claim = "Schedules job_function to be run on the third Friday of June and July at 00:00:"
    assert comment_quoted(claim, [code])
    assert not comment_quoted("Schedules job_function to be run on the third Friday.", [code])
    assert not comment_quoted("Start it.", [code])  # under four words
    assert not comment_quoted(claim, ["Schedules job_function to be run on the third Friday."])


@pytest.mark.parametrize(
    "passage",
    [
        # a Markdown heading and a line of prose that opens with "//" are no code comments
        "# Requests hang when the connection pool is exhausted\n\nSince 2.0 they do not.\n",
        "Since 2.0, they do not.\n\n// Requests hang when the connection pool is exhausted\n",
        # nor is a heading inside a block fenced as Markdown
        "```markdown\n# Requests hang when the connection pool is exhausted\ntext\n```\n",
    ],
)
def test_a_heading_or_prose_is_no_comment_to_quote(passage: str) -> None:
    assert not comment_quoted("Requests hang when the connection pool is exhausted.", [passage])


def test_a_whole_sentence_word_for_word_is_quoted_not_a_piece_nor_other_numbers() -> None:
    page = (
        "Pools keep ten connections.\n\nThe pool keeps at most\n``1,000`` idle connections "
        "per host, and x < 5 always."
    )
    assert sentence_quoted(
        "The pool keeps at most `1,000` idle connections per host, and x < 5 always.", [page]
    )
    assert not sentence_quoted("The pool keeps at most 1,000 idle connections per host.", [page])
    assert not sentence_quoted(
        "The pool keeps at most 1.000 idle connections per host, and x < 5 always.", [page]
    )
    assert not sentence_quoted(
        "The pool keeps at most 1,000 idle connections per host, and x > 5 always.", [page]
    )
    assert not sentence_quoted("Pools keep ten.", ["Pools keep ten."])  # under four words


def test_a_comment_quoted_keeps_its_operators() -> None:
    code = "```c\n// Keep the buffer size < 4096 bytes always\nx = 1;\n```\n"
    assert comment_quoted("Keep the buffer size < 4096 bytes always:", [code])
    assert not comment_quoted("Keep the buffer size > 4096 bytes always:", [code])
