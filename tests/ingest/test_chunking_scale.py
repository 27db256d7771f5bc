"""Chunking stays linear in the input and within its size target, however many sections."""

from __future__ import annotations

import gc
import time

from citesynth.analysis import estimate_tokens
from citesynth.ingest.chunking import split
from citesynth.ingest.loaders import load_markdown
from citesynth.types import Chunk


def chunks_of(markdown: str, target: int = 200) -> list[Chunk]:
    (parsed,) = load_markdown("many.md", markdown.encode()).parsed
    return split(parsed, target_tokens=target, overlap_tokens=30)


def headings(count: int) -> str:
    return "".join(f"# Heading {number}\n\n" for number in range(count))


def seconds(*markdowns: str, rounds: int = 5) -> list[float]:
    """The best of `rounds` timings of chunking each text (parsing is markdown-it's, apart).

    Process CPU time, not wall time: other processes on the shared cores do not count. The
    texts are timed in turn, round after round, so that both meet the same conditions (a
    clean CI run once measured 16x when the larger text was timed after the smaller one);
    the best is the least noisy. The collector is paused because its passes grow with
    everything other tests left alive, not with this input.
    """
    parsed = [load_markdown("many.md", text.encode()).parsed[0] for text in markdowns]
    best = [float("inf")] * len(parsed)
    gc.disable()
    try:
        for _ in range(rounds):
            for index, item in enumerate(parsed):
                started = time.process_time()
                split(item, target_tokens=200, overlap_tokens=30)
                best[index] = min(best[index], time.process_time() - started)
    finally:
        gc.enable()
    return best


def test_ten_times_the_headings_take_nowhere_near_a_hundred_times_as_long() -> None:
    """Linear chunking takes about 10x as long for 10x the headings, quadratic about 100x.

    The bound sits between the two, at their geometric middle (~31x): idle machines measure
    8-12x, and clean CI runs on busy shared cores measured 16x (caches and the scheduler weigh
    more on the larger text), so a tighter bound fails on noise rather than on a regression.
    """
    small, large = seconds(headings(1_000), headings(10_000))
    assert large <= 31 * small, (small, large)


def test_many_tiny_sections_are_packed_into_several_chunks_within_the_target() -> None:
    for markdown in (
        headings(2_000),
        "".join(f"## Step {n}\n\nTurn the dial.\n\n" for n in range(2_000)),
    ):
        chunks = chunks_of(markdown, target=100)
        assert 10 < len(chunks) < 2_000
        assert max(estimate_tokens(chunk.text) for chunk in chunks) <= 100
        # Every heading still lands in a chunk.
        assert sum(chunk.text.count("#") for chunk in chunks) >= markdown.count("#")


def test_a_heading_moves_on_with_the_text_that_follows_it() -> None:
    body = " ".join(["word"] * 70)
    chunks = chunks_of(f"# Intro\n\n{body}\n\n## Details\n\n{body}\n", target=100)
    assert chunks[-1].text.startswith("## Details")
