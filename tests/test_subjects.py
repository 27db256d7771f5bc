"""The corpus's subjects: names nearly every chunk holds, found on a real SQLite store."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from citesynth.index.store import FileVersion
from citesynth.index.stores import get_store
from citesynth.retrieve.subjects import MIN_CHUNKS, common_terms, subjects
from tests.index.test_store_contract import version


def _acme(i: int) -> tuple[str, str]:
    """Page `i`'s two chunks: the first names Acme (and the second Paris on five pages)."""
    return (
        f"With {'ACME' if i == 0 else 'Acme'} you set {i} retries.",
        f"As The guide says, page {i} {'is in Paris' if i < 5 else 'ends'}.",
    )


def _pages(count: int, chunks: Callable[[int], tuple[str, str]] = _acme) -> list[FileVersion]:
    """`count` pages of two chunks each, written by `chunks`."""
    return [
        version(
            f"docs/page{i}.md", [("", chunks(i)[0]), ("Notes", chunks(i)[1])], title=f"Page {i}"
        )
        for i in range(count)
    ]


async def test_a_name_in_half_the_chunks_is_the_subject(tmp_path: Path) -> None:
    store = await get_store(f"sqlite:{tmp_path / 'index'}")
    await store.write(_pages(MIN_CHUNKS), [])
    # Acme: half the chunks, spelled so on all pages but one; Paris: an eighth of them;
    # "The" inside a sentence is capitalised on every other chunk but names nothing;
    # "Page" heads every chunk as its title, which is no chunk text.
    assert await subjects(store) == ("Acme",)
    await store.close()


async def test_subjects_follow_the_corpus_and_a_small_one_has_none(tmp_path: Path) -> None:
    store = await get_store(f"sqlite:{tmp_path / 'index'}")
    pages = _pages(MIN_CHUNKS)
    await store.write(pages, [])
    assert await subjects(store) == ("Acme",)
    await store.write([], [page.state.path for page in pages[MIN_CHUNKS // 4 :]])
    assert await subjects(store) == ()  # ten chunks left: too few to tell
    await store.close()


async def test_a_lower_case_name_in_emphasis_is_a_subject(tmp_path: Path) -> None:
    # A project never capitalised ("cattrs", "structlog") is written in emphasis; an
    # emphasised function word ("_not_") names nothing.
    store = await get_store(f"sqlite:{tmp_path / 'index'}")
    pages = _pages(
        MIN_CHUNKS,
        lambda i: (
            f"_cattrs_ structures {i} values, and _not_ every one of them.",
            f"Page {i} shows how cattrs unstructures them again.",
        ),
    )
    await store.write(pages, [])
    assert await subjects(store) == ("cattrs",)
    await store.close()


async def test_a_question_s_words_in_half_the_chunks_are_common(tmp_path: Path) -> None:
    # "test" and "pytest" are on every page of pytest's docs, rarely capitalised: no
    # subject, yet they tell no chunk from another; "timeout" is on one page.
    store = await get_store(f"sqlite:{tmp_path / 'index'}")
    pages = _pages(
        MIN_CHUNKS,
        lambda i: (
            f"pytest runs test {i} with a timeout." if i == 0 else f"pytest runs test {i}.",
            f"Each test on page {i} passes.",
        ),
    )
    await store.write(pages, [])
    question = "What is the default timeout after which pytest kills a hanging test?"
    assert await common_terms(store, question) == {"pytest", "test"}
    assert await subjects(store) == ()
    await store.write([], [page.state.path for page in pages[MIN_CHUNKS // 4 :]])
    assert await common_terms(store, question) == frozenset()  # too few chunks to tell
    await store.close()
