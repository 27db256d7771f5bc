"""Answers are text: markup from a source never reaches a renderer through an answer."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from citesynth import Engine
from citesynth.errors import ModelError
from citesynth.llm.fake import ScriptedModel
from citesynth.synthesis import ExtractiveWriter, LLMWriter
from citesynth.synthesis.markup import MarkupStream, strip_markup
from citesynth.synthesis.prompts import BUILT_IN
from tests.conftest import write

FAST = settings(max_examples=300, deadline=None, database=None)
HOSTILE = """\
# Harbour bridge toll

The harbour bridge toll is 4 euros for cars <script>alert(document.cookie)</script>.
The harbour bridge toll is paid at the gate <img src=x onerror="alert(1)"> by card.
The harbour bridge toll rises in <b>May</b>, see [the table](javascript:alert(2)).
"""


@pytest.mark.parametrize(
    ("text", "clean"),
    [
        ("Toll <script>alert(1)</script>4 euros.", "Toll alert(1)4 euros."),
        ('Paid <img src=x onerror="alert(1)"> by card.', "Paid  by card."),
        ("Rises in <b>May</b>.", "Rises in May."),
        ("A comment <!-- <script> --> here.", "A comment  here."),
        ("See [the table](javascript:alert(2)).", "See [the table]."),
        ("Unclosed <img src=x onerror=alert(1)", "Unclosed ‹img src=x onerror=alert(1)"),
        ("Maths: 1 < 2 and 3 > 2, x<3.", "Maths: 1 < 2 and 3 > 2, x<3."),
        ("Code `<br>` and\n```\n<script>x</script>\n```\nstay.", None),
        ("where <chart_file_name>:: Specifies it.", "where ‹chart_file_name›:: Specifies it."),
        ("A <my_tag onclick=x>placeholder", "A placeholder"),
        # a tag naming no HTML element is a placeholder; one naming an element still goes
        ("\\documentclass[<options>]{elsarticle}", "\\documentclass[‹options›]{elsarticle}"),
        ("Run git checkout <Branch> then <P>go</P>.", "Run git checkout ‹Branch› then go."),
        ("An <options onclick=x>x</options>.", "An x."),
        (
            "Set <text material> in it, not <b class>this</b>.",
            "Set ‹text material› in it, not this.",
        ),
        # a code span closes at as many backticks as opened it (Tornado's rst), on its line
        ('The HTML ``<input type="file">`` element and `<br>`.', None),
        ("A `` ` `` then <b>x</b>.", "A `` ` `` then x."),
        # backticks that never close open no code
        ("Unclosed `<b>bold</b> here.", "Unclosed ` bold here."),
        ("Unclosed ``<script>x</script>\n\n``", "Unclosed `` x\n\n``"),
        # a span over lines is paired as a renderer pairs it, but trusted only on one line
        (
            "Set ``max_body_size\n= 1024`` on the handler <img src=x onerror=alert(1)> with ``x``.",
            "Set ``max_body_size\n= 1024`` on the handler  with ``x``.",
        ),
        ("A `span\n<div>over lines` <b>x</b>.", "A `span\nover lines` x."),
        # a fence's mark in mid-line, a backslash's backtick, a run in a span: no code
        ("Say ```<img src=x onerror=alert(1)> here", "Say ```  here"),
        ("Escaped \\`<img src=x onerror=alert(1)>` here", "Escaped \\` ` here"),
        (
            "Use `` ``` `` to open a fence.\n<img src=x onerror=alert(1)>",
            "Use `` ``` `` to open a fence.\n",
        ),
        ("``` a`b\n<img src=x onerror=alert(1)>", "``` a`b\n"),
        ("    ```\n<img src=x onerror=alert(1)>", "    ```\n"),
        # a dropped tag never joins two runs into a third: "`<img>`" stays a span
        ("`<img src=x>`<b>``", "`<img src=x>` ``"),
    ],
)
def test_markup_outside_code_is_dropped(text: str, clean: str | None) -> None:
    assert strip_markup(text) == (text if clean is None else clean)


_PIECES = st.lists(
    st.sampled_from(
        [
            "<",
            ">",
            "script",
            "img src=x",
            " onerror=",
            "/",
            "`",
            "``",
            "```",
            "\\",
            "\n\n",
            "    ",
            "> ",
            "\n",
            "](",
            ")",
            "]",
            "javascript:",
            "a",
            " ",
            "!--",
            "--",
            "b",
            "_name",
            "<b>",
            "</b>",
            "x",
        ]
    ),
    max_size=30,
).map("".join)


@FAST
@given(_PIECES, st.randoms(use_true_random=False))
def test_streaming_equals_whole_and_leaves_no_tag(text: str, rng: random.Random) -> None:
    whole = strip_markup(text)
    cuts = sorted(rng.sample(range(len(text) + 1), rng.randint(0, len(text) + 1)))
    stream = MarkupStream()
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    streamed = "".join(stream.feed(piece) for piece in pieces) + stream.close()
    assert streamed == whole
    assert not _live_html(whole), "a renderer reads no HTML in what is left"
    if "`" not in text:
        assert strip_markup(whole) == whole  # nothing left to drop
        assert "<script" not in whole and "<img" not in whole
        assert not re.search(r"\]\(\s*javascript:[^)]*\)", whole)


_COMMONMARK = MarkdownIt("commonmark", {"html": True})


def _live_html(text: str) -> list[str]:
    """The HTML a CommonMark renderer allowing HTML would pass through from `text`."""
    found, tokens = [], list(_COMMONMARK.parse(text))
    while tokens:
        token = tokens.pop()
        if token.type in {"html_inline", "html_block"}:
            found.append(token.content)
        tokens.extend(token.children or ())
    return found


def test_backticks_read_in_any_pieces_cost_linear_time() -> None:
    # a model repeating backticks: each run had been read again at every piece
    stream = MarkupStream()
    text = "`" * 100_000 + "<b>x</b>"
    streamed = "".join(stream.feed(text[i : i + 16]) for i in range(0, len(text), 16))
    assert streamed + stream.close() == strip_markup(text) == "`" * 100_000 + " x"


async def test_the_extractive_writer_copies_no_markup(engine: Engine, tmp_path: Path) -> None:
    write(tmp_path / "docs", "hostile.md", HOSTILE)
    await engine.index([tmp_path / "docs"])
    engine.writer = ExtractiveWriter(engine.embedder)
    answer = await engine.answer("What is the harbour bridge toll for cars?", cache=False)
    assert "toll" in answer.answer
    for bad in ("<script", "<img", 'onerror="', "<b>", "javascript:"):
        assert bad not in answer.answer


async def test_a_model_that_copies_markup_streams_none(engine: Engine, tmp_path: Path) -> None:
    write(tmp_path / "docs", "hostile.md", HOSTILE)
    await engine.index([tmp_path / "docs"])
    reply = (
        'The toll is 4 euros <script>alert(1)</script> [1]. Paid <img src=x onerror="x"> here [1].'
    )
    engine.writer = LLMWriter(ScriptedModel([reply], piece_chars=3), BUILT_IN, timeout=5.0)
    events = [event async for event in engine.ask("harbour bridge toll", cache=False)]
    streamed = "".join(getattr(event, "text", "") for event in events if event.kind == "token")
    answer = events[-1].answer  # type: ignore[union-attr]
    for text in (streamed, answer.answer):
        assert "<script" not in text and "<img" not in text and "onerror" not in text


async def test_the_fallback_quotes_passages_without_markup(engine: Engine, tmp_path: Path) -> None:
    write(tmp_path / "docs", "hostile.md", HOSTILE)
    await engine.index([tmp_path / "docs"])
    engine.writer = LLMWriter(ScriptedModel([ModelError("down")]), BUILT_IN, timeout=5.0)
    answer = await engine.answer("harbour bridge toll", cache=False)
    assert answer.fallback is not None and "harbour bridge toll" in answer.answer
    assert "<script" not in answer.answer and "<img" not in answer.answer


async def test_an_answer_opening_with_a_refusal_keeps_only_the_answer(
    engine: Engine, tmp_path: Path
) -> None:
    """A small model may write "Not found in the sources." and then answer with citations."""
    write(tmp_path / "docs", "toll.md", HOSTILE)
    await engine.index([tmp_path / "docs"])
    reply = (
        "Not found in the sources.\n\n[1] The harbour bridge toll is 4 euros for cars [1]. "
        "The harbour bridge toll is paid at the gate by card [1]. The harbour bridge toll "
        "rises in May [1]."
    )
    for written in (reply, reply.replace("[1] The", "【1】【1】 The", 1)):
        engine.writer = LLMWriter(ScriptedModel([written]), BUILT_IN, timeout=5.0)
        answer = await engine.answer("harbour bridge toll", cache=False)
        assert not answer.not_found
        assert answer.answer.startswith("The harbour bridge toll is 4 euros for cars ["), written
        assert "Not found" not in answer.answer
