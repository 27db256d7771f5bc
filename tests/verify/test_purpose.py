"""A how-to claim's goal and assertion, read apart (`verify.purpose`)."""

from __future__ import annotations

import pytest

from citesynth.verify.base import Check
from citesynth.verify.lexical import LexicalVerifier
from citesynth.verify.purpose import Goal, goal_backed, goal_elsewhere, split_goal


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


TLS_WARNINGS = """TLS Warnings

The library warns at several levels of certificate verification support.

Sending unverified HTTPS requests is discouraged; if you understand the risks and want
to disable these warnings, you can call :func:`~netlib.disable_warnings`:

.. code-block:: python

    netlib.disable_warnings()
"""


def test_a_goal_given_to_code_the_source_names_for_another_goal_is_found() -> None:
    claim = "To disable SSL certificate verification, you can use `netlib.disable_warnings`:"
    assert goal_elsewhere(claim, [TLS_WARNINGS]) == (
        "disable_warnings",
        "to disable these warnings",
    )


@pytest.mark.parametrize(
    "claim",
    [
        "To disable these warnings, you can call `netlib.disable_warnings()`.",
        "To disable warnings about unverified requests, call `disable_warnings()`.",
        "To turn off certificate checks, you can call `disable_warnings()`.",  # another verb
        "To disable this feature, you can call `disable_warnings()`.",  # points back
        "To disable certificate verification, edit `tls-config.yaml` by hand.",  # a path
        "To disable certificate verification, pass `verify=False` to the client.",
    ],
)
def test_a_goal_the_source_gives_that_code_or_never_compares_is_not(claim: str) -> None:
    assert goal_elsewhere(claim, [TLS_WARNINGS]) is None


def test_a_sentence_naming_the_code_for_the_claims_goal_clears_it() -> None:
    both = TLS_WARNINGS + (
        "\nTo disable certificate verification for tests only, call `disable_warnings()` "
        "after passing `verify=False`.\n"
    )
    claim = "To disable certificate verification, call `disable_warnings()` first."
    assert goal_elsewhere(claim, [TLS_WARNINGS]) is not None
    assert goal_elsewhere(claim, [both]) is None


def test_the_verifier_does_not_support_a_goal_the_source_gives_other_code() -> None:
    wrong = "To disable certificate verification, you can call `netlib.disable_warnings`:"
    right = "To disable these warnings, you can call `netlib.disable_warnings`:"
    found = LexicalVerifier().verify_now(
        [Check(wrong, (TLS_WARNINGS,), "TLS Warnings"), Check(right, (TLS_WARNINGS,))]
    )
    assert [v.label for v in found] == ["partial", "supported"]
    assert found[0].reasons == (
        "the source says 'disable_warnings' is used 'to disable these warnings'",
    )


def test_a_goal_is_read_whole_through_dotted_names_and_line_breaks() -> None:
    source = (
        "Pass ``temp_dir`` to control where the\ntemporary directory is created. The directory "
        "is not removed in this case."
    )
    claim = (
        "To control where CliRunner.isolated_filesystem creates its temporary directory, "
        "you can pass `temp_dir` to the method."
    )
    assert goal_elsewhere(claim, [source]) is None
    assert goal_elsewhere("To control the exit code, you can pass `temp_dir` here.", [source])


def test_the_package_holding_the_named_code_is_not_what_the_claim_recommends() -> None:
    source = (
        "To write log entries to a file, use `WriteLogger`. The structlog package is used "
        "to format messages for humans and machines."
    )
    claim = "To format entries as JSON, use `structlog.WriteLogger` from the `structlog` library."
    assert goal_elsewhere(claim, [source]) is None
    assert goal_elsewhere("To write to a database, you can use `structlog.WriteLogger`.", [source])


@pytest.mark.parametrize(
    ("claim", "passages"),
    [
        (  # "to False to disable …" must not swallow the clause that states the goal
            "To disable certificate verification, you can set `verify`.",
            [
                "Set `verify` to False to disable certificate verification in tests.",
                "The `verify` flag can also be used to disable these warnings for good.",
            ],
        ),
        (  # "to enable this feature" names nothing
            "To enable response caching, you can set `cache_enabled`.",
            [
                "Response caching keeps recent responses in memory for a while. You can set "
                "`cache_enabled` to enable this feature."
            ],
        ),
        (  # "get" written as a word, not as code
            "To fetch data from an API, you can call `requests.get`.",
            [
                "Use `requests.head` to fetch headers only, so you do not get the body of "
                "the response."
            ],
        ),
        (  # the clause is about the other code the sentence names
            "To disable certificate verification, you can pass `verify=False`.",
            [
                "Passing `verify=False` makes requests insecure, so call "
                "`urllib3.disable_warnings` to disable the resulting warnings."
            ],
        ),
        (  # a literal is no name the claim recommends
            "To disable strict parsing, you can set `verify` to `False`.",
            ["Pass `strict=False` in order to disable strict parsing of response headers."],
        ),
    ],
)
def test_a_purpose_read_for_the_claims_own_code_only(claim: str, passages: list[str]) -> None:
    assert goal_elsewhere(claim, passages) is None


def test_a_claim_of_thousands_of_code_names_is_read_in_linear_time() -> None:
    claim = "To do the work, you can use " + " ".join(f"`m.name{i}`" for i in range(20_000)) + "."
    assert goal_elsewhere(claim, ["Use `m.name1` to do other things, and nothing else."]) == (
        "name1",
        "to do other things",
    )
