"""Comments that say what the code below them does, quoted with their code."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.synthesis.captions import captions
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
    assert "sched.add_job(job_function, 'interval', hours=2)\n```" in answer.answer
    assert not answer.removed_claims and not answer.uncited_claims


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
