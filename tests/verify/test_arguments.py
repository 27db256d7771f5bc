"""A claim giving a one-way relation's two sides each other's places."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import Check, LexicalVerifier, arguments
from citesynth.verify.arguments import arguments_exchanged

MIDDLEWARE = (
    "A WSGI middleware is a WSGI application that wraps another application in order to "
    "observe or change its behavior."
)
INSPIRED = (
    "marshmallow is inspired by `Django REST Framework`_, `Flask-RESTful`_, and "
    "`colander <https://docs.pylonsproject.org/projects/colander/en/latest/>`_."
)
MACROS = (
    "Due to how scopes work in Jinja, a macro in a child template does not override a "
    "macro in a parent template."
)
FALCON = (
    "Falcon will convert any instance or subclass of :class:`~.HTTPError` raised by a "
    "responder, hook, or middleware component into an appropriate HTTP response."
)
SMARTY = (
    "This extension re-implements the Python [SmartyPants] library by integrating it into "
    "the markdown parser."
)


@pytest.mark.parametrize(
    ("claim", "source", "found"),
    [
        (  # Werkzeug's docs: "wraps" turned into "is wrapped by", the rest kept
            "In Werkzeug, a middleware is a WSGI application that is wrapped by another "
            "application in order to observe or change that application's behaviour.",
            MIDDLEWARE,
            ("wrapped", "another"),
        ),
        (  # marshmallow's docs: passive on both sides, its two sides exchanged
            "Django REST Framework, Flask-RESTful and colander were inspired by marshmallow, "
            "borrowing its implementation and design ideas.",
            INSPIRED,
            ("inspired", "marshmallow"),
        ),
        (  # Jinja's docs: who overrides whom
            "Due to scoping, a macro in a parent template cannot override a macro in a child "
            "template.",
            MACROS,
            ("override", "parent"),
        ),
        (  # Python-Markdown's docs: active on both sides
            "The third-party SmartyPants library re-implements this extension by integrating "
            "it into the markdown parser.",
            SMARTY,
            ("re-implements", "library"),
        ),
        (  # Jinja's docs: the phrase both write ("the compiler then converts") is no side
            "Extensions can return Python code objects, which the compiler then converts "
            "into AST nodes.",
            "It's build of nodes that the compiler then converts into executable Python code "
            "objects.",
            ("converts", "code"),
        ),
        (  # WTForms' docs: a noun relating one way, the sides going on alike
            "Form is the parent class of BaseForm, and most of the implementation logic of "
            "BaseForm is actually handled by Form.",
            "`BaseForm` is the parent class of :class:`Form`, and most of the implementation "
            "logic from Form is actually handled by BaseForm.",
            ("parent", "form"),
        ),
        (  # Falcon's docs: what is converted and what into
            "Falcon converts error HTTP responses into HTTPError instances so that responders "
            "can handle them.",
            FALCON,
            ("converts", "http"),
        ),
        ("HTTP responses are converted into HTTPError instances.", FALCON, ("converted", "http")),
        (  # Jinja's FAQ: a comparison's sides are whole lists, its adverbs no side's
            "The Jinja FAQ says the template engine often has a much larger effect on "
            "performance than database access, API calls, and data processing.",
            "Often, database access, API calls, and data processing have a much larger effect "
            "on performance than the template engine.",
            ("larger", "engine"),
        ),
        (  # a comparative's sides part at "than"
            "The stat reloader is much slower than the watchdog backend.",
            "The watchdog backend is much slower than the stat reloader.",
            ("slower", "reloader"),
        ),
    ],
)
def test_sides_given_each_others_places_are_found(
    claim: str, source: str, found: tuple[str, str]
) -> None:
    assert arguments_exchanged(claim, source) == found


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (  # the passive restating it: the same doer
            "Another application is wrapped by a WSGI middleware to observe its behaviour.",
            MIDDLEWARE,
        ),
        (  # said as the source says it
            "A macro in a child template does not override a macro in a parent template.",
            MACROS,
        ),
        (  # a relation that holds both ways
            "Flask is compatible with Werkzeug.",
            "Werkzeug is compatible with Flask.",
        ),
        (  # a noun or adverb is no pivot
            "The stream of the server writes the errors.",
            "The errors are written to the stream specified by the server.",
        ),
        (  # who configures it is not written: "be configured with"
            "Use the pool to configure the client.",
            "The client can be configured with the pool.",
        ),
        (  # a participle describing its noun, by no one written
            "A ValidationError raised in a post-processing method ends up under _schema.",
            "Post-processing methods may raise a ValidationError.",
        ),
        (  # SciFact: a run both write alike is what is related, not the relation's phrase
            "Ca2+ cycling controls whole-body energy homeostasis in beige fat.",
            "Our study uncovers a noncanonical thermogenic mechanism through which beige fat "
            "controls whole-body energy homeostasis via Ca2+ cycling.",
        ),
        (  # converted as the source converts them
            "Falcon converts HTTPError instances into HTTP responses.",
            FALCON,
        ),
        ("HTTPError instances are converted into HTTP responses.", FALCON),
        (  # compared as the source compares them
            "The stat reloader is slower than the watchdog backend, which needs a package.",
            "The stat reloader is much slower than the watchdog backend.",
        ),
        (  # the pivot an item of a list
            "Schemas dump, load, and validate data.",
            "Schemas validate, load, and dump data.",
        ),
    ],
)
def test_sides_kept_or_unwritten_are_not_read_as_exchanged(claim: str, source: str) -> None:
    assert arguments_exchanged(claim, source) is None


def test_a_source_saying_it_both_ways_is_not_contradicted() -> None:
    claim = "The request hook wraps the response hook."
    stating = "The response hook wraps the request hook."
    assert arguments_exchanged(claim, stating) == ("wraps", "request")
    others = ["In streaming mode the request hook wraps the response hook instead."]
    assert arguments_exchanged(claim, stating, others) is None


def test_the_lexical_verifier_says_the_source_has_it_the_other_way_round() -> None:
    wrong, right = LexicalVerifier().verify_now(
        [
            Check(
                "In Werkzeug, a middleware is a WSGI application that is wrapped by another "
                "application in order to observe or change its behavior.",
                (MIDDLEWARE,),
            ),
            Check(
                "In Werkzeug, a middleware is a WSGI application that wraps another "
                "application in order to observe or change its behavior.",
                (MIDDLEWARE,),
            ),
        ]
    )
    assert not wrong.supported
    assert any("other way round" in reason for reason in wrong.reasons)
    assert right.supported


def test_long_texts_are_read_in_bounded_time() -> None:
    verbs = sorted(arguments.ONE_WAY)
    filler = " ".join(f"x{i}" for i in range(2_000))
    claim = " ".join(f"alpha {verb}s beta." for verb in verbs)
    source = " ".join(f"beta {verb}s alpha {filler}." for verb in verbs)
    started = time.perf_counter()
    arguments_exchanged(claim, source, [source] * 20)
    assert time.perf_counter() - started < 5
