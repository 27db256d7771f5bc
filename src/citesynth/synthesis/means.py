"""What a question asking how to do something wants: a means, and whether a sentence gives one.

A user asking how to do something often says first what they are doing and what they want
("We build a Docker image for offline testing and want nox to … install all dependencies
but not actually run pytest. What option does that?"). Documentation says the same things
in the sentences that introduce a feature ("There are a couple of cases where it makes sense
to have Nox only run ``install`` commands, such as preparing an environment for offline
testing …") or state what it does ("Now running ``nox --session tests`` will run the tests
session and then the coverage session."), and those share the most words with the question;
the sentence that answers is the one giving the means ("You can use ``--install-only`` to
skip ``run`` commands."), which shares fewer. Relevance put it below the extractive
writer's reach in 5 of the 9 answerable nox questions it got wrong.

A question asks for a means (`asks_means`) when its asking sentence asks how to do
something, which option, setting, flag, function, command or variable does it, whether
there is a way, what to call, use, set or pass, or which thing the asker should use or
configure ("Which measurement core should we configure?"). A sentence gives one
(`states_means`) when it tells the reader what to do: "you can use …", "by passing …", an
imperative ("Use ``-R`` …", "Set …", "Change your configuration to use the ctrace core."),
"… can be disabled with …", "To …, use …", or names the option it is done with ("You can
get coverage data from these processes using the ``--save-signal`` option"). The extractive writer
puts such sentences within a wider reach first (`asked_first.means_first`), as it does the
sentence stating a number asked for or a reason asked why; relevance still orders them, and
decides which sentences are in reach.
"""

from __future__ import annotations

import re

_ASKING_SENTENCE = re.compile(r"(?:[^.?!]|\.(?=[\w(])|(?<=\bi\.e|\be\.g)\.)*\?\s*$")
"""A sentence asking: it ends with "?", and a stop inside it is one of a dotted name
("env.py", "asyncio.run()") or of "i.e." and "e.g."."""

_VERBS = (
    r"use|set|pass|call|add|specify|define|enable|disable|configure|install|run|wrap|"
    r"override|provide|register|import|create|mark|decorate|remove|turn|change|put|write|"
    r"give|supply|subclass|attach|apply|invoke|export|include|select|declare|assign|raise"
)
_ING = (
    r"using|passing|setting|calling|adding|specifying|defining|enabling|disabling|"
    r"configuring|installing|running|wrapping|overriding|providing|registering|creating|"
    r"marking|decorating|removing|turning|changing|putting|writing|giving|supplying|"
    r"subclassing|attaching|applying|invoking|exporting|including|selecting|declaring|"
    r"assigning"
)
_PARTICIPLES = (
    r"set|changed|configured|disabled|enabled|overridden|controlled|customi[sz]ed|told|"
    r"turned\s+(?:on|off)|specified|installed|adjusted|tuned|switched\s+(?:on|off)|"
    r"replaced|achieved|accomplished|excluded|skipped|suppressed|silenced|prevented|avoided"
)

_ASKS = re.compile(
    r"^\W*how\s+to\b"
    r"|\bhow\s+(?:do|can|could|should|would|may|might|must)\s+(?:i|we|you|one)\b"
    r"|\bwhat\s+(?:do|should|can|must)\s+(?:i|we|you)\s+(?:need\s+to\s+)?"
    rf"(?:{_VERBS}|do|write|type)\b"
    r"|\bwhich\s+(?:(?!(?:is|are|was|were|do|does|did)\b)[\w-]+\s+){1,3}?(?:should|do|can|must)"
    rf"\s+(?:i|we)\s+(?:need\s+to\s+)?(?:{_VERBS}|pick|choose|switch\s+to)\b"
    r"|\bwhat(?:'s|\s+is)\s+the\s+(?:\w+\s+)?way\b"
    r"|\b(?:is|are)\s+there\s+(?:\w+\s+){0,3}?(?:way|option|flag|setting|argument|"
    r"parameter|function|method|command|variable|hook|switch|shortcut)s?\b",
    re.I,
)
_ASKS_WHICH = re.compile(
    r"\b(?:what|which)\s+(?:(?!(?:is|are|was|were|do|does|did)\b)[\w-]+\s+){0,3}?"
    r"(?:options?|flags?|settings?|arguments?|args?|parameters?|params?|functions?|"
    r"methods?|commands?|variables?|env\s+vars?|hooks?|decorators?|switch(?:es)?|extras?|"
    r"middlewares?|callbacks?)\b(?!\s+(?:is|are|was|were)\b)",
    re.I,
)
"""Which option, setting or call does something: a means when the asker wants it done."""
_ASKER = re.compile(r"\b(?:i|we|my|our|me|us|i'm|i'd|we're)\b", re.I)
"""An asking sentence wanting a means (see the module docstring)."""

_GIVES = re.compile(
    rf"\b(?:you|we|one|users?)(?:\s+(?:can|could|should|may|might|must|need\s+to|have\s+to|"
    rf"will\s+(?:need|have)\s+to|just|simply|only\s+need\s+to)"
    rf"|['’]ll\s+(?:also\s+|then\s+|still\s+|first\s+)?(?:need|have|want)\s+to)\s+"
    rf"(?:(?:also|then|now|still|either|simply|just|instead|\w+ly)\s+)?(?:{_VERBS})\b"
    rf"|^\W*(?:(?:Just|Simply|Instead,?|Then,?|Alternatively,?|Or,?)\s+)?"
    rf"(?:{_VERBS})\b(?!\s+(?:of|cases?)\b|\s+[\w-]+\s+(?:is|are|was|were|vary|varies|depends?|"
    r"includes?|can|may|will|should|must|has|have)\b)"
    rf"|\bby\s+(?:{_ING})\b"
    r"|\b(?:using|with|via)\s+(?:the\s+)?[`*'\"]*[-\w.=]+[`*'\"]*\s+(?:option|flag|setting"
    r"|argument|parameter|switch)\b"
    rf"|\b(?:can|could|may|should|must)\s+(?:also\s+|then\s+|instead\s+|easily\s+)?be\s+"
    rf"(?:\w+ly\s+)?(?:{_PARTICIPLES})\b"
    rf"|^\W*To\s+\w[^,.]*,\s*(?:you\s+(?:can|should|need\s+to|must)\s+)?(?:{_VERBS})\b"
    r"|\b(?:is|are)\s+(?:done|achieved|accomplished|controlled|configured|set)\s+"
    r"(?:with|by|using|via|through)\b"
    r"|\b(?:flag|option|setting|argument|parameter|switch)s?\s+(?:is|are)\s+(?:also\s+)?"
    rf"(?:available|provided)\s+to\s+(?:{_VERBS}|skip|avoid|keep|make|let|allow|force)\b",
    re.I,
)
"""A sentence telling the reader what to do (see the module docstring), or what is there to
do it with ("a `--no-require-hashes` flag is available to disable this mechanism")."""


def asking_sentence(question: str) -> str:
    """The question's last sentence ending with "?" (the whole question when none does)."""
    parts = re.split(r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<=[.?!])\s+", question.strip())
    asked = [part for part in parts if _ASKING_SENTENCE.match(part)]
    return asked[-1] if asked else question


def asks_means(question: str) -> bool:
    """Whether `question` asks how to do something, or what option or call does it.

    How the asker does something ("How do I …", "How can we …", not "How does Celery
    handle retries?"), or which option, setting or call does what the asker wants (the
    question speaks of them: "I'd like my worker to … Which option does that?", not
    "Which functions are thread-safe?").
    """
    asked = asking_sentence(question)
    if _ASKS.search(asked) is not None:
        return True
    return _ASKS_WHICH.search(asked) is not None and _ASKER.search(question) is not None


def states_means(sentence: str) -> bool:
    """Whether `sentence` tells the reader what to do (`_GIVES`)."""
    return _GIVES.search(" ".join(sentence.split())) is not None
