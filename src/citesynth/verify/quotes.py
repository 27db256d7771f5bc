"""Text a claim quotes as what something prints, shows or says must be the sources' own.

    misquoted('By default click.pause prints "Press any key to continue..."', [page])
    → ('Press any key to continue...',)   # when the page never writes it

A claim stating literal text (what a function prints, displays, returns, renders or
gives, a message, an error, a prompt) in quotes quotes it (double quotes, or single quotes
standing apart from any word, never an apostrophe): a source that describes the text ("This
function will print a quick message to the terminal") without writing it does not support
the quotation. The embedded model answered Click's "What text does click.pause print by
default?", which its docs never say, with 'is "Press any key to continue..." [1]', and both
verifiers passed it on the words around the quote. Quotes are compared case-blind and
without punctuation ("continue..." is "continue"); a quote of one word is not read. A quote
the passages' titles or headings write is written: HTTPX's troubleshooting section is
headed "`The handshake operation timed out`" and its text says "the error above".

A quoted value (digits and signs, no letter: "3-6", "1.2.3") is read in any claim: a
title is no value, and Python-Markdown's `toc_depth` set to "3-6" where its docs set
"4-6" holds every number and word of the passage.

Only claims about literal text are read otherwise: in Wikipedia-style claims quotes name titles,
cases and epithets ("Master of Puppets", "the Caruso of Rock") whose source passage is
often another part of the article, and there a missing quote says nothing. On the tuning
splits it fires on no supported claim (WiCE dev, SciFact train, HaluEval dev, the Developer
Hub `dev` answer claims, the written documentation claims) and on 4 unsupported HaluEval
and 6 unsupported Developer Hub claims.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citesynth.analysis import INLINE_CODE

_QUOTED = re.compile(
    r"[\"“”]([^\"“”\n]{3,200})[\"“”]|(?<![\w'’])['‘]([^'‘’\n]{3,200})['’](?![\w'’])"
)
"""Text in double quotes, or in single quotes that stand apart from any word (never an
apostrophe: "Python's 'foo'")."""
_LITERAL = re.compile(
    r"\b(?:prints?|printed|displays?|displayed|shows?|shown|outputs?|messages?|text|"
    r"returns?|reads|prompts?|errors?|gives?|renders?|rendered|rendering|yields?|evaluates?|"
    r"evaluated)\b",
    re.IGNORECASE,
)
"""Words that make a claim one about literal text."""
_LETTER = re.compile(r"[^\W\d_]")


def _value(quoted: str) -> bool:
    """Whether a quotation is a value: digits and signs, no letter ("3-6", "1.2.3")."""
    return any(c.isdigit() for c in quoted) and not _LETTER.search(quoted)


_NOT_WORD = re.compile(r"(?:\\[nt]|[^0-9a-z])+")


def _plain(text: str) -> str:
    return " ".join(_NOT_WORD.sub(" ", text.lower()).split())


def misquoted(claim: str, passages: Sequence[str]) -> tuple[str, ...]:
    """The quotations of a claim about literal text that no passage writes (see above)."""
    if not any(mark in claim for mark in "\"“'‘"):
        return ()
    prose = INLINE_CODE.sub(" ", claim)  # code is checked as code; its quotes are its own
    found = dict.fromkeys(m.group(1) or m.group(2) for m in _QUOTED.finditer(prose))
    literal = _LITERAL.search(claim) is not None
    quoted = [q for q in found if len(_plain(q).split()) >= 2 and (literal or _value(q))]
    if not quoted:
        return ()
    source = f" {_plain(' '.join(passages))} "
    return tuple(q for q in quoted if f" {_plain(q)} " not in source)
