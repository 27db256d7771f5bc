"""BM25 over chunks with tantivy: one analyzed text field per chunk, keyed by chunk row id.

Measured against SQLite FTS5 on the same texts (benchmarks/lexical_engines.py): nDCG@10
0.690 against 0.679 on SciFact, p95 1.0 ms against 82 ms at 104k documents. The index is derived
from SQLite and carries the generation it was built from; a mismatch triggers a rebuild.
Queries are built from analyzed terms, never parsed, so no user input is a syntax error.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from pathlib import Path

import tantivy

from citesynth.analysis import INDEX_ANALYZER, TOKENIZER_NAME
from citesynth.errors import StoreError

_GENERATION_FILE = "generation"
_WRITER_HEAP = 64 * 2**20


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("text", stored=False, tokenizer_name=TOKENIZER_NAME)
    builder.add_integer_field("rid", stored=True, indexed=True, fast=True)
    return builder.build()


class LexicalIndex:
    """A tantivy index of chunk texts; used from a single thread (the store's)."""

    def __init__(self, directory: Path) -> None:
        self._directory = directory
        self._schema = _schema()
        self._index = self._open()

    def _open(self) -> tantivy.Index:
        self._directory.mkdir(parents=True, exist_ok=True)
        try:
            index = tantivy.Index(self._schema, path=str(self._directory))
        except (OSError, ValueError) as error:
            raise StoreError(
                f"cannot open the lexical index at {self._directory}: {error}"
            ) from error
        index.register_tokenizer(TOKENIZER_NAME, INDEX_ANALYZER)
        return index

    @property
    def generation(self) -> int:
        """The store generation this index reflects, or -1 when unknown."""
        try:
            return int((self._directory / _GENERATION_FILE).read_text())
        except (OSError, ValueError):
            return -1

    def _mark(self, generation: int) -> None:
        target = self._directory / _GENERATION_FILE
        temporary = target.with_suffix(".tmp")
        temporary.write_text(str(generation))
        os.replace(temporary, target)

    def replace(
        self, remove: Iterable[int], add: Iterable[tuple[int, str]], generation: int
    ) -> None:
        """Delete chunks by row id, add `(row id, text)` pairs, commit, record `generation`."""
        writer = self._index.writer(heap_size=_WRITER_HEAP, num_threads=1)
        try:
            for rid in remove:
                writer.delete_documents_by_term("rid", rid)
            for rid, text in add:
                writer.add_document(tantivy.Document(rid=rid, text=text))
            writer.commit()
            writer.wait_merging_threads()
        except BaseException:
            writer.rollback()
            raise
        self._mark(generation)
        self._index.reload()

    def rebuild(self, rows: Iterable[tuple[int, str]], generation: int) -> None:
        """Recreate the index from scratch from `(row id, text)` pairs."""
        shutil.rmtree(self._directory, ignore_errors=True)
        self._index = self._open()
        self.replace((), rows, generation)

    def search(self, query: list[str], k: int) -> list[tuple[int, float]]:
        """Top `k` chunks by BM25 for already analyzed query terms: `(row id, score)`."""
        if not query or k <= 0:
            return []
        clauses = [
            (tantivy.Occur.Should, tantivy.Query.term_query(self._schema, "text", term))
            for term in query
        ]
        searcher = self._index.searcher()
        result = searcher.search(tantivy.Query.boolean_query(clauses), k, count=False)
        return [(searcher.doc(address)["rid"][0], float(score)) for score, address in result.hits]

    def shares(self, terms: Iterable[str]) -> dict[str, float]:
        """Per analysed term, the share of the indexed chunks holding it (0 when empty)."""
        searcher = self._index.searcher()
        total = searcher.num_docs
        if not total:
            return dict.fromkeys(terms, 0.0)
        # Counted by a search: `doc_freq` still counts chunks deleted until segments merge.
        shares = {}
        for term in terms:
            query = tantivy.Query.term_query(self._schema, "text", term)
            found = searcher.search(query, 1, count=True)
            shares[term] = found.count / total  # type: ignore[attr-defined]  # not in the stub
        return shares

    def refresh(self) -> None:
        """See commits made by other processes."""
        self._index.reload()
