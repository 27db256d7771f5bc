"""Change logs: documents that say how a project changed, not how to use it.

A documentation corpus carries its release notes, change log or upgrade guide beside its
guides. Their sentences share the words of almost every question ("Add `partitioned` to
`Response.delete_cookie()` on Python 3.14 and later.", "In order to deserialize to an
object, use a `post_load` method." under "Upgrading to newer releases"), so they rank
beside the guide's own answer and fill it with history: asked "How do I render a Jinja2
template as the response?", the extractive writer quoted "Add a default templating
configuration with Jinja2" from the release notes. Unless the question is about a
change (`asks_about_changes`: a version, an upgrade, a deprecation, what is new or was
removed), a sentence of a change log (`change_log`: by its file's name or its title) is
worth a little less than a guide's.
"""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import PurePosixPath

CHANGE_LOG_WEIGHT = 0.85
"""What a change log's sentence is worth beside a guide's, for a question about no change."""

_STEMS = frozenset("changelog changes history news releases whatsnew upgrading".split())
"""File names (without extension) that are a change log as a whole: "CHANGES.rst"."""
_NAME_WORDS = frozenset("changelog changelogs upgrade upgrading whatsnew".split())
_NAME_PAIRS = frozenset({("release", "notes"), ("release", "note"), ("whats", "new")})
"""Words, and pairs of words, of a file's name that make it a change log."""
_FOLDERS = frozenset(
    """changelog changelogs change_log change-log change_logs changes releases release_notes
    release-notes releasenotes whatsnew whats_new whats-new""".split()
)
"""Folder names that make every file in the folder a change log ("docs/change_log/
release-2.6.md", "docs/releases/4.2.rst"): the whole name ("git-changelog/docs/usage.md" is
a guide), and not "history" nor "news", which hold articles as often."""
_TITLE = re.compile(
    r"^\W*(?:change\s*log|release\s+(?:notes|history)|version\s+history|upgrading\b"
    r"|upgrade\s+guide|what'?s\s+new\b)|^(?!\W*\w+ing\b).*\brelease\s+notes\W*$"
    r"|^\W*(?:[A-Za-z][\w.-]*\s+){1,2}(?:v\d+\.\d+(?:\.\d+)*|\d+\.\d+\.\d+)"
    r"(?:\s+\([^()]*\))?\W*$",
    re.I,
)
"""How a change log's title starts, or ends ("Python-Markdown 2.6 Release Notes"; not
"Writing Release Notes"): not "History of Rome", nor "Changes to the tax code". A name with
a release alone, "v" before it or three parts ("Hatch v1.18.0", a release's post; "Scrapy
2.19.0 (2026-09-10)"), is the title of one too; not a name with a version of what a guide is
about ("OAuth 2.0", "Python 3.12", "Ubuntu 22.04")."""
_NAMED_HISTORY = re.compile(r"^\W*(?:[\w.-]+\s+){1,2}(?:history|changes)\W*$", re.I)
"""A name's history or changes in a folder named "history": "Hatch history", "Hatchling
history", "Change history" (Hatch's history had filled answers on how to use it: "When shell
configuration has not been defined, attempt to use the current shell …" for which shell
`hatch shell` falls back to); elsewhere "Command history" or "Schema changes" is a guide's
title."""
_ABOUT_CHANGES = re.compile(
    r"\b(?:versions?|upgrad\w*|migrat\w*|releases?|released|change\s*logs?|changed|changes"
    r"|deprecat\w*|removed|renamed|added|new\s+in|no\s+longer|anymore|history|backward\w*"
    r"|breaking|fixes|bug\s*fix\w*|(?:was|were|been|got|is|are)\s+fixed|fixed\s+in)\b"
    r"|\b\d+\.(?:\d+|x)\b",
    re.I,
)


def change_log(document: str, title: str | None) -> bool:
    """Whether the document at path `document` (its `title`, if known) is a change log.

    By a word of its file's name ("CHANGELOG.md", "release-notes.md", "upgrading.rst",
    "upgrade-rhdh") or of a folder it is in ("change_log/release-2.6.md"), or by how its
    title starts or ends ("Release Notes", "Upgrading to newer releases", "What's new in
    2.0", "Python-Markdown 2.6 Release Notes").
    """
    path, _, record = document.partition("#")  # a JSON Lines record: its id names it
    stem = (record or PurePosixPath(path).stem).lower().replace("'", "")
    words = re.split(r"[^a-z]+", stem)
    if stem in _STEMS or _NAME_WORDS.intersection(words):
        return True
    if _NAME_PAIRS.intersection(pairwise(words)):
        return True
    folders = {folder.lower() for folder in PurePosixPath(path).parent.parts}
    if _FOLDERS.intersection(folders):
        return True
    if title is None:
        return False
    if "history" in folders and _NAMED_HISTORY.search(title):
        return True
    return _TITLE.search(title) is not None


_ASKERS_CHANGE = re.compile(
    r"\b(?:I|we)(?:['’]ve|\s+have|\s+had|['’]d)?\s+(?:just\s+|already\s+)?"
    r"(?:added|removed|renamed|changed|fixed)\b",
    re.I,
)
"""What the asker did to their own project ("I added hatch_build.py to the exclude list"):
no question about how the documented project changed. Not "you": "Have you removed the
`--no-color` flag?" asks the project's authors."""


def asks_about_changes(question: str) -> bool:
    """Whether `question` is about how the project changed (a version, an upgrade, …).

    Not for what the asker changed (`_ASKERS_CHANGE`).
    """
    return _ABOUT_CHANGES.search(_ASKERS_CHANGE.sub(" ", question)) is not None
