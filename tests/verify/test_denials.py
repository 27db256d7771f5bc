"""A claim whose words beyond its cited source another retrieved source denies."""

from __future__ import annotations

from citesynth.verify.denials import denied_elsewhere

CLAIM = (
    "Atomic() in SqliteQueueDatabase ensures that all write queries are executed atomically, "
    "preventing conflicts or timeout errors when multiple threads attempt to write concurrently."
)
MISSING = ("atom", "ensur", "execut", "prevent", "attempt")
"""What peewee's opening paragraph on SqliteQueueDatabase (the cited source) lacks of it."""
DENIAL = (
    "Transactions are not supported. Because writes from different threads are interleaved, "
    "there is no way to guarantee that the statements in a transaction from one thread "
    "execute atomically without statements from another thread appearing between them."
)


def test_words_the_cited_source_lacks_that_another_source_denies_deny_the_claim() -> None:
    found = denied_elsewhere(CLAIM, MISSING, ["Read queries work as normal.", DENIAL])
    assert found is not None and found.startswith("Because writes from different threads")


def test_a_source_stating_those_words_as_well_leaves_the_claim_alone() -> None:
    stated = "With a queue, the write statements of one thread execute atomically in order."
    assert denied_elsewhere(CLAIM, MISSING, [DENIAL, stated]) is None


def test_one_denied_word_or_a_denial_about_something_else_is_not_enough() -> None:
    assert denied_elsewhere(CLAIM, ("atom",), [DENIAL]) is None
    unrelated = "There is no way to execute a backup atomically."
    assert denied_elsewhere(CLAIM, MISSING, [unrelated]) is None, "shares no other word"
    stating = "Statements from one thread execute atomically, and no thread waits."
    assert denied_elsewhere(CLAIM, MISSING, [stating]) is None, "the negation is another clause's"


def test_a_claim_that_denies_something_itself_is_left_to_the_negation_checks() -> None:
    negated = "Atomic() does not ensure that write queries are executed atomically."
    assert denied_elsewhere(negated, MISSING, [DENIAL]) is None


def test_a_condition_without_something_denies_nothing() -> None:
    # Hatch: "without any arguments" says when `tests` is the default, not that arguments
    # cannot be given
    claim = "Tests run with arguments from the `extra-args` option."
    default = (
        "When tests run without any arguments, `tests` is passed to `pytest` as the default "
        "of the `extra-args` option."
    )
    assert denied_elsewhere(claim, ("run", "argument"), [default]) is None
    denial = "Tests never run with arguments from the `extra-args` option."
    assert denied_elsewhere(claim, ("run", "argument"), [denial]) is not None


def test_words_a_sentence_holds_far_apart_deny_nothing() -> None:
    # WiCE: "early stages of their training" against "an early opportunity for hands-on
    # training that would otherwise not be available"
    claim = (
        "These clinics provide patients quality health care and allow students to gain "
        "clinical experience during the early stages of their training."
    )
    volunteering = (
        "Volunteering in the clinics provides an early opportunity for hands-on training "
        "that would otherwise not be available to them."
    )
    assert denied_elsewhere(claim, ("earli", "stage", "train"), [volunteering]) is None


def test_a_denial_of_another_thing_or_of_a_part_denies_nothing() -> None:
    # a contrast, a quantifier, a condition, or a code name the claim does not write
    claim = "A Session reuses TCP connections across requests to the same host."
    unlike = (
        "Unlike a Session, the top-level `requests.get()` function does not reuse TCP "
        "connections between requests."
    )
    assert denied_elsewhere(claim, ("reus", "tcp", "connect"), [unlike]) is None
    other = "The `requests.get()` function does not reuse TCP connections between requests."
    assert denied_elsewhere(claim, ("reus", "tcp", "connect"), [other]) is None
    nested = "The PostgreSQL backend supports nested transactions through savepoints."
    not_all = "Not all backends support nested transactions; SQLite's does."
    assert denied_elsewhere(nested, ("nest", "transact"), [not_all]) is None
    retried = "Celery retries failed tasks automatically when autoretry_for is set."
    unless = "Failed tasks are not retried automatically unless autoretry_for is set."
    assert denied_elsewhere(retried, ("retri", "automat"), [unless]) is None
