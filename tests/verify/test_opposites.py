"""Opposite words: a claim saying what its source says of the same thing, turned round."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import Check, LexicalVerifier
from citesynth.verify.crossencoder import available
from citesynth.verify.negation import negates_word
from citesynth.verify.opposites import (
    contradicting_words,
    neighbours,
    opposed,
    reversed_order,
    sides,
)
from citesynth.verify.trained import TrainedVerifier


@pytest.fixture(scope="module")
def lexical() -> LexicalVerifier:
    return LexicalVerifier()


@pytest.mark.parametrize(
    ("claim", "source", "found"),
    [
        (
            "The name argument is optional.",
            "The name argument is required.",
            ("optional", "required"),
        ),
        (
            "HTTPX sends requests asynchronously by default.",
            "HTTPX sends requests synchronously by default.",
            ("asynchronously", "synchronously"),
        ),
        (
            "The value is unsupported on Windows.",
            "The value is supported on Windows.",
            ("unsupported", "supported"),
        ),
        (
            "The Thoen Stone is on display in North Dakota.",
            "It is on display at the Adams Museum in Deadwood, South Dakota.",
            ("north", "south"),
        ),
        (
            "Set the disabled field to true to turn the plugin off.",
            "```yaml\nplugins:\n  - package: ./plugin\n    disabled: false\n```",
            ("true", "false"),
        ),
        (
            "structlog only cares about the first processor's return value.",
            "structlog only cares about the return value of the last processor.",
            ("first", "last"),
        ),
        (
            "The state each request receives is a deep copy of the lifespan state.",
            "The state received on the requests is a shallow copy of the lifespan state.",
            ("deep", "shallow"),
        ),
        (  # Jinja's docs, written tuning claims
            "The loop variable always refers to the outermost loop.",
            "The `loop` variable always refers to the closest (innermost) loop.",
            ("outermost", "innermost"),
        ),
        (
            "With newstyle gettext, the translated string is marked unsafe.",
            "With newstyle gettext, the translated string is marked safe.",
            ("unsafe", "safe"),
        ),
        (  # Flask's docs, written tuning claims
            "Functions registered with teardown_appcontext run when the context is pushed.",
            "The application will call functions registered with teardown_appcontext when the "
            "application context is popped.",
            ("pushed", "popped"),
        ),
        (  # Jinja's docs, written tuning claims
            "Filters and tests are looked up in a shared namespace.",
            "Filters and tests are looked up in separate namespaces.",
            ("shared", "separate"),
        ),
        # a word's "in-" form, as English writes it before the word's letter
        (
            "Ambulatory monitoring is inaccurate at diagnosing hypertension.",
            "Ambulatory monitoring is accurate at diagnosing hypertension.",
            ("inaccurate", "accurate"),
        ),
        (
            "The header is relevant to caching proxies.",
            "The header is irrelevant to caching proxies.",
            ("relevant", "irrelevant"),
        ),
        (
            "The hash gives an imperfect ordering of the keys.",
            "The hash gives a perfect ordering of the keys.",
            ("imperfect", "perfect"),
        ),
        # documentation probes read on 2026-12-07 (pluggy, itsdangerous, Flask-WTF)
        (
            "This leads to a more tightly coupled relationship between host and plugins.",
            "This leads to a more loosely coupled relationship between host and plugins.",
            ("tightly", "loosely"),
        ),
        (
            "By default hooks are called in FIFO registered order.",
            "By default hooks are called in LIFO registered order.",
            ("fifo", "lifo"),
        ),
        (
            "The secret key should be a short random string of bytes.",
            "It should be a long random string of bytes.",
            ("short", "long"),
        ),
        (
            "The CSRF secret key is usually different from the Flask app secret key.",
            "You must have a secret key, this is usually the same as your Flask app secret key.",
            ("different", "same"),
        ),
        (
            "h11 tries to buffer as much data as it can before handing it over.",
            "h11 tries to buffer as little as it can, so it streams out data as it arrives.",
            ("much", "little"),
        ),
        (
            "Integers and floats yield the same cache keys.",
            "Integers and floats will yield distinct cache keys.",
            ("same", "distinct"),
        ),
        (
            "Install or downgrade the released version using pip.",
            "Install or upgrade the released version using pip.",
            ("downgrade", "upgrade"),
        ),
    ],
)
def test_the_opposite_word_in_the_stating_sentence_is_found(
    claim: str, source: str, found: tuple[str, str]
) -> None:
    assert opposed(claim, source) == found


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the claim holds both sides: which is which is no word-level matter
        (
            "The option has a long form, --verbose, and a short form, -v.",
            "The short form of the option is -v and the long form is --verbose.",
        ),
        (
            "Both tokens are signed with the same key but use different salts.",
            "Each token uses a different salt, while the same secret key signs both.",
        ),
        (
            "HTTPX offers a synchronous API, and an asynchronous client too.",
            "HTTPX offers a synchronous API by default, and an async client too.",
        ),
        # the source holds the claim's own word as well
        ("Both sync and async clients exist.", "There is a sync client and an async one."),
        # said of something else: "optional filter" is no contradiction of "mandatory fields"
        (
            "The users entry needs a dn and an optional filter under options.",
            "Enter the mandatory fields of the LDAP provider: target, bind, users.",
        ),
        # converse words are never listed: "A before B" is "B after A"
        ("Hooks run after the request is prepared.", "The request is prepared before hooks run."),
        # "in-" does not deny every word it opens: "interest" is no "terest" denied, and
        # "inform" none of "form"
        (
            "Users may inform the team of their interest.",
            "Users may form the team of their terest.",
        ),
        # "differentiated" against a sentence holding "differentiate": same stem, no "un-" pair
        (
            "Stem cells can give rise to differentiated progeny.",
            "Stem cells remain undifferentiated and may differentiate into all germ layers.",
        ),
    ],
)
def test_no_opposite_when_the_words_do_not_contradict(claim: str, source: str) -> None:
    assert opposed(claim, source) is None


def test_a_further_stating_sentence_with_the_claims_word_clears_it() -> None:
    claim = "The name argument is optional."
    assert opposed(claim, "The name argument is required.") is not None
    assert opposed(claim, "The name argument is required.", ["It is optional in v2."]) is None


def test_a_further_sentence_accounts_only_for_the_occurrence_it_states() -> None:
    """Werkzeug's debugger: "displayed at the top" states the claim's first "top" only."""
    claim = (
        "In the debugger, the error message is displayed at the top of the page, and "
        "clicking it jumps to the top of the traceback."
    )
    stating = "Clicking it jumps to the bottom of the traceback."
    assert opposed(claim, stating, ["The error message is displayed at the top."]) == (
        "top",
        "bottom",
    )
    assert opposed(claim, stating, ["Clicking it jumps to the top of the page."]) is None
    # the claim writes its word once: any sentence holding it keeps it
    once = "Extras like itsdangerous for SessionMiddleware are optional."
    required = "itsdangerous - Required for SessionMiddleware support."
    assert opposed(once, required, ["The following dependencies are optional:"]) is None
    assert opposed(once, required) == ("optional", "required")
    many = "The first item and the first row are kept. " * 5_000  # read in linear time
    assert opposed(many, "The last row is kept.", ["The first item is kept."] * 100) is None
    assert opposed(many, "The last one is here. " * 5_000, ["A first is."]) is None


@pytest.mark.parametrize(
    ("claim", "source", "found"),
    [
        # the same two things related the other way round
        (
            "Configure structlog only after creating the Flask instance.",
            "Generally speaking: configure structlog before instantiating Flask.",
            ("after", "before"),
        ),
        (
            "The required modifier must be placed before the scoped modifier.",
            "The required modifier must be placed after the scoped modifier.",
            ("before", "after"),
        ),
        # comparatives are converse too (Starlette's docs, a written tuning claim)
        (
            "For GZip compression, a higher compresslevel gives faster compression.",
            "Higher value results in slower compression but smaller file sizes.",
            ("faster", "slower"),
        ),
        ("A lower compresslevel is slower than a higher one.", "Higher is slower.", None),
        # the converse, restated: "A before B" is "B after A"
        (
            "Hooks run after the request is prepared.",
            "The request is prepared before hooks run.",
            None,
        ),
        # another sentence of the sources relates them as the claim does
        (
            "Hooks run after the request is prepared.",
            "Hooks run before the response is read, and after the request is prepared.",
            None,
        ),
        # each occurrence apart: the source relates the second as the claim does
        (
            "Validation runs after parsing, and logging runs after validation.",
            "Validation runs before parsing, and logging runs after validation.",
            ("after", "before"),
        ),
        (
            "Validation runs after parsing, and logging runs after validation.",
            "Parsing runs before validation, and logging runs after validation.",
            None,
        ),
        # what stands on either side is not the same
        (
            "Logging starts after the server has started.",
            "Read the settings before the first request.",
            None,
        ),
        # a list item's subject is its lead-in: nothing left of "faster", two terms right
        (
            "The cached loader is a little slower because of extra disk reads.",
            "- it's slightly faster because of fewer disk reads,",
            ("slower", "faster"),
        ),
        (
            "The cached loader is a little slower because of extra disk reads.",
            "- it's slightly faster than the plain loader,",
            None,
        ),
        # "once" opening a clause of time is "after"; "once a day" is no time's order
        (
            "The teardown runs before the background tasks have completed.",
            "The teardown will run once all the background tasks have completed.",
            ("before", "after"),
        ),
        (
            "The cleanup runs before the backup job.",
            "The cleanup runs once a day, after the backup job.",
            ("before", "after"),
        ),
        (
            "The cleanup runs before the nightly backup.",
            "The cleanup runs once a week with the nightly backup.",
            None,
        ),
        # the sources' own word relates it less closely than the converse does; an
        # identifier is one word
        (
            "A field's pre_load hooks run after its parsing and the allow_none check, "
            "while post_load hooks run after validation and parsing.",
            "pre_load hooks run before the field's parsing (and before allow_none is "
            "checked), while post_load hooks run after validation and parsing.",
            ("after", "before"),
        ),
        # more / less, and a grading word is not what a comparison relates
        (
            "Putting more logic into a template makes it easier to read.",
            "With less logic, a template is easier to read and faster to render.",
            ("more", "less"),
        ),
        (
            "Putting less logic into a template makes it easier to read.",
            "With less logic, a template is easier to read and faster to render.",
            None,
        ),
    ],
)
def test_converse_words_contradict_only_in_the_same_order(
    claim: str, source: str, found: tuple[str, str] | None
) -> None:
    assert reversed_order(claim, source) == found


@pytest.mark.parametrize(
    ("source", "claim", "reason"),
    [
        # a converse word, in the sentence after the anchor
        (
            "Since you call get_logger in module scope, it runs at import time before you "
            "had a chance to configure structlog. Therefore it returns a lazy proxy that "
            "returns a configured bound logger on its first call to a context method like "
            "bind().",
            "Since get_logger runs at import time after structlog is configured, it returns "
            "a lazy proxy that returns a configured bound logger on the first call to bind().",
            "the source says 'before', not 'after'",
        ),
        # a contradictory word, the claim's first half in the second sentence
        (
            "Access to attributes, method calls, operators and string formatting can be "
            "intercepted. The sandbox can be used to render untrusted templates.",
            "The sandbox is meant for rendering trusted templates, and it can intercept "
            "attribute access, method calls, operators and string formatting.",
            "the source says 'untrusted', not 'trusted'",
        ),
    ],
)
def test_a_further_stating_sentence_contradicting_the_claim_vetoes(
    lexical: LexicalVerifier, source: str, claim: str, reason: str
) -> None:
    verdict = lexical.verify_now([Check(claim, (source,))])[0]
    assert verdict.label != "supported"
    assert reason in verdict.reasons


def test_an_example_value_in_a_further_sentence_is_no_contradiction(
    lexical: LexicalVerifier,
) -> None:
    source = (
        "The disabled field, if set to true, disables the dynamic plugin. Example:\n\n"
        "```yaml\nplugins:\n  - package: ./dynamic-plugins/dist/github\n"
        "    disabled: false\n```"
    )
    claim = "Setting the disabled field of a dynamic plugin to true disables the plugin."
    verdict = lexical.verify_now([Check(claim, (source,))])[0]
    assert not any("the source says" in reason for reason in verdict.reasons)


def test_sides_skip_grading_words_and_a_contractions_part() -> None:
    """ "it's slightly faster": nothing stands left of "faster" but its grading."""
    assert sides("- it's slightly faster due to less overhead", "faster") == [
        (frozenset(), frozenset({"due", "less", "overhead"}))
    ]


def test_neighbours_skip_function_words() -> None:
    assert "inlin" in neighbours("Declare components inline if they are not reusable.", "reusable")
    assert neighbours("alpha beta gamma delta epsilon zeta", "alpha") == {"beta", "gamma"}


def test_the_lexical_verifier_rejects_an_opposite_and_says_why(lexical: LexicalVerifier) -> None:
    verdict = lexical.verify_now(
        [Check("The name argument is optional.", ("The name argument is required.",))]
    )[0]
    assert verdict.label != "supported"
    assert "the source says 'required', not 'optional'" in verdict.reasons


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Redirects are not enabled by default.", "Redirects are disabled by default."),
        (
            "Declare components inline if they are non-reusable.",
            "Declare components inline if they are not reusable.",
        ),
    ],
)
def test_a_negated_word_restating_its_opposite_agrees(
    lexical: LexicalVerifier, claim: str, source: str
) -> None:
    verdict = lexical.verify_now([Check(claim, (source,))])[0]
    assert verdict.label == "supported", verdict.reasons


def test_a_negation_bearing_on_another_word_restates_nothing(lexical: LexicalVerifier) -> None:
    """The claim's "not" bears on "reuse", so "disabled" still says the opposite."""
    claim = "Since the cache is disabled by default, a second request does not reuse it."
    source = "The cache is enabled by default, so a second request reuses the stored body."
    verdict = lexical.verify_now([Check(claim, (source,))])[0]
    assert verdict.label != "supported"
    assert "the source says 'enabled', not 'disabled'" in verdict.reasons
    assert negates_word("Redirects are not enabled by default.", "enabled")
    assert not negates_word(claim, "disabled")


def test_both_negated_with_opposite_words_still_disagree(lexical: LexicalVerifier) -> None:
    verdict = lexical.verify_now(
        [Check("Redirects cannot be disabled.", ("Redirects cannot be enabled.",))]
    )[0]
    assert verdict.label != "supported"


@pytest.mark.skipif(not available(), reason="the trained verifier needs citesynth[embed]")
async def test_the_trained_verifier_is_vetoed_by_an_opposite_word() -> None:
    trained = TrainedVerifier.load()
    source = (
        "Click arguments are required by default. The name argument is required, and its "
        "value is passed to the command function."
    )
    right, turned = await trained.verify(
        [
            Check("The name argument is required.", (source,)),
            Check("The name argument is optional.", (source,)),
        ]
    )
    assert right.supported
    assert not turned.supported
    assert "the source says 'required', not 'optional'" in turned.reasons


_RELOADER = (
    "The reloader has two backends, stat and watchdog, and stat is the default. "
    "The stat backend checks the mtime of every file at a regular interval. "
    "Passing 'watchdog' forces the event-based watchdog backend, which is used when it is "
    "installed. Watchdog is much faster than stat."
)
"""Three sentences stating most of a two-fact claim, and a short one stating its comparison."""


@pytest.mark.parametrize(
    ("comparison", "supported"),
    [
        ("which is much slower than stat", False),
        ("which is much faster than stat", True),
        ("which stat is much slower than", True),
    ],
)
def test_a_contradiction_outside_the_stating_sentences_is_read(
    lexical: LexicalVerifier, comparison: str, supported: bool
) -> None:
    claim = (
        "The reloader has two backends: the default stat, which checks file mtimes, and the "
        f"event-based watchdog, {comparison} and is used when installed."
    )
    verdict = lexical.verify_now([Check(claim, (_RELOADER,))])[0]
    assert verdict.supported is supported, verdict.reasons
    if not supported:
        assert "the source says 'faster', not 'slower'" in verdict.reasons


def test_contradicting_words_are_what_could_contradict_the_claim() -> None:
    assert contradicting_words("The name argument is optional.") >= {"required", "mandatory"}
    assert "slower" in contradicting_words("Watchdog is faster than stat.")
    assert contradicting_words("Watchdog is faster or slower than stat.") == frozenset()
    assert contradicting_words("The reloader polls files.") == frozenset()


def test_a_page_of_contradicting_sentences_is_read_in_bounded_time(
    lexical: LexicalVerifier,
) -> None:
    page = " ".join(
        f"Item {i} is disabled before the run, and slower than the step {i}." for i in range(3000)
    )
    started = time.perf_counter()
    verdict = lexical.verify_now([Check("Item 3 is enabled after the run.", (page,))])[0]
    assert not verdict.supported
    assert time.perf_counter() - started < 20


def test_a_clause_of_many_negations_is_read_in_linear_time() -> None:
    """Each negation reads only the words it may bear on, not the rest of its clause."""
    clause = "It is " + "not " * 20_000 + "enabled"
    started = time.perf_counter()
    assert negates_word(clause, "enabled")
    assert not negates_word(clause.replace("enabled", "on, enabled"), "enabled")
    assert time.perf_counter() - started < 10
