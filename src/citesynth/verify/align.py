"""Align a claim with the passages it cites: the best sentences, and what disagrees.

Every passage is split into sentences (paragraphs first, then `sentence_spans`), each
sentence analysed once into stemmed terms with positions. For a claim, the sentence
covering most of its content terms is the anchor; up to two more sentences are added
greedily when they cover terms the anchor lacks (a claim may join two facts). The
`Alignment` records what is covered and what disagrees:

- content-term coverage by the best sentence, the best three, and the whole evidence;
- ordered term pairs of the claim found close together in one sentence (relations, not
  just vocabulary);
- numbers (with units and years) and proper names of the claim missing from the evidence;
- negation present on one side only; opposite directions ("increases" / "reduces");
- a superlative of the claim ("the best", "of all time") the evidence never states, and a
  comparison ("more weight than") no sentence about the same thing makes (`comparisons`);
- a word whose contradiction a stating sentence holds instead ("optional" against
  "required"), or whose converse relates the same two things in the same order ("after
  deserialization" against "before deserialization"), `opposites`; two numbers, names or
  contradictory words bound to each other's subjects ("the connect timeout is 10 s and
  the read timeout 5 s", `swaps`); a quantity of another thing ("the number of
  concurrent requests" against "the number of bytes", `measures`); a name whose sibling
  the sources write with the word the claim says (`trylast` for what runs first,
  `siblings`);
- how many content terms are missing, since one wrong name is enough to be unsupported.

A `Context` (the documents' titles and headings) supplies words and numbers the passages
leave to their heading: those count as stated, though no sentence of the context is ever
the anchor or the supporting span.

The features are what `lexical.py` weighs; the spans are where the citation points.
"""

from __future__ import annotations

import itertools
import math
import re
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from citesynth.analysis import (
    INLINE_CODE,
    NAME,
    POSSESSIVE,
    SINGLE_CODE,
    content_terms,
    terms,
)
from citesynth.ingest.blocks import LIST_MARKER
from citesynth.ingest.sentences import is_title_or_rule, sentence_spans
from citesynth.verify.codevalues import differing_code, sets_otherwise
from citesynth.verify.comparisons import (
    COMPARISONS,
    NEGATED_BOUND,
    bound_denied,
    unstated_comparison,
)
from citesynth.verify.lists import misattributed
from citesynth.verify.measures import other_measure
from citesynth.verify.opposites import opposed, reversed_order
from citesynth.verify.purpose import goal_elsewhere
from citesynth.verify.quotes import misquoted
from citesynth.verify.roles import crossed_names
from citesynth.verify.siblings import misnamed_sibling
from citesynth.verify.swaps import preferred_reversed, rejected_chosen, swapped
from citesynth.verify.table_cells import denied_in_table

_PARAGRAPH = re.compile(r"\n[ \t\r]*\n")
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?(?:\s?%|\s?percent\b)?")
"""A number, also the digits of a name: IL-10 is not IL-20."""
NUMBER_WORDS = {
    w: str(n)
    for n, w in enumerate(
        """zero one two three four five six seven eight nine ten eleven twelve thirteen
        fourteen fifteen sixteen seventeen eighteen nineteen""".split()
    )
} | {
    w: str(n)
    for w, n in zip(
        "twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million".split(),
        (20, 30, 40, 50, 60, 70, 80, 90, 100, 1000, 1_000_000),
        strict=True,
    )
}
"""Number words and the value each writes (`asked` reads a number in words by them too)."""
_WORD = re.compile(r"[A-Za-z][\w'’-]*")
_CODE = re.compile(r"`[^`\n]*`")
NEW_CLAUSE = re.compile(
    r"\s*;\s+|(?<!\d)\s+[–—]\s+(?!\d)"
    r"|,?\s+and\s+(?=(?:is|are|was|were|has|have|had|does|did|will|can|also|then|later|now|"
    r"still|it|they|he|she|its|their|his|her|this|these|there)\b)"
    r"|,\s+(?:while|whereas|although|though|which|who|where|making|including|with|as well as)\s+",
    re.I,
)
"""Where a sentence goes on with a clause of its own ("and is", ", which", ", while", "; ")."""
_CLAUSE = re.compile(r"[,;:()\[\]]|\s(?:-+|[–—])\s|—")
_NEGATION = frozenset(
    """not no never none neither nor cannot without lack lacks lacking absent unable fail fails
    failed nobody nothing nowhere""".split()
)
_ADDITIVE = re.compile(r"\s+(?:only|just|merely|simply)\b[^.!?;]*?\bbut\b", re.IGNORECASE)
"""After "not": "not only X but (also) Y" adds to X, it denies nothing."""
_SUPERLATIVE = re.compile(
    r"\b(?:the|its|their|his|her|our|your|\w+'s)\s+(?:(?:very|single|second|third)\s+)?"
    r"(best|worst|most|least|[a-z]+est)\b|\b(of all time)\b",
    re.IGNORECASE,
)
"""A superlative: "the tallest", "Brazil's best", "of all time" (not "ever": "the first
ever winner" claims no more than "the first winner")."""
_NOT_SUPERLATIVE = frozenset(
    """interest test rest forest west guest request suggest honest modest earnest harvest
    contest protest manifest nest pest vest chest quest zest jest invest digest arrest crest
    conquest priest behest unrest midwest northwest southwest everest fest inquest bequest
    attest detest""".split()
)
_BOUND_WORDS = frozenset(
    "smallest largest biggest least fewest lowest highest shortest longest minimum maximum".split()
)
_PURPOSE = re.compile(r"\s*(?:in\s+order\s+)?to\s+[a-z]+\b[^,;:.!?]*,\s*", re.IGNORECASE)
"""A claim's opening purpose clause, "To enable HTTP/2 on a client, ": the goal the claim
serves, not what it asserts."""
_CIRCUMSTANCE = re.compile(
    r"\s*(?:after|when|whenever|once|before|while|if)\s+[^,;:.!?]*,\s*", re.IGNORECASE
)
"""A claim's opening clause of time or condition, "After streaming a response with
`preload_content=False` and reading all of it, ": when what the claim asserts holds."""
_PRIVATIVE = frozenset("without lack lacks lacking absent".split())
_FAIL = frozenset("fail fails failed".split())
_LITOTES = re.compile(
    r"\s+(?:(?:to\s+)?(?:forget|hesitate|neglect|fail\s+to|mention)|least)\b", re.I
)
"""After "not", "never" or "don't": "make sure not to forget to set X" asks to set X; "last
but not least" and "not to mention" add, they deny nothing."""
_DENIED_FAIL = re.compile(r"\b(?:not|never|\w+n't)(?:\s+to)?\Z", re.I)
_TO = re.compile(r"\s+to\b")
_AROUND = 40
"""Characters before a negating word that decide how it reads ("Yes, no …", "don't fail")."""
_UP = frozenset(
    """increase increases increased increasing higher more greater larger raise raises raised
    rise rises rose improve improves improved enhance enhances enhanced promote promotes
    promoted upregulate upregulates upregulated induce induces induced activate activates
    activated accelerate accelerates accelerated exceed exceeds above faster longer
    stronger better""".split()
)
_DOWN = frozenset(
    """decrease decreases decreased decreasing lower less fewer smaller reduce reduces reduced
    reducing decline declines declined drop drops dropped inhibit inhibits inhibited suppress
    suppresses suppressed downregulate downregulates downregulated impair impairs impaired
    prevent prevents prevented slow slows slowed below slower shorter weaker worse""".split()
)


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of one passage, analysed."""

    passage: int
    start: int
    end: int
    terms: frozenset[str]
    positions: dict[str, tuple[int, ...]]
    numbers: frozenset[str]
    negated: bool
    up: bool
    down: bool


@dataclass(frozen=True, slots=True)
class Evidence:
    """The passages a claim is checked against, split into analysed sentences."""

    passages: tuple[str, ...]
    sentences: tuple[Sentence, ...]
    vocabulary: frozenset[str]
    numbers: frozenset[str]


@dataclass(frozen=True, slots=True)
class Context:
    """The terms and numbers of what the passages are about (titles, headings)."""

    terms: frozenset[str] = frozenset()
    numbers: frozenset[str] = frozenset()
    text: str = ""
    """The titles and headings as written, lower case (identifiers are looked up in it)."""


NO_CONTEXT = Context()


@lru_cache(maxsize=1024)
def context_of(about: str) -> Context:
    """The `Context` of a title and heading text (empty text: none)."""
    if not about.strip():
        return NO_CONTEXT
    found = terms(about)
    return Context(
        frozenset(found) | frozenset(_canonical(t) for t in found),
        numbers_of(about) | quantities(about),
        about.lower(),
    )


@dataclass(frozen=True, slots=True)
class Alignment:
    """What the best sentences of the evidence cover of a claim, and where they disagree."""

    features: dict[str, float]
    best: tuple[Sentence, ...]
    missing_terms: tuple[str, ...]
    missing_numbers: tuple[str, ...]
    missing_names: tuple[str, ...]
    negation_mismatch: bool
    direction_mismatch: bool
    missing_superlatives: tuple[str, ...] = ()
    unstated_comparison: str = ""
    """A comparison of the claim no source sentence about it makes (`comparisons`)."""
    missing_identifiers: tuple[str, ...] = ()
    misattributed: tuple[tuple[str, str], ...] = ()
    """(the name the claim gives, the list item that states it) (`lists.misattributed`),
    or the sibling name whose word says what the claim says (`siblings`: `tryfirst` for
    "run before the others", not `trylast`)."""
    reasons: tuple[str, ...] = field(default=())
    missing_words: tuple[str, ...] = ()
    """`missing_terms` as the claim writes them ("library" for the term "librari")."""
    ungrounded: tuple[str, ...] = ()
    """Clauses of the claim (cut at `NEW_CLAUSE`) none of whose words or numbers the
    evidence or its titles hold: "… and is powered by hamsters" (`_ungrounded`)."""
    opposite: tuple[tuple[str, str], ...] = ()
    """(the claim's word, the contradicting word of a sentence stating it): "optional"
    against "required" (`opposites.opposed`), "after" against "before"
    (`opposites.reversed_order`), `os.getcwd` against "mymodule.getcwd rather than
    os.getcwd" (`swaps.rejected_chosen`), "HTTP/2 Support for sync" against a table's
    "`sync`: HTTP/2 Support: No" (`table_cells.denied_in_table`), "milliseconds" against
    "in seconds" (`other_unit`)."""
    stated_otherwise: bool = False
    """Whether a source states the claim's point otherwise outright: a table's cell or a
    measure's unit (`table_cells.denied_in_table`, `other_unit`). Such a claim is false,
    not miscited: repair moves it only to a source saying all of it (`review`)."""
    swapped: tuple[tuple[str, str], ...] = ()
    """Two items of the claim the stating sentence binds the other way round
    (`swaps.swapped`), or two names of it each said with what the passages say of the
    other (`roles.crossed_names`)."""
    misquoted: tuple[str, ...] = ()
    """Text the claim quotes as what something prints or says, which no passage writes
    (`quotes.misquoted`)."""
    code_values: tuple[tuple[str, str], ...] = ()
    """(the claim's setting or operator, the passages' setting, or nothing) where the
    passages write that code otherwise: `err=False` against `err=True`
    (`codevalues.differing_code`)."""
    other_goal: tuple[str, str] | None = None
    """(the code the claim's purpose clause is given to, the purpose the passages give it)
    when those differ: "To disable SSL certificate verification, use `disable_warnings`"
    against "to disable these warnings" (`purpose.goal_elsewhere`)."""
    other_measure: tuple[str, str] | None = None
    """(the claim's measure, the passages') when they measure another thing: "the maximum
    number of concurrent requests" against "The maximum number of bytes that will be read"
    (`measures.other_measure`)."""

    @property
    def disagrees(self) -> bool:
        """A number, negation, direction, opposite, swap, superlative, comparison or quote.

        So does a name or value of code that differs, a goal or a measure of another thing
        (`other_goal`, `other_measure`), and a whole clause of the claim that has no word in
        the evidence (`ungrounded`).

        Missing proper names weigh in the score but do not veto: the name detector is a
        capitalisation rule, and as a veto it cost 1.4 points of balanced accuracy on the
        tuning splits (typos, capitalised common words).
        """
        return bool(
            self.missing_numbers
            or self.negation_mismatch
            or self.direction_mismatch
            or self.opposite
            or self.swapped
            or self.missing_superlatives
            or self.unstated_comparison
            or self.missing_identifiers
            or self.misattributed
            or self.ungrounded
            or self.code_values
            or self.misquoted
            or self.other_goal
            or self.other_measure
        )


def passage_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans of `text`, never crossing a blank line."""
    spans: list[tuple[int, int]] = []
    start = 0
    for boundary in [*(m.start() for m in _PARAGRAPH.finditer(text)), len(text)]:
        spans.extend(sentence_spans(text, start, boundary))
        start = boundary
    return spans


def numbers_of(text: str) -> frozenset[str]:
    """Numbers in `text`, normalised: `1,000` → `1000`, `20 %` → `20%`, `two` → `2`."""
    found = set()
    for match in _NUMBER.finditer(text):
        value = match.group().replace(",", "").replace(" ", "").replace("percent", "%")
        value = value.lstrip("+")
        if value.endswith("%"):
            found.add(value)
            found.add(value[:-1])  # "20%" is also matched by a bare 20 in the evidence
        else:
            found.add(value.rstrip(".") or value)
    found.update(_number_words(text))
    found.update(m.group(1) for m in _WHOLE_DECIMAL.finditer(text))  # "1.0" states 1
    found.update(_TIMES[m.group().lower()] for m in _COUNTED_TIMES.finditer(text))
    if _SINGLE.search(text):
        found.add("1")
    return frozenset(found)


_WHOLE_DECIMAL = re.compile(r"(?<![\w.])(\d+)\.0+(?!\d|\.\d)")
"""A whole number written with decimals: "between 0.0 and 1.0" states 0 and 1."""
_TIMES = {"once": "1", "twice": "2", "thrice": "3"}
_COUNTED_TIMES = re.compile(
    r"(?<!\bat )\b(?:once|twice|thrice)\b"
    r"(?!\s+(?:you|we|they|it|he|she|the|this|that|these|those|your|its|their|an?|[a-z]+ed)\b)",
    re.I,
)
"""A count of times ("retried once", "twice a day"), not "once" opening a clause ("once you
apply it", "once installed") nor "at once" (together)."""


_SINGLE = re.compile(r"\b(?:a|one)\s+single\b(?!-)", re.I)
""""A single connection" states what a claim's "1 connection" does; "single-threaded" counts
threads, and a claim "the default number of worker processes is 1" is not in it."""


_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}


def _number_words(text: str) -> list[str]:
    """Numbers written as words: "five" → 5, "two hundred" → 200, "a hundred" → 100.

    A scale word after no number ("several hundred hours", "hundreds") is no number.
    """
    found: list[str] = []
    previous = ""
    for word in (p.lower() for w in _WORD.findall(text) for p in w.split("-")):
        if word in _SCALES:
            if previous in NUMBER_WORDS and previous not in _SCALES:
                found[-1] = str(int(NUMBER_WORDS[previous]) * _SCALES[word])
            elif previous in {"a", "one"}:
                found.append(str(_SCALES[word]))
        elif word in NUMBER_WORDS:
            value = int(NUMBER_WORDS[word])
            tens = int(NUMBER_WORDS.get(previous, "0"))
            if 0 < value < 10 and 20 <= tens < 100 and found and found[-1] == str(tens):
                found[-1] = str(tens + value)  # "forty-two" → 42
            else:
                found.append(str(value))
        previous = word
    return found


_UNITS = {
    **dict.fromkeys(("ms", "msec", "millisecond", "milliseconds"), "ms"),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), "s"),
    **dict.fromkeys(("min", "mins", "minute", "minutes"), "min"),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), "h"),
    **dict.fromkeys(("day", "days"), "day"),
    **dict.fromkeys(("week", "weeks"), "week"),
    **dict.fromkeys(("month", "months"), "month"),
    **dict.fromkeys(("year", "years"), "year"),
    **{unit: unit for unit in ("kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib")},
    **dict.fromkeys(("byte", "bytes"), "byte"),
    **dict.fromkeys(("%", "percent"), "%"),
    **dict.fromkeys(("km", "kilometre", "kilometres", "kilometer", "kilometers"), "km"),
    **dict.fromkeys(("mile", "miles"), "mile"),
    **dict.fromkeys(("kg", "kilogram", "kilograms"), "kg"),
}
_QUANTITY = re.compile(
    r"(?<![\w.])(?:(\d[\d,]*(?:\.\d+)?)[\s-]?|("
    + "|".join(w for w in NUMBER_WORDS if w not in _SCALES)
    + r")[\s-])(%|[A-Za-z]+\b)",
    re.I,
)
"""A number and the word after it: `5 s`, `5s`, `20%`, `six-month`, `55-year-old`."""


_UNIT_STEMS = {stem: unit for word, unit in _UNITS.items() for stem in terms(word)}


def _canonical(term: str) -> str:
    """One form for a number word and its digits, a unit and its abbreviations, a verb.

    A verb in "-ify" and its noun in "-ification" are one term, which the stemmer leaves
    apart ("verifi" and "verif", "modifi" and "modif"): "disable SSL certificate
    verification" is what "May be disabled to skip validation" says of `verify_ssl`. Not
    "specifi": "specif" is the stem of "specific" too.
    """
    if len(term) >= 6 and term.endswith("ifi") and term != "specifi":
        return term[:-1]
    return NUMBER_WORDS.get(term) or _UNIT_STEMS.get(term) or term


_IN_UNIT = re.compile(
    r"\bin\s+(?:whole\s+)?(" + "|".join(w for w in _UNITS if len(w) > 3 and w.isalpha()) + r")\b",
    re.I,
)
"""A measure named in words, as an option's description gives it: "Session expiry time in
seconds", "… smaller than this minimum size in bytes"."""


_DIMENSION = {
    **dict.fromkeys(("ms", "s", "min", "h", "day", "week", "month", "year"), "time"),
    **dict.fromkeys(("byte", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib"), "size"),
}
"""What each unit of `_UNITS` measures, where another unit measures the same."""


def other_unit(claim: str, passages: Sequence[str]) -> tuple[str, str] | None:
    """(the claim's unit, the passages' unit) when they measure in another unit, or None.

    A claim naming its measure in words ("`event.duration` is in milliseconds", `_IN_UNIT`)
    where a sentence of the passages about the same thing names another unit of the same
    kind ("``duration`` (in seconds, …)", peewee's query hooks): the embedded model's
    answer, which both verifiers had passed, every other word being the source's. About the
    same thing: it writes a name the claim writes as code, or two more of the claim's words.
    Not when the passages write the claim's unit anywhere, in any form ("the number of
    milliseconds"), nor when the claim names two units of a kind.
    """
    mine = {_UNITS[m.group(1).lower()]: m.group(1) for m in _IN_UNIT.finditer(claim)}
    kinds = [_DIMENSION[unit] for unit in mine if unit in _DIMENSION]
    if len(kinds) != 1 or len(mine) != 1:
        return None
    ((unit, written),) = mine.items()
    words = {w.lower() for p in passages for w in _WORD.findall(p)}
    if any(alias in words for alias, same in _UNITS.items() if same == unit):
        return None
    code = {name.lower() for name in _code_names(claim)}
    said = {t for t in content_terms(_IN_UNIT.sub(" ", _CODE.sub(" ", claim)))}
    for passage in passages:
        for start, end in passage_sentences(passage):
            sentence = passage[start:end]
            shared = said & set(content_terms(sentence))
            if not (len(shared) >= 2 or code & {n.lower() for n in _code_names(sentence)}):
                continue
            for found in _IN_UNIT.finditer(sentence):
                other = _UNITS[found.group(1).lower()]
                if other != unit and _DIMENSION.get(other) == kinds[0]:
                    return written, f"in {found.group(1)}"
    return None


def _code_names(text: str) -> set[str]:
    """The names `text` writes as inline code, and each one's last dotted part."""
    names = {m.group(1).strip() for m in INLINE_CODE.finditer(text)}  # ``duration`` too
    return names | {name.rsplit(".", 1)[-1] for name in names if name}


_LIST_ITEM = re.compile(r"\s*" + LIST_MARKER + r"\s")


def stated_in(unit_sentence: str, value_sentence: str) -> frozenset[str]:
    """The quantities a value sentence gives in the unit the sentence before it names.

    Reference pages state an option's unit, then its value alone: "Do not GZip responses
    that are smaller than this minimum size in bytes. Defaults to `500`." A claim reading
    "500 bytes" states what they say. Only a short sentence with bare numbers (no unit of its
    own) right after one naming exactly one unit, with no number, takes it.
    """
    units = {_UNITS[m.group(1).lower()] for m in _IN_UNIT.finditer(unit_sentence)}
    if len(units) != 1 or _NUMBER.search(unit_sentence) or len(value_sentence.split()) > 8:
        return frozenset()
    if quantities(value_sentence):
        return frozenset()
    (unit,) = units
    return frozenset(f"{n} {unit}" for n in numbers_of(value_sentence))


def quantities(text: str) -> frozenset[str]:
    """Numbers with a unit of time, size, share or distance: `5 s`, `10 mb`, `20 %`."""
    found = set()
    for match in _QUANTITY.finditer(text):
        unit = _UNITS.get(match.group(3).lower())
        if unit is not None:
            raw = (match.group(1) or match.group(2)).lower().replace(",", "")
            found.add(f"{NUMBER_WORDS.get(raw, raw)} {unit}")
    return frozenset(found)


def _claim_numbers(text: str) -> list[str]:
    """The claim's numbers that must appear in the evidence (percent signs aside)."""
    found = []
    for match in _NUMBER.finditer(text):
        value = match.group().replace(",", "").replace(" ", "").replace("percent", "%")
        value = value.lstrip("+").rstrip("%").rstrip(".")
        if value not in {"0", "1"} or not _NAME_BEFORE.search(
            text, max(0, match.start() - 64), match.start()
        ):
            found.append(value)
    # "one" and "zero" are as often "a" and "no" in the source; digits are a value stated
    found.extend(n for n in _number_words(text) if n not in {"0", "1"})
    return [n for n in dict.fromkeys(found) if n]


_NAME_BEFORE = re.compile(r"(?:(?<=\w[ \t,])[A-Z]\w*\s|\w[-/])$")
"""What makes a 0 or a 1 right after it part of a name, which sources write in other forms
("Type 1 Diabetes" as "T1D", "Forkhead 0" as "FoxO", "Wingless-Int-1" as "Wnt"): a
capitalised word inside the sentence, or a word it is joined to. Not a sentence's first
word: "Returns 0 when the command succeeds" states a value."""


def _flags(text: str) -> tuple[bool, bool, bool]:
    words = {w.lower().replace("’", "'") for w in _WORD.findall(_CODE.sub(" ", text))}
    return bool(negation_cues(text)), bool(words & _UP), bool(words & _DOWN)


_YES_BEFORE = re.compile(r"\byes\s*(?:/|-|,?\s*\bor\b)\s*\Z", re.I)
_YES_AFTER = re.compile(r"\s*(?:/|-|\bor\b)\s*yes\b", re.I)
""""yes" beside "no": the two answers of a question, not a denial."""
_WHETHER_BEFORE = re.compile(r"\b(?:whether|if)\s+or\s*\Z", re.I)
_WHETHER_OPEN = re.compile(r"\b(?:whether|if)\b[^.!?;]*\bor\s*\Z", re.I)
_CLAUSE_END = re.compile(r"\s*(?:[.,;:!?)]|\Z)")
""""whether or not X", "whether X or not": the two alternatives of a question, not a denial."""


def negation_cues(text: str) -> list[tuple[int, str]]:
    """The words of `text` that negate, with their offsets.

    Not inside inline code (`None`), not capitalised inside a sentence (a name: the album
    "No Fences", Python's None), and "fail" only as "fail to" ("fails to improve"; "when
    a request fails" is an event, not a denial), "not" never in "not only X but Y",
    "no" never as the other of "yes" ("a yes/no question", "yes or no"), and "not" never
    as the other alternative of "whether" ("whether or not it came from the command line",
    "whether it is cached or not"); "not", "never" and "don't" never before "forget",
    "hesitate", "neglect" or "fail to", nor "fail" after them: "make sure not to forget to
    set the attribute" (Flask's docs) and "don't fail to" ask to do it; nor in "not least"
    or "not to mention" ("Last but not least `echo()` uses …", Click's docs).
    """
    code = [m.span() for m in _CODE.finditer(text)]
    code_starts = [start for start, _ in code]
    found = []
    for match in _WORD.finditer(text):
        word = match.group().lower().replace("’", "'")
        if not (word in _NEGATION or word.endswith("n't")):
            continue
        start, end = match.span()
        inside = bisect_right(code_starts, start) - 1
        if inside >= 0 and start < code[inside][1]:
            continue
        # Each test reads a window around the word: a text of thousands of negations is
        # read in linear time.
        window = text[max(0, start - _AROUND) : start]
        before = window.rstrip(" \t*_\"'“(-")
        opens = not before or before[-1] in ".!?:\n"
        if match.group()[0].isupper() and not opens:
            continue
        if word in _FAIL and (not _TO.match(text, end) or _DENIED_FAIL.search(before)):
            continue
        litotes = word in {"not", "never"} or word.endswith("n't")
        if litotes and _LITOTES.match(text, end):
            continue  # "don't forget to set X" (`_LITOTES`) sets X
        if word == "not" and _ADDITIVE.match(text, end):
            continue  # "reviews not only X but also Y" asserts both
        if word == "no" and (_YES_BEFORE.search(window) or _YES_AFTER.match(text, end)):
            continue
        if word == "not" and _alternative(text, start, end):
            continue
        found.append((start, word))
    return found


def _alternative(text: str, start: int, end: int) -> bool:
    """Whether the "not" at `start` is the other alternative of a "whether" question.

    "whether or not an option came from the command line" and "whether it is cached or
    not." ask which of two holds; neither denies anything. Only the 200 characters before
    it are read (a question's alternatives are close; a long text costs no more).
    """
    before = text[max(0, start - 200) : start]
    if _WHETHER_BEFORE.search(before):
        return True
    return bool(_WHETHER_OPEN.search(before)) and bool(_CLAUSE_END.match(text, end))


@lru_cache(maxsize=1024)
def _privative_only(claim: str) -> bool:
    """The claim's only negation is privative: "mice lacking Sirt1", "cells without IFN-γ".

    Sources say that with words no cue list holds ("Sirt1-deficient", "knockout", "loss
    of", "-/-"), so a source without a negation word is no sign of a mismatch; such a claim
    is not checked for negation at all. "Without" before a verb ("works without installing
    anything") denies an event and is checked.
    """
    found = negation_cues(claim)
    for offset, word in found:
        if word not in _PRIVATIVE:
            return False
        following = _WORD.match(claim[offset + len(word) :].lstrip())
        if word == "without" and following and following.group().endswith("ing"):
            return False  # "works without installing anything" denies an event
    return bool(found)


def negated_for(wanted: Iterable[str], sentence: str, *, privative: bool = True) -> bool:
    """Whether the part of `sentence` that states a claim's terms is negated.

    The sentence is cut into clauses (at commas, semicolons, colons, brackets and dashes
    outside inline code); the clause holding most of the claim's terms `wanted` decides,
    or, on a tie, any of them. "`max_connections`, maximum number of allowable
    connections, or `None` for no limits." is not a negation of "the maximum number of
    connections is 100": the "no" belongs to a clause that holds one of its terms, not the
    one that states it. Without `privative`, "without" and "lacking" negate nothing ("run
    without any arguments" states a condition, not a denial).
    """
    wanted = set(wanted)
    cues = [
        offset for offset, word in negation_cues(sentence) if privative or word not in _PRIVATIVE
    ]
    scored = []
    for start, end in _clauses(sentence):
        tokens = {_canonical(t) for t in terms(sentence[start:end])}
        scored.append((len(wanted & tokens), any(start <= c < end for c in cues)))
    most = max((count for count, _ in scored), default=0)
    if most == 0:
        return any(negating for _, negating in scored)
    return any(negating for count, negating in scored if count == most)


@lru_cache(maxsize=512)
def _analysed(text: str) -> tuple[Sentence, ...]:
    """The sentences of one passage, analysed (as passage 0), cached.

    An answer's sources are checked several times: claims, precision, repair.
    """
    found: list[Sentence] = []
    for start, end in passage_sentences(text):
        piece = text[start:end]
        if (piece.startswith("#") and "\n" not in piece) or is_title_or_rule(text, start, end):
            continue  # a heading (`# Title`, or a title over `-----`): never the supporting span
        # The sentence before, in the same paragraph or list item, may name the unit.
        joined = (
            bool(found)
            and text.count("\n", found[-1].end, start) <= 1
            and _LIST_ITEM.match(piece) is None
        )
        unit_given = (
            stated_in(text[found[-1].start : found[-1].end], piece) if joined else frozenset()
        )
        tokens = [_canonical(t) for t in terms(piece)]
        positions: dict[str, list[int]] = {}
        for position, term in enumerate(tokens):
            positions.setdefault(term, []).append(position)
        negated, up, down = _flags(piece)
        found.append(
            Sentence(
                passage=0,
                start=start,
                end=end,
                terms=frozenset(tokens),
                positions={t: tuple(p) for t, p in positions.items()},
                numbers=numbers_of(piece) | quantities(piece) | unit_given,
                negated=negated,
                up=up,
                down=down,
            )
        )
    return tuple(found)


def analyse(passages: Sequence[str]) -> Evidence:
    """Split and analyse `passages` once, for any number of claims."""
    sentences = [
        s if index == 0 else replace(s, passage=index)
        for index, text in enumerate(passages)
        for s in _analysed(text)
    ]
    vocabulary = _union(s.terms for s in sentences)
    numbers = _union(s.numbers for s in sentences)
    return Evidence(tuple(passages), tuple(sentences), vocabulary, numbers)


def _union(sets: Iterable[frozenset[str]]) -> frozenset[str]:
    found: set[str] = set()
    for items in sets:
        found |= items
    return frozenset(found)


@lru_cache(maxsize=1024)
def _claim_quantities(claim: str) -> frozenset[str]:
    return quantities(claim)


_IN_BASE_UNITS = {
    "ms": ("s", 0.001),
    "s": ("s", 1),
    "min": ("s", 60),
    "h": ("s", 3600),
    "day": ("s", 86400),
    "week": ("s", 604800),
    "byte": ("byte", 1),
    **{unit: ("byte", 1000**power) for power, unit in enumerate(("kb", "mb", "gb", "tb"), 1)},
    **{unit: ("byte", 1024**power) for power, unit in enumerate(("kib", "mib", "gib", "tib"), 1)},
}
"""Units of time and size by their measure and size in its base unit (months and years
vary, and a kilobyte is read both ways: `_amounts`)."""


def _amounts(quantity: str) -> set[tuple[str, float]]:
    """What a quantity ("10 min") amounts to in base units: {("s", 600.0)}; none if unknown."""
    number, _, unit = quantity.partition(" ")
    if unit not in _IN_BASE_UNITS:
        return set()
    try:
        value = float(number)
    except ValueError:
        return set()
    measure, size = _IN_BASE_UNITS[unit]
    found = {(measure, round(value * size, 6))}
    if unit in ("kb", "mb", "gb", "tb"):  # "64 KB" is 65,536 bytes as often as 64,000
        found.add((measure, round(value * _IN_BASE_UNITS[unit[0] + "ib"][1], 6)))
    return found


def _converted(claim: str, evidence_numbers: frozenset[str]) -> frozenset[str]:
    """The claim's quantities the evidence states in another unit, the amount the same.

    "10 minutes" for "600 seconds", "two weeks" for "14 days": the number then is no number
    the evidence lacks.
    """
    wanted = {q: _amounts(q) for q in _claim_quantities(claim) if q not in evidence_numbers}
    if not any(wanted.values()):
        return frozenset()  # most claims: no quantity in another unit to look for
    stated = set().union(*(_amounts(q) for q in evidence_numbers if " " in q))
    return frozenset(q for q, amounts in wanted.items() if amounts & stated)


@lru_cache(maxsize=1024)
def _claim(
    claim: str,
) -> tuple[list[str], list[str], list[str], tuple[bool, bool, bool]]:
    """A claim's content terms, numbers, proper names and flags, cached.

    The negation flag leaves out a "not" that stands only in an opening purpose clause
    (`_goal_negated_only`).

    Repair checks one claim against every source.
    """
    wanted = list(dict.fromkeys(_canonical(t) for t in content_terms(claim)))
    negated, up, down = _flags(claim)
    negated = negated and not _goal_negated_only(claim)  # the goal's "not" asserts nothing
    return wanted, _claim_numbers(claim), _names(claim), (negated, up, down)


def claim_terms(claim: str) -> tuple[str, ...]:
    """A claim's content terms as alignment reads them (stemmed, numbers and units as one)."""
    return tuple(_claim(claim)[0])


@lru_cache(maxsize=1024)
def superlatives(text: str) -> frozenset[str]:
    """The superlatives of `text`, lower case: "the largest city" gives {"largest"}."""
    found = (
        (match.group(1) or match.group(2)).lower().replace(" ", "-")
        for match in _SUPERLATIVE.finditer(text)
    )
    return frozenset(word for word in found if word not in _NOT_SUPERLATIVE)


def _superlatives_missing(
    claim: str, best: Sequence[Sentence], evidence: Evidence, shown: Sequence[str]
) -> tuple[str, ...]:
    """The claim's superlatives the evidence never states.

    "The best Olympic gymnast of all time is X" against a source calling X a three-time
    world champion: both verifiers pass the rest. A superlative counts as stated when the
    anchor sentence (the one stating most of the claim) holds any superlative ("the
    greatest" for "the best"; another sentence's "the most dominant games ever" says
    nothing of X) or the cited passages hold the claim's own word. Fired on 7 unsupported
    and 0 supported claims of the tuning splits (WiCE dev, SciFact train, HaluEval 0-249).
    """
    wanted = superlatives(claim)
    if wanted and any(_restates_bound(claim, _text(evidence, s)) for s in best):
        wanted -= _BOUND_WORDS
    if not wanted:
        return ()
    if best and superlatives(_text(evidence, best[0])):
        return ()
    passages = " ".join(text.lower() for text in shown).replace("-", " ")
    return tuple(
        sorted(
            word
            for word in wanted
            if not re.search(rf"\b{re.escape(word.replace('-', ' '))}\b", passages)
        )
    )


_DOTTED_NAME = r"[A-Za-z_]\w+(?:\.[A-Za-z_]\w+)+"
_DOTTED = re.compile(rf"(?<![\w.]){_DOTTED_NAME}(?![\w.])")
"""Dotted names (`httpx.Client`, `www.example.com`); not "e.g." or "U.S." (one-letter parts)."""
_SNAKE = re.compile(r"(?<![\w.])[A-Za-z]\w*_\w+")
_CODE_WORD = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_LITERALS = frozenset({"none", "true", "false", "null", "self", "async", "await"})


@lru_cache(maxsize=1024)
def identifiers(text: str) -> frozenset[str]:
    """The code identifiers `text` names, lower case, each by its last dotted part.

    Words in inline code (`httpx.HTTPTransport`, `max_connections`), and outside it dotted
    names and snake_case words: `HTTPTransport`, `max_connections`. Literals (`None`) and
    parts shorter than three characters are left out.
    """
    found: list[str] = []
    options: list[str] = []
    for match in SINGLE_CODE.finditer(text):
        option = _OPTION.fullmatch(match.group(1))
        if option:
            options.append(option.group(1))  # as written: `-x` is not `-X`
        else:
            found.extend(_CODE_WORD.findall(match.group(1)))
    plain = SINGLE_CODE.sub(" ", text)
    found.extend(_DOTTED.findall(plain))
    found.extend(_SNAKE.findall(plain))
    parts = (name.rsplit(".", 1)[-1].lower() for name in found)
    return frozenset(p for p in parts if len(p) >= 3 and p not in _LITERALS) | frozenset(options)


_OPTION = re.compile(r"\s*(--?[A-Za-z][\w-]*)(?:=\S*)?\s*")
"""Inline code that is a command-line option, whole and however short (`--ff`, `-x`,
`--maxfail=2`): the embedded model's "use the `--ff` option, which stands for 'fail
fast'" passed against pytest's stepwise section, which names `--sw` and `--lf -x`. An
option inside a command (`oc apply -f <file>`) is not read: a claim quoting a command
quotes it, and the Developer Hub answers write commands with flags their guides spell
otherwise."""


def _identifiers_missing(claim: str, shown: Sequence[str], context: Context) -> tuple[str, ...]:
    """The code identifiers of the claim that neither the passages nor their titles hold.

    A claim about `httpx.HTTPTransport` is not supported by a passage about `httpx.Limits`
    that happens to hold its other words and its number (the embedded model's "The default
    number of connection retries of `httpx.HTTPTransport` is 20", from the resource limits
    page). Found anywhere in the passages' text (any case, as part of a longer name too:
    `AsyncHTTPTransport` holds it); prose claims name no identifiers and are never checked.
    Where the sources mark their code, a name the claim calls (`cancel()`) or writes as an
    attribute (`trio.timeout`) must be code there too (`_as_code`), not only a word.
    """
    wanted = identifiers(claim)
    if not wanted:
        return ()
    written = " ".join(shown) + " " + context.text
    text = written.lower()
    missing = {
        name
        for name in wanted
        if (name not in text if name[0] != "-" else not _written_option(name, written))
    }
    if marks_code(text):  # a source that marks its code (PDF, plain text seldom do)
        missing.update(f"{name}()" for name in _called(claim) - missing if not _as_code(name, text))
        missing.update(
            dotted
            for dotted, name in _attributes(claim)
            if name not in missing and not _as_code(name, text) and not _as_key(name, text)
        )
    return tuple(sorted(missing))


def _written_option(option: str, text: str) -> bool:
    """Whether `text` writes the command-line `option`: whole and in its case, or its name.

    `-s` is not in `--sw`, nor `-x` in `-X`, nor `--ff` in "failed first"; a longer name
    may stand as a word: pip's "You can install local projects in 'editable' mode" with
    `pip install -e` states what the embedded model's `--editable` does (a first version
    that asked for the option whole removed that right claim).
    """
    if re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text):
        return True
    name = option.lstrip("-")
    return len(name) >= 3 and re.search(rf"(?<![\w-]){re.escape(name)}", text, re.I) is not None


def _attributes(claim: str) -> list[tuple[str, str]]:
    """Dotted names the claim writes as code (`trio.move_on_after`), with their last part.

    Naming an attribute of a module or object is naming code: the embedded model's "use
    the `trio.timeout` function" against Trio's "when a timeout expires" and
    `trio.move_on_after(30)` had every term held, "timeout" as a word. A setting's key
    path (`upstream.backstage.extraEnvVars`) passes where the source writes the last key
    as a key (`_as_key`).
    """
    found: dict[tuple[str, str], None] = {}  # each name once, in order
    for code in SINGLE_CODE.finditer(claim):
        for dotted in _ATTRIBUTE.findall(code.group(1)):
            name = dotted.rsplit(".", 1)[-1].lower()
            if len(name) >= 3 and name not in _DOMAINS:
                found[(dotted.lower(), name)] = None
    return list(found)


_MARKS_CODE = re.compile(
    rf"{SINGLE_CODE.pattern}|``[^`\s](?:[^`\n]*[^`\s])?``|```|^[ \t]*~~~"
    r"|^[ \t]*\.\. (?:code-block|code|sourcecode)::|::[ \t]*$",
    re.M,
)
"""What shows that a text marks its code: inline code (`x`, reStructuredText's ``x``), a
fence (also inside a line, as text flattened from Markdown keeps it), or a
reStructuredText code directive or literal block ("… as follows::"), as a
section that shows its example in a `.. code-block::` and names nothing inline. Not the
quotes of tokenised text ("`` Fooled Around ''", ClapNQ, MuSiQue, HotpotQA)."""


def marks_code(text: str) -> bool:
    """Whether `text` marks its code (`_MARKS_CODE`): documentation does, prose seldom."""
    return _MARKS_CODE.search(text) is not None


_ATTRIBUTE = re.compile(rf"(?<![\w./@:-]){_DOTTED_NAME}(?![\w./:@-])")
"""A dotted name that is no part of a web address, path or e-mail address."""
_DOMAINS = frozenset({"com", "org", "net", "edu", "gov", "dev", "app"})
"""Last parts that make a dotted name a host (`example.com`), not an attribute."""


_CALL = re.compile(r"(?<![\w.])(?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*)\(")


def _called(claim: str) -> frozenset[str]:
    """Names the claim's inline code calls (`cancel()`, `tg.start_soon(f)`), lower case."""
    return frozenset(
        match.group(1).lower()
        for code in SINGLE_CODE.finditer(claim)
        for match in _CALL.finditer(code.group(1))
        if len(match.group(1)) >= 3
    )


def _as_code(name: str, text: str) -> bool:
    """Whether lower-case `text` writes `name` as code: called, after a dot, or in backticks.

    A claim calling a method (`cancel()`) names code; a source that marks its code and has
    the word only in prose ("cancelled", "cancel message support", AnyIO's changelog) does
    not state it: the trained verifier passed "use the `cancel()` method on the task group
    object" against such a changelog line (0.57). A source with no backtick at all (a PDF,
    plain text) is not asked to.
    """
    name = re.escape(name)
    return re.search(rf"(?<![\w-]){name}(?=\s*\(|`)|[.`]{name}(?!\w)", text) is not None


def _as_key(name: str, text: str) -> bool:
    """Whether lower-case `text` writes `name` as a setting's key (`application:`, `x =`).

    A dotted path in a claim (`spec.application.extraEnvs`) names the keys a YAML or TOML
    example nests, which the source writes one per line.
    """
    return re.search(rf"(?<![\w-]){re.escape(name)}\s*[:=]", text) is not None


_LABEL_MARK = re.compile(r"(?:\bNo\.|№)\s*$")
"""What makes the number after it a label in a source: "No. 21", "№ 21"."""
_CLAIMED_LABEL = re.compile(r"(?:\bNo\.?|№|#|\bnumber)\s*$", re.IGNORECASE)
"""A claim writing its number as a label itself ("wears No. 21", "#4", "number 21")."""
_WHOLE_NUMBER = re.compile(r"(?<![\w.,])\d+(?![\d,])")
"""A whole number as a source writes it (not part of "1,234", "3.5" or "B12")."""
_COUNTED = re.compile(r"\s+([A-Za-z][\w-]*)")
_NOT_COUNTED = frozenset(
    """in on at for of to by from with and or the a an as when while after before since until
    was were is are has had than""".split()
)
"""A claim's number followed by a noun counts something ("21 career blocks"); "peaked at 4
in the UK" does not."""


def labels_only(claim: str, passages: Sequence[str]) -> tuple[str, ...]:
    """Whole numbers the claim counts with that `passages` write only as labels.

    "No. 21" names a jersey, a route or a chart position; "has 21 career blocks" counts
    something, and a source whose only 21 is "No. 21" does not state it. A number the
    claim does not count with ("wore jersey 21", "peaked at 4", "the 4th single") or
    writes as a label itself is not checked.
    """
    if not any("No." in text or "№" in text for text in passages):
        return ()  # no label anywhere: every number the sources write counts
    written: dict[str, list[bool]] = {}  # each whole number: is each place it stands a label?
    for text in passages:
        for place in _WHOLE_NUMBER.finditer(text):
            before = text[max(0, place.start() - 12) : place.start()]
            written.setdefault(place.group(), []).append(bool(_LABEL_MARK.search(before)))
    found = []
    for match in _NUMBER.finditer(claim):
        number = match.group().strip().rstrip(".")
        word = _COUNTED.match(claim, match.end())
        counted = word is not None and word.group(1).lower() not in _NOT_COUNTED
        labelled = _CLAIMED_LABEL.search(claim[: match.start()])
        if not number.isdigit() or not counted or labelled:
            continue
        if all(written.get(number, [False])):
            found.append(number)
    return tuple(dict.fromkeys(found))


def _labelled(
    claim: str, claim_numbers: Sequence[str], shown: Sequence[str], missing: Sequence[str]
) -> tuple[str, ...]:
    """`labels_only` over the passages `shown`, for numbers not already missing."""
    if not claim_numbers:
        return ()
    return tuple(n for n in labels_only(claim, shown) if n not in missing)


def _text(evidence: Evidence, sentence: Sentence) -> str:
    return evidence.passages[sentence.passage][sentence.start : sentence.end]


def _names(claim: str) -> list[str]:
    """Stemmed terms of capitalised words that do not open a sentence: proper names."""
    found: list[str] = []
    for match in NAME.finditer(claim):  # "HTTPX's" names HTTPX
        found.extend(_canonical(t) for t in terms(POSSESSIVE.sub("", match.group())))
    return list(dict.fromkeys(found))


def _unit_differs(quantity: str, evidence: frozenset[str], best: frozenset[str]) -> bool:
    """Whether a quantity of the claim the evidence lacks counts as missing.

    It does when the evidence gives its number with another unit ("5 minutes" against "5
    seconds") or not in the sentences that state the claim (a 5 in some date); "55 years
    old" against "at age 55" in the anchor sentence does not.
    """
    number = quantity.split(" ")[0]
    return number not in best or any(q.startswith(number + " ") for q in evidence)


def _clauses(text: str) -> list[tuple[int, int]]:
    """Spans of the clauses of `text`.

    Cut at commas, semicolons, colons, brackets and dashes outside inline code.
    """
    code = [m.span() for m in _CODE.finditer(text)]
    cuts = [
        m.start() for m in _CLAUSE.finditer(text) if not any(a <= m.start() < b for a, b in code)
    ]
    return list(itertools.pairwise([0, *cuts, len(text)]))


@lru_cache(maxsize=1024)
def _negated_scope(claim: str) -> frozenset[str]:
    """The terms of the claim's clause that holds its first negation.

    What a source sentence must state to back the negation; all the claim's terms when
    that clause has none.
    """
    cues = negation_cues(claim)
    everything = frozenset(_canonical(t) for t in content_terms(claim))
    if not cues:
        return everything
    offset = cues[0][0]
    for start, end in _clauses(claim):
        if start <= offset < end:
            found = frozenset(_canonical(t) for t in content_terms(claim[start:end]))
            return found or everything
    return everything


def _negation_differs(
    claim: str, wanted: Sequence[str], negated: bool, best: Sequence[Sentence], evidence: Evidence
) -> bool:
    """Whether negation disagrees, decided only when sure.

    A negated claim disagrees when the best sentence for its negated clause has no
    negation (a claim may join two sentences, its "no limits" stated by the second), nor
    does any sentence stating as much of that clause, nor names the bound the claim denies
    going past ("cannot have more than" against "maximum": `comparisons.bound_denied`); a
    plain claim when the clause of the anchor sentence that states it is negated. A
    negation elsewhere in the sentence ("... or `None` for no limits") neither contradicts
    a plain claim nor backs a negated one, so it decides nothing. A plain claim opening with
    a purpose clause ("To enable HTTP/2, install ...") is checked on the sentences that best
    state what follows the clause: "HTTP/2 is not enabled by default" denies no install; of
    those stating as much, every one must negate it (`_negates`). A sentence setting a name
    the claim sets to another value speaks of another case and is not read
    (`codevalues.sets_otherwise`).
    """
    best = [s for s in best if not sets_otherwise(claim, _text(evidence, s))]
    if not best or _privative_only(claim):
        return False
    if negated:
        scope = _negated_scope(claim)
        most = max(len(scope & sentence.terms) for sentence in best)
        stating = [sentence for sentence in best if len(scope & sentence.terms) == most]
        if not any(
            sentence.negated
            or denies(_text(evidence, sentence), claim)
            or bound_denied(claim, _text(evidence, sentence))
            for sentence in stating
        ):
            return True
        contrast = _CONTRAST.search(claim)  # "A depends on X, not on Y": "A … X" is plain
        texts = [_text(evidence, sentence) for sentence in best]
        return contrast is not None and _contrast_denied(claim, contrast, texts)
    tops = [best[0]]
    asserted = _asserted_terms(claim)
    if asserted:
        wanted = [t for t in wanted if t in asserted]
        most = max(len(asserted & sentence.terms) for sentence in best)
        tops = [sentence for sentence in best if len(asserted & sentence.terms) == most]
    return all(_negates(claim, wanted, sentence, evidence) for sentence in tops)


_CONTRAST = re.compile(r",\s*+(?:and\s++|but\s++)?not\s++(?!only\b)")
"""A claim's last clause setting what it says against what it does not ("…, not on peewee
handling the dependent rows itself"): the clause before it asserts, and is read as a plain
claim is. The embedded model wrote "`delete_instance(recursive=True)` depends on the foreign
keys being declared with ON DELETE CASCADE, not on peewee handling the dependent rows
itself" over peewee's "it does not rely on ``ON DELETE CASCADE``", and, read as a denial
the source backs, both verifiers had passed it."""
_CONTRASTED_TERMS = 3
"""Content terms the asserting clause needs of its own (not in the declined one)."""


def _contrast_denied(claim: str, contrast: re.Match[str], sentences: Sequence[str]) -> bool:
    """Whether a sentence denies what a claim "A, not B" asserts (`_CONTRAST`).

    A negated clause of a stating sentence that holds two or more terms only the asserting
    clause has, and none only the declined one has ("it does not rely on ``ON DELETE
    CASCADE``" against "… depends on the foreign keys being declared with ON DELETE
    CASCADE, not on peewee handling the dependent rows itself").
    """
    main = claim[: contrast.start()]
    if negation_cues(main):
        return False
    said = {_canonical(t) for t in content_terms(main)}
    declined = {_canonical(t) for t in content_terms(claim[contrast.end() :])}
    asserted, declined = said - declined, declined - said
    if len(asserted) < _CONTRASTED_TERMS:
        return False
    for text in sentences:
        for start, end in _clauses(text):
            clause = text[start:end]
            if not negation_cues(clause):
                continue
            held = {_canonical(t) for t in content_terms(clause)}
            if len(held & asserted) >= 2 and not held & declined:
                return True
    return False


def _negates(claim: str, wanted: Sequence[str], sentence: Sentence, evidence: Evidence) -> bool:
    """Whether `sentence`, stating what the plain `claim` asserts, negates it.

    The clause of `sentence` that states the claim's `wanted` terms decides
    (`_negation_differs`). Each sentence stating as much of the claim is read: urllib3's
    "the HTTP connection will be released back into the pool without manual intervention"
    (with the default `preload_content=True`) and, two sentences on, "you need to manually
    release the HTTP connection back to the connection pool" state as much of "you can
    manually release the HTTP connection back to the connection pool"; the first alone had
    vetoed it.
    """
    text = _text(evidence, sentence)
    return (
        sentence.negated
        and negated_for(wanted, text)
        and not _restates_bound(claim, text)
        and not denies(claim, text)
    )


_DENYING = re.compile(
    r"\b(?:avoid(?:s|ed|ing)?|prevent(?:s|ed|ing)?|without|instead\s+of|rather\s+than"
    r"|outside|out\s+of(?!\s+the\s+box)|lack(?:s|ed|ing)?|disabl(?:e|es|ed|ing))\b"
    r"|\bun(?!(?:less|like|ique|iform|ify|ion|its?|iverse|iversal|icode)\b)([a-z]{4,})",
    re.IGNORECASE,
)
"""Words that deny without a negation word: "a bytecode cache to avoid repeated compiling",
"to prevent modifying lists", "outside the context of creating text files", "kept out of
source control", and a word that is another's opposite by "un-" ("untrusted"; not
"unless", "unlike", "unique", …)."""


def denies(text: str, other: str) -> bool:
    """Whether `text` denies with a word no negation cue list holds (`_DENYING`).

    What one side states with "not" the other often states so: Jinja's "uses a bytecode
    cache to avoid repeated compiling" is the claim "templates aren't compiled over and
    over", and the claim "requests from a page on an untrusted URL receive a 400 error"
    Werkzeug's "a page that is not served on a trusted URL". An "un-" word counts only when
    `other` holds the word it negates ("trusted"): "under", "until" and "unique" deny nothing.
    """
    lowered = other.lower()
    for found in _DENYING.finditer(text):
        rest = found.group(1)
        if rest is None or re.search(rf"\b{re.escape(rest.lower())}", lowered):
            return True
    return False


@lru_cache(maxsize=1024)
def _asserted_terms(claim: str) -> frozenset[str]:
    """The terms a claim opening with a purpose clause asserts: those after the clause.

    "To enable HTTP/2, install the optional dependencies" asserts the install; "HTTP/2 is
    not enabled by default" denies nothing it says. So does a claim opening with a clause
    of time or condition (`_CIRCUMSTANCE`): "After streaming a response with
    `preload_content=False` …, you can manually release the HTTP connection back to the
    connection pool" asserts the release, which urllib3's docs state two sentences after
    "the response body will be read immediately … without manual intervention" (of the
    default, `preload_content=True`). Empty when the claim has no such clause, or nothing
    follows it.
    """
    opening = _PURPOSE.match(claim) or _CIRCUMSTANCE.match(claim)
    if opening is None:
        return frozenset()
    return frozenset(_canonical(t) for t in content_terms(claim[opening.end() :]))


def _goal_negated_only(claim: str) -> bool:
    """Whether the claim's negations all stand in its opening purpose clause.

    "To configure isort so it doesn't conflict with Black, use the black profile" asserts
    no negation: the source need not deny anything to back it.
    """
    opening = _PURPOSE.match(claim)
    return opening is not None and not negation_cues(claim[opening.end() :])


def _restates_bound(claim: str, sentence: str) -> bool:
    """Whether a plain `claim` names as a bound what `sentence` states as a denial.

    "The smallest response GZipMiddleware compresses is 500 bytes" restates "Do not GZip
    responses that are smaller than this minimum size": the source's "not" bounds a
    comparison, and the claim gives the bound ("smallest", "minimum", "maximum"). Whether the
    bound's number is the source's, the number check decides. A claim making the comparison
    itself ("GZips responses smaller than this minimum size") denies the source.
    """
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", claim)}
    return (
        not words.isdisjoint(_BOUND_WORDS)
        and words.isdisjoint(COMPARISONS)
        and NEGATED_BOUND.search(sentence) is not None
    )


_FENCED = re.compile(r"```.*?(?:```|\Z)", re.S)
"""A fenced code block: its values are an example's, never what the sentence asserts."""


def _opposite(
    claim: str, negated: bool, best: Sequence[Sentence], stating: Sequence[str]
) -> tuple[tuple[tuple[str, str], ...], bool]:
    """The claim's word a stating sentence contradicts, and whether negation agrees.

    The word counts when both are negated alike; a negation on one side only that the
    anchor's opposite word restates ("non-reusable" against "not reusable", "not enabled"
    against "disabled") agrees, and the second value says so. A further stating sentence
    (a claim may join two facts) contradicts it when the two words share two neighbours,
    not one, and never by the values of its fenced code (an example's `disabled: false`
    is no statement that a plugin is enabled); both contradictory words (`opposed`) and
    converse words in the same order (`reversed_order`) count.
    """
    for index, sentence in enumerate(best):
        others = [text for at, text in enumerate(stating) if at != index]
        prose = stating[index] if index == 0 else _FENCED.sub(" ", stating[index])
        found = opposed(claim, prose, others, shared=1 if index == 0 else 2)
        if found is None:
            found = reversed_order(claim, prose, others)
        if found is None:
            continue
        if sentence.negated == negated:
            return (found,), False
        if index == 0:
            return (), True
    return (), False


def _pairs_found(pairs: Sequence[tuple[str, str]], sentences: Sequence[Sentence]) -> int:
    """How many ordered term pairs occur within five positions in one of `sentences`."""
    found = 0
    for first, second in pairs:
        for sentence in sentences:
            a = sentence.positions.get(first)
            b = sentence.positions.get(second)
            if a and b and any(0 < abs(q - p) <= 5 for p in a for q in b):
                found += 1
                break
    return found


def _given_terms(
    wanted: Sequence[str], vocabulary: frozenset[str], context: Context
) -> frozenset[str]:
    return frozenset(t for t in wanted if t in context.terms and t not in vocabulary)


def given(claim: str, evidence: Evidence, context: Context) -> bool:
    """Whether `context` states a term, name or number of `claim` that `evidence` lacks."""
    if context is NO_CONTEXT:
        return False
    wanted, claim_numbers, names, _ = _claim(claim)
    vocabulary = evidence.vocabulary
    return bool(
        _given_terms([*wanted, *names], vocabulary, context)
        or any(n in context.numbers and n not in evidence.numbers for n in claim_numbers)
    )


def named(claim: str, text: str, context: Context) -> bool:
    """Whether `context` states a proper name of `claim` that `text` lacks.

    `given` for names alone: what the trained verifier's chosen sentences must show when
    the rest of the passage names it ("Click" in a chunk's opening sentence, left out).
    `text` is analysed only when `context` states one of the claim's names.
    """
    names = [n for n in _claim(claim)[2] if n in context.terms]
    return bool(names) and bool(_given_terms(names, analyse([text]).vocabulary, context))


def align(
    claim: str,
    evidence: Evidence,
    *,
    context: Context = NO_CONTEXT,
) -> Alignment:
    """Align `claim` with the sentences of `evidence`.

    Terms, names and numbers of the claim that no sentence holds but the `context` does are
    given: left out of what the sentences must cover.
    """
    wanted, claim_numbers, names, (negated, up, down) = _claim(claim)
    sentences, vocabulary = evidence.sentences, evidence.vocabulary
    evidence_numbers = evidence.numbers | context.numbers
    converted = _converted(claim, evidence_numbers)  # "10 minutes" for "600 seconds"
    converted_numbers = {q.split(" ")[0] for q in converted}
    given = _given_terms(wanted, vocabulary, context) | {
        _canonical(term) for quantity in converted for term in quantity.split(" ")
    }
    wanted = [t for t in wanted if t not in given]
    needed = set(wanted)
    best: list[Sentence] = []
    covered: set[str] = set()
    if needed:
        ranked = sorted(sentences, key=lambda s: -len(needed & s.terms))
        for sentence in ranked[:40]:
            gain = len((needed - covered) & sentence.terms)
            if not best or (gain > 0 and len(best) < 3):
                best.append(sentence)
                covered |= needed & sentence.terms
            if len(best) >= 3 or covered == needed:
                break
    top = best[0] if best else None
    count = max(len(wanted), 1)
    anchor = len(needed & top.terms) / count if top else 0.0
    in_all = len(needed & vocabulary) / count
    missing_terms = tuple(t for t in wanted if t not in covered)
    pairs = list(itertools.pairwise(wanted))
    pair_share = _pairs_found(pairs, best) / len(pairs) if pairs else anchor

    best_numbers = _union(s.numbers for s in best) | context.numbers
    missing_numbers = tuple(
        n for n in claim_numbers if n not in evidence_numbers and n not in converted_numbers
    )
    missing_numbers += tuple(
        q
        for q in _claim_quantities(claim)
        if q not in evidence_numbers
        and q not in converted
        and q.split(" ")[0] not in missing_numbers
        and _unit_differs(q, evidence_numbers, best_numbers)
    )
    shown = list(evidence.passages)
    labelled = _labelled(claim, claim_numbers, shown, missing_numbers)
    missing_numbers += labelled
    far_numbers = [n for n in claim_numbers if n not in best_numbers]
    missing_names = tuple(n for n in names if n not in vocabulary and n not in context.terms)
    far_names = [
        n for n in names if n not in covered and (n in vocabulary or n not in context.terms)
    ]

    negation_mismatch = _negation_differs(claim, wanted, negated, best, evidence)
    missing_superlatives = _superlatives_missing(claim, best, evidence, shown)
    missing_identifiers = _identifiers_missing(claim, shown, context)
    misnamed = misattributed(claim, shown)
    if sibling := misnamed_sibling(claim, shown):  # `trylast` for what runs first
        misnamed = (*misnamed, sibling)
    grounding = evidence_numbers | converted_numbers
    ungrounded = _ungrounded(claim, vocabulary | context.terms, grounding)
    best_up = any(s.up for s in best)
    best_down = any(s.down for s in best)
    direction_mismatch = bool(best) and (
        (up and not down and best_down and not best_up)
        or (down and not up and best_up and not best_down)
    )
    stating = [_text(evidence, s) for s in best]
    opposite, restated = _opposite(claim, negated, best, stating)
    crossed = swapped(claim, stating[0]) if stating else None
    crossed = crossed or next(
        filter(None, (preferred_reversed(claim, sentence) for sentence in stating)), None
    )
    if chosen := next(filter(None, (rejected_chosen(claim, s) for s in stating)), None):
        opposite = (*opposite, (chosen[0], f"{chosen[1]} rather than {chosen[0]}"))
    celled = (denied_in_table(claim, passage) for passage in shown)
    cell = next(filter(None, celled), None)  # "`sync`: HTTP/2 Support: No"
    unit = other_unit(claim, shown)  # "milliseconds" against "(in seconds, …)"
    opposite = (*opposite, *filter(None, (cell, unit)))
    exchanged = crossed_names(claim, shown)
    negation_mismatch = negation_mismatch and not restated
    features = {
        "anchor_coverage": anchor,
        "top3_coverage": len(covered) / count,
        "all_coverage": in_all,
        "pair_share": pair_share,
        "missing_log": math.log1p(len(missing_terms)),
        "missing_any": float(bool(missing_terms)),
        "numbers_missing": len(missing_numbers) / max(len(claim_numbers), 1),
        "numbers_far": len(far_numbers) / max(len(claim_numbers), 1),
        "names_missing": len(missing_names) / max(len(names), 1),
        "names_far": len(far_names) / max(len(names), 1),
        "names_missing_log": math.log1p(len(missing_names)),
        "negation_mismatch": float(negation_mismatch),
        "direction_mismatch": float(direction_mismatch),
        "claim_log_terms": math.log1p(len(wanted)),
        "evidence_log_sentences": math.log1p(len(sentences)),
    }
    alignment = Alignment(
        features=features,
        best=tuple(best),
        missing_terms=missing_terms,
        missing_numbers=missing_numbers,
        missing_names=missing_names,
        negation_mismatch=negation_mismatch,
        direction_mismatch=direction_mismatch,
        missing_superlatives=missing_superlatives,
        unstated_comparison=unstated_comparison(claim, shown) or "",
        missing_identifiers=missing_identifiers,
        misattributed=misnamed,
        ungrounded=ungrounded,
        opposite=opposite,
        stated_otherwise=bool(cell or unit),
        swapped=tuple(pair for pair in (crossed, exchanged) if pair),
        code_values=differing_code(claim, shown, negated=negated),
        misquoted=misquoted(claim, [*shown, context.text]),
        other_goal=goal_elsewhere(claim, shown),
        other_measure=other_measure(claim, shown),
    )
    written = _written(claim)
    return replace(
        alignment,
        reasons=_reasons(alignment, labelled, written),
        missing_words=tuple(dict.fromkeys(written.get(t, t) for t in missing_terms)),
    )


def _ungrounded(claim: str, vocabulary: frozenset[str], numbers: frozenset[str]) -> tuple[str, ...]:
    """The clauses of a claim that share no content term or number with the evidence.

    `vocabulary` and `numbers` are the evidence's, with its titles' own; a claim of one
    clause has none (its coverage decides).

    The sentence stating the rest may cover most of the claim's terms, so coverage alone
    passes an invented addition: "The default pool size is 10 connections and is powered by
    hamsters" covers five of seven terms, and the lexical verifier labelled it supported
    (0.70), which lifted the model's 0.30 past the threshold. A clause stating nothing the
    source says is no paraphrase of it; the claim is not supported as written, and trimming
    (`verify.trim`) keeps its leading part when that is.
    """
    return tuple(
        clause
        for clause, wanted, clause_numbers, added in _clauses_of(claim)
        if wanted
        and _unstated(wanted, vocabulary, added=added)
        and not any(n in numbers for n in clause_numbers)
    )


_UNSTATED_TERMS = 3
"""How many of an added clause's terms no source holds make it unstated (`_unstated`)."""
_UNSTATED_SHARE = 0.6
"""What share of an added clause's terms no source holds makes it unstated (`_unstated`)."""


def _unstated(wanted: frozenset[str], vocabulary: frozenset[str], *, added: bool) -> bool:
    """Whether a clause's content terms are, in the main, none the evidence holds.

    None of them; or, for a clause `added` with "and" ("…, and it includes …"), at least
    `_UNSTATED_TERMS` and `_UNSTATED_SHARE` of them: "WTForms tries
    to provide as usable an API as possible, and it includes a hidden field that can be used
    to detect bots", the embedded model's answer to whether WTForms has a honeypot field,
    shares "includes" and "used" with the FAQ it cites, which never writes "hidden",
    "field", "detect" or "bots"; the first clause, quoted word for word, had carried the
    claim to `supported`. A clause opening with "which", "while", "with" or after a
    semicolon describes or qualifies what the claim states, in words of its own as often as
    not (measured on the tuning claims, it cost more right claims than it caught).
    """
    missing = wanted - vocabulary
    return missing == wanted or (
        added and len(missing) >= _UNSTATED_TERMS and len(missing) >= _UNSTATED_SHARE * len(wanted)
    )


@lru_cache(maxsize=1024)
def _clauses_of(
    claim: str,
) -> tuple[tuple[str, frozenset[str], tuple[str, ...], bool], ...]:
    """`claim` cut at each `NEW_CLAUSE`, each clause with its content terms and numbers.

    And whether "and" adds it ("…, and it includes …"). Nothing when it has one clause.
    Cached: repair aligns one claim with every source.
    """
    cuts = [m.span() for m in NEW_CLAUSE.finditer(claim)]
    if not cuts:
        return ()
    bounds = [0, *(x for span in cuts for x in span), len(claim)]
    joins = ["", *(claim[a:b] for a, b in cuts)]
    parts = (claim[bounds[i] : bounds[i + 1]].strip(" ,;.!?–—") for i in range(0, len(bounds), 2))
    return tuple(
        (
            part,
            frozenset(_canonical(t) for t in content_terms(part)),
            tuple(_claim_numbers(part)),
            _AND.fullmatch(join) is not None,
        )
        for part, join in zip(parts, joins, strict=True)
        if part
    )


_AND = re.compile(r",?\s+and\s+", re.I)


@lru_cache(maxsize=1024)
def _written(claim: str) -> dict[str, str]:
    """Each term of `claim` (and its canonical form) and the word it first stands for."""
    found: dict[str, str] = {}
    for match in re.finditer(r"\w+", claim):
        for term in terms(match.group()):
            found.setdefault(term, match.group())
            found.setdefault(_canonical(term), match.group())
    return found


def _reasons(
    alignment: Alignment, labelled: Sequence[str], written: Mapping[str, str]
) -> tuple[str, ...]:
    """Why a claim's alignment disagrees with its evidence, as a reader reads it.

    Names as the claim writes them ("Acme", not the term "acm").
    """
    reasons = []
    if absent := [n for n in alignment.missing_numbers if n not in labelled]:
        reasons.append("number(s) not in the source: " + ", ".join(absent))
    if labelled:
        reasons.append(
            "number(s) the source writes only as a label (No. 21): " + ", ".join(labelled)
        )
    if alignment.missing_names:
        names = dict.fromkeys(written.get(n, n) for n in alignment.missing_names)
        reasons.append("name(s) not in the source: " + ", ".join(names))
    if alignment.negation_mismatch:
        reasons.append("negation differs from the source")
    if alignment.direction_mismatch:
        reasons.append("direction differs from the source (increase vs decrease)")
    reasons.extend(_crossed_reasons(alignment))
    if superlatives := alignment.missing_superlatives:
        reasons.append("superlative not in the source: " + ", ".join(superlatives))
    if comparison := alignment.unstated_comparison:
        reasons.append(f"a comparison the source does not make: {comparison!r}")
    if identifiers := alignment.missing_identifiers:
        reasons.append("identifier(s) not in the source: " + ", ".join(identifiers))
    reasons.extend(_code_reasons(alignment.code_values))
    reasons.extend(f"quoted text not in the source: {q!r}" for q in alignment.misquoted)
    for clause in alignment.ungrounded:
        reasons.append(f"nothing in the source states {clause!r}")
    return tuple(reasons)


def _crossed_reasons(alignment: Alignment) -> list[str]:
    """Why the claim states what the source states otherwise.

    Its opposite, the other way round, of another name, or for another goal.
    """
    reasons = [f"the source says {theirs!r}, not {mine!r}" for mine, theirs in alignment.opposite]
    reasons += [
        f"the source pairs {first!r} and {second!r} the other way round"
        for first, second in alignment.swapped
    ]
    reasons += [
        f"the source says this of {other}, not of {name}" for name, other in alignment.misattributed
    ]
    if alignment.other_goal:
        name, theirs = alignment.other_goal
        reasons.append(f"the source says {name!r} is used {theirs!r}")
    if alignment.other_measure:
        mine, theirs = alignment.other_measure
        reasons.append(f"the source gives the {theirs!r}, not the {mine!r}")
    return reasons


def _code_reasons(code: Sequence[tuple[str, str]]) -> list[str]:
    """Why code of the claim disagrees: the source's setting, or an operator it lacks."""
    return [
        f"the source writes {theirs!r}, not {mine!r}"
        if theirs
        else f"{mine!r} is not in the source"
        for mine, theirs in code
    ]


FEATURES = (
    "anchor_coverage",
    "top3_coverage",
    "all_coverage",
    "pair_share",
    "missing_log",
    "missing_any",
    "numbers_missing",
    "numbers_far",
    "names_missing",
    "names_far",
    "names_missing_log",
    "negation_mismatch",
    "direction_mismatch",
    "claim_log_terms",
    "evidence_log_sentences",
)
"""The feature names, in the order the trained weights use."""
