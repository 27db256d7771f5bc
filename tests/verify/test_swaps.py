"""Swapped details: two values of a claim bound to each other's subjects."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import Check, LexicalVerifier
from citesynth.verify.swaps import (
    order_reversed,
    preferred_reversed,
    rejected_chosen,
    rejected_stated,
    relation_reversed,
    span_reversed,
    swapped,
)

TIMEOUTS = "The connect timeout is 5 seconds; the read timeout is 10 seconds."


@pytest.mark.parametrize(
    ("claim", "source", "found"),
    [
        (
            "The connect timeout is 10 seconds and the read timeout is 5 seconds.",
            TIMEOUTS,
            ("10", "5"),
        ),
        (
            "Uploads are synchronous on the server, while downloads stay asynchronous on clients.",
            "Uploads are asynchronous on the server, while downloads stay synchronous on clients.",
            ("synchronous", "asynchronous"),
        ),
        (
            "In 1990 Cardiff City beat Swansea 2-1 at Ninian Park.",
            "In 1990 Swansea beat Cardiff City 2-1 at Ninian Park.",
            ("cardiff", "swansea"),
        ),
    ],
)
def test_values_bound_the_other_way_round_are_found(
    claim: str, source: str, found: tuple[str, str]
) -> None:
    assert swapped(claim, source) == found


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # bound as the source binds them, in another order
        ("The read timeout is 10 seconds and the connect timeout is 5 seconds.", TIMEOUTS),
        # coordinated values bind to nothing apart
        (
            "The law applied to private employee unions as well as public ones.",
            "The legislation applies to public and private sector unions.",
        ),
        ("The centre works with people aged 24-10.", "The centre works with people aged 10-24."),
        # one name of several words is one item, not two to swap
        (
            "It said that President Robert Mugabe was safe.",
            "The army acted against criminals around the president, Robert Mugabe, in Harare.",
        ),
        # a swap exchanges like with like: a number is not read against a name
        (
            "The platform includes 28 Red Hat supported plugins and 56 Technology Preview plugins.",
            "See Red Hat Technology Preview features for the 56 plugins and their scope.",
        ),
        # one value only: nothing to swap
        ("The connect timeout is 5 seconds.", TIMEOUTS),
    ],
)
def test_no_swap_when_nothing_binds_them_apart(claim: str, source: str) -> None:
    assert swapped(claim, source) is None


def test_the_lexical_verifier_rejects_a_swap_and_says_why() -> None:
    verifier = LexicalVerifier()
    wrong, right = verifier.verify_now(
        [
            Check(
                "The connect timeout is 10 seconds and the read timeout is 5 seconds.", (TIMEOUTS,)
            ),
            Check(
                "The connect timeout is 5 seconds and the read timeout is 10 seconds.", (TIMEOUTS,)
            ),
        ]
    )
    assert right.label == "supported"
    assert wrong.label != "supported"
    assert "the source pairs '10' and '5' the other way round" in wrong.reasons


def test_a_sentence_repeating_the_items_thousands_of_times_is_read_whole() -> None:
    """Neighbours are read walking out from each occurrence, positions by their six
    neighbours: a 500 kB run-on sentence is read like any other (it took 7 s when both
    were read by copying and comparing every pair of positions)."""
    claim = "The connect timeout is 10 seconds and the read timeout is 5 seconds."
    crossed = " ".join(["the read timeout 5 x y the connect timeout 10 z w q r"] * 8000)
    assert swapped(claim, crossed + " The connect timeout is 5 seconds.") is None
    assert swapped(claim, TIMEOUTS + " " + "x " * 40000) == ("10", "5")


STREAMS = (
    "If you use the same file for structlog and logging.StreamHandler output, you must use "
    "{class}`~structlog.WriteLogger` instead of {class}`~structlog.PrintLogger`."
)


DOTENV = (
    "Variables set on the command line are used over those set in :file:`.env`,\n"
    "which are used over those set in :file:`.flaskenv`."
)


@pytest.mark.parametrize(
    ("claim", "source", "found"),
    [
        # one preferred to the other the other way round ("{class}" is no word beside it)
        (
            "When structlog and a StreamHandler share a file, you need PrintLogger instead "
            "of WriteLogger.",
            STREAMS,
            ("printlogger", "writelogger"),
        ),
        (
            "Initialize the context at the start of each request with bind() rather than new().",
            "You must initialize your context at the start of each request using "
            "{func}`~structlog.BoundLogger.new` (instead of {func}`~structlog.BoundLogger.bind`).",
            ("bind", "new"),
        ),
        # the same order, in other words
        (
            "When structlog and a StreamHandler share a file, you need WriteLogger rather "
            "than PrintLogger.",
            STREAMS,
            None,
        ),
        # a phrase opening the sentence relates nothing on its left
        (
            "Rather than PrintLogger, use WriteLogger when structlog and a StreamHandler "
            "share a file.",
            STREAMS,
            None,
        ),
        # the source prefers nothing
        ("Use WriteLogger instead of PrintLogger.", "WriteLogger writes atomically.", None),
        # one winning over the other, said in other words (Flask's docs, the embedded model)
        (
            "The `.flaskenv` file takes precedence over the `.env` file.",
            DOTENV,
            ("file", "env"),
        ),
        ("The .flaskenv file overrides the .env file.", DOTENV, ("file", "env")),
        # "override" the noun says nothing wins: "the `overrides` list", "an override file"
        ("Add the .flaskenv override file to the `overrides` list of .env.", DOTENV, None),
        ("The `.env` file takes precedence over the `.flaskenv` file.", DOTENV, None),
        ("Variables in `.env` have priority over those in `.flaskenv`.", DOTENV, None),
        # "and not" prefers too (Jinja's docs)
        (
            "Accessing a missing attribute on the c object returns an undefined object rather "
            "than an empty string.",
            "By default attribute access on missing attributes on the ``c`` object returns an "
            "empty string and not an undefined object.",
            ("object", "empty"),
        ),
        (
            "Accessing a missing attribute on the c object returns an empty string, not an "
            "undefined object.",
            "Attribute access on missing attributes on the ``c`` object returns an empty "
            "string and not an undefined object.",
            None,
        ),
    ],
)
def test_a_preference_reversed_is_found(
    claim: str, source: str, found: tuple[str, str] | None
) -> None:
    assert preferred_reversed(claim, source) == found


COOKIES = (
    "If a cookie is set, and a subsequent request is made over HTTP (rather than HTTPS), "
    "the client will not include that cookie in the request."
)
PRECEDENCE = (
    "`formdata` takes precedence over `obj`, which itself takes precedence over keyword arguments."
)


@pytest.mark.parametrize(
    ("claim", "source", "found"),
    [
        # the two words next to the phrase exchanged, though both write "made over" before
        # it (Falcon's docs, a written tuning claim)
        (
            "A cookie set earlier is not included in a request made over HTTPS rather than HTTP.",
            COOKIES,
            ("https", "http"),
        ),
        (
            "A cookie set earlier is not included in a request made over HTTP rather than HTTPS.",
            COOKIES,
            None,
        ),
        # a chain: the second phrase's left side is not what the first one prefers
        # (WTForms' docs, a written tuning claim)
        (
            "When populating a form, obj takes precedence over formdata, which in turn takes "
            "precedence over any keyword arguments.",
            PRECEDENCE,
            ("obj", "formdata"),
        ),
        (
            "When populating a form, formdata takes precedence over obj, which in turn takes "
            "precedence over any keyword arguments.",
            PRECEDENCE,
            None,
        ),
    ],
)
def test_a_preference_reversed_next_to_its_phrase_is_found(
    claim: str, source: str, found: tuple[str, str] | None
) -> None:
    assert preferred_reversed(claim, source) == found


WIDGETS = (
    "When a field is called, the default behaviour is to delegate the rendering to its widget."
)
ROUTES = (
    "In cases where more that one route could match an incoming path, you should take care "
    "to ensure that more specific routes are listed before general cases."
)


@pytest.mark.parametrize(
    ("claim", "source", "found"),
    [
        # what is said between two words, said from the other end (WTForms' and
        # Starlette's docs, written tuning claims)
        (
            "When a widget is called, its default behaviour is to delegate the rendering to "
            "the field it belongs to.",
            WIDGETS,
            ("widget", "field"),
        ),
        (
            "When several routes could match a path, the more general routes should be listed "
            "before the more specific ones.",
            ROUTES,
            ("general", "specific"),
        ),
        # the same order
        (
            "When a field is called, by default it delegates the rendering to its widget.",
            WIDGETS,
            None,
        ),
        # a passive says it from the other end in other words
        (
            "The rendering of a called field is delegated by default to its widget.",
            WIDGETS,
            None,
        ),
        ("Its widget is called by the field to delegate the rendering by default.", WIDGETS, None),
        # a list in the other order
        (
            "It reads JSON files, TOML tables, YAML documents and INI sections.",
            "It reads INI sections, YAML documents, TOML tables and JSON files.",
            None,
        ),
        # one word between them: too little to say what relates them
        ("The widget field is called.", WIDGETS, None),
    ],
)
def test_a_relation_said_from_the_other_end_is_found(
    claim: str, source: str, found: tuple[str, str] | None
) -> None:
    assert relation_reversed(claim, source) == found


def test_a_relation_another_stating_sentence_keeps_is_not_reversed() -> None:
    # Pyramid's docs say it both ways, of two ACLs in the other order
    allow = (
        "The ACL helper will allow everyone the view permission, even though later in the "
        "ACL you have an ACE that denies everyone the view permission."
    )
    deny = (
        "The ACL helper will deny everyone the view permission, even though later in the "
        "ACL, there is an ACE that allows everyone."
    )
    assert relation_reversed(deny, allow) == ("deny", "allows")
    assert relation_reversed(deny, allow, [allow, deny]) is None
    verdict = LexicalVerifier().verify_now([Check(deny, (f"{allow} On the other hand: {deny}",))])
    assert verdict[0].supported


def test_a_reversed_relation_is_read_in_bounded_time() -> None:
    words = " ".join(f"word{i}" for i in range(20_000))
    started = time.perf_counter()
    # a list reversed: only "and" and "or" join its items
    assert relation_reversed(words, " and ".join(reversed(words.split()))) is None
    relation_reversed(f"{words} is in {words}", f"{words} holds {words}")
    assert time.perf_counter() - started < 5


WEBSOCKETS = (
    "If you call `websocket.close()` before calling `websocket.accept()` then the server "
    "will automatically send a HTTP 403 error to the client."
)


@pytest.mark.parametrize(
    ("claim", "source", "found"),
    [
        # the same word with its sides crossed (Starlette's docs, a written tuning claim)
        (
            "Calling websocket.accept() before websocket.close() makes the server send an "
            "HTTP 403 error to the client.",
            WEBSOCKETS,
            ("accept", "websocket"),
        ),
        (
            "Calling websocket.close() before websocket.accept() makes the server send an "
            "HTTP 403 error to the client.",
            WEBSOCKETS,
            None,
        ),
        # the converse word restates it
        (
            "Calling websocket.accept() after websocket.close() makes the server send an "
            "HTTP 403 error to the client.",
            WEBSOCKETS,
            None,
        ),
        # a side left empty relates nothing
        ("Before calling websocket.accept(), close it.", WEBSOCKETS, None),
    ],
)
def test_an_order_reversed_with_the_same_word_is_found(
    claim: str, source: str, found: tuple[str, str] | None
) -> None:
    assert order_reversed(claim, source) == found


@pytest.mark.parametrize(
    ("claim", "source", "found"),
    [
        (  # Starlette's docs
            "Middleware is evaluated from bottom to top, so HTTPSRedirectMiddleware runs first.",
            "Middleware is evaluated from top-to-bottom, so the flow of execution would look "
            "like this:",
            ("bottom", "top"),
        ),
        ("Levels run from 9 to 1.", "Levels run from 1 to 9.", ("9", "1")),
        # the same way round, hyphens or not
        ("It is evaluated top-to-bottom.", "It is evaluated from top to bottom.", None),
        # "to" with no "from" on either side: a mapping or a setting, not a span
        ("It maps requests to handlers.", "It maps handlers to requests.", None),
        # the source writes both ways
        (
            "Values go from low to high.",
            "Values go from high to low, then from low to high.",
            None,
        ),
    ],
)
def test_a_span_run_the_other_way_is_found(
    claim: str, source: str, found: tuple[str, str] | None
) -> None:
    assert span_reversed(claim, source) == found


def test_the_lexical_verifier_rejects_a_reversed_preference() -> None:
    claim = (
        "When structlog and a StreamHandler share a file, you need PrintLogger instead of "
        "WriteLogger."
    )
    verdict = LexicalVerifier().verify_now([Check(claim, (STREAMS,))])[0]
    assert verdict.label != "supported"
    assert "the source pairs 'printlogger' and 'writelogger' the other way round" in verdict.reasons


def test_a_preference_repeated_thousands_of_times_is_read_in_linear_time() -> None:
    started = time.perf_counter()
    preferred_reversed("x instead of y " * 20_000, "y overrides x " * 20_000)
    order_reversed("x before y " * 20_000, "y before x " * 20_000)
    span_reversed("from x to y " * 20_000, "from y to x " * 20_000)
    assert time.perf_counter() - started < 5  # every pair of phrases was compared: minutes


GETCWD = (
    "Prefer patching the reference that your code uses instead of patching the original "
    "object in the standard library. For example, if your module does ``from os import "
    "getcwd``, patch ``mymodule.getcwd`` rather than ``os.getcwd``."
)


def test_the_code_a_source_prefers_other_code_to_is_not_what_to_choose() -> None:
    chose = "To fake the current directory, you should patch `os.getcwd`."
    assert rejected_chosen(chose, GETCWD) == ("os.getcwd", "mymodule.getcwd")
    assert rejected_chosen("You should patch os.getcwd() in the test.", GETCWD)
    # the preferred code, both, or the rejected one declined: no choice against the source
    assert rejected_chosen("You should patch `mymodule.getcwd`.", GETCWD) is None
    both = "Patch `mymodule.getcwd`, which your module uses, and `os.getcwd` stays."
    assert rejected_chosen(both, GETCWD) is None
    assert rejected_chosen("You should not patch `os.getcwd`.", GETCWD) is None
    assert rejected_chosen("You shouldn't patch `os.getcwd` then.", GETCWD) is None
    assert rejected_chosen("Patching `os.getcwd` won't work.", GETCWD) is None
    # a source describing what happens under a condition prefers nothing
    leaks = "The connection leaks if you call ``session.close`` rather than ``session.aclose``."
    assert rejected_chosen("In async code, call `session.aclose`.", leaks) is None
    verdict = LexicalVerifier().verify_now([Check(chose, (GETCWD,))])[0]
    assert verdict.label != "supported"
    assert (
        "the source says 'mymodule.getcwd rather than os.getcwd', not 'os.getcwd'"
        in verdict.reasons
    )


def test_a_run_of_backticks_is_read_once_for_a_preference() -> None:
    started = time.perf_counter()
    rejected_chosen("patch `os.getcwd`", "``a`` " * 20_000 + "`" * 50_000)
    rejected_chosen("Use `b` for files.", "Use ``a``" + " " * 20_000 + "``b`` for files.")
    rejected_chosen("Use `b`.", "Use ``a``" + " " * 30 + "," + " " * 9 + "``b``.")
    assert time.perf_counter() - started < 5


_MERGED = (
    "A field's default_error_messages dictionary gets merged with its parent classes' "
    "default_error_messages dictionaries."
)


@pytest.mark.parametrize(
    ("claim", "source", "found"),
    [
        (
            "A field's default_error_messages replaces rather than merges with its parent "
            "classes' dictionaries.",
            _MERGED,
            ("replaces", "merges"),
        ),
        (
            "A field's default_error_messages is merged with its parent classes' dictionaries "
            "rather than replacing them.",
            _MERGED,
            None,
        ),
        (  # the source writes both: either may be meant
            "A field's default_error_messages replaces rather than merges with its parent "
            "classes' dictionaries.",
            _MERGED + " A subclass replaces what it redefines.",
            None,
        ),
        (
            "A field's default_error_messages replaces rather than merges with its parent "
            "classes' dictionaries.",
            "A field's default_error_messages dictionary is not merged with its parent "
            "classes' dictionaries.",
            None,
        ),
    ],
)
def test_a_claim_rejecting_what_its_source_states(
    claim: str, source: str, found: tuple[str, str] | None
) -> None:
    verdict = LexicalVerifier().verify_now([Check(claim, (source,))])[0]
    if found is None:
        assert not any("merges" in reason for reason in verdict.reasons), verdict.reasons
        return
    assert rejected_stated(claim, [source], [source]) == found
    assert not verdict.supported
    assert "the source says 'merges', not 'replaces'" in verdict.reasons, verdict.reasons


def test_a_preference_is_read_in_linear_time() -> None:
    claim = " ".join(["alpha rather than beta"] * 5000)
    started = time.perf_counter()
    assert rejected_stated(claim, ["gamma beta delta"] * 50, ["gamma beta delta"]) == (
        "alpha",
        "beta",
    )
    assert time.perf_counter() - started < 5
