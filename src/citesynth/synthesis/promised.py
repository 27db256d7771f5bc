"""Blocks a written answer promises: a sentence that introduces code or a list shows it.

A model quotes "To include the optional HTTP/2 support, use:" from its source and stops
there: evidence selection gives it prose only, so it never saw the `pip install` line
below that sentence, and the answer promises what it does not show. When a paragraph of an
answer ends with a sentence ending in a colon (its citation before or after the colon) and
no code block or list follows, or a clause inside a paragraph ends in a colon before the
next sentence ("Install with pip: Or, to include …"; the text after it then goes on in a
paragraph of its own), the sentence is looked up in the sources it cites, then in
the others: a prose sentence of a chunk that reads the same (at least `SAME` of its words,
in order, `difflib` ratio) and introduces a block (`introduced`; or includes a file that
is one of the sources below it, `.. literalinclude::`, whose code is then shown and whose
source is cited too) lends that block, shown as
the extractive writer shows one (`extractive.shown_block`); a source the sentence did not
cite is cited with it, since the sentence is that source's. At most `MAX_BLOCKS` an
answer. Verification then checks the block like any code an answer shows:
its lines in a row in a source its sentence cites.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from citesynth.citations.resolve import cited_numbers
from citesynth.ingest.blocks import LIST_MARKER, paragraphs
from citesynth.ingest.fences import fenced_blocks
from citesynth.ingest.sentences import prose_sentences, sentence_spans
from citesynth.synthesis.included_code import IncludedFiles, included_block, included_files
from citesynth.synthesis.introduced import Introduced, introduced
from citesynth.synthesis.markup import strip_markup
from citesynth.synthesis.quoted import shown_block
from citesynth.synthesis.sources import Source
from citesynth.verify.claims import plain

SAME = 0.8
"""The `difflib` ratio of their word sequences at which an answer's sentence reads as the
source's ("To include the optional HTTP/2 support, use:" against "Or, to include the
optional HTTP/2 support, use:" is 0.94; the brotli sentence below it 0.67)."""
MAX_BLOCKS = 3
"""How many promised blocks one answer shows at most (as the extractive writer)."""
MAX_LOOKUPS = 10
"""How many promising sentences of one answer are looked up at most (a looping model's
100,000 characters of "use:" lines cost no more than ten)."""

_PARAGRAPH_END = re.compile(r"\n[ \t]*\n")
_OPENS_BLOCK = re.compile(r"\s*(?:`{3,}|~{3,}|" + LIST_MARKER + r"[ \t]+\S)")
_WORD = re.compile(r"\w+")


def show_promised(text: str, sources: Sequence[Source]) -> str:
    """`text` with the block after each sentence that promises one (see the module).

    `text` is a draft's, its markers canonical (`[3]`, `[1,2]`). A block is shown once: a
    sentence promising one already shown repeats its promise and goes (the embedded model
    wrote Django's "… put the following in your settings:" three times).
    """
    by_number = {source.number: source for source in sources}
    files = included_files(sources)
    fences = fenced_blocks(text)
    shown: list[tuple[int, int, str]] = []  # (where to insert, where text resumes, what)
    sentences: dict[int, list[tuple[int, int]]] = {}  # each cited chunk's, read once
    lent: set[tuple[int, int]] = set()  # (source number, where in it) of each block shown
    for lookups, promise in enumerate(_promises(text, fences)):
        if len(lent) >= MAX_BLOCKS or lookups >= MAX_LOOKUPS:
            break
        cited = [n for n in cited_numbers(promise.said) if n in by_number]
        sentence = plain(promise.said)
        for number in dict.fromkeys([*cited, *by_number]):
            source = by_number[number]
            if number not in sentences:
                sentences[number] = prose_sentences(source.chunk.text, min_words=MIN_WORDS)
            block, lender = _lent(sentence, source, sentences[number], files)
            if block is not None and (lender.number, block.start) in lent:
                shown.append((promise.start, promise.resume, ""))  # said twice: it goes
                break
            if block is not None:
                lent.add((lender.number, block.start))
                # a source the sentence did not cite: the sentence is its, and cites it too;
                # and so is the file its source includes there, whose code is shown
                uncited = [n for n in dict.fromkeys((number, lender.number)) if n not in cited]
                marker = f" [{','.join(map(str, uncited))}]" if uncited else ""
                resume = _past_items(text, promise, block)
                after = "\n\n" if resume < len(text) and promise.goes_on else ""
                added = f"{marker}\n\n{shown_block(block, str(lender.number))}{after}"
                shown.append((promise.end, resume, added))
                break
    for at, resume, added in reversed(shown):
        text = f"{text[:at]}{added}{text[resume:]}"
    return text


@dataclass(frozen=True, slots=True)
class _Promise:
    """A sentence of an answer that ends in a colon with no block after it."""

    said: str
    """The sentence as written, markers and all ("Or, to include HTTP/2 support, use: [3]")."""
    start: int
    """Where it starts."""
    end: int
    """Where its block goes: after the colon and its markers."""
    resume: int
    """Where the text after the block resumes (`end` when the paragraph ends there)."""
    goes_on: bool
    """Whether the paragraph goes on after it (the text resumes in a paragraph of its own)."""


def _promises(text: str, fences: Sequence[tuple[int, int]]) -> Iterator[_Promise]:
    """The sentences of `text` promising a block they do not show, in order.

    One that ends its paragraph, with no block or list after it; and one inside a paragraph,
    its colon followed by a capital that opens the next sentence: the embedded model ran
    HTTPX's install lines together ("Install with pip: Or, to include the optional HTTP/2
    support, use: To include …"), its evidence having left their commands out. A clause
    inside a paragraph needs `MIN_WORDS`: "Note: The …" promises nothing, nor does one of a
    paragraph a block follows: its colons lead into that block (the Developer Hub's "… by
    using one of the following installers: The Red Hat Developer Hub Operator:" over the
    Operator's list, whose label had gone once the list was lent to the first colon and
    shown twice). Each colon is
    placed by bisection (its sentence, its line, the backticks before it on that line), so
    a paragraph of a hundred thousand colons is read once.
    """
    newlines = [m.start() for m in re.finditer("\n", text)]
    ticks = [m.start() for m in re.finditer("`", text)]
    for paragraph in paragraphs(text):
        start, end = paragraph.start, paragraph.end
        if _inside(fences, start):
            continue  # code itself
        starts = [first for first, _ in sentence_spans(text, start, end)]
        opening = start
        followed = _OPENS_BLOCK.match(text, end) is not None
        for colon in () if followed else _INSIDE.finditer(text, start, end):
            at = colon.start()
            line = bisect_left(newlines, at)
            line_start = newlines[line - 1] + 1 if line else 0
            sentence = bisect_right(starts, at)
            clause_start = max(opening, line_start, starts[sentence - 1] if sentence else start)
            said = text[clause_start : colon.end("marks")]
            opening = colon.end()
            in_code = (bisect_left(ticks, at) - bisect_left(ticks, line_start)) % 2 == 1
            if not in_code and len(plain(said).split()) >= MIN_WORDS:
                yield _Promise(said, clause_start, colon.end("marks"), colon.end(), True)
        if followed:
            continue  # a block already shown after it
        last_start = max(start, text.rfind("\n", start, end) + 1)
        written = plain(text[last_start:end])
        if not written.endswith(":") or written.endswith("::"):
            continue
        first = max([last_start, opening, *(a for a, _ in sentence_spans(text, last_start, end))])
        yield _Promise(text[first:end], first, end, end, False)


MIN_WORDS = 3
"""The fewest words of a clause inside a paragraph that promises a block ("Install with
pip:"); "Note:" and "FileUploadHandler.chunk_size:" head what follows them."""
_INSIDE = re.compile(r"(?<!:):(?!:)(?P<marks>(?:[ \t]*\[[\d,\-–]+\])*)[ \t]+(?=[A-Z])")
"""A colon inside a paragraph, its markers after it, before a capital opening the next
sentence ("use: To include …", "this: [3] And what …")."""


def _past_items(text: str, promise: _Promise, block: Introduced) -> int:
    """Where the text after a promise resumes once its list is shown: past the items it ran.

    The extractive writer quotes a lead-in and its items as one sentence when they read as
    one (`candidates._runs`): Invoke's "… causes any ``run`` calls to: Act as if the
    ``echo`` option has been turned on, …; Skip actual subprocess invocation …; Return a
    dummy …". The list shown below the colon states those items: the rest of the paragraph,
    reading as the items (`SAME`), goes, or they had been said twice.
    """
    if not promise.goes_on or block.kind != "list":
        return promise.resume
    found = _PARAGRAPH_END.search(text, promise.resume)
    stop = len(text) if found is None else found.start()
    items = _words(" ".join(block.lines))
    said = _words(plain(text[promise.resume : stop]))
    same = SequenceMatcher(None, said, items, autojunk=False).ratio() >= SAME
    return stop if same else promise.resume


def _inside(blocks: Sequence[tuple[int, int]], at: int) -> bool:
    """Whether `at` lies inside one of `blocks` (sorted, not overlapping)."""
    index = bisect_right(blocks, (at, sys.maxsize)) - 1
    return index >= 0 and blocks[index][0] <= at < blocks[index][1]


def _lent(
    sentence: str,
    source: Source,
    spans: Sequence[tuple[int, int]],
    files: IncludedFiles,
) -> tuple[Introduced | None, Source]:
    """The block the source's own version of `sentence` introduces, and whose it is.

    `spans` are the chunk's prose sentences. The block is the chunk's own, or the code of
    a file it includes there when that file is one of the sources (`files`, by path).
    """
    chunk = source.chunk.text
    words = _words(sentence)
    for start, end in spans:
        theirs = _words(chunk[start:end])
        if SequenceMatcher(None, words, theirs, autojunk=False).ratio() >= SAME:
            block = introduced(chunk, start, end)
            if block is not None:
                return block, source
            code, lender = included_block(chunk, start, end, source, files)
            if code is not None and lender is not None:
                return code, lender
    return None, source


def _words(sentence: str) -> list[str]:
    return _WORD.findall(strip_markup(sentence).lower())
