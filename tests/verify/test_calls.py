"""Nested calls a claim writes in another order than its source."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import Check, LexicalVerifier
from citesynth.verify.calls import rearranged_calls

FILTERS = (
    "Multiple filters can be chained. The output of one filter is applied to the next. For "
    "example, ``{{ name|striptags|title }}`` will remove all HTML Tags from variable `name` "
    "and title-case the output (``title(striptags(name))``)."
)


def test_a_nested_call_written_in_another_order_is_found() -> None:
    claim = "{{ name|striptags|title }} is equivalent to striptags(title(name))."
    assert rearranged_calls(claim, [FILTERS]) == (
        ("striptags(title(name))", "title(striptags(name))"),
    )


@pytest.mark.parametrize(
    "claim",
    [
        "{{ name|striptags|title }} is equivalent to title( striptags(name) ).",  # spaced
        "It calls title(striptags(value)) on the variable.",  # the same order, another name
        "It calls striptags(name) and then title(name).",  # no call inside another
        "It calls upper(lower(name)).",  # names the source never nests
    ],
)
def test_calls_in_the_sources_order_or_never_nested_there_are_not(claim: str) -> None:
    assert rearranged_calls(claim, [FILTERS]) == ()


def test_the_verifier_says_which_order_the_source_writes() -> None:
    claim = (
        "{{ name|striptags|title }} is equivalent to striptags(title(name)), so the name is "
        "title-cased before tags are removed."
    )
    (verdict,) = LexicalVerifier().verify_now([Check(claim, (FILTERS,))])
    assert verdict.label != "supported"
    assert "the source writes 'title(striptags(name))', not 'striptags(title(name))'" in (
        verdict.reasons
    )


def test_thousands_of_parentheses_are_read_in_linear_time() -> None:
    started = time.perf_counter()
    assert rearranged_calls("a(b(c))", ["f(" * 100_000]) == ()
    claim = " ".join(f"a{i}(b(c))" for i in range(5_000))
    source = " ".join(f"b(a{i}(c{i}))" for i in range(20_000))
    assert len(rearranged_calls(claim, [source])) == 20  # a claim's first few are read
    assert time.perf_counter() - started < 2.0  # a scan for each "(": 2 s for the first
