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
first (`extractive._stating_first`), as it does numbers for a question asking for one, and
the embedded model's evidence keeps them first (`evidence.select`); relevance still
decides which sentences are in reach.

Only which sentences are chosen and in what order changes: reasons are often stated with
no cue word ("at that point, the response was already sent"), so an answer without one is
not taken for a not-found.
"""

from __future__ import annotations

import re

from citesynth.analysis import query_terms
from citesynth.verify.claims import plain

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
_STATES = re.compile(
    r"\b(?:because|so\s+that|so\s+as\s+to|in\s+order\s+(?:to|for|that)|due\s+to|owing\s+to"
    r"|as\s+a\s+(?:result|consequence)|therefore|thus|hence|consequently"
    r"|rationale|motivat\w+|purpose|inspired\s+by|influenced\s+by|in\s+favou?r\s+of"
    r"|(?:the|a|one|main|other|only)\s+reasons?\s+(?:why|for|that|is|was|being)\b"
    r"|reasons?\s+(?:why|for|that|is|being)"
    r"|(?:that|this|which|it)(?:'s|\s+is|\s+was)\s+(?:why|because)"
    rf"|to\s+(?:{_PURPOSE})\b|for\s+(?:{_PURPOSE_ING})\b"
    r"|(?:allow|enable|ensure|prevent|guarantee|protect)s\b|lets\s+(?:you|us|them|users?)\b"
    r"|(?:lead|result)(?:s|ed|ing)?\s+(?:to|in)\b|caus(?:e|es|ed|ing)\b"
    r"|useful\s+(?:for|when|if|to|in)\b|(?:designed|meant|intended)\s+(?:to|for)\b"
    r"|for\s+(?:\w+\s+)?(?:performance|security|safety|compatibility|convenience|consistency"
    r"|efficiency|simplicity)\b|(?:which|this|that|it)\s+means\b|with\s+the\s+idea\s+of"
    r"|makes?\s+sure\b|,\s+so\s+(?!far\b|much\b|many\b|long\b|on\b)"
    r")"
    r"|(?:^|[;.:]\s*|\s-+\s+)otherwise\b|\botherwise,"
    rf"|,\s+(?:thus\s+|thereby\s+)?(?:{_PURPOSE_ING}|enabling)\b"
    r"|\bsince\b(?!\s+(?:v?\d|version|release|python|then|ever|the\s+(?:release|version|last"
    r"|first|beginning|start)|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b"
    r"|\S+\s+v?\d))",
    re.I,
)
"""Cue words stating a reason, a purpose or a consequence (see the module docstring).
So is a participle after a comma saying what for ("…, keeping the event loop responsive"),
and "otherwise" opening a clause ("; otherwise …", not "False otherwise."). "since" is one
when it does not date something ("Since `sys.exc_clear` has been dropped", not "since 3.0",
"since version 2", "since then", "since the last release", "Since January", "Since Django
4.2")."""


ASKING_WORDS = frozenset(
    query_terms("why how come purpose point reason rationale motivation benefit advantage")
)
"""The words of a why-question that ask for a reason rather than name what it is of."""


def asks_why(question: str) -> bool:
    """Whether `question` asks for a reason (`_ASKS`)."""
    return _ASKS.search(question) is not None


def states_reason(sentence: str) -> bool:
    """Whether `sentence` (citation markers aside) states a reason (`_STATES`)."""
    return _STATES.search(plain(sentence)) is not None
