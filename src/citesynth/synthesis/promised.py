"""Blocks a written answer promises: a sentence that introduces code or a list shows it.

A model quotes "To include the optional HTTP/2 support, use:" from its source and stops
there: evidence selection gives it prose only, so it never saw the `pip install` line
below that sentence, and the answer promises what it does not show. When a paragraph of an
answer ends with a sentence ending in a colon (its citation before or after the colon) and
no code block or list follows, the sentence is looked up in the sources it cites, then in
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
from bisect import bisect_right
from collections.abc import Sequence
from difflib import SequenceMatcher

from citesynth.citations.resolve import cited_numbers
from citesynth.ingest.blocks import LIST_MARKER, paragraphs
from citesynth.ingest.sentences import fenced_blocks, prose_sentences, sentence_spans
from citesynth.synthesis.extractive import (
    IncludedFiles,
    included_block,
    included_files,
    shown_block,
)
from citesynth.synthesis.introduced import Introduced, introduced
from citesynth.synthesis.markup import strip_markup
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
    """`text` with the block after each paragraph-ending sentence that promises one.

    `text` is a draft's, its markers canonical (`[3]`, `[1,2]`).
    """
    by_number = {source.number: source for source in sources}
    files = included_files(sources)
    fences = fenced_blocks(text)
    shown: list[tuple[int, str]] = []  # (where to insert, the block and any marker it adds)
    sentences: dict[int, list[tuple[int, int]]] = {}  # each cited chunk's, read once
    lookups = 0
    for paragraph in paragraphs(text):
        if len(shown) >= MAX_BLOCKS or lookups >= MAX_LOOKUPS:
            break
        start, end = paragraph.start, paragraph.end
        if _inside(fences, start) or _OPENS_BLOCK.match(text, end):
            continue  # code itself, or a block already shown after it
        line = text[start:end].rsplit("\n", 1)[-1]
        written = plain(line)
        if not written.endswith(":") or written.endswith("::"):
            continue
        own = sentence_spans(written)
        sentence = written[own[-1][0] : own[-1][1]] if own else written
        cited = [n for n in cited_numbers(line) if n in by_number]
        lookups += 1
        for number in dict.fromkeys([*cited, *by_number]):
            source = by_number[number]
            if number not in sentences:
                sentences[number] = prose_sentences(source.chunk.text)
            block, lender = _lent(sentence, source, sentences[number], files)
            if block is not None:
                # a source the sentence did not cite: the sentence is its, and cites it too;
                # and so is the file its source includes there, whose code is shown
                uncited = [n for n in dict.fromkeys((number, lender.number)) if n not in cited]
                marker = f" [{','.join(map(str, uncited))}]" if uncited else ""
                shown.append((end, f"{marker}\n\n{shown_block(block, str(lender.number))}"))
                break
    for at, added in reversed(shown):
        text = f"{text[:at]}{added}{text[at:]}"
    return text


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
