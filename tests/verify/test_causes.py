"""Links of cause and effect: a claim's "because" is checked, not only the facts it joins."""

from __future__ import annotations

from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.verify import LexicalVerifier
from citesynth.verify.base import Check, Passage, check_of, unwrapped
from citesynth.verify.causes import (
    Link,
    LinksChecked,
    link_of,
    reversed_link,
    unstated_link,
    with_antecedents,
)
from citesynth.verify.claims import plain, split_claims
from citesynth.verify.cues import sides_of, states_reason
from citesynth.verify.trim import apply, leading_parts, trims
from tests.conftest import answered, use

GZIP = (
    "## GZipMiddleware\n\n"
    "The following arguments are supported:\n\n"
    "* `minimum_size` - Do not GZip responses that are smaller than this minimum size in "
    "bytes. Defaults to `500`.\n"
    "* `compresslevel` - Used during GZip compression. It is an integer ranging from 1 to 9. "
    "Defaults to `9`. Lower value results in faster compression but larger file sizes, while "
    "higher value results in slower compression but smaller file sizes."
)
THREADS = (
    "## Concurrency Limitations\n\n"
    "The default thread pool size is only 40 _tokens_. This means that only 40 threads can "
    "run at the same time.\nThis limit is shared with other libraries."
)
HTTP2 = (
    "When using the `httpx` client, HTTP/2 support is not enabled by default, because\n"
    "HTTP/1.1 is a mature, battle-hardened transport layer."
)
ATTRS = (
    "It's meant to be a kit for building classes that you would write yourself - but with "
    "less boilerplate. The package ships no C extension; it is pure Python.\n\n"
    "If you look for serialization, have a look at our sibling project cattrs or our "
    "third-party extensions."
)


@pytest.mark.parametrize(
    ("claim", "link"),
    [
        (
            "GZipMiddleware defaults to compresslevel 9 because it is an integer [1].",
            Link("GZipMiddleware defaults to compresslevel 9", "it is an integer", " because "),
        ),
        (
            "Bakir was awarded the prize due to his success.",
            Link("Bakir was awarded the prize", "his success", " due to "),
        ),
        (
            "Because HTTP/1.1 is mature, HTTP/2 is off by default.",
            Link("HTTP/2 is off by default", "HTTP/1.1 is mature", "Because "),
        ),
        (  # the consequence comes second: the first side is the cause
            "The pool size is 40 tokens, which means that only 40 threads run at once.",
            Link("The pool size is 40 tokens", "only 40 threads run at once", "", True),
        ),
        (
            "The default is `None`, so the cookie lasts as long as the browser session.",
            Link(
                "The default is `None`", "the cookie lasts as long as the browser session", "", True
            ),
        ),
        (  # pointing back: the other side is the sentence before
            "This is because Click treats `--` as a separator.",
            Link("", "Click treats `--` as a separator", "This is because "),
        ),
        (  # only the clause the link explains: what comes before its comma is not the effect
            "As the docs put it, HTTP/2 support is not enabled by default because HTTP/1.1 is "
            "mature.",
            Link("HTTP/2 support is not enabled by default", "HTTP/1.1 is mature", " because "),
        ),
        (  # "That's why Y" gives the effect of the sentence before: its cause is that one
            "That's why it ships with test helpers.",
            Link("", "it ships with test helpers", "", True),
        ),
        (
            "_msgspec_ passes them through, since _msgspec_ can handle them faster.",
            Link("_msgspec_ passes them through", "_msgspec_ can handle them faster", ""),
        ),
        (  # a clause joined to the one before, opening with its cause: the last two facts
            "LocalStack wraps a list, and because lists are mutable, it must do extra work.",
            Link("it must do extra work", "lists are mutable", "because "),
        ),
        (  # a phrase saying where it holds, then the cause: the phrase is no effect
            "Specifically for EKS, because the pull-secret is not managed globally, you must "
            "add it to your namespace.",
            Link(
                "you must add it to your namespace",
                "the pull-secret is not managed globally",
                "because ",
            ),
        ),
    ],
)
def test_the_link_a_claim_makes(claim: str, link: Link) -> None:
    found = link_of(claim)
    assert found is not None
    assert (found.first, found.second, found.cause_first) == (
        link.first,
        link.second,
        link.cause_first,
    )
    if link.cue:
        assert found.cue == link.cue


@pytest.mark.parametrize(
    "claim",
    [
        "Since its acquisition by Dignity Health, the firm has acquired dozens of centers.",
        "The museum has had half a million visitors since its opening.",
        "He was due to be term-limited out of the Senate in 2016.",
        "Therefore, the answer is Douglas Fairbanks Jr.",  # what the writer infers
        "As a result, he built the house in his daughter's memory.",
        "Idle connections are kept open so that they can be reused.",  # a purpose
        "To define a command so that the coroutine gets awaited, use `asyncio.run`.",
        "Set `reason=because` in the config.",  # cue words inside code
        "Why was he arrested because of his association? The Desert Fox.",  # asked, not said
        "The pool holds 10 connections.",
        'The log reads "failed because of a timeout" then.',  # quoted
        "Call `GET /items?limit=10, so the page is short` first.",  # code, with a "?"
        "The cache is so fast, so small and so cheap.",  # degree
        "The server has been stable, since it was rewritten in Rust.",  # time
        "The handler returns the value that results in an error.",  # a relative clause
        "It is, so to speak, a pool.",
    ],
)
def test_no_link_of_cause_and_effect(claim: str) -> None:
    assert link_of(claim) is None


def test_two_facts_of_the_source_joined_by_a_link_it_never_states() -> None:
    claim = (
        "GZipMiddleware defaults to compresslevel 9 because it is an integer ranging from 1 to 9."
    )
    link = unstated_link(claim, [GZIP], "Starlette Middleware GZipMiddleware")
    assert link is not None
    assert link.describe() == (
        "GZipMiddleware defaults to compresslevel 9 because it is an integer ranging from 1 to 9"
    )


def test_a_reason_of_the_source_given_for_what_the_question_presumed() -> None:
    claim = "attrs ships a C extension because it is meant to be a kit for building classes."
    assert unstated_link(claim, [ATTRS], "attrs Overview") is not None


@pytest.mark.parametrize(
    ("claim", "passage", "about"),
    [
        # one sentence with a cue word holds both sides
        ("HTTP/2 is not enabled by default because HTTP/1.1 is a mature transport.", HTTP2, ""),
        # two sentences side by side, the second opening with a pointing cue
        (
            "The default thread pool size is only 40 tokens, which means that only 40 threads "
            "can run at the same time.",
            THREADS,
            "",
        ),
        (
            "This means that only 40 threads can run at the same time.",
            THREADS,
            "",
        ),
        # the link stated in other cue words
        (
            "Bakir won the Young Entrepreneur of the Year award due to his success with HomeCorp.",
            "His success with HomeCorp led to the Young Entrepreneur of the Year award for Bakir.",
            "",
        ),
        # under a heading asking why, the section answers it
        (
            "Middleware runs outside the router because it must see every request.",
            "Middleware runs outside the router. It must see every request.",
            "Why is middleware outside the router?",
        ),
        # a reason the sources lack is for the other checks to weigh, not a link's
        (
            "The prize went to Bakir due to his success with HomeCorp.",
            "The prize went to Bakir in 2013.",
            "",
        ),
    ],
)
def test_a_link_the_sources_state(claim: str, passage: str, about: str) -> None:
    assert unstated_link(claim, [passage], about) is None


def test_the_word_reason_names_the_link_not_a_fact() -> None:
    # pip's caching page; the effect's other words are the question's
    asked = "Pip still installs the pure-Python version of my package. Why does it keep doing that?"
    claim = (
        "The reason pip keeps installing the pure-Python version is because it is seeing a "
        "cached wheel that matches the package being built."
    )
    passage = (
        "Pip will use that cached wheel even when a compiler is there. This is because pip is "
        "seeing a cached wheel that matches the package being built."
    )
    assert unstated_link(claim, [passage], "Caching", asked) is None


BUILD = (
    "pip builds a package in an isolated environment by default. This is because pip is "
    "using an isolated environment, which means it installs build dependencies in a "
    "temporary directory."
)
CACHED = (
    "Pip will use that cached wheel even when a compiler is there. This is because pip is "
    "seeing a cached wheel that matches the package being built."
)


def test_a_claim_pointing_back_is_read_with_the_claim_it_points_back_to() -> None:
    asked = "Why does pip keep installing the pure Python wheel?"
    pointing = "This is because pip is using an isolated environment."
    before = "Pip keeps installing the pure Python wheel from its cache."
    # read alone, its link is any sentence the source points back with
    assert unstated_link(pointing, [BUILD], asked=asked) is None
    assert unstated_link(pointing, [BUILD], asked=asked, antecedent=before) is not None
    cached = "This is because pip is seeing a cached wheel."
    assert unstated_link(cached, [CACHED], asked=asked, antecedent=before) is None
    answer = f"{before} [1] {pointing} [2]\n\nThis means nothing here. [2]"
    claims = with_antecedents(answer, split_claims(answer))
    assert [c.antecedent for c in claims] == ["", before, ""]
    # a heading, a list item's mark or a blank line (with "\r") between: no antecedent
    for gap in ("\n## Why\n", "\n- ", "\r\n\r\n"):
        answer = f"{before} [1]{gap}{pointing} [2]"
        assert [c.antecedent for c in with_antecedents(answer, split_claims(answer))] == ["", ""]


TWISTED = (
    "It behaves exactly like the generic {class}`structlog.BoundLogger` except:\n\n"
    "- it's slightly faster due to less overhead,\n"
    "- has an explicit API ({func}`structlog.twisted.BoundLogger.msg`),\n"
    "- hence causing less cryptic error messages if you get method names wrong.\n"
)


def test_a_sentence_run_over_list_items_states_its_link_across_them() -> None:
    # structlog's docs; the extractive writer quotes the run whole
    claim = (
        "It behaves exactly like the generic `structlog.BoundLogger` except: it's slightly "
        "faster due to less overhead, has an explicit API (`structlog.twisted.BoundLogger.msg`)"
        ", hence causing less cryptic error messages if you get method names wrong."
    )
    assert unstated_link(claim, [TWISTED]) is None


def test_two_facts_of_one_sentence_with_no_cue_are_no_link() -> None:
    source = "Starlette supports WebSockets, GraphQL and HTTP/2."
    assert unstated_link("Starlette supports WebSockets because it supports HTTP/2.", [source])


def test_a_pointing_reason_the_source_never_gives_as_one() -> None:
    source = "Click treats `--` as a separator. Options come before arguments."
    claim = "This is because Click treats `--` as a separator."
    assert unstated_link(claim, [source]) is not None
    given = "Options end at `--`. This is because Click treats `--` as a separator."
    assert unstated_link(claim, [given]) is None


def test_cue_words_of_a_reason() -> None:
    assert states_reason("It is off by default, because HTTP/1.1 is mature [1].")
    assert states_reason("Since `sys.exc_clear` has been dropped, we do it ourselves.")
    assert not states_reason("Since version 3.0 it is on.")
    assert not states_reason("Defaults to `9`.")


async def test_a_why_answer_is_held_to_its_link_and_says_why() -> None:
    claim = (
        "GZipMiddleware defaults to compresslevel 9 because it is an integer ranging from 1 to 9."
    )
    lexical = LexicalVerifier()
    [alone] = await lexical.verify([Check(claim, (GZIP,), "GZipMiddleware")])
    assert alone.supported  # both facts are the source's: the link is what is wrong
    [held] = await LinksChecked(lexical, every=True).verify(
        [Check(claim, (GZIP,), "GZipMiddleware")]
    )
    assert held.label == "partial"
    assert held.reasons[-1].startswith("no cited source states the link it makes")
    [fact] = await LinksChecked(lexical, every=True).verify(
        [Check("GZipMiddleware defaults to compresslevel 9.", (GZIP,), "GZipMiddleware")]
    )
    assert fact.supported


async def test_other_answers_are_held_only_to_a_claim_pointing_back() -> None:
    checker = LinksChecked(LexicalVerifier(), every=False)
    inside = (
        "GZipMiddleware defaults to compresslevel 9 because it is an integer ranging from 1 to 9."
    )
    source = "Click treats `--` as a separator. Options come before arguments."
    pointing = "This is because Click treats `--` as a separator."
    verdicts = await checker.verify(
        [Check(inside, (GZIP,), "GZipMiddleware"), Check(pointing, (source,))]
    )
    assert [v.label for v in verdicts] == ["supported", "partial"]
    assert LinksChecked(checker, every=True).name == "lexical"
    assert unwrapped(LinksChecked(checker, every=True)) is checker.wrapped


async def test_trimming_keeps_the_fact_and_drops_the_link() -> None:
    answer = (
        "GZipMiddleware defaults to compresslevel 9 because it is an integer ranging from "
        "1 to 9 [1]."
    )
    passages = [Passage(1, GZIP, "middleware.md", about="Starlette Middleware GZipMiddleware")]
    checker = LinksChecked(LexicalVerifier(), every=True)
    [verdict] = await checker.verify([check_of(plain(answer), passages)])
    assert verdict.label == "partial"
    cuts = await trims(answer, split_claims(answer), passages, checker)
    assert apply(answer, cuts) == "GZipMiddleware defaults to compresslevel 9 [1]."


ASGI = (
    "Because ASGI is designed to handle concurrent requests, any connection-specific state "
    "should be scoped to the `__call__` implementation. Not doing so would typically lead to "
    "conflicting variable reads/writes across requests, and most likely bugs."
)


def test_which_side_of_a_cue_word_is_the_cause() -> None:
    cause, effect = sides_of(ASGI.split(". ")[0]) or (frozenset(), frozenset())
    assert {"asgi", "concurr"} <= cause and {"state", "scope"} <= effect
    cause, effect = sides_of("The pool is full, so new requests wait [1].") or (frozenset(),) * 2
    assert "pool" in cause and "wait" in effect
    cause, effect = sides_of("Requests wait because the pool is full.") or (frozenset(),) * 2
    assert "pool" in cause and "wait" in effect
    assert sides_of("Defaults to `9`.") is None
    assert sides_of("Use it to avoid blocking the event loop.") is None  # a purpose: no way


async def test_a_link_the_source_states_the_other_way_round() -> None:
    right = (
        "Connection-specific state should be scoped to the `__call__` implementation because "
        "ASGI is designed to handle concurrent requests."
    )
    assert unstated_link(right, [ASGI]) is None
    turned = (
        "ASGI is designed to handle concurrent requests because connection-specific state "
        "should be scoped to the `__call__` implementation."
    )
    link = unstated_link(turned, [ASGI])
    assert link is not None and link.reversed
    [verdict] = await LinksChecked(LexicalVerifier(), every=True).verify([Check(turned, (ASGI,))])
    assert verdict.label != "supported"
    assert any(r.endswith("not the reverse") for r in verdict.reasons)  # the verifier's own


@pytest.mark.parametrize(
    ("sentence", "alike"),
    [
        (  # an admonition's label is no effect of the cause after it
            ".. note::\n   Because the store has limited support for altering tables, "
            "constraints cannot be added to a table later.",
            True,
        ),
        (  # a cause opening a joined clause, after code
            "Daylight time is applied to ``format_time``, but because the date is unknown "
            "there, the current day is assumed.",
            True,
        ),
        (  # "; this is why" gives the effect: the first side is the cause
            "Parameters are meant to be passed around as function arguments; this is why "
            "they exist.",
            True,
        ),
        (  # two cue words: the two readings may differ, and then nothing is vetoed
            "A small typo caused the worker to hang when gevent was used, this was because "
            "the environment wasn't patched early enough.",
            False,
        ),
    ],
)
def test_a_sentence_read_against_itself_never_states_its_link_the_other_way_round(
    sentence: str, alike: bool
) -> None:
    assert reversed_link(sentence, [sentence]) is None
    link = unstated_link(sentence, [sentence])
    assert link is None or not link.reversed or not alike


async def test_the_verifier_alone_rejects_a_link_its_source_states_the_other_way_round() -> None:
    source = (
        "Because lists and dicts are mutable, `LocalStack` and `Local` need to do extra work "
        "to ensure data isn't shared between nested contexts."
    )
    turned = (
        "Because LocalStack and Local do extra work to keep data apart between nested "
        "contexts, the lists and dicts they wrap become mutable."
    )
    right = (
        "LocalStack and Local need to do extra work so that data is not shared between nested "
        "contexts, because lists and dicts are mutable."
    )
    wrong, kept = await LexicalVerifier().verify(
        [Check(turned, (source,)), Check(right, (source,))]
    )
    assert wrong.label != "supported"
    assert (
        "the source gives 'the lists and dicts they wrap become mutable' as the cause of "
        "'LocalStack and Local do extra work to keep data apart between nested contexts', "
        "not the reverse"
    ) in wrong.reasons
    assert kept.label == "supported"


async def test_a_why_answer_keeps_the_fact_and_lists_the_link_no_source_states(
    engine: Engine, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    written = (
        "GZipMiddleware defaults to compresslevel 9 because it is an integer ranging from "
        "1 to 9 [1]."
    )
    why = await answered(
        engine, folder, GZIP, written, "Why does GZipMiddleware default to compresslevel 9?"
    )
    assert why.answer == "GZipMiddleware defaults to compresslevel 9 [1]."
    [removed] = why.removed_claims
    assert removed.text == plain(written)
    assert any("no cited source states the link it makes" in r for r in removed.reasons)
    # Not asked why, the link is not what was asked: the claim is checked as before.
    use(engine, written)
    what = await engine.answer(
        "What is GZipMiddleware's default compresslevel?", not_found_below=0.0, answerability=False
    )
    assert what.answer == written and not what.removed_claims


@pytest.mark.parametrize(
    "answer",
    [
        # a link set in commas inside its sentence: the part before it is no sentence
        "The Uvicorn default server, because it is written with uvloop, handles many requests [1].",
        "The payment for each request is due to the landlord [1].",
        "Caching is used in production only because it is cheap [1].",
        # a negated part may deny the link, not the fact
        "It is not disabled by default because it is slow [1].",
    ],
)
async def test_trimming_never_cuts_a_link_that_the_part_needs(answer: str) -> None:
    passages = [Passage(1, "The server is fast.", "a.md")]
    assert leading_parts(answer) == []
    assert await trims(answer, split_claims(answer), passages, LexicalVerifier()) == []


def test_long_hostile_claims_are_read_in_linear_time() -> None:
    spaces = "The pool" + " " * 50_000 + "because it is full."
    assert link_of(spaces) is not None  # whitespace folds: one link
    assert leading_parts("a" + " " * 50_000 + "because b") == []  # too long to trim
    assert link_of("a, " * 20_000 + "b because c d") is not None


def test_a_reason_in_the_next_paragraph_that_says_so() -> None:
    source = "HTTP/2 is off by default.\n\nThe reason is that HTTP/1.1 is a mature transport."
    claim = "HTTP/2 is off by default because HTTP/1.1 is a mature transport."
    assert unstated_link(claim, [source]) is None


def test_a_heading_or_question_asking_why_answers_under_it() -> None:
    source = "## Why is HTTP/2 off?\n\nHTTP/1.1 is mature. It is battle-hardened."
    claim = "HTTP/2 is off because HTTP/1.1 is mature."
    assert unstated_link(claim, [source]) is None
    bare = "HTTP/1.1 is mature. HTTP/2 is off."
    assert unstated_link(claim, [bare]) is not None
    assert unstated_link(claim, [bare], "Why is HTTP/2 off?") is None  # the heading path asks


def test_since_of_time_gives_no_direction() -> None:
    sides = sides_of("Since version 2, HTTP/2 is off by default because HTTP/1.1 is mature.")
    assert sides is not None and "matur" in sides[0] and "version" not in sides[0]
