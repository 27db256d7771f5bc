"""An answer that only restates its question: it states nothing asked.

The embedded model answered "What gzip compression level does Django's GZip middleware use
when it compresses responses?" (the docs state none) with "The gzip compression level used
by Django's GZip middleware when it compresses responses is [1].", a marker where the value
goes, and every verifier passed it: its source holds every word. Like a number asked and
none stated (`asked.states_number`), it is a not-found, for every writer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from citesynth.analysis import INLINE_CODE, content_terms
from citesynth.synthesis.named import code_names
from citesynth.verify.claims import plain


def restates_only(question: str, claims: Iterable[str]) -> bool:
    """Whether every one of `claims` only restates `question`, which asks for something.

    A claim holding no content term the question lacks states nothing asked. Only for a
    question opening with a question word ("what", "which", "who", "where", "when", "how")
    that offers no choice: a yes/no question ("When a user uploads a file, does Django keep
    it in RAM?") or one between named options ("… in RAM or on disk?") is answered in its
    own words. Code a claim names that the question does not write says more, though its
    parts are the question's words ("`loop.index`" answering "Which loop variable gives the
    current iteration of the loop, 1 indexed?"). False without claims.
    """
    claims = list(claims)
    if not claims or not _ASKS_FOR.match(question) or _CHOICE.search(question):
        return False
    asked = set(content_terms(question))
    written = question.casefold()
    for claim in claims:
        if not set(content_terms(plain(claim))) <= asked:
            return False
        code = [m.group(1).strip() for m in INLINE_CODE.finditer(claim)]
        if any(name.casefold() not in written for name in [*code, *code_names(claim)]):
            return False  # "`loop.index`" names what the question's "loop … indexed" asks
    return True


_ASKS_FOR = re.compile(r"^\W*(?:what|which|who|whom|whose|where|when|how)\b", re.I)
_CHOICE = re.compile(
    r"\bor\b|,\s*(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have|had)\b",
    re.I,
)
"""A choice between options, or a yes/no question after a clause ("When …, does …?")."""
RESTATED = "no sentence of the answer said more than the question"
