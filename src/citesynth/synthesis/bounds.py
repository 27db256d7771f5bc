"""A question asking whether something has a limit, and whether an answer states one.

"Is there a maximum number of data files `coverage combine` can merge in one invocation?"
(coverage.py's docs never say) was answered with what the docs say of combining, every
sentence supported; "Is there an upper limit for `[report] precision`?" with the setting's
default and examples. Asked whether there is a limit, a cap, a maximum or a minimum
(`asks_bound`), an answer states one of the thing asked (`states_bound_of`): a number
given as a bound ("at most 100", "up to 10", "less than 200 bytes", "limited to 5", "the
limit is 100", "100 or more") or no bound at all ("no limit", "unlimited", "any number
of"). Else the answer is a not-found for every writer, like a number asked and none
stated (`asked.states_number_of`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from citesynth.synthesis.asked import asked_about, near_naming
from citesynth.verify.claims import plain

_ASKS_BOUND = re.compile(
    r"\b(?:is|are)\s+there\s+(?:a|an|any)\s+"
    r"(?:(?:default|hard|built-in|fixed|upper|lower|maximum|minimum|max|min|size|length|time)"
    r"\s+){0,3}?(?:limits?|caps?|maximum|minimum|ceiling|bound)\b"
    r"|\b(?:is|are)\s+there\s+(?:a|an|any)\s+(?:maximum|minimum|max|min|upper|lower)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:number|size|length|depth|count|amount|value)s?\b",
    re.I,
)
"""Asking whether there is a bound: "Is there a maximum number of …", "Is there an upper
limit for …", "Is there a default cap on …", "Is there a minimum size?"; not "Is there a
setting to cap …", which asks for a means."""
_NUMBER = r"(?:[\w-]+\s+){0,2}?\d"
_BOUND_STATED = re.compile(
    r"\b(?:at\s+(?:most|least)|up\s+to|no\s+(?:more|fewer|less|greater|larger)\s+than"
    r"|(?:less|fewer|more|greater|larger|smaller|longer|shorter|higher|lower)\s+than"
    r"|maximum|minimum|max|min|limit(?:s|ed)?|caps?|capped|exceed(?:s|ed|ing)?|between"
    rf"|bound(?:ed)?)\s+(?:(?:of|to|at|is|are|was)\s+)?{_NUMBER}"
    r"|(?<![\w.,])\d[\w.,]*+\s+(?:[\w-]+\s+){0,2}?(?:at\s+most|max(?:imum)?|or\s+(?:more|fewer|less|"
    r"greater|larger|smaller|higher|lower|above|below))\b"
    r"|\b(?:\w*?(?:max|limit)|min)\w*+\s*[=:]\s*\d|\bfrom\s+\d[\w.,]*+\s+to\s+\d"
    r"|\b(?:unlimited|unbounded|limitless|no\s+(?:limit|maximum|minimum|cap|upper\s+bound)s?"
    r"|not\s+(?:limited|capped|bounded)|any\s+number\s+of)\b",
    re.I,
)
"""A bound stated: a number given as one ("at most 100", "up to 10", "less than 200 bytes",
"limited to 5", "the limit is 100", "100 or more", "max_size=10", "pool_maxsize=10", "from 0
to 9"), or none ("no limit", "unlimited", "any number of")."""


def asks_bound(question: str) -> bool:
    """Whether `question` asks whether something has a limit, a cap, a maximum or a minimum."""
    return _ASKS_BOUND.search(question) is not None


def states_bound_of(
    question: str,
    claims: Sequence[str],
    subject: str = "",
    common: Collection[str] = frozenset(),
    headings: Sequence[str] = (),
) -> bool:
    """Whether `claims` state a bound of what `question` asks about.

    A claim states a bound (`_BOUND_STATED`) and names what the question asks about, or
    follows a claim or stands under an answer heading (`headings`, one per claim) that does
    (`asked.near_naming`; `subject` and `common` as `asked.states_number_of` reads them).
    True when no bound is asked.
    """
    if not asks_bound(question):
        return True
    read = [plain(claim) for claim in claims]
    named = asked_about(question, subject, common)
    about = near_naming(named, read, headings) if named else [True] * len(read)
    return any(
        _BOUND_STATED.search(claim) is not None and about[index] for index, claim in enumerate(read)
    )
