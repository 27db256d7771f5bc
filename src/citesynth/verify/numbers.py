"""Numbers as claims and sentences state them: in digits or words, with units, as labels.

`numbers_of` reads a text's numbers in one form ("1,000" and "one thousand" are 1000,
"20 %" is 20% and 20, "twice" is 2), `quantities` its numbers with their units, and
`canonical` one form for a term, a number word and its digits, a unit and its
abbreviations. A quantity the evidence states in another unit is no number it lacks
(`converted`: "10 minutes" for "600 seconds"), and a number a source writes only as a label
("No. 21") is none it states (`labels_only`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from citesynth.analysis import (
    content_terms,
    terms,
)

_STANDS_ALONE = r"(?:(?<![\w.])|(?<=(?<![\w.])[vV])|(?<=[A-Za-z]_))"
"""Where a number starts: not inside a word or after a dot, but after a version's "v"
("pip v21.1", "setuptools v77.0.0": the embedded model's "before pip release 21.1" had been
vetoed for a number not in the source), or after a name's underscore (Falcon's
`falcon.HTTP_204` states the status 204)."""
_NUMBER = re.compile(rf"{_STANDS_ALONE}[-+]?\d[\d,]*(?:\.\d+)*(?:\s?%|\s?percent\b)?")
"""A number, also the digits of a name (IL-10 is not IL-20), or a version of several parts
(1.2.3 is not 1.2.5)."""
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
WORD = re.compile(r"[A-Za-z][\w'’-]*")


def numbers_of(text: str) -> frozenset[str]:
    """Numbers in `text`, normalised: `1,000` → `1000`, `20 %` → `20%`, `two` → `2`."""
    found = set()
    for match in _NUMBER.finditer(text):
        value = match.group().replace(",", "").replace(" ", "").replace("percent", "%")
        value = value.lstrip("+")
        if value.endswith("%"):
            found.add(value)
            value = value[:-1]  # "20%" is also matched by a bare 20 in the evidence
        value = value.rstrip(".") or value
        found.add(value)
        while _ZERO_PART.search(value):  # "1.0" states 1
            value = _ZERO_PART.sub("", value)
            found.add(value)
    found.update(_number_words(text))
    found.update(_TIMES[m.group().lower()] for m in _COUNTED_TIMES.finditer(text))
    if _SINGLE.search(text):
        found.add("1")
    return frozenset(found)


_ZERO_PART = re.compile(r"\.0+$")
"""A number's last part when it is zero: a number ending in zero parts states it without
them ("between 0.0 and 1.0" states 0 and 1, "v77.0.0" states 77.0 and 77)."""
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
    for word in (p.lower() for w in WORD.findall(text) for p in w.split("-")):
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


UNITS = {
    **dict.fromkeys(("ms", "msec", "millisecond", "milliseconds"), "ms"),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), "s"),
    **dict.fromkeys(("min", "mins", "minute", "minutes"), "min"),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), "h"),
    **dict.fromkeys(("day", "days"), "day"),
    **dict.fromkeys(("week", "weeks"), "week"),
    **dict.fromkeys(("month", "months"), "month"),
    **dict.fromkeys(("year", "years"), "year"),
    **{unit: unit for unit in ("kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib")},
    **{
        word: unit
        for unit, name in (("kb", "kilo"), ("mb", "mega"), ("gb", "giga"), ("tb", "tera"))
        for word in (f"{name}byte", f"{name}bytes")
    },
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


_UNIT_STEMS = {stem: unit for word, unit in UNITS.items() for stem in terms(word)}


def canonical(term: str) -> str:
    """One form for a number word and its digits, a unit and its abbreviations, a verb.

    A verb in "-ify" and its noun in "-ification" are one term, which the stemmer leaves
    apart ("verifi" and "verif", "modifi" and "modif"): "disable SSL certificate
    verification" is what "May be disabled to skip validation" says of `verify_ssl`. Not
    "specifi": "specif" is the stem of "specific" too.
    """
    if len(term) >= 6 and term.endswith("ifi") and term != "specifi":
        return term[:-1]
    return NUMBER_WORDS.get(term) or _UNIT_STEMS.get(term) or term


def content_stems(text: str) -> frozenset[str]:
    """The content terms of `text` (`content_terms`), each in its `canonical` form."""
    return frozenset(canonical(term) for term in content_terms(text))


IN_UNIT = re.compile(
    r"\bin\s+(?:whole\s+)?(" + "|".join(w for w in UNITS if len(w) > 3 and w.isalpha()) + r")\b",
    re.I,
)
"""A measure named in words, as an option's description gives it: "Session expiry time in
seconds", "… smaller than this minimum size in bytes"."""


def stated_in(unit_sentence: str, value_sentence: str) -> frozenset[str]:
    """The quantities a value sentence gives in the unit the sentence before it names.

    Reference pages state an option's unit, then its value alone: "Do not GZip responses
    that are smaller than this minimum size in bytes. Defaults to `500`." A claim reading
    "500 bytes" states what they say. Only a short sentence with bare numbers (no unit of its
    own) right after one naming exactly one unit, with no number, takes it.
    """
    units = {UNITS[m.group(1).lower()] for m in IN_UNIT.finditer(unit_sentence)}
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
        unit = UNITS.get(match.group(3).lower())
        if unit is not None:
            raw = (match.group(1) or match.group(2)).lower().replace(",", "")
            found.add(f"{NUMBER_WORDS.get(raw, raw)} {unit}")
    return frozenset(found)


def numbers_claimed(text: str) -> list[str]:
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


@lru_cache(maxsize=1024)
def quantities_claimed(claim: str) -> frozenset[str]:
    """A claim's `quantities`, cached: repair checks one claim against every source."""
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


def converted_quantities(claim: str, evidence_numbers: frozenset[str]) -> frozenset[str]:
    """The claim's quantities the evidence states in another unit, the amount the same.

    "10 minutes" for "600 seconds", "two weeks" for "14 days": the number then is no number
    the evidence lacks.
    """
    wanted = {q: _amounts(q) for q in quantities_claimed(claim) if q not in evidence_numbers}
    if not any(wanted.values()):
        return frozenset()  # most claims: no quantity in another unit to look for
    stated = set().union(*(_amounts(q) for q in evidence_numbers if " " in q))
    return frozenset(q for q, amounts in wanted.items() if amounts & stated)


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


def labelled_numbers(
    claim: str, claim_numbers: Sequence[str], shown: Sequence[str], missing: Sequence[str]
) -> tuple[str, ...]:
    """`labels_only` over the passages `shown`, for numbers not already missing."""
    if not claim_numbers:
        return ()
    return tuple(n for n in labels_only(claim, shown) if n not in missing)


def unit_differs(quantity: str, evidence: frozenset[str], best: frozenset[str]) -> bool:
    """Whether a quantity of the claim the evidence lacks counts as missing.

    It does when the evidence gives its number with another unit ("5 minutes" against "5
    seconds") or not in the sentences that state the claim (a 5 in some date); "55 years
    old" against "at age 55" in the anchor sentence does not.
    """
    number = quantity.split(" ")[0]
    return number not in best or any(q.startswith(number + " ") for q in evidence)


_NUMBERED_NAME = re.compile(r"(?<![A-Za-z0-9])([A-Za-z]{2,})(\d+)(?!\.?\d)")
"""Letters and the digits after them, inside a word, which the number regex does not read
("base36", "sha256", "py311", the "TP53" of "TP53-mediated")."""


def numbered_names_changed(claim: str, passages: Sequence[str]) -> tuple[str, ...]:
    """Names of the claim with digits that the passages write with other digits.

    "base62-encodes it" against Shortly's "convert it to base36": the name's digits stand
    inside a word, so they are no number of either (`numbers_of`), and the claim covered
    every other word. A name the passages also write with its own digits, joined or apart
    ("utf8" against "UTF-8" beside "utf16"), is no change. On the held-out one-detail
    edits it caught two names the edit replaced ("TP1D" where the abstract writes "TP53").
    """
    claimed = {m.group(0).lower(): m for m in _NUMBERED_NAME.finditer(claim)}
    if not claimed:
        return ()
    lowered = [text.lower() for text in passages]
    written = {m.group(0) for text in lowered for m in _NUMBERED_NAME.finditer(text)}
    found = []
    for name, match in claimed.items():
        stem, digits = match.group(1).lower(), match.group(2)
        if name in written or not any(
            other.startswith(stem) and other[len(stem) :].isdigit() for other in written
        ):
            continue
        apart = re.compile(rf"(?<![a-z0-9]){re.escape(stem)}[-_ ]?{digits}(?!\.?\d)")
        if not any(apart.search(text) for text in lowered):
            found.append(match.group(0))
    return tuple(found)
