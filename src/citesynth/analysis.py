"""Text analysis shared by every layer: the stemmed terms BM25, coverage and hashing share.

tantivy's own analyzer is used from Python too, so the index and the code never disagree.
"""

from __future__ import annotations

import tantivy

TOKENIZER_NAME = "citesynth_en"


def _analyzer(*, stopwords: bool) -> tantivy.TextAnalyzer:
    builder = (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
        .filter(tantivy.Filter.remove_long(40))
        .filter(tantivy.Filter.lowercase())
        .filter(tantivy.Filter.ascii_fold())
    )
    if stopwords:
        builder = builder.filter(tantivy.Filter.stopword("english"))
    return builder.filter(tantivy.Filter.stemmer("english")).build()


INDEX_ANALYZER = _analyzer(stopwords=False)
_QUERY_ANALYZER = _analyzer(stopwords=True)


def terms(text: str) -> list[str]:
    """The stemmed terms of `text` as the index sees them, in order."""
    result: list[str] = INDEX_ANALYZER.analyze(text)
    return result


def query_terms(text: str) -> list[str]:
    """Distinct stemmed query terms, stopwords removed unless nothing else is left."""
    found: list[str] = _QUERY_ANALYZER.analyze(text) or INDEX_ANALYZER.analyze(text)
    return list(dict.fromkeys(found))
