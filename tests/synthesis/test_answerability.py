"""The answerability gate's reading of two sources together, for nested questions."""

from __future__ import annotations

from collections.abc import Sequence

from citesynth.synthesis.answerability import gate, pair_gate
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


async def test_two_documents_holding_one_hop_each_answer_together() -> None:
    scorer = HopScorer(pair=0.6)
    found = await gate(QUESTION, SOURCES, scorer)
    assert found is not None and found.answerable
    assert (found.best, found.partner, found.threshold) == (1, 2, 0.6)
    passages, retrieval = scorer.asked[-1]
    # pairs of different documents only, each with the lower of the two confidences
    assert len(passages) == 2 and retrieval == [0.5, 0.5]
    assert all("bizet.md" not in p for p in passages)  # the texts, not the paths, are read
    assert not any("Opéra-Comique" in p and "opera by" in p for p in passages)


async def test_without_a_pair_threshold_or_below_it_the_question_is_withheld() -> None:
    for scorer in (HopScorer(pair=None), HopScorer(pair=0.95)):
        found = await gate(QUESTION, SOURCES, scorer)
        assert found is not None and not found.answerable
        assert found.partner == 0 and found.threshold == 0.5  # the single reading is reported
    assert await pair_gate(QUESTION, SOURCES, HopScorer(pair=None)) is None


async def test_sources_of_one_document_are_never_paired() -> None:
    one_document = [SOURCES[0], SOURCES[2]]
    scorer = HopScorer(pair=0.0)
    assert await pair_gate(QUESTION, one_document, scorer) is None
    assert scorer.asked == []


async def test_a_source_answering_alone_is_read_without_pairs() -> None:
    answering = _source(4, "opera.md", "The composer of Carmen, Bizet, was born in Paris.", 0.9)
    scorer = HopScorer(pair=0.6)
    found = await gate(QUESTION, [answering, *SOURCES], scorer)
    assert found is not None and found.answerable and (found.best, found.partner) == (4, 0)
    assert len(scorer.asked) == 1  # one reading of the top sources, no pairs
