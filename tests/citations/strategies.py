"""Hypothesis strategies for model output full of citation-like and random text."""

from __future__ import annotations

from hypothesis import strategies as st

from citesynth.citations.markers import SourceRef

NOISE_ALPHABET = "[]【】()0123456789,-–;: \n`^†.abcdeinorsSt&"
NOISE_TOKENS = [
    "[",
    "]",
    "【",
    "】",
    "(",
    ")",
    "```",
    "`",
    "\n",
    "\n- ",
    ". ",
    ": ",
    "? ",
    " - ",
    " to ",
    " and ",
    "Source ",
    "99999",
    " (2)",
    "(1) ",
    " (1-3)",
]
FILES = ["guide.md", "docs/guide.md", "report.pdf", "notes.txt", "extra7.md", "missing.md"]

_NUMBER = st.one_of(st.integers(1, 8), st.integers(0, 14), st.integers(0, 99_999))
_PART = st.one_of(
    _NUMBER.map(str),
    st.tuples(_NUMBER, st.sampled_from(["-", " - ", "–", " to ", "—"]), _NUMBER).map(
        lambda t: f"{t[0]}{t[1]}{t[2]}"
    ),
)
_BODY = st.tuples(
    st.lists(_PART, min_size=1, max_size=4),
    st.sampled_from([",", ", ", ";", " and ", " & ", ", source ", " ,"]),
).map(lambda t: t[1].join(t[0]))
_FORMS = [("[", "]"), ("[^", "]"), ("[Source ", "]"), ("[ ", " ]"), ("【", "】"), ("(", ")")]
_MARKERISH = st.one_of(
    st.tuples(  # well formed
        st.sampled_from(_FORMS),
        _BODY,
        st.sampled_from(["", "", "", ":0†source", "†x.md"]),
    ).map(lambda t: f" {t[0][0]}{t[1]}{t[2] if t[0][0] == '【' else ''}{t[0][1]}"),
    st.tuples(  # anything goes
        st.sampled_from(["[", "【", "(", "[^", "(Source ", "[ "]),
        _BODY,
        st.sampled_from(["", ":0†source", " ", "\n", "x"]),
        st.sampled_from(["]", "】", ")", "", "]]"]),
    ).map("".join),
)
_FILEISH = st.tuples(
    st.sampled_from(FILES),
    st.sampled_from(["", ", Page 1", ", Page 2", ", page 5", " p. 5", ", L40-58", ", line 3"]),
).map(lambda t: f"[{t[0]}{t[1]}]")

TEXTS = st.lists(
    st.one_of(
        st.text(NOISE_ALPHABET, max_size=6),
        st.sampled_from(NOISE_TOKENS),
        _MARKERISH,
        _FILEISH,
    ),
    max_size=20,
).map("".join)


def sources(count: int) -> list[SourceRef]:
    """`count` numbered sources; the first ones are files that by-file references name."""
    named = [
        SourceRef(1, "docs/guide.md", page=1),
        SourceRef(2, "docs/guide.md", page=2),
        SourceRef(3, "reports/report.pdf", page=5),
        SourceRef(4, "src/notes.txt", start_line=1, end_line=39),
        SourceRef(5, "src/notes.txt", start_line=40, end_line=80),
        SourceRef(6, "README.md"),
    ]
    return named[:count] + [SourceRef(n, f"more/extra{n}.md") for n in range(7, count + 1)]


SOURCE_LISTS = st.integers(0, 12).map(sources)
