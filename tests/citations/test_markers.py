"""Citation markers: every accepted form, code skipped, streaming equal to whole text."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citesynth.citations.markers import (
    HOLD,
    MAX_RANGE,
    Marker,
    MarkerStream,
    SourceRef,
    Text,
    find_markers,
    match_at,
)
from tests.citations.strategies import SOURCE_LISTS, TEXTS

SOURCES = [
    SourceRef(1, "docs/guide.md", page=1),
    SourceRef(2, "docs/guide.md", page=2),
    SourceRef(3, "reports/report.pdf", page=5),
    SourceRef(4, "src/notes.txt", start_line=1, end_line=39),
    SourceRef(5, "src/notes.txt", start_line=40, end_line=80),
    SourceRef(6, "README.md", text="Now permanent redirects (301) instead of temporary (2)."),
]

FAST = settings(max_examples=200, deadline=None, database=None)


def numbers(text: str, sources: list[SourceRef] = SOURCES) -> list[tuple[int, ...]]:
    return [marker.numbers for marker in find_markers(text, sources)]


def streamed(pieces: list[str], sources: list[SourceRef] = SOURCES) -> list[Text | Marker]:
    stream = MarkerStream(sources)
    items: list[Text | Marker] = []
    for piece in pieces:
        items.extend(stream.feed(piece))
    items.extend(stream.close())
    return items


def joined(items: list[Text | Marker]) -> str:
    return "".join(item.text if isinstance(item, Text) else item.raw for item in items)


def markers_of(items: list[Text | Marker]) -> list[tuple[str, tuple[int, ...]]]:
    return [(item.raw, item.numbers) for item in items if isinstance(item, Marker)]


# --- every accepted form -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Water boils at 100 C [1].", [(1,)]),
        ("Both agree [1][2].", [(1,), (2,)]),
        ("Both agree [1] [2].", [(1,), (2,)]),
        ("See [1, 3].", [(1, 3)]),
        ("See [1,3].", [(1, 3)]),
        ("See [3, 1].", [(3, 1)]),
        ("See [1; 3].", [(1, 3)]),
        ("See [1-3].", [(1, 2, 3)]),
        ("See [1 - 3].", [(1, 2, 3)]),
        ("See [1–3].", [(1, 2, 3)]),
        ("See [1—3].", [(1, 2, 3)]),
        ("See [1 to 3].", [(1, 2, 3)]),
        ("See [2,4-6].", [(2, 4, 5, 6)]),
        ("See [2, 4-6, 9].", [(2, 4, 5, 6, 9)]),
        ("See [1, 1, 2].", [(1, 2)]),
        ("See 【1】.", [(1,)]),
        ("See 【1, 2】.", [(1, 2)]),
        ("See 【4:0†source】.", [(4,)]),
        ("See 【4†guide.md】.", [(4,)]),
        ("See [^1].", [(1,)]),
        ("See [^ 2].", [(2,)]),
        ("See [Source 2].", [(2,)]),
        ("See [source 2].", [(2,)]),
        ("See [Sources 1 and 3].", [(1, 3)]),
        ("See [Sources 1, 2 & 4].", [(1, 2, 4)]),
        ("See [Ref: 3].", [(3,)]),
        ("See [Doc 5].", [(5,)]),
        ("See [ 1 ].", [(1,)]),
        # a source's header as the grouped context shows it, copied by the model
        ("Stated in [1: L137-148] and [4: L150].", [(1,), (4,)]),
        ("Revenue grew [2: p.5 L3-9].", [(2,)]),
        ("Revenue grew [2: p.5].", [(2,)]),
        ("Water boils (1).", [(1,)]),
        ("Water boils (1, 2).", [(1, 2)]),
        ("Water boils (1-3).", [(1, 2, 3)]),
        ("Water boils (Source 2).", [(2,)]),
        ("Water boils (source 6).", [(6,)]),
    ],
)
def test_numbered_forms(text: str, expected: list[tuple[int, ...]]) -> None:
    assert numbers(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Setup is easy [guide.md, Page 2].", [(2,)]),
        ("Setup is easy [guide.md, page 1].", [(1,)]),
        ("Setup is easy [guide.md, p. 2].", [(2,)]),
        ("Setup is easy [guide.md p2].", [(2,)]),
        ("Revenue grew [report.pdf, Page 5].", [(3,)]),
        ("Revenue grew [REPORT.PDF, Page 5].", [(3,)]),
        ("Setup is easy [docs/guide.md].", [(1,)]),
        ("Setup is easy [guide.md].", [(1,)]),
        ("Details [notes.txt, L40-58].", [(5,)]),
        ("Details [notes.txt, lines 2-9].", [(4,)]),
        ("Details [src/notes.txt, line 70].", [(5,)]),
        ("Details [notes.txt, L200].", [(4,)]),  # no chunk holds line 200: first of the file
        ("Read me [README.md].", [(6,)]),
        ("Two files [guide.md, Page 2][README.md].", [(2,), (6,)]),
        ("Revenue grew (report.pdf, Page 5).", [(3,)]),
        ("Setup is easy (guide.md, p. 2) and fast.", [(2,)]),
        ("See the photo (figure.png, page 3) for more.", []),  # no such source: text
    ],
)
def test_by_file_references(text: str, expected: list[tuple[int, ...]]) -> None:
    assert numbers(text) == expected


def test_a_web_source_is_cited_by_its_address() -> None:
    web = [*SOURCES, SourceRef(7, "https://transport.example.org/history/bridge")]
    found = find_markers(
        "It opened in 2009 [Source: https://transport.example.org/history/bridge]. "
        "It was rebuilt [https://other.example.com/page].",
        web,
    )
    assert [(m.numbers, m.unknown) for m in found] == [((7,), False), ((), True)]


@pytest.mark.parametrize(
    "text",
    [
        "Unknown [other.md].",  # no such file, no page or line: ordinary bracketed text
        "Version [v2.0, page 3].",  # not a file name
        "An index xs[-1] and ys[-2].",
        "An array [a, b] and [x].",
        "An empty marker [] and [ ].",
        "No number [Source].",
        "Not closed [1 and more text",
        "Letters [1a].",
        "Too long [12345].",
        "Nested [[x]].",
        "A slice xs[1:] and a label [1: x].",
        "[1: L1-7] — Timeouts\nA source's header copied as a line is layout.",
        "Text.\n[2: p.5 L3-9]\nMore text.",
    ],
)
def test_not_markers(text: str) -> None:
    assert find_markers(text, SOURCES) == []


@pytest.mark.parametrize(
    "text",
    [
        "Unknown [guide.md, Page 9].",  # the file has no page 9
        "Unknown [report.pdf, Page 1].",
        "Unknown [timeouts.md, Page 99].",  # no such file
        "Unknown [timeouts.md, L4-9].",
    ],
)
def test_references_naming_no_source_are_markers_naming_nothing(text: str) -> None:
    (marker,) = find_markers(text, SOURCES)
    assert marker.unknown and marker.numbers == () and marker.raw == text[8:-1]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Water boils [-1].", [(-1,)]),
        ("Water boils [0].", [(0,)]),
        ("Water boils (17).", [(17,)]),  # ends a clause after a word: a citation
        ("Water boils (17)\nNext.", [(17,)]),
        ("Water boils (Source 17) and more.", [(17,)]),
        ("Water boils (1, 17).", [(1, 17)]),
        ("Published (2019).", []),
        ("Water boils (see above).", []),
        ("As in Eq. (17).", []),
        ("See equation (12), then table (9).", []),
        ("Boils at (17) degrees.", []),
        ("Costs 5% (17).", []),
        ("(17) Water boils.", []),
        ("It has (0,0)\nin the upper left corner.", []),  # a value: no source is 0
        ("The origin is (0, 0).", []),
        ("Water boils (Source 0).", [(0,)]),
        ("Water boils (0).", [(0,)]),  # where a citation stands: one naming nothing
    ],
)
def test_numbers_no_source_has(text: str, expected: list[tuple[int, ...]]) -> None:
    assert numbers(text) == expected


def test_markers_carry_their_parts() -> None:
    (marker,) = find_markers("See [1, 3-5, 9-7].", SOURCES)
    assert marker.parts == ((1, 1), (3, 5), (9, 9), (7, 7))
    assert marker.numbers == (1, 3, 4, 5, 9, 7)


def test_markers_carry_their_span() -> None:
    text = "Alpha [1]. Beta [2, 3] and 【4:0†source】 and (Source 5)."
    markers = find_markers(text, SOURCES)
    assert [m.raw for m in markers] == ["[1]", "[2, 3]", "【4:0†source】", "(Source 5)"]
    assert all(text[m.start : m.end] == m.raw for m in markers)


def test_match_at_only_at_an_opener() -> None:
    text = "x [2] y"
    assert match_at(text, 2, SOURCES) == Marker(2, 5, "[2]", (2,), ((2, 2),))
    assert match_at(text, 0, SOURCES) is None


# --- ranges ----------------------------------------------------------------------------------


def test_range_expands_between_written_numbers_only() -> None:
    assert numbers("[3-7]") == [(3, 4, 5, 6, 7)]
    assert numbers("[1-2, 5]") == [(1, 2, 5)]


def test_reversed_range_keeps_what_was_written() -> None:
    assert numbers("[5-3]") == [(5, 3)]


def test_range_guard_does_not_explode() -> None:
    assert numbers(f"[1-{1 + MAX_RANGE}]") == [tuple(range(1, 2 + MAX_RANGE))]
    assert numbers(f"[1-{2 + MAX_RANGE}]") == [(1, 2 + MAX_RANGE)]
    assert numbers("[1-9999]") == [(1, 9999)]
    assert numbers("[1-100000]") == []  # five digits: not a marker at all
    assert numbers("[1-9999, 2-9998, 3 to 9997]") == [(1, 9999, 2, 9998, 3, 9997)]


# --- code is left alone ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("```\nx = a[1]\n```\nAfter [2].", [(2,)]),
        ("```python\nprint(xs[1], f(1))\n```", []),
        ("Use `xs[1]` here [2].", [(2,)]),
        ("Use `f(1)` and `【1】` here.", []),
        ("Before [1] `[2]` after [3].", [(1,), (3,)]),
        ("Open `[1]\nnew line [2].", [(2,)]),  # inline code ends at a newline
        ("````\n[1]\n````\n[2]", [(2,)]),
        ("``` [1] ``` [2]", [(2,)]),
        # reStructuredText's double backticks are one span (Trio's docs: the "(0)" of
        # ``open_memory_channel(0)`` had been read as a citation and removed)
        ("by doing ``open_memory_channel(0)``. Then [2].", [(2,)]),
        ("the ``with move_on_after(5)`` block [1]", [(1,)]),
        ("``a ` (3)`` closes at two, not one [2]", [(2,)]),
        # tokenised text's quotes open no code: nothing closes them on their line
        ("The `` Rammer Jammer Cheer '' is a traditional cheer [1].", [(1,)]),
        ("``Only Daddy That'll Walk the Line ''is a song [1].", [(1,)]),
        ("`` A '' [1] and `` B '' [2]", [(1,), (2,)]),
    ],
)
def test_code_is_skipped(text: str, expected: list[tuple[int, ...]]) -> None:
    assert numbers(text) == expected


# --- parentheses: enumerators and bare numbers -----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "(1) first (2) second",
        "(1) first\n(2) second\n(3) third",
        "Steps:\n(1) install\n(2) run",
        "Steps: (1) install, (2) configure and (3) run.",
        "Done. (1) is next.",
        "Really? (2) follows.",
        "- (1) bullet",
        "* (2) bullet",
        "  (1) indented",
    ],
)
def test_enumerators_are_not_citations(text: str) -> None:
    assert find_markers(text, SOURCES) == []


def test_paren_numbers_above_the_source_count_are_text() -> None:
    assert numbers("Boils at (4) degrees.", SOURCES[:3]) == []
    assert numbers("Boils at (3) degrees.", SOURCES[:3]) == []  # a value: the text goes on
    assert numbers("Boils at (1, 4) degrees.", SOURCES[:3]) == []
    assert numbers("Published in (1999).") == []
    assert numbers("Boils (1) now.", []) == []
    assert numbers("Boils (1).", []) == [(1,)]  # where a citation stands: one naming nothing


@pytest.mark.parametrize(
    "text",
    [
        # lme4's paper, quoted whole by the extractive writer: its own numbering, never ours
        "lme4 allows any optimizer that (1) can work with an objective function (i.e., does "
        "not require a gradient), (2) allows box constraints, and (3) conforms to rules.",
        "the weights: w = 3 sin(z) − cos(z) , (8) where z = 6π/5.",
        "It is not possible to fit a model where (1) the slopes are uncorrelated.",
        # a model's words for sandwich's paper: notation glued to its name
        "It uses VAR(1) prewhitening and an AR(1) and MA(2) model.",
    ],
)
def test_numbers_the_text_goes_on_after_are_text(text: str) -> None:
    assert find_markers(text, SOURCES) == []


def test_a_citation_glued_to_its_sentence_still_cites() -> None:
    assert numbers("东京是日本的首都(1)。") == [(1,)]
    assert numbers("Paris is the capital(1).") == [(1,)]


def test_paren_citations_before_a_word_that_opens_what_follows() -> None:
    assert numbers("Water boils (1) while ice melts (2).") == [(1,), (2,)]
    assert numbers("Both are supported (1) but only one is the default (2).") == [(1,), (2,)]
    assert numbers("The limit (3) says 100.") == [(3,)]
    assert numbers("Water boils (1)") == [(1,)]  # the text's end: nothing goes on


def test_paren_citations_after_a_claim() -> None:
    assert numbers("Water boils (1). Ice melts (2).") == [(1,), (2,)]
    assert numbers("Water boils (1) and ice melts (2).") == [(1,), (2,)]


def test_a_parenthesis_a_source_writes_after_the_same_word_is_its_text() -> None:
    # Tornado's change log, Scrapy's item loaders: an answer quoting them quotes their numbers.
    tornado = "The decorators now send permanent redirects (301) instead of\ntemporary (302)."
    scrapy = "Data from ``xpath2`` is passed through the same *input processor* used in (1)."
    sources = [SourceRef(1, "web.rst", text=tornado), SourceRef(2, "loaders.rst", text=scrapy)]
    quoted = "They send permanent redirects (301) instead of temporary (302) [1]."
    assert numbers(quoted, sources) == [(1,)]
    assert numbers("It is passed through the same input processor used in (1) [2].", sources) == [
        (2,)
    ]
    # A model's own parenthesised citation is one: no source writes it after that word.
    assert numbers("Redirects are permanent (1).", sources) == [(1,)]
    assert numbers("The processor used in (2).", sources) == [(2,)]


def test_brackets_are_citations_even_at_a_line_start() -> None:
    assert numbers("[1] Water boils.\n[2] Ice melts.") == [(1,), (2,)]


# --- streaming ---------------------------------------------------------------------------------

STREAM_TEXTS = [
    "Water boils [1]. Ice melts [2][3], and steam [1-3] rises [2,4-6].",
    "Models write 【4:0†source】 and [^1] and [Source 2] and (Source 3) (1).",
    "Setup is easy [guide.md, Page 2]; details [notes.txt, L40-58].",
    "Stated in [1: L137-148] and [4: p.5 L150-154]; xs[1:] is a slice.",
    "[1: L4-9] — Towers\n[2: L1-3] Towers stand on hills [2: L1-3].\n[3: L5]",
    "```\ncode [1] here\n```\nThen `inline [2]` and [3].",
    "(1) first (2) second\nA claim (2). [1-100000] and [1-9999].",
    "an optimizer that (1) can work, (2) allows bounds and (3) conforms (1) while z (2)",
    "Boils at (3) degrees (2)\t and (1)  goes (4) on",
    "with (0,0)\nin the corner (0, 1) and (1, 0). (0)",
    "permanent redirects (301) instead of temporary (2). Then temporary (2) and (2).",
    "an AR(1) MA(2) and VAR(1) Model, capital(1). 首都(1)。 x(2)",
    "[2: L4-9]  x and [1: L1-3]   \n[3: L5]\t— Towers",
    "Unclosed [1 and then a newline\n[2] closed. An array [a, b]. A year (1999).",
    "Two ticks `` [1] `` then three ```\n[2]\n``` done [3]",
    "Long [" + "x" * (HOLD + 20) + "] then [1].",
    "Spaces [1" + " " * (HOLD + 5) + "] and [2].",
    "Broken [1\n] and [2\n, 3] and 【1\n】 and [3].",
    "",
    "[1]",
    "[",
    "`",
]


def test_whole_text_is_released_once() -> None:
    for text in STREAM_TEXTS:
        items = streamed([text])
        assert joined(items) == text
        assert markers_of(items) == [(m.raw, m.numbers) for m in find_markers(text, SOURCES)]


@pytest.mark.parametrize("text", STREAM_TEXTS)
def test_every_single_cut_gives_the_same_result(text: str) -> None:
    whole = streamed([text])
    for cut in range(len(text) + 1):
        items = streamed([text[:cut], text[cut:]])
        assert joined(items) == text, cut
        assert markers_of(items) == markers_of(whole), cut


@pytest.mark.parametrize("text", STREAM_TEXTS)
def test_character_by_character_gives_the_same_result(text: str) -> None:
    assert markers_of(streamed(list(text))) == markers_of(streamed([text]))
    assert joined(streamed(list(text))) == text


@pytest.mark.parametrize("seed", range(20))
def test_random_pieces_give_the_same_result(seed: int) -> None:
    rng = random.Random(seed)
    for text in STREAM_TEXTS:
        cuts = sorted(rng.sample(range(len(text) + 1), min(len(text) + 1, rng.randint(1, 12))))
        pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        items = streamed(pieces)
        assert joined(items) == text
        assert markers_of(items) == markers_of(streamed([text]))


def test_released_text_never_holds_part_of_a_marker() -> None:
    text = "Claim [1]. Next 【4:0†source】 and [guide.md, Page 2] and (Source 3)."
    spans = [(m.start, m.end) for m in find_markers(text, SOURCES)]
    stream = MarkerStream(SOURCES)
    released = 0
    for char in text:
        for item in stream.feed(char):
            length = len(item.text) if isinstance(item, Text) else item.end - item.start
            if isinstance(item, Text):
                # No released text overlaps a span that is (later) reported as a marker.
                assert all(released + length <= s or released >= e for s, e in spans)
            else:
                assert (item.start, item.end) in spans and item.start == released
            released += length
    stream.close()


def test_stream_holds_only_a_possible_marker() -> None:
    stream = MarkerStream(SOURCES)
    assert joined(stream.feed("Water boils ")) == "Water boils "
    assert stream.feed("[1") == []  # could still become a marker
    items = stream.feed(", 2] at sea level")
    assert markers_of(items) == [("[1, 2]", (1, 2))]
    assert joined(items) == "[1, 2] at sea level"
    assert stream.close() == []


def test_stream_gives_up_on_a_newline_or_hold() -> None:
    stream = MarkerStream(SOURCES)
    assert stream.feed("a [1") == [Text("a ")]
    assert joined(stream.feed("\nb")) == "[1\nb"
    stream = MarkerStream(SOURCES)
    assert joined(stream.feed("[" + "y" * HOLD)) == "[" + "y" * HOLD


def test_stream_holds_back_a_possible_fence() -> None:
    stream = MarkerStream(SOURCES)
    assert joined(stream.feed("x\n``")) == "x\n"  # marks opening a line may become a fence
    assert joined(stream.feed("`\n[1]\n```")) == "```\n[1]\n"  # the last ``` may grow
    assert joined(stream.close()) == "```"
    inline = MarkerStream(SOURCES)  # mid-line, a run is inline code whose length may grow
    assert joined(inline.feed("x``")) == "x"
    assert joined(inline.feed("`y(2)``` (2)")) == "```y(2)``` "  # one span, then a bare (2)
    backticks = MarkerStream(SOURCES)  # a backtick later on the line makes it inline code
    assert joined(backticks.feed("```js")) == ""
    assert [type(item).__name__ for item in backticks.feed("``` [1]\n")] == [
        "Text",
        "Marker",
        "Text",
    ]


# --- properties --------------------------------------------------------------------------------

_RANGE = re.compile(r"(\d+)\s*(?:-|–|—|to)\s*(\d+)", re.I)


def _written(raw: str) -> set[int]:
    found = {int(digits) for digits in re.findall(r"(?<![\d\s])-?\d+|\d+", raw)}
    for first, last in _RANGE.findall(raw):
        found.update(range(int(first), int(last) + 1))
    return found


def _check(text: str, sources: list[SourceRef], markers: list[Marker]) -> None:
    previous = 0
    for marker in markers:
        assert marker.raw == text[marker.start : marker.end]
        assert previous <= marker.start < marker.end
        previous = marker.end
        if marker.unknown:  # a file reference naming no source
            assert marker.numbers == () and "." in marker.raw
            continue
        assert marker.numbers and len(set(marker.numbers)) == len(marker.numbers)
        if marker.raw.startswith("[") and "." in marker.raw:  # by file: a source's number
            assert len(marker.numbers) == 1
            source = next(s for s in sources if s.number == marker.numbers[0])
            assert source.path.rsplit("/", 1)[-1].lower() in marker.raw.lower()
        else:
            assert set(marker.numbers) <= _written(marker.raw)


@FAST
@given(TEXTS, SOURCE_LISTS)
def test_markers_are_never_invented(text: str, sources: list[SourceRef]) -> None:
    _check(text, sources, find_markers(text, sources))


@FAST
@given(TEXTS, SOURCE_LISTS, st.randoms(use_true_random=False))
def test_stream_equals_whole(text: str, sources: list[SourceRef], rng: random.Random) -> None:
    whole = streamed([text], sources)
    cuts = sorted(rng.sample(range(len(text) + 1), rng.randint(0, len(text) + 1)))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    items = streamed(pieces, sources)
    assert joined(items) == joined(whole) == text
    assert markers_of(items) == markers_of(whole)
    assert markers_of(streamed(list(text), sources)) == markers_of(whole)  # the finest split
    assert [m for m in whole if isinstance(m, Marker)] == find_markers(text, sources)


@FAST
@given(st.text(max_size=60), SOURCE_LISTS)
def test_any_unicode_text_parses(text: str, sources: list[SourceRef]) -> None:
    _check(text, sources, find_markers(text, sources))
    assert joined(streamed(list(text), sources)) == text


def test_full_width_brackets_and_digits_are_markers() -> None:
    sources = [SourceRef(1, "a.md"), SourceRef(2, "b.md")]
    stream = MarkerStream(sources)
    items = [*stream.feed("Boils ［２］ and ［9］. A ［note］ stays."), *stream.close()]
    markers = [item for item in items if isinstance(item, Marker)]
    assert [m.numbers for m in markers] == [(2,), (9,)]
    text = "".join(item.raw if isinstance(item, Marker) else item.text for item in items)
    assert text == "Boils ［２］ and ［9］. A ［note］ stays."
