"""What only the PostgreSQL store does: concurrent writers, BM25 like tantivy's, HNSW, faults.

The shared contract (`test_store_contract.py`) runs against it too; these are the parts a
database server adds. Every test gets its own schema on the session's throwaway server.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from citesynth import HashingEmbedder, IndexNotFoundError, StoreError, StoreUnavailableError
from citesynth.copying import CopyFinished, CopyProgress, copy_store
from citesynth.index.store import Store, index_text
from citesynth.index.stores import get_store, shown_location
from citesynth.ingest.text import content_hash
from tests.index.test_store_contract import GUIDE, LIMITS, MODEL, embed_all, ids, version

psycopg = pytest.importorskip("psycopg")
from citesynth.index import postgres_lexical  # noqa: E402
from citesynth.index.postgres import PostgresStore, split_location  # noqa: E402
from citesynth.index.postgres_pool import ConnectionPool, PoolBusyError  # noqa: E402
from citesynth.index.postgres_schema import MIGRATIONS, SCHEMA_VERSION  # noqa: E402

CORPUS = [
    version(
        f"docs/page{n}.md",
        [
            ("Pools", f"The connection pool keeps at most {n} connections per host."),
            ("Retries", "Retries wait with exponential backoff and jitter between attempts."),
            ("Timeouts", f"A request times out after {n * 5} seconds without a response."),
            ("Proxies", "Proxy settings come from the environment unless trust_env is off."),
        ],
        title=f"Page {n}",
    )
    for n in range(1, 25)
]
QUERIES = [
    "How many connections does the pool keep per host?",
    "exponential backoff jitter",
    "request timeout seconds response",
    "proxy environment trust_env",
    "connections retries timeouts",
]


@pytest.fixture
async def store(postgres_url: str) -> AsyncIterator[Store]:
    opened = await get_store(postgres_url)
    yield opened
    await opened.close()


async def test_writers_of_different_files_run_at_once_and_lose_nothing(postgres_url: str) -> None:
    first, second = await get_store(postgres_url), await get_store(postgres_url)
    try:
        async with first.writing(), second.writing():  # both admitted
            await asyncio.gather(
                *((first if n % 2 else second).write([file], []) for n, file in enumerate(CORPUS))
            )
        stats = await first.stats()
        assert (stats.files, stats.chunks) == (24, 96)
        expected = {item.chunk.id for file in CORPUS for item in file.chunks[0]}
        assert set(await second.chunks(list(expected))) == expected
        assert isinstance(first, PostgresStore)
        assert await first.consistency_problems() == []
    finally:
        await first.close()
        await second.close()


async def test_writers_of_one_file_take_turns_and_the_last_one_wins(postgres_url: str) -> None:
    stores = [await get_store(postgres_url) for _ in range(4)]
    try:
        editions = [
            version("docs/same.md", [("", f"Edition {n} says the limit is {n}.")]) for n in range(8)
        ]
        await asyncio.gather(
            *(stores[n % 4].write([edition], []) for n, edition in enumerate(editions))
        )
        stats = await stores[0].stats()
        assert (stats.files, stats.documents, stats.chunks) == (1, 1, 1)
        (hit,) = await stores[0].lexical_search("edition limit", 5)
        assert hit[0] == ids(editions[0])[0]  # one chunk id, from whichever edition won
        assert isinstance(stores[0], PostgresStore)
        assert await stores[0].consistency_problems() == []
        await stores[0]._execute("UPDATE lexicon SET chunks = chunks + 1 WHERE term = 'limit'")
        assert await stores[0].consistency_problems() == [
            "1 lexicon terms have the wrong chunk count"
        ]
    finally:
        for opened in stores:
            await opened.close()


async def test_bm25_ranks_and_scores_like_the_sqlite_store(
    postgres_url: str, tmp_path: Path
) -> None:
    sqlite = await get_store(f"sqlite:{tmp_path / 'index'}")
    postgres = await PostgresStore.open(postgres_url)
    try:
        for opened in (sqlite, postgres):
            await opened.write([GUIDE, LIMITS, *CORPUS[:6]], [])
            await opened.write([CORPUS[2]], [CORPUS[3].state.path])  # the statistics follow
        for query in QUERIES:
            expected = await sqlite.lexical_search(query, 10)
            found = await postgres.lexical_search(query, 10)
            assert {cid for cid, _ in found} == {cid for cid, _ in expected}, query
            for (_, ours), (_, theirs) in zip(sorted(found), sorted(expected), strict=True):
                # tantivy stores document lengths in one byte: scores differ slightly.
                assert ours == pytest.approx(theirs, rel=0.06), query
    finally:
        await sqlite.close()
        await postgres.close()


async def test_hnsw_serves_dense_search_past_the_threshold(postgres_url: str) -> None:
    exact = await PostgresStore.open(postgres_url, hnsw_from=10**9)
    try:
        await exact.write(CORPUS, [])
        await embed_all(exact)
        embedder = HashingEmbedder(64)
        queries = await embedder.embed(QUERIES, "query")
        before = [await exact.dense_search(MODEL, query, 5) for query in queries]
    finally:
        await exact.close()
    indexed = await PostgresStore.open(postgres_url, hnsw_from=10)
    try:
        text = index_text(CORPUS[0].chunks[0][0].chunk)
        vector = await embedder.embed([text], "document")
        await indexed.put_vectors(MODEL, [content_hash(text)], vector)  # stored again: counted
        rows = await indexed._rows(
            "SELECT indexname FROM pg_indexes WHERE indexname LIKE 'embeddings_hnsw_%%'"
        )
        assert len(rows) == 1
        async with indexed._connection() as connection:
            await connection.execute("SET enable_seqscan = off")  # a table this small
            cursor = await connection.execute(
                f"EXPLAIN SELECT text_hash FROM embeddings WHERE model = '{MODEL}' "
                f"ORDER BY vector::vector(64) <=> '{vector[0].tolist()}' LIMIT 5"
            )
            plan = " ".join(str(row[0]) for row in await cursor.fetchall())
            await connection.execute("RESET enable_seqscan")
        assert "embeddings_hnsw_" in plan
        after = [await indexed.dense_search(MODEL, query, 5) for query in queries]
        assert [[cid for cid, _ in hits] for hits in after] == [
            [cid for cid, _ in hits] for hits in before
        ]
    finally:
        await indexed.close()


async def test_vectors_of_another_dimension_are_refused(store: Store) -> None:
    await store.write([GUIDE], [])
    await store.put_vectors(MODEL, ["a"], np.ones((1, 64), dtype=np.float32) / 8)
    with pytest.raises(StoreError, match="64-dimensional vectors for 'hashing-64', not 32"):
        await store.put_vectors(MODEL, ["b"], np.ones((1, 32), dtype=np.float32))


async def test_a_newer_schema_is_refused(postgres_url: str) -> None:
    opened = await get_store(postgres_url)
    try:
        assert isinstance(opened, PostgresStore)
        await opened._execute("INSERT INTO citesynth_schema VALUES (99)")
    finally:
        await opened.close()
    with pytest.raises(StoreError, match="schema version 99, newer than this citesynth"):
        await get_store(postgres_url)


async def test_an_index_of_an_older_schema_is_migrated_when_opened(postgres_url: str) -> None:
    base, schema = postgres_url.rsplit("schema=", 1)
    with psycopg.connect(base.rstrip("?&"), autocommit=True) as connection:
        connection.execute("CREATE EXTENSION IF NOT EXISTS vector")
        connection.execute(f"CREATE SCHEMA {schema}")
        connection.execute(f"SET search_path = {schema}, public")
        connection.execute(MIGRATIONS[0])  # what citesynth with schema version 1 created
        connection.execute("CREATE TABLE citesynth_schema (version INTEGER NOT NULL)")
        connection.execute("INSERT INTO citesynth_schema VALUES (1)")
    opened = await get_store(postgres_url)
    try:
        assert isinstance(opened, PostgresStore)
        row = await opened._one("SELECT max(version) FROM citesynth_schema")
        assert row is not None and row[0] == SCHEMA_VERSION == 2
        index = await opened._one("SELECT to_regclass('postings_impact') IS NOT NULL")
        assert index is not None and index[0]
        await opened.write([GUIDE, LIMITS], [])
        found = await opened.lexical_search("billing gateway", 3)
        assert [cid for cid, _ in found][:1] == [ids(GUIDE)[0]]
    finally:
        await opened.close()


def test_locations_keep_their_own_options_and_hide_passwords() -> None:
    found = split_location(
        "postgresql://me:secret@db.example/docs?schema=team&pool=4&sslmode=require"
        "&postings_per_term=0"
    )
    url = found.url
    assert url == "postgresql://me:secret@db.example/docs?sslmode=require"
    assert (found.schema, found.pool, found.postings_per_term) == ("team", 4, 0)
    assert split_location("postgresql://db/docs").postings_per_term == 20_000
    assert shown_location(url) == "postgresql://me:***@db.example/docs?sslmode=require"
    assert split_location("postgresql://db/docs?schema=Team").schema == "team"
    with pytest.raises(StoreError, match="plain SQL name"):
        split_location("postgresql://db/docs?schema=a;drop")
    with pytest.raises(StoreError, match=r"not a PostgreSQL URL libpq reads .*\"bogus\""):
        split_location("postgresql://me:secret@db/docs?bogus=1")
    with pytest.raises(StoreError, match="pool must be"):
        split_location("postgresql://db/docs?pool=0")


async def test_the_store_recovers_after_the_server_restarts(own_postgres: Any) -> None:
    server = own_postgres
    url = server.get_uri()
    opened = await get_store(url)
    try:
        await opened.write([GUIDE], [])
        server.stop()
        with pytest.raises(StoreUnavailableError, match=r"cannot be reached.*try again"):
            await opened.lexical_search("billing gateway", 3)
        with pytest.raises(StoreUnavailableError):
            await opened.write([LIMITS], [])
        server.start()
        for _ in range(50):  # the pool notices the server is back
            try:
                found = await opened.lexical_search("billing gateway", 3)
                break
            except StoreUnavailableError:
                await asyncio.sleep(0.1)
        assert [cid for cid, _ in found] == [ids(GUIDE)[0]]
        await opened.write([LIMITS], [])
        assert (await opened.stats()).chunks == 5  # the failed write left nothing behind
    finally:
        await opened.close()


async def test_a_schema_opens_only_its_own_index_never_publics(own_postgres: Any) -> None:
    url = own_postgres.get_uri()
    separator = "&" if "?" in url else "?"
    public = await get_store(url)
    try:
        await public.write([GUIDE], [])
        before = (await public.stats()).chunks
        with pytest.raises(IndexNotFoundError, match="schema legal"):
            await get_store(f"{url}{separator}schema=legal", create=False)
        legal = await get_store(f"{url}{separator}schema=legal")
        try:
            assert (await legal.stats()).chunks == 0
            await legal.write([LIMITS], [])
            assert (await legal.stats()).chunks == len(ids(LIMITS))
        finally:
            await legal.close()
        assert (await public.stats()).chunks == before
    finally:
        await public.close()


async def test_a_copy_stopped_half_way_is_resumed_by_running_it_again(
    postgres_url: str, tmp_path: Path
) -> None:
    files = [
        version(
            f"big/{n}.md", [(f"Part {i}", f"File {n} part {i} says {i * n}.") for i in range(90)]
        )
        for n in range(30)
    ]  # 2,700 chunks: more than one batch
    source = await get_store(str(tmp_path / "source"))
    target = await get_store(postgres_url)
    try:
        await source.write(files, [])
        steps = copy_store(source, target)
        async for step in steps:
            if isinstance(step, CopyProgress) and step.done > 0:
                break  # the copy stops here, as a killed process would
        await steps.aclose()
        partly = (await target.stats()).files
        assert 0 < partly < len(files)
        finished = [step async for step in copy_store(source, target)][-1]
        assert isinstance(finished, CopyFinished)
        assert finished.files_up_to_date == partly
        assert finished.files_copied == len(files) - partly
        assert (finished.target.files, finished.target.chunks) == (30, 2_700)
    finally:
        await source.close()
        await target.close()


async def test_an_unreachable_server_is_named_in_the_error(tmp_path: Path) -> None:
    url = f"postgresql://citesynth:secret@/nowhere?host={tmp_path}"
    with pytest.raises(StoreUnavailableError, match=r"postgresql://citesynth:\*\*\*@/nowhere"):
        await get_store(url)


async def test_a_chunk_without_terms_keeps_the_statistics_right(store: Store) -> None:
    assert isinstance(store, PostgresStore)
    marks = version("docs/marks.md", [("", "?! ... —"), ("", "Words after the marks.")])
    await store.write([marks, GUIDE], [])
    assert await store.consistency_problems() == []
    await store.write([], [marks.state.path])
    assert await store.consistency_problems() == []
    assert (await store.stats()).chunks == 3


async def test_a_read_only_standby_serves_and_skips_the_answer_cache(
    store: Store, postgres_url: str
) -> None:
    assert isinstance(store, PostgresStore) and store.schema is not None
    await store.write([GUIDE], [])
    reader = f"reader_{store.schema}"
    for statement in (
        f"CREATE ROLE {reader} LOGIN",
        f"ALTER ROLE {reader} SET default_transaction_read_only = on",  # as a standby refuses
        f"GRANT USAGE ON SCHEMA {store.schema} TO {reader}",
        f"GRANT SELECT ON ALL TABLES IN SCHEMA {store.schema} TO {reader}",
    ):
        await store._execute(statement)
    replica = await get_store(postgres_url.replace("postgres:@", f"{reader}@"), create=False)
    try:
        assert [cid for cid, _ in await replica.lexical_search("billing gateway", 3)] == [
            ids(GUIDE)[0]
        ]
        await replica.put_cached("question", "answer", drop_before=0)  # skipped, no error
        assert await replica.get_cached("question", 0) is None
        with pytest.raises(StoreError, match=r"is read-only .a standby.*index into the primary"):
            await replica.write([LIMITS], [])
    finally:
        await replica.close()


async def test_the_users_own_connection_options_are_kept(postgres_url: str) -> None:
    opened = await get_store(f"{postgres_url}&options=-c%20statement_timeout%3D4321")
    try:
        assert isinstance(opened, PostgresStore)
        assert await opened._one("SHOW statement_timeout") == ("4321ms",)
        assert (await opened._one("SHOW search_path"))[0].startswith(opened.schema)  # type: ignore[index]
    finally:
        await opened.close()


async def test_a_common_term_is_read_best_postings_first(store: Store) -> None:
    assert isinstance(store, PostgresStore)
    lines = [("", "Pool. " * n + "Words " * (30 - n)) for n in range(1, 11)]
    await store.write([version("docs/pools.md", lines)], [])
    async with store._connection() as connection:
        everything = await postgres_lexical.search(connection, "pool", 20)
        best = await postgres_lexical.search(connection, "pool", 20, per_term=3)
    assert len(everything) == 10
    # The three chunks where "pool" weighs most, scored exactly as when all are read.
    assert best == everything[:3]
    assert [cid for cid, _ in best] == [f"c:docs/pools.md:{n}" for n in (9, 8, 7)]


async def test_the_pool_holds_at_most_its_size_and_reuses_idle_connections(
    postgres_server: str,
) -> None:
    made: list[object] = []

    async def connect() -> Any:
        connection = await psycopg.AsyncConnection.connect(postgres_server, autocommit=True)
        made.append(connection)
        return connection

    pool = ConnectionPool(connect, 2, wait=0.3)
    try:
        async with pool.connection() as first, pool.connection() as second:
            assert first is not second
            with pytest.raises(PoolBusyError, match="all 2 database connections stayed busy"):
                async with pool.connection():
                    pass
        for _ in range(5):  # taken one after another: the idle ones come back
            async with pool.connection() as again:
                await again.execute("SELECT 1")
        assert len(made) == 2
    finally:
        await pool.close()
