"""What a why-question asks for: a reason, and whether a sentence states one.

"Why isn't get_logger's return type annotated with the BindableLogger protocol?" is
answered by structlog's "But using that as a return type is worse than useless, because
you'd have to use `typing.cast` on every logger …", and "Why does structlog ship test
helpers?" by "… That's why it ships with test helpers …". Sentences sharing more of the
question's words rank as high or higher (what `get_logger()` is typed as, what
`ReturnLogger` and `LogCapture` do) and fill the answer, and the reason is left out.
Why-question answering has long read an answer's cue words for that (Verberne et al.,
"What is not in the bag of words for why-QA?", 2010): "because", "since", "so that", "in
order to", "the reason", "that's why", a purpose ("to avoid …", "useful for …"), a
consequence ("therefore", "otherwise", "leads to", "which means", ", so the resources must
still be referenced"). The extractive writer puts the sentences in reach that state one
first (`asked_first._stating_first`), as it does numbers for a question asking for one, and
the embedded model's evidence keeps them first (`evidence.select`); relevance still
decides which sentences are in reach.

Only which sentences are chosen and in what order changes: reasons are often stated with
no cue word ("at that point, the response was already sent"), so an answer without one is
not taken for a not-found. The cue words are `verify.cues`'.

A reason the answer gives is what a why-question asks, so it is checked: the answer's
verifier is held to the links of cause and effect its claims make (`links_checked`,
`verify.causes`). "GZipMiddleware defaults to compresslevel 9 because it is an integer
ranging from 1 to 9 [1]" loses its "because" and keeps "GZipMiddleware defaults to
compresslevel 9 [1]" (`verify.trim`).
"""

from __future__ import annotations

import re

from citesynth.verify.base import Verifier
from citesynth.verify.causes import LinksChecked
from citesynth.verify.cues import ASKING_WORDS, states_reason

__all__ = ["ASKING_WORDS", "asks_why", "links_checked", "states_reason"]

_ASKS = re.compile(
    r"\bwhy\b(?![`'\".\w])|\bhow\s+come\b|\bfor\s+what\s+reason\b|\bis\s+there\s+a\s+reason\b"
    r"|\bwhat(?:'s|\s+(?:is|was|are|were))\s+(?:the|its|their)\s+(?:main\s+)?"
    r"(?:(?:reasons?|point)(?=\s+(?:of|for|behind|that|in)\b|\s*\?)"
    r"|purpose|rationale|motivation|benefits?|advantages?)\b"
    r"|\bwhat(?:'s|\s+(?:is|are))\s+\S+(?:\s+\S+){0,3}\s+(?:for|good\s+for)\s*\?",
    re.I,
)
"""A question asking for a reason: "Why …", "How come …", "Is there a reason …", "What is
the purpose of …", "What's the point of …?", "What is `exclude` for?". Not "What is the
reason phrase for a 404?" nor "What does `yarn why` do?"."""


def asks_why(question: str) -> bool:
    """Whether `question` asks for a reason (`_ASKS`)."""
    return _ASKS.search(question) is not None


def links_checked(verifier: Verifier | None, question: str) -> Verifier | None:
    """`verifier` holding the links of cause and effect an answer to `question` makes.

    Every link, when the question asks why (the link is then the answer); otherwise only a
    claim that points back ("This is because …"), whose whole assertion is its link
    (`verify.causes.LinksChecked`).
    """
    if verifier is None:
        return None
    return LinksChecked(verifier, every=asks_why(question), question=question)
