"""Turn a finished answer's markers into clean, valid, compact citations.

Adjacent markers become one group (`[1][2]` is `[1,2]`); each group is rewritten in compact
form (`[1-3]`, `[2,4-6]`); a number cited together with another is `multi_source`.

What names no source is removed and reported, never repaired: a number outside the
sources (`[9]`, `[0]`, `[-1]`, a bare `(17)` where a citation stands), a range past them
(`[1-40]` with 8 sources is removed whole, not clipped to `[1-8]`), and a reference by file
and page or line that no source matches (`[timeouts.md, Page 99]`).

Renumbering in order of first use is offered separately. Sentences that state something
but cite nothing are listed.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from citesynth.analysis import DEFAULT_VALUE, INLINE_CODE
from citesynth.citations.markers import MAX_RANGE, Marker, SourceRef, find_markers
from citesynth.ingest.fences import fenced_blocks
from citesynth.ingest.sentences import sentence_spans

_GAP = re.compile(r"\s*")
_JOINED = re.compile(r"\s*(?:,\s*)?(?:(?:and|or|&)\s*)?")
"""A comma or "and" as a model joins markers it uses as a noun ("as shown in [3] and [4]")."""
_CLOSES = re.compile(r"[ \t]*(?:[.!?;:,)]|\n|$)")
_ADJACENT = re.compile(r"\[\d[\d,\-]*\]\s*\[\d[\d,\-]*\]")
CANONICAL = re.compile(r"\[\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*\]")
"""A resolved citation marker: `[3]`, `[1-3]`, `[2,4-6]`."""
_ASKED_TEXTS = (
    r"(?:(?:provided|given|available|retrieved|above|cited) (?:sources?|documents?|documentation"
    r"|passages?|context|excerpts?|text)|sources?|passages?|excerpts?|documentation)"
)
"""What a writer calls the passages it was given ("the provided documentation", "the
sources"); a document's own words ("not mentioned in the documents released by …") are not."""
_NOT_FOUND = re.compile(
    "|".join(
        (
            r"\bnot found in the (?:provided )?sources\b",
            rf"\bthe {_ASKED_TEXTS} do(?:es)? not (?:explicitly |directly |specifically )?"
            r"(?:say|contain|mention|state|provide|include|specify|describe|cover|address)\b",
            # "The default User-Agent is not explicitly stated in the provided sources."
            r"\bnot (?:explicitly |directly |specifically |clearly )?(?:stated|mentioned|specified"
            rf"|provided|given|described|covered|addressed|found) in the {_ASKED_TEXTS}\b",
            r"\bno (?:relevant )?information (?:about|on|regarding)\b.*\bsources?\b",
            r"\b(?:cannot|can't|unable to) (?:be )?(?:answer|answered|find|found)\b.*\bsources?\b",
        )
    ),
    re.I,
)


def compact(numbers: Sequence[int]) -> str:
    """`[1-3]`, `[2,4-6]`: sorted, distinct, runs of three or more as ranges."""
    values = sorted(set(numbers))
    parts: list[str] = []
    run: list[int] = []
    for value in [*values, -1]:
        if run and value == run[-1] + 1:
            run.append(value)
            continue
        if run:
            parts.append(f"{run[0]}-{run[-1]}" if len(run) >= 3 else ",".join(map(str, run)))
        run = [value]
    return f"[{','.join(parts)}]"


def numbers_in(canonical: str) -> list[int]:
    """The numbers of a canonical marker such as `[2,4-6]`."""
    found: list[int] = []
    for part in filter(None, canonical.strip("[]").split(",")):
        first, _, last = part.partition("-")
        found.extend(range(int(first), int(last or first) + 1))
    return found


@dataclass(frozen=True, slots=True)
class Removed:
    """What markers named that no source is: numbers, ranges and file references."""

    numbers: tuple[int, ...] = ()
    ranges: tuple[str, ...] = ()
    references: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.numbers or self.ranges or self.references)

    def plus(self, other: Removed) -> Removed:
        """Both, each item once, in order."""
        return Removed(
            tuple(dict.fromkeys((*self.numbers, *other.numbers))),
            tuple(dict.fromkeys((*self.ranges, *other.ranges))),
            tuple(dict.fromkeys((*self.references, *other.references))),
        )

    @property
    def warnings(self) -> list[str]:
        """One line per kind of removal, naming what went and why."""
        notes = []
        if self.numbers:
            shown = ", ".join(f"[{n}]" for n in self.numbers)
            notes.append(f"removed citation(s) {shown}: no source has that number")
        if self.ranges:
            shown = ", ".join(f"[{r}]" for r in self.ranges)
            notes.append(f"removed citation range(s) {shown}: a range reaching past the sources")
        if self.references:
            shown = ", ".join(self.references)
            notes.append(f"removed citation(s) {shown}: no source is that file, page or line")
        return notes


def judge(marker: Marker, valid: Collection[int]) -> tuple[list[int], Removed]:
    """The numbers of `marker` that name a source, and what it names that no source is.

    A range counts whole: one reaching past the sources is removed, not clipped.
    """
    if marker.unknown:
        return [], Removed(references=(marker.raw,))
    good: list[int] = []
    bad: list[int] = []
    ranges: list[str] = []
    for first, last in marker.parts or tuple((n, n) for n in marker.numbers):
        if first == last:
            (good if first in valid else bad).append(first)
        elif last - first <= MAX_RANGE and all(n in valid for n in range(first, last + 1)):
            good.extend(range(first, last + 1))
        else:
            ranges.append(f"{first}-{last}")
    return list(dict.fromkeys(good)), Removed(tuple(dict.fromkeys(bad)), tuple(ranges))


@dataclass(frozen=True, slots=True)
class Resolved:
    """An answer's text with clean markers, and what its citations turned out to be."""

    text: str
    groups: tuple[tuple[int, ...], ...]
    used: tuple[int, ...]
    multi_source: frozenset[int]
    invalid: tuple[int, ...]
    markers: int
    invalid_markers: int
    removed: Removed = Removed()
    """Everything removed: `invalid` numbers, ranges past the sources, unknown references."""

    @property
    def warnings(self) -> list[str]:
        """One line per problem that was repaired."""
        return self.removed.warnings


def _groups(text: str, markers: list[Marker]) -> list[list[Marker]]:
    """Markers separated by nothing but whitespace form one group.

    So do markers joined by a comma or "and" when the last closes its clause ("as shown in
    [3] and [4]." → "as shown in [3,4]."; "ten [1], and [2] says twenty" stays two).
    Resolved apart, removing one that names no source left the other's "and" behind ("as
    shown in and [4]").
    """
    linked = [bool(_JOINED.fullmatch(text, a.end, b.start)) for a, b in itertools.pairwise(markers)]
    closing = [False] * len(markers)  # the run of joined markers from here closes a clause
    for index in reversed(range(len(markers))):
        further = index < len(linked) and linked[index] and closing[index + 1]
        closing[index] = further or bool(_CLOSES.match(text, markers[index].end))
    groups: list[list[Marker]] = []
    for index, marker in enumerate(markers):
        together = index > 0 and (
            _GAP.fullmatch(text, markers[index - 1].end, marker.start)
            or (linked[index - 1] and closing[index])
        )
        if together:
            groups[-1].append(marker)
        else:
            groups.append([marker])
    return groups


SUBJECT_VERBS = (
    "states says explains mentions notes shows reports describes confirms indicates specifies "
    "documents adds provides gives lists suggests writes recommends"
).split()
"""Verbs whose subject a marker opening a sentence is ("x. [1] explains that y")."""


def verb_pattern(verbs: Iterable[str]) -> str:
    """An alternation of `verbs` (third person singular) and their plurals ("state")."""
    return "|".join(f"{verb}|{plural_verb(verb)}" for verb in verbs)


def plural_verb(verb: str) -> str:
    """The plural of a verb in the third person singular: "specifies" → "specify"."""
    return verb[:-3] + "y" if verb.endswith("ies") else verb[:-1]


_SUBJECT = re.compile(
    rf"(?:[ \t]*(?:,|and|&)?[ \t]*\[[\d,-]+\])*[ \t]+(?:also[ \t]+)?"
    rf"(?:{verb_pattern(SUBJECT_VERBS)})\b",
    re.I,
)
"""A reporting verb after a marker that opens a sentence, or after the markers that begin
with it ("[1] and [2] state"): the markers are its subject, which `synthesis.leads` turns
into the citation they are, not a citation trailing the sentence before."""
_AFTER = 24
"""Characters after a marker read to tell a trailing citation from a sentence's subject."""


def _attach(before: str, marker: str, after: str) -> str:
    """`before` followed by `marker`, moved inside a sentence it trails: `x. [1]` → `x [1].`.

    Not one opening a sentence as its subject (`_SUBJECT`): asked what the sources say,
    the embedded model wrote "… by default. [1] explains that HTTPX differs …", and moved,
    the marker had left "explains that HTTPX differs …" behind as a sentence.
    """
    stripped = before.rstrip(" \t")
    ends_line = not after[:1] or after[:1].isspace()
    opens = _SUBJECT.match(after) is not None
    if stripped[-1:] in (".", "!", "?") and stripped[-2:-1] != "." and ends_line and not opens:
        return f"{stripped[:-1]} {marker}{stripped[-1]}"
    separator = " " if before and not before[-1].isspace() and before[-1] not in "([" else ""
    return before + separator + marker


def resolve(text: str, sources: Sequence[SourceRef]) -> Resolved:
    """Clean every marker of `text` against the numbered `sources`."""
    resolved = _resolve(text, sources)
    # Removing a marker can join the text around it into a new one ("[[9]1]" leaves "[1]"),
    # and moving one inside its sentence can put it beside another ("x [1]. [2]" gives
    # "x [1] [2]."): resolve the result again until it stays the same.
    for _ in range(8):
        if not resolved.removed and not _ADJACENT.search(resolved.text):
            break
        again = _resolve(resolved.text, sources)
        if again.text == resolved.text and again.groups == resolved.groups:
            break
        removed = resolved.removed.plus(again.removed)
        resolved = Resolved(
            text=again.text,
            groups=again.groups,
            used=again.used,
            multi_source=again.multi_source,
            invalid=removed.numbers,
            markers=resolved.markers,
            invalid_markers=resolved.invalid_markers + again.invalid_markers,
            removed=removed,
        )
    return resolved


def _resolve(text: str, sources: Sequence[SourceRef]) -> Resolved:
    valid = {source.number for source in sources}
    markers = find_markers(text, sources)
    pieces: list[str] = []
    groups: list[tuple[int, ...]] = []
    used: list[int] = []
    multi: set[int] = set()
    removed = Removed()
    invalid_markers = 0
    position = 0
    for group in _groups(text, markers):
        good: list[int] = []
        for marker in group:
            kept, gone = judge(marker, valid)
            good.extend(n for n in kept if n not in good)
            invalid_markers += bool(gone)
            removed = removed.plus(gone)
        before = text[position : group[0].start]
        if good:
            end = group[-1].end
            pieces.append(_attach(before, compact(good), text[end : end + _AFTER]))
            groups.append(tuple(good))
            used.extend(n for n in good if n not in used)
            if len(good) > 1:
                multi.update(good)
        else:
            after = text[group[-1].end : group[-1].end + 1]
            # No space is left before punctuation, and no double space where the group was.
            pieces.append(before.rstrip(" \t") if after in ".,;:!?" or after.isspace() else before)
        position = group[-1].end
    pieces.append(text[position:])
    return Resolved(
        text="".join(pieces).strip(),
        groups=tuple(groups),
        used=tuple(used),
        multi_source=frozenset(multi),
        invalid=removed.numbers,
        markers=len(markers),
        invalid_markers=invalid_markers,
        removed=removed,
    )


def renumber(text: str, order: Sequence[int]) -> tuple[str, dict[int, int]]:
    """Renumber canonical markers so that `order[0]` becomes 1, `order[1]` 2, and so on.

    Brackets in code are left alone, and so is a marker none of whose numbers is in `order`.
    """
    mapping = {old: new for new, old in enumerate(order, start=1)}
    return relabel(text, mapping), mapping


def relabel(text: str, mapping: Mapping[int, int]) -> str:
    """Canonical markers with each number replaced by `mapping[number]` (see `renumber`).

    A report gives every subtopic's sources their numbers in one index this way.
    """
    pieces: list[str] = []
    position = 0
    for marker in find_markers(text, ()):
        if not CANONICAL.fullmatch(marker.raw):
            continue
        numbers = [mapping[n] for n in numbers_in(marker.raw) if n in mapping]
        if numbers:
            pieces.append(text[position : marker.start] + compact(numbers))
            position = marker.end
    pieces.append(text[position:])
    return "".join(pieces)


def cited_numbers(sentence: str) -> list[int]:
    """The numbers cited in one sentence of clean text."""
    return [n for marker in CANONICAL.findall(sentence) for n in numbers_in(marker)]


def says_not_found(text: str) -> bool:
    """Whether the answer is (essentially) a statement that the sources lack the answer."""
    plain = CANONICAL.sub("", text).strip()
    if not plain:
        return True
    if not _NOT_FOUND.search(plain):
        return False
    # A not-found sentence inside a cited answer is a caveat, not a refusal.
    return not CANONICAL.search(text) or len(plain.split()) <= 25


_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_BOLD_SPAN = r"\*\*(?:(?!\*\*)[^\n])+\*\*"
"""One bold span on one line (a line "**A** and **B**" is two)."""
_HEADING_LINE = re.compile(
    rf"^[ \t]*(?:#{{1,6}}[ \t][^\n]*|(?![^\n]*\[\d){_BOLD_SPAN}[ \t]*(?=\r?\n[ \t]*\S))[ \t\r]*$",
    re.MULTILINE,
)
"""A whole line that heads what follows: `# Title`, or a `**Title**` line citing nothing
right above more text, as the extractive writer heads a document (a bold paragraph of its
own, or a bold line with a citation, is a statement)."""
_BOLD_LINE_END = re.compile(rf"^[ \t]*{_BOLD_SPAN}[ \t\r]*(\n)", re.MULTILINE)
"""The end of a line that is one bold span and no heading (it cites a source): a
statement of its own, never run into the line below it."""


def _cuts(text: str) -> list[tuple[int, int]]:
    """Where sentences stop, in order.

    Blank lines, heading lines and fenced code blocks are left out (code an answer shows is
    checked as a quotation, `verify.code`); the end of a bold line stays with the sentence
    before it.
    """
    cuts = [m.span() for m in (*_PARAGRAPH.finditer(text), *_HEADING_LINE.finditer(text))]
    cuts += fenced_blocks(text)
    cuts += [m.span(1) for m in _BOLD_LINE_END.finditer(text)]
    return sorted(cuts)


_POINTS = frozenset(
    """described explained covered discussed documented detailed mentioned shown stated found
    given provided noted reported cited listed confirmed indicated specified written see
    refer referenced according per""".split()
)
"""Words that point at a source: a pointer sentence holds one of them."""
_POINTING = _POINTS | frozenset(
    """this that it these those here there is are was were be been can could may also as
    more further detail details information above below following in on at to from of by
    for and or the a an both each respectively source sources document documents doc docs
    documentation passage passages context contexts reference references text texts article
    articles excerpt excerpts page pages section sections line lines explicitly clearly
    directly expressly specifically""".split()
)
"""The only words a sentence that points at sources holds ("This is stated in [1] and [2].")."""
_WORDS = re.compile(r"[^\W\d_]+")
_LOCATION = re.compile(r"\b(?:L\d+(?:\s*[-–]\s*L?\d+)?|p\.\s*\d+)\b")
"""Where in a source, as its header writes it: "L90-113", "p. 5" (words of no claim)."""


def is_pointer(sentence: str) -> bool:
    """Whether `sentence` only points at sources and states nothing a reader could check.

    "This is stated in [1] and [2].", "See [3].", "For more details, see the
    documentation [4].", "This is stated in [1] on L90-113, specifically in lines 18-27."
    and a marker on its own ("[1]") are pointers; "See the retrieval docs for the fusion
    formula [2]." says what to look for, so it is not.
    """
    if not CANONICAL.search(sentence):
        return False
    words = set(_WORDS.findall(_LOCATION.sub(" ", CANONICAL.sub(" ", sentence)).lower()))
    if not words:  # a marker on its own ("[1]" on the last line): it points, says nothing
        return True
    return bool(words & _POINTS) and words <= _POINTING


_QUOTED = re.compile(rf"{INLINE_CODE.pattern}|\"[^\"\n]+\"|“[^”\n]+”")
"""Inline code and quotations: what a sentence says someone else writes."""


def factual_spans(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences of `text` that state something (see `factual_sentences`).

    Sentences never cross a blank line or the end of a bold line; a heading line (`# Title`,
    or a `**Title**` line citing nothing, as the extractive writer heads each document) is
    left out, never part of the sentence after it. A sentence ending in ":" is a label,
    unless a code block follows it: then it states what the code is for ("Hamsters power
    the engine, as in this example [1]:") and is checked like any other. A refusal ("Not
    found in the sources.", "The sources do not mention …") is none; a sentence that quotes
    one in code or quotation marks ("… with the warning `the model answered "Not found in
    the sources."` …") is, and is checked: it had gone unverified. A sentence of fewer than
    four words states nothing checkable, unless it states a default ("Default: ``10``.",
    "Defaults to 5.", `analysis.DEFAULT_VALUE`: Django's settings reference states each
    setting's default so) or shows code (`shows_code`: "Example: `app.get_schema()`").
    """
    blocks = {block_start for block_start, _ in fenced_blocks(text)}
    found = []
    for start, end in _sentences(text):
        sentence = text[start:end]
        label = sentence.endswith(":") and not introduces_code(text, end, blocks)
        if _short(sentence) and not shows_code(sentence):
            continue
        if sentence.endswith("?") or label or not sentence:
            continue
        if _NOT_FOUND.search(_QUOTED.sub(" ", sentence)) or is_pointer(sentence):
            continue  # a refusal or a pointer; a sentence quoting a refusal states something
        found.append((start, end))
    return found


def shows_code(sentence: str) -> bool:
    """Whether `sentence` only shows one inline code span, with a label at most.

    "- Example: `@app.get("/v1/resource")`", "Signature: `url_for(name, **path_params)`":
    one span, fewer than four words besides it (markers aside). Such a sentence states its
    code, which is checked as a quotation (`verify.claims`), not as a sentence: the embedded
    model wrote such lines under made-up steps for Starlette, with code no source holds, and
    they were too short to be claims. A default stated ("Defaults to `9`.") is a sentence; a
    question, a label ending in ":" and a pointer at a page ("See also `performance`.") show
    nothing to check.
    """
    spans = list(INLINE_CODE.finditer(sentence))
    if len(spans) != 1 or not spans[0].group(1).strip() or DEFAULT_VALUE.match(sentence):
        return False
    if sentence.endswith(("?", ":")):
        return False
    besides = CANONICAL.sub(" ", INLINE_CODE.sub(" ", sentence))
    words = set(_WORDS.findall(besides.lower()))
    pointer = bool(words & _POINTS) and words <= _POINTING
    return len(besides.split()) < 4 and not pointer


def _sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences of `text` between its cuts (`_cuts`), headings left out."""
    spans = []
    start = 0
    for cut_start, cut_end in [*_cuts(text), (len(text), len(text))]:
        if cut_start > start:  # a heading's own sentences ("… experiment. Not …") are no claims
            spans.extend(sentence_spans(text, start, cut_start))
        start = max(start, cut_end)
    return _trailing_markers_kept(text, spans)


def _trailing_markers_kept(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`spans` with the markers a sentence's closing mark stands before given back to it.

    `_attach` moves a marker trailing a full stop inside its sentence, but not one after an
    emphasis, quotation or parenthesis closing it: the extractive writer cites Tornado's
    list item "*Find a coroutine-friendly equivalent.*" so, and the sentence split gave
    "[3]" to the sentence after it. The item then cited nothing, repair added a second
    marker it never read, and removing the item left "- [3] For `time.sleep` …". Markers
    that are the subject of the sentence they open ("[1] explains that …", "[1], the
    guide, says", "[2]'s changelog": `_attach` reads them so), and those after a label
    ("**Note.** [1] The timeout …": fewer than four words), stay with it.
    """
    joined: list[tuple[int, int]] = []
    for start, end in spans:
        lead = _TRAILING.match(text, start) if joined else None
        if lead is not None and _trails(text, joined[-1], lead):
            joined[-1] = (joined[-1][0], lead.end())
            rest = NOT_SPACE.search(text, lead.end(), end)
            if rest is None:
                continue
            start = rest.start()
        joined.append((start, end))
    return joined


def _trails(text: str, before: tuple[int, int], lead: re.Match[str]) -> bool:
    """Whether the markers `lead` opening a sentence end the sentence `before` it."""
    before_start, before_end = before
    first = CANONICAL.match(text, lead.start())  # the first marker, which `lead` opens with
    return (
        first is not None
        and text[before_end - 1 : before_end] in SENTENCE_CLOSERS
        and not text[before_end : lead.start()].strip(" \t")
        and not text[lead.end() : lead.end() + 1].strip()
        and not text[before_start:before_end].rstrip(SENTENCE_CLOSERS).endswith("]")
        and not _short(text[before_start:before_end])
        and _SUBJECT.match(text[first.end() : first.end() + _AFTER]) is None
    )


_TRAILING = re.compile(rf"{CANONICAL.pattern}(?:[ \t]*{CANONICAL.pattern})*")
"""The markers opening a sentence, which may be the sentence's before (`_trailing_markers_kept`)."""
SENTENCE_CLOSERS = ".!?\"'”’)*_"
"""What may end a sentence: its full stop, and a quotation, aside or emphasis closed after it."""


def _short(sentence: str) -> bool:
    """Fewer than four words (markers aside), and no default stated ("Default: ``10``.")."""
    return len(CANONICAL.sub("", sentence).split()) < 4 and not DEFAULT_VALUE.match(sentence)


def introduces_code(text: str, end: int, blocks: Collection[int] | None = None) -> bool:
    """Whether a fenced code block starts right after `text[:end]` (blank lines between).

    `blocks` are where the text's blocks start (`fenced_blocks`), when known.
    """
    starts = blocks if blocks is not None else {start for start, _ in fenced_blocks(text)}
    found = NOT_SPACE.search(text, end)
    after = found.start() if found else len(text)
    line_start = text.rfind("\n", 0, after) + 1
    return line_start in starts or after in starts


NOT_SPACE = re.compile(r"[^ \t\r\n]")
"""Any character but a space, a tab or a line break."""


def factual_sentences(text: str) -> list[tuple[str, list[int]]]:
    """Sentences that state something, with the numbers each cites (possibly none).

    Left out: questions, headings and list labels ending in ':', short fragments, "not
    found" sentences and sentences that only point at a source (`is_pointer`).
    """
    spans = factual_spans(text)
    return [(text[a:b], cited_numbers(text[a:b])) for a, b in spans]
