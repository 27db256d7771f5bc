"""A question asking whether a thing exists that the documents never name."""

from __future__ import annotations

from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.synthesis.answerability import UNANSWERED
from citesynth.synthesis.existence import thing_asked, unnamed_thing
from citesynth.synthesis.sources import numbered
from tests.conftest import answered_extractively
from tests.synthesis.test_evidence_and_repeats import hit


@pytest.mark.parametrize(
    ("question", "thing"),
    [
        (
            "Is there a built-in RequiredIf validator that makes a field required?",
            "RequiredIf validator",
        ),
        ("Are there any published benchmark numbers?", "published benchmark numbers"),
        ("Does WTForms include a honeypot field to keep spam bots out?", "honeypot field"),
        (
            "Does Celery 5.5 ship built-in OpenTelemetry instrumentation?",
            "OpenTelemetry instrumentation",
        ),
        (
            "Doesn't urllib3 provide a native async/await (asyncio) client API?",
            "async/await (asyncio) client API",
        ),
        (
            "Does Gunicorn expose a Prometheus endpoint, or is StatsD the only option?",
            "Prometheus endpoint",
        ),
        ("Does the tables extension support merged cells in pipe tables?", "merged cells"),
        # the user's own things are not the documentation's
        ("Does my form have a honeypot field?", None),
        ("My test task has a parameter color=True. What flag turns it off?", None),
        # other questions
        ("Is there a way to make a field optional?", "way"),
        ("How do I add a honeypot field?", None),
        ("Is the honeypot field required?", None),
    ],
)
def test_the_thing_a_question_asks_exists(question: str, thing: str | None) -> None:
    assert thing_asked(question) == thing


FIELDS = (
    "# Fields\n\nWTForms provides boolean and string-based submit controls. A hidden field "
    "holds a CSRF token.\n"
)


@pytest.mark.parametrize(
    ("question", "unheard", "found"),
    [
        ("Does WTForms include a honeypot field for spam bots?", ("honeypot",), ("honeypot",)),
        # a word some chunk of the index holds, though no top source does: read as before
        ("Does WTForms include a honeypot field for spam bots?", ("spam",), ()),
        # written by a source, or one edit away from a word it writes; not two
        ("Is there a hiden field for tokens?", ("hiden",), ()),
        ("Is there a subnit field?", ("subnit",), ()),
        ("Is there a bolean field?", ("bolean",), ()),
        ("Does WTForms ship a hiddne field?", ("hiddn",), ("hiddne",)),
        # the thing's words only: "bots" is what the thing is for
        ("Does WTForms include a submit field for bots?", ("bot",), ()),
        # not asked whether it exists
        ("How do I add a honeypot field?", ("honeypot",), ()),
    ],
)
def test_a_thing_the_documents_never_name(
    question: str, unheard: tuple[str, ...], found: tuple[str, ...]
) -> None:
    sources = numbered([hit(FIELDS)])
    assert unnamed_thing(question, sources, unheard) == found


async def test_a_thing_no_chunk_names_is_not_found(engine: Engine, tmp_path: Path) -> None:
    # Pages on fields, on topic for a honeypot, never name one: the extractive writer had
    # answered "WTForms provides boolean and string-based submit controls".
    answer = await answered_extractively(
        engine,
        tmp_path / "d",
        "fields.md",
        FIELDS + "\n## Forms\n\nForms contain your field definitions and validate input.\n",
        "Does WTForms include a honeypot field to keep spam bots from submitting my forms?",
    )
    assert answer.not_found and answer.sources
    assert answer.warnings[0].startswith(f"{UNANSWERED}: none of the top passages names honeypot")
    held = await engine.answer("Does WTForms include a hidden field for the CSRF token?")
    assert not held.not_found
