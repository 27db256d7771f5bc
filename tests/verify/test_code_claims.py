"""Code an answer shows is a claim of its own, checked as a quotation of what it cites."""

from __future__ import annotations

from citesynth.citations.markers import Marker, MarkerStream, SourceRef, find_markers
from citesynth.citations.resolve import factual_sentences
from citesynth.ingest.fences import fenced_blocks
from citesynth.verify.base import Passage
from citesynth.verify.claims import split_claims
from citesynth.verify.code import NOT_QUOTED, code_verdict
from citesynth.verify.lexical import LexicalVerifier
from citesynth.verify.review import review

SOURCE = (
    "Set the font in the typography section, as shown in the following example:\n\n"
    "```yaml\napp:\n  branding:\n    fontFamily:   Times New Roman\n\n    fontSize: 14\n```\n"
)


def test_code_is_supported_only_when_a_source_holds_its_lines_in_a_row() -> None:
    verdict = code_verdict("app:\n  branding:\n    fontFamily: Times New Roman", ["x", SOURCE])
    assert verdict.label == "supported" and verdict.score == 1.0
    (span,) = verdict.spans
    assert span.passage == 1
    assert SOURCE[span.start : span.end] == "app:\n  branding:\n    fontFamily:   Times New Roman"
    blank_lines_aside = code_verdict("fontFamily: Times New Roman\nfontSize: 14\n…", [SOURCE])
    assert blank_lines_aside.supported  # the source's blank line and the cut mark do not count
    changed = code_verdict("app:\n  branding:\n    fontFamily: Arial", [SOURCE])
    assert changed.label == "unsupported" and changed.reasons == (NOT_QUOTED,)
    reordered = code_verdict("fontSize: 14\nfontFamily: Times New Roman", [SOURCE])
    assert not reordered.supported
    assert not code_verdict("\n\n", [SOURCE]).supported


def test_a_code_block_cites_what_its_introducing_sentence_cites_and_holds_no_sentences() -> None:
    answer = (
        "Set the font as shown in the following example: [2]\n\n"
        "```yaml\napp:\n  branding:\n    fontFamily: Times New Roman. This is not a sentence.\n```"
        "\n\n**Another document**\n\n```bash\necho no introduction here\n```\n"
    )
    claims = split_claims(answer)
    assert [(c.code, c.citations) for c in claims] == [(False, (2,)), (True, (2,)), (True, ())]
    assert claims[1].text.startswith("app:\n") and "```" not in claims[1].text
    assert all("This is not a sentence" not in text for text, _ in factual_sentences(answer))


async def test_review_keeps_quoted_code_and_never_repairs_invented_code() -> None:
    passages = [
        Passage(1, "Unrelated text about apples and pears in the valley orchard.", "a.md"),
        Passage(2, SOURCE, "theme.md"),
    ]
    answer = (
        "Set the font in the typography section, as shown in the following example: [2]\n\n"
        "```yaml\napp:\n  branding:\n    fontFamily: Times New Roman\n```\n\n"
        "Or write it like this: [1]\n\n```yaml\nfontFamily: Comic Sans\n```\n"
    )
    found = await review(answer, passages, LexicalVerifier())
    codes = [c for c in found.claims if c.claim.code]
    assert [c.label for c in codes] == ["supported", "unsupported"]
    assert codes[0].precise == (2,) and codes[1].claim.citations == (1,)
    assert found.text == answer and not found.repairs


def test_a_one_line_block_the_source_writes_inline_is_quoted() -> None:
    # Flask's server page gives the command inline; the embedded model showed it as a block.
    source = "Either stop the other program, or use\n``flask run --port 5001`` to pick a port."
    found = code_verdict("flask run  --port 5001", [source])
    assert found.label == "supported"
    span = found.spans[0]
    assert source[span.start : span.end] == "flask run --port 5001"
    assert code_verdict("flask run --port 5002", [source]).label == "unsupported"
    assert code_verdict("flask run\n--port 5001", [source]).label == "unsupported"  # two lines
    assert code_verdict("flask run", [source]).label == "unsupported"  # part of the span


def test_indentation_is_part_of_the_code_checked() -> None:
    source = "```yaml\napp:\n  branding:\n    font: Arial\n```"
    assert code_verdict("app:\n  branding:\n    font: Arial", [source]).supported
    assert code_verdict("  app:\n    branding:\n      font: Arial", [source]).supported  # moved
    assert not code_verdict("app:\nbranding:\nfont: Arial", [source]).supported  # flattened
    python = "if ready:\n    start()\nstop()"
    assert not code_verdict("if ready:\n    start()\n    stop()", [python]).supported


def test_inline_triple_backticks_open_no_block_and_markers_in_any_fence_are_code() -> None:
    inline = "```js``` fences get highlighting [1].\nThe renderer numbers lines [1].\n"
    assert fenced_blocks(inline) == []
    assert [c.text for c in split_claims(inline)] == [
        "```js``` fences get highlighting.",
        "The renderer numbers lines.",
    ]
    refs = [SourceRef(1, "a.md"), SourceRef(2, "b.md")]
    tildes = "Like this [1]:\n\n~~~\nfirst = items[2]\n~~~\n"
    assert [m.raw for m in find_markers(tildes, refs)] == ["[1]"]
    longer = "Like this [1]:\n\n````markdown\n```python\nfirst = items[2]\n```\n````\nThen [2]."
    assert [m.raw for m in find_markers(longer, refs)] == ["[1]", "[2]"]


def test_a_sentence_introducing_code_is_a_claim_even_ending_in_a_colon() -> None:
    answer = "Hamsters power the typography engine, as in this example [1]:\n\n```\nx = 1\n```"
    claims = split_claims(answer)
    assert [(c.code, c.text) for c in claims] == [
        (False, "Hamsters power the typography engine, as in this example:"),
        (True, "x = 1"),
    ]
    assert split_claims("The options are the following four [1]:\n\n- a\n- b") == []


def test_the_marker_scanner_and_the_block_reader_agree_on_odd_line_starts() -> None:
    refs = [SourceRef(1, "a.md"), SourceRef(2, "b.md")]
    text = "a\n\r```\n[1]\n```\n[2]"  # a lone CR starts no fence; the later fence stays open
    blocks = fenced_blocks(text)
    found = [m.start for m in find_markers(text, refs)]
    assert found == [text.index("[1]")]
    assert all(not (start <= at < end) for at in found for start, end in blocks)
    stream = MarkerStream(refs)
    pieces = [text[i : i + 2] for i in range(0, len(text), 2)]
    items = [item for piece in pieces for item in stream.feed(piece)] + stream.close()
    assert [i.start for i in items if isinstance(i, Marker)] == found


def test_a_long_line_opening_with_backticks_is_judged_whole_when_streamed() -> None:
    refs = [SourceRef(1, "a.md"), SourceRef(2, "b.md")]
    text = (
        '```json {"k": "' + "v" * 250 + '"}``` is the config [1].\n\nMore [2].\n\n'
        "```\nx = a[1]\n```\nEnd [1]."
    )
    whole = [(m.start, m.raw) for m in find_markers(text, refs)]
    assert [raw for _, raw in whole] == ["[1]", "[2]", "[1]"]  # a[1] in the code is no citation
    stream = MarkerStream(refs)
    items = [item for i in range(0, len(text), 4) for item in stream.feed(text[i : i + 4])]
    items += stream.close()
    assert [(i.start, i.raw) for i in items if isinstance(i, Marker)] == whole
    assert "".join(i.raw if isinstance(i, Marker) else i.text for i in items) == text


def test_a_sentence_that_only_shows_inline_code_is_a_code_claim() -> None:
    from citesynth.citations.resolve import shows_code

    answer = (
        "- Define your routes for version 1 [3].\n"
        '  - Example: `@app.get("/v1/resource")`\n'
        "  - Signature: `url_for(name, **path_params) -> URL` [2].\n\n"
        "Example: `app.get_schema()`"
    )
    claims = split_claims(answer)
    assert [(c.text, c.citations, c.code, c.inline) for c in claims] == [
        ("Define your routes for version 1.", (3,), False, False),
        ('@app.get("/v1/resource")', (3,), True, True),  # cites what the sentence above cites
        ("url_for(name, **path_params) -> URL", (2,), True, True),
        ("app.get_schema()", (), True, True),  # a paragraph of its own: nothing above to cite
    ]
    assert answer[claims[1].start : claims[1].end] == '- Example: `@app.get("/v1/resource")`'
    for sentence in (
        "Defaults to `9` [6].",  # a default stated: a sentence, checked as one
        "Use `a` or `b` [1].",  # two spans
        "See also `performance`.",  # a pointer at a page
        "Is it `x`?",
        "Example: `x`:",
        "You can set it with `Client(timeout=5)` in the constructor [1].",
    ):
        assert not shows_code(sentence), sentence


async def test_inline_code_is_checked_as_a_quotation() -> None:
    passages = [Passage(1, "Build a URL with ``request.url_for('home')`` in a view.", "u.md")]
    answer = "Example: `request.url_for('home')` [1].\n\nExample: `app.url_for('home')` [1]."
    found = await review(answer, passages, LexicalVerifier())
    assert [(c.claim.text, c.label) for c in found.claims] == [
        ("request.url_for('home')", "supported"),
        ("app.url_for('home')", "unsupported"),
    ]
