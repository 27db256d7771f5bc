"""Claims, ALCE citation recall and precision, and citation repair."""

from __future__ import annotations

from dataclasses import replace

from citesynth.verify import LexicalVerifier
from citesynth.verify.base import Passage
from citesynth.verify.claims import split_claims
from citesynth.verify.review import review

TIMEOUTS = Passage(1, "The connect timeout defaults to five seconds.", "docs/timeouts.md")
POOLS = Passage(2, "Pools keep ten connections per host.", "docs/pools.md")
RETRIES = Passage(3, "Failed requests are retried three times with backoff.", "docs/retries.md")
SOURCES = [TIMEOUTS, POOLS, RETRIES]
POOLS_1 = replace(POOLS, number=1)


def test_a_sentence_citing_different_sources_in_places_splits_into_clauses() -> None:
    text = "The connect timeout defaults to five seconds [1], while pools keep ten connections [2]."
    claims = split_claims(text)
    assert [(c.text, c.citations) for c in claims] == [
        ("The connect timeout defaults to five seconds", (1,)),
        ("while pools keep ten connections.", (2,)),
    ]
    assert text[claims[0].start : claims[0].end].endswith("[1]")


def test_a_sentence_citing_sources_together_stays_one_claim() -> None:
    claims = split_claims("Timeouts and pools are both configured per client [1,2].")
    assert [(c.text, c.citations) for c in claims] == [
        ("Timeouts and pools are both configured per client.", (1, 2))
    ]


async def test_recall_and_precision_follow_the_verdicts() -> None:
    text = (
        "The connect timeout defaults to five seconds [1]. "
        "Pools keep ten connections per host [1,2]. "
        "Every request is signed with a secret key [3]."
    )
    found = await review(text, SOURCES, LexicalVerifier(), repair=False)
    assert [c.label for c in found.claims] == ["supported", "supported", "unsupported"]
    assert found.citation_recall == 2 / 3
    # [1] on the pools claim is neither supportive nor needed; [3] supports nothing.
    assert found.claims[1].precise == (2,)
    assert found.citation_precision == 2 / 4
    assert found.claims[1].documents == 1


async def test_a_citation_a_supported_claim_does_not_need_is_dropped() -> None:
    text = (
        "Pools keep ten connections per host [1-3]. "
        "Timeouts and retries are set per client [1,3], with backoff [3]."
    )
    found = await review(text, SOURCES, LexicalVerifier())
    # [1] and [3] neither support the pools claim nor are needed beside [2]
    assert found.text.startswith("Pools keep ten connections per host [2]. ")
    assert found.claims[0].precise == (2,)
    assert "dropped citation [1,3], which does not support" in found.repairs[0].describe()
    assert found.citation_precision is not None
    # without repair the marker stays as the writer wrote it
    kept = await review(text, SOURCES, LexicalVerifier(), repair=False)
    assert kept.text == text


async def test_a_wrong_citation_moves_to_the_source_that_supports_the_claim() -> None:
    text = (
        "The connect timeout defaults to five seconds [1]. Pools keep ten connections per host [3]."
    )
    found = await review(text, SOURCES, LexicalVerifier())
    assert found.text == (
        "The connect timeout defaults to five seconds [1]. Pools keep ten connections per host [2]."
    )
    assert [(r.before, r.after) for r in found.repairs] == [((3,), (2,))]
    assert "moved citation [3] to [2]" in found.repairs[0].describe()
    assert all(c.label == "supported" for c in found.claims)


async def test_a_claim_its_own_source_contradicts_keeps_its_citation() -> None:
    # attrs' docs: the embedded model turned "it will strip the underscore" around, and the
    # citation had moved to `evolve`'s "specified without the leading underscore".
    strips = Passage(
        1,
        "## Private Attributes and Aliases\n\nOne thing people tend to find confusing is the "
        "treatment of private attributes that start with an underscore.\nAlthough there is a "
        "convention that members of an object that start with an "
        "underscore should be treated as private, consider that a core feature of *attrs* is "
        "to automatically create an `__init__` method whose arguments correspond to the "
        "members.\n\nAs a convenience for this use case, the default behavior of *attrs* is "
        "that if you specify a member that starts with an underscore, it will strip the "
        "underscore from the name when it creates the `__init__` method signature:\n",
        "docs/init.md",
    )
    evolve = Passage(
        3,
        ".. autofunction:: attrs.evolve\n\n   ``evolve`` creates a new instance using "
        "``__init__``.\n   This fact has several implications:\n\n   * private attributes "
        "should be specified without the leading underscore, just like in ``__init__``.\n"
        "   * attributes with ``init=False`` can't be set with ``evolve``.\n",
        "docs/api.rst",
    )
    text = (
        "attrs does not strip the leading underscore from an attribute name when it creates "
        "__init__ [1]."
    )
    found = await review(text, [strips, evolve], LexicalVerifier())
    assert found.text == text and not found.repairs
    assert found.claims[0].label != "supported"
    # A source saying all of it, with nothing against it, still takes the citation.
    v1 = Passage(1, "In version 1, the connection pool blocks when it is full.", "v1/pool.md")
    v2 = Passage(2, "In version 2, the connection pool does not block when it is full.", "v2.md")
    wrong_page = "In version 2, the connection pool does not block when it is full [1]."
    moved = await review(wrong_page, [v1, v2], LexicalVerifier())
    assert [(r.before, r.after) for r in moved.repairs] == [((1,), (2,))]
    # Cited elsewhere, the claim is not turned around: its citation may move.
    elsewhere = await review(text.replace("[1]", "[2]"), [strips, POOLS, evolve], LexicalVerifier())
    assert [(r.before, r.after) for r in elsewhere.repairs] == [((2,), (3,))]


async def test_a_claim_a_table_cell_states_otherwise_moves_only_to_a_source_saying_it_all() -> None:
    # Gunicorn's HTTP/2 guide: the table says No; a settings page holding most of the words
    # had taken the citation
    table = Passage(
        4,
        "## Worker Compatibility\n\n| Worker | HTTP/2 Support | Notes |\n|---|---|---|\n"
        "| `sync` | No | Single-threaded, cannot multiplex streams |\n"
        "| `gthread` | Yes | Recommended for HTTP/2 |\n",
        "guides/http2.md",
    )
    settings = Passage(
        7,
        "## Recommended Settings\n\nFor production HTTP/2 deployments, the default sync "
        'worker class is replaced:\n\n```python\nworker_class = "gthread"\n'
        'http_protocols = "h2, h1"\n```\n',
        "guides/http2.md#settings",
    )
    text = "HTTP/2 will work with the default sync worker [4]."
    found = await review(text, [table, settings], LexicalVerifier())
    assert not found.repairs and found.claims[0].label != "supported"
    # nor when it cites neither, and the table is only among the sources retrieved
    uncited = await review(
        "HTTP/2 will work with the default sync worker.", [table, settings], LexicalVerifier()
    )
    assert not uncited.repairs


async def test_a_source_stating_the_unit_otherwise_counts_though_it_shares_little_else() -> None:
    # repair aligns only the sources that could support a claim; one sharing only the
    # claim's code, whose unit is another, still keeps the citation from a source that
    # says the rest but not "shown"
    hooks = Passage(
        2, "Each hook receives ``duration`` (in seconds, a float) and the SQL it ran.", "hooks.md"
    )
    export = Passage(
        3,
        "The exporter writes the `duration` of every traced query to the dashboard in "
        "milliseconds.",
        "export.md",
    )
    claim = "The `duration` of every traced query is shown in milliseconds on the dashboard"
    found = await review(f"{claim} [1].", [POOLS_1, hooks, export], LexicalVerifier())
    assert not found.repairs and not found.claims[0].verdict.supported
    without = await review(f"{claim} [1].", [POOLS_1, export], LexicalVerifier())
    assert [(r.before, r.after) for r in without.repairs] == [((1,), (3,))]


async def test_a_claim_whose_further_words_another_source_denies_is_unsupported() -> None:
    # peewee's SqliteQueueDatabase: the cited opening holds most of the claim; the words it
    # lacks ("executed atomically") another retrieved paragraph denies
    opening = Passage(
        1,
        ":class:`SqliteQueueDatabase` serializes all write queries through a single "
        "long-lived connection on a dedicated background thread. This allows multiple "
        "application threads to write to a SQLite database concurrently without conflict "
        "or timeout errors.",
        "peewee/sqlite.rst",
        about="SqliteQueueDatabase",
    )
    transactions = Passage(
        4,
        "Transactions are not supported. Because writes from different threads are "
        "interleaved, there is no way to guarantee that the statements in a transaction "
        "from one thread execute atomically without statements from another thread "
        "appearing between them.",
        "peewee/sqlite.rst",
    )
    text = (
        "Atomic() in SqliteQueueDatabase ensures that all write queries are executed "
        "atomically, preventing conflicts or timeout errors when multiple threads attempt "
        "to write concurrently [1]."
    )
    found = await review(text, [opening, transactions], LexicalVerifier())
    assert found.claims[0].label == "unsupported" and not found.repairs
    verdict = found.claims[0].verdict
    assert verdict is not None and "document denies it" in verdict.reasons[-1]
    # what the cited source says itself stays supported
    said = "SqliteQueueDatabase lets multiple threads write concurrently without conflict [1]."
    kept = await review(said, [opening, transactions], LexicalVerifier())
    assert kept.claims[0].label == "supported"
    # another document's denial is more often another thing's
    elsewhere = replace(transactions, document="peewee/postgres.rst")
    other = await review(text, [opening, elsewhere], LexicalVerifier())
    assert other.claims[0].label == "supported"


async def test_an_uncited_sentence_a_source_supports_gets_its_citation() -> None:
    text = (
        "The connect timeout defaults to five seconds [1]. Failed requests are retried three times."
    )
    found = await review(text, SOURCES, LexicalVerifier())
    assert found.text.endswith("retried three times [3].")
    assert found.repairs[0].before == ()


async def test_one_source_is_enough_to_cite_an_uncited_sentence_it_supports() -> None:
    found = await review("Failed requests are retried three times.", [RETRIES], LexicalVerifier())
    assert found.text == "Failed requests are retried three times [3]."
    cited = "The connect timeout defaults to five seconds [3]."
    assert (await review(cited, [RETRIES], LexicalVerifier())).text == cited, "nowhere to move"


async def test_an_invented_claim_stays_unsupported_and_uncited() -> None:
    text = "The connect timeout defaults to five seconds [1]. Pages are cached in Redis hourly."
    found = await review(text, SOURCES, LexicalVerifier())
    assert found.text == text and not found.repairs
    assert found.claims[1].verdict is None and found.claims[1].label == "unsupported"


def test_claims_never_cross_a_blank_line_or_a_document_title() -> None:
    text = (
        "It means the tall ones [1].\n\n**Wernicke area**\nThis means the person is fluent [2]."
        "\n\n# Limits\nThe connect timeout is five seconds [3]."
    )
    assert [(c.text, c.citations) for c in split_claims(text)] == [
        ("It means the tall ones.", (1,)),
        ("This means the person is fluent.", (2,)),
        ("The connect timeout is five seconds.", (3,)),
    ]


async def test_a_citation_moves_to_the_source_whose_title_names_the_subject() -> None:
    # The chunk never repeats its article's subject, as in a ClapNQ answer the verifier
    # had removed: "Last Tango in Halifax was filmed at Holdsworth House" cited [3].
    filming = Passage(
        1, "Filming took place at Holdsworth House in August 2013.", "wiki/1", "Harbour Lights"
    )
    other = Passage(2, "The band toured Europe in 2013 with a new drummer.", "wiki/2", "Tango")
    text = "Harbour Lights was filmed at Holdsworth House in August 2013 [2]."
    found = await review(text, [filming, other], LexicalVerifier())
    assert found.text == "Harbour Lights was filmed at Holdsworth House in August 2013 [1]."
    assert found.claims[0].label == "supported"
    assert not found.claims[0].verdict.reasons  # type: ignore[union-attr]
    untitled = [Passage(1, filming.text, "wiki/1"), other]
    [claim] = (await review(text, untitled, LexicalVerifier())).claims
    assert "name(s) not in the source: Lights" in claim.alone[1].reasons
