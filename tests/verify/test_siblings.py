"""A name whose sibling says what the claim says is a veto (`verify.siblings`)."""

from __future__ import annotations

import pytest

from citesynth.verify import Check, LexicalVerifier
from citesynth.verify.siblings import misnamed_sibling

# pluggy 1.6.0's docs/index.rst, "Call time order".
CALL_ORDER = (
    "By default hooks are called in LIFO registered order, however, a *hookimpl* can "
    "influence its call-time invocation position using special attributes. If marked with "
    'a ``"tryfirst"`` or ``"trylast"`` option it will be executed *first* or *last* '
    "respectively in the hook call loop."
)
WRONG = (
    "To make a hook implementation run before the others, you can use the `trylast=True` "
    "option in the `@hookimpl` decorator."
)
POOL = "Set `max_size` for the largest pool and `min_size` for the smallest one."
WRAPPERS = "Use `request.headers` for what the client sent and `response.headers` for the reply."


@pytest.mark.parametrize(
    ("claim", "passage", "found"),
    [
        (WRONG, CALL_ORDER, ("trylast", "tryfirst")),
        ("The smallest pool size is set by `max_size`.", POOL, ("max_size", "min_size")),
        (
            "The response headers are in request.headers.",
            WRAPPERS,
            ("request.headers", "response.headers"),
        ),
    ],
    ids=["joined-word", "snake-case", "dotted-without-backticks"],
)
def test_a_name_said_to_do_what_its_sibling_does_is_named(
    claim: str, passage: str, found: tuple[str, str]
) -> None:
    assert misnamed_sibling(claim, [passage]) == found


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        ("To make a hook implementation run before the others, use `tryfirst=True`.", CALL_ORDER),
        ("To make it run last, mark it with `trylast=True`.", CALL_ORDER),
        ("The largest pool size is set by `max_size`.", POOL),
        # a false value is how one turns the word around
        ("To disable HTTP/2, set `enable_http2=False`.", "`enable_http2` or `disable_http2`."),
        # negated, the claim says what the name does not do
        ("`trylast` does not make an implementation run before the others.", CALL_ORDER),
        # both siblings named: which does what is for `roles` to read
        ("The smallest is `min_size`, the largest `max_size`.", POOL),
        # a word alone is no name: "enabled" is an ordinary word
        ("The cache is disabled unless `enabled` is set.", "`enabled` turns it on; disabled."),
        # no sibling in the sources
        ("The smallest pool size is set by `max_size`.", "Set `max_size` for the pool."),
    ],
    ids=[
        "right-name",
        "own-word",
        "own-side",
        "false-value",
        "negated",
        "both-named",
        "single-word",
        "no-sibling",
    ],
)
def test_right_names_and_what_turns_the_word_around_are_not_read_as_misnamed(
    claim: str, passage: str
) -> None:
    assert misnamed_sibling(claim, [passage]) is None


def test_the_verifier_no_longer_passes_the_wrong_option_and_says_which_is_right() -> None:
    (verdict,) = LexicalVerifier().verify_now([Check(WRONG, (CALL_ORDER,))])
    assert verdict.label != "supported"
    assert "the source says this of tryfirst, not of trylast" in verdict.reasons
    right = WRONG.replace("trylast", "tryfirst")
    (plain,) = LexicalVerifier().verify_now([Check(right, (CALL_ORDER,))])
    assert not any("tryfirst" in reason for reason in plain.reasons)
