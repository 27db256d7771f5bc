"""Where retrieved sources disagree: the same statement with a different value.

Two sentences from different documents speak of the same subject when their content terms
(numbers and negations aside) overlap strongly: at least three shared terms, covering at
least 70 % of the shorter sentence's terms and half of both together. Such a pair conflicts
when

- both give a number with the same unit (the word after it, `%`, a year, or the keyword a
  keyword argument's value is given to: ``days=1``) and the values differ: "times out
  after 30 seconds" / "times out after 60 seconds" (`number`, `date`);
- one says it and the other denies it: "retries failed requests" / "does not retry failed
  requests" (`negation`); what is denied (the first two content words after the negation)
  must be in the other sentence: "does not create ingresses" does not deny "Create the
  namespace"; and so must every other content term of the denying sentence, since a
  denial under a condition the other sentence does not state is no contradiction: "Do not
  use the development server when deploying to production" agrees with "Only use the
  development server during development", and "Do not run the development server … in a
  production environment" does not deny the heading "Run the Development Server"; nor does
  a denial in a parenthesised aside, which sets the scope of what the sentence says:
  build's "**Install** packages (not build them)", of a custom installer, against "pip both
  installs packages and can build them" had been a disagreement;
- they are the same sentence but for one proper name: "is maintained by Alice Smith" /
  "is maintained by Bob Jones" (`name`); not when each name is what its own document is
  about (its path, title or headings name it): the GKE guide and the AKS guide each say
  "On GKE …" / "On AKS …" of their own platform. The words they share before the name must
  hold a content word past the first (a label and list marks aside): "On" alone is no
  topic, nor are "* Click View" / "* Click Save" (steps of different procedures) or "The
  Nexus plugin is …" / "The JFrog plugin is …" (different subjects).

Two sentences are about different things, whatever they share, when

- each names someone or something the other does not ("Kate Ramsay … 2009" / "Max Ramsay …
  1985"; capitalised words, the sentence's opening one when a name goes on after it or it
  is an acronym, months, days and "The" aside), for a number, date or negation;
- their documents are titled with different names (two or more capitalised words, a
  parenthesis and a site suffix aside, one of them a name in the passage: capitalised
  there and never in lower case; neither title holding the other: *Homer's Odyssey (The
  Simpsons)* / *When Flanders Failed*, never *Connection Pools* over "the connection pool
  size") and neither sentence names the other's title: an encyclopedia's articles each
  speak of their own subject, often as "It" or "She".

- their documents are titled alike but for a number, which differs: release notes ("What's
  new in Celery 5.0" / "What's new in Celery 5.3", "Changelog 3.1" / "Changelog 4.0") each
  speak of their own release.

A number that is part of its document's name is not a value: the title holds it next to
the same word ("The 2003–04 NBA season" in *2003–04 Orlando Magic season*, "The Heinkel HD
39 was …" in *Heinkel HD 39*). "Requires Node 18" against "Node 20" stays a disagreement.
An abbreviated year range ends in its full year: "from 1962–63" and "from 1962 to 1963" agree.
On 390 tuning questions of five sets the detector without these rules found 24
disagreements, all but one between different seasons, episodes, people or stations
(`docs/verification.md`).

Precision first: a missed conflict leaves the answer as it was, a false one would put a
disagreement into it that the sources do not have.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from citesynth.analysis import ADMONITIONS, CALENDAR, content_terms, terms, without_asides
from citesynth.ingest.sentences import FIELD_MARKER, prose_sentences
from citesynth.verify.analysed import passage_sentences
from citesynth.verify.base import Passage

_VALUE = re.compile(
    r"(?<![\w./])(?P<number>(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?,?)\s?(?P<unit>%|[A-Za-z]+)?",
    re.UNICODE,
)
"""A number and the word after it; not one after a slash, part of a name ("HTTP/2
connections" is no count of connections). A comma inside a number separates thousands
("1,000 requests"); between others it separates values: Pillow's "(0,0)" against "(0, 0)"
had been read as 00 against 0, a disagreement."""
NEGATION = re.compile(r"\b(?:not|no|never|cannot|can't|doesn't|don't|isn't|aren't|won't)\b", re.I)
"""A negating word: one side of a `negation` conflict has it, the other not."""
_YEAR = re.compile(r"^(?:1[5-9]|20)\d\d$")
_KEYWORD = re.compile(r"(?<![\w.])([A-Za-z_]\w*)=\Z")
"""A keyword argument's name right before its value: the number of ``http_cache=3600``
measures `http_cache`, that of ``timedelta(days=1)`` days; Pyramid's two examples of one
setting had come out as "[4] says 3600; [8] says 1"."""
_MAX_SENTENCES = 400
_FOLLOWERS = frozenset(
    """after before by with and or in on at for from to of as when while since until the a an
    was were is are has had""".split()
)
"""Words that may follow a number without being its unit."""


@dataclass(frozen=True, slots=True)
class Found:
    """A disagreement between two numbered sources."""

    topic: str
    values: tuple[str, str]
    sources: tuple[int, int]
    kind: str
    subject: frozenset[str] = frozenset()
    """The content terms both sentences share, values left out: what they are about."""


@dataclass(frozen=True, slots=True)
class _Fact:
    number: int
    document: str
    text: str
    key: frozenset[str]
    values: dict[str, frozenset[str]]
    shown: dict[str, str]
    negated: bool
    denied: frozenset[str]
    """The first two content terms after the negation: what the sentence denies."""
    both_sides: bool
    """Whether it states a thing and its denial as two choices (`_both_sides`)."""
    opening: str
    """The first word, lower case: a name swap needs the same opening."""
    names: frozenset[str]
    """The capitalised words it names, lower case (`_names`)."""
    title: str
    """Its document's title, lower case and a parenthesis aside, when that title is a name
    (`_named_title`; "" else)."""
    release: tuple[str, tuple[str, ...]]
    """Its document's title with its numbers taken out, and those numbers, when it has one
    (`_release`; ("", ()) else)."""


_MIN_WORDS = 4
"""How many words a sentence needs to state a fact here."""
_FIELD = re.compile(rf"[ \t]*{FIELD_MARKER}")
"""A Sphinx info field ("   :param timeout: The connect timeout defaults to 5 seconds."):
no prose to the reader, yet where API pages state defaults."""


def _stating(text: str) -> list[tuple[int, int]]:
    """The sentences of `text` that can state a fact: its prose and its info fields."""
    spans = prose_sentences(text, min_words=_MIN_WORDS)
    if ":" in text:
        fields = [
            (start, end)
            for start, end in passage_sentences(text)
            if _FIELD.match(text, text.rfind("\n", 0, start) + 1)
            and len(text[start:end].split()) >= _MIN_WORDS
        ]
        spans = sorted(set(spans) | set(fields))
    return spans


@lru_cache(maxsize=512)
def _facts(passage: Passage) -> tuple[_Fact, ...]:
    """The facts of `passage`'s prose sentences.

    Code and its output state none: attrs' doctests print "TypeError: ('x' must be <class
    'str'> (got 7 …" in one reference page and "(got '128' …" in another, which had been a
    disagreement on "typeError 'x' …".
    """
    facts = []
    title = _named_title(passage.title, passage.text).lower()  # once per passage
    release = _release(passage.title)
    for start, end in _stating(passage.text):
        text = " ".join(passage.text[start:end].split())
        if text.startswith(("#", "|", "```")):
            continue
        values: dict[str, set[str]] = {}
        shown: dict[str, str] = {}
        numeric: set[str] = set()
        for match in _VALUE.finditer(text):
            number = match.group("number").replace(",", "")
            numeric.update(terms(match.group("number")))
            if _part_of_name(text, match.start(), match.end("number"), number, passage.title):
                continue
            number = _full_year(text, match.start(), number)
            if keyword := _KEYWORD.search(text, 0, match.start()):
                name = keyword.group(1)  # `days=1` measures days, whatever follows
                unit = f"{_unit(name) if name.isalpha() else name.lower()}="
                values.setdefault(unit, set()).add(number)
                shown.setdefault(unit, f"{name}={match.group('number')}")
                continue
            unit_word = match.group("unit") or ""
            if unit_word.lower() in _FOLLOWERS:  # "in 2009 after ...": no unit
                unit_word = ""
            unit = "year" if _YEAR.match(number) and not unit_word else _unit(unit_word)
            values.setdefault(unit, set()).add(number)
            shown.setdefault(unit, f"{match.group('number')} {unit_word}".strip())
        key = frozenset(t for t in content_terms(text) if t not in numeric and not t.isdigit())
        asserted = without_asides(text)  # a denial in an aside sets a scope, denies nothing
        facts.append(
            _Fact(
                number=passage.number,
                document=passage.document,
                text=text,
                key=key,
                values={u: frozenset(v) for u, v in values.items()},
                shown=shown,
                negated=bool(NEGATION.search(asserted)),
                denied=_denied(asserted),
                both_sides=_both_sides(text),
                opening=text.split(" ", 1)[0].lower(),
                names=_names(text),
                title=title,
                release=release,
            )
        )
    return tuple(facts)


_VERSION = re.compile(r"(?<![\w.])(?:v?\d+(?:\.(?:\d+|x))+|v\d+|(?:19|20)\d\d)(?![\w.])", re.I)
"""A release in a title: a version with a dot ("5.3", "3.1.x") or a "v" ("v2"), or a year;
not "part 2" or "Step 3", which number parts of one work."""


def _release(title: str) -> tuple[str, tuple[str, ...]]:
    """`title` with its releases (`_VERSION`: versions, years) taken out, and those.

    ("", ()) when it has none.
    """
    core = without_asides(_SITE.sub("", title)).strip().lower()
    numbers = tuple(found.group().lstrip("v") for found in _VERSION.finditer(core))
    return (" ".join(_VERSION.sub("#", core).split()), numbers) if numbers else ("", ())


def _releases_apart(a: _Fact, b: _Fact) -> bool:
    """Whether the documents are titled alike but for their numbers, which differ.

    Release notes: "What's new in Celery 5.0" says "Celery now requires Python 3.6", "What's
    new in Celery 5.3" "… Python 3.8": each of its own release, no disagreement.
    """
    (one, first), (two, second) = a.release, b.release
    return bool(one) and one == two and first != second


_RANGE_START = re.compile(r"(?<![\d.])((?:1[5-9]|20)\d\d)\s?[–-]\s?$")


def _full_year(text: str, start: int, number: str) -> str:
    """`number` as a year when it ends an abbreviated year range, else as it is.

    "1962–63" ends in 1963, "1999–00" in 2000.
    """
    if len(number) != 2 or not number.isdigit() or re.match(r"[-/–]\d", text[start + 2 :]):
        return number  # "2023-10-05" is a date, not a range
    opened = _RANGE_START.search(text, 0, start)
    if opened is None:
        return number
    year = int(opened.group(1))
    end = year // 100 * 100 + int(number)
    return str(end if end > year else end + 100)


_NAME_WORDS = re.compile(r"\w[\w'’-]*")
_SMALL = frozenset("a an and at by for from in of on or the to with".split())
_NOT_NAMES = CALENDAR | _SMALL
_OPENING_NAME = re.compile(r"^\W*[A-Z][\w'’-]*\s+[A-Z][a-z]")
"""A sentence opening with two Title Case words ("Kate Ramsay made …"): its first is a name."""
_SITE = re.compile(r"\s+[|—–-]\s+.*$")
"""A site's suffix on a page title ("Tuning | Acme Docs")."""


def _names(text: str) -> frozenset[str]:
    """The capitalised words of a sentence, lower case and without a possessive.

    Its first word counts when it is an acronym ("WWDM") or a Title Case word follows it
    ("Kate Ramsay made …", not "Note: The …" nor "Set MAX_POOL …"); months, days and short
    linking words never do.
    """
    found = set()
    for index, word in enumerate(_NAME_WORDS.findall(text)):
        if not word[:1].isupper() or word.lower() in _NOT_NAMES:
            continue
        if index == 0 and not (word.isupper() and len(word) > 1):
            opening = _OPENING_NAME.match(text)
            following = opening.group(0).split()[-1] if opening else ""
            if not opening or following.lower() in _NOT_NAMES:
                continue
        found.add(re.sub(r"(?:['’]s|['’])$", "", word).lower())
    return frozenset(found)


def _named_title(title: str, text: str) -> str:
    """`title` (a site suffix and a parenthesis aside) when it names its subject, else "".

    It does when it has two or more capitalised words and no other but short linking ones,
    and one of them is a name in `text` (its passage, the title's own line aside): written
    there in Title Case and never in lower case ("Flanders", not "Connection Pools" over
    "the connection pool size", nor an acronym).
    """
    core = without_asides(_SITE.sub("", title)).strip()
    words = _NAME_WORDS.findall(core)
    capitalised = [w for w in words if w[:1].isupper() or w[:1].isdigit()]
    others = [w for w in words if w[:1].islower() and w.lower() not in _SMALL]
    if len(capitalised) < 2 or others:
        return ""
    body = _NAME_WORDS.findall(
        "\n".join(
            line
            for line in text.splitlines()
            if line.strip().lstrip("#").strip() not in {title.strip(), core}  # the title itself
        )
    )
    lower = {t for w in body if w[:1].islower() for t in terms(w)}
    upper = {  # Title Case only: an acronym ("API") is written so in any document
        t for w in body if w[:1].isupper() and not w.isupper() for t in terms(w)
    }
    named = any(
        set(terms(w)) and set(terms(w)) <= upper - lower
        for w in capitalised
        if w.lower() not in _NOT_NAMES and not w[:1].isdigit()
    )
    return core if named else ""


def _part_of_name(text: str, start: int, end: int, number: str, title: str) -> bool:
    """Whether the number at `start`–`end` is part of its document's name.

    It is when the title holds the same number next to the same word ("The Heinkel HD 39
    was …" in *Heinkel HD 39*; "The 2003–04 NBA season" in *2003–04 Orlando Magic
    season*); not for "retries 3 times" in *Step 3: Configure the client*.
    """
    if not title:
        return False
    before = _NAME_WORDS.findall(text[:start])[-1:]
    after = _NAME_WORDS.findall(text[end:])[:1]
    for match in _VALUE.finditer(title):
        if match.group("number").replace(",", "") != number:
            continue
        title_before = _NAME_WORDS.findall(title[: match.start()])[-1:]
        title_after = _NAME_WORDS.findall(title[match.end("number") :])[:1]
        if (before and before == title_before) or (after and after == title_after):
            return True
    return False


def _named_apart(a: _Fact, b: _Fact) -> bool:
    """Whether each sentence names something the other does not."""
    return bool(a.names - b.names) and bool(b.names - a.names)


def _titled_apart(a: _Fact, b: _Fact) -> bool:
    """Whether the documents are titled with different names, neither in the other's text.

    A title holding the other ("Harbor Lighthouse", "Visiting the Harbor Lighthouse")
    names the same subject.
    """
    one, two = a.title, b.title
    if not one or not two or one in two or two in one:
        return False
    return one not in b.text.lower() and two not in a.text.lower()


def _denied(text: str) -> frozenset[str]:
    negation = NEGATION.search(text)
    if negation is None:
        return frozenset()
    after = re.split(r"[.;:,!?]", text[negation.end() :], maxsplit=1)[0]
    return frozenset(content_terms(after)[:2])


def _both_sides(text: str) -> bool:
    """Whether `text` states a thing and its denial as two choices.

    "Make columns nullable or not nullable", "with or without a timeout": it denies neither,
    and is read for no negation conflict.
    """
    return _EITHER.search(text) is not None


_EITHER = re.compile(
    r"\b([a-z][\w-]*+)\s++or\s++(?:not\s++|non-?)\1\b|\bwith\s++or\s++without\b", re.I
)


def _held(fact: _Fact, unit: str) -> frozenset[str]:
    """The numbers `fact`'s sentence gives in `unit`, or with no unit at all.

    A sentence holding both values disagrees with neither: Gunicorn's change log has "8
    workers × 10GB model = 80GB → with `workers=2`: 20GB" (before and after), against
    "With `workers=2`: 2 workers × 10GB = 20GB RAM", which had come out as "the sources
    disagree: [2] says 2 workers; [3] says 8 workers". A number in another unit is another
    measure ("30 seconds and … retries 5 times" still disagrees with "5 seconds"); a
    keyword argument's value measures its keyword (`_KEYWORD`: `workers=2` holds 2 workers).
    """
    given = fact.values.get(f"{unit}=", frozenset())  # "2 workers" in `workers=2`
    return fact.values.get(unit, frozenset()) | fact.values.get("", frozenset()) | given


def _unit(word: str) -> str:
    if word == "%":
        return "%"
    stems = terms(word)
    return stems[0] if stems else ""


def _same_subject(a: _Fact, b: _Fact) -> bool:
    shared = len(a.key & b.key)
    smaller = min(len(a.key), len(b.key))
    union = len(a.key | b.key)
    return shared >= 3 and smaller > 0 and shared / smaller >= 0.7 and shared / union >= 0.5


_LINKS = frozenset("is are was were be of to at by for from as in on with has have had".split())


def _topic(a: _Fact, b: _Fact, value: str = "") -> str:
    """What the two sentences are about: the words leading to the value, else shared terms."""
    where = a.text.find(value) if value else -1
    if where > 0:
        lead = re.findall(r"[\w'-]+", a.text[:where])[-8:]
        while lead and lead[-1].lower() in _LINKS:
            lead.pop()
        if len(lead) >= 2:
            return " ".join(lead)
    shared = a.key & b.key
    words = [w for w in re.findall(r"[\w'-]+", a.text) if set(terms(w)) & shared]
    return " ".join(dict.fromkeys(words[:10]))


_WORDS = re.compile(r"[\w'’-]+|[^\w\s]")


def _name_swap(one: str, two: str) -> tuple[str, tuple[str, str]] | None:
    """The topic and the two names when the sentences differ only in one proper name.

    "The project is maintained by Alice Smith." / "... by Bob Jones." differ in one run of
    capitalised words, with at least three words the same on either side together; two
    sentences that differ in more places (the subject too) are not a conflict.
    """
    a, b = _WORDS.findall(one), _WORDS.findall(two)
    if [w.lower() for w in a] == [w.lower() for w in b]:
        return None
    prefix = 0
    while prefix < min(len(a), len(b)) and a[prefix].lower() == b[prefix].lower():
        prefix += 1
    suffix = 0
    while (
        suffix < min(len(a), len(b)) - prefix
        and a[len(a) - 1 - suffix].lower() == b[len(b) - 1 - suffix].lower()
    ):
        suffix += 1
    middle_a, middle_b = a[prefix : len(a) - suffix], b[prefix : len(b) - suffix]
    same = [w for w in a[:prefix] + a[len(a) - suffix :] if w.isalnum()]
    if len(same) < 3 or not middle_a or not middle_b or len(middle_a) > 6 or len(middle_b) > 6:
        return None
    if not all(w[:1].isupper() for w in (*middle_a, *middle_b)) or not prefix:
        return None
    if not _topic_words(a[:prefix]):
        return None
    topic = " ".join(a[:prefix]) + " …"
    return topic, (" ".join(middle_a), " ".join(middle_b))


_LABEL = frozenset(label.lower() for label in ADMONITIONS)


_LIST_MARKS = frozenset("* - + • .".split())
_LEADING = _SMALL | frozenset("this that these those its their".split())


def _topic_words(lead: Sequence[str]) -> list[str]:
    """The content terms of the words before a swapped name.

    A label ("[IMPORTANT] ----") aside, and the first word when it is a determiner or a
    preposition or follows a list mark: "On GKE …" / "On AKS …", "* Click View" / "* Click
    Save" (steps of different procedures) and "The Nexus plugin …" / "The JFrog plugin …"
    (different subjects) have no topic; "The project is maintained by …" and "Maintained
    by …" have one.
    """
    words = [w for w in lead if w.lower() not in _LABEL]
    listed = bool(words) and words[0] in _LIST_MARKS
    named = [w for w in words if w.isalnum()]
    if named and (listed or named[0].lower() in _LEADING):
        named = named[1:]
    return content_terms(" ".join(named))


def find_conflicts(passages: Sequence[Passage]) -> list[Found]:
    """Disagreements between sources from different documents (see the module docstring)."""
    facts = [fact for passage in passages for fact in _facts(passage)][:_MAX_SENTENCES]
    found: dict[tuple[int, int, str], Found] = {}
    for i, a in enumerate(facts):
        for b in facts[i + 1 :]:
            if a.document == b.document or a.number == b.number:
                continue
            pair = (min(a.number, b.number), max(a.number, b.number))
            first, second = (a, b) if a.number < b.number else (b, a)
            if _titled_apart(a, b) or _releases_apart(a, b):
                continue
            swapped = _name_swap(first.text, second.text) if a.opening == b.opening else None
            if swapped is not None and not _own_subjects(swapped[1], first, second, passages):
                topic, values = swapped
                subject = a.key & b.key
                found.setdefault((*pair, "name"), Found(topic, values, pair, "name", subject))
                continue
            if not _same_subject(a, b) or _named_apart(a, b):
                continue
            for unit in first.values.keys() & second.values.keys():
                if first.values[unit] & _held(second, unit) or second.values[unit] & _held(
                    first, unit
                ):
                    continue  # one holds the other's value too: "8 workers → `workers=2`"
                kind = "date" if unit == "year" else "number"
                found.setdefault(
                    (*pair, kind),
                    Found(
                        _topic(first, second, first.shown[unit]),
                        (first.shown[unit], second.shown[unit]),
                        pair,
                        kind,
                        a.key & b.key,
                    ),
                )
            negated, other = (a, b) if a.negated else (b, a)
            if (
                a.negated != b.negated
                and not (a.both_sides or b.both_sides)
                and a.values.keys() == b.values.keys()
                and negated.denied <= set(terms(other.text))
                and negated.key <= other.key
            ):
                found.setdefault(
                    (*pair, "negation"),
                    Found(
                        _topic(first, second),
                        (first.text, second.text),
                        pair,
                        "negation",
                        a.key & b.key,
                    ),
                )
    return list(found.values())


def _own_subjects(
    names: tuple[str, str], first: _Fact, second: _Fact, passages: Sequence[Passage]
) -> bool:
    """Whether each name is what its own document is about (so not a disagreement)."""
    about = {p.number: f"{p.document} {p.about}".lower() for p in passages}
    return names[0].lower() in about.get(first.number, "") and names[1].lower() in about.get(
        second.number, ""
    )


def describe(conflicts: Sequence[Found]) -> str:
    """The conflicts as lines for the writer's prompt."""
    lines = []
    for conflict in conflicts:
        (one, two), (n, m) = conflict.values, conflict.sources
        if conflict.kind == "negation":
            lines.append(f"- [{n}] and [{m}] disagree on whether: {conflict.topic}")
        else:
            lines.append(f"- {conflict.topic}: [{n}] says {one}, [{m}] says {two}")
    return "\n".join(lines)
