"""The repair benchmark's cases: a mis-cited claim moved home, a changed one left alone."""

from __future__ import annotations

import asyncio

from benchmarks.repair_claims import cited, measure, other_passage, pool

from citesynth.verify import LexicalVerifier

TIMEOUTS = "The default timeout is five seconds for every request a client sends."
POOLS = "A connection pool keeps at most one hundred connections open at a time."
CLAIMS = [
    {
        "path": "timeouts.md",
        "heading": "Timeouts",
        "passage": TIMEOUTS,
        "claim": "Every request a client sends has a default timeout of five seconds.",
        "label": "supported",
    },
    {
        "path": "timeouts.md",
        "heading": "Timeouts",
        "passage": TIMEOUTS,
        "claim": "Every request a client sends has a default timeout of fifty seconds.",
        "label": "unsupported",
        "change": "number",
    },
    {
        "path": "pools.md",
        "heading": "Pools",
        "passage": POOLS,
        "claim": "A connection pool keeps at most one hundred connections open.",
        "label": "supported",
    },
]


def test_each_distinct_passage_is_one_source_read_under_its_heading() -> None:
    sources = pool(CLAIMS, "HTTPX")
    assert [(s.number, s.text, s.about) for s in sources] == [
        (1, TIMEOUTS, "HTTPX Timeouts"),
        (2, POOLS, "HTTPX Pools"),
    ]
    assert other_passage(sources[0], sources) is sources[1]
    assert other_passage(sources[1], sources) is sources[0]
    assert cited("It works.", [2]) == "It works [2]."
    assert cited("It works.", []) == "It works."


def test_mis_cited_claims_are_moved_home_and_a_changed_number_is_not_repaired() -> None:
    found = asyncio.run(measure(LexicalVerifier(), CLAIMS, "HTTPX"))
    assert found["recovered"] == 1.0 and found["moved_elsewhere"] == 0.0
    assert found["false_repair_cited"] == found["false_repair_uncited"] == 0.0
    assert found["false_repairs"] == []
    assert (found["supported_claims"], found["unsupported_claims"]) == (2, 1)
