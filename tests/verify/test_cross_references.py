"""Cross-references: found in chunks, stored in the index, followed when answering."""

from __future__ import annotations

from pathlib import Path

from citesynth import Engine
from citesynth.ingest.references import Reference, definitions, matches, references, slug
from citesynth.retrieve.links import follow_references, introduces_next, linked
from tests.conftest import write


def test_links_roles_and_see_section_are_references() -> None:
    text = (
        "Retries back off, see [Backoff](../guide/retries.md#exponential-backoff). "
        "Limits are listed [below](#limits) and on [the site](https://example.com/x). "
        "Read :doc:`setup` and :ref:`Pools <connection-pools>`; see section Timeouts."
    )
    assert references(text, "docs/api/client.md") == [
        Reference("docs/guide/retries.md", "exponential-backoff", "link"),
        Reference("", "limits", "link"),
        Reference("docs/api/setup.rst", "", "doc"),
        Reference("", "connection-pools", "ref"),
        Reference("", "Timeouts", "see"),
    ]


def test_included_files_are_references() -> None:
    text = (
        "Example:\n\n.. literalinclude:: snippets/fileio/read_file.py\n   :language: python\n\n"
        ".. include:: /shared/intro.rst\n\n"
        "```{literalinclude} ../examples/app.py\n:lines: 1-5\n```\n"
        "Not one: .. literalinclude:: inline.py in a sentence.\n"
    )
    assert references(text, "docs/guide/fileio.rst") == [
        Reference("docs/guide/snippets/fileio/read_file.py", "", "include"),
        # from the source folder: any folder above the page may be it
        Reference("docs/guide/shared/intro.rst", "", "include"),
        Reference("docs/shared/intro.rst", "", "include"),
        Reference("shared/intro.rst", "", "include"),
        Reference("docs/examples/app.py", "", "include"),
    ]


async def test_a_retrieved_passage_brings_the_code_it_includes(
    engine: Engine, tmp_path: Path
) -> None:
    root = tmp_path / "docs"
    write(
        root,
        "fileio.rst",
        "File I/O\n========\n\nThe library reads files asynchronously in worker threads. "
        "Example:\n\n.. literalinclude:: snippets/read_file.py\n",
    )
    write(root, "snippets/read_file.py", "async def main():\n    text = await read_text('x')\n")
    await engine.index([root])
    hit = (await engine.search("How are files read asynchronously in worker threads?", 1))[0]
    assert hit.chunk.path.endswith("fileio.rst")
    found = await linked([hit.chunk], engine.store)
    assert [c.path.rsplit("/", 1)[-1] for targets in found.values() for c in targets] == [
        "read_file.py"
    ]


async def test_every_hit_brings_the_files_it_includes_before_other_references(
    engine: Engine, tmp_path: Path
) -> None:
    root = tmp_path / "docs"
    write(
        root,
        "threads.rst",
        "Threads\n=======\n\nTo run a blocking callable in a worker thread, see "
        ":doc:`other` and:\n\n.. literalinclude:: snippets/run_sync.py\n",
    )
    write(root, "other.rst", "Other\n=====\n\nUnrelated pages about gardening.\n")
    write(root, "snippets/run_sync.py", "await to_thread.run_sync(time.sleep, 5)\n")
    await engine.index([root])
    hits = await engine.search("run a blocking callable in a worker thread", 1)
    expanded, added = await follow_references(hits, engine.store, from_top=0)
    assert [h.chunk.path for h in expanded] == ["docs/threads.rst", "docs/snippets/run_sync.py"]
    assert added == 1 and expanded[1].confidence < expanded[0].confidence
    both, two = await follow_references(hits, engine.store, limit=1)  # its own code first
    assert [h.chunk.path for h in both] == [
        "docs/threads.rst",
        "docs/snippets/run_sync.py",
        "docs/other.rst",
    ]
    assert two == 2
    none, nothing = await follow_references(hits, engine.store, from_top=0, included=0)
    assert [h.chunk.path for h in none] == ["docs/threads.rst"] and nothing == 0


def test_headings_match_by_title_or_anchor() -> None:
    assert slug("Exponential backoff!") == "exponential-backoff"
    assert matches("exponential-backoff", ("Retries", "Exponential backoff"))
    assert matches("Timeouts", ("Guide", "Timeouts"))
    assert not matches("limits", ("Guide", "Timeouts"))
    assert matches("", ("Anything",))


async def test_a_retrieved_passage_brings_the_section_it_links_to(
    engine: Engine, tmp_path: Path
) -> None:
    root = tmp_path / "docs"
    write(
        root,
        "client.md",
        "# Client\n\nThe client sends requests to the billing gateway. For how failed "
        "requests to the billing gateway are repeated, see [Backoff](retries.md#backoff).\n",
    )
    write(
        root,
        "retries.md",
        "# Retries\n\nIntro to the module.\n\n## Backoff\n\nWaits double after every "
        "attempt, up to a cap of thirty seconds.\n",
    )
    await engine.index([root])
    question = "How does the client send requests to the billing gateway?"
    found = await linked([(await engine.search(question, 1))[0].chunk], engine.store)
    assert ["Waits double" in c.text for targets in found.values() for c in targets] == [True]
    answer = await engine.answer(question, k=1)
    assert any("Waits double" in source.text for source in answer.sources)
    assert any("refer to them" in warning for warning in answer.warnings)
    plain = await engine.answer(question, k=1, follow_references=False, cache=False)
    assert not any("Waits double" in source.text for source in plain.sources)


async def test_links_go_when_their_file_is_reindexed_without_them(
    engine: Engine, tmp_path: Path
) -> None:
    root = tmp_path / "docs"
    write(root, "a.md", "# A\n\nAlpha facts about gateways, see [B](b.md).\n")
    write(root, "b.md", "# B\n\nBeta facts about gateways.\n")
    await engine.index([root])
    hit = (await engine.search("alpha facts gateways", 1))[0]
    assert await linked([hit.chunk], engine.store)
    write(root, "a.md", "# A\n\nAlpha facts about gateways, nothing else.\n")
    await engine.index([root])
    hit = (await engine.search("alpha facts gateways", 1))[0]
    assert await linked([hit.chunk], engine.store) == {}


def test_definitions_are_found_in_their_usual_forms() -> None:
    text = (
        "**Pass-1 confidence** is the calibrated probability. Reciprocal Rank Fusion (RRF) "
        "merges lists. The term evidence span is defined as the exact sentence.\n\n"
        "Chunk\n: a contiguous span of a document"
    )
    assert definitions(text) == [
        "pass-1 confidence", "evidence span", "chunk", "reciprocal rank fusion", "rrf",
    ]  # fmt: skip


async def test_a_passage_using_a_term_brings_its_definition(engine: Engine, tmp_path: Path) -> None:
    root = tmp_path / "docs"
    write(
        root,
        "glossary.md",
        "# Glossary\n\n**Settlement window** is the period in which a payment can still be "
        "reversed by the bank.\n",
    )
    write(
        root,
        "payments.md",
        "# Payments\n\nRefunds issued to the card network inside the settlement window are "
        "free of charge for merchants.\n",
    )
    await engine.index([root])
    found = await _top_hit_links(engine, "refunds card network merchants charge")
    assert found == ("payments.md", ["glossary.md"])


async def _top_hit_links(engine: Engine, query: str) -> tuple[str, list[str]]:
    """The file of `query`'s top hit, and the files of the chunks it links to."""
    chunk = (await engine.search(query, 1))[0].chunk
    found = await linked([chunk], engine.store)
    return _name(chunk.path), [_name(c.path) for c in found.get(chunk.id, [])]


def _name(path: str) -> str:
    return path.rsplit("/", 1)[-1]


async def test_a_term_the_corpus_uses_commonly_brings_no_definition(
    engine: Engine, tmp_path: Path
) -> None:
    # Pillow's licence file defines "PIL", which half of Pillow's chunks write.
    root = tmp_path / "docs"
    write(root, "COPYING", "The Python Imaging Library (PIL) is copyright Secret Labs AB.\n")
    write(root, "glossary.md", "# Glossary\n\n**Settlement window** is the reversal period.\n")
    for n in range(24):
        write(root, f"page{n}.md", f"# Page {n}\n\nThe PIL module {n} reads format {n}.\n")
    write(root, "fmt.md", "# Formats\n\nPIL writes refunds inside the settlement window.\n")
    await engine.index([root])
    assert await _top_hit_links(engine, "writes refunds inside") == ("fmt.md", ["glossary.md"])
    # So is a phrase whose every word the corpus writes commonly.
    write(root, "lib.md", "# Library\n\nThe Python Imaging Library reads every format.\n")
    for n in range(24):
        write(root, f"page{n}.md", f"# Page {n}\n\nThe Python imaging library {n} reads.\n")
    await engine.index([root])
    assert await _top_hit_links(engine, "reads every format") == ("lib.md", [])


async def test_a_definition_indexed_later_is_found(engine: Engine, tmp_path: Path) -> None:
    root = tmp_path / "docs"
    write(root, "payments.md", "# Payments\n\nRefunds inside the settlement window are free.\n")
    await engine.index([root])
    hit = (await engine.search("refunds free", 1))[0]
    assert await linked([hit.chunk], engine.store) == {}  # compiles and caches the terms
    write(root, "glossary.md", "# Glossary\n\n**Settlement window** is the reversal period.\n")
    await engine.index([root])
    found = await linked([hit.chunk], engine.store)
    assert [c.path.rsplit("/", 1)[-1] for c in found[hit.chunk.id]] == ["glossary.md"]


async def test_a_chunk_ending_on_an_introduction_brings_the_chunk_it_introduces(
    engine: Engine, tmp_path: Path
) -> None:
    # Starlette's middleware page: the list of limitations did not fit beside the sentence
    # that introduces it, and chunking cut between them.
    root = tmp_path / "docs"
    # (The engine here packs 80 tokens a chunk, an introduction with what it introduces up
    # to 100: the item is 79, the introduction 28.)
    state = " ".join(f"Middleware rule {n} keeps its state inside dispatch." for n in range(6))
    item = " ".join(
        f"Context variable change {n} never propagates upwards to the caller." for n in range(6)
    )
    write(
        root,
        "middleware.md",
        f"# Middleware\n\n{state}\n\nCurrently, the base middleware has some known "
        "limitations that you should read with care before you write any middleware of your "
        f"own:\n\n- {item}\n",
    )
    await engine.index([root])
    hit = (await engine.search("known limitations of the base middleware", 1))[0]
    assert hit.chunk.text.endswith("any middleware of your own:"), hit.chunk.text
    (targets,) = (await linked([hit.chunk], engine.store)).values()
    assert [c.text.startswith("- Context variable change 0") for c in targets] == [True]


def test_only_a_prose_sentence_introduces_the_next_chunk() -> None:
    assert introduces_next("Text here.\n\nIt supports the following options:")
    assert not introduces_next("```python\ndef handler(request):")
    assert not introduces_next("The pool holds ten connections.")
