"""Why-questions: a reason asked, the sentences stating one, and a reason set apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.synthesis import ExtractiveWriter
from citesynth.synthesis.asked_first import asked_first
from citesynth.synthesis.candidates import candidate_sentences
from citesynth.synthesis.evidence import select
from citesynth.synthesis.reasons import asks_why, states_reason
from citesynth.synthesis.sources import Source
from citesynth.types import Chunk, ChunkId, DocumentId, Hit
from tests.conftest import answered_extractively, write


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Why does Starlette run my def endpoints in a thread pool?", True),
        ("In structlog, why must I not call bind() at module level?", True),
        ("How come my post_load methods ran out of order?", True),
        ("What is the purpose of the exclude argument?", True),
        ("What is `Secret` for?", True),
        ("How do I set a cookie on a response?", False),
        ("What is the default thread pool size?", False),
        ("What is the Secret class?", False),
        ("What's the point of a lazy proxy?", True),
        ("Is there a reason to prefer WriteLogger?", True),
        ("What is the reason phrase for a 404 response?", False),
        ("What is the point size of headings?", False),
        ("What does `yarn why` do?", False),
    ],
)
def test_a_question_asking_for_a_reason(question: str, asked: bool) -> None:
    assert asks_why(question) is asked


@pytest.mark.parametrize(
    "sentence",
    [
        "Starlette will run your code in a thread pool to avoid blocking the event loop.",
        "Using `TestClient` is difficult because it creates its own event loop.",
        "The middleware won't GZip them, to prevent them from being encoded twice [2].",
        "This allows for easy code reuse and configuration.",
        "This is useful for avoiding circular imports.",
        "The reason for that is to be protected against patent claims.",
        "We care a lot about performance and that's why filtering happens early.",
        "Since `sys.exc_clear` has been dropped in Python 3, there is no way to avoid it.",
        "marshmallow is inspired by Django REST Framework.",
        "The dynamic nature of a Schema leads to less code.",
        "Compress large chunks in a worker thread, keeping the event loop responsive.",
        "Not doing so would typically lead to conflicting reads across requests.",
    ],
)
def test_a_sentence_stating_a_reason(sentence: str) -> None:
    assert states_reason(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "The default thread pool size is only 40 tokens.",
        "It is an integer ranging from 1 to 9.",
        "This option exists since 3.0.",
        "Available since version 2.1 of the package.",
        "The name of the event is hard-coded to `event`.",
        "*structlog* is licensed both under the Apache License and the MIT license.",
        "Keeping a logger per module is common.",
        "Returns True if the key exists, False otherwise.",
        "Ask on the Discord server for help.",
        "Since Django 4.2, the setting is ignored.",
        "Since the last release the API has not changed.",
        "Click Save to enable the plugin.",
    ],
)
def test_a_sentence_stating_no_reason(sentence: str) -> None:
    assert not states_reason(sentence)


async def test_a_why_question_is_answered_by_the_sentence_stating_the_reason(
    engine: Engine, tmp_path: Path
) -> None:
    # structlog's bound loggers: the sentences naming level filtering fill the answer, and
    # the one saying why it happens there ranks below them.
    filler = " ".join(
        f"The bound logger's level filtering option {n} names the log levels it filters."
        for n in "abcdef"
    )
    answer = await answered_extractively(
        engine,
        tmp_path / "d",
        "bound.md",
        f"# Bound loggers\n\n{filler} We care a lot about performance and that's why "
        "level filtering happens in the bound logger.\n",
        "Why does the bound logger do level filtering?",
    )
    assert "that's why level filtering happens" in answer.answer, answer.answer


def _source(text: str) -> Source:
    chunk = Chunk(
        ChunkId("c1"), DocumentId("d1"), "license.md", "License", (), text, 0, len(text), 1, 9
    )
    return Source(1, Hit(chunk, 1.0, 0.9), text)


def test_a_reason_set_apart_goes_with_the_sentence_it_gives_the_reason_for() -> None:
    # structlog's licence page sets its reason apart with a rule; a sentence opening with
    # "This" after a blank line still stands alone.
    text = (
        "Any contribution you submit shall be dual licensed as above, without any terms.\n\n"
        "---\n\n"
        "The reason for that is to be both protected against patent claims by contributors.\n\n"
        "This paragraph opens with a pronoun and is read on its own, as written here.\n"
    )
    _, following, _, leading = candidate_sentences([_source(text)])
    reason = text.index("The reason")
    assert following[(1, 0)] == (reason, text[reason : text.index("\n", reason)])
    assert leading[(1, reason)][0] == 0
    assert (1, reason) not in following


async def test_asked_why_the_prompt_keeps_a_sources_reason_first() -> None:
    # structlog's standard-library page: with a tight budget the sentences naming the
    # question's words had left the one saying why out of the embedded model's prompt.
    text = (
        "Structlog lines and logging lines both go to stdout through the same stream. "
        "Structlog lines and logging lines use the stdout stream of the process. "
        "This is because print writes structlog lines and logging lines to stdout separately. "
        "Structlog lines may look different from logging lines on stdout."
    )
    question = "Why are structlog lines and logging lines interleaved on stdout?"
    kept = await select(question, [_source(text)], budget=30, embedder=None)
    assert "This is because print writes" in kept[0].shown, kept[0].shown
    plain = await select(
        question.replace("Why are", "Are"), [_source(text)], budget=30, embedder=None
    )
    assert "This is because" not in plain[0].shown, plain[0].shown


async def test_a_reason_of_another_subject_is_not_put_first(engine: Engine, tmp_path: Path) -> None:
    # ClapNQ: asked the purpose of the Molasses Act, the Townshend Acts' stated purpose
    # had led the answer, above the Molasses Act's own sentences.
    write(
        tmp_path / "w",
        "molasses.md",
        "# Molasses Act\n\nThe Molasses Act of 1733 imposed a tax of six pence per gallon on "
        "imports of molasses. The Molasses Act greatly affected the colonial molasses trade.\n",
    )
    write(
        tmp_path / "w",
        "townshend.md",
        "# Townshend Acts\n\nThe purpose of the Townshend Acts was to raise revenue in the "
        "colonies so that governors would remain loyal.\n",
    )
    await engine.index([tmp_path / "w"])
    engine.writer = ExtractiveWriter(engine.embedder)
    answer = await engine.answer("What was the purpose of the Molasses Act?")
    assert "Molasses Act of 1733" in answer.answer, answer.answer
    assert answer.answer.index("Molasses Act of 1733") < answer.answer.find("Townshend") or (
        "Townshend" not in answer.answer
    ), answer.answer


@pytest.mark.parametrize(
    "between",
    [
        "\n\n## Why is the parser slow on large files?\n\n",
        "\n\n```python\npool = Pool(size=10)\n```\n\n",
        "\n\n| Option | Default |\n|---|---|\n| size | 10 |\n\n",
    ],
)
def test_a_reason_past_a_heading_code_or_a_table_is_another_ones(between: str) -> None:
    # An FAQ: the reason under the next question is not the first question's reason, and
    # code or a table a sentence introduces must not be skipped over.
    text = (
        "The client retries idempotent requests up to three times by default."
        f"{between}The reason for that is the parser builds a full tree in memory first.\n"
    )
    _, following, _, leading = candidate_sentences([_source(text)])
    assert (1, 0) not in following
    assert (1, text.index("The reason")) not in leading


def _page(number: int, path: str, text: str) -> Source:
    chunk = Chunk(
        ChunkId(f"c{number}"), DocumentId(path), path, "Serializing", (), text, 0, len(text), 1, 9
    )
    return Source(number, Hit(chunk, 1.0, 0.9), text)


def test_a_reason_the_best_candidate_s_own_page_gives_is_of_what_it_speaks_of() -> None:
    """Griffe's "to preserve order" names no JSON, which the best candidate did."""
    question = "Griffe's JSON dump gives `members` as a list. Why does it use an array there?"
    page = _page(1, "serializing.md", "")
    other = _page(2, "faq.md", "")
    said = [
        (page, 0, "Each model provides `as_json`, which serializes an object into JSON."),
        (page, 80, "The members value just repeats the pattern: it is an array of maps."),
        (other, 0, "We use an array for the log because records must keep their order."),
        (page, 160, "We use an array for members instead of a map to preserve order."),
    ]
    ranked = [(0.9 - i / 10, source, start, text) for i, (source, start, text) in enumerate(said)]
    read = {(source.number, start): text for source, start, text in said}
    brought, _ = asked_first(question, ranked, (0.5, 0.3), {}, read, number=False, why=True)
    assert brought[0] == ranked[3]
    # a reason from another page must name what the best candidate names of the question
    assert brought[1:] == ranked[:3]
