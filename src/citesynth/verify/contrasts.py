"""A contrast whose halves a claim gives each other's names.

    moved_across("The default Undefined class implements __int__ to return 0, while
                  __str__ fails with an exception.", source)

against "… the default :class:`Undefined` class implements ``__str__`` to returns an empty
string, while ``__int__`` and others fail with an exception." Every word of the claim is
in the sentence, and each of the two names stands in a clause of its own there ("``__int__``
and others" is one), so `swaps.swapped`, reading the words next to a name, finds nothing
to compare; yet each half of the claim says what the other half of the sentence says.

A claim and a sentence each contrast two things once (one "while", "whereas" or "but"
between two halves). Their halves correspond when each half of the claim shares
more content terms, its names left out, with the same half of the sentence than with the
other. A name the claim writes in one half only, and the sentence in the other half only,
is moved across: "New style gettext calls are fully supported by other extraction tools
but might not work as expected with the Babel extraction tool" against "They are fully
supported by the Babel extraction tool, but might not work as expected with other
extraction tools". Names are what the sentence writes as code (``__int__``), capitalised
words not opening a sentence (`analysis.NAME`) and numbers; other words a paraphrase may
well move from one half to the other, so one alone is never read. Words moved both ways
are (`_crossed`): each half of the claim says words only the other half of the sentence
says, and with those left out the halves correspond: "the space is left as-is in the link
but converted to an underscore in the label" against Python-Markdown's "… converted to an
underscore in the link but left as-is in the label".

Fitted on the 760 written documentation tuning and probe claims (three wrong claims
caught); on every labelled set, tuning and report, it vetoes no supported claim.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from citesynth.analysis import INLINE_CODE, NAME, content_terms
from citesynth.ingest.rst import rendered_roles
from citesynth.verify.opposites import TOKEN

_TURN = re.compile(r",?\s+(?:while(?!\s+\w+ing\b)|whereas|but(?!\s+(?:only|also)\b))\s+", re.I)
"""Where a sentence contrasting two things turns from one to the other ("but only if"
restricts what comes before, "while creating it" says what happens meanwhile, "; for
instance" gives an example)."""
_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)*\b")
_LONGEST = 600
"""Characters of a claim or a sentence read: a longer one is a list, never one contrast."""


def _halves(text: str) -> tuple[str, str] | None:
    """The two halves of `text` when it turns once, or None."""
    if len(text) > _LONGEST:
        return None
    parts = _TURN.split(text)
    return (parts[0], parts[1]) if len(parts) == 2 else None


def _tokens(text: str) -> frozenset[str]:
    return frozenset(TOKEN.findall(text.lower()))


def _names(claim: str, sentence: str) -> frozenset[frozenset[str]]:
    """The names of `claim` as the tokens that write them (see the module docstring)."""
    written = [m.group(1) for m in INLINE_CODE.finditer(sentence)]
    written += [m.group() for m in NAME.finditer(claim)]
    written += [m.group() for m in _NUMBER.finditer(claim)]
    return frozenset(found for name in written if (found := _tokens(name)))


def _terms(text: str, names: frozenset[str]) -> frozenset[str]:
    return frozenset(content_terms(text)) - names


def _correspond(claim: tuple[str, str], sentence: tuple[str, str], names: frozenset[str]) -> bool:
    """Whether each half of the claim says more of the same half of the sentence."""
    mine = [_terms(half, names) for half in claim]
    theirs = [_terms(half, names) for half in sentence]
    return all(len(mine[i] & theirs[i]) > len(mine[i] & theirs[1 - i]) for i in range(2))


def moved_across(claim: str, sentences: Iterable[str]) -> tuple[str, str] | None:
    """The half of `claim` writing a name the sentence writes in its other half, or None.

    That half of the claim and the corresponding half of the sentence, which says
    otherwise: "might not work as expected with the Babel extraction tool" and "might not
    work as expected with other extraction tools".
    """
    if (mine := _halves(claim)) is None:
        return None
    for written in sentences:
        sentence = rendered_roles(written)
        if (theirs := _halves(sentence)) is None:
            continue
        if (moved := _name_moved(claim, mine, sentence, theirs)) is not None:
            return mine[moved].strip(), theirs[moved].strip()
        if _crossed(mine, theirs):
            return mine[0].strip(), theirs[0].strip()
    return None


def _name_moved(
    claim: str, mine: tuple[str, str], sentence: str, theirs: tuple[str, str]
) -> int | None:
    """The half of the claim writing a name only the sentence's other half writes, or None."""
    names = _names(claim, sentence)
    name_terms = frozenset(t for name in names for t in content_terms(" ".join(name)))
    if not names or not _correspond(mine, theirs, name_terms):
        return None
    in_claim = (_tokens(mine[0]), _tokens(mine[1]))
    in_sentence = (_tokens(theirs[0]), _tokens(theirs[1]))
    for name in sorted(names, key=sorted):
        for i in range(2):
            here = name <= in_claim[i] and not name <= in_claim[1 - i]
            if here and name <= in_sentence[1 - i] and not name <= in_sentence[i]:
                return i
    return None


def _crossed(mine: tuple[str, str], theirs: tuple[str, str]) -> bool:
    """Whether each half of the claim says words only the other half of the sentence says.

    Both ways, with what is left corresponding: "the space is left as-is in the link but
    converted to an underscore in the label" against "… converted to an underscore in the
    link but left as-is in the label".
    """
    said = [frozenset(content_terms(half)) for half in mine]
    source = [frozenset(content_terms(half)) for half in theirs]
    moved = [(said[i] - said[1 - i]) & (source[1 - i] - source[i]) for i in range(2)]
    return all(moved) and _correspond(mine, theirs, moved[0] | moved[1])
