"""The thing a question asks about, and whether the documents ever name it.

"Does WTForms include a honeypot field to keep spam bots from submitting my forms?" asks
whether a thing exists. WTForms' docs never write "honeypot": retrieval found its pages on
fields and forms, and the extractive writer answered with "WTForms provides boolean and
string-based submit controls". Documents that never name a thing cannot say that it
exists (nor, as a rule, that it does not: a page states what a project has). "Which
logger name should I configure to see them?" asks which one of a kind it is, and
documents that never write "logger" cannot say which. So a question asking whether a
thing exists ("Is there a …", "Does X include / ship / provide … a …") or which of a kind
("Which date formats does …", "What liveness/readiness probe configuration …") whose thing
holds a word no chunk of the index holds (`answerability.unheard_terms`), nor any top
source one edit away, is a not-found before any score (`answerability.gate`).

Of the 1,044 documentation questions of the tuning and held-out sets, 45 ask whether a
thing exists; in 18 a word of the thing is in no chunk, and all 18 are unanswerable ("a
RequiredIf validator", "HTTP/3 over QUIC", "merged cells — colspan or rowspan —"). A thing
the user has ("My test task has a parameter …", "Does my form have …") is never read: a
looser reading had caught three answerable questions so. Of those asking which of a kind,
the words that say which kind it is (not its noun, which a page may leave out: "Which
library …?" answered "Pygments is used") are in no chunk in three, all unanswerable
("which logger name", "What liveness/readiness probe configuration", "Which date
formats"), and in two answerable questions only a word qualifying the kind ("What
additional information does tox add …", "What minimum usage …"), which is not read
(`_QUALIFIERS`). Read for every question, a term in no chunk withholds about as many right
answers as it catches unanswerable ones (measurements.md, 2026-12-03).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from citesynth.analysis import content_terms
from citesynth.synthesis.named import held_word, written_words
from citesynth.synthesis.sources import Source

_OPENERS = (
    r"(?:(?:a|an|any|some|its\s+own|their\s+own|built-in|builtin|native|official"
    r"|first-class)\s+)+"
)
"""The article and the words of kind before the thing: "a built-in", "any official"."""
_THING_END = (
    r"(?=\s+(?:that|which|who|whose|to|for|so|when|where|with|in|on|from|by|i|we|you|like)\b"
    r"|\s*[,;:?!]|\s*$|\s+or\s+(?:is|are|do|does|can|should|must)\b)"
)
"""Where the thing's words end: a clause or phrase about it, or the question's end."""
_THERE_IS = re.compile(rf"^\W*(?:is|are)\s+there\s+{_OPENERS}(?P<thing>.+?){_THING_END}", re.I)
"""\"Is there a built-in RequiredIf validator that …?\": the thing after the article."""
_HAS = re.compile(
    r"^\W*(?:does|do|did|will|would|can|could)(?:n['’]t)?\s+"
    r"(?P<owner>(?:[\w.\-/'’]+\s+){0,3}?[\w.\-/'’]+)\s+"
    r"(?:include|ship|provide|offer|have|has|come\s+with|bundle|support|expose|contain)s?\s+"
    rf"(?:{_OPENERS})?(?P<thing>.+?){_THING_END}",
    re.I,
)
"""\"Does WTForms include a honeypot field to …?\", "Does the tables extension support merged
cells?": what the owner (up to four words: "Celery 5.5", not a clause, "the article …
suggest that businesses … have a …") is asked to have."""
_KIND = re.compile(
    r"(?:(?:^|[.?!;]\s+|,?\s+and\s+)\W*(?:which|what)|,\s+what)\s+"
    r"(?P<thing>(?!(?:is|are|was|were|do|does|did|can|could|should|would|will|has|have|must)\b)"
    r"(?:\(?[A-Za-z][\w\-/()]*\s+){0,3}?\(?[A-Za-z][\w\-/()]*)\s+"
    r"(?:does|do|did|is|are|was|were|should|can|could|will|would|has|have|must)\b",
    re.I,
)
"""\"Which JSON Schema draft does the generated schema follow?\", "…, and which logger name
should I configure?", "In the deployment guide, what harakiri value is recommended?": the
kind between the question word opening a question (or "what" after a comma) and its verb;
not a relative "which" ("the article which implies that …", "…, which implies …")."""
_QUALIFIERS = frozenset(
    """additional extra other minimum maximum min max default recommended exact best
    preferred typical current specific particular different same first last next new old
    main actual right correct proper total overall""".split()
)
"""Words that qualify a kind rather than name it ("What minimum usage …")."""
_USERS = re.compile(r"^(?:i|we|you|my|our|your|me|us)\b", re.I)
"""An owner that is the user or the user's own ("Does my form have …"): not the
documentation's thing."""
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")


def things_asked(question: str) -> tuple[str, ...]:
    """The things `question` asks exist or asks which of, as it writes them.

    Of a kind (`_KIND`), the words that say which: "logger" of "logger name", "harakiri
    (request timeout)" of "harakiri (request timeout) value". The kind's own noun names
    what the answer is, which a page may state without it: "Which library does CodeHilite
    highlight code with?" is answered by "Pygments is used", which never writes "library".
    """
    kinds = tuple(
        found.group("thing").rpartition(" ")[0]
        for found in _KIND.finditer(question)
        if " " in found.group("thing")
    )
    exists = _THERE_IS.match(question)
    if exists is None and (has := _HAS.match(question)) and not _USERS.match(has["owner"]):
        exists = has
    return kinds if exists is None else (exists["thing"], *kinds)


def unnamed_things(
    question: str, sources: Sequence[Source], unheard: Collection[str]
) -> tuple[str, ...]:
    """The words of the things `question` asks about that the documents never write.

    A word counts when a term of it is `unheard` (no chunk of the index holds it), it is
    no qualifier (`_QUALIFIERS`) and no word of the `sources` is it or one edit away
    (`named.held_word`). Empty: the question asks about no such thing, or the documents
    name it.
    """
    if not unheard or not sources or not (things := things_asked(question)):
        return ()
    never = frozenset(unheard)
    candidates = [
        word
        for thing in things
        for word in _WORD.findall(thing)
        if word.lower() not in _QUALIFIERS and never.intersection(content_terms(word))
    ]
    if not candidates:
        return ()
    lowered, words = written_words(sources)
    kept = (w for w in candidates if not held_word(w, words, lowered, edits=_EDITS))
    return tuple(dict.fromkeys(kept))


_EDITS = 1
"""Edits a word of the thing may be away from a word of the sources and still be it: two
make other words of a thing's ("fixture" is two from "future", which Alembic's pages
write)."""
