"""A question asking in which release something changed, and whether an answer names one.

"Which version of Black first introduced the --line-ranges option?" (Black's docs document
the option and never say when it came) was answered with the option's description, every
sentence supported; "In which Black release was runtime support for Python 3.5 removed?"
with the releases that removed 3.6 to 3.9. Asked when something was added, removed,
deprecated or renamed, an answer states a release number, and the one the question names
("Python 3.5") when it names one: else it is about something else, and the answer is a
not-found for every writer, like a number asked and none stated (`asked.states_number`).

Asked which version of a thing something needs, supports or is built on, an answer states
a version and names the thing (`asks_version_of`, `states_version_of`): "Which Python
version is the official pyfound/black Docker image built on?" (Black's docs never say) was
answered with "From version 23.11.0 the Docker image installs a compiled black", a version
of Black; "What is the minimum SQLite library version coverage.py needs?" with the page
saying coverage.py stores its data in SQLite. "What version of Podman is needed?" is
answered by "the latest version" of Podman, but a minimum asked is a number.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from citesynth.analysis import query_terms
from citesynth.synthesis.asked import near_naming
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
    r"|ion)|drop(?:s|ped)?|renamed?|became|land(?:s|ed)?|gain(?:s|ed)?|appear(?:s|ed)?"
    r"|arriv(?:e|es|ed))\b",
    re.I,
)
"""What a release did to the thing asked about ("When did Griffe gain support for …? In
which release did that support land?")."""
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

    Citation markers and Markdown are read away (`verify.claims.plain`) first. The release
    numbers the question gives are what the asker knows ("Which Trio release dropped
    Python 3.9?"): another must be written, the release asked. A number joined to a name
    by a hyphen, or after a capitalised name, is that name's release ("myplugin-1.0.0" in
    tox's plugin example answered "Which tox release first added support for project-local
    plugins?"), read only when the question names it (`_of_another`).
    """
    asked = set(query_terms(question))
    written = {number for claim in claims for number in _release_numbers(plain(claim), asked)}
    given = _release_numbers(question)
    return bool(written - given) and given <= written


def names_release(text: str) -> bool:
    """Whether `text` (a heading: "Trio 0.32.0 (2025-10-31)") writes a release number."""
    return _RELEASE_NUMBER.search(text) is not None


_NAMED_RELEASE = re.compile(
    r"([A-Za-z][\w.]*)-$|(?<![\w.])((?!(?:Version|Release|Since|Until|Before|After|From|In"
    r"|To|As|Of|On|At|By|With|For|And|Or|The|Only|Now|Also|Still|See|Added|Removed|Changed"
    r"|Deprecated|New|Drop|Dropped)\b)[A-Z][\w.+]*[A-Za-z+])[ \t]+$"
)
"""A name a release number is joined to by a hyphen ("myplugin-" of "myplugin-1.0.0"), or a
capitalised name before it ("Python " of "Python 3.9"), not a word leading into it ("Since
2.4", "Version 3.0")."""


def _of_another(found: re.Match[str], asked: set[str]) -> bool:
    """Whether the release number `found` is joined to a name `asked` does not hold.

    "Werkzeug supports Python 3.9 and newer" writes a release of Python, no answer to "In
    which Werkzeug version will LocalManager be removed?".
    """
    named = _NAMED_RELEASE.search(found.string, max(0, found.start() - 40), found.start())
    if named is None:
        return False
    return not set(query_terms(named.group(1) or named.group(2))) & asked


def _release_numbers(text: str, asked: set[str] | None = None) -> set[str]:
    """The release numbers `text` writes, lower-cased ("v2.1", "version 8").

    With `asked` (a question's terms), not one joined to a name they lack (`_of_another`).
    """
    return {
        found.group().lower()
        for found in _RELEASE_NUMBER.finditer(text)
        if asked is None or not _of_another(found, asked)
    }


_THING_WORD = (
    r"(?!(?:of|for|and|or|in|on|to|with|the|a|an|by|from|at|is|are|was|does|do|did|can|"
    r"minimum|min|oldest|earliest|lowest|minimal|least|required|supported)\b)[\w.+-]+"
)
"""A word naming the thing whose version is asked ("SQLite library"), not a function word."""
_LEAST = r"(?:minimum|min|oldest|earliest|lowest|minimal|least)\s+"
_ASKS_VERSION_OF = re.compile(
    rf"\b(?:what|which)(?:['’]s|\s+(?:is|are|was|were))?\s+(?:the\s+)?(?P<least>{_LEAST})?"
    rf"(?:(?:required|supported)\s+)?(?P<thing>(?:{_THING_WORD}\s+){{1,3}}?)versions?\b"
    r"(?!\s+(?:schemes?|numbers?|strings?|specifiers?|files?|bumps?|fields?|headers?"
    r"|options?|tags?|controls?|constraints?|ranges?|pins?)\b)"
    rf"|\b(?:what|which)(?:['’]s|\s+(?:is|are|was|were)\s+the)?\s+(?P<least_of>{_LEAST})?"
    rf"versions?\s+of\s+(?P<of>{_THING_WORD}(?:\s+{_THING_WORD})?)",
    re.I,
)
"""Asking for the version of a thing: "What's the minimum Python version …", "Which Python
version is … built on?", "What version of Podman is needed?" (`thing` or `of`); with
`least` (`least_of`) a minimum. Not a question about a version's scheme, number format or
pin ("Which option of the standard version scheme …", "What version specifier …")."""
_DECIDED = re.compile(
    r"\b(?:decid|determin|choos|pick|select|detect|infer|guess|work(?:s|ed|ing)?\s+out)\w*\s+$",
    re.I,
)
"""A verb of deciding right before "which version": the question asks how the version is
decided ("how does it decide which JSON Schema version to interpret it under?", answered
by the `$schema` keyword it inspects), not which version it is."""
_ANY_VERSION = re.compile(r"\b(?:latest|newest|current|any|all)\b", re.I)
"""A version named without its number: "the latest version of Podman"."""
_NAME_NUMBER = re.compile(r"\b([A-Za-z][\w+-]*+)[ \t]++v?\d++(?!\w|\.\d)")
"""A name and a whole number, a version when the name is the thing asked ("Windows 11")."""


def asks_version_of(question: str) -> tuple[list[str], bool] | None:
    """The terms naming the thing whose version `question` asks, and whether a minimum.

    None when it asks no version of a thing, asks in which release something changed
    (`asks_release`), or asks how one is decided (`_DECIDED`).
    """
    asked = _ASKS_VERSION_OF.search(question)
    if asked is None or asks_release(question) or _DECIDED.search(question, 0, asked.start()):
        return None
    terms = query_terms(asked.group("thing") or asked.group("of") or "")
    if not terms:
        return None
    return terms, bool(asked.group("least") or asked.group("least_of"))


def states_version_of(question: str, claims: Sequence[str], headings: Sequence[str] = ()) -> bool:
    """Whether `claims` state the version of the thing `question` asks about.

    A claim states a version (a release number the question does not name itself, the
    thing's name and a whole number, "Windows 11", or, when no minimum is asked, "the
    latest" and the like) and names the thing, or follows a claim or stands under an answer
    heading (`headings`, one per claim) that does. True when no version of a thing is asked.
    """
    asked = asks_version_of(question)
    if asked is None:
        return True
    thing, least = asked
    named = _release_numbers(question)
    read = [plain(claim) for claim in claims]
    about = near_naming(thing, read, headings)
    for index, claim in enumerate(read):
        stated = (
            bool(_release_numbers(claim) - named)
            or (not least and _ANY_VERSION.search(claim) is not None)
            or any(
                set(query_terms(found.group(1))) & set(thing)
                for found in _NAME_NUMBER.finditer(claim)
            )
        )
        if stated and about[index]:
            return True
    return False
