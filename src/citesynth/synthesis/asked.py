"""What a question asks for: a count or a measure, and whether an answer states one.

"How long does an air-gapped installation of Developer Hub typically take?" asks for a
number. A writer given on-topic passages that hold none quotes what they do say ("You
can install the Red Hat Developer Hub in an air-gapped environment to ensure security
…"), every sentence of it supported, and the answer reads as an answer. Question-type
checking is the oldest answerability signal in question answering: when a question asks
for a number (`asks_number`: "how many", "how much", "how long", "what is the default
size of", "which port", "what year", …) and no claim of the verified answer states one
(`states_number`: digits, number words from "zero" to "trillion", "in his forties",
"twice", "half", or an unbounded "unlimited", "no limit", "indefinitely"), the answer is
a not-found, for every writer. Only numbers are checked: other answer types (a person, a
place, a date in words) have forms no rule lists.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence

from citesynth.analysis import INLINE_CODE, coverage, query_terms
from citesynth.verify.claims import plain
from citesynth.verify.numbers import NUMBER_WORDS

_MODIFIERS = r"(?:(?:default|maximum|minimum|max|min|total|average|typical|current|exact)\s+)*"
_MEASURES = (
    r"(?:number|size|count|amount|percentage|percent|length|duration|age|population|"
    r"height|width|depth|weight|port|years?|exit\s+code|status\s+code|radius|threshold|cutoff|"
    r"tolerance"
    r"|(?:timeouts?|delay|interval|capacity|frequency|speed|distance|temperature|price|cost)"
    r"(?=\s*(?:[?.]|$)|\s+(?:of|for|in|on|at|after|before|between|when|that|which|per|used)\b))"
)
"""Words naming a measure. A duration, a rate or an amount of money asks for one only where
its noun phrase ends ("the default timeout after which …", "the average temperature in
…"): "the cost function", "which timeout applies" and "the timeout error" name things. A
threshold, a cutoff, a radius or a tolerance is a value asked for ("what threshold value does
floodfill use by default?")."""
_NAMING_WORD = (
    r"(?!(?:of|for|between|and|or|in|on|to|with|the|a|an|by|per|from|at|than)\b)[a-z][\w-]*"
)
"""A word naming what is measured ("pool" in "the default pool size"), not a function word:
"the difference between size and length" asks no number."""
_HOW_MUCH = r"\bhow\s+(?:many|much|long|old|far|tall|high|big|large|heavy|fast)\b"
_NUMERIC = re.compile(
    _HOW_MUCH + r"|\b(?:what|which)(?:\s+(?:is|are|was|were)|['’]s)?\s+(?:the\s+|its\s+|their\s+)?"
    rf"{_MODIFIERS}(?:{_NAMING_WORD}\s+){{0,2}}?{_MEASURES}\b(?!\s+(?:one|1)\b)"
    r"|\bat\s+what\s+time\b|\bwhat\s+time\s+of\s+(?:the\s+)?day\b",
    re.I,
)
"""Question phrases asking for a number: "what is the default size of …" ("what's" too), and
with up to two words naming what is measured, "what is the default pool size", "the maximum
recursion depth"; a clock time, "at what time of day does the cleanup task run?" (answered
"The task runs daily at 4am."), not "What time is used for the ETA, UTC or local?"."""
_NOT_NUMERIC = re.compile(r"\bhow\s+long\s+(?:ago|before|after|until)\b", re.I)
""""How long before the bus leaves" may be answered "right after the lecture"."""
_HOW_TO = re.compile(r"^\W*how\s+(?:do|does|did|can|could|should|would|may|might)\b", re.I)
"""A question asking how to do something: a "how old" inside it names what is done ("How
do I check how old a signature is?", answered by a method), not what the answer is."""
_HOW_MUCH_IN = re.compile(_HOW_MUCH, re.I)

_CLAUSE_AFTER = (
    r"\s+(?:you|we|they|it|he|she|i|the|this|that|these|those|your|its|their|our|my|all"
    r"|there|some|any|[a-z]+ed\b|an?\s+(?!(?:day|week|month|year|hour|minute|second|time"
    r"|request|call|session|process|run|page|cycle|build|deploy|release)s?\b))"
)
"""What follows "once" opening a clause ("once you apply the decorator", "once an
application was created", "once installed"): a conjunction, not a count ("once a day",
"run once", "more than once")."""
_NUMBER = re.compile(
    rf"(?<![\w/.])\d|\b(?:{'|'.join(NUMBER_WORDS)}|hundreds|thousands|millions|billions?|trillions?|"
    r"dozens?|(?:twent|thirt|fort|fift|sixt|sevent|eight|ninet)ies|couple|"
    rf"once(?!{_CLAUSE_AFTER})|twice|thrice|half|single|double|triple|none|unlimited|unbounded|infinite|"
    r"infinitely|indefinitely|forever|no\s+limit|no\s+maximum|midnight|noon)\b"
    r"|\b(?:to|as|is|are|equals?|equal\s+to|matches)\s+the\s+(?:number|count)\s+of\b",
    re.I,
)
"""A number as digits or words, an unbounded amount, or one given as the count of something
else ("Defaults to the number of CPUs in the system", a pool as large as "the number of
workers"); digits that end a name ("h11", "HTTP/2", "OAuth2") are none, nor is "the number
of" naming what a sentence is about ("The number of workers can be set with `-W`")."""
_NOT_COUNTS = re.compile(
    r"\bhttps?://\S+|\]\([^()\[\]\s]*\)"
    r"|\b(?:PEP|RFC|ISO|IEC|ECMA|IEEE|CVE|bpo|GH|issue|PR|pull\s+request)[\s#-]*\d[\d.:-]*"
    r"|(?::(?:pep|rfc|issue|pr|gh|bpo):|\{(?:pep|rfc)\})`[^`\n]*`"
    r"|\b(?:Bug|Feature|Support)\s+#\d+|(?<![\w&])#\d+\b"
    r"|\b(?:the|this|that|which|no|any|each|every)\s+one\b(?!-)"
    r"|\b(?:all\s+)?at\s+once\b"
    r"|\bone\s+another\b|(?:^|[.!?;:]\s+)one\s+(?:can|could|should|may|might|must|would|will)\b"
    r"|\b(?:how|where|when|why|what|whether|if|unless)\s+one\s+(?:can|could|should|may"
    r"|might|must|would|will|needs?|wants?)\b"
    r"|(?:^|[.!?;:]\s+)one\s+(?:of|way|reason|thing|option|approach|possibility)\b"
    r"|\b(?:(?:allow|help)(?:s|ed|ing)?|let(?:s|ting)?|(?:enabl|requir|forc)(?:es?|ed|ing))"
    r"\s+one\s+to\b",
    re.I,
)
"""A web address, a Markdown link's target, or a standard's or tracker's number ("PEP 526",
"RFC 7231", "issue #42", a change log's "Bug #742:", "(#1040)" and "(#137, #140)"; as a
reStructuredText or MyST role too, ":PEP:`517`", "{rfc}`7231`", which build's docs quoted
in an answer to "After how many seconds does build kill a hook …?"): their digits
("discussions/1785") state nothing, nor does "at once" ("Jinja compiles many templates at
once" answered a question asking for a timeout, as a count of one). Nor does "one"
pointing at a thing ("the one parameter set which caused a failure", "no one"; not "the
one-second timeout"), opening a sentence as one of several ("One way to think about …",
"One of the reasons …") or standing for a person ("allows one to define multiple sets", a
sentence opening "One can", "one another", or a clause "how one would configure …"; not
"only one can be started per process").

A target holds no bracket: each "](" is read up to the next one at most (a run of
"](](…" is linear, not quadratic)."""


_VERSION = re.compile(
    r"\b(?:versions?|v|since|release[sd]?|(?<=[\w,;:(][ \t])(?-i:[A-Z][\w-]*+))\s+\d++\.\d++"
    r"(?:\.\d++)*+(?!\s*(?:%|(?:(?:milli|micro|nano)?seconds?|ms|s|min(?:ute)?s?|hours?|h|days?"
    r"|weeks?|months?|years?|[kmgt]?b|[kmgt]?i?bytes?|percent|times|x)\b))"
    r"|(?<![\w-])(?-i:[A-Z][\w-]*+)\s+\d++(?:\.\d++)++\s+(?:and|or)\s+(?:higher|later|newer|above)\b",
    re.I,
)
"""A version: "Starting with Jinja 2.2", "since 3.0", "uses Python 3.11", a sentence opening
"Jinja 2.1 and higher support …"; not a measure ("Timeout 2.5 seconds") nor a capitalised
word opening a sentence otherwise ("Temperature 0.7 is used"). Its digits answer a
question about versions only: "Jinja 2.1 and higher support external bytecode caching"
had answered "How many compiled templates does an Environment keep in its cache?"."""
_ASKS_VERSION = re.compile(r"\b(?:versions?|releases?|released)\b", re.I)
"""A question about versions ("Since which version …?"); not one naming Python, which
Python-Markdown's "default timeout" question does ("Python 3.0" had answered it)."""

_ASKS_DURATION = re.compile(
    r"\b(?:timeouts?|delays?|intervals?|durations?|ttl|lifetime|expir(?:y|ation|es))\b", re.I
)
"""A question asking for a duration: "What is the default cache timeout …?"."""
_TIME_UNIT = (
    r"(?:ms|milliseconds?|µs|microseconds?|ns|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?"
    r"|days?|weeks?|months?|years?)"
)
_OTHER_MEASURE = re.compile(
    r"\b(?:size|number|count|amount|how\s+(?:many|much)|length|limit|ports?|percent\w*"
    r"|versions?|retries|attempts|connections)\b",
    re.I,
)
"""A measure other than a duration: a question asking for it as well as for a timeout ("What
are the connection pool size, the request timeout and the retry backoff?") is answered by
a count too."""
_YEAR = re.compile(
    r"\b(?:in|since|until|till|by|from|during|around|circa|early|late|mid"
    r"|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+"
    r"(?:1[5-9]\d\d|20\d\d)"
    r"(?=[ \t]*(?:[.,;:!?)\[\]\"'’]|$)|[ \t]+(?:and|or|to|through|till|until|when|while|after"
    r"|before|with|the|it|its|they|he|she|we|as)\b)",
    re.I,
)
"""A year as a time ("in 2015", "April 2015", followed by a stop or a word that goes on with
no count: "in 2015 and"): a number of a question about a time only (`_ASKS_TIME`); "in 1800
seconds", "by 2000 per host", "in 2048-byte blocks" are measures. attrs' "Basically what
*attrs* was in 2015." had answered "What is the maximum number of attributes an attrs class
can have?"."""
_ASKS_TIME = re.compile(
    r"\b(?:when|years?|dates?|dated|since|until|decades?|centur(?:y|ies)|old|age|ago|born"
    r"|died|founded|established|released?|first|last|season|period|era)\b",
    re.I,
)
"""A question asking about a time, answered by a year."""
_NO_TIMEOUT = re.compile(r"\bno\s+(?:timeouts?|delay|expir\w*)\b", re.I)
"""A duration that is none ("Requests has no timeouts by default"): an answer to a question
asking for one only ("What is the default size of the DNS cache?" is not answered by it)."""
_COUNTED = re.compile(
    rf"(?<![\w.,])(?:\d++|(?:{'|'.join(NUMBER_WORDS)})\b)\s+(?:[a-z-]+\s+)?"
    rf"(?!{_TIME_UNIT}\b)[a-z]+s\b|\bone\s+of\b",
    re.I,
)
"""A count of things ("two instance methods", "two small differences", "one of …"): what
a question asking for a duration is not answered by. A bare value (`300`,
`connect_timeout=10`, "defaults to 5") or one with a unit of time still is."""

_ASKS_CODE = re.compile(
    r"\b(?:what|which)(?:['’]s|\s+(?:is|are))?\s+(?:the\s+)?"
    r"(?:(?!(?:number|count|total|amount|many|of)\b)[\w-]+\s+){0,3}?"
    r"(?:(?:exit|status|return|error|response)[\s-]+(?:codes?|status)|ports?(?:\s+number)?)\b",
    re.I,
)
"""A question asking for a code or a port: "What exit code does nox return when …?", "Which
port does the development server listen on …?", "What HTTP status code does blackd return
…?"; not "What is the number of ports on the switch?"."""
_CODE_VALUE = re.compile(r"(?<![\w/.])\d|\b(?:non-?)?zero\b", re.I)
"""How a code or a port is written: in digits ("exits with 1", "port 8000", "204 No
Content"), or as zero or non-zero; never a number word. "By default Nox will continue to
run all sessions even if one fails" had answered "What exit code does nox return when a
session fails …?", its "one" read as a number."""

_ASKS_MEMORY = re.compile(
    r"\bhow\s+much\s+(?:\w+\s+)?(?:memory|ram|disk(?:\s+space)?|bandwidth)\b", re.I
)
"""A question asking for an amount of memory, disk or bandwidth: "Roughly how much RAM does
each prefork child process use …?". Not one naming the unit ("How many bytes may cookie
headers hold …?" is answered by Flask's "Defaults to ``4093``")."""
_DATA_UNIT = (
    r"(?:[kmgtp]i?b|bytes?|(?:kilo|mega|giga|tera|kibi|mebi|gibi)(?:bytes?|bits?)|gigs?|megs?"
    r"|[kmgt]?bps|[kmgt]?bits?(?:/s)?|[kmgtp]i|%|percent)"
)
_DATA_AMOUNT = re.compile(
    rf"(?<![\w/.,])\d[\d.,_]*\s*{_DATA_UNIT}(?!\w)|(?<![\w/.,])\d[\d.,_]*[KMGT](?!\w|\.\d)"
    r"|\b(?:unlimited|unbounded|no\s+limit)\b",
    re.I,
)
"""An amount of data ("16 MiB", "4096 bytes", "2.5 megabytes", "5 Mbps", "512Mi", "2G", "25
%" of memory) or none set ("unlimited"): what answers a question asking for one. Celery's
"``%i`` - Pool process index or 0 if MainProcess" had answered "how much RAM does each
prefork child process use", its 0 read as the amount."""
_DATA_NAMED = re.compile(r"\b(?:in\s+)?(?:[kmgtp]i?b|bytes|kilobytes|megabytes)\b", re.I)
"""A unit of data named ("Size, in bytes, of the buffer …")."""
_VALUE_GIVEN = re.compile(
    r"(?:\bdefaults?(?:\s+(?:to|is|value(?:\s+is)?))?|\bset\s+to|\bequals?|=)\s*:?\s*[`'\"]*\d",
    re.I,
)
"""A value given in digits ("Defaults to 65536", "Default: ``4093``", "= 1024"): after a unit
of data named in its sentence or the one before, an amount of data. Not "Pool process
index or 0 if MainProcess" after a sentence saying a limit "is specified in kilobytes"."""

_ASKS_UNTIMED = re.compile(
    r"\b(?:sizes?|how\s+(?:big|large|many)|count|ports?|percent\w*|retries|attempts"
    r"|connections)\b",
    re.I,
)
"""A question asking for a measure that is no time: a size, a count. It is answered by no
duration: "the ``WaitTimeSeconds`` parameter … is set to 10 seconds" had answered "What's
the maximum size of a task message I can send when using Amazon SQS as the broker?"."""
_TIMED_QUESTION = re.compile(
    r"\b(?:(?:milli|micro|nano)?seconds?|minutes?|hours?|days?|weeks?|months?|years?"
    r"|(?<!many\s)times?"
    r"|long|often|ages?|old|frequency|rate|dates?|timeouts?|delays?|intervals?|durations?|ttl"
    r"|lifetime|expir\w*|backoff|waits?|waiting|sleeps?|latency|periods?|cooldown|grace"
    r"|windows?|span|retention|ms|secs?|mins?|hrs?)\b",
    re.I,
)
"""Words of a question that may ask for a time or count one ("how many days", "how much
time", "the size of the retry delay", "the backoff"): such a question's durations are left
to be read. "How many times" counts occurrences, which no duration answers: twine's "… 15
minutes … 10 minutes into that validity period …" had answered "how many times does twine
retry before giving up?"."""
_DURATION = re.compile(
    rf"(?<![\w.,])(?:\d[\d.,]*|(?:{'|'.join(NUMBER_WORDS)})\b)[ \t-]*{_TIME_UNIT}\b"
    r"(?!\s+of\b)",
    re.I,
)
"""A duration stated: "10 seconds", "5min", "one-hour"; not "1000s of users"."""

NO_NUMBER = "the question asks for a number and no sentence of the answer stated one"
"""The warning of a not-found answer that `states_number` decided."""


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])")


def question_sentences(question: str) -> list[str]:
    """The sentences of a question: the scene a user sets, then what they ask."""
    return [s for s in _SENTENCE_END.split(question.strip()) if s]


_NAMED = re.compile(
    r"\b(?:which|what)\s+(?:\w+\s+){0,2}?(?:option|flag|setting|variable|command|argument"
    r"|parameter|key|function|method|class|hook|decorator|exception|field|attribute|module"
    r"|file|package|value|keyword|helper)s?\b",
    re.I,
)
"""A question asking for a named thing: "Which environment variable …", "what option …"."""


def asks_named(question: str) -> bool:
    """Whether `question` asks for a named thing: "Which exception does `Version()` raise?"."""
    return _NAMED.search(question) is not None


def asks_how(question: str) -> bool:
    """Whether `question` asks how to do something ("How do I …", "How can I …")."""
    return _HOW_TO.match(question) is not None


_YES_NO = re.compile(
    r"^\W*(?:is|are|was|were|am|do|does|did|can|could|will|would|should|shall|has|have|had"
    r"|may|might|must)(?:n['’]t)?\b(?!\s+(?:you|u)\s+(?:please\s+)?(?:tell|explain|describe"
    r"|outline|list|provide|show|give|help|walk|detail|summari[sz]e|clarify|elaborate|share"
    r"|point|recommend|suggest)\b)",
    re.I,
)
"""A question opening with an auxiliary verb: "Does X …?", "Can I …?", "Isn't it …?"; not a
request worded as one ("Can you explain how …?", "Could you outline …?")."""


def asks_yes_no(question: str) -> bool:
    """Whether `question` asks yes or no ("Does bulk_create() fire post_save signals?")."""
    return _YES_NO.match(question) is not None


def asks_number(question: str) -> bool:
    """Whether `question` asks for a count or a measure.

    Not "how many …" inside a question asking how to do something (`_HOW_TO`): "How do I
    change how many threads run synchronous endpoints?" asks for a setting.
    """
    if _NOT_NUMERIC.search(question):
        return False
    if asks_how(question):
        question = _HOW_MUCH_IN.sub(" ", question)
    return bool(_NUMERIC.search(question))


def states_number(claims: Iterable[str], *, versions: bool = True) -> bool:
    """Whether any of `claims` (citation markers aside) states a number.

    Without `versions`, a version (`_VERSION`) states none: "Starting with Jinja 2.2, you
    can …" had answered "What is the maximum number of nested blocks allowed?".
    """
    return any(_NUMBER.search(_counted(claim, versions=versions)) for claim in claims)


def _counted(claim: str, *, versions: bool = True) -> str:
    """`claim` as its numbers are read.

    Markers, addresses and standards' numbers left out (`_NOT_COUNTS`), and versions too
    without `versions`.
    """
    read = _NOT_COUNTS.sub(" ", plain(claim))
    return read if versions else _VERSION.sub(" ", read)


_CODE = "code"
_MEMORY = "memory"


def _kind_asked(question: str) -> str:
    """The kind of number `question` asks for.

    `_CODE` (`_ASKS_CODE`), `_MEMORY` (`_ASKS_MEMORY`), or "" for any. A question asking
    for more than one number ("What port and how many workers …?") takes any number for
    each.
    """
    if len(_NUMERIC.findall(question)) > 1:
        return ""
    if _ASKS_MEMORY.search(question):
        return _MEMORY
    return _CODE if _ASKS_CODE.search(question) else ""


def _states_as_asked(kind: str, claim: str, before: str, *, versions: bool) -> bool:
    """Whether `claim` (after the claim `before` it) states a number of the `kind` asked.

    A code or a port in digits (`_CODE_VALUE`); an amount of data with its unit
    (`_DATA_AMOUNT`), or a value given in digits in a claim that names the unit or follows
    one that does (`_VALUE_GIVEN`, `_DATA_NAMED`); any other number as `states_number`
    reads it.
    """
    if not states_number([claim], versions=versions):
        return False
    if kind == _MEMORY:
        read = _counted(claim)
        return _DATA_AMOUNT.search(read) is not None or (
            _VALUE_GIVEN.search(read) is not None
            and any(_DATA_NAMED.search(said) for said in (read, before))
        )
    return kind != _CODE or _CODE_VALUE.search(_counted(claim, versions=versions)) is not None


_ASKING = frozenset(
    query_terms(
        """how many much long old far tall high big large heavy fast what which number size
        count amount percentage percent length duration age population height width depth
        weight port year years exit code status default maximum minimum max min total average
        typical current exact value limit"""
    )
)
"""The words of a question that ask for a number rather than name what it is of."""


def states_number_of(
    question: str,
    claims: Sequence[str],
    subject: str = "",
    common: Collection[str] = frozenset(),
    headings: Sequence[str] = (),
) -> bool:
    """Whether `claims` state a number of what `question` asks about.

    A number stated of something else is no answer: "What is the default size of the DNS
    cache in HTTPX?" was answered with the connection pool's limits ("… (Defaults 20)"),
    which state numbers and name no DNS cache. A claim stating a number must hold a word the
    question names the thing by, follow a claim that does ("Season 2 of The Crown aired
    in 2017. It has ten episodes."), or stand under an answer heading that does
    (`headings`, one per claim, "" for none: "Default: ``1209600`` (2 weeks, in seconds)"
    under "**SESSION_COOKIE_AGE (Settings)**", as Django's settings reference states it
    under the setting's title). Not its asking words, nor the corpus's `subject`, nor
    the `common` terms half the corpus's chunks hold: in pytest's docs nearly every sentence
    names pytest or a test. A version is a number of a question about versions only, and
    a question asking for a duration (a timeout, a delay, an interval) is answered by no
    count of things (`_COUNTED`): "one of two instance methods" had answered
    Python-Markdown's "What is the default timeout for converting a large document?". A
    year is a number of a question about a time only (`_YEAR`, `_ASKS_TIME`), an HTTP
    status of one asking for a code only (`_STATUS`), and a number the question itself
    gives is none (`without_given`).
    """
    versions = _ASKS_VERSION.search(question) is not None
    duration = _ASKS_DURATION.search(question) is not None and not _OTHER_MEASURE.search(question)
    read = [_COUNTED.sub(" ", plain(claim)) if duration else claim for claim in claims]
    read = [without_given(question, claim) for claim in read]
    read = [unasked_none(question, claim) for claim in read]
    if not _ASKS_TIME.search(question):
        read = [_YEAR.sub(" ", claim) for claim in read]
    if _ASKS_UNTIMED.search(question) and not _TIMED_QUESTION.search(question):
        read = [_DURATION.sub(" ", plain(claim)) for claim in read]
    kind = _kind_asked(question)
    if kind != _CODE:
        read = [_STATUS.sub(" ", claim) for claim in read]
    stating = [
        _states_as_asked(kind, claim, read[index - 1] if index else "", versions=versions)
        or (duration and _NO_TIMEOUT.search(claim) is not None)
        for index, claim in enumerate(read)
    ]
    named = asked_about(question, subject, common)
    if not named:
        return any(stating)
    about = near_naming(named, claims, headings)
    return any(stated and about[index] for index, stated in enumerate(stating))


def unasked_none(question: str, claim: str) -> str:
    """`claim` without the `None` its code writes of something `question` does not name.

    In code, `None` is an amount of nothing only as a whole value (``None``) or as the
    value of a name the question names (``timeout=None`` asked how long a timeout is): a
    signature's other parameter is none, nor a type. build's "For source distributions:
    calls ``build_sdist(sdist_directory, config_settings=None)``" had stated a number for
    "After how many seconds does build kill a build_wheel hook that stops responding?".
    """
    asked = set(query_terms(question))

    def read(span: re.Match[str]) -> str:
        code = span.group(1)
        if code.strip() == "None":
            return span.group(0)
        kept = _NONE_VALUE.sub(
            lambda m: m.group(0) if set(query_terms(m.group(1) or "")) & asked else " ", code
        )
        whole, opening = span.group(0), span.start(1) - span.start(0)
        return f"{whole[:opening]}{kept}{whole[opening + len(code) :]}"

    return INLINE_CODE.sub(read, claim) if "None" in claim else claim


_NONE_VALUE = re.compile(r"(?:\b(\w+)\s*[=:]\s*)?\bNone\b")
"""`None` in code, with the name it is the value of (`name=None`, `name: None`) if any."""


_STATUS = re.compile(r"(?<![\w.])[1-5]\d\d\s+(?:error|response|status|page)\b(?!s)", re.I)
"""An HTTP status named by its number ("a 500 error", "the 404 page"): a number of a
question asking for a code only. twine's "Fix uploading signatures causing a 500 error"
had answered "how many times does twine retry …?"."""


_DIGITS = re.compile(r"(?<![\w/.])\d+(?:[.,]\d+)*(?![\w.]?\d)")
"""A number in digits, not one ending a name ("h11", "HTTP/2") nor part of a longer one."""


def given_numbers(question: str) -> frozenset[str]:
    """The numbers `question` writes in digits ("status 418", "error 2006")."""
    return frozenset(found.group() for found in _DIGITS.finditer(plain(question)))


def writes_number(numbers: Collection[str], text: str) -> bool:
    """Whether `text` writes one of `numbers` in digits (not inside a longer number)."""
    return any(found.group() in numbers for found in _DIGITS.finditer(plain(text)))


def without_given(question: str, claim: str) -> str:
    """`claim` without the numbers `question` itself gives, in digits or words.

    A number the asker wrote is what they know, not what they ask: "`dmypy status` exits
    with 0 when a daemon is running, but what exit code does it return when none is?" was
    answered with "It … exits with ``0`` if there is a running daemon", and "… how many
    body parts will Falcon accept in a single form?" with "… multiple files for a single
    field …". A word is read so when it is a count other than "one", which a question
    writes as a pronoun as often ("Which one …"), or "single", "double", "twice" or
    "half" (`_GIVEN_WORDS`). Not read for a yes/no question, which may ask about the
    number it gives ("Is the default 10?").
    """
    if asks_yes_no(question):
        return claim
    read = plain(question)
    given = given_numbers(question)
    words = {word.lower() for word in _WORDS.findall(read)} & _GIVEN_WORDS

    def unsaid(found: re.Match[str]) -> str:
        text = found.group()
        return " " if text in given or text.lower() in words else text

    if given:
        claim = _DIGITS.sub(unsaid, claim)
    return _WORDS.sub(unsaid, claim) if words else claim


_WORDS = re.compile(r"[A-Za-z]+")
_GIVEN_WORDS = (frozenset(NUMBER_WORDS) - {"one", "zero"}) | frozenset(
    "single double triple twice thrice half".split()
)
"""Number words a question may give that no answer's sentence states for it."""


def asked_about(question: str, subject: str = "", common: Collection[str] = ()) -> set[str]:
    """The terms naming what `question` asks a number of.

    Not its asking words (`_ASKING`), nor the corpus's `subject`, nor the `common` terms
    half the corpus's chunks hold (see `states_number_of`).
    """
    return set(query_terms(question)) - _ASKING - set(query_terms(subject)) - set(common)


def near_naming(
    terms: Collection[str], claims: Sequence[str], headings: Sequence[str] = ()
) -> list[bool]:
    """Per claim, whether it or the claim before it names one of `terms`.

    A claim is read with its answer heading (`headings`, one per claim, "" or missing for
    none): "Default: ``1209600``" names what "**SESSION_COOKIE_AGE (Settings)**" above it
    names.
    """
    headed = [*headings, *([""] * (len(claims) - len(headings)))]
    naming = [
        coverage(terms, query_terms(f"{heading} {claim}")) > 0
        for claim, heading in zip(claims, headed, strict=False)
    ]
    return [named or (index > 0 and naming[index - 1]) for index, named in enumerate(naming)]
