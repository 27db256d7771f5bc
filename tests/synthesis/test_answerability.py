"""The answerability gate's reading of two sources together, for nested questions."""

from __future__ import annotations

from collections.abc import Sequence

from citesynth.synthesis.answerability import (
    Gate,
    asked_alone,
    gate,
    pair_gate,
    unanswerable,
    unheard_terms,
)
from citesynth.synthesis.finishing import Header
from citesynth.synthesis.sources import Source
from citesynth.types import Chunk, ChunkId, DocumentId, Hit

QUESTION = "Where was the composer of Carmen born?"


class HopScorer:
    """Scores a passage as answering when it states both hops; keeps what it was asked."""

    answerable_threshold = 0.5

    def __init__(self, pair: float | None) -> None:
        self.answerable_pair_threshold = pair
        self.asked: list[tuple[list[str], list[float]]] = []

    async def answerable(
        self, question: str, passages: Sequence[str], retrieval: Sequence[float]
    ) -> list[float]:
        self.asked.append((list(passages), list(retrieval)))
        return [0.9 if "composer" in p and "born" in p else 0.1 for p in passages]

    async def answerable_together(
        self, question: str, pairs: Sequence[tuple[str, str]], retrieval: Sequence[float]
    ) -> list[float]:
        return await self.answerable(question, [f"{a} {b}" for a, b in pairs], retrieval)


def _source(number: int, path: str, text: str, confidence: float) -> Source:
    chunk = Chunk(
        ChunkId(f"{path}#{number}"), DocumentId(path), path, path, (), text, 0, len(text), 1, 1
    )
    return Source(number, Hit(chunk, confidence, confidence), text)


SOURCES = [
    _source(1, "carmen.md", "Carmen is an opera by the composer Georges Bizet.", 0.8),
    _source(2, "bizet.md", "Georges Bizet was born in Paris in 1838.", 0.5),
    _source(3, "carmen.md", "Carmen premiered at the Opéra-Comique in 1875.", 0.7),
]
FIFTH = _source(5, "paris.md", "He was born in Paris, the capital.", 0.2)
"""A source that would answer with the first, below the top `PAIRED`."""


async def test_two_documents_holding_one_hop_each_answer_together() -> None:
    scorer = HopScorer(pair=0.6)
    found = await gate(QUESTION, SOURCES, scorer)
    assert found is not None and found.answerable
    assert (found.best, found.partner, found.threshold) == (1, 2, 0.6)
    passages, retrieval = scorer.asked[-1]
    # pairs of different documents only: (1, 2) and (2, 3), never (1, 3) of carmen.md;
    # each with the lower of its two confidences (0.8 and 0.5; 0.5 and 0.7)
    assert passages == [
        f"{SOURCES[0].chunk.text} {SOURCES[1].chunk.text}",
        f"{SOURCES[1].chunk.text} {SOURCES[2].chunk.text}",
    ]
    assert retrieval == [0.5, 0.5]


async def test_only_the_top_sources_are_paired() -> None:
    more = [_source(n, "carmen.md", f"Carmen, act {n}, is set in Seville.", 0.6) for n in (4, 6)]
    top = [SOURCES[0], SOURCES[2], *more]  # four of carmen.md, then FIFTH
    scorer = HopScorer(pair=0.6)
    found = await gate(QUESTION, [*top, FIFTH], scorer)
    assert found is not None and not found.answerable  # FIFTH is read alone, never paired
    assert scorer.asked == [([s.chunk.text for s in [*top, FIFTH]], [0.8, 0.7, 0.6, 0.6, 0.2])]
    assert (await gate(QUESTION, [SOURCES[0], FIFTH], scorer)) == Gate(0.9, 0.6, 1, 5)


async def test_without_a_pair_threshold_or_below_it_the_question_is_withheld() -> None:
    for scorer in (HopScorer(pair=None), HopScorer(pair=0.95)):
        found = await gate(QUESTION, SOURCES, scorer)
        assert found is not None and not found.answerable
        assert found.partner == 0 and found.threshold == 0.5  # the single reading is reported
    assert await pair_gate(QUESTION, SOURCES, HopScorer(pair=None)) is None


async def test_the_not_found_warning_says_what_each_reading_scored() -> None:
    alone = await gate(QUESTION, SOURCES, HopScorer(pair=None))
    paired = await gate(QUESTION, SOURCES, HopScorer(pair=0.95))
    assert alone is not None and alone.together is None
    assert paired is not None and paired.together is not None
    header = Header.of(QUESTION, "extractive", "quick")
    [warning] = unanswerable(header, SOURCES, paired).warnings
    assert "0.10 for [1], below 0.50" in warning
    assert "read two at a time, 0.90 for [1] with [2], below 0.95" in warning
    [single] = unanswerable(header, SOURCES, alone).warnings
    assert "two at a time" not in single


async def test_sources_of_one_document_are_never_paired() -> None:
    one_document = [SOURCES[0], SOURCES[2]]
    scorer = HopScorer(pair=0.0)
    assert await pair_gate(QUESTION, one_document, scorer) is None
    assert scorer.asked == []


async def test_a_compound_question_is_read_part_by_part_before_pairs() -> None:
    question = "Who composed Carmen, and where was the composer of Carmen born?"
    scorer = HopScorer(pair=0.6)
    found = await gate(question, SOURCES, scorer)
    assert found is not None and found.answerable and found.partner == 2
    # the whole question, each of its two parts, then the pairs
    assert len(scorer.asked) == 4
    assert await gate(question, SOURCES, HopScorer(pair=0.6), pairs=False) == Gate(0.1, 0.5, 1)


async def test_a_source_answering_alone_is_read_without_pairs() -> None:
    answering = _source(4, "opera.md", "The composer of Carmen, Bizet, was born in Paris.", 0.9)
    scorer = HopScorer(pair=0.6)
    found = await gate(QUESTION, [answering, *SOURCES], scorer)
    assert found is not None and found.answerable and (found.best, found.partner) == (4, 0)
    assert len(scorer.asked) == 1  # one reading of the top sources, no pairs


class HowToScorer:
    """Scores every passage 0.3; a how-to threshold of its own below its threshold."""

    answerable_threshold = 0.5

    def __init__(self, how_to: float | None) -> None:
        self.answerable_how_to_threshold = how_to

    async def answerable(
        self, question: str, passages: Sequence[str], retrieval: Sequence[float]
    ) -> list[float]:
        return [0.3 for _ in passages]


async def test_a_how_to_question_reads_the_scorers_how_to_threshold() -> None:
    how_to = "How do I find out where the composer of Carmen was born?"
    found = await gate(how_to, SOURCES, HowToScorer(how_to=0.2))
    assert found is not None and found.answerable and found.threshold == 0.2
    # other questions, or a scorer without one, read the threshold
    for question, scorer in ((QUESTION, HowToScorer(0.2)), (how_to, HowToScorer(None))):
        withheld = await gate(question, SOURCES, scorer)
        assert withheld is not None and not withheld.answerable and withheld.threshold == 0.5
    # never above the threshold
    higher = await gate(how_to, SOURCES, HowToScorer(how_to=0.9))
    assert higher is not None and higher.threshold == 0.5
    # a term no chunk of the index holds keeps the threshold
    unheard = await gate(how_to, SOURCES, HowToScorer(how_to=0.2), unheard=("carmen",))
    assert unheard is not None and not unheard.answerable and unheard.threshold == 0.5


class Shares:
    """A store that counts terms: only "opera" and "compos" are held."""

    def __init__(self) -> None:
        self.asked: list[list[str]] = []

    async def term_shares(self, terms: Sequence[str]) -> dict[str, float]:
        self.asked.append(list(terms))
        return {t: 0.1 if t in {"opera", "compos"} else 0.0 for t in terms}


async def test_unheard_terms_are_those_no_chunk_holds() -> None:
    store = Shares()
    found = await unheard_terms("How do I pickle the composer's opera?", store)
    assert found == ("pickl",)
    assert await unheard_terms("Who composed the opera?", store) == ()
    assert await unheard_terms("Does the opera use Celery?", store) == ("use", "celeri")
    assert await unheard_terms("How do I pickle it?", object()) == ()  # a store that cannot
    assert len(store.asked) == 3


async def test_a_question_pasted_with_a_page_counts_its_first_terms_only() -> None:
    store = Shares()
    question = "Does " + " ".join(f"word{n}x" for n in range(5_000)) + " work?"
    found = await unheard_terms(question, store)
    assert len(store.asked[0]) == 64 and len(found) == 64


class SceneScorer:
    """Scores a passage as answering only a question read without the user's scene."""

    answerable_threshold = 0.5

    def __init__(self) -> None:
        self.questions: list[str] = []

    async def answerable(
        self, question: str, passages: Sequence[str], retrieval: Sequence[float]
    ) -> list[float]:
        self.questions.append(question)
        scene = "servers" in question
        return [0.1 if scene or "3.7" not in p else 0.8 for p in passages]


async def test_the_question_a_scene_leads_up_to_is_read_on_its_own() -> None:
    # Jinja's docs: "Jinja supports Python 3.7 and newer." scored 0.05 against the whole
    python = [_source(1, "intro.rst", "Jinja supports Python 3.7 and newer.", 0.6)]
    scene = (
        "Our servers still run an older Python. What is the minimum Python version Jinja supports?"
    )
    scorer = SceneScorer()
    found = await gate(scene, python, scorer)
    assert found is not None and found.answerable
    assert scorer.questions == [scene, "What is the minimum Python version Jinja supports?"]
    # a question leaning on its scene is read whole only
    leaning = "Our servers still run Jinja on an older Python. Which version does it support?"
    leaned = await gate(leaning, python, SceneScorer())
    assert leaned is not None and not leaned.answerable


def test_a_question_is_read_alone_only_when_it_stands_alone() -> None:
    assert asked_alone("We use attrs. Which decorator makes a class frozen for good?") == (
        "Which decorator makes a class frozen for good?"
    )
    # "there" asking whether something exists leans on nothing before it
    assert (
        asked_alone(
            "My logs fill up with blank lines. Is there a setting that strips trailing newlines?"
        )
        == "Is there a setting that strips trailing newlines?"
    )
    assert asked_alone("We use Jinja. Are there filters that escape JavaScript strings?") == (
        "Are there filters that escape JavaScript strings?"
    )
    for whole in (
        "Our cache lives in /tmp. Can the bytecode cache keep its files there instead?",
        "What is the minimum Python version Jinja supports?",  # one sentence
        "CodeHilite guesses wrong. Which option turns that detection off?",  # "that" detection
        "I use loop.cycle(). Is there a cap on how many values I can pass to it?",
        "We sandbox templates. Which environment class should I use?",  # three terms
        "Is it fast? Which Python version does Jinja support at least?",  # asks twice
        "Our servers run an older Python.",  # asks nothing
    ):
        assert asked_alone(whole) is None, whole
