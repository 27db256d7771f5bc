"""Acronyms a question names that the passages found never do.

"How do I authenticate API clients with JWT tokens in Flask?" retrieves Flask's pages on
sessions and CSRF tokens: on topic, and a writer given them answers "To authenticate API
clients with JWT tokens in Flask, you need … a one-time token [1]", every word after the
question's own copied from a source. An acronym names one thing (JWT, S3, IBM, BBC): when
none of the top passages holds it, written in any case or spelt out by the initials of
consecutive words ("Red Hat Developer Hub" holds RHDH, "twenty-foot equivalent unit" TEU),
they are about something else, and
the question is not answered by them (`answerability.gate`). An acronym with a version
("HTTP/2") names a thing of its own: pages on HTTP that never write HTTP/2 do not answer
"How do I run the development server on HTTP/2?" (Werkzeug's docs). So it is with a name the
question writes as code (`code_names`: in backticks, dotted, snake_case or called, "How
does the default converter handle uuid.UUID fields?") that none of the sources the writer
is given writes, whole or by its last dotted part ("UUID"): `unnamed_code`. Only acronyms
and code are read so: capitalised words are names too, but a question's capitals are as
often its first word or a product's casual spelling ("McDonald's", "iPhone"), and a
question over news or an encyclopedia names people and places its passages spell
otherwise. Roman numerals ("Henry VIII") are parts of names.

A how-to question is the exception (`unnamed_proper`, 2026-11-29): "How do I run Black as a
Git pre-push hook with Husky?", "How do I send structlog entries to Datadog?" name the
tool the user wants to use, and when none of the sources the writer is given names it
(nor a word a typo away: "Platfrom" is "Platform"), the documentation answers a question
on something else: the extractive writer had quoted Black's pre-commit set-up, the
embedded model "Create a file named `.github/workflows/black.yml`".

Any other question naming one or two capitalised things is read so too when one of them
is a name the documents never write at all (three or four, when that one is the only
thing missing), a term of it in no chunk of the index
(2026-12-01): "Does Django provide an official integration with Celery?" over Django's
docs, which never write "Celery", had been answered from its ASGI release notes. A
question naming more names some in passing, as news questions do.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from itertools import pairwise

from citesynth.analysis import INLINE_CODE, code_names, content_terms
from citesynth.synthesis.asked import asks_how
from citesynth.synthesis.sources import Source
from citesynth.types import Chunk

_ACRONYM = re.compile(r"(?<![\w`.\-/])([A-Z][A-Z0-9]{2,})s?(?![\w`.\-])")
"""Three or more capitals (digits after the first), a plural "s" aside; not inside inline
code or a dotted, hyphenated or slashed name. Two-letter ones are left out: "US", "UK",
"TV", "AI" are written as words as often as not ("from the US" against "American")."""
_VERSIONED = re.compile(r"(?<![\w`.\-/])([A-Z][A-Z0-9]{2,})/(\d+(?:\.\d+)*)(?![\w`\-/]|\.\d)")
"""An acronym with a version after a slash, naming a protocol of its own: "HTTP/2"
("How do I run the development server on HTTP/2?" is not answered by pages on HTTP)."""
_ROMAN = re.compile(r"[IVXLCDM]+")
_WORD = re.compile(r"[A-Za-z0-9]+")
_COMPOUND = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")
_BETWEEN = frozenset("of and the for in on to a an".split())
"""Small words an acronym's spelt-out form may hold between its initials."""


_KINDS = frozenset("API RAM CPU GPU URL URI GUI CLI IDE SDK FAQ".split())
"""Acronyms that name a kind of thing, not one thing: "my tiny API responses", "keep it in
RAM" ask about what a page calls responses and memory. Withheld for the acronym, "GZip
compression is turned on, but my tiny API responses come back uncompressed. Is there a
minimum size?" had gone unanswered over Django's page on the middleware ("… less than 200
bytes long"), and "Why should I wrap my API keys in the Secret class?" over Starlette's."""


def acronyms(question: str) -> tuple[str, ...]:
    """The acronyms of `question`, in order, each once (see the module docstring).

    Neither Roman numerals ("Henry VIII") nor the acronyms of a kind of thing (`_KINDS`).
    """
    found = (m.group(1) for m in _ACRONYM.finditer(INLINE_CODE.sub(" ", question)))
    return tuple(dict.fromkeys(a for a in found if not _ROMAN.fullmatch(a) and a not in _KINDS))


def unnamed(question: str, sources: Sequence[Source]) -> tuple[str, ...]:
    """The acronyms of `question` that none of `sources` holds.

    Held means written in a source's text, title or headings, in any case, or spelt out.
    The sources' words are read once, whatever the number of acronyms.
    """
    if not sources:
        return ()
    return unnamed_in(question, _read(sources))


def unnamed_in(question: str, text: str) -> tuple[str, ...]:
    """The acronyms of `question` that `text` does not hold (`unnamed`)."""
    versions = _versions(question)
    wanted = tuple(a for a in acronyms(question) if a not in {v[0] for v in versions})
    if not (wanted or versions):
        return ()
    words = [w.lower() for w in _WORD.findall(text)]
    written = frozenset(words)
    absent = [a for a in wanted if a.lower() not in written and f"{a.lower()}s" not in written]
    spellable = [a.lower() for a in absent if a.isalpha() and len(a) <= _MAX_SPELT]
    compounds = [w.lower() for w in _COMPOUND.findall(text)]  # "twenty-foot" one word
    spelt = spelt_out(spellable, words) | spelt_out(spellable, compounds)
    held = _versions_written(text) if versions else frozenset()
    held |= {pair for pair, alias in _ALIASES.items() if alias in written}
    missing = [f"{a}/{v}" for a, v in dict.fromkeys(versions) if (a.lower(), _bare(v)) not in held]
    return tuple(a for a in absent if a.lower() not in spelt) + tuple(missing)


def versioned(question: str) -> tuple[str, ...]:
    """The acronyms with a version `question` names ("HTTP/2"), in order, each once."""
    return tuple(dict.fromkeys(f"{a}/{v}" for a, v in _versions(question)))


def _versions(question: str) -> list[tuple[str, str]]:
    """(acronym, version) of each acronym with a version `question` names."""
    return [(m.group(1), m.group(2)) for m in _VERSIONED.finditer(INLINE_CODE.sub(" ", question))]


_VERSION_WRITTEN = re.compile(
    r"(?<![\w.])([A-Za-z][A-Za-z0-9]*?[A-Za-z])[ \t/-]?(\d+(?:\.\d+)*)(?!\w|\.\d)"
)
"""A name with a version as a text writes it: "HTTP/2", "HTTP 2", "HTTP-2", "http2",
"HTTP/2.0"."""
_ALIASES = {("http", "2"): "h2", ("http", "3"): "h3"}
"""Names of a version of their own: HTTP/2 is "h2" in TLS negotiation and in many docs."""


def _versions_written(text: str) -> frozenset[tuple[str, str]]:
    """The (name, version) pairs `text` writes (`_VERSION_WRITTEN`), lowercased, ".0" aside."""
    return frozenset(
        (m.group(1).lower(), _bare(m.group(2))) for m in _VERSION_WRITTEN.finditer(text)
    )


def _bare(version: str) -> str:
    """`version` without trailing ".0" parts: "2.0" is "2"."""
    return re.sub(r"(?:\.0)+$", "", version)


def unnamed_code(question: str, sources: Sequence[Source]) -> tuple[str, ...]:
    """The code names of `question` (`code_names`) that none of `sources` writes.

    Written means in a source's text, title or headings, in any case, whole or by its last
    dotted part. Names the user gives their own code are no documentation's
    (`users_names`).
    """
    own = users_names(question)
    names = tuple(name for name in code_names(question) if name not in own)
    if not names or not sources:
        return ()
    lowered = _read(sources).lower()
    words = frozenset(_CODE_TOKEN.findall(lowered))
    return tuple(name for name in names if not _holds(lowered, words, name))


_DEFINED = re.compile(r"\bdef\s+([A-Za-z_]\w*)\s*\(([^()]*)\)|\bclass\s+([A-Za-z_]\w*)\s*[(:]")
"""A function the question's own code defines, with its parameters, or a class (its bases
are a library's names, not the user's)."""
_PARAMETER = re.compile(r"\s*\**([A-Za-z_]\w*)")
_INTRODUCED = re.compile(
    r"\b(?:an?|my|our)\s+`?([A-Za-z_][\w.]*)`?\s+(?:module|helper|function|class|fixture"
    r"|test)s?\b",
    re.I,
)
"""A name the user introduces as one of their own things: "a helpers.py module". Not "a
tox.ini file", "my pip.conf file": a tool's files are the documentation's names."""
_NAMED_SO = re.compile(
    r"\b(?:my|our)\s+(?:[a-z]+\s+)?(?:tasks?|functions?|commands?|jobs?|scripts?|modules?"
    r"|files?|classes|class|fixtures?|tests?|helpers?|models?|tables?|handlers?|routes?"
    r"|views?|endpoints?|variables?|methods?)\s+(?:is|are)\s+(?:named|called)\b([^.;:!?]*)",
    re.I,
)
"""The names the user says their own code's things have: "Our tasks are named like
run_migrations and build_docs" (the code names of the clause after it); not "My config
option is called worker_magic_mode", which may name the documentation's setting."""


_NAMING = re.compile(
    r"\b(?:i|we)\s+(?:(?:want|need|would\s+like|['’]d\s+like|plan|try|tried)\s+to\s+)?"
    r"(?:re)?name\s+(?:(?:a|an|the|my|our|this|that|it|them|each|every|one)\s+)?"
    r"(?:[a-z]+\s+){0,3}?(?:(?:something|anything)\s+like\s+|like\s+|as\s+|to\s+)?"
    r"([^.;:!?,]*)",
    re.I,
)
"""A name the user means to give their own thing ("Can I name a form field something like
validated_at?": a name WTForms' docs need not write to say which names are reserved).
"Name" only, not "call", which as often invokes ("Can I call form.validate() twice?")."""


def users_names(question: str) -> frozenset[str]:
    """The names `question` gives the user's own code: no documentation writes them.

    What its code defines ("If I write def test_x(db, cache_client, user), can I rely on
    pytest setting up the fixtures left to right?": the fixtures are the user's) and what
    it introduces as the user's own ("… into a helpers.py module", "Our tasks are named like
    run_migrations and people keep typing `inv run_migrations`") or means to give its own
    thing (`_NAMING`: "Can I name a form field something like validated_at?"). Withheld for
    naming `test_x` and `helpers.py`, which pytest's docs never write, both questions had
    gone unanswered, and so had WTForms' for `validated_at`.
    """
    own = {m.group(1) for m in _INTRODUCED.finditer(question)}
    for named_so in (*_NAMED_SO.finditer(question), *_NAMING.finditer(question)):
        own.update(code_names(named_so.group(1)))
    for found in _DEFINED.finditer(question):
        if found.group(3):
            own.add(found.group(3))
            continue
        own.add(found.group(1))
        parameters = (_PARAMETER.match(p) for p in found.group(2).split(","))
        own.update(m.group(1) for m in parameters if m is not None)
    return frozenset(own)


_PROPER = re.compile(r"(?<![.!?]\s)(?<!^)(?<![\w`.\-/])(?:[A-Z][a-z]|[A-Z]{2,}[a-z]{3})[\w'’-]*")
"""A capitalised word of a question that does not open it ("I" is no name), or one opening
with an acronym ("SQLAlchemy", "JSONField"); not a plural acronym ("URLs", `_ACRONYM`'s) nor
a unit ("MBps")."""
_POSSESSIVE = re.compile(r"['’]s?$")


_PEOPLES = frozenset(
    """english spanish french german italian portuguese dutch russian chinese japanese
    korean arabic hindi turkish polish swedish norwegian danish finnish greek hebrew czech
    hungarian ukrainian vietnamese thai indonesian persian latin european american british
    canadian australian indian african asian""".split()
)
"""Words English capitalises that name a language or a people (`_MEDIUM`)."""
_MEDIUM_AFTER = re.compile(r"\bin\s+$", re.I)
_MEDIUM_BEFORE = re.compile(r"['’]?\s+(?:version|translation|locale|edition|site|page)s?\b", re.I)
"""A language as the medium of what is asked about, not its subject: "shows it to me in
Spanish", "the English version of a multilingual site" (Scrapy's FAQ answers that question
with the `Accept-Language` header and names neither; withheld for "Spanish", it had gone
unanswered). "Does the stemming analyzer support Hungarian?" names its subject."""


def proper_names(question: str) -> tuple[str, ...]:
    """The capitalised words of `question` past its first, possessives aside, each once.

    Not a language or a people written as the medium of something (`_MEDIUM_AFTER`,
    `_MEDIUM_BEFORE`).
    """
    read = INLINE_CODE.sub(" ", question)
    names = (
        _POSSESSIVE.sub("", m.group())
        for m in _PROPER.finditer(read)
        if m.group().lower() not in _PEOPLES
        or not (
            _MEDIUM_AFTER.search(read[max(0, m.start() - 12) : m.start()])
            or _MEDIUM_BEFORE.match(read, m.end())
        )
    )
    return tuple(dict.fromkeys(names))


def unnamed_proper(
    question: str, sources: Sequence[Source], unheard: Collection[str] = ()
) -> tuple[str, ...]:
    """The names `question` writes capitalised that none of `sources` writes.

    Written means as words of a source's text, title or headings, in any case, or a typo
    away (`_typo_of`; a CamelCase name a part longer than a word is none of its typos:
    `_cut_short`), or a CamelCase name's parts in a row ("Argo CD" for "ArgoCD"); every
    word of a hyphenated name ("Keycloak-based") must be. A
    how-to question's every such name counts; any other question's only when a term of it
    is `unheard` (`answerability.unheard_terms`: no chunk of the index holds it), a name
    the documents never write at all (see the module docstring). A question naming three
    or four things is read so only when one thing is missing, named by words in a row
    ("HashiCorp Vault"), and another is written (`_one_thing`): "… several Tornado
    processes … WebSocket clients … with Redis pub/sub?" asks about Redis, but "Is the
    default the same on Windows, Linux and Docker?" names the user's settings.
    """
    how_to = asks_how(question)
    if not sources or not (how_to or unheard):
        return ()
    symptoms = {found.group(1) for found in _SYMPTOM.finditer(question)}
    named = tuple(n for n in proper_names(question) if n not in symptoms)[:_MAX_PROPER]
    names = named
    if not how_to:
        if len(named) > _SOME_NAMES:
            return ()
        never = frozenset(unheard)
        names = tuple(n for n in named if never.intersection(content_terms(n)))
    if not names:
        return ()
    lowered, words = written_words(sources)
    asked = frozenset(_WORD.findall(question.lower()))
    missing = tuple(
        name
        for name in names
        if not all(held_word(part, words, lowered) for part in _WORD.findall(name))
        and not _written_longer(name, asked & words)
    )
    if how_to or len(named) <= _FEW_NAMES or _one_thing(question, missing, named):
        return missing
    return ()


_SYMPTOM = re.compile(
    r"\b(?:got|get|gets|getting|see|saw|seeing|hit|hits|hitting|receiv(?:e|es|ed|ing)"
    r"|(?:fail|crash|die|abort)(?:s|ed|ing)?\s+with)\s+(?:an?\s+|the\s+)?"
    r"([A-Z]\w*(?:Error|Exception|Warning))\b"
)
"""An error the asker reports meeting ("… and got an AttributeError. Why?"): what happened
to them, which the documentation explaining why need not write, unlike an error asked
about ("Does the client raise ClientResponseError on a 404?")."""


def _written_longer(name: str, written: Collection[str]) -> bool:
    """Whether a word of the question the sources write (`written`) is `name` lengthened.

    "I'm profiling … on my Mac. Which … mechanism does Trio use on macOS?": the docs
    write "macOS", and the asker names the same thing twice.
    """
    lowered = name.lower()
    return any(word != lowered and word.startswith(lowered) for word in written)


def _one_thing(question: str, missing: Sequence[str], named: Sequence[str]) -> bool:
    """Whether the `missing` names of those `question` writes (`named`) name one thing.

    Some name must be written and the missing ones stand in a row: "HashiCorp Vault",
    not "Windows, Linux and Docker".
    """
    if not missing or len(missing) >= len(named):
        return False
    read = INLINE_CODE.sub(" ", question)
    found = (re.search(rf"(?<![\w`.\-/]){re.escape(name)}", read) for name in missing)
    places = sorted((m.start(), m.end()) for m in found if m is not None)
    return len(places) == len(missing) and all(
        _IN_A_ROW.fullmatch(read[end:start]) for (_, end), (start, _) in pairwise(places)
    )


_IN_A_ROW = re.compile(r"(?:['’]s?)?[ \t]+")
"""What stands between two words of one name: a space, after a possessive ("Khan's")."""


def held_word(
    part: str, words: Collection[str], lowered_text: str, *, edits: int | None = None
) -> bool:
    """Whether `part`, a word of a name, is written in `lowered_text` (its `words`).

    As one of the words, a typo away from one (`edits` at most, when given), its
    CamelCase parts as words in a row ("ArgoCD" as "Argo CD"), or, ending in a placeholder
    ("HTTPxxx", `_FAMILY`), by a longer word its prefix begins.
    """
    lowered, shortened = part.lower(), _cut_short(part)
    if lowered in words or any(_typo_of(lowered, w, shortened, edits) for w in words):
        return True
    if family := _FAMILY.match(part):
        prefix = family.group(1).lower()
        return any(w.startswith(prefix) and len(w) > len(prefix) + 1 for w in words)
    if shortened is None:
        return False
    apart = r"[\s-]+".join(re.escape(p.lower()) for p in _CAMEL_PART.findall(part))
    return re.search(rf"(?<![a-z0-9]){apart}(?![a-z0-9])", lowered_text) is not None


_FAMILY = re.compile(r"([A-Za-z0-9]{2,}?)(?:(?<=[A-Z0-9])x{2,}|(?<=[a-z0-9])X{2,})\Z")
"""A word ending in a placeholder written in the other case than the letter before it:
"HTTPxxx" stands for the names the documents write one by one (`HTTPUnauthorized`,
`HTTPNotFound`), held by any word its prefix begins ("each HTTPxxx class" over Pyramid's
docs had been withheld as a thing the documents never name)."""


def _typo_of(
    written: str, word: str, shortened: str | None = None, edits: int | None = None
) -> bool:
    """Whether `written` is `word` with a typo (see `_SHORT`); never a word of 3 letters.

    A typo keeps the first letter: a word written otherwise from its first letter on names
    something else ("Cython" is not a typo of "Python", nor "Ninja" of "Jinja"), and few
    misspellings change it. Nor is `written` a typo of its `shortened` form, its CamelCase
    name without the last part (`_cut_short`). `edits`: at most so many, whatever the
    length.
    """
    allowed = edits if edits is not None else 1 if len(written) <= _SHORT else 2
    if len(written) <= 3 or abs(len(written) - len(word)) > allowed or written[0] != word[0]:
        return False
    if word == shortened:
        return False
    previous = list(range(len(word) + 1))
    for row, letter in enumerate(written, 1):
        current = [row]
        for column, other in enumerate(word, 1):
            current.append(
                min(previous[column] + 1, current[-1] + 1, previous[column - 1] + (letter != other))
            )
        if min(current) > allowed:
            return False
        previous = current
    return previous[-1] <= allowed


_CAMEL_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+")
"""A part of a CamelCase name: a capitalised word ("Required"), a run of capitals
("CSRF" of "SessionCSRF") or the lower-case word it opens with ("mac" of "macOS")."""


def _cut_short(name: str) -> str | None:
    """`name`, lowered, without its last part, when it is CamelCase (None: it is not).

    A name adding a part to a word names another thing than the word does: "Is there a
    built-in RequiredIf validator …?" asks about no validator WTForms' docs write, and
    "RequiredIf", two letters longer than their "required", had read as its typo. (Without
    its first part, a name opens with another letter, which no typo does.)
    """
    parts = _CAMEL_PART.findall(name)
    if len(parts) < 2 or "".join(parts) != name:
        return None
    return "".join(parts[:-1]).lower()


_MAX_PROPER = 12
"""Capitalised names of one question read (a question writing thousands is read by its
first twelve: each missing one is compared with every word of the sources)."""
_FEW_NAMES = 2
"""The most capitalised names a question other than a how-to one may write for any one
the documents never write to make it a not-found: a question naming one or two things
asks about them ("Does Django provide an official integration with Celery?")."""
_SOME_NAMES = 4
"""The most it may write for one missing thing among them to (`_one_thing`): "I run
several Tornado processes behind nginx, each holding its own WebSocket clients. How do I
broadcast … with Redis pub/sub?". One naming more names some in passing ("Does the
Sporting News article attribute the Minnesota Vikings' poor performance … to Danielle
Hunter …?", answered by a corpus that never writes "Danielle"). Of MultiHop-RAG's `dev`
questions naming something the corpus never writes, every answerable one (11) writes six
capitalised words or more (measurements.md, 2026-12-02)."""
_SHORT = 5
"""Letters of the longest word a typo of which is one edit away (Levenshtein distance);
two in longer ones."""


def _read(sources: Sequence[Source]) -> str:
    """What the sources write: each one's title, headings and text."""
    return " ".join(written(s.chunk) for s in sources)


def written_words(sources: Sequence[Source]) -> tuple[str, frozenset[str]]:
    """What the sources write (`_read`) in lower case, and its words.

    What `held_word` reads a name's word against.
    """
    lowered = _read(sources).lower()
    return lowered, frozenset(_WORD.findall(lowered))


def written(chunk: Chunk) -> str:
    """What a chunk writes: its title, headings and text."""
    return f"{chunk.title} {' '.join(chunk.heading_path)} {chunk.text}"


_CODE_TOKEN = re.compile(r"[a-z0-9_]+")
"""A word of lower-case text as a code name's parts are written: letters, digits, "_"."""


def _holds(lowered: str, words: frozenset[str], name: str) -> bool:
    """Whether `lowered` (text in lower case, its `words`) writes `name` or its last part.

    A name, or a last dotted part of three characters or more (which any writing of the
    whole name holds too), is looked up among the words: a question naming thousands of
    names costs one pass over the text, not one a name. Only a dotted name with a shorter
    last part ("Node.js") is searched for whole, and one with a placeholder part
    (`_PLACEHOLDER`) by any of its members.
    """
    last = name.rpartition(".")[2].lower()
    if _PLACEHOLDER.search(last):
        parts = (
            "[a-z0-9]+" if _PLACEHOLDER.fullmatch(part) else re.escape(part)
            for part in last.split("_")
        )
        return re.search(rf"(?<![a-z0-9_]){'_'.join(parts)}(?![a-z0-9_])", lowered) is not None
    if "." not in name or len(last) >= 3:
        return last in words
    return re.search(rf"(?<![a-z0-9_]){re.escape(name.lower())}(?![a-z0-9_])", lowered) is not None


_PLACEHOLDER = re.compile(r"(?<![a-z0-9])x{2,}(?![a-z0-9])")
"""A part of a name standing for any ("falcon.HTTP_xxx" for `HTTP_201`, `HTTP_404`, …): the
question names a family of names, which the sources write by its members."""


_MAX_SPELT = 12
"""Letters of the longest acronym read as initials: longer ones are only ever written."""
_MAX_BETWEEN = 3
"""Small words in a row an acronym's spelt-out form may hold between two initials."""


def spelt_out(wanted: Collection[str], words: Sequence[str]) -> frozenset[str]:
    """Which of `wanted` (acronyms) consecutive `words` spell out by their initials.

    Both are in lower case. Small words may sit between the initials ("Bank of America"
    holds BOA as well as BA). The words are walked once for all the acronyms, each start
    only as far as the initials read so far begin one of them: a question naming
    thousands of acronyms costs what one does.
    """
    acronyms = frozenset(wanted)
    begun = frozenset(a[:end] for a in acronyms for end in range(1, len(a) + 1))
    held: set[str] = set()
    for start, first in enumerate(words):
        read = [(first[:1], 0)] if first[:1] in begun else []
        held.update(initials for initials, _ in read if initials in acronyms)
        at = start + 1
        while read and at < len(words):
            read = _step(read, words[at], begun)
            held.update(initials for initials, passed in read if initials in acronyms)
            at += 1
    return frozenset(held)


def _step(read: list[tuple[str, int]], word: str, begun: frozenset[str]) -> list[tuple[str, int]]:
    """The initials read so far, after `word`: its initial read next, or, a small word, passed.

    Each keeps the small words passed since its last initial; only initials that still
    begin an acronym (`begun`) go on.
    """
    after: dict[tuple[str, int], None] = {}
    for initials, passed in read:
        if (longer := initials + word[:1]) in begun:
            after[(longer, 0)] = None
        if word in _BETWEEN and passed < _MAX_BETWEEN:
            after[(initials, passed + 1)] = None
    return list(after)
