"""JSON Lines splitting: records are separated by newlines only, with exact line numbers."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from citesynth.ingest.jsonl import BadLine, Record, read_records

# Characters `str.splitlines` treats as line breaks that JSON strings may hold raw.
_SEPARATORS = ["\u2028", "\u2029", "\x85"]


def test_raw_unicode_line_separators_stay_inside_their_record() -> None:
    lines = [
        json.dumps({"_id": "a", "text": "one\u2028two"}, ensure_ascii=False),
        json.dumps({"_id": "b", "text": "three\x85four"}, ensure_ascii=False),
        "{broken",
    ]
    items = list(read_records("\r\n".join(lines) + "\r\n"))
    assert items == [
        Record("a", "", "one\u2028two", None),
        Record("b", "", "three\x85four", None),
        BadLine(3, "invalid JSON (Expecting property name enclosed in double quotes)"),
    ]


texts = st.lists(
    st.text(alphabet=st.sampled_from(["a", " ", *_SEPARATORS]), min_size=1, max_size=12).filter(
        str.strip
    ),
    min_size=1,
    max_size=6,
)


@given(texts=texts, bad_at=st.integers(min_value=0, max_value=6), crlf=st.booleans())
def test_records_with_any_separator_keep_their_text_and_line_numbers(
    texts: list[str], bad_at: int, crlf: bool
) -> None:
    lines = [
        json.dumps({"_id": str(i), "text": t}, ensure_ascii=False) for i, t in enumerate(texts)
    ]
    bad_at = min(bad_at, len(lines))
    lines.insert(bad_at, "not json")
    items = list(read_records(("\r\n" if crlf else "\n").join(lines)))
    assert [item for item in items if isinstance(item, BadLine)] == [
        BadLine(bad_at + 1, "invalid JSON (Expecting value)")
    ]
    assert [item.text for item in items if isinstance(item, Record)] == texts
