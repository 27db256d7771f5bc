"""An answer that only restates its question: it states nothing asked.

Two cases. A claim restating a yes/no question as its answer ("Does Starlette rely on the
Content-Length header to enforce max_body_size?" answered "Starlette relies on the
Content-Length header to enforce max_body_size [1]", where the source says the header "is
not trusted to enforce the limit") is held to the question's words it repeats
(`restatement_checked`). And an answer whose every claim restates a question asking for
something is a not-found (`restates_only`).

The embedded model answered "What gzip compression level does Django's GZip middleware use
when it compresses responses?" (the docs state none) with "The gzip compression level used
by Django's GZip middleware when it compresses responses is [1].", a marker where the value
goes, and every verifier passed it: its source holds every word. Like a number asked and
none stated (`asked.states_number`), it is a not-found, for every writer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from citesynth.analysis import INLINE_CODE, code_names, content_terms, terms
from citesynth.synthesis.asked import asks_yes_no
from citesynth.synthesis.means import asking_sentence
from citesynth.verify.base import Check, Holding, Verdict, Verifier, with_reason
from citesynth.verify.claims import plain
from citesynth.verify.conflicts import NEGATION


def restates_only(question: str, claims: Iterable[str], headings: Iterable[str] = ()) -> bool:
    """Whether every one of `claims` only restates `question`, which asks for something.

    A claim holding no content term the question lacks states nothing asked. Only for a
    question opening with a question word ("what", "which", "who", "where", "when", "how")
    that offers no choice: a yes/no question ("When a user uploads a file, does Django keep
    it in RAM?") or one between named options ("… in RAM or on disk?") is answered in its
    own words. Code a claim names that the question does not write says more, though its
    parts are the question's words ("`loop.index`" answering "Which loop variable gives the
    current iteration of the loop, 1 indexed?"). So does code an answer's heading names
    (`headings`): the extractive writer heads a setting's description with its name, and
    "The name of the automatically added CSRF token field." under **csrf_field_name**
    answers "Which class Meta setting controls the name of the automatically added CSRF
    token field?". False without claims.
    """
    claims = list(claims)
    if not claims or not _ASKS_FOR.match(question) or _CHOICE.search(question):
        return False
    asked = set(content_terms(question))
    written = question.casefold()
    if any(name.casefold() not in written for h in headings for name in code_names(h)):
        return False
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


RESTATES = 0.8
"""The share of a yes/no question's content terms from which a claim restates it."""
FRAMING = frozenset(
    terms("possible possibly able way use used need needed want allowed okay ok fine there make")
)
"""Words that frame a yes/no question rather than state what it asks ("Is it possible to
…", "Can I use … to …", "Is there a way to …", "how do I make it temporary?"): a source
need not write them. Asked "Is RedirectHandler permanent or temporary by default, and how
do I make it temporary?", the embedded model's "To make it temporary, add `permanent=False`
to the `.RedirectHandler` initialization arguments." was removed for "make", its source
writing "To send a temporary redirect with a `.RedirectHandler`, add …"."""


def repeated_unstated(question: str, claim: str, stated: str) -> list[str]:
    """The question's words a claim restating `question` repeats that `stated` never holds.

    A claim restates the question when it holds at least `RESTATES` of its content terms,
    or when its subject is a pronoun standing for what is asked ("It can be achieved by
    using the `--cover-xml` flag …", answering "Does `hatch test` have a flag to emit a
    JUnit report?": the claim says a JUnit report can be emitted, and `--cover-xml` writes
    a coverage report; `STANDS_FOR_ASKED`). [] when it does not, when it denies what the
    question supposes ("`bulk_create()` does not fire `post_save` signals", which the
    source says as "will not be sent": the model's own answer, not the question's), or
    when `stated` (its sources' text, titles and headings) holds them all. The words are
    the claim's as written, or the question's for a pronoun.
    """
    asked = set(content_terms(question))
    written = plain(claim)
    leans = STANDS_FOR_ASKED.match(written) is not None
    said = set(content_terms(written)) | (asked if leans else set())
    if not asked or len(asked & said) < RESTATES * len(asked):
        return []
    if NEGATION.search(claim.replace("’", "'")) and not NEGATION.search(question):
        return []  # a denial of what the question supposes answers it
    held = set(terms(stated))
    missing = (asked & said) - held - FRAMING
    if not missing:
        return []
    words = re.findall(r"[\w'’-]+", question if leans else written)
    return list(dict.fromkeys(w for w in words if set(terms(w)) & missing))


_STANDS = (
    r"(?:it|this|that)\s++(?:can|could|may|might)\s++(?:also\s++|easily\s++)?be\s++"
    r"(?:achieved|done|accomplished)\b"
)
STANDS_FOR_ASKED = re.compile(rf"^\W*+{_STANDS}", re.I)
"""A claim whose subject is a pronoun standing for what a yes/no question asks ("It can be
achieved by …", "This can be done with …"): it asserts the question's proposition. Not
"This is handled by …", whose "This" is as often the sentence before it."""
STANDS_FOR_BEFORE = re.compile(
    rf"^\W*+(?:(?:however|but|instead|alternatively|still|yet|though)\b\s*+,?\s*+)?{_STANDS}",
    re.I,
)
"""The same after a connective ("However, it can be achieved by …"): it stands for what the
sentence before it said or denied (`verifying._leans_on`)."""


class RestatementChecked(Holding):
    """A verifier whose verdicts hold a claim restating a yes/no question to its words.

    Asked "Can I declare my queues as RabbitMQ stream queues?", the embedded model answered
    "You can declare your Celery queues as RabbitMQ stream queues … [5]" over a source that
    names only classic and quorum queues, and both verifiers passed it: every other word is
    there. A claim repeating the question is the question's own assertion; it is `partial`
    at most when a word of the question it repeats is in none of its cited sources, titles
    and headings (`repeated_unstated`). The verdicts are otherwise the `wrapped` verifier's,
    under its name.
    """

    def __init__(self, wrapped: Verifier, question: str) -> None:
        self.wrapped = wrapped
        self.question = question
        self.name = wrapped.name

    def _held(self, check: Check, verdict: Verdict) -> Verdict:
        if verdict.label != "supported":
            return verdict
        stated = " ".join((*check.passages, check.about))
        missing = repeated_unstated(self.question, check.claim, stated)
        if not missing:
            return verdict
        reason = (
            f"it repeats the question, and no cited source says {', '.join(missing)}: the "
            "question's words, not an answer"
        )
        return with_reason(verdict, reason, "partial")


_CONDITION = re.compile(
    r"^\W*(?:if|when|whenever|once|after|before|while|since|given\s+that)\b[^,?]{0,200},\s*",
    re.I,
)
"""A condition or time opening a question ("If my parse callback raises a KeyError while
processing a response, does Scrapy call the errback?")."""
_ALTERNATIVE = re.compile(
    r"(?<=[^\s,]),?\s++or\s++(?:is|are|was|were|do|does|did|can|could|will|would|should|must"
    r"|has|have|had)\s++(?:there|it|i|we|you|they|he|she|the|an?|this|that|these|those|my|our"
    r"|your|its|their)\b",
    re.I,
)
"""A second question offered as the other choice ("…, or is there a setting for
exponential backoff?"): an auxiliary and its subject after "or", not a verb phrase ("Can I
tell if a task failed or was retried?"). Read from after a word only, so a run of spaces
costs one pass."""


def yes_no_proposition(question: str) -> str | None:
    """What a yes/no `question` asks to confirm, or None when it asks no yes or no.

    Users say their situation first ("The site answers 429 with a 'Retry-After: 120'
    header. Does Scrapy's retry middleware wait …?"), open with a condition ("If my parse
    callback raises a KeyError …, does Scrapy call the errback I attached?") and offer the
    other choice ("…, or is there a setting for exponential backoff?"). The proposition is
    the asking sentence (`means.asking_sentence`) without those: the embedded model
    answered both questions by restating it ("Scrapy's retry middleware waits the number
    of seconds given in Retry-After before retrying [1]", a header no source names; "Yes,
    Scrapy calls the errback you attached to that Request [4]", where the docs say it is
    *not* called), and against the whole question they held too few of its words to be
    read as restating it.
    """
    asked = _CONDITION.sub("", asking_sentence(question).strip())
    if not asks_yes_no(asked):
        if not asks_yes_no(question):
            return None
        asked = question  # cut at an abbreviation's stop ("redirects, cookies, etc. …?")
    code = INLINE_CODE.sub(lambda found: "\0" * len(found.group()), asked)
    other = _ALTERNATIVE.search(code)
    return f"{asked[: other.start()]}?" if other else asked


def restatement_checked(verifier: Verifier | None, question: str) -> Verifier | None:
    """`verifier` holding claims that restate a yes/no `question` (`yes_no_proposition`)."""
    proposition = yes_no_proposition(question)
    if verifier is None or proposition is None:
        return verifier
    return RestatementChecked(verifier, proposition)
