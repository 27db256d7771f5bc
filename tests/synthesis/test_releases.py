"""Asked in which release something changed, an answer without that release is a not-found."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.answers import Claim
from citesynth.synthesis.asked import NO_NUMBER
from citesynth.synthesis.finishing import lacks_number
from citesynth.synthesis.releases import (
    asks_release,
    asks_version_of,
    states_release,
    states_version_of,
)
from citesynth.verify.conflicts import Found
from tests.conftest import answered, answered_extractively

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
        # griffe's set: what the release did, in the words of a user
        ("When did Griffe gain support for PEP 695 aliases? In which release did it land?", True),
        ("In which version did the `--full` option appear?", True),
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
        # a number joined to another name by a hyphen is that name's release (tox's example)
        (
            "Which tox release first added support for project-local plugins?",
            ['In `toxfile.py`, return "myplugin-1.0.0" from the hook [1].'],
            False,
        ),
        (
            "Which tox release first added support for project-local plugins?",
            ["Project-local plugins were added in tox-4.5.0 [1]."],
            True,
        ),
        # the release the question gives is what the asker knows: another is the answer
        (
            "Which Trio release dropped Python 3.9?",
            ["Drop support for Python 3.9 (#3345) [1]."],
            False,
        ),
        (
            "Which Trio release dropped Python 3.9?",
            ["**Trio 0.32.0 (2025-10-31)** Drop support for Python 3.9 (#3345) [1]."],
            True,
        ),
        # a number after another capitalised name is that name's release
        (
            "In which Werkzeug version will LocalManager be removed?",
            ["Werkzeug supports Python 3.9 and newer [1]."],
            False,
        ),
        (
            "In which Werkzeug version will LocalManager be removed?",
            ["LocalManager will be removed in Werkzeug 3.2 [1]."],
            True,
        ),
        ("Which version added it?", ["Since 2.4 it is the default [1]."], True),
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


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("What's the minimum Python version Celery 5.5 supports?", (["python"], True)),
        (
            "What is the minimum SQLite library version coverage.py needs?",
            (["sqlite", "librari"], True),
        ),
        ("Which Python version is the Docker image built on?", (["python"], False)),
        ("What version of Podman is needed?", (["podman"], False)),
        ("What is the oldest version of Bash supported?", (["bash"], True)),
        # a version's scheme or pin, a name in older versions, a release that changed it
        ("Which option of the standard version scheme controls this check?", None),
        ("What version specifier should I write?", None),
        ("What was cattrs.Converter called in older versions?", None),
        ("Which version of Black first introduced the --line-ranges option?", None),
        # how the version is decided (jsonschema: by the `$schema` keyword it inspects)
        (
            "When I wrap a schema dict with Resource.from_contents, how does it decide which "
            "JSON Schema version to interpret it under?",
            None,
        ),
        ("How does pip pick which version of a package to install?", None),
    ],
)
def test_a_question_asking_for_the_version_of_a_thing(
    question: str, asked: tuple[list[str], bool] | None
) -> None:
    assert asks_version_of(question) == asked


@pytest.mark.parametrize(
    ("question", "claims", "stated"),
    [
        (
            "What's the minimum Python version Celery 5.5 supports?",
            ["From now on we only support Python 3.8 and above [1]."],
            True,
        ),
        # the version of something else (Black's, not Python's), or none
        (
            "Which Python version is the official pyfound/black Docker image built on?",
            ["From version 23.11.0 the Docker image installs a compiled black [5]."],
            False,
        ),
        (
            "What's the minimum Python version I need to install nox 2025.5.1 itself?",
            [
                "This allows you to specify a minimum version of nox here [5].",
                "Nox version requirements can be set with ``nox.needs_version`` [1].",
            ],
            False,
        ),
        # "the latest" answers which version is needed, never a minimum
        ("What version of Podman is needed?", ["Install the latest version of Podman [1]."], True),
        (
            "What is the minimum Podman version?",
            ["Install the latest version of Podman [1]."],
            False,
        ),
        # a name and a whole number; the number in the claim after the one naming the thing
        ("Which Windows versions can run the backend?", ["It runs on Windows 11 [2]."], True),
        (
            "What is the minimum Bash version supported by shell completion?",
            ["Completion supports Bash and Zsh [1].", "It needs version 4.4 or later [1]."],
            True,
        ),
        ("What time is it?", ["No version here [1]."], True),  # no version asked
    ],
)
def test_an_answer_states_the_version_of_the_thing(
    question: str, claims: list[str], stated: bool
) -> None:
    assert states_version_of(question, claims) is stated


async def test_a_version_of_something_else_is_a_not_found(engine: Engine, tmp_path: Path) -> None:
    docs = (
        "# Installation\n\nThe tool supports Python versions 3.10 and above. It stores its "
        "data in a SQLite database called `.tool`.\n"
    )
    reply = "The tool stores its data in a SQLite database called `.tool` [1]."
    question = "What is the minimum SQLite library version the tool needs?"
    answer = await answered(engine, tmp_path / "d", docs, reply, question)
    assert answer.not_found and NO_NUMBER in answer.warnings
    reply = "The tool supports Python versions 3.10 and above [1]."
    question = "What's the minimum Python version the tool supports?"
    answer = await answered(engine, tmp_path / "e", docs, reply, question)
    assert not answer.not_found and "3.10" in answer.answer


def test_versions_of_a_thing_are_read_in_linear_time() -> None:
    question = "What is the minimum " + "Python " * 20_000 + "version?"
    started = time.perf_counter()
    states_version_of(question, ["Python " * 20_000 + "1." * 20_000])
    assert time.perf_counter() - started < 5.0


def test_a_disagreement_on_versions_of_something_else_is_no_answer() -> None:
    question = "What's the oldest PostgreSQL server version that Alembic 1.20 supports?"
    claims = [Claim(text="Alembic supports Python versions 3.10 and above [1].", citations=[1])]
    other = Found(
        "alembic will work with SQLAlchemy as of version", ("2.0", "1.1"), (1, 7), "number"
    )
    assert lacks_number(question, claims, [other])
    postgres = Found("alembic supports PostgreSQL", ("13", "12"), (1, 7), "number")
    assert not lacks_number(question, claims, [postgres])


async def test_a_change_is_shown_under_its_release_and_answers_which_release(
    engine: Engine, tmp_path: Path
) -> None:
    # A change log writes each change without its release, under the release's heading.
    history = (
        "Release history\n===============\n\nTrio 0.32.0 (2025-10-31)\n"
        "------------------------\n\nDeprecations and removals\n~~~~~~~~~~~~~~~~~~~~~~~~~\n\n"
        "- Drop support for Python 3.9.\n- Remove the deprecated ``trio.Queue`` class, use "
        "memory channels instead.\n- Remove ``trio.run_sync_in_worker_thread``, deprecated "
        "since 0.12.0.\n\nTrio 0.31.0 (2025-09-01)\n------------------------\n\n"
        "Features\n~~~~~~~~\n\n- Add a helpful error message for sync functions.\n"
    )
    answer = await answered_extractively(
        engine, tmp_path / "d", "history.rst", history, "Which Trio release dropped Python 3.9?"
    )
    assert not answer.not_found, answer.warnings
    assert answer.answer.startswith("**Trio 0.32.0 (2025-10-31)"), answer.answer
    assert "0.32.0" not in " ".join(claim.text for claim in answer.claims)


async def test_a_release_heading_with_a_link_and_an_attribute_list_is_shown_plain(
    engine: Engine, tmp_path: Path
) -> None:
    # Hatch's history heads each release with a link, its closing "##" and an attribute list.
    history = (
        "# Hatchling history\n\n## [1.32.0](https://github.com/pypa/hatch/releases/tag/"
        "hatchling-v1.32.0) - 2026-08-11 ## {: #hatchling-v1.32.0 }\n\n***Added:***\n\n"
        "- Drop support for Python 3.9\n- Bump default core metadata version to 2.5\n\n"
        "## [1.31.0](https://github.com/pypa/hatch/releases/tag/hatchling-v1.31.0) - "
        "2026-07-01 ## {: #hatchling-v1.31.0 }\n\n- Add a helpful error message\n"
    )
    answer = await answered_extractively(
        engine, tmp_path / "d", "history.md", history, "Which Hatchling release dropped Python 3.9?"
    )
    assert not answer.not_found, answer.warnings
    assert answer.answer.startswith("**1.32.0 - 2026-08-11**"), answer.answer


async def test_a_release_heading_with_a_reference_link_is_shown_plain(
    engine: Engine, tmp_path: Path
) -> None:
    # Python-Markdown's change log (Keep a Changelog's style): "## [3.9.0] - 2025-09-04"
    changelog = (
        "# Changelog\n\n## [3.9.0] - 2025-09-04\n\n### Changed\n\n"
        "* Footnotes are now ordered by the place of their reference (#1367).\n\n"
        "## [3.8.2] - 2025-06-19\n\n### Fixed\n\n* Fix a crash in tables (#1520).\n\n"
        "[3.9.0]: https://github.com/Python-Markdown/markdown/compare/3.8.2...3.9.0\n"
    )
    answer = await answered_extractively(
        engine,
        tmp_path / "d",
        "changelog.md",
        changelog,
        "Which release ordered footnotes by the place of their reference?",
    )
    assert not answer.not_found, answer.warnings
    assert answer.answer.startswith("**3.9.0 - 2025-09-04**"), answer.answer
