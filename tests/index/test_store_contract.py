"""The store contract: what every backend must do, run against each one through `get_store`.

A new backend adds one `Backend` to `BACKENDS`: a name and a way to make a fresh, empty
location for one test (a folder, a database schema). Nothing else here is backend-specific.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from citesynth import HashingEmbedder, StoreError, StoreLockedError
from citesynth.index.store import FileState, FileVersion, Store, index_text
from citesynth.index.stores import get_store
from citesynth.indexing import record
from citesynth.ingest.text import content_hash
from citesynth.types import Chunk, ChunkId, Document, DocumentId, DocumentKind, Reference


@dataclass(frozen=True)
class Backend:
    """A store backend under test: how to make a fresh location `get_store` opens.

    `location` gets a fresh folder and the test's request (to ask for a server fixture);
    `one_writer` says whether `writing()` admits one writer at a time (SQLite) or lets
    several in, each `write` locking only the files it replaces (PostgreSQL).
    """

    name: str
    location: Callable[[Path, pytest.FixtureRequest], str]
    one_writer: bool = True


BACKENDS = [
    Backend("sqlite", lambda folder, _: f"sqlite:{folder / 'index'}"),
    Backend(
        "postgresql",
        lambda _, request: str(request.getfixturevalue("postgres_url")),
        one_writer=False,
    ),
]

MODEL = "hashing-64"


@pytest.fixture(params=BACKENDS, ids=lambda backend: backend.name)
def backend(request: pytest.FixtureRequest) -> Backend:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def location(backend: Backend, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return backend.location(tmp_path, request)


@pytest.fixture
async def store(location: str) -> AsyncIterator[Store]:
    opened = await get_store(location)
    yield opened
    await opened.close()


def version(
    display: str, paragraphs: Sequence[tuple[str, str]], *, title: str = "Doc", size: int = 0
) -> FileVersion:
    """One Markdown-like document, one chunk per `(heading, text)` paragraph, exact offsets."""
    text = "\n\n".join(body for _, body in paragraphs)
    document = Document(
        id=DocumentId(content_hash(text)),
        path=display,
        title=title,
        kind=DocumentKind.MARKDOWN,
        text=text,
    )
    records = []
    start = 0
    for ordinal, (heading, body) in enumerate(paragraphs):
        end = start + len(body)
        chunk = Chunk(
            id=ChunkId(f"c:{display}:{ordinal}"),
            document_id=document.id,
            path=display,
            title=title,
            heading_path=(title, heading) if heading else (title,),
            text=body,
            char_start=start,
            char_end=end,
            start_line=text.count("\n", 0, start) + 1,
            end_line=text.count("\n", 0, end) + 1,
        )
        records.append(record(chunk))
        start = end + 2
    state = FileState(
        path=f"/corpus/{display}",
        display=display,
        size=size or len(text),
        mtime_ns=1,
        content_hash=content_hash(text),
        signature="test",
    )
    return FileVersion(state, (document,), (tuple(records),))


GUIDE = version(
    "docs/guide.md",
    [
        ("", "The client library sends requests to the billing gateway."),
        ("Retries", "Retries use exponential backoff; see [Limits](limits.md#caps)."),
        ("Glossary", "**Settlement window** is the period in which a payment can be reversed."),
    ],
    title="Guide",
)
LIMITS = version(
    "docs/limits.md",
    [
        ("Caps", "Waits double after every attempt, up to a cap of thirty seconds."),
        ("Pools", "The connection pool keeps at most ten connections per host."),
    ],
    title="Limits",
)


def ids(file: FileVersion) -> list[ChunkId]:
    return [item.chunk.id for chunks in file.chunks for item in chunks]


async def embed_all(store: Store) -> int:
    embedder = HashingEmbedder(64)
    done = 0
    async for page in store.pending_texts(MODEL, 2):
        assert 0 < len(page) <= 2
        vectors = await embedder.embed([item.text for item in page], "document")
        await store.put_vectors(MODEL, [item.text_hash for item in page], vectors)
        done += len(page)
    return done


async def test_an_empty_location_is_refused_without_create(location: str) -> None:
    with pytest.raises(StoreError, match=r"no index at .*run `citesynth index PATH` first"):
        await get_store(location, create=False)
    created = await get_store(location)
    await created.write([GUIDE], [])
    await created.close()
    reopened = await get_store(location, create=False)
    assert (await reopened.stats()).files == 1
    await reopened.close()


async def test_write_replaces_and_removes_files(store: Store) -> None:
    first = await store.write([GUIDE, LIMITS], [])
    assert (first.chunks_added, first.chunks_removed) == (5, 0)
    assert set(await store.file_states()) == {"/corpus/docs/guide.md", "/corpus/docs/limits.md"}
    assert await store.file_states() == {
        "/corpus/docs/guide.md": GUIDE.state,
        "/corpus/docs/limits.md": LIMITS.state,
    }

    new_limits = version("docs/limits.md", [("Caps", "Waits are now fixed at two seconds.")])
    second = await store.write([new_limits], [])
    assert (second.chunks_added, second.chunks_removed) == (1, 2)
    assert await store.chunks(ids(LIMITS)) == {
        ChunkId("c:docs/limits.md:0"): new_limits.chunks[0][0].chunk
    }

    third = await store.write([], ["/corpus/docs/limits.md", "/corpus/nowhere.md"])
    assert (third.chunks_added, third.chunks_removed) == (0, 1)
    assert list(await store.file_states()) == ["/corpus/docs/guide.md"]
    assert await store.chunks(ids(new_limits)) == {}
    assert await store.lexical_search("fixed two seconds", 5) == []


async def test_a_failed_write_changes_nothing(store: Store) -> None:
    await store.write([GUIDE], [])
    generation = await store.generation()
    clash = version("docs/other.md", [("", "Other text.")])
    clash = FileVersion(clash.state, clash.documents, (LIMITS.chunks[0][:1],))  # id twice
    with pytest.raises(StoreError, match="nothing was written"):
        await store.write([LIMITS, clash], ["/corpus/docs/guide.md"])
    assert list(await store.file_states()) == ["/corpus/docs/guide.md"]
    assert await store.generation() == generation
    assert (await store.stats()).chunks == 3
    assert [cid for cid, _ in await store.lexical_search("billing gateway", 5)] == [ids(GUIDE)[0]]


async def test_touch_records_size_and_mtime_without_a_new_generation(store: Store) -> None:
    await store.write([GUIDE], [])
    generation = await store.generation()
    moved = FileState(GUIDE.state.path, "moved/guide.md", 999, 42, GUIDE.state.content_hash, "test")
    await store.touch([moved])
    assert await store.file_states() == {GUIDE.state.path: moved}
    assert await store.generation() == generation


async def test_chunks_by_id_keep_exact_provenance(store: Store) -> None:
    await store.write([GUIDE, LIMITS], [])
    wanted = [*ids(GUIDE), ChunkId("c:not-indexed")]
    found = await store.chunks(wanted)
    assert found == {item.chunk.id: item.chunk for item in GUIDE.chunks[0]}
    for chunk_id in ids(GUIDE):
        located = await store.chunk_in_document(chunk_id)
        assert located is not None
        chunk, document = located
        assert chunk == found[chunk_id]
        assert document == GUIDE.documents[0]
        assert document.text[chunk.char_start : chunk.char_end] == chunk.text
    assert await store.chunk_in_document("c:not-indexed") is None


async def test_lexical_search_takes_raw_text_and_names_chunks(store: Store) -> None:
    await store.write([GUIDE, LIMITS], [])
    found = await store.lexical_search("How many connections does the pool keep?", 3)
    assert found[0][0] == ChunkId("c:docs/limits.md:1")
    assert all(isinstance(chunk_id, str) for chunk_id, _ in found)
    assert [score for _, score in found] == sorted((score for _, score in found), reverse=True)
    assert len(await store.lexical_search("the", 1)) <= 1
    assert await store.lexical_search("", 5) == []
    assert await store.lexical_search("?!", 5) == []
    assert await store.lexical_search("connections", 0) == []


async def test_vectors_pending_stored_searched_and_pruned(store: Store) -> None:
    twin = version("docs/twin.md", [("", "Waits double after every attempt.")], title="Twin")
    copy = version("docs/copy.md", [("", "Waits double after every attempt.")], title="Twin")
    await store.write([GUIDE, LIMITS, twin, copy], [])
    assert await store.count_pending(MODEL) == 6  # equal index texts share one vector
    assert await embed_all(store) == 6
    assert await store.count_pending(MODEL) == 0
    assert (await store.stats(MODEL)).vectors == 7
    assert await store.count_pending("another-model") == 6

    pools = LIMITS.chunks[0][1].chunk
    query = (await HashingEmbedder(64).embed([index_text(pools)], "query"))[0]
    found = await store.dense_search(MODEL, query, 3)
    assert found[0] == (pools.id, pytest.approx(1.0, abs=1e-5))
    assert [score for _, score in found] == sorted((score for _, score in found), reverse=True)
    assert await store.dense_search("another-model", query, 3) == []

    others = [*ids(GUIDE), ChunkId("c:not-indexed")]
    cosines = await store.similarities(MODEL, query, others)
    assert set(cosines) == set(ids(GUIDE))
    vectors = await HashingEmbedder(64).embed(
        [index_text(item.chunk) for item in GUIDE.chunks[0]], "document"
    )
    for item, vector in zip(GUIDE.chunks[0], vectors, strict=True):
        assert cosines[item.chunk.id] == pytest.approx(float(np.dot(vector, query)), abs=1e-5)

    await store.write([], [twin.state.path])
    assert await store.prune_vectors() == 0  # the copy still uses the shared vector
    await store.write([], [LIMITS.state.path])
    assert await store.prune_vectors() == 2
    assert (await store.stats(MODEL)).vectors == 4
    assert pools.id not in dict(await store.dense_search(MODEL, query, 10))


async def test_references_document_chunks_and_defined_terms(store: Store) -> None:
    later = version("docs/later.md", [("", "**Settlement window** is redefined here.")])
    await store.write([GUIDE, LIMITS], [])
    await store.write([later], [])
    assert await store.references([*ids(GUIDE), ChunkId("c:not-indexed")]) == {
        ChunkId("c:docs/guide.md:1"): [Reference("docs/limits.md", "caps", "link")]
    }
    assert await store.document_chunks("docs/limits.md", 10) == [
        item.chunk for item in LIMITS.chunks[0]
    ]
    assert await store.document_chunks("docs/limits.md", 1) == [LIMITS.chunks[0][0].chunk]
    assert await store.document_chunks("docs/missing.md", 10) == []
    assert await store.defined_terms() == {"settlement window": ChunkId("c:docs/guide.md:2")}
    await store.write([], [GUIDE.state.path])
    assert await store.defined_terms() == {"settlement window": ChunkId("c:docs/later.md:0")}


async def test_cached_values_are_bounded_by_time(store: Store) -> None:
    before = time.time()
    await store.put_cached("q1", '{"a": 1}', drop_before=0)
    assert await store.get_cached("q1", before - 1) == '{"a": 1}'
    assert await store.get_cached("q1", time.time() + 60) is None
    assert await store.get_cached("unknown", 0) is None
    await store.put_cached("q1", '{"a": 2}', drop_before=0)
    assert await store.get_cached("q1", 0) == '{"a": 2}'
    await asyncio.sleep(0.02)
    cut = time.time()
    await asyncio.sleep(0.02)
    await store.put_cached("q2", "two", drop_before=cut)
    assert await store.get_cached("q1", 0) is None  # stored before `cut`: dropped
    assert await store.get_cached("q2", cut) == "two"


async def test_meta_values_are_kept_apart_and_outlive_the_store(location: str) -> None:
    store = await get_store(location)
    try:
        assert await store.get_meta("embedder") is None
        generation = await store.generation()
        await store.set_meta("embedder", "one")
        await store.set_meta("embedder", "two")
        await store.set_meta("generation", "not a number")  # a caller's key, not the store's
        assert await store.generation() == generation
    finally:
        await store.close()
    reopened = await get_store(location)
    try:
        assert await reopened.get_meta("embedder") == "two"
        assert await reopened.get_meta("generation") == "not a number"
    finally:
        await reopened.close()


async def test_generation_moves_with_content_only(store: Store) -> None:
    start = await store.generation()
    await store.write([GUIDE], [])
    written = await store.generation()
    assert written != start
    await store.touch([GUIDE.state])
    await store.put_cached("key", "value", drop_before=0)
    await embed_all(store)
    assert await store.generation() == written
    await store.write([], [GUIDE.state.path])
    assert await store.generation() not in {start, written}
    assert (await store.stats()).generation == await store.generation()


async def test_spread_texts_and_term_shares_describe_the_corpus(store: Store) -> None:
    assert await store.spread_texts(10) == []
    assert await store.term_shares(["guid"]) == {"guid": 0.0}
    await store.write([GUIDE, LIMITS], [])
    everything = await store.spread_texts(10)
    assert sorted(everything) == sorted(
        item.chunk.text for f in (GUIDE, LIMITS) for item in f.chunks[0]
    )
    two = await store.spread_texts(2)  # the first and the last chunk written
    assert two == [GUIDE.chunks[0][0].chunk.text, LIMITS.chunks[0][1].chunk.text]
    # Titles and headings count, as retrieval sees them: "Guide" heads three of five chunks.
    shares = await store.term_shares(["guid", "pool", "absent"])
    assert shares == {"guid": 0.6, "pool": 0.2, "absent": 0.0}
    await store.write([], [GUIDE.state.path])
    assert await store.term_shares(["guid", "pool"]) == {"guid": 0.0, "pool": 0.5}


async def test_files_and_stats_count_what_is_held(store: Store) -> None:
    assert await store.files() == []
    empty = await store.stats()
    assert (empty.files, empty.documents, empty.chunks, empty.vectors) == (0, 0, 0, 0)
    await store.write([LIMITS, GUIDE], [])
    files = await store.files()
    assert [(f.display_path, f.documents, f.chunks, f.title) for f in files] == [
        ("docs/guide.md", 1, 3, "Guide"),
        ("docs/limits.md", 1, 2, "Limits"),
    ]
    assert files[0].path == GUIDE.state.path and files[0].size == GUIDE.state.size
    stats = await store.stats(MODEL)
    assert (stats.files, stats.documents, stats.chunks, stats.vectors) == (2, 2, 5, 0)
    assert stats.embedding_model == MODEL


async def test_one_writer_at_a_time(location: str, backend: Backend) -> None:
    if not backend.one_writer:
        pytest.skip(f"{backend.name} lets several writers in (see the concurrent writer test)")
    first = await get_store(location)
    second = await get_store(location)
    try:
        async with first.writing():
            with pytest.raises(StoreLockedError):
                async with second.writing():
                    pass
        async with second.writing():
            await second.write([GUIDE], [])
        assert (await first.stats()).chunks == 3  # a second handle sees the other's writes
    finally:
        await first.close()
        await second.close()


async def test_file_versions_and_vectors_give_back_what_was_written(store: Store) -> None:
    await store.write([GUIDE, LIMITS], [])
    wanted = [LIMITS.state.path, "/corpus/nowhere.md", GUIDE.state.path]
    assert await store.file_versions(wanted) == [LIMITS, GUIDE]
    assert await store.file_versions([]) == []
    await embed_all(store)
    texts = [index_text(item.chunk) for item in GUIDE.chunks[0]]
    hashes = [content_hash(text) for text in texts]
    found = await store.vectors(MODEL, [*hashes, "no-such-hash"])
    assert set(found) == set(hashes)
    expected = await HashingEmbedder(64).embed(texts, "document")
    for text_hash, vector in zip(hashes, expected, strict=True):
        np.testing.assert_allclose(found[text_hash], vector, atol=1e-6)
    assert await store.vectors("another-model", hashes) == {}


def test_retrievers_read_roles_as_a_reader_does() -> None:
    text = "Transform that class into a {class}`dict` with :func:`attrs.asdict`."
    chunk = Chunk(
        ChunkId("c1"),
        DocumentId("d1"),
        "examples.md",
        "Examples",
        ("Examples", "Converting"),
        text,
        0,
        len(text),
        1,
        1,
    )
    assert index_text(chunk) == (
        "Examples › Converting\nTransform that class into a `dict` with `attrs.asdict`."
    )
