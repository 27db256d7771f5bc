"""Resolving markers: groups, compact form, invalid numbers, renumbering, claims."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citesynth.citations.markers import SourceRef, find_markers
from citesynth.citations.resolve import (
    cited_numbers,
    compact,
    factual_sentences,
    numbers_in,
    renumber,
    resolve,
    says_not_found,
)
from citesynth.synthesis.leads import plain_attributions
from tests.citations import strategies
from tests.citations.strategies import TEXTS

FAST = settings(max_examples=200, deadline=None, database=None)
_CANONICAL = re.compile(r"\[\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*\]")


def refs(count: int) -> list[SourceRef]:
    return [SourceRef(n, f"docs/file{n}.md", page=1) for n in range(1, count + 1)]


THREE = refs(3)
SIX = [*refs(5), SourceRef(6, "docs/guide.md", page=2)]


# --- compact -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("numbers", "expected"),
    [
        ([1], "[1]"),
        ([2, 1], "[1,2]"),
        ([1, 2, 3], "[1-3]"),
        ([3, 1, 2, 2], "[1-3]"),
        ([2, 4, 5, 6], "[2,4-6]"),
        ([1, 2, 4, 5], "[1,2,4,5]"),
        ([1, 2, 3, 7, 9, 10, 11, 12], "[1-3,7,9-12]"),
        ([], "[]"),
    ],
)
def test_compact(numbers: list[int], expected: str) -> None:
    assert compact(numbers) == expected
    assert sorted(set(numbers)) == numbers_in(expected)


@FAST
@given(st.lists(st.integers(1, 10_000), max_size=30))
def test_compact_round_trips(numbers: list[int]) -> None:
    once = compact(numbers)
    assert compact(numbers_in(once)) == once
    assert numbers_in(once) == sorted(set(numbers))


# --- resolve: examples -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Water boils [1].", "Water boils [1]."),
        ("Water boils [1][2].", "Water boils [1,2]."),
        ("Water boils [1] [2].", "Water boils [1,2]."),
        ("Water boils [2][1].", "Water boils [1,2]."),
        ("Water boils [1, 2, 3].", "Water boils [1-3]."),
        ("Water boils [1-3].", "Water boils [1-3]."),
        ("Water boils [2,4-6].", "Water boils [2,4-6]."),
        ("Water boils [2][4][5][6].", "Water boils [2,4-6]."),
        ("Water boils 【1】【2】.", "Water boils [1,2]."),
        ("Water boils 【4:0†source】.", "Water boils [4]."),
        ("Water boils [^1].", "Water boils [1]."),
        ("Water boils [Source 2].", "Water boils [2]."),
        ("Water boils (1).", "Water boils [1]."),
        ("Water boils [guide.md, Page 2].", "Water boils [6]."),
        ("Water boils[1].", "Water boils [1]."),
        ("Water boils. [1]", "Water boils [1]."),
        ("Water boils. [1][2]", "Water boils [1,2]."),
        ("Water boils! [1]\nIce melts? [2]", "Water boils [1]!\nIce melts [2]?"),
        ("Water boils. [1] Ice melts.", "Water boils [1]. Ice melts."),
        ("Wait... [1]", "Wait... [1]"),  # an ellipsis is not a sentence end to move into
        ("(1) first (2) second", "(1) first (2) second"),
        ("Use `xs[1]` here.", "Use `xs[1]` here."),
    ],
)
def test_resolve_rewrites(text: str, expected: str) -> None:
    assert resolve(text, SIX).text == expected


def test_adjacent_markers_become_one_multi_source_group() -> None:
    resolved = resolve("Water boils [1][2]. Ice melts [3].", THREE)
    assert resolved.text == "Water boils [1,2]. Ice melts [3]."
    assert resolved.groups == ((1, 2), (3,))
    assert resolved.used == (1, 2, 3)
    assert resolved.multi_source == {1, 2}
    assert resolved.markers == 3
    assert resolved.invalid == () and resolved.invalid_markers == 0 and resolved.warnings == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Slots are the default, as shown in [3] and [2].", "Slots are the default [2,3]."),
        ("Slots are the default, as shown in [9] and [3].", "Slots are the default [3]."),
        ("Slots are the default, as shown in [3] and [9].", "Slots are the default [3]."),
        ("See [1], [2] and [3].", "See [1-3]."),
        # a marker that is the subject of the next clause keeps its own group
        ("Pools hold ten [1], and [2] says twenty.", "Pools hold ten [1], and [2] says twenty."),
        ("The size is 100 [1] or 10 [2].", "The size is 100 [1] or 10 [2]."),
    ],
)
def test_markers_a_model_joins_as_a_noun_become_one_group(text: str, expected: str) -> None:
    # one naming no source no longer leaves "as shown in and [3]" behind
    resolved = resolve(text, THREE)
    assert plain_attributions(resolved.text)[0] == expected


def test_used_is_in_order_of_first_use() -> None:
    resolved = resolve("A [3]. B [1][3]. C [2].", THREE)
    assert resolved.used == (3, 1, 2)
    assert resolved.groups == ((3,), (1, 3), (2,))


def test_invalid_numbers_are_removed_and_reported() -> None:
    resolved = resolve("Water boils [1][9].", THREE)
    assert resolved.text == "Water boils [1]."
    assert resolved.groups == ((1,),)
    assert resolved.invalid == (9,)
    assert resolved.invalid_markers == 1
    assert resolved.multi_source == frozenset()
    assert len(resolved.warnings) == 1 and "[9]" in resolved.warnings[0]


def test_a_range_reaching_past_the_sources_is_removed_not_clipped() -> None:
    resolved = resolve("Water boils [2-5].", THREE)
    assert resolved.text == "Water boils."
    assert resolved.invalid == () and resolved.removed.ranges == ("2-5",)
    assert resolved.invalid_markers == 1 and resolved.used == ()
    assert resolved.warnings == [
        "removed citation range(s) [2-5]: a range reaching past the sources"
    ]
    eight = refs(8)
    assert resolve("Ice melts [1-40].", eight).text == "Ice melts."
    assert resolve("Ice melts [1, 3-40].", eight).text == "Ice melts [1]."
    assert resolve("Ice melts [1-8].", eight).text == "Ice melts [1-8]."


@pytest.mark.parametrize(
    ("text", "warning"),
    [
        ("Water boils [-1].", "removed citation(s) [-1]: no source has that number"),
        ("Water boils (17).", "removed citation(s) [17]: no source has that number"),
        (
            "Water boils [timeouts.md, Page 99].",
            "removed citation(s) [timeouts.md, Page 99]: no source is that file, page or line",
        ),
        (
            "Water boils [file1.md, Page 7].",
            "removed citation(s) [file1.md, Page 7]: no source is that file, page or line",
        ),
    ],
)
def test_markers_naming_no_source_leave_the_answer_and_are_reported(
    text: str, warning: str
) -> None:
    resolved = resolve(text, THREE)
    assert resolved.text == "Water boils."
    assert resolved.warnings == [warning] and resolved.invalid_markers == 1


@pytest.mark.parametrize(
    "text",
    ["Published in (2019).", "Water boils (see above).", "As in Eq. (17).", "xs[-1] is last."],
)
def test_parentheses_that_are_not_citations_stay(text: str) -> None:
    resolved = resolve(text, THREE)
    assert resolved.text == text and resolved.warnings == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Water boils [9].", "Water boils."),
        ("Water boils [9][8], then cools.", "Water boils, then cools."),
        ("Water boils [9] and cools.", "Water boils and cools."),
        ("Water boils [9]\nIce melts [1].", "Water boils\nIce melts [1]."),
        ("[9] Water boils.", "Water boils."),
        ("Water boils [0].", "Water boils."),
    ],
)
def test_a_group_of_invalid_numbers_disappears(text: str, expected: str) -> None:
    resolved = resolve(text, THREE)
    assert resolved.text == expected
    assert "  " not in resolved.text and " ." not in resolved.text and " ," not in resolved.text
    assert resolved.invalid and resolved.warnings


def test_removal_does_not_leave_a_new_marker_behind() -> None:
    resolved = resolve("Odd [[9]99] text.", THREE)
    assert resolved.text == "Odd text."
    assert resolved.invalid == (9, 99)
    resolved = resolve("Odd [[9]1] text.", THREE)
    assert resolved.text == "Odd [1] text." and resolved.groups == ((1,),)


def test_no_sources_removes_every_marker() -> None:
    resolved = resolve("Water boils [1]. Ice melts [2-3].", [])
    assert resolved.text == "Water boils. Ice melts."
    assert resolved.invalid == (1,) and resolved.removed.ranges == ("2-3",)
    assert resolved.used == ()


def test_text_without_markers_is_unchanged() -> None:
    text = "Water boils at 100 degrees (at sea level)."
    resolved = resolve(text, THREE)
    assert resolved.text == text and resolved.markers == 0 and resolved.groups == ()


# --- renumber ----------------------------------------------------------------------------------


def test_renumber_in_order_of_first_use() -> None:
    resolved = resolve("A [3]. B [1,3]. C [2][3].", THREE)
    text, mapping = renumber(resolved.text, resolved.used)
    assert mapping == {3: 1, 1: 2, 2: 3}
    assert text == "A [1]. B [1,2]. C [1,3]."


def test_renumber_leaves_code_and_unknown_numbers_alone() -> None:
    text = "Use `xs[0]` and\n```\nys[2]\n```\nA [2]. B [7]."
    renumbered, mapping = renumber(text, [2])
    assert mapping == {2: 1}
    assert renumbered == "Use `xs[0]` and\n```\nys[2]\n```\nA [1]. B [7]."


def test_renumber_rewrites_only_canonical_markers() -> None:
    text, _ = renumber("A [^2] and [Source 2] and [2, 3] and [3].", [3, 2])
    assert text == "A [^2] and [Source 2] and [2, 3] and [1]."


# --- not found, cited numbers, factual sentences ----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Not found in the sources.",
        "not found in the provided sources",
        "The sources do not mention the boiling point of water.",
        "The provided sources do not contain this information.",
        "There is no information about pricing in the sources.",
        "I cannot find the answer in the provided sources.",
        "This question can't be answered from the sources.",
        # how small models say it
        "The User-Agent header sent by default is not explicitly stated in the provided sources.",
        "The provided documentation does not specify the default User-Agent.",
        "The passages do not mention WebSockets.",
        "The documentation does not say which ciphers are enabled.",
        "Not found in the sources [1].",
        "",
        "   ",
    ],
)
def test_says_not_found(text: str) -> None:
    assert says_not_found(text)


@pytest.mark.parametrize(
    "text",
    [
        "Water boils at 100 degrees Celsius [1].",
        "Water boils at 100 degrees Celsius.",
        # a document's own words about its documents
        "The treaty was not mentioned in the documents released by the ministry.",
        "This guide does not cover the beta API, which changes weekly.",
        # A long, cited answer with a caveat is an answer.
        "Water boils at 100 degrees Celsius at sea level [1], and at lower temperatures on "
        "mountains because the air pressure is lower there [2]. The exact temperature at the "
        "summit of Everest is not found in the sources.",
    ],
)
def test_answers_are_not_not_found(text: str) -> None:
    assert not says_not_found(text)


def test_cited_numbers() -> None:
    assert cited_numbers("Water boils [1,3-5] and ice melts [2].") == [1, 3, 4, 5, 2]
    assert cited_numbers("No citation here.") == []


def test_factual_sentences() -> None:
    text = (
        "# Boiling water\n\n"
        "Water boils at 100 degrees Celsius [1]. Why does it boil?\n"
        "Key points:\n"
        "- Ice melts at zero degrees [2,3].\n"
        "- Short [1].\n"
        "Steam rises above the pot quickly.\n"
        "The sources do not mention pressure cookers at all."
    )
    assert factual_sentences(text) == [
        ("Water boils at 100 degrees Celsius [1].", [1]),
        ("- Ice melts at zero degrees [2,3].", [2, 3]),
        ("Steam rises above the pot quickly.", []),  # an uncited claim
    ]


@pytest.mark.parametrize(
    "closed",
    [
        "*Find a coroutine-friendly equivalent.*",  # Tornado FAQ, as the extractive writer cites it
        "**Find a coroutine-friendly equivalent.**",
        'The guide says "find a coroutine-friendly equivalent."',
        "(Find a coroutine-friendly equivalent.)",
    ],
)
def test_markers_after_a_closed_sentence_are_its_own(closed: str) -> None:
    """`resolve` moves no marker past a closing emphasis, quotation or parenthesis."""
    after = "For `time.sleep`, use `tornado.gen.sleep` instead [2]."
    assert factual_sentences(f"{closed} [1] [3] {after}") == [
        (f"{closed} [1] [3]", [1, 3]),
        (after, [2]),
    ]
    # a marker that is the subject of the sentence it opens stays with that sentence
    for subject in (
        "[1] explains that it works well.",
        "[1], the guide, says that it works well.",
        "[1]'s changelog says that it works well.",
    ):
        assert factual_sentences(f"{closed} {subject}") == [(closed, []), (subject, [1])]


def test_markers_after_a_label_open_the_sentence_after_it() -> None:
    text = "**Note.** [1] The connect timeout defaults to five seconds."
    assert factual_sentences(text) == [(text.removeprefix("**Note.** "), [1])]


def test_markers_before_many_hostile_brackets_are_read_in_linear_time() -> None:
    # `_SUBJECT` tried on all that follows a marker had doubled its time with each "[-]"
    text = "*X defaults to five seconds.* [1] " + "[-] " * 5_000 + "ok."
    assert factual_sentences(text)[0] == ("*X defaults to five seconds.* [1]", [1])


def test_a_short_sentence_stating_a_default_is_a_claim() -> None:
    # Django's settings reference: "Default: ``10``" over the setting's description.
    text = "**POOL_SIZE**\nDefault: ``10`` [1]. Short [1]. Defaults to 5 [2]."
    assert factual_sentences(text) == [("Default: ``10`` [1].", [1]), ("Defaults to 5 [2].", [2])]


def test_a_sentence_quoting_a_refusal_is_a_claim() -> None:
    quoting = 'The writer then warns `the model answered "Not found in the sources."` [1].'
    said = 'A model that finds nothing writes "Not found in the sources." instead [2].'
    assert factual_sentences(f"{quoting} {said}") == [(quoting, [1]), (said, [2])]
    assert factual_sentences("Not found in the sources. The sources do not mention X.") == []


def test_factual_sentences_after_a_heading() -> None:
    assert factual_sentences("## Summary\nThe tool caches every result [1].") == [
        ("The tool caches every result [1].", [1])
    ]


def test_a_heading_holding_sentences_states_nothing() -> None:
    """A headline the extractive writer heads an answer with is no claim, nor part of one."""
    text = (
        "**Sony Music's artists aren't involved in the AI experiment. Not unrelated: a filing**\n"
        "YouTube made a number of positive announcements about voice replication [1].\n\n"
        "# Release notes. Version 2\nThe cache holds every result for a day [2]."
    )
    assert factual_sentences(text) == [
        ("YouTube made a number of positive announcements about voice replication [1].", [1]),
        ("The cache holds every result for a day [2].", [2]),
    ]


def test_a_bold_statement_is_still_a_claim() -> None:
    """Models bold their direct answer: a bold line citing a source, or a bold paragraph."""
    text = "Short answer:\n\n**Paris is the capital of Germany [1].**\n\nPools hold ten [1]."
    assert factual_sentences(text)[0] == ("**Paris is the capital of Germany [1].**", [1])
    alone = "**Paris is the capital of France.**\n\nThe pool holds ten connections [1]."
    assert factual_sentences(alone)[0] == ("**Paris is the capital of France.**", [])
    above = "**Paris is the capital of Germany [1].**\nThe pool holds ten connections [1]."
    assert factual_sentences(above) == [
        ("**Paris is the capital of Germany [1].**", [1]),  # its own claim, still checked
        ("The pool holds ten connections [1].", [1]),
    ]


def test_only_a_line_of_one_bold_span_ends_its_sentence() -> None:
    """Bold words opening and closing a wrapped sentence do not cut it."""
    text = "**Pools** hold ten connections per host [1] **by default**\nand reuse them."
    assert factual_sentences(text) == [(text, [1])]


def test_a_sentence_opening_with_a_hash_is_a_claim() -> None:
    """Only `# ` opens a heading: "#2 was fixed …" states something and is checked."""
    assert factual_sentences("#2 was fixed in release 1.4 [1].") == [
        ("#2 was fixed in release 1.4 [1].", [1])
    ]


# --- properties --------------------------------------------------------------------------------

COUNTS = st.integers(0, 8)


def _literal_numbers(text: str) -> set[int]:
    found = {int(d) for d in re.findall(r"\d+", text)}
    for first, last in re.findall(r"(\d+)\s*(?:-|–|—|to)\s*(\d+)", text):
        found.update(range(int(first), int(last) + 1))
    return found


@FAST
@given(TEXTS, COUNTS)
def test_resolve_leaves_only_valid_canonical_markers(text: str, count: int) -> None:
    sources = strategies.sources(count)
    valid = set(range(1, count + 1))
    resolved = resolve(text, sources)
    markers = find_markers(resolved.text, sources)
    for marker in markers:
        assert _CANONICAL.fullmatch(marker.raw), marker
        assert set(numbers_in(marker.raw)) <= valid
    assert [m.raw for m in markers] == [compact(group) for group in resolved.groups]
    assert set(resolved.used) <= valid
    assert set(resolved.used) == {n for group in resolved.groups for n in group}
    assert resolved.multi_source <= set(resolved.used)
    assert set(resolved.invalid) <= _literal_numbers(text)
    assert not set(resolved.invalid) & valid
    assert len(set(resolved.invalid)) == len(resolved.invalid)
    assert (resolved.invalid_markers > 0) == bool(resolved.removed)
    assert set(resolved.removed.numbers) == set(resolved.invalid)
    assert resolve(resolved.text, sources).text == resolved.text  # already clean


@FAST
@given(TEXTS, st.integers(1, 8))
def test_renumber_maps_first_use_to_one(text: str, count: int) -> None:
    sources = strategies.sources(count)
    resolved = resolve(text, sources)
    order = [*resolved.used, *(n for n in range(1, count + 1) if n not in resolved.used)]
    text, mapping = renumber(resolved.text, order)
    assert sorted(mapping) == list(range(1, count + 1)) == sorted(mapping.values())
    if resolved.used:
        assert mapping[resolved.used[0]] == 1
    again = resolve(text, sources)
    assert again.groups == tuple(tuple(sorted(mapping[n] for n in g)) for g in resolved.groups)
    assert again.used == tuple(range(1, len(resolved.used) + 1))
    restored, _ = renumber(text, [mapping[n] for n in range(1, count + 1)])
    assert resolve(restored, sources).groups == tuple(tuple(sorted(g)) for g in resolved.groups)


@pytest.mark.parametrize(
    ("text", "expected", "multi"),
    [
        ("The ducks march every day [1]. [1]", "The ducks march every day [1].", set()),
        ("Both agree on it [1]. [2]\nNext line.", "Both agree on it [1,2].\nNext line.", {1, 2}),
    ],
)
def test_a_marker_moved_inside_its_sentence_merges_with_the_one_there(
    text: str, expected: str, multi: set[int]
) -> None:
    resolved = resolve(text, refs(3))
    assert resolved.text == expected and set(resolved.multi_source) == multi


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a marker opening a sentence as the subject of a reporting verb stays with it, and
        # the attribution becomes the citation it is
        (
            "Redirects are off by default. [1] explains that they can mask network calls.",
            "Redirects are off by default. They can mask network calls [1].",
        ),
        ("It is off. [2] also says that it is opt-in.", "It is off. It is opt-in [2]."),
        # several markers as the subject
        ("It is off. [1] and [2] state that it is opt-in.", "It is off. It is opt-in [1,2]."),
        # a verb after which nothing is claimed alone keeps a subject
        (
            "It is off. [3] provides an example where it is on.",
            "It is off. The source provides an example where it is on [3].",
        ),
        # a marker trailing a sentence still moves inside it
        ("It is off. [1] Then it is on [2].", "It is off [1]. Then it is on [2]."),
    ],
)
def test_a_marker_that_opens_a_sentence_as_its_subject_stays_there(
    text: str, expected: str
) -> None:
    resolved = resolve(text, THREE).text
    assert plain_attributions(resolved)[0] == expected
