from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from citesynth import Engine, HashingEmbedder, Hit, RetrievalOptions, SQLiteStore
from citesynth.analysis import coverage, query_terms, terms
from citesynth.retrieve.confidence import confidence
from citesynth.retrieve.fusion import convex, fuse, rrf, zscores
from tests.conftest import write

RANKED = st.lists(
    st.tuples(st.integers(0, 50), st.floats(-5, 50)), max_size=30, unique_by=lambda t: t[0]
).map(lambda pairs: sorted(pairs, key=lambda t: -t[1]))


def test_rrf_rewards_agreement() -> None:
    fused = rrf([[(1, 9.0), (2, 8.0)], [(2, 0.9), (3, 0.8)]], k=60)
    assert max(fused, key=fused.__getitem__) == 2
    assert fused[1] > fused[3]  # rank 1 in one list beats rank 2 in another


def test_convex_uses_score_margins() -> None:
    # Chunk 1 is a clear BM25 winner and a near-tie third in the dense list; chunk 2 is a
    # close second in both. Margins say 1, ranks (RRF) say 2.
    background = [(10 + i, 5.0 - i * 0.1) for i in range(17)]
    lexical = [(1, 30.0), (2, 5.5), *background]
    dense = [(2, 0.61), (3, 0.605), (1, 0.60), *[(10 + i, 0.55 - i * 0.01) for i in range(17)]]
    assert fuse(lexical, dense, method="convex", alpha=0.5, rrf_k=60)[0][0] == 1
    assert fuse(lexical, dense, method="rrf", alpha=0.5, rrf_k=60)[0][0] == 2
    assert convex(lexical, [], 0.5) == zscores(lexical)


@given(RANKED, RANKED, st.floats(0, 1))
def test_fusion_covers_the_union_and_is_deterministic(
    lexical: list[tuple[int, float]], dense: list[tuple[int, float]], alpha: float
) -> None:
    for method in ("convex", "rrf"):
        fused = fuse(lexical, dense, method=method, alpha=alpha, rrf_k=60)  # type: ignore[arg-type]
        assert {key for key, _ in fused} == {k for k, _ in lexical} | {k for k, _ in dense}
        assert fused == fuse(lexical, dense, method=method, alpha=alpha, rrf_k=60)  # type: ignore[arg-type]
        assert all(a[1] >= b[1] for a, b in pairwise(fused))


def test_zscores_of_a_constant_list_are_zero() -> None:
    assert zscores([(1, 2.0), (2, 2.0)]) == {1: 0.0, 2: 0.0}


@given(st.floats(-1, 1), st.floats(0, 1), st.floats(0, 1), st.integers(1, 500))
def test_confidence_is_a_probability(
    cosine: float, lexical: float, coverage: float, rank: int
) -> None:
    for value in (
        confidence(cosine=cosine, lexical=lexical, coverage=coverage, rank=rank),
        confidence(cosine=None, lexical=lexical, coverage=coverage, rank=rank),
    ):
        assert 0.0 <= value <= 1.0


def test_confidence_grows_with_evidence() -> None:
    weak = confidence(cosine=0.1, lexical=0.1, coverage=0.2, rank=9)
    strong = confidence(cosine=0.8, lexical=1.0, coverage=1.0, rank=1)
    assert strong > 0.5 > weak


def test_coverage_finds_words_run_together_in_identifiers() -> None:
    wanted = query_terms("What is the default timeout?")
    assert coverage(wanted, terms("It raises `TimeoutException` by default.")) == 1.0
    assert coverage(wanted, terms("The default timeouts apply.")) == 1.0
    assert coverage(query_terms("Which port?"), terms("Pick a transport.")) == 0.0  # too short
    assert coverage([], terms("anything")) == 0.0


def test_query_terms_drop_stopwords_but_never_everything() -> None:
    assert query_terms("How do I set the read timeouts?") == ["set", "read", "timeout"]
    assert query_terms("What is it?") == ["what", "is", "it"]
    assert terms("Café Timeouts") == ["cafe", "timeout"]


async def test_search_finds_the_right_chunk_with_provenance(engine: Engine, corpus: Path) -> None:
    await engine.index([corpus])
    hit = (await engine.search("what happens when the read timeout expires", k=3))[0]
    assert hit.chunk.path == "corpus/guide.md"
    assert "ReadTimeout" in hit.chunk.text
    assert hit.chunk.heading_path[-1] == "Read timeout"
    source = (corpus / "guide.md").read_text()
    assert source[hit.chunk.char_start : hit.chunk.char_end] == hit.chunk.text
    assert hit.signals.lexical_rank == 1 and hit.signals.cosine is not None
    assert 0.0 < hit.confidence <= 1.0


async def test_search_on_an_empty_index_or_empty_query(engine: Engine, corpus: Path) -> None:
    assert await engine.search("anything at all") == []
    await engine.index([corpus])
    assert await engine.search("read timeout", k=0) == []


async def test_lexical_only_search(tmp_path: Path, corpus: Path, engine: Engine) -> None:
    await engine.index([corpus])
    lexical = Engine(store=engine.store, embedder=None, root=tmp_path)
    hits = await lexical.search("exponential backoff", k=2)
    assert hits[0].chunk.path in {"corpus/notes.txt", "corpus/src/client.py"}
    assert all(hit.signals.cosine is None for hit in hits)
    assert await lexical.search("", k=3) == []
    stopwords_only = await lexical.search("is it", k=3)  # nothing else left: stopwords count
    assert all(hit.signals.lexical_rank for hit in stopwords_only)


async def test_duplicate_files_appear_once(engine: Engine, tmp_path: Path) -> None:
    text = "# Quotas\n\nEach project may create at most forty buckets per region.\n"
    write(tmp_path, "a/quotas.md", text)
    write(tmp_path, "b/quotas.md", text)
    await engine.index([tmp_path / "a", tmp_path / "b"])
    hits = await engine.search("how many buckets per region", k=5)
    assert [hit.chunk.text for hit in hits].count(hits[0].chunk.text) == 1


async def test_reranker_hook_reorders_hits(engine: Engine, corpus: Path) -> None:
    class PreferPython:
        async def rerank(self, query: str, hits: Sequence[Hit]) -> list[Hit]:
            return sorted(hits, key=lambda hit: not hit.chunk.path.endswith(".py"))

    await engine.index([corpus])
    plain = await engine.search("read timeout expires", k=3)
    reranked = await Engine(
        store=engine.store, embedder=engine.embedder, root=engine.root, reranker=PreferPython()
    ).search("read timeout expires", k=3)
    assert plain[0].chunk.path != reranked[0].chunk.path
    assert reranked[0].chunk.path == "corpus/src/client.py"


async def test_rrf_fusion_option(engine: Engine, corpus: Path) -> None:
    await engine.index([corpus])
    engine.retrieval = replace(RetrievalOptions(), fusion="rrf")
    hits = await engine.search("connection pool keeps at most ten connections", k=2)
    assert hits[0].chunk.path == "corpus/page.html"
    assert hits[0].chunk.location.startswith("corpus/page.html:L")


async def test_hashing_embedder_is_deterministic_and_unit_length() -> None:
    embedder = HashingEmbedder(64)
    first = await embedder.embed(["read timeout", "pool size"], "document")
    second = await embedder.embed(["read timeout", "pool size"], "query")
    assert (first == second).all()
    assert abs(float((first[0] ** 2).sum()) - 1.0) < 1e-5
    assert (await embedder.embed([], "query")).shape == (0, 64)


def test_a_lone_lexical_match_keeps_a_strong_fused_score() -> None:
    # Only chunk 7 holds the query word; its cosine is unremarkable.
    dense = [(key, 0.9 - key * 0.04) for key in range(20)]
    fused = fuse([(7, 11.2)], dense, method="convex", alpha=0.5, rrf_k=60)
    assert fused[0][0] == 7
    # Equal BM25 scores carry no spread either: what the list found still stands out.
    fused = fuse([(7, 3.0), (9, 3.0)], dense, method="convex", alpha=0.5, rrf_k=60)
    assert [key for key, _ in fused[:2]] == [7, 9]


async def test_the_only_chunk_with_a_rare_word_is_found(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    animals = "otters seals penguins puffins beavers foxes hares owls moose lynx wolves bears"
    for animal in [*animals.split(), "geese", "cranes", "voles", "shrews"]:
        write(docs, f"{animal}.md", f"# {animal.title()}\n\nThe {animal} rest near the water.\n")
    filler = " ".join(f"word{number}" for number in range(120))
    write(docs, "arctic.md", f"# Arctic survey\n\nWe counted walruses on the ice. {filler}\n")
    store = await SQLiteStore.open(tmp_path / "index")
    # A small hashing space, so that unrelated short chunks collide with the query's bucket
    # and out-score the long chunk on cosine alone.
    async with Engine(store=store, embedder=HashingEmbedder(32), root=docs) as engine:
        await engine.index([docs])
        hits = await engine.search("walruses", 5)
    assert "arctic.md" in [hit.chunk.path for hit in hits]


async def test_top_k_is_a_prefix_of_the_top_100(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    for copy in range(8):  # the same text at eight paths: seven are dropped as duplicates
        write(docs, f"copy{copy}.md", "# Backoff\n\nRetries use exponential backoff and jitter.\n")
    for number in range(30):
        write(docs, f"note{number}.md", f"# Note {number}\n\nRetries number {number} wait.\n")
    store = await SQLiteStore.open(tmp_path / "index")
    async with Engine(store=store, embedder=HashingEmbedder(), root=docs) as engine:
        await engine.index([docs])
        top = await engine.search("retries exponential backoff", 100)
        for k in (1, 5, 10, 20):
            assert await engine.search("retries exponential backoff", k) == top[:k]
    assert len(top) == 31
