"""BM25 inside PostgreSQL: an inverted index kept exact by the write transactions.

The terms are those of the tantivy analyzer the SQLite store uses (`analysis.terms`), and
the formula is tantivy's (k1 1.2, b 0.75, idf ln(1 + (N - df + 0.5) / (df + 0.5))), so both
stores rank alike: only tantivy's one-byte document lengths make scores differ slightly.

Measured on SciFact (benchmarks/postgres_store.py, figures in docs/scale.md): nDCG@10
0.6885 against tantivy's 0.688, where PostgreSQL's own full-text search (an English
tsvector, GIN) reaches 0.558 with `ts_rank` and 0.375 with `ts_rank_cd`, having no idf; and
scoring from a per-chunk term map found through a GIN index took 88 ms a query against
4 ms for these postings, read by index-only scans.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from psycopg import AsyncConnection

from citesynth.analysis import query_terms, terms
from citesynth.types import ChunkId

Connection = AsyncConnection[tuple[Any, ...]]

K1, B = 1.2, 0.75

POSTINGS_PER_TERM = 20_000
"""The most postings a query reads for one term, best first (by the term's BM25 weight in
the chunk at a typical length: index `postings_impact`); 0 reads all. A term in fewer
chunks is read whole, so an index of fewer chunks ranks exactly; a common term of a large
one contributes through its strongest chunks only, as score-at-a-time engines do.
Measured at 1M chunks (docs/scale.md): BM25 p95 827 ms reading all, 176 ms at 20,000 with
0.83 of the exact top 10 (a worst case: 88 exact copies of every text tie everywhere)."""

_IMPACT = "(p.tf::float8 / (p.tf + 1.2 * (0.25 + 0.75 * p.length::float8 / 200.0)))"
"""The expression `postings_impact` orders by (the same text as in the migration)."""

_SEARCH = f"""
WITH t AS (SELECT chunks::float8 AS n, greatest(length, 1)::float8
                  / greatest(chunks, 1) AS average FROM lexical_totals),
held AS (SELECT l.term, ln(1 + (t.n - l.chunks + 0.5) / (l.chunks + 0.5)) AS idf
         FROM lexicon l, t WHERE l.term = ANY(%(terms)s) AND l.chunks > 0),
-- Arrays unnested: the planner expects a handful of terms and reads each one's
-- postings through the index (a join on `held` itself can turn into a scan of all).
q AS (SELECT * FROM unnest(ARRAY(SELECT term FROM held), ARRAY(SELECT idf FROM held))
      AS q(term, idf)),
scored AS (
    SELECT p.chunk, sum(q.idf * p.tf * %(k1p)s
        / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * p.length / t.average))) AS score
    FROM q CROSS JOIN LATERAL (
        SELECT p.chunk, p.tf, p.length FROM postings p WHERE p.term = q.term
        ORDER BY {_IMPACT} DESC LIMIT %(per_term)s) p CROSS JOIN t
    GROUP BY p.chunk ORDER BY score DESC, p.chunk LIMIT %(k)s)
SELECT c.chunk_id, s.score FROM scored s JOIN chunks c ON c.id = s.chunk
ORDER BY s.score DESC, s.chunk
"""

_TERM = re.compile(r"\w+")


def analysed(text: str) -> tuple[Counter[str], int]:
    """The counts of an index text's terms, and its length in terms."""
    found = terms(text)
    return Counter(term for term in found if _TERM.fullmatch(term)), len(found)


async def remove(connection: Connection, chunks: Sequence[int]) -> Counter[str]:
    """Drop the postings of `chunks`; their terms, counted -1 for each chunk."""
    if not chunks:
        return Counter()
    cursor = await connection.execute(
        "DELETE FROM postings WHERE chunk = ANY(%s) RETURNING term", (list(chunks),)
    )
    delta = Counter[str]()
    for (term,) in await cursor.fetchall():
        delta[term] -= 1
    return delta


async def add(
    connection: Connection, chunks: Sequence[tuple[int, Counter[str], int]]
) -> Counter[str]:
    """Write the postings of `(chunk row id, term counts, length)`; the terms, +1 a chunk."""
    delta = Counter[str]()
    statement = "COPY postings (term, chunk, tf, length) FROM STDIN"
    async with connection.cursor() as cursor, cursor.copy(statement) as copy:
        for chunk, counts, length in chunks:
            for term, count in counts.items():
                await copy.write_row((term, chunk, count, length))
            delta.update(counts.keys())
    return delta


async def account(connection: Connection, delta: Counter[str], chunks: int, length: int) -> None:
    """Apply a write's changes to the lexicon and the totals (rows locked in term order)."""
    changed = sorted((term, change) for term, change in delta.items() if change)
    if changed:
        await connection.execute(
            "INSERT INTO lexicon SELECT * FROM unnest(%s::text[], %s::bigint[]) "
            "ON CONFLICT (term) DO UPDATE SET chunks = lexicon.chunks + excluded.chunks",
            ([term for term, _ in changed], [change for _, change in changed]),
        )
        await connection.execute(
            "DELETE FROM lexicon WHERE term = ANY(%s) AND chunks <= 0",
            ([term for term, change in changed if change < 0],),
        )
    if chunks or length:
        await connection.execute(
            "UPDATE lexical_totals SET chunks = chunks + %s, length = length + %s",
            (chunks, length),
        )


async def search(
    connection: Connection, query: str, k: int, per_term: int = POSTINGS_PER_TERM
) -> list[tuple[ChunkId, float]]:
    """BM25 top `k` for raw query text (analysed as `query_terms` does), best first."""
    words = [word for word in query_terms(query) if _TERM.fullmatch(word)]
    if not words or k <= 0:
        return []
    cursor = await connection.execute(
        _SEARCH,
        {
            "terms": words,
            "k1p": K1 + 1,
            "k1": K1,
            "b": B,
            "k": k,
            "per_term": per_term if per_term > 0 else None,  # LIMIT NULL: all
        },
        binary=True,
    )
    return [(ChunkId(chunk_id), float(score)) for chunk_id, score in await cursor.fetchall()]


async def problems(connection: Connection) -> list[str]:
    """Where the lexicon and totals disagree with a recount of the postings (nothing)."""
    found = []
    cursor = await connection.execute(
        "SELECT t.chunks, t.length, (SELECT count(*) FROM chunks), "
        "(SELECT coalesce(sum(length), 0) FROM chunks) FROM lexical_totals t"
    )
    row = await cursor.fetchone()
    if row is not None and (int(row[0]), int(row[1])) != (int(row[2]), int(row[3])):
        found.append(
            f"totals say {row[0]} chunks / {row[1]} terms; the index holds {row[2]} / {row[3]}"
        )
    cursor = await connection.execute(
        "SELECT count(*) FROM (SELECT term, count(*) AS held FROM postings GROUP BY term) r "
        "FULL JOIN (SELECT * FROM lexicon WHERE chunks > 0) l ON l.term = r.term "
        "WHERE l.chunks IS DISTINCT FROM r.held"
    )
    row = await cursor.fetchone()
    if row is not None and int(row[0]):
        found.append(f"{row[0]} lexicon terms have the wrong chunk count")
    cursor = await connection.execute(
        "SELECT count(*) FROM (SELECT DISTINCT chunk FROM postings) p "
        "WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = p.chunk)"
    )
    row = await cursor.fetchone()
    if row is not None and int(row[0]):
        found.append(f"{row[0]} removed chunks still have postings")
    return found
