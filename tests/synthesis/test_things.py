"""A question asking whether a thing exists, or which of a kind, that the documents never name."""

from __future__ import annotations

from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.synthesis.answerability import UNANSWERED
from citesynth.synthesis.sources import numbered
from citesynth.synthesis.things import things_asked, unnamed_things
from tests.conftest import answered_extractively
from tests.synthesis.test_evidence_and_repeats import hit


@pytest.mark.parametrize(
    ("question", "things"),
    [
        (
            "Is there a built-in RequiredIf validator that makes a field required?",
            ("RequiredIf validator",),
        ),
        ("Are there any published benchmark numbers?", ("published benchmark numbers",)),
        ("Does WTForms include a honeypot field to keep spam bots out?", ("honeypot field",)),
        (
            "Does Celery 5.5 ship built-in OpenTelemetry instrumentation?",
            ("OpenTelemetry instrumentation",),
        ),
        (
            "Doesn't urllib3 provide a native async/await (asyncio) client API?",
            ("async/await (asyncio) client API",),
        ),
        (
            "Does Gunicorn expose a Prometheus endpoint, or is StatsD the only option?",
            ("Prometheus endpoint",),
        ),
        ("Does the tables extension support merged cells in pipe tables?", ("merged cells",)),
        # which of a kind: the words between the question word and its verb
        ("Which JSON Schema draft does the generated schema follow?", ("JSON Schema",)),
        ("What open-source license is cattrs released under?", ("open-source",)),
        ("Does it log errors, and which logger name should I configure?", ("logger",)),
        (
            "Our team uses uWSGI. What harakiri (request timeout) value is recommended?",
            ("harakiri (request timeout)",),
        ),
        ("In the uWSGI guide, what harakiri value is recommended?", ("harakiri",)),
        # not a relative "which", nor a question word before its verb
        ("Does the Guardian article, which implies that United has lost, agree?", ()),
        ("What is the default timeout?", ()),
        # a kind's noun alone says what the answer is, not which thing: a page may not write it
        ("Which library does CodeHilite highlight code with?", ()),
        # the user's own things are not the documentation's
        ("Does my form have a honeypot field?", ()),
        ("My test task has a parameter color=True. What flag turns it off?", ()),
        # other questions
        ("Is there a way to make a field optional?", ("way",)),
        ("How do I add a honeypot field?", ()),
        ("Is the honeypot field required?", ()),
    ],
)
def test_the_things_a_question_asks_about(question: str, things: tuple[str, ...]) -> None:
    assert things_asked(question) == things


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
        # which of a kind the documents never name; a word qualifying the kind is no name
        ("Which honeypot field should I use?", ("honeypot",), ("honeypot",)),
        ("Which honeypot should I use?", ("honeypot",), ()),
        ("What additional field does WTForms add?", ("addit",), ()),
    ],
)
def test_a_thing_the_documents_never_name(
    question: str, unheard: tuple[str, ...], found: tuple[str, ...]
) -> None:
    sources = numbered([hit(FIELDS)])
    assert unnamed_things(question, sources, unheard) == found


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
