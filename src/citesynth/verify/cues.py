"""The cue words of a cause, a purpose or a consequence, and which way they point.

Why-question answering has long read an answer's cue words (Verberne et al., "What is not
in the bag of words for why-QA?", 2010): "because", "since", "so that", "in order to",
"the reason", "that's why", a purpose ("to avoid …", "useful for …"), a consequence
("therefore", "otherwise", "leads to", "which means", ", so the resources must still be
referenced"). `states_reason` finds one in a sentence (the extractive writer puts such
sentences first for a why-question, `synthesis.reasons`); `sides_of` splits a sentence at
its cue into what is the cause and what the effect ("X because Y", "Because Y, X", "X, so
Y"); `points_back_to` reads a sentence that links itself to the one before it ("This is
because Y" gives the cause, "That's why Y" the effect). `verify.causes` reads claims'
links against them.
"""

from __future__ import annotations

import re
from typing import Literal

from citesynth.analysis import content_terms, query_terms
from citesynth.verify.claims import plain

_PURPOSE = (
    r"avoid|prevent|ensure|keep|allow|make\s+sure|improve|reduce|minimi[sz]e|speed\s+up|protect"
    r"|guarantee|simplify|maintain|preserve|deal\s+with|work\s+around"
)
"""Verbs of a purpose ("to avoid blocking the event loop"). Not the verbs of an instruction's
goal, which say what is done, not why: "… to enable the Argo CD plugin", "to save the
file", "to stop the server", "to support HTTP/2"."""
_PURPOSE_ING = (
    r"avoiding|preventing|ensuring|keeping|allowing|making\s+sure|improving|reducing"
    r"|minimi[sz]ing|speeding\s+up|protecting|guaranteeing|simplifying|maintaining|preserving"
)
NOT_DATING = (
    r"(?!\s+(?:v?\d|version|release|python|then|ever|the\s+(?:release|version|last"
    r"|first|beginning|start)|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
    r"|\S+\s+v?\d)\b)"
)
"""After "since": not a date or a release ("since 3.0", "since version 2", "since then",
"since the last release", "Since January", "Since Django 4.2"; "since every input" is a
reason)."""
_STATES = re.compile(
    r"\b(?:because|so\s+that|so\s+as\s+to|in\s+order\s+(?:to|for|that)|due\s+to|owing\s+to"
    r"|as\s+a\s+(?:result|consequence)|therefore|thus|hence|consequently"
    r"|rationale|motivat\w+|purpose|inspired\s+by|influenced\s+by|in\s+favou?r\s+of"
    r"|(?:the|a|one|main|other|only)\s+reasons?\s+(?:why|for|that|is|was|being)\b"
    r"|reasons?\s+(?:why|for|that|is|being)"
    r"|(?:that|this|which|it)(?:'s|\s+is|\s+was)\s+(?:why|because)"
    rf"|to\s+(?:{_PURPOSE})\b|for\s+(?:{_PURPOSE_ING})\b"
    r"|(?:allow|enable|ensure|prevent|guarantee|protect)s\b|lets\s+(?:you|us|them|users?)\b"
    r"|(?:lead(?:s|ing)?|led|result(?:s|ed|ing)?)\s+(?:to|in)\b|caus(?:e|es|ed|ing)\b"
    r"|useful\s+(?:for|when|if|to|in)\b|(?:designed|meant|intended)\s+(?:to|for)\b"
    r"|for\s+(?:\w+\s+)?(?:performance|security|safety|compatibility|convenience|consistency"
    r"|efficiency|simplicity)\b|(?:which|this|that|it)\s+means\b|with\s+the\s+idea\s+of"
    r"|makes?\s+sure\b|,\s+so\s+(?!far\b|much\b|many\b|long\b|on\b)"
    r")"
    r"|(?:^|[;.:]\s*|\s-+\s+)otherwise\b|\botherwise,"
    rf"|,\s+(?:thus\s+|thereby\s+)?(?:{_PURPOSE_ING}|enabling)\b"
    rf"|\bsince\b{NOT_DATING}",
    re.I,
)
"""Cue words stating a reason, a purpose or a consequence (Verberne et al., "What is not in
the bag of words for why-QA?", 2010). So is a participle after a comma saying what for
("…, keeping the event loop responsive"), and "otherwise" opening a clause ("; otherwise
…", not "False otherwise."). "since" is one when it does not date something (`NOT_DATING`)."""


POINTS_BACK = (
    r"(?:this|that|it)(?:'s|\s+is|\s+was)\s+(?:(?:partly|mainly|also)\s+)?"
    r"(?:because(?:\s+of)?|why|due\s+to)"
    r"|(?:this|that)\s+means(?:\s+that)?|for\s+(?:this|that|these)\s+reasons?"
    r"|because\s+of\s+(?:this|that)"
    r"|the\s+(?:main\s+)?reason(?:\s+for\s+(?:this|that))?\s+(?:is|was)(?:\s+that)?"
)
"""A sentence's opening giving the reason for, or the consequence of, the sentence before
it: "This is because Y", "That's why Y", "This means that Y", "For this reason, Y", "The
reason is that Y"."""
POINTING = re.compile(rf"(?:{POINTS_BACK})\b,?\s*", re.I)
"""A claim giving the reason for, or the consequence of, the sentence before it: "This is
because Y", "That's why Y", "This means that Y", "For this reason, Y". Not "Therefore" or
"As a result": what the writer infers, or a consequence told on ("As a result, Horodecki
went slightly mad" against a source telling it in order)."""
PARAGRAPH_END = re.compile(r"\n[ \t\r]*+\n")
"""A blank line, LF or CRLF: between two sentences with nothing else between them (a
heading, a list item's mark, a fence), it ends a paragraph."""
LINKS_BACK = re.compile(
    rf"(?:{POINTS_BACK}|therefore|thus|hence|consequently|as\s+a\s+(?:result|consequence)"
    r"|(?:and\s+)?so(?=,)|otherwise|in\s+other\s+words|(?:not\s+)?doing\s+so)\b",
    re.I,
)
"""A source sentence linked to the one before it: those openings, and "Therefore",
"As a result", "So,", "Otherwise", "In other words", "Not doing so"."""
_DIRECTED = re.compile(
    r"(?P<cause>\b(?:because(?:\s+of)?|due\s+to|owing\s+to|as\s+a\s+(?:result|consequence)"
    rf"\s+of|caused\s+by|since{NOT_DATING})\b)"
    r"|(?P<effect>,\s+so\b(?!\s+(?:far|much|many|long|on)\b)|\b(?:therefore|thus|hence"
    r"|consequently|(?:which|this|that|it)\s+means|(?:which|that|this)(?:'s|\s+is)\s+why"
    r"|(?:lead(?:s|ing)?|led|result(?:s|ed|ing)?)\s+(?:to|in)|causes|caused(?!\s+by))\b)",
    re.I,
)
"""A cue word that says which way a sentence's link goes: a cause after it ("because"), or
an effect after it ("so", "which means", "leads to")."""
_GIVES_CAUSE = re.compile(
    r"(?:this|that|it)(?:'s|\s+is|\s+was)\s+(?:(?:partly|mainly|also)\s+)?(?:because|due\s+to)\b"
    r"|the\s+(?:main\s+)?reason(?:\s+for\s+(?:this|that))?\s+(?:is|was)\b",
    re.I,
)
_GIVES_EFFECT = re.compile(
    r"(?:(?:this|that|it)(?:'s|\s+is|\s+was)\s+why|(?:this|that)\s+means|therefore|thus|hence"
    r"|consequently|as\s+a\s+(?:result|consequence)|for\s+(?:this|that|these)\s+reasons?"
    r"|because\s+of\s+(?:this|that)|in\s+other\s+words|(?:and\s+)?so,)\b",
    re.I,
)


FINITE = re.compile(
    r"\b(?:is|are|was|were|has|have|had|does|do|did|can|cannot|could|will|would|should|must"
    r"|may|might|needs?)\b|\w(?:'s|'re|n't)\b"
    r"|\b(?:it|they|we|you|he|she|this|these|there)\s+(?!(?:and|or|in|on|of|at|by|for|to|with)\b)\w+",
    re.I,
)
"""A verb of a clause, or a subject with its verb: "since" before one gives a reason
("since _msgspec_ can handle them", "since it lowers the chance"), before a noun alone a
time ("since its acquisition")."""
_JOINED_CAUSE = re.compile(
    r"(?<=\S)(?:,\s*|\s+)(?:and|but|yet)\s+(?=because\b|since\b|due\s+to\b)", re.I
)
"""A clause joined to the one before it and opening with its cause: "LocalStack wraps a
list, and because lists are mutable, it must do extra work" links the last two facts."""
_INTRODUCED_CAUSE = re.compile(
    r"(?:\w+ly\s+)?(?:for|in|on|with|under|at|by|during|after|before|within|inside)\s"
    r"[^,]{1,80},\s+(?=because\b|since\b|due\s+to\b)",
    re.I,
)
"""A cause opening a claim after a phrase saying where it holds: "Specifically for EKS,
because the pull-secret is not managed globally, you must add it" (the phrase has no verb
of its own: "For a pool that is full, because …" is a clause)."""
ASKING_WORDS = frozenset(
    query_terms("why how come purpose point reason rationale motivation benefit advantage")
)
"""The words of a why-question that ask for a reason rather than name what it is of."""


def states_reason(sentence: str) -> bool:
    """Whether `sentence` (citation markers aside) states a reason (`_STATES`)."""
    return _STATES.search(plain(sentence)) is not None


def points_back_to(sentence: str) -> Literal["cause", "effect"] | None:
    """What a sentence linked to the one before it gives of that one.

    Its cause ("This is because Y"), its effect ("That's why Y", "Therefore Y"), or None (no
    such opening, or one that does not say which: "Otherwise", "Not doing so").
    """
    opening = plain(sentence).lstrip("#*> \t-")
    if _GIVES_CAUSE.match(opening):
        return "cause"
    if _GIVES_EFFECT.match(opening):
        return "effect"
    return None


_LABELLED = re.compile(
    r"\A\s*(?:\.\.\s+[\w-]+::|[A-Z][\w-]*::|!!!\s+[\w-]+(?:\s+\"[^\"\n]*\")?)\s*"
)
"""An admonition's label opening a sentence (".. note::", "Tip::", "!!! warning"): it says
how to read the sentence, never the effect of the cause after it."""


def cause_opens(text: str) -> int:
    """Where a cause opening a clause of `text` starts, after what comes before it (0: none).

    After "and", "but" or "yet" (`_JOINED_CAUSE`), or after an opening phrase with no verb
    (`_INTRODUCED_CAUSE`).
    """
    if joined := _JOINED_CAUSE.search(text):
        return joined.end()
    introduced = _INTRODUCED_CAUSE.match(text)
    if introduced and not FINITE.search(introduced.group()):
        return introduced.end()
    return 0


def sides_of(sentence: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The terms of the cause and of the effect a sentence's first cue word separates.

    "X because Y", "Because Y, X", "X, so Y", "X, which means Y", "X leads to Y"; None when
    its cue does not say which way (a purpose, "useful for", "rationale"). A cause opening
    a clause after "and" or an opening phrase is read from there, as `causes.link_of` reads
    a claim: "X, and because Y, Z" links Y to Z.
    """
    text = _LABELLED.sub("", plain(sentence), count=1)  # ".. note:: Because Y, X"
    text = text[cause_opens(text) :]  # "X, and because Y, Z": the link is Z's
    cue = _DIRECTED.search(text)
    if cue is None:
        return None
    before, after = text[: cue.start()], text[cue.end() :]
    if cue.lastgroup == "effect":  # the consequence follows: "X, so Y"
        return frozenset(content_terms(before)), frozenset(content_terms(after))
    if before.strip(" *_#>-"):  # "X because Y"
        return frozenset(content_terms(after)), frozenset(content_terms(before))
    cause, comma, effect = after.partition(",")  # "Because Y, X"
    if not comma:
        return None
    return frozenset(content_terms(cause)), frozenset(content_terms(effect))
