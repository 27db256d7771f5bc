"""Text analysis shared by every layer."""

from __future__ import annotations

import pytest

from citesynth.analysis import (
    ADMONITIONS,
    code_name,
    content_terms,
    terms,
    unwritten,
    without_asides,
    without_consensus,
    written_open,
)


def test_asides_go_from_the_inside_out() -> None:
    assert without_asides("Milli Vanilli (band)") == "Milli Vanilli"
    assert without_asides("Foo (bar (baz)) Qux") == "Foo Qux"
    assert without_asides("no aside") == "no aside"


def test_admonition_labels_are_upper_case_words() -> None:
    assert all(label.isupper() and label.isalpha() for label in ADMONITIONS)


def test_a_consensus_phrase_is_not_what_is_checked() -> None:
    assert without_consensus("Multiple sources report that the pool holds ten.") == (
        "The pool holds ten."
    )
    assert without_consensus("Both sources agree: retries back off.") == "Retries back off."
    assert without_consensus("The sources say so.") == "The sources say so."  # too short
    assert without_consensus("The pool holds ten.") == "The pool holds ten."
    # only an opening followed by what is reported; identifiers keep their case
    assert without_consensus("The sources agree on the default timeout.") == (
        "The sources agree on the default timeout."
    )
    assert without_consensus("Both sources say: httpx.Client keeps a pool.") == (
        "httpx.Client keeps a pool."
    )
    # after an opening clause (Werkzeug's docs, the embedded model, one source cited)
    assert without_consensus(
        "When a branch URL is visited without a trailing slash, multiple sources report "
        "that it will redirect to the URL with a slash appended."
    ) == (
        "When a branch URL is visited without a trailing slash, it will redirect to the URL "
        "with a slash appended."
    )
    assert without_consensus("If so, the sources agree: ok.") == "If so, the sources agree: ok."


@pytest.mark.parametrize(
    ("word", "name"),
    [
        ("uuid.UUID", "uuid.UUID"),
        ("max_connections", "max_connections"),
        ("dumps()", "dumps"),
        ("~Request.form", "Request.form"),
        ("e.g.", None),  # single letters
        ("Space.com", None),  # a web site
        ("_private", None),  # one leading underscore makes no snake_case
        ("1.5", None),
        ("converter", None),
    ],
)
def test_a_word_is_a_code_name_by_its_form(word: str, name: str | None) -> None:
    assert code_name(word) == name


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # a contraction's parts are function words, never terms a source must hold
        ("it doesn't conflict", ["conflict"]),
        ("Black isn’t configurable and won't be", ["black", "configur"]),
        ("you can't pickle it", ["pickl"]),
        ("they're cached and we'll reuse them", ["cach", "reus"]),
        ("Click's shell completion", ["click", "shell", "complet"]),
        # a word ending in "n" keeps it: only "n't" is a contraction
        ("the pattern won the vote", ["pattern", "won", "vote"]),
    ],
)
def test_content_terms_read_contractions_as_function_words(text: str, found: list[str]) -> None:
    assert content_terms(text) == found


def test_a_name_written_as_one_word_is_found_written_as_two() -> None:
    # pluggy's docs write "hookwrapper" and "hook wrapper" on one page; stems differ.
    assert written_open(terms("hookwrapper"), terms("a hook wrapper runs")) == {"hook", "wrapper"}
    assert written_open(terms("setup timeout"), terms("set up the time out")) == {
        "set",
        "up",
        "time",
        "out",
    }
    assert written_open(terms("eventlet"), terms("gevent provides a server")) == frozenset()
    # terms unwritten: written neither as one word nor as two, whichever way the other has it
    question = terms("which backend does build fall back to")
    said = terms("build will fallback to the legacy backend")
    assert unwritten(question, said) == {"which", "doe"}  # "fall" and "back" are written
    closed = terms("the fallback backend")
    assert unwritten(closed, terms("it will fall back")) == {"the", "backend"}
