"""Asked in which release something changed, an answer without that release is a not-found."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.synthesis.asked import NO_NUMBER
from citesynth.synthesis.releases import asks_release, states_release
from tests.conftest import answered

FAQ = (
    "# Frequently asked questions\n\nRuntime support for 3.6 was removed in version 22.10.0, "
    "for 3.7 in version 23.7.0. The `--line-ranges` option formats only the given lines, "
    "for example `--line-ranges=1-10`.\n"
)


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Which version of Black first introduced the --line-ranges option?", True),
        ("In which Black release was runtime support for Python 3.5 removed?", True),
        ("Since which version is the flag deprecated?", True),
        ("Which release of Click added shell completion?", True),
        # which version something needs or runs on: "the latest version" answers it
        ("What version of the oc-mirror tool do I need?", False),
        ("Which Python version is the Docker image built on?", False),
        ("When was the flag deprecated?", False),
    ],
)
def test_a_question_asking_when_something_changed(question: str, asks: bool) -> None:
    assert asks_release(question) is asks


@pytest.mark.parametrize(
    ("question", "claims", "stated"),
    [
        ("Which version added it?", ["It was added in version 8 [1]."], True),
        ("Which version added it?", ["New in v2.1 [1]."], True),
        (
            "Which version added it?",
            ["It formats lines `1` to `10` of `--line-ranges=1-10`."],
            False,
        ),
        # the release the question names must be the one the answer is about
        (
            "In which release was support for Python 3.5 removed?",
            ["Runtime support for 3.6 was removed in version 22.10.0 [1]."],
            False,
        ),
        (
            "In which release was support for Python 3.5 removed?",
            ["Support for Python 3.5 was removed in 22.0 [1]."],
            True,
        ),
    ],
)
def test_an_answer_states_the_release(question: str, claims: list[str], stated: bool) -> None:
    assert states_release(question, claims) is stated


async def test_the_option_described_without_its_release_is_a_not_found(
    engine: Engine, tmp_path: Path
) -> None:
    reply = "The `--line-ranges` option formats only the given lines [1]."
    question = "Which version of Black first introduced the --line-ranges option?"
    answer = await answered(engine, tmp_path / "d", FAQ, reply, question)
    assert answer.not_found and NO_NUMBER in answer.warnings
    other = "Runtime support for 3.6 was removed in version 22.10.0 [1]."
    answer = await answered(
        engine, tmp_path / "e", FAQ, other, "In which release was runtime support for 3.5 removed?"
    )
    assert answer.not_found
    answer = await answered(
        engine, tmp_path / "f", FAQ, other, "In which release was runtime support for 3.6 removed?"
    )
    assert not answer.not_found and "22.10.0" in answer.answer


def test_release_numbers_are_read_in_linear_time() -> None:
    question = "Which version first added " + "1." * 20_000 + "x?"
    started = time.perf_counter()
    states_release(question, ["v" + "1." * 20_000 + "x"])
    assert time.perf_counter() - started < 2.0
