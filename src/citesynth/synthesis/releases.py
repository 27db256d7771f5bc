"""A question asking in which release something changed, and whether an answer names one.

"Which version of Black first introduced the --line-ranges option?" (Black's docs document
the option and never say when it came) was answered with the option's description, every
sentence supported; "In which Black release was runtime support for Python 3.5 removed?"
with the releases that removed 3.6 to 3.9. Asked when something was added, removed,
deprecated or renamed, an answer states a release number, and the one the question names
("Python 3.5") when it names one: else it is about something else, and the answer is a
not-found for every writer, like a number asked and none stated (`asked.states_number`).
Not a question asking which version something needs or supports ("What version of Podman
is needed?" is answered by "the latest version").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from citesynth.verify.claims import plain

_ASKS_RELEASE = re.compile(
    r"\b(?:which|what)\s+(?:[\w.-]+\s+){0,2}?(?:versions?|releases?)\b"
    r"|\bsince\s+(?:which|what)\s+(?:[\w.-]+\s+){0,2}?(?:versions?|releases?)\b",
    re.I,
)
"""Asking for a release: "Which version of HTTPX …", "In which Black release …", "Since
which version …"."""
_CHANGED = re.compile(
    r"\b(?:first|introduc(?:e|es|ed|ing)|add(?:s|ed)?|remov(?:e|es|ed|al)|deprecat(?:e|es|ed"
    r"|ion)|drop(?:s|ped)?|renamed?|became|landed)\b",
    re.I,
)
"""What a release did to the thing asked about."""
_RELEASE_NUMBER = re.compile(
    r"(?<![\w.])v?\d++(?:\.\d++)++(?![.\d]*+\w)|\b(?:version|release|v)[ \t]*+\d++\b", re.I
)
"""A release number: "22.10.0", "v2.1", "3.5", "version 8", "release 4"; possessive, so that
a run of "1.1.1…" followed by a letter is read once, not once per dot."""


def asks_release(question: str) -> bool:
    """Whether `question` asks in which release something changed (see the module)."""
    return _ASKS_RELEASE.search(question) is not None and _CHANGED.search(question) is not None


def states_release(question: str, claims: Iterable[str]) -> bool:
    """Whether `claims` state a release number, and each one `question` names.

    Citation markers and Markdown are read away (`verify.claims.plain`) first.
    """
    written = {
        found.group().lower()
        for claim in claims
        for found in _RELEASE_NUMBER.finditer(plain(claim))
    }
    named = {found.group().lower() for found in _RELEASE_NUMBER.finditer(question)}
    return bool(written) and named <= written
