"""Any bytes in any encoding: a file loads with exact provenance or is skipped with a reason."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from citesynth.errors import LoadError
from citesynth.ingest.chunking import split
from citesynth.ingest.loaders import (
    Loaded,
    load_code,
    load_html,
    load_jsonl,
    load_markdown,
    load_rst,
    load_text,
)

LOADERS: dict[str, Callable[[str, bytes], Loaded]] = {
    "doc.md": load_markdown,
    "doc.txt": load_text,
    "doc.rst": load_rst,
    "doc.py": load_code,
    "doc.html": load_html,
    "doc.jsonl": load_jsonl,
}
ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "latin-1", "cp1252", "ascii"]


@settings(max_examples=150, deadline=None)
@given(
    text=st.text(max_size=400),
    encoding=st.sampled_from(ENCODINGS),
    noise=st.binary(max_size=24),
    at=st.floats(0, 1),
    name=st.sampled_from(sorted(LOADERS)),
)
def test_any_encoding_loads_exactly_or_is_skipped_with_a_reason(
    text: str, encoding: str, noise: bytes, at: float, name: str
) -> None:
    encoded = text.encode(encoding, errors="replace")
    cut = int(len(encoded) * at)
    data = encoded[:cut] + noise + encoded[cut:]  # stray bytes anywhere
    try:
        loaded = LOADERS[name](name, data)
    except LoadError as error:
        reason = error.reason
    else:
        reason = None
    if reason is not None:
        assert reason.strip()  # skipped, with one line saying why
        return
    for parsed in loaded.parsed:
        document = parsed.document
        for chunk in split(parsed, target_tokens=40, overlap_tokens=8):
            assert document.text[chunk.char_start : chunk.char_end] == chunk.text
            assert 1 <= chunk.start_line <= chunk.end_line
