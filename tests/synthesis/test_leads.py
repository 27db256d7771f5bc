"""Attribution wrappings ("According to [2], …") become the citation they already are."""

from __future__ import annotations

from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.synthesis.leads import opening_links, plain_attributions, single_consensus
from tests.conftest import answered


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        (
            "According to [2], the pool holds ten connections.",
            "The pool holds ten connections [2].",
        ),
        (
            "The text in source [1] states that retries back off exponentially.",
            "Retries back off exponentially [1].",
        ),
        (
            "Ashes come from palm branches blessed the year before, as stated in [1].",
            "Ashes come from palm branches blessed the year before [1].",
        ),
        (
            "It was approved by 59.61% of voters in 2009, according to sources [1] and [2].",
            "It was approved by 59.61% of voters in 2009 [1,2].",
        ),
        # the wrapping's citation joins the one the sentence already ends with
        (
            "Source [3] also mentions that retries back off exponentially [4].",
            "Retries back off exponentially [3,4].",
        ),
        ("The pool size is 10 (as noted in [4]).", "The pool size is 10 [4]."),
        ("According to the documentation [2], the limit is 10 MB.", "The limit is 10 MB [2]."),
        # a file named beside the marker that is the subject, and a quotation reported
        (
            "Routing.md [3] also mentions that Starlette counts the body bytes received.",
            "Starlette counts the body bytes received [3].",
        ),
        (
            'Middleware.md [1] states: "The middleware counts the body bytes it receives. "',
            "The middleware counts the body bytes it receives [1].",
        ),
        # a pointer to where it is stated, then what is stated there
        (
            "This can be verified [1], which states that the HttpOnly flag is set on it.",
            "The HttpOnly flag is set on it [1].",
        ),
        # an identifier keeps its case
        (
            "According to [1], `httpx.get` sends a GET request.",
            "`httpx.get` sends a GET request [1].",
        ),
        # the file the model names beside the marker goes with the wrapping
        (
            "The default number of idle keep-alive connections is 20, as stated in "
            "advanced/resource-limits.md [1].",
            "The default number of idle keep-alive connections is 20 [1].",
        ),
        (
            "According to the `quickstart.rst` file [3], click.echo prints a line.",
            "click.echo prints a line [3].",
        ),
        (
            "The timeout is five seconds [1]. According to [2], it can be set per request.",
            "The timeout is five seconds [1]. It can be set per request [2].",
        ),
    ],
)
def test_the_wrapping_becomes_a_citation(text: str, plain: str) -> None:
    assert plain_attributions(text) == (plain, 1)


@pytest.mark.parametrize(
    "text",
    [
        "See [3].",  # a pointer, dropped elsewhere
        "According to [2].",  # nothing left to state
        "According to the maintainers, the pool holds ten connections [1].",  # names no marker
        "The pool holds ten connections [1].",
        # words that end in a lead's letters are no lead: "wrapper" is not "per [2]"
        "It wraps the file in a special wrapper [2].",
        "Ask the developer [1].",
        "The team has documented in [1] that it works.",
        "Limits live in advanced/resource-limits.md [1].",  # the file is what is stated
        "According to advanced/resource-limits.md, the pool holds 10 [1].",  # no marker there
    ],
)
def test_other_sentences_are_left_alone(text: str) -> None:
    assert plain_attributions(text) == (text, 0)


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        # a hedge is not a report: the sentence keeps it, with a subject a claim can hold
        ("[1] suggests that the drug may help.", "The source suggests that the drug may help [1]."),
        # what follows the verb states nothing alone (HTTPX h04 had read " provides an …")
        (
            "It is off [1]. [5] provides an example where redirects are enabled explicitly.",
            "It is off [1]. The source provides an example where redirects are enabled "
            "explicitly [5].",
        ),
        ("[2] lists the options [2].", "The source lists the options [2]."),
        # several markers: the verb agrees with them
        ("[1,3] gives two examples.", "The sources give two examples [1,3]."),
        ("[1] and [3] specifies it.", "The sources specify it [1,3]."),
        # a report too short to stand as a claim of its own
        ("[2] explains it.", "The source explains it [2]."),
        # plural markers report as one does
        ("[1] and [2] state that the pool holds ten.", "The pool holds ten [1,2]."),
        ("[1] also adds that retries back off.", "Retries back off [1]."),
    ],
)
def test_a_marker_as_subject_keeps_a_subject(text: str, plain: str) -> None:
    assert plain_attributions(text) == (plain, 1)


DOCUMENTS = {1: "limits.md", 2: "limits.md", 3: "clients.md"}


@pytest.mark.parametrize(
    ("text", "plain", "changed"),
    [
        # one cited document cannot be "multiple sources"
        (
            "Multiple sources report that the pool holds ten connections [3].",
            "The pool holds ten connections [3].",
            1,
        ),
        # two chunks of one document are still one source
        (
            "The timeout is 5 s [3]. Several sources say: Retries back off [1,2].",
            "The timeout is 5 s [3]. Retries back off [1,2].",
            1,
        ),
        # asked what the sources say, the embedded model goes on "The sources also mention"
        (
            "The sources also mention that pools hold ten connections [3].",
            "Pools hold ten connections [3].",
            1,
        ),
        # two documents: whether they agree is for verification to say
        (
            "Multiple sources report that the pool holds ten connections [1,3].",
            "Multiple sources report that the pool holds ten connections [1,3].",
            0,
        ),
        # or follow an opening clause
        (
            "When it is full, multiple sources report that it blocks new requests [3].",
            "When it is full, it blocks new requests [3].",
            1,
        ),
        # the phrase must open the sentence and report something
        (
            "The sources agree on the timeout [3].",
            "The sources agree on the timeout [3].",
            0,
        ),
    ],
)
def test_consensus_needs_two_documents(text: str, plain: str, changed: int) -> None:
    assert single_consensus(text, DOCUMENTS) == (plain, changed)


async def test_an_answer_citing_one_document_never_says_multiple_sources(
    engine: Engine, tmp_path: Path
) -> None:
    source = "# Limits\n\nThe default pool size is 10 connections.\n"
    reply = "Multiple sources report that the default pool size is 10 connections [1]."
    answer = await answered(engine, tmp_path / "d", source, reply, "What is the pool size?")
    assert answer.answer.startswith("The default pool size is 10 connections [1]")
    assert "cited one document" in " ".join(answer.warnings)


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        # verification removed the sentence it went on from
        (
            "Therefore, you can't set this option if you pass loggers around [1].",
            "You can't set this option if you pass loggers around [1].",
        ),
        (
            "However, it is important to note that you must never call `bind()` at module "
            "level [4].",
            "You must never call `bind()` at module level [4].",
        ),
        # an example of nothing said (Starlette s04, its answering sentence removed)
        (
            "For example, to get the `search` parameter, use `request.query_params` [1].",
            "To get the `search` parameter, use `request.query_params` [1].",
        ),
        # the first sentence under a heading of the answer links to nothing either
        (
            "It holds ten [1].\n\n**Timeouts**\nAlso, requests time out after five seconds [2].",
            "It holds ten [1].\n\n**Timeouts**\nRequests time out after five seconds [2].",
        ),
    ],
)
def test_a_linking_word_on_a_sentence_nothing_comes_before_goes(text: str, plain: str) -> None:
    assert opening_links(text) == (plain, 1)


@pytest.mark.parametrize(
    "text",
    [
        "The pool holds ten [1]. However, it blocks when full [2].",  # it links to one
        "The pool holds ten [1]. For example, two clients share it [2].",
        "So, yes [1].",  # nothing would be left to state
        "Thus far, nothing has failed [1].",  # no linking word
        "```\nHowever, code stays.\n```",
    ],
)
def test_a_linking_word_after_a_sentence_stays(text: str) -> None:
    assert opening_links(text) == (text, 0)


async def test_a_linking_word_goes_once_what_it_went_on_from_is_removed(
    engine: Engine, tmp_path: Path
) -> None:
    source = (
        "# Caching\n\nLoggers are cached on first use. You can't set this option if you pass "
        "loggers around using multiprocessing.\n"
    )
    reply = (
        "Pools are powered by hamsters in the basement [1]. Therefore, you can't set this "
        "option if you pass loggers around using multiprocessing [1]."
    )
    answer = await answered(engine, tmp_path / "d", source, reply, "Can I cache loggers?")
    assert answer.answer == (
        "You can't set this option if you pass loggers around using multiprocessing [1]."
    )
    assert [c.text for c in answer.claims] == [
        "You can't set this option if you pass loggers around using multiprocessing."
    ]
