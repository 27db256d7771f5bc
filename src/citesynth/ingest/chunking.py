"""Chunking: pack a document's blocks into retrieval-sized chunks with exact provenance.

The rules, in order of strength:

1. A chunk never spans two PDF pages.
2. A new section (heading, definition) starts a new chunk, unless the chunk so far holds
   less than a quarter of the target: then small sections share a chunk, and the chunk's
   heading path is what their paths have in common.
3. A heading, and a paragraph that introduces what follows it (it ends in ":", as in "… as
   shown in the following example:", or stands right above a reStructuredText directive),
   stay with the text after them: a full chunk never ends with one when it fits beside
   that text in the next chunk; an introduction may take that chunk a quarter past the
   target (`_room`).
4. A chunk holds at most `target_tokens` (estimated) tokens, but for rule 3. An oversized
   block is cut between sentences (prose), lines (code, tables) or, for a run-on sentence,
   words.
   Chunks cut for size overlap by whole sentences up to `overlap_tokens`.

Every chunk is `document.text[char_start:char_end]`, trimmed of outer whitespace, and every
non-whitespace character of the document lands in at least one chunk.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from itertools import pairwise

from citesynth.analysis import estimate_tokens
from citesynth.ingest.blocks import GRID_BORDER_LINE, Block, BlockKind, paragraphs, trimmed
from citesynth.ingest.lines import LineMap
from citesynth.ingest.loaders import Parsed
from citesynth.ingest.rst import described_objects
from citesynth.ingest.sentences import CONSOLE_LINE, sentence_spans
from citesynth.ingest.text import content_hash
from citesynth.types import Chunk, ChunkId, DocumentKind

CHUNKER_VERSION = 32
"""Bump when chunk boundaries, titles or texts change, so that existing indexes re-chunk their
files (8: HTML writes a power after a number as "2^31" and leaves out "¶" permalinks; 9: a
reStructuredText literal block with blank lines in it is one block, and the paragraph
above a directive stays with it; 10: an introduction stays with its example up to a quarter
past the target; 11: and so do the headings above it; 12: a MyST directive fenced as prose,
```{note}, is a paragraph, and each reStructuredText field a sentence; 13: a grid table is
a table, cut between its rows, and a Markdown heading's attribute list is no part of its
title; 14: a file a chunk includes, ".. literalinclude:: snippets/x.py", is a reference
of it; 15: a chunk that starts inside a Sphinx object description has the described
objects' names at the end of its heading path; 16: a PDF page's running headers and
footers are left out, and its numbered headings open sections; 17: a paper's headings
too: "1. Introduction", "1 INTRODUCTION" after its keywords, "REFERENCES", and an accent
set apart from its letter, "R´esum´es", is put on it; 18: a journal's numbers written
with a stop, "2.6.", "A.1.", a heading at a page's foot, a title wrapped after "of", and a
console line before a new sentence ends the one it closes, as a question mark or a
display's equation number ending a line ends its sentence; 19: a run-on span of lines, an
example set in the paragraph explaining it, is cut between its lines, each console line
opening a piece, a sentence opening its line after an example's output is a sentence of its
own, and a single letter's stop before "We", "The", … ends its sentence, "in R. We"; a PDF's
letters read as dingbats are read by their glyphs' codes, a title broken by a hyphen is
whole, an abstract's heading may stand alone, and a short paper's title with the page's
number heads its page; 20: a text file written in reStructuredText or Markdown, Django's
`.txt` pages, is read as that, and a row of marks round a box is no title; 21: a
reStructuredText title set in from its overline, Celery's " What's new in Celery 5.3", is a
title; 22: a chunk's overlap never opens with what an introduction left behind introduces,
a directive's body without its first line; 23: an mkdocs container's line nested in another,
`    === "Complex"`, is a span of its own, not the start of the sentence below it; 24: the
body of an autodoc directive, `.. autoclass:: scrapy.Request` over its parameters and
attributes, is prose, not code; 25: an indented paragraph's short first line is no title
again, as before 23; 26: a literal block a list item opens ends where the item's text goes
on, indented past its mark: Tornado's "1. … instead::" over code, then "When this option
is available, …"; 27: the last item's mark counts in a list without blank lines between
its items, "9. a\n10. Run::"; 28: no sentence ends inside inline code, "`… out of memory
... Killed process (gunicorn.md)`", a sentence may open with a name in lower case, "…
method. aiohttp has …", and a heading's attribute list may name a release, "## {:
#hatchling-v1.32.0 }"; 29: the body of an autodoc directive, ".. autoattribute::
csrf_field_name", is headed by its object's name; 30: a chunk's overlap never opens inside a
code block cut for size, on its closing fence; 31: a code block cut for size keeps a
comment with the code right below it; 32: a minified or generated source or data file, one
whose lines run past a thousand characters on average, is skipped, not chunked)."""


@dataclass(frozen=True, slots=True)
class _Unit:
    start: int
    end: int
    tokens: int
    section: int
    is_heading: bool
    page: int | None
    introduces: bool = False
    """Text that introduces the next unit (an example, a list): see `_introduces`."""
    inside: bool = False
    """A line of a code block cut for size, after its first: see `_tail`."""


def split(parsed: Parsed, *, target_tokens: int = 200, overlap_tokens: int = 30) -> list[Chunk]:
    """Cut a parsed document into chunks (see the module docstring for the rules)."""
    if target_tokens < 16:
        raise ValueError("target_tokens must be at least 16")
    document = parsed.document
    text = document.text
    blocks = _covering(text, parsed.blocks)
    sections, units = _units(text, blocks, target_tokens)
    spans = _pack(units, target_tokens, min(overlap_tokens, target_tokens // 2))
    lines = LineMap(text, document.anchors)
    described = described_objects(text) if document.kind is DocumentKind.RST else ()
    chunks: list[Chunk] = []
    for group in spans:
        start, end = trimmed(text, group[0].start, group[-1].end)
        start_line, page = lines.locate(start)
        end_line, _ = lines.locate(end - 1)
        chunk_id = content_hash(
            "chunk", document.id, document.path, document.record_id or "", str(start), str(end)
        )
        chunks.append(
            Chunk(
                id=ChunkId("c:" + chunk_id.removeprefix("b2:")[:24]),
                document_id=document.id,
                path=document.path,
                title=document.title,
                heading_path=_within(
                    _common_prefix([sections[unit.section] for unit in group]), described, start
                ),
                text=text[start:end],
                char_start=start,
                char_end=end,
                start_line=start_line,
                end_line=end_line,
                page=page,
                record_id=document.record_id,
            )
        )
    return chunks


def _covering(text: str, blocks: tuple[Block, ...]) -> list[Block]:
    """Blocks in order, without overlaps, with paragraphs added for any text they missed."""
    ordered = sorted(blocks, key=lambda block: (block.start, -block.end))
    result: list[Block] = []
    position = 0
    for block in ordered:
        if block.end <= position:
            continue
        start = max(block.start, position)
        if text[position:start].strip():
            page = result[-1].page if result else block.page
            result.extend(paragraphs(text, position, start, page=page))
        if start != block.start:
            block = Block(start, block.end, block.kind, block.heading, block.level, block.page)
        result.append(block)
        position = block.end
    if text[position:].strip():
        result.extend(
            paragraphs(text, position, len(text), page=result[-1].page if result else None)
        )
    return result


def _units(
    text: str, blocks: list[Block], target: int
) -> tuple[list[tuple[str, ...]], list[_Unit]]:
    """Cut blocks into units no larger than `target` tokens; track section paths."""
    sections: list[tuple[str, ...]] = [()]
    stack: list[tuple[int, str]] = []
    units: list[_Unit] = []
    for block in blocks:
        if block.heading is not None:
            while stack and stack[-1][0] >= block.level:
                stack.pop()
            stack.append((block.level, block.heading))
            sections.append(tuple(title for _, title in stack))
        section = len(sections) - 1
        is_heading = block.kind is BlockKind.HEADING
        code = block.kind is BlockKind.CODE
        for start, end in _pieces(text, block, target):
            tokens = estimate_tokens(text[start:end])
            introduces = not is_heading and _introduces(text[start:end].strip())
            inside = code and start > block.start
            units.append(
                _Unit(start, end, tokens, section, is_heading, block.page, introduces, inside)
            )
    return sections, _leading_into_directives(text, units)


def _leading_into_directives(text: str, units: list[_Unit]) -> list[_Unit]:
    """`units` with a paragraph right above a directive's first line marked introducing.

    reStructuredText writes "Then we create a custom `Schema` that uses our options class."
    above `.. code-block:: python` without a colon: the sentence says what the example
    shows, and a chunk ending with it leaves the example for the next chunk.
    """
    marked = list(units)
    for index in range(len(units) - 1):
        unit, below = units[index], units[index + 1]
        if unit.is_heading or unit.introduces or unit.section != below.section:
            continue
        if _DIRECTIVE_HEAD.fullmatch(text[below.start : below.end].strip()):
            marked[index] = replace(unit, introduces=True)
    return marked


_DIRECTIVE_HEAD = re.compile(r"\.\.[ \t]+[\w.+:-]+::[^\n]*(?:\n[ \t]+:[^\n]*)*")
"""A reStructuredText directive's first line and options, its body left for what follows."""


def _introduces(text: str) -> bool:
    """Whether a unit introduces the next: "… as follows:", or `.. code-block:: python`."""
    return text.endswith(":") or _DIRECTIVE_HEAD.fullmatch(text) is not None


def _pieces(text: str, block: Block, target: int) -> list[tuple[int, int]]:
    if estimate_tokens(text[block.start : block.end]) <= target:
        return [(block.start, block.end)]
    if block.kind is BlockKind.TABLE and GRID_BORDER_LINE.match(text, block.start):
        spans = _grid_rows(_line_spans(text, block.start, block.end), text)
    elif block.kind is BlockKind.CODE:
        spans = _captioned_lines(text, _line_spans(text, block.start, block.end), target)
    elif block.kind is BlockKind.TABLE:
        spans = _line_spans(text, block.start, block.end)
    else:
        spans = sentence_spans(text, block.start, block.end)
    pieces: list[tuple[int, int]] = []
    for start, end in spans:
        if estimate_tokens(text[start:end]) <= target:
            pieces.append((start, end))
        elif "\n" in text[start:end]:
            pieces.extend(_lines_of(text, start, end, target))
        else:
            pieces.extend(_word_spans(text, start, end, target))
    return pieces


_COMMENT_LINE = re.compile(r"(?:>>>[ \t]+)?(?:#|//)(?:[ \t]|$)")
"""A code line (trimmed) that is a comment: `# …`, `// …`, a doctest's `>>> # …`."""


def _captioned_lines(text: str, spans: list[tuple[int, int]], target: int) -> list[tuple[int, int]]:
    """A code block's lines, a comment kept with the code right below it as one span.

    packaging's specifiers page, a doctest cut for size, ended a chunk on ">>> # We can
    check if a specifier set can never be satisfied" and opened the next with the
    `is_unsatisfiable()` calls it captions: neither chunk said what the code was for. A
    comment (a run of comment lines) takes the lines below it, up to a blank line or the
    next comment, while the span stays within `target` tokens.
    """
    kept: list[tuple[int, int]] = []
    index = 0
    while index < len(spans):
        start, end = spans[index]
        index += 1
        if not _COMMENT_LINE.match(text, start, end):
            kept.append((start, end))
            continue
        commented = False
        while index < len(spans):
            below_start, below_end = spans[index]
            comment = _COMMENT_LINE.match(text, below_start, below_end) is not None
            if (
                (commented and comment)
                or text.count("\n", end, below_start) > 1
                or estimate_tokens(text[start:below_end]) > target
            ):
                break
            commented = commented or not comment
            end = below_end
            index += 1
        kept.append((start, end))
    return kept


def _lines_of(text: str, start: int, end: int, target: int) -> list[tuple[int, int]]:
    """A table's row, or a run-on "sentence" of lines, cut between its lines.

    A PDF sets an example and its output in the paragraph that explains it: "… only be used
    if the user knows what she is doing, / > xNew <- seq(…) / > plot(x, y) …" (lme4's paper)
    ran on for 221 tokens and was cut between words, inside its statements and mid-sentence.
    Each console line opens a piece; a piece still too long is cut between its lines.
    """
    openings = [m.start() for m in CONSOLE_LINE.finditer(text, start, end)]
    bounds = [start, *(o for o in openings if o > start), end]
    pieces: list[tuple[int, int]] = []
    for piece_start, piece_end in pairwise(bounds):
        piece = trimmed(text, piece_start, piece_end)
        if piece[1] <= piece[0]:
            continue
        if estimate_tokens(text[piece[0] : piece[1]]) <= target:
            pieces.append(piece)
        else:
            pieces.extend(_pieces(text, Block(piece[0], piece[1], BlockKind.CODE), target))
    return pieces


def _grid_rows(lines: list[tuple[int, int]], text: str) -> list[tuple[int, int]]:
    """A grid table's lines as rows: each row's lines with the border below them.

    Cut between lines, a chunk could end inside a row of a cell written on two lines, and
    its borders (a token per dash, as counted) filled chunks of a border each.
    """
    rows: list[tuple[int, int]] = []
    start: int | None = None
    for line_start, line_end in lines:
        start = line_start if start is None else start
        border = GRID_BORDER_LINE.fullmatch(text, line_start, line_end) is not None
        if border and line_start != start:
            rows.append((start, line_end))
            start = None
    if start is not None:
        rows.append((start, lines[-1][1]))
    return rows


def _line_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    position = start
    while position < end:
        newline = text.find("\n", position, end)
        stop = end if newline == -1 else newline
        piece = trimmed(text, position, stop)
        if piece[1] > piece[0]:
            spans.append(piece)
        position = stop + 1
    return spans


_WORD = re.compile(r"\S+")


def _word_spans(text: str, start: int, end: int, target: int) -> list[tuple[int, int]]:
    """Cut a run-on span between words (or inside a giant word) into pieces of ≤ target."""
    pieces: list[tuple[int, int]] = []
    piece_start: int | None = None
    piece_end = start
    tokens = 0
    for match in _WORD.finditer(text, start, end):
        word_tokens = estimate_tokens(match.group())
        if word_tokens > target:
            if piece_start is not None:
                pieces.append((piece_start, piece_end))
                piece_start, tokens = None, 0
            step = max(1, target * 4)
            pieces.extend(
                (s, min(s + step, match.end())) for s in range(match.start(), match.end(), step)
            )
            continue
        if piece_start is not None and tokens + word_tokens > target:
            pieces.append((piece_start, piece_end))
            piece_start, tokens = None, 0
        if piece_start is None:
            piece_start = match.start()
        piece_end = match.end()
        tokens += word_tokens
    if piece_start is not None:
        pieces.append((piece_start, piece_end))
    return pieces


def _pack(units: list[_Unit], target: int, overlap: int) -> list[list[_Unit]]:
    """Group units into chunks in one pass; each step costs at most one chunk's units."""
    groups: list[list[_Unit]] = []
    current: list[_Unit] = []
    size = 0  # tokens in `current`
    content = 0  # tokens in `current` outside headings
    small = target // 4
    for unit in units:
        if current:
            new_page = unit.page != current[-1].page
            new_section = unit.section != current[-1].section and content >= small
            if new_page or new_section:
                groups.append(current)
                current, size, content = [], 0, 0
            elif size + unit.tokens > target:
                current = _carry(current, unit, target, overlap, groups)
                size = sum(u.tokens for u in current)
                content = sum(u.tokens for u in current if not u.is_heading)
        current.append(unit)
        size += unit.tokens
        content += 0 if unit.is_heading else unit.tokens
    if current:
        groups.append(current)
    return groups


def _carry(
    current: list[_Unit], unit: _Unit, target: int, overlap: int, groups: list[list[_Unit]]
) -> list[_Unit]:
    """Close the full chunk `current`; return what the next chunk starts with before `unit`.

    A heading belongs with the text that follows it, not at the end of a full chunk: when
    `unit` is text, the trailing headings that fit beside it move on, and so does a trailing
    introducing paragraph ("… as follows:", or a run of them: "… like this:" above
    `.. code-block::`), with the headings above it. A run of headings with no text between
    them stays where it is and fills chunks of its own, instead of being carried along (and
    growing one chunk without bound).
    """
    carried = len(current)
    used = unit.tokens
    while (
        not unit.is_heading
        and carried > 0
        and (
            current[carried - 1].is_heading
            or (current[carried - 1].introduces and all(u.introduces for u in current[carried:]))
        )
        and used + current[carried - 1].tokens <= _room(current[carried - 1 :], target)
    ):
        carried -= 1
        used += current[carried].tokens
    if carried == 0:
        return current  # all of it introduces `unit` and fits beside it: one chunk
    headings = current[carried:]
    body = current[:carried]
    groups.append(body)
    return _tail(body, overlap, target - used) + headings


def _room(carried: list[_Unit], target: int) -> int:
    """How many tokens a chunk may hold when `carried` moves on with the text after it.

    A quarter more than the target when an introduction is among them, and so for the
    headings above it too (a heading left behind would end a chunk on its own): "If you do
    want the generality, ... update an existing `TypeChecker`" read apart from the example
    below it (141 tokens of code) told neither the writers nor the answerability gate what
    the example does.
    """
    if any(unit.introduces for unit in carried):
        return target + target // 4
    return target


def _tail(units: list[_Unit], overlap: int, room: int) -> list[_Unit]:
    """The trailing content units that fit in `overlap` tokens (and in the room left).

    A tail never opens with what the unit left before it introduces (an introduction
    opening it, a directive's first line, is kept): the body of
    `.. code-block:: console` carried without its directive reads as an indented quote, and
    nox's "nox -r / nox --reuse-existing-virtualenvs / nox --reuse-venv=yes # preferred"
    came out of a chunk opening with it as one sentence of prose. Nor does it open inside a
    code block cut for size: cibuildwheel's chunk opening with the closing fence of the
    example above it ("```", then "Separate multiple values with a space.") read all its
    text after as code, and its notes were never quoted.
    """
    budget = min(overlap, room)
    tail: list[_Unit] = []
    used = 0
    for unit in reversed(units):
        if unit.is_heading or used + unit.tokens > budget:
            break
        tail.insert(0, unit)
        used += unit.tokens
    if len(tail) == len(units):
        return []  # never repeat a whole chunk
    while tail and (
        tail[0].inside or (not tail[0].introduces and units[len(units) - len(tail) - 1].introduces)
    ):
        tail.pop(0)
    return tail


def _within(
    path: tuple[str, ...], described: tuple[tuple[int, int, str], ...], start: int
) -> tuple[str, ...]:
    """`path` with the names of the object descriptions whose bodies hold offset `start`.

    A hand-written API reference describes a class under ".. class:: BaseConnector(…)"
    and its parameters in fields below it; a chunk cut inside that body never names the
    class ("What does the `origin` parameter of `ws_connect` do?" retrieved other chunks,
    its field's chunk holding "origin" alone). Outermost first, as `rst.described_objects`
    gives them; a name the path ends with already is not repeated.
    """
    for body_start, body_end, name in described:
        if body_start <= start < body_end and (not path or path[-1] != name):
            path = (*path, name)
    return path


def _common_prefix(paths: list[tuple[str, ...]]) -> tuple[str, ...]:
    prefix = paths[0]
    for path in paths[1:]:
        length = 0
        for a, b in zip(prefix, path, strict=False):
            if a != b:
                break
            length += 1
        prefix = prefix[:length]
    return prefix
