"""An answer's text tidied before verification: repeats, unfinished sentences, stubs.

`drop_repeats` removes a sentence that repeats an earlier one citing every source it
cites (a small model's loop), `drop_unfinished` a last sentence broken off at the token
budget, `close_lead_ins` a lead-in's colon before nothing it introduces, `drop_stubs` a
lead-in that stops at its comma ("For example, [1]."), and `drop_pointers` a sentence that
only points at a source ("See [2].").
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection

from citesynth.analysis import content_terms, terms, without_consensus
from citesynth.citations.resolve import (
    NOT_SPACE,
    cited_numbers,
    compact,
    introduces_code,
    is_pointer,
)
from citesynth.ingest.blocks import LIST_MARKER
from citesynth.ingest.fences import (
    fenced_blocks,
    outside_code,
    outside_fences,
)
from citesynth.ingest.sentences import sentence_spans
from citesynth.synthesis.layout import (
    ITEM_MARK,
    TRAILING_SPACE,
    single_blank_lines,
)

MARKS = re.compile(r"\[[\d,\s\-–]+\]")
"""A citation marker group as written ("[1]", "[2, 4-6]")."""


def has_words(text: str) -> bool:
    """Whether `text` holds a word besides its citation markers and punctuation."""
    return re.search(r"\w", MARKS.sub(" ", text)) is not None


def drop_repeats(text: str, *, overlap: float = 0.9) -> tuple[str, int]:
    """Resolved `text` without sentences that repeat an earlier one, and how many went.

    Small models sometimes loop and write a sentence twice; a sentence (or a line: a loop
    may write one line after another without punctuation) goes when at least `overlap` of
    its terms (citation markers aside) already make up one earlier sentence that cites
    every source it cites. A repeat of the very same terms, in the same order, citing
    another source is corroboration: it goes and the earlier copy cites both ("… the final
    form of the value [2,3]." where the answer had said it twice, "[3]." and "[2]."), when
    both are plain sentences of one paragraph citing at their end (`_mergeable`). The same
    sentence again citing more than its first copy replaces it (attribution may cite only
    the second of two identical lines). A sentence opening "Multiple sources report that"
    is read for what it reports (`without_consensus`): once repair cites one source for it,
    it repeats the sentence that said it plainly.

    Linear in the text: earlier sentences are found through the rarest of a sentence's
    terms, never by comparing it with every earlier one.
    """
    index = _Seen(overlap)
    kept: list[tuple[int, int]] = []  # the span of each sentence the index holds
    dropped: list[tuple[int, int]] = []
    merged: dict[int, frozenset[int]] = {}  # kept sentence -> the citations it now gives
    orders: list[tuple[str, ...]] = []  # each kept sentence's terms in order
    for start, end in _statements(text):
        sentence = text[start:end]
        said = terms(MARKS.sub(" ", without_consensus(sentence)))
        words = frozenset(said)
        marks = frozenset(cited_numbers(sentence))
        if not marks and HEADING_LINE.fullmatch(sentence.strip()):
            continue  # a heading states nothing: "**SSL_CERT_DIR (Environment Variables)**"
        if len(words) >= 4 and index.repeats(words, marks):
            dropped.append((start, end))
            continue
        order = tuple(said)
        same = index.same_words(words) if len(words) >= 4 and marks else None
        if (
            same is not None
            and index.sentences[same][1]  # an uncited first copy goes instead (below)
            and _mergeable(text, kept[same], (start, end), orders[same], order)
        ):
            union = index.sentences[same][1] | marks  # corroboration: said once, citing both
            index.replace_marks(same, union)
            merged[same] = union
            dropped.append((start, end))
            continue
        earlier = index.cited_more(words, marks) if len(words) >= 4 else None
        if earlier is not None:  # the same sentence again, citing more: it replaces the first
            dropped.append(kept[earlier])
            kept[earlier], orders[earlier] = (start, end), order
            merged.pop(earlier, None)
            continue
        index.add(words, marks)
        kept.append((start, end))
        orders.append(order)
    if not dropped:
        return text, 0
    recited = {kept[number]: numbers for number, numbers in merged.items()}
    pieces: list[str] = []
    kept_until = 0
    for start, end in sorted([*dropped, *recited]):
        if (start, end) in recited:
            pieces.append(text[kept_until:start] + _cited(text[start:end], recited[start, end]))
            kept_until = end
            continue
        pieces.append(text[kept_until:start].rstrip(" \t") + (" " if start else ""))
        kept_until = end
        while kept_until < len(text) and text[kept_until] in " \t":
            kept_until += 1
    pieces.append(text[kept_until:])
    return _without_trailing_spaces("".join(pieces)).strip(), len(dropped)


_CLOSING = " \t\n.!?;,:)*_"
"""What may follow a sentence's last marker: its stop, a closing bracket or emphasis."""
_NOT_PLAIN = re.compile(rf"[ \t]*(?:\||{LIST_MARKER}[ \t]|#|\*\*[^*\n]+\*\*\s*$)")
"""A table row, a list item, a heading or a bold heading line: no sentence to merge."""
_BLANK = re.compile(r"\n[ \t]*\n")


def _mergeable(
    text: str,
    earlier: tuple[int, int],
    later: tuple[int, int],
    earlier_order: tuple[str, ...],
    later_order: tuple[str, ...],
) -> bool:
    """Whether the `later` sentence says the `earlier` one again and can be folded into it.

    The same terms in the same order ("Requests are faster than sockets" is not "Sockets
    are faster than requests"), both plain sentences (no table row, list item or heading:
    dropping one would leave its mark or cell behind) citing only at their end, in one
    paragraph with no heading between (under "## Sync client" and "## Async client" the
    same sentence says two things).
    """
    if earlier_order != later_order or _BLANK.search(text, earlier[1], later[0]):
        return False
    for start, end in (earlier, later):
        line_start = text.rfind("\n", 0, start) + 1
        if _NOT_PLAIN.match(text, line_start) or MARKS.search(_unmarked(text[start:end])):
            return False
    return True


def _unmarked(sentence: str) -> str:
    """`sentence` without the markers it ends with: "It holds ten [1] [2]." -> "It holds ten.".

    The space before each marker goes, its closing stop stays. Read from the end, once: a
    pattern tried at every marker of a long run took quadratic time (3,000 markers
    mid-sentence, 0.75 s).
    """
    tail = len(sentence.rstrip(_CLOSING))
    start = tail
    while start and sentence[start - 1] == "]":
        opening = sentence.rfind("[", 0, start)
        if opening < 0 or not MARKS.fullmatch(sentence, opening, start):
            break
        start = opening
        while start and sentence[start - 1].isspace():
            start -= 1
    return sentence[:start] + sentence[tail:]


def _cited(sentence: str, numbers: Collection[int]) -> str:
    """`sentence` citing `numbers` instead of the markers it ends with, before its stop."""
    body = _unmarked(sentence).rstrip()
    stop = len(body.rstrip(".!?;,:)*_")) if body else 0
    return f"{body[:stop].rstrip()} {compact(sorted(numbers))}{body[stop:]}"


def _without_trailing_spaces(text: str) -> str:
    """`text` without spaces at the ends of its lines, outside code blocks."""
    return outside_code(text, lambda piece: TRAILING_SPACE.sub("", piece))


HEADING_LINE = re.compile(r"#{1,6} \S.*|\*\*[^*\n]+\*\*:?")
"""A heading line (`fullmatch` on a stripped line): Markdown's, or a bold line as the
extractive writer heads a group. Its words are often all in a sentence before it
("`httpx` does respect the `SSL_CERT_FILE` and `SSL_CERT_DIR` environment variables" above
**SSL_CERT_DIR (Environment Variables)**), yet it repeats nothing."""


def _statements(text: str) -> list[tuple[int, int]]:
    """The sentences of `text`, each line of a sentence on its own."""
    spans = []
    for start, end in outside_fences(text, sentence_spans(text)):
        line = text.find("\n", start, end)
        while line >= 0:
            if text[start:line].strip():
                spans.append((start, line))
            start = line + 1
            line = text.find("\n", start, end)
        if text[start:end].strip():
            spans.append((start, end))
    return [(a + len(text[a:b]) - len(text[a:b].lstrip()), b) for a, b in spans]


class _Seen:
    """Earlier sentences' terms and citations, indexed by term."""

    CANDIDATES = 64  # earlier sentences compared at most, the most recent first

    def __init__(self, overlap: float) -> None:
        self.overlap = overlap
        self.sentences: list[tuple[frozenset[str], frozenset[int]]] = []
        self.exact: dict[frozenset[str], list[frozenset[int]]] = {}
        self.numbers: dict[frozenset[str], list[int]] = {}  # the sentences of each term set
        self.by_term: dict[str, list[int]] = {}

    def add(self, words: frozenset[str], marks: frozenset[int]) -> None:
        """Remember a kept sentence."""
        number = len(self.sentences)
        self.sentences.append((words, marks))
        self.exact.setdefault(words, []).append(marks)
        self.numbers.setdefault(words, []).append(number)
        for word in words:
            self.by_term.setdefault(word, []).append(number)

    def cited_more(self, words: frozenset[str], marks: frozenset[int]) -> int | None:
        """The earlier sentence of the same terms that cites fewer sources, if any.

        A model may write a line twice and attribution cite only the second copy: the
        first, citing less, is the one to drop. The index then holds the second's marks.
        """
        for number in self.numbers.get(words, ()):
            cited = self.sentences[number][1]
            if cited < marks:
                self.sentences[number] = (words, marks)
                self.exact[words] = [marks if m == cited else m for m in self.exact[words]]
                return number
        return None

    def same_words(self, words: frozenset[str]) -> int | None:
        """The latest earlier sentence of exactly `words`, if any."""
        numbers = self.numbers.get(words)
        return numbers[-1] if numbers else None

    def replace_marks(self, number: int, marks: frozenset[int]) -> None:
        """Sentence `number` now cites `marks` (a repeat was folded into it)."""
        words, cited = self.sentences[number]
        self.sentences[number] = (words, marks)
        exact = self.exact[words]
        exact[exact.index(cited)] = marks

    def repeats(self, words: frozenset[str], marks: frozenset[int]) -> bool:
        """Whether an earlier sentence holds `overlap` of `words` and cites all of `marks`."""
        if any(marks <= cited for cited in self.exact.get(words, ())):
            return True
        need = self.overlap * len(words)
        # An earlier sentence sharing `need` of the terms shares at least one of any
        # len(words) - need + 1 of them: look only at the rarest.
        spare = len(words) - math.ceil(need) + 1
        rarest = sorted(words, key=lambda w: len(self.by_term.get(w, ())))[:spare]
        candidates = sorted(
            {n for w in rarest for n in self.by_term.get(w, ())[-self.CANDIDATES :]}
        )
        for number in reversed(candidates[-self.CANDIDATES :]):
            earlier, cited = self.sentences[number]
            if len(words & earlier) >= need and marks <= cited:
                return True
        return False


DANGLING = frozenset(
    "a an the to of for with by in on at from into and or but nor if that which who as than "
    "is are was were be can will would should could may must you your it its this these "
    "using such when while whether".split()
)
"""Words a sentence does not end on: one that does was cut off ("… you can use the")."""
LEAD_IN_ENDS = DANGLING | frozenset("use run call type write do add enter execute so like".split())
"""Last words of a sentence that cannot end without the block it introduces ("… you can
use:", "This is how you can do it:"); "… as follows:" can ("You configure the typography
section as follows." still says where)."""
_FINISHED = ".!?:;)]}|\"'`*…"
_LEAD_IN_TERMS = 4
"""At most this many content terms in a last lead-in that says nothing without its block
("For example, you can define a command like this:"); a longer one says something
("… their async cousins, that simply prefix the name with an a:") and stays. One with no
content term at all ("And what it does:", copied from Click's docs) goes whatever its
last word."""


def drop_unfinished(text: str) -> tuple[str, bool]:
    """Resolved `text` without a last sentence the writer broke off, and whether one went.

    A model that reaches its token budget stops mid-sentence ("… explicit `Request`
    instances [4]. If you"). The last sentence, when something comes before it, is cut off
    when it has no closing punctuation and either ends on a word no sentence ends on
    (`DANGLING`) or has fewer than four words, or when it ends in a colon on a word that
    needs the block it introduces, or on a promise of one (`_PROMISE`: "You can install it
    by typing the following command from the command line:", the embedded model's last
    sentence), which never came, and says little else ("This is how you can do it:",
    `LEAD_IN_ENDS`; "… to a specific string:" still says something); so
    is the one it then leaves last, when it is such a fragment too (a heading copied
    without its text, "Session Interface [1-3]", above a sentence broken off). List items
    (which need no full stop) and code stay as they are.
    """
    spans = _statements(text)
    kept, stop = len(spans), len(text)  # the statements kept, and where the text ends
    while kept >= 2 and not text[spans[kept - 1][1] : stop].strip():
        start, end = spans[kept - 1]
        if not _broken_off(text[start:end]):
            break
        kept, stop = kept - 1, start
    if kept == len(spans):
        return text, False
    return _without_trailing_spaces(text[:stop]).rstrip(), True


def _broken_off(statement: str) -> bool:
    """Whether a last statement was broken off (see `drop_unfinished`)."""
    core = MARKS.sub(" ", statement).rstrip()
    words = core.split()
    if not words or ITEM_MARK.match(core):
        return False
    last = re.sub(r"\W", "", words[-1]).lower()
    if core.endswith(":"):  # "… do it:", and no block came
        said = len(content_terms(core))
        promise = _PROMISE.search(core)
        before = len(content_terms(core[: promise.start()])) if promise else said
        return said == 0 or (
            (last in LEAD_IN_ENDS or promise is not None) and before <= _LEAD_IN_TERMS
        )
    if core[-1] in _FINISHED:
        return False
    return len(words) < 4 or last in DANGLING


_PROMISE = re.compile(
    r"\b(?:the\s+following(?:\s+[\w-]+){0,6}|as\s+follows|like\s+(?:this|so)|below)\s*:$",
    re.I,
)
"""The end of a lead-in that promises a block: "… you can use the following code:", "… by
typing the following command from the command line:"."""
_BLOCK_LINE = re.compile(r"(?:[ \t]{4}|\t|[ \t]*(?:```|~~~|\||>|" + LIST_MARKER + r"[ \t]))")
"""A line that opens a block a lead-in may introduce: code, an indented block, a table, a
quotation or a list."""
_COLON_END = re.compile(r":((?:\s*\[[\d,\s\-–]+\])*)\s*$")
_BARE = 2
"""At most this many content terms in a lead-in that is no statement without its block
("And from the command line:", copied from Click's docs; "The options are:")."""


def close_lead_ins(text: str) -> tuple[str, int]:
    """Resolved `text` with each lead-in that introduces nothing closed or dropped; how many.

    A statement ending in a colon before the answer goes on in prose (a new paragraph, or
    the same line) introduces nothing: "We can also combine several conditions: [3]" ends
    with a full stop instead ("… several conditions [3]."). One that says nothing without
    its block goes (`_broken_off`, or two content words at most: "And from the command
    line:"), and so does one that says little before the block it promises ("The
    available mount points include the following: [3]"); one that says more before its
    promise ("… streamline the dynamic plugin build process, offering the following
    capabilities") is closed too. A last statement is `drop_unfinished`'s to judge; a
    colon before code, a list, a table or a quotation stays.
    """
    spans = _statements(text)
    pieces: list[str] = []
    position = changed = 0
    for start, end in spans[:-1]:
        statement = text[start:end]
        colon = _COLON_END.search(statement)
        if colon is None or _introduces_block(text, end):
            continue
        pieces.append(text[position:start])
        core = MARKS.sub(" ", statement).rstrip()
        promise = _PROMISE.search(core)
        says = len(content_terms(core[: promise.start()] if promise else core))
        if not (_broken_off(statement) or says <= (_LEAD_IN_TERMS if promise else _BARE)):
            pieces.append(statement[: colon.start()].rstrip() + colon.group(1) + ".")
        position, changed = end, changed + 1
    if not changed:
        return text, 0
    pieces.append(text[position:])
    return _without_trailing_spaces("".join(pieces)).strip(), changed


def drop_stubs(text: str) -> tuple[str, int]:
    """Resolved `text` without the statements that stop at a lead-in's comma; how many.

    "For example, [1]." says nothing: the embedded model wrote it four times over zoo's
    docs, what it meant to show left out, and attribution cited each. A statement that is
    a lead-in, its comma and its markers alone (`_STUB`) goes; "Yes, [1].", a list's
    "- Linux," and "The default is 5, [1]." say something and stay.
    """
    spans = [(start, end) for start, end in _statements(text) if _STUB.fullmatch(text[start:end])]
    if not spans:
        return text, 0
    pieces: list[str] = []
    position = 0
    for start, end in spans:
        pieces.append(text[position:start])
        position = end + (text[end : end + 1] == " ")  # the space before the next sentence
    pieces.append(text[position:])
    return single_blank_lines(_without_trailing_spaces("".join(pieces))).strip(), len(spans)


_STUB = re.compile(
    r"(?i:for (?:example|instance)|e\.g\.|as an example|in addition|additionally|also|"
    r"furthermore|moreover|similarly|likewise|here|then|finally|specifically|in particular),"
    r"(?:\s*\[[\d,\s\-–]+\])+\s*[.!]?"
)
"""A lead-in, its comma and citation markers, and nothing else ("For example, [1].")."""


def _introduces_block(text: str, end: int) -> bool:
    """Whether a block (`_BLOCK_LINE`) opens on a line of its own after `text[:end]`."""
    found = NOT_SPACE.search(text, end)
    if found is None:
        return True  # nothing follows: the last statement, not judged here
    line_end = text.rfind("\n", end, found.start())
    if line_end < 0:
        return False  # the same line goes on
    return _BLOCK_LINE.match(text, line_end + 1) is not None


def drop_pointers(text: str) -> tuple[str, int]:
    """Resolved `text` without sentences that only point at a source; how many went.

    "This is stated in [1] and [2]." or "See [2]." states nothing a reader could check
    (`is_pointer`). When nothing else was said, the text left is empty: nothing to answer
    with.
    """
    pieces: list[str] = []
    position = 0
    dropped = 0
    blocks = fenced_blocks(text)
    starts = {block_start for block_start, _ in blocks}
    for start, end in outside_fences(text, sentence_spans(text), blocks):
        if is_pointer(text[start:end].strip()) and not introduces_code(text, end, starts):
            pieces.append(text[position:start].rstrip(" \t"))
            position = end
            dropped += 1
    if not dropped:
        return text, 0
    pieces.append(text[position:].lstrip(" \t"))
    kept = _without_trailing_spaces(" ".join(p for p in pieces if p)).strip()
    return (kept if has_words(kept) else ""), dropped
