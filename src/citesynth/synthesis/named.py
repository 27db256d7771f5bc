"""Acronyms a question names that the passages found never do.

"How do I authenticate API clients with JWT tokens in Flask?" retrieves Flask's pages on
sessions and CSRF tokens: on topic, and a writer given them answers "To authenticate API
clients with JWT tokens in Flask, you need … a one-time token [1]", every word after the
question's own copied from a source. An acronym names one thing (JWT, S3, IBM, BBC): when
none of the top passages holds it, written in any case or spelt out by the initials of
consecutive words ("Red Hat Developer Hub" holds RHDH, "twenty-foot equivalent unit" TEU),
they are about something else, and
the question is not answered by them (`answerability.gate`). Only acronyms are read:
capitalised words are names too, but a question's capitals are as often its first word or a
product's casual spelling. Roman numerals ("Henry VIII") are parts of names, and inline code
is an identifier the verifiers check on their own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citesynth.analysis import INLINE_CODE
from citesynth.synthesis.sources import Source

_ACRONYM = re.compile(r"(?<![\w`.\-/])([A-Z][A-Z0-9]{2,})s?(?![\w`.\-])")
"""Three or more capitals (digits after the first), a plural "s" aside; not inside inline
code or a dotted, hyphenated or slashed name. Two-letter ones are left out: "US", "UK",
"TV", "AI" are written as words as often as not ("from the US" against "American")."""
_ROMAN = re.compile(r"[IVXLCDM]+")
_WORD = re.compile(r"[A-Za-z0-9]+")
_COMPOUND = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")
_BETWEEN = frozenset("of and the for in on to a an".split())
"""Small words an acronym's spelt-out form may hold between its initials."""


def acronyms(question: str) -> tuple[str, ...]:
    """The acronyms of `question`, in order, each once (see the module docstring)."""
    found = (m.group(1) for m in _ACRONYM.finditer(INLINE_CODE.sub(" ", question)))
    return tuple(dict.fromkeys(a for a in found if not _ROMAN.fullmatch(a)))


def unnamed(question: str, sources: Sequence[Source]) -> tuple[str, ...]:
    """The acronyms of `question` that none of `sources` holds (text, title or headings)."""
    wanted = acronyms(question)
    if not wanted or not sources:
        return ()
    text = " ".join(
        f"{s.chunk.title} {' '.join(s.chunk.heading_path)} {s.chunk.text}" for s in sources
    )
    lowered = text.lower()
    words = [w.lower() for w in _WORD.findall(text)]
    compounds = [w.lower() for w in _COMPOUND.findall(text)]  # "twenty-foot" one word
    return tuple(
        acronym
        for acronym in wanted
        if not re.search(rf"(?<![a-z0-9]){re.escape(acronym.lower())}s?(?![a-z0-9])", lowered)
        and not (
            acronym.isalpha()
            and (spelt_out(acronym.lower(), words) or spelt_out(acronym.lower(), compounds))
        )
    )


def spelt_out(acronym: str, words: Sequence[str]) -> bool:
    """Whether consecutive `words` (lower case) have the initials of `acronym`.

    Small words may sit between them ("Bank of America" holds BOA as well as BA).
    """
    for start, first in enumerate(words):
        if first[0] != acronym[0]:
            continue
        matched, at = 1, start + 1
        while matched < len(acronym) and at < len(words):
            if words[at][0] == acronym[matched]:
                matched += 1
            elif words[at] not in _BETWEEN:
                break
            at += 1
        if matched == len(acronym):
            return True
    return False
