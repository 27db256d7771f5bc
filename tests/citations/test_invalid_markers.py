"""No answer keeps a marker naming a number outside 1..len(sources), whatever form it takes."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from citesynth.citations.markers import find_markers
from citesynth.citations.resolve import resolve
from tests.citations.strategies import sources

FAST = settings(max_examples=300, deadline=None, database=None)

_N = st.integers(0, 60)
_RANGE = st.tuples(_N, st.sampled_from(["-", "–", " to "]), _N).map(lambda t: f"{t[0]}{t[1]}{t[2]}")
_BODY = st.one_of(
    st.lists(st.one_of(_N.map(str), _RANGE), min_size=1, max_size=3).map(", ".join),
    st.integers(-3, -1).map(str),  # [-1]
)
_MARKER = st.one_of(
    st.tuples(st.sampled_from(["[", "[^", "[Source ", "【", "(Source ", "("]), _BODY).map(
        lambda t: f"{t[0]}{t[1]}{'】' if t[0] == '【' else ')' if t[0][0] == '(' else ']'}"
    ),
    st.tuples(
        st.sampled_from(["guide.md", "timeouts.md", "report.pdf", "notes.txt"]),
        st.sampled_from([", Page ", ", page ", " p. ", ", L"]),
        st.integers(1, 120),
    ).map(lambda t: f"[{t[0]}{t[1]}{t[2]}]"),
)
_WORDS = st.sampled_from(["Water boils", "ice melts", "the bridge opened", "it rains"])
_END = st.sampled_from([".", ",", "", " and", "!", "\n", ". "])
TEXTS = st.lists(st.tuples(_WORDS, st.lists(_MARKER, max_size=3), _END), max_size=6).map(
    lambda parts: " ".join(words + " " + "".join(ms) + end for words, ms, end in parts)
)

# Citation-like text as a reader would see it, independent of the parser.
_BRACKETED = re.compile(r"[\[【]\s*\^?\s*(?:source\s*)?(-?\d[\d\s,;\-–—to]*)[\]】]", re.I)
_PAREN = re.compile(  # "(-1)" without a source word is arithmetic, not a citation
    r"\w \((source\s*-?\d{1,3}(?:[\s,\-–]+\d{1,3})*|\d{1,3}(?:[\s,\-–]+\d{1,3})*)\)"
    r"(?=[.,;:!?\n]|$)",
    re.I,
)
_FILE_PAGE = re.compile(r"\[[^\[\]\n]*\.(?:md|pdf|txt)\s*(?:,|p\.)[^\[\]\n]*\]", re.I)


def _numbers(body: str) -> set[int]:
    found = {int(n) for n in re.findall(r"(?<![\d])-?\d+", body.replace("–", "-"))}
    for first, last in re.findall(r"(\d+)\s*(?:-|–|to)\s*(\d+)", body):
        found.update(range(int(first), int(last) + 1))
    return found


@FAST
@given(TEXTS, st.integers(0, 10))
def test_no_answer_keeps_a_marker_naming_no_source(text: str, count: int) -> None:
    refs = sources(count)
    valid = set(range(1, count + 1))
    resolved = resolve(text, refs)
    answer = resolved.text
    for marker in find_markers(answer, refs):
        assert not marker.unknown and set(marker.numbers) <= valid, answer
    for body in [*_BRACKETED.findall(answer), *_PAREN.findall(answer)]:
        bare_tuple = len(re.findall(r"\d+", body)) > 1 and not body.lower().startswith("source")
        if bare_tuple and 0 in _numbers(body):
            continue  # "(0, 255)": a tuple of values, no citation
        assert _numbers(body) <= valid, answer
    for reference in _FILE_PAGE.findall(answer):
        raise AssertionError(f"{reference} stayed in {answer!r}")
    if resolved.text != " ".join(text.split()) and not resolved.used:
        assert resolved.invalid_markers or resolved.removed or resolved.markers == 0
    if any(ch.isdigit() for ch in text) and resolved.removed:
        assert resolved.warnings
