"""Asked whether something has a limit, an answer without one is a not-found."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.answers import Claim
from citesynth.synthesis.asked import NO_NUMBER
from citesynth.synthesis.asked_first import asked_first
from citesynth.synthesis.bounds import asks_bound, states_bound_of
from citesynth.synthesis.finishing import lacks_number
from citesynth.synthesis.sources import Source
from citesynth.types import Chunk, ChunkId, DocumentId, Hit
from citesynth.verify.conflicts import Found
from tests.conftest import answered

COMBINE = (
    "# Combining data files\n\nThe combine command reads a number of separate data files, "
    "matches the data by source file name, and writes a combined data file.\n\n"
    "# Precision\n\nThe precision setting is the number of digits after the decimal point. "
    "It can be at most 6; the default is 0.\n"
)


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Is there a maximum number of data files `coverage combine` can merge?", True),
        ("Is there an upper limit for `[report] precision`?", True),
        ("Is there a default cap on parallel connections?", True),
        ("My tiny responses come back uncompressed. Is there a minimum size?", True),
        ("Is there a maximum nesting depth for recursive data?", True),
        ("Are there any limits on the number of workers?", True),
        # a means asked for, or no bound at all
        ("Is there a setting to cap the download bandwidth?", False),
        ("Is there a way to limit it?", False),
        ("What is the maximum number of connections?", False),
    ],
)
def test_a_question_asking_whether_there_is_a_bound(question: str, asks: bool) -> None:
    assert asks_bound(question) is asks


@pytest.mark.parametrize(
    ("claims", "stated"),
    [
        (["The precision setting can be at most 6 [1]."], True),
        (["The precision setting is limited to 6 digits [1]."], True),
        (["The precision setting has no limit [1]."], True),
        (["Precision values of 10 or more are refused [1]."], True),
        (["Set the precision with max_precision=6 [1]."], True),
        (["The precision setting takes precision_maxdigits=6 [1]."], True),
        (["The precision setting goes from 0 to 6 [1]."], True),
        # a number of the thing that is no bound, or a bound of something else
        (["The precision setting defaults to 0 [1]."], False),
        (["A precision of 2 shows percentages like 87.32% [1]."], False),
        (["The data file holds at most 6 contexts per line [1]."], False),
    ],
)
def test_an_answer_states_a_bound_of_the_thing(claims: list[str], stated: bool) -> None:
    question = "Is there an upper limit for the precision setting?"
    assert states_bound_of(question, claims) is stated


def test_a_bound_named_under_its_heading_or_after_a_claim_naming_the_thing() -> None:
    question = "Responses come back uncompressed. Is there a minimum size for gzip?"
    bound = "The content body is less than 200 bytes long [1]."
    assert not states_bound_of(question, [bound])
    assert states_bound_of(question, [bound], headings=["GZip middleware"])
    assert states_bound_of(question, ["GZip skips some responses [1].", bound])


def test_no_bound_asked_is_always_stated() -> None:
    assert states_bound_of("How do I combine data files?", [])


async def test_what_the_docs_say_of_the_thing_without_a_bound_is_a_not_found(
    engine: Engine, tmp_path: Path
) -> None:
    reply = (
        "The combine command reads a number of separate data files and writes a "
        "combined data file [1]."
    )
    question = "Is there a maximum number of data files the combine command can merge?"
    answer = await answered(engine, tmp_path / "d", COMBINE, reply, question)
    assert answer.not_found and NO_NUMBER in answer.warnings
    reply = "The precision setting can be at most 6 [1]."
    question = "Is there an upper limit for the precision setting?"
    answer = await answered(engine, tmp_path / "e", COMBINE, reply, question)
    assert not answer.not_found and "at most 6" in answer.answer


def test_a_disagreement_on_the_point_asked_is_its_answer() -> None:
    question = "Is there an upper limit for the precision setting?"
    claims = [Claim(text="The precision setting defaults to 0 [1].", citations=[1])]
    assert lacks_number(question, claims, [])
    sides = Found("the precision setting can be at most", ("6", "8"), (1, 2), "number")
    assert not lacks_number(question, claims, [sides])


def test_code_an_answer_shows_states_no_number_asked() -> None:
    """AnyIO's listener example (``client.receive(1024)``) had answered how long a
    connection attempt waits."""
    question = "How long does connect_tcp wait on one connection attempt before the next?"
    lead = Claim(text="To accept connections, make a listener with connect_tcp [1].", citations=[1])
    code = "async def handle(connect_tcp):\n    await connect_tcp.receive(1024)"
    shown = Claim(text=code, citations=[1], kind="code")
    assert lacks_number(question, [lead, shown], [])
    said = Claim(text="Each connect_tcp attempt waits 250 ms before the next [1].", citations=[1])
    assert not lacks_number(question, [lead, said, shown], [])


def test_bounds_are_read_in_linear_time() -> None:
    question = "Is there a maximum " + "size " * 20_000 + "of the pool?"
    started = time.perf_counter()
    asks_bound(question)
    states_bound_of(question, ["1" * 40_000, "max" + "1" * 40_000, "pool " * 20_000])
    assert time.perf_counter() - started < 2.0


def _source(number: int, text: str) -> Source:
    chunk = Chunk(
        ChunkId(f"c{number}"), DocumentId(f"d{number}"), f"{number}.rst", "Workers",
        ("Parallel type-checking",), text, 0, len(text), 1, 9,
    )  # fmt: skip
    return Source(number, Hit(chunk, 1.0, 0.9), text)


def _split(text: str) -> tuple[Source, list[str], list[int]]:
    """`text` as one source, its sentences (split at ". ") and where each starts."""
    sentences = [s + "." for s in text.removesuffix(".").split(". ")]
    return _source(1, text), sentences, [text.index(s) for s in sentences]


def test_the_extractive_writer_reaches_for_a_bound_of_the_thing_asked() -> None:
    """mypy's "at most 8 workers" scored below the floor, under sentences stating none."""
    text = (
        "Specifying ``--num-workers 0`` (default) disables parallel checking. Specifying "
        "``--num-workers auto`` selects the number of workers from the CPUs. Automatic "
        "selection uses at most 8 workers because each worker adds memory."
    )
    source, sentences, starts = _split(text)
    question = "Is there a cap on how many workers 'auto' will pick?"
    ranked = [
        (0.52, source, starts[0], sentences[0]),
        (0.50, source, starts[1], sentences[1]),
        (0.35, source, starts[2], sentences[2]),
    ]
    brought, lifted = asked_first(question, ranked, (0.40, 0.29), {}, {}, number=True, why=False)
    assert lifted == 1
    assert brought[0] == (0.40, source, starts[2], sentences[2])
    assert brought[1:] == ranked[:2]
    # below the lower bound of reach it stays where it is
    lower = [*ranked[:2], (0.2, source, starts[2], sentences[2])]
    assert asked_first(question, lower, (0.40, 0.29), {}, {}, number=True, why=False) == (
        lower,
        0,
    )
    # one in reach states a bound already: it goes first, nothing is brought in
    above = [ranked[0], (0.45, source, starts[2], sentences[2]), ranked[1]]
    assert asked_first(question, above, (0.40, 0.29), {}, {}, number=True, why=False) == (
        [above[1], above[0], above[2]],
        0,
    )


def test_a_number_below_reach_is_not_reached_for_as_a_bound_is() -> None:
    """Lifted so, "Jinja 2.1 and higher …" had answered how many templates the cache keeps."""
    text = (
        "The environment keeps the compiled modules in memory. Bytecode caches avoid parsing "
        "the templates on first use. Jinja 2.1 and higher support external bytecode caching."
    )
    source, sentences, starts = _split(text)
    question = "How many compiled templates does a Jinja Environment keep in its cache?"
    ranked = [(score, source, starts[i], sentences[i]) for i, score in enumerate((0.6, 0.5, 0.35))]
    assert asked_first(question, ranked, (0.40, 0.29), {}, {}, number=True, why=False) == (
        ranked,
        0,
    )


def test_the_sentence_writing_a_number_the_question_gives_comes_first() -> None:
    """Pyramid: the one sentence writing 418 was in reach, below two naming the module."""
    text = (
        "All pyramid.httpexceptions classes are http exception objects. A mapping of integer "
        "status code to HTTP exception class is status_map. Added HTTP 418 error code via "
        "HTTPImATeapot."
    )
    source, sentences, starts = _split(text)
    ranked = [(score, source, starts[i], sentences[i]) for i, score in enumerate((0.7, 0.6, 0.5))]
    question = "Does pyramid.httpexceptions have a class for status 418, and what is it called?"
    brought, _ = asked_first(question, ranked, (0.49, 0.3), {}, {}, number=False, why=False)
    assert brought == [ranked[2], *ranked[:2]]
    # below reach it stays where it is; a number asked for is no number given
    assert asked_first(question, ranked, (0.55, 0.3), {}, {}, number=False, why=False)[0] == ranked
    asking = "How many status codes has pyramid.httpexceptions besides 418?"
    assert asked_first(asking, ranked, (0.49, 0.3), {}, {}, number=True, why=False)[0] == ranked
    # not a number inside a longer one
    assert (
        asked_first(
            "Is there a class for 41?", ranked, (0.49, 0.3), {}, {}, number=False, why=False
        )[0]
        == ranked
    )
