"""What a whole corpus is about: the names nearly every one of its chunks holds.

Documentation seldom names what it documents. A chunk of the Click docs says "This can be
controlled with the ``nargs`` parameter", not "Click's"; a chunk of the HTTPX guide says
"the client". An answer names the product anyway ("To make a Click argument accept an
unlimited number of values, use `nargs=-1` [1]"), and against its source alone that reads
as a claim adding a name the source lacks: the lexical verifier gave the reason "name(s)
not in the source: click", and the trained cross-encoder scored such right claims 0.13–0.26
where the same claims without the name scored 0.70–0.72. A corpus's subjects are what the
verifiers are told of every source, as the outermost of its titles
(`verify.base.Passage.subject`), so a claim naming them is read as a reader of that
documentation reads it.

A subject is a proper name (`analysis.NAME`: capitalised inside a sentence; or one
lower-case word in emphasis, "_cattrs_", "*structlog*", as documentation writes a project
never capitalised) in at least `SAMPLED_SHARE` of a sample of `SAMPLE` chunks spread over
the corpus, whose term is in at least `SHARE` of all its chunks (titles and headings
included, as retrieval indexes them; code counts: `@click.command()` names Click).
Measured on the evaluation corpora: "Click" is in 0.80 of the Click docs' chunks, "HTTPX"
0.75, "Red", "Hat", "Developer" and "Hub" 0.94–0.96 of the Developer Hub guides'; the
cattrs docs are about "cattrs" and "Converter", structlog's about "structlog" (none before
emphasis counted, 2026-11-28); the most widespread names of the Wikipedia and news
corpora are in at most 0.27 ("States" in MuSiQue's, "American" 0.21 in HotpotQA's, "Google"
0.07 in MultiHop-RAG's), so none of those has a subject. A corpus of fewer than
`MIN_CHUNKS` chunks has none either: there, a name in every chunk is as likely a detail
the few documents share.
"""

from __future__ import annotations

import re
import weakref
from collections import Counter
from dataclasses import dataclass

from citesynth.analysis import NAME, QUERY_STOPWORDS, query_terms, terms
from citesynth.index.store import Store

SHARE = 0.5
"""The least share of all chunks whose text holds a subject."""
SAMPLED_SHARE = 0.1
"""The least share of the sampled chunks naming a subject (capitalised) to be considered."""
SAMPLE = 200
"""Chunks read to find the names worth counting."""
MIN_CHUNKS = 20
"""A corpus with fewer chunks has no subjects."""


@dataclass(frozen=True, slots=True)
class _Subjects:
    generation: int
    names: tuple[str, ...]
    large: bool
    """Whether the corpus holds `MIN_CHUNKS` chunks or more."""


# Found once per store and content generation.
_FOUND: weakref.WeakKeyDictionary[object, _Subjects] = weakref.WeakKeyDictionary()


async def subjects(store: Store) -> tuple[str, ...]:
    """The corpus's subjects as the documents spell them, in the order they first appear."""
    return (await _found(store)).names


async def _found(store: Store) -> _Subjects:
    generation = await store.generation()
    cached = _FOUND.get(store)
    if cached is not None and cached.generation == generation:
        return cached
    texts = await store.spread_texts(SAMPLE)
    large = len(texts) >= MIN_CHUNKS
    found = _Subjects(generation, await _find(store, texts) if large else (), large)
    _FOUND[store] = found
    return found


async def _find(store: Store, texts: list[str]) -> tuple[str, ...]:
    spelled: dict[str, Counter[str]] = {}
    named: Counter[str] = Counter()
    for text in texts:
        seen = set()
        for word in _names(text):
            for term in terms(word):
                spelled.setdefault(term, Counter())[word] += 1
                seen.add(term)
        named.update(seen)
    wanted = [term for term, count in named.items() if count >= SAMPLED_SHARE * len(texts)]
    if not wanted:
        return ()
    shares = await store.term_shares(wanted)
    held = [spelled[t].most_common(1)[0][0] for t in wanted if shares.get(t, 0.0) >= SHARE]
    sample = "\n".join(texts)
    return tuple(sorted(held, key=sample.find))


async def common_terms(store: Store, text: str) -> frozenset[str]:
    """The terms of `text` (a question) that at least `SHARE` of the corpus's chunks hold.

    Such a word tells no chunk from another, whether or not it is a name: "test" is in 0.72
    of pytest's documentation chunks and "pytest" in 0.88, which the docs seldom capitalise,
    so neither is a subject. "What is the default timeout after which pytest kills a hanging
    test?" names the thing asked by "timeout", "kills" and "hanging"; a sentence naming
    pytest with "two small differences" states no number of it (`asked.states_number_of`).
    A corpus of fewer than `MIN_CHUNKS` chunks has none: there, every word is as likely
    one the few documents share by chance.
    """
    wanted = sorted(set(query_terms(text)))
    if not wanted or not (await _found(store)).large:
        return frozenset()
    shares = await store.term_shares(wanted)
    return frozenset(term for term in wanted if shares.get(term, 0.0) >= SHARE)


_EMPHASISED = re.compile(r"(?<![\w*])(\*{1,2}|_)([a-z][a-z0-9]*(?:-[a-z0-9]+)*)\1(?![\w*])")
"""One lower-case word in emphasis ("_cattrs_", "*structlog*", "**attrs**"): how
documentation writes a project whose name is never capitalised; never a dunder's
"__init__"."""


def _names(text: str) -> list[str]:
    """The proper names of `text`: capitalised inside a line, or one word in emphasis.

    A word opening a line (after its heading or list marks) opens a heading, a list item or
    a wrapped sentence as often as it is a name, and "The" inside a sentence is no subject.
    Function words aside, in either case.
    """
    capitalised = [
        match.group()
        for line in text.splitlines()
        for match in NAME.finditer(line.strip().lstrip("#*+->| \t"))
        if match.group().lower() not in QUERY_STOPWORDS
    ]
    emphasised = [
        match.group(2)
        for match in _EMPHASISED.finditer(text)
        if match.group(2).lower() not in QUERY_STOPWORDS
    ]
    return capitalised + emphasised
