"""Quoted literal text must be the sources' own (`verify.quotes`)."""

from __future__ import annotations

import pytest

from citesynth.verify.base import Check
from citesynth.verify.lexical import LexicalVerifier
from citesynth.verify.quotes import misquoted

PAUSE = (
    "In click, this can be accomplished with the :func:`pause` function.  This\n"
    "function will print a quick message to the terminal (which can be\n"
    "customized) and wait for the user to press a key."
)


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        # Click's docs never write the text; the embedded model invented it
        (
            'The text that click.pause prints by default is "Press any key to continue...".',
            ("Press any key to continue...",),
        ),
        # the source's own words, whatever the case and punctuation
        ('It prints "a Quick message" to the terminal.', ()),
        ("It prints “a quick message” to the terminal.", ()),
        # one word is not read; nor a quote in a claim about no literal text
        ('It prints "hello" to the terminal.', ()),
        ('The band recorded "Master of Puppets" in 2006.', ()),
        ('The error message reads "Missing option --name".', ("Missing option --name",)),
        # quotes inside inline code are the code's (two spans never pair their quotes)
        ('As shown, run `npm pack "@a/b@1.8"` and `npm pack "@a/c@1.8"` to fetch them.', ()),
        # single quotes standing apart from words quote too; an apostrophe never does
        ("By default it prints 'Any key will do' first.", ("Any key will do",)),
        ("The user's terminal prints 'a quick message', users' keys aside.", ()),
        # Jinja's docs: what rendering gives, in the other order
        (
            "Rendering child.tmpl gives 'body: Hi from parent. Hi from child.'",
            ("body: Hi from parent. Hi from child.",),
        ),
    ],
)
def test_a_quoted_literal_must_be_written_in_a_source(claim: str, found: tuple[str, ...]) -> None:
    assert misquoted(claim, [PAUSE]) == found


def test_a_quoted_value_is_read_in_any_claim() -> None:
    # Python-Markdown's docs set "4-6"; a value is no title, whatever the claim is about
    source = 'With baselevel 3, set toc_depth to "4-6" to leave out the first level.'
    claim = 'With baselevel set to 3, setting toc_depth to "3-6" excludes the first level.'
    assert misquoted(claim, [source]) == ("3-6",)
    assert misquoted(claim.replace("3-6", "4-6"), [source]) == ()
    assert (
        misquoted('The album "1999" sold well.', [source]) == ()
    )  # one number: the number check's


def test_an_escaped_line_break_in_a_quote_is_a_space() -> None:
    source = "Create it with:\n\nkind: PersistentVolumeClaim\napiVersion: v1\n"
    claim = 'The example text reads "kind: PersistentVolumeClaim\\napiVersion: v1".'
    assert misquoted(claim, [source]) == ()


async def test_a_misquoted_claim_is_not_supported_and_says_why() -> None:
    claim = 'By default click.pause prints the text "Press any key to continue..." to the terminal.'
    [verdict] = await LexicalVerifier().verify([Check(claim, (PAUSE,))])
    assert not verdict.supported
    assert "quoted text not in the source: 'Press any key to continue...'" in verdict.reasons


async def test_a_quote_a_heading_writes_is_written() -> None:
    # HTTPX's troubleshooting section names the error in its heading only.
    passage = "But if you get the error above, it is likely that your proxy doesn't support HTTPS."
    claim = 'A "handshake operation timed out" error means the proxy does not support HTTPS.'
    about = 'Troubleshooting Proxies "`The handshake operation timed out`" on HTTPS requests'
    [verdict] = await LexicalVerifier().verify([Check(claim, (passage,), about)])
    assert not any(reason.startswith("quoted text") for reason in verdict.reasons)
    [alone] = await LexicalVerifier().verify([Check(claim, (passage,))])
    assert any(reason.startswith("quoted text") for reason in alone.reasons)


def test_many_quotes_are_read_once() -> None:
    # Bad input: 50,000 quotations in one claim about printed text.
    claim = "It prints " + '"a b" ' * 50_000
    assert misquoted(claim, ["a b"]) == ()
