"""A how-to claim's goal and assertion, read apart (`verify.purpose`)."""

from __future__ import annotations

import pytest

from citesynth.verify.purpose import Goal, goal_backed, split_goal


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        (
            "To ask the user a yes/no question, call the `confirm` function.",
            Goal("To ask the user a yes/no question", "Call the `confirm` function."),
        ),
        (
            "To pass a file such as -foo.txt, as an argument, you can use the `--` marker.",
            Goal("To pass a file such as -foo.txt, as an argument", "You can use the `--` marker."),
        ),
        (
            "In order to enable HTTP/2, install the `http2` extra.",
            Goal("In order to enable HTTP/2", "Install the `http2` extra."),
        ),
        (
            "To set `max_connections=None, timeout=5`, pass a `Limits` instance.",
            Goal("To set `max_connections=None, timeout=5`", "Pass a `Limits` instance."),
        ),
    ],
)
def test_the_goal_ends_at_the_comma_the_answer_starts_after(claim: str, expected: Goal) -> None:
    assert split_goal(claim) == expected


@pytest.mark.parametrize(
    "claim",
    [
        "The default pool size is 10 connections.",
        "Tokens expire after 30 minutes, so refresh them.",
        "To be sure, check.",  # no assertion of three words
        "To enable HTTP/2 install the extra.",  # no comma: one clause
    ],
)
def test_a_claim_without_an_opening_goal_has_none(claim: str) -> None:
    assert split_goal(claim) is None


SEPARATOR = (
    "Sometimes you want to pass arguments that look like options. A file named `-data.csv` "
    "passed as an argument is treated as an option. To avoid this, the parser accepts the "
    "string `--` as a separator: every parameter after the `--` marker is read as an argument."
)


def test_a_goal_is_backed_when_the_sources_hold_most_of_its_terms() -> None:
    # "dash" is the user's word; the source says "-data.csv": three terms in four are held.
    assert goal_backed("To pass a file that starts with a dash as an argument", [SEPARATOR])
    assert not goal_backed("To pickle the parser to share it between processes", [SEPARATOR])


def test_titles_and_headings_back_a_goal_too() -> None:
    goal = "To pass option-like arguments"
    assert not goal_backed(goal, ["Every parameter after `--` is read as an argument."])
    assert goal_backed(
        goal,
        ["Every parameter after `--` is read as an argument."],
        about="Click Arguments > Option-Like Arguments",
    )


def test_a_claim_of_thousands_of_commas_and_code_spans_is_read_in_one_pass() -> None:
    # Each comma once against the code spans in order (it took 40 s when every comma
    # rescanned every span and copied the rest of the claim).
    claim = "To do it" + ", `a`" * 20_000 + ", you can call `run`."
    goal = split_goal(claim)
    assert goal is not None and goal.assertion == "You can call `run`."
    assert goal.goal.endswith("`a`") and goal.goal.count(",") == 20_000
