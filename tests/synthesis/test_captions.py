"""Comments that say what the code below them does, quoted with their code."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.synthesis.captions import captions, titled_examples
from tests.conftest import answered_extractively

INTERVAL = """Interval triggers
=================

::

    from apscheduler.schedulers.blocking import BlockingScheduler

    sched = BlockingScheduler()

    # Schedule job_function to be called every two hours
    sched.add_job(job_function, 'interval', hours=2)

    sched.start()

You can use ``start_date`` and ``end_date`` to limit the total time in which the schedule runs::

    # The same as before, but starts on 2010-10-10 at 9:30 and stops on 2014-06-15 at 11:00
    sched.add_job(job_function, 'interval', hours=2, start_date='2010-10-10 09:30:00')
"""


def test_a_comment_above_code_captions_it() -> None:
    found = captions(INTERVAL)
    assert [c.sentence for c in found] == [
        "Schedule job_function to be called every two hours:",
        "The same as before, but starts on 2010-10-10 at 9:30 and stops on 2014-06-15 at 11:00:",
    ]
    first = found[0]
    assert first.block.lines == ("sched.add_job(job_function, 'interval', hours=2)",)
    assert INTERVAL[first.start :].startswith("Schedule job_function")
    assert INTERVAL[first.block.start : first.block.end].strip() == first.block.lines[0]


@pytest.mark.parametrize(
    "text",
    [
        "# Installation\n\nRun the installer with the default options.\n",  # a Markdown heading
        "```python\n# noqa: E501 this line is long on purpose\nx = 1\n```\n",  # a pragma
        "```python\n# client.get(url, timeout=5)\nx = 1\n```\n",  # commented-out code
        "```python\n# Create a client\n\nclient = Client()\n```\n",  # nothing right below
        "```python\nclient = Client()  # Create a client with defaults\n```\n",  # after code
        "```python\n# a client with the defaults here\nclient = Client()\n```\n",  # no capital
    ],
)
def test_what_no_caption_is(text: str) -> None:
    assert captions(text) == []


def test_a_caption_of_several_lines_ends_at_the_blank_line_and_keeps_the_language() -> None:
    text = (
        "```python\n# Schedules job_function to be run on the third Friday\n"
        "# of June and July at 00:00\nsched.add_job(job_function, 'cron', day='3rd fri')\n"
        "sched.start()\n\nprint('done')\n```\n"
    )
    (caption,) = captions(text)
    assert caption.sentence == (
        "Schedules job_function to be run on the third Friday of June and July at 00:00:"
    )
    assert caption.block.lines == (
        "sched.add_job(job_function, 'cron', day='3rd fri')",
        "sched.start()",
    )
    assert caption.block.language == "python"


async def test_asked_how_the_extractive_writer_quotes_a_caption_with_its_code(
    engine: Engine, tmp_path: Path
) -> None:
    question = "How do I run a job every 2 hours?"
    answer = await answered_extractively(engine, tmp_path / "i", "interval.rst", INTERVAL, question)
    assert "Schedule job_function to be called every two hours: [1]\n\n```\n" in answer.answer, (
        answer.answer
    )
    assert "\nsched.add_job(job_function, 'interval', hours=2)\n```" in answer.answer, answer.answer
    assert not answer.removed_claims and not answer.uncited_claims


SPECIFIERS = """Specifiers
==========

.. doctest::

    >>> from packaging.specifiers import SpecifierSet
    >>> combined_spec = SpecifierSet(">=1.0,!=1.3.4")
    >>> # We can check if a specifier set can never be satisfied
    >>> SpecifierSet(">=2.0,<1.0").is_unsatisfiable()
    True
    >>> SpecifierSet(">=1.0,<2.0").is_unsatisfiable()
    False
    >>> # Compound sets built with ``&`` may also become unsatisfiable
    >>> (SpecifierSet(">=3.13,<4.0") & SpecifierSet("==3.12.*")).is_unsatisfiable()
    True

A specifier set is satisfied by a version that every one of its specifiers accepts.
"""


def test_a_doctest_comment_captions_the_statements_below_it() -> None:
    first, second = captions(SPECIFIERS)
    assert first.sentence == "We can check if a specifier set can never be satisfied:"
    assert first.block.lines == (
        '>>> SpecifierSet(">=2.0,<1.0").is_unsatisfiable()',
        "True",
        '>>> SpecifierSet(">=1.0,<2.0").is_unsatisfiable()',
        "False",
    )
    assert second.sentence.startswith("Compound sets built with")
    assert captions(">>> # Not a caption of code at all here\n\nSome prose.\n") == []


async def test_asked_for_a_named_thing_the_extractive_writer_quotes_a_caption_with_its_code(
    engine: Engine, tmp_path: Path
) -> None:
    # packaging's specifiers page answers only in its doctest: asked which method, the
    # writer had quoted a sentence about ranges and none of the example
    question = "Which SpecifierSet method tells me a set can never be satisfied?"
    answer = await answered_extractively(
        engine, tmp_path / "i", "specifiers.rst", SPECIFIERS, question
    )
    assert "We can check if a specifier set can never be satisfied: [1]" in answer.answer
    assert '>>> SpecifierSet(">=2.0,<1.0").is_unsatisfiable()\nTrue' in answer.answer
    assert not answer.removed_claims and not answer.uncited_claims


TAGS = """Tags
====

Wheels encode the Python interpreter, ABI, and platform that they support in
their filenames using platform compatibility tags.

Usage
-----

.. doctest::

    >>> from packaging.tags import Tag, sys_tags
    >>> supported_tags = list(sys_tags())
    >>> Tag("py3", "none", "any") in supported_tags
    True

Reference
---------

The following functions are the main interface to the library.

.. autofunction:: sys_tags
"""

PRE_COMMIT = """# pre-commit

towncrier can also be used in your pre-commit configuration to check your news fragments.

## Usage with the default configuration

```yaml
repos:
  - repo: https://github.com/twisted/towncrier
    hooks:
      - id: towncrier-check
```

## Usage with custom directories

News fragments are stored in `changelog.d/` and kept when running `update`:

```yaml
hooks:
  - id: towncrier-update
```
"""


def test_an_example_opening_its_section_is_captioned_by_its_heading() -> None:
    (usage,) = titled_examples(TAGS)
    assert usage.sentence == "Usage:"
    assert usage.block.lines[1] == ">>> supported_tags = list(sys_tags())"
    assert "sys tags" in usage.reads and usage.reads.startswith("Usage: ")
    # under its heading; not the block a sentence introduces ("… kept when running:")
    (default,) = titled_examples(PRE_COMMIT)
    assert default.sentence == "Usage with the default configuration:"
    assert default.block.lines[-1] == "      - id: towncrier-check"
    assert default.block.language == "yaml"


async def test_asked_for_a_named_thing_the_writer_quotes_the_example_under_its_heading(
    engine: Engine, tmp_path: Path
) -> None:
    question = "Which function in packaging.tags lists the tags the running interpreter supports?"
    answer = await answered_extractively(engine, tmp_path / "i", "tags.rst", TAGS, question)
    assert "Usage: [1]\n\n```\n>>> from packaging.tags import Tag, sys_tags" in answer.answer
    assert not answer.removed_claims and not answer.uncited_claims
    # asked how, not for a named thing, the heading alone says nothing of the example
    how = await answered_extractively(
        engine, tmp_path / "j", "tags.rst", TAGS, "How do wheels encode their platform?"
    )
    assert "Usage" not in how.answer


def test_comments_in_many_spaces_are_read_in_linear_time() -> None:
    started = time.perf_counter()
    assert captions("```\n# Schedule" + " " * 100_000 + "x\ncode\n```\n") == []
    assert (
        len(captions("```\n" + "# Run the job every hour here\nrun()\n" * 5_000 + "```\n")) == 5_000
    )
    assert time.perf_counter() - started < 3.0


async def test_a_caption_inside_another_s_code_is_not_shown_twice(
    engine: Engine, tmp_path: Path
) -> None:
    text = (
        "# Jobs\n\n```python\n"
        "# Register the interval jobs every two hours with the scheduler at startup\n"
        "def setup(sched):\n"
        "    # Schedule job_function to run every two hours with the scheduler\n"
        "    sched.add_job(job_function, 'interval', hours=2)\n```\n"
    )
    question = "How do I run jobs every two hours with the scheduler?"
    answer = await answered_extractively(engine, tmp_path / "n", "jobs.md", text, question)
    assert answer.answer.count("sched.add_job(job_function, 'interval', hours=2)") == 1, (
        answer.answer
    )
