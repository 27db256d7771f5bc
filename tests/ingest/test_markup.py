"""Text files written in reStructuredText or Markdown are read as what they are written in."""

from __future__ import annotations

from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.ingest.blocks import BlockKind
from citesynth.ingest.chunking import split
from citesynth.ingest.loaders import load_text, loader_for
from citesynth.ingest.markup import markup_of
from citesynth.types import DocumentKind
from tests.conftest import answered_extractively

# Django's settings reference, as its `docs/ref/settings.txt` writes it.
DJANGO_SETTINGS = """\
========
Settings
========

.. contents::
    :local:
    :depth: 1

Core Settings
=============

.. setting:: SESSION_CACHE_ALIAS

``SESSION_CACHE_ALIAS``
-----------------------

Default: ``'default'``

If you're using :ref:`cache-based session storage <cached-sessions-backend>`,
this selects the cache to use.

.. setting:: SESSION_COOKIE_AGE

``SESSION_COOKIE_AGE``
----------------------

Default: ``1209600`` (2 weeks, in seconds)

The age of session cookies, in seconds.
"""

LLMS_TXT = """\
# FastCache

> A cache for Python services.

## Docs

- [Quickstart](https://example.org/quickstart.md): install and first cache
- [Eviction](https://example.org/eviction.md): how entries leave the cache

## Configuration

The default size is 128 entries; set `max_entries` to change it.
"""

RELEASE_NOTES = """\
==========================
Django 5.0.6 release notes
==========================

*May 7, 2024*

Django 5.0.6 fixes a packaging error in 5.0.5.
"""

# Plain text: a licence's boxed clause, comments, a log, a table's rule under a longer line.
BOXED = """\
************************************************************************
*                                                                      *
*  6. Disclaimer of Warranty                                           *
*                                                                      *
************************************************************************
"""
COMMENTS = """\
# Copyright (C) 2000-2018 Free Software Foundation, Inc.
#
# This file is part of `groffer' which is part of `groff'.
"""
PROSE_OVER_A_RULE = """\
The results of the last run were written to the log below, one line a test.
------------------------------------------------------------
ok 1 - connect
ok 2 - read
"""


@pytest.mark.parametrize(
    ("text", "markup"),
    [
        (DJANGO_SETTINGS, "rst"),
        (RELEASE_NOTES, "rst"),
        ("Install\n=======\n\nRun make.\n\nUse\n---\n\nRun it.\n", "rst"),
        ("Notes\n=====\n\nSee :func:`run` and ``limit``.\n", "rst"),
        (LLMS_TXT, "markdown"),
        ("Steps:\n\n```bash\npip install fastcache\n```\n", "markdown"),
        (BOXED, None),
        (COMMENTS, None),
        (PROSE_OVER_A_RULE, None),
        ("Just one line.\n", None),
        # rows of tildes between blank lines: separators drawn in plain text, no fences
        ("Checklist.\n\n~~~~~~~~~~\n\nSync every 6 hours.\n\n~~~~~~~~~~\n\nBye.\n", None),
        # Markdown underlining its titles, with a fence: the fence is Markdown's own
        ("Project\n=======\n\nInstall\n-------\n\n```\npip install x\n```\n", "markdown"),
        ("#!/bin/sh\n\n# Detect the platform\n\nOS=`uname -s` # see [x](y)\n", None),
        ("Title\n=====\n\nOne underlined title and nothing else of either language.\n", None),
    ],
)
def test_the_markup_a_text_is_written_in(text: str, markup: str | None) -> None:
    assert markup_of(text) == markup


def test_markdown_and_restructuredtext_together_read_as_the_one_held_more() -> None:
    setext_with_fences = "Title\n=====\n\nPart\n----\n\n```\nx = 1\n```\n\nSee [the docs](x.md).\n"
    assert markup_of(setext_with_fences) == "markdown"
    assert markup_of(setext_with_fences.replace("```", "::")) == "rst"


def test_restructuredtext_in_a_txt_file_has_its_sections_and_title() -> None:
    (parsed,) = load_text("ref/settings.txt", DJANGO_SETTINGS.encode()).parsed
    assert parsed.document.kind is DocumentKind.RST
    assert parsed.document.title == "Settings"
    headings = [block.heading for block in parsed.blocks if block.kind is BlockKind.HEADING]
    assert headings == [
        "Settings",
        "Core Settings",
        "``SESSION_CACHE_ALIAS``",
        "``SESSION_COOKIE_AGE``",
    ]
    age = next(c for c in split(parsed, target_tokens=40, overlap_tokens=0) if "1209600" in c.text)
    assert age.heading_path[-1] == "``SESSION_COOKIE_AGE``"
    assert "SESSION_CACHE_ALIAS" not in age.text
    assert parsed.document.text[age.char_start : age.char_end] == age.text


def test_markdown_in_a_txt_file_has_its_headings() -> None:
    (parsed,) = load_text("llms.txt", LLMS_TXT.encode()).parsed
    assert parsed.document.kind is DocumentKind.MARKDOWN
    assert parsed.document.title == "FastCache"
    chunk = next(c for c in split(parsed) if "128 entries" in c.text)
    assert chunk.heading_path[-1] == "Configuration"


def test_plain_text_stays_paragraphs_named_by_its_file() -> None:
    (parsed,) = load_text("notes.txt", (PROSE_OVER_A_RULE + "\n" + COMMENTS).encode()).parsed
    assert parsed.document.kind is DocumentKind.TEXT
    assert parsed.document.title == "notes.txt"
    assert all(block.kind is BlockKind.PARAGRAPH for block in parsed.blocks)


@pytest.mark.parametrize("name", ["README", "NEWS", "INSTALL", "CHANGES", "License", "docs/FAQ"])
def test_text_files_named_without_a_suffix_are_read(name: str) -> None:
    loader = loader_for(name)
    assert loader is not None and loader.__name__ == "load_text"


def test_a_script_named_as_a_text_file_is_not_read() -> None:
    assert loader_for("bin/install") is None  # "install" in lower case is a script's name


def test_a_readme_without_a_suffix_is_read_as_its_markup() -> None:
    (parsed,) = load_text("README", RELEASE_NOTES.encode()).parsed
    assert parsed.document.title == "Django 5.0.6 release notes"


def test_markup_is_decided_from_the_first_lines_of_a_huge_file() -> None:
    log = "INFO started\n" * 500_000
    assert markup_of(DJANGO_SETTINGS + log) == "rst"
    assert markup_of(log + DJANGO_SETTINGS) is None


async def test_a_setting_asked_by_default_is_answered_from_a_txt_reference(
    engine: Engine, tmp_path: Path
) -> None:
    # Read as plain text, the settings page ran one setting into the next under no heading,
    # and the answer quoted "The age of session cookies, in seconds." with no value.
    answer = await answered_extractively(
        engine,
        tmp_path / "docs",
        "settings.txt",
        DJANGO_SETTINGS,
        "How long does a session cookie last by default?",
    )
    assert not answer.not_found, answer.warnings
    assert "1209600" in answer.answer
    assert "SESSION_COOKIE_AGE" in answer.answer
    # the default shown with what it is of, the sentence below it
    assert "The age of session cookies" in answer.answer


async def test_a_default_above_its_setting_is_shown_before_it_as_a_sentence_of_its_own(
    engine: Engine, tmp_path: Path
) -> None:
    page = (
        "========\nSettings\n========\n\n.. setting:: POOL_SIZE\n\n``POOL_SIZE``\n"
        "-------------\n\nDefault: ``10``\n\nThe number of database connections kept open "
        "in the pool between requests.\n"
    )
    answer = await answered_extractively(
        engine,
        tmp_path / "docs",
        "settings.txt",
        page.replace("\n", "\r\n"),  # written on Windows: the same answer
        "How many database connections are kept open in the pool by default?",
    )
    assert not answer.not_found, answer.warnings
    said = [claim.text for claim in answer.claims]
    assert "Default: ``10``." in said, said
    assert any(text.startswith("The number of database connections") for text in said)
