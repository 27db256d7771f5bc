"""From a resolved answer to its citations, claims and supporting spans.

Each cited source becomes a `Citation` with its provenance, a Tavily-style record, and the
exact span of the source that best supports the sentences citing it: the source sentence
sharing the most terms with them, with its character offsets and line numbers in the
original file (`chunk.start_line` plus the line breaks before the span).
"""

from __future__ import annotations

import bisect
import html
import math
import re
from collections.abc import Collection, Mapping, Sequence

from citesynth.analysis import content_terms, terms, without_consensus
from citesynth.answers import Citation, Claim, EvidenceSpan, Support, TavilyRecord
from citesynth.citations.resolve import (
    NOT_SPACE,
    Resolved,
    cited_numbers,
    compact,
    factual_spans,
    introduces_code,
    is_pointer,
    says_not_found,
    shows_code,
)
from citesynth.ingest.blocks import LIST_MARKER
from citesynth.ingest.fences import (
    THEMATIC_BREAK,
    fenced_blocks,
    fenced_line_numbers,
    outside_code,
    outside_fences,
)
from citesynth.ingest.markdown import rendered_markup
from citesynth.ingest.sentences import prose_sentences, sentence_spans
from citesynth.passages import chunk_url
from citesynth.synthesis.sources import Source, provenance
from citesynth.types import Chunk
from citesynth.verify.claims import split_claims


def evidence_span(chunk: Chunk, claims: Sequence[str]) -> EvidenceSpan | None:
    """The sentence of `chunk` that shares the most terms with `claims` (None if nothing)."""
    wanted = set(terms(" ".join(claims)))
    best: tuple[float, int, int] | None = None
    for start, end in prose_sentences(chunk.text, min_words=3) or sentence_spans(chunk.text):
        words = set(terms(chunk.text[start:end]))
        if not words:
            continue
        score = len(wanted & words) / (len(words) ** 0.5)
        if best is None or score > best[0]:
            best = (score, start, end)
    if best is None or best[0] == 0:
        return None
    _, start, end = best
    first = chunk.start_line + chunk.text.count("\n", 0, start)
    return EvidenceSpan(
        char_start=chunk.char_start + start,
        char_end=chunk.char_start + end,
        start_line=first,
        end_line=first + chunk.text.count("\n", start, end),
        text=chunk.text[start:end],
    )


def claims_of(text: str) -> list[Claim]:
    """The answer's factual sentences with what each cites, and its code (unchecked).

    Code is a block, or the inline code of a sentence that only shows it (`shows_code`).
    """
    sentences = [
        (start, Claim(text=text[start:end], citations=cited_numbers(text[start:end])))
        for start, end in factual_spans(text)
        if not shows_code(text[start:end])
    ]
    code = [
        (c.start, Claim(text=c.text, citations=list(c.citations), kind="code"))
        for c in split_claims(text)
        if c.code
    ]
    return [claim for _, claim in sorted([*sentences, *code], key=lambda item: item[0])]


def citations(
    sources: Sequence[Source],
    resolved: Resolved,
    claims: Sequence[Claim],
    question: str,
    verified: Mapping[int, tuple[Support, EvidenceSpan | None]] | None = None,
) -> list[Citation]:
    """One citation per cited source, in order of first use.

    `verified` gives, per source number, the verifier's label and supporting span; without
    it the span is the sentence sharing the most terms with the claims, and support is
    `unchecked`.
    """
    by_number = {source.number: source for source in sources}
    found: list[Citation] = []
    for number in resolved.used:
        source = by_number[number]
        chunk = source.chunk
        supporting = [claim.text for claim in claims if number in claim.citations] or [question]
        label, span = (verified or {}).get(number, ("unchecked", None))
        span = span or evidence_span(chunk, supporting)
        snippet = " ".join((span.text if span else chunk.text[:300]).split())
        found.append(
            Citation(
                **provenance(chunk),
                number=number,
                snippet=snippet,
                relevance=round(source.hit.confidence, 4),
                multi_source=number in resolved.multi_source,
                support=label,
                evidence=span,
                record=TavilyRecord(
                    id=chunk.id,
                    title=chunk.title or chunk.path,
                    url=chunk_url(chunk),
                    content=chunk.text,
                    snippet=snippet,
                ),
            )
        )
    return found


MARKS = re.compile(r"\[[\d,\s\-–]+\]")
"""A citation marker group as written ("[1]", "[2, 4-6]")."""
_TRAILING_SPACE = re.compile(r"(?<![ \t])[ \t]++(?=\n|$)")
"""Spaces ending a line, matched from the run's start only: tried at each space of a run
50,000 long not followed by a line break, the plain pattern had taken 21 s."""
_DOCUMENT_NAME = r"(?:#{1,6}[ \t]+)?[\w./-]+\.(?:md|markdown|rst|txt|adoc|asciidoc|html?|pdf|jsonl)"
"""A line naming a document and nothing else, as the context's `=== docs/index.rst ===`
heads it ("Index.rst" above the sentences copied from it); a bold one is a title."""
# Lines a small model copies from the context's layout: `=== docs/a.md — Guide ===`,
# `[2: L10-24]`, `[2: L10-24] — Install`, `index.rst`.
_ECHOED_LAYOUT = re.compile(
    r"^[ \t]*(?:===[^\n]*===|\[\d+:[^\]\n]*\](?:[ \t]+—[^\n]*)?"
    rf"|{_DOCUMENT_NAME})[ \t]*(?:\n|$)",
    re.MULTILINE | re.I,
)
_ECHOED_HEADER = re.compile(r"[ \t]*\[\d+\][ \t]+(.*?)[ \t]*")
"""A line `[1] …`: an echoed source header when the rest is one (`heading`)."""
_OPENING_MARKER = re.compile(
    r"([ \t]*)(\[[\d,\-–]+\](?:[ \t]*\[[\d,\-–]+\])*)[ \t]+(?:[—–][ \t]+)?"
    r"(?=\w|`|\*|\"|“)"
)
"""A marker opening a line, as the context opens each source ("[1] Wild cavies are ..."),
or as its header's dash ("[1] — HTTPX requires Python 3.9+"); the sentence may open with
code, emphasis or a quotation ("[2] `defaultdicts` with arbitrary default factories …")."""
_DEFINITION_MARK = re.compile(
    r"^([ \t]*):(?:[ \t]+|[ \t]*$)|(?<=[.!?])([ \t]+):[ \t]+(?=[A-Z`*])", re.MULTILINE
)
"""The mark opening a definition of a MyST or Pandoc definition list, which a small model
copies without its term (": Checks the log entry's log level …", structlog), at a line's
start, alone on a line, or after a sentence it ran the definitions into ("… get silently
dropped. : Adds the log level …")."""


_BLANK_RUN = re.compile(r"\n[ \t]*(?:\n[ \t]*){2,}")
_GAP_MARK = re.compile(r"(?:(?<![ \t])[ \t]+)?(?<!\S)…(?!\S)[ \t]*")
"""A "…" standing alone between words, as evidence selection marks text left out."""
_GAP_LINE = re.compile(r"^ {0,3}…[ \t]*(?:\n|$)", re.MULTILINE)
_ITEM_MARK = re.compile(r"[ \t]*" + LIST_MARKER)


def strip_layout(text: str, headings: Collection[str] = ()) -> str:
    """`text` without echoed layout or runs of blank lines.

    Outside code blocks, lines that only repeat the context's document or source headers go
    (`[1] corpus.jsonl#p7 — Milli Vanilli` when `headings` holds what follows its number),
    and so do the evidence's gap marks ("…", `_without_gap_marks`) and a source header cut
    off at the end ("[5: L"); a marker opening a line as the context opens each source
    ("[1] …") closes that line's first sentence instead, and a line of markers joins the
    line it cites (`_marker_lines`); reStructuredText roles, link references and literal
    markers are written as a reader sees them (`rendered_rst`: ":func:`confirm`" ->
    "`confirm`", "uvloop_" -> "uvloop", "like this::" -> "like this:"), so are Markdown's reference
    links and inline attribute lists (`rendered_markdown`), and so is a Markdown
    page's character reference outside inline code (`_CHARACTER_REFERENCE`: Gunicorn's
    "`TTIN` &mdash; increase worker count by one" reads "`TTIN` — increase …"; not "&lt;",
    "&gt;" nor "&amp;"), and a definition as
    the definition list marks it (": Checks the level …") without its mark (`_DEFINITION_MARK`,
    as the extractive writer quotes one); no line ends in spaces (a
    sentence removed from the end of a line leaves them); one blank line separates
    paragraphs.
    """

    def tidy(piece: str) -> str:
        piece = rendered_markup(_without_gap_marks(_ECHOED_LAYOUT.sub("", piece)))
        if "&" in piece:
            piece = _CHARACTER_REFERENCE.sub(_character, piece)
        piece = _DEFINITION_MARK.sub(lambda found: found.group(1) or found.group(2) or "", piece)
        return _TRAILING_SPACE.sub("", _opening_markers(_without_headers(piece, headings)))

    tidied = outside_code(text, tidy)
    code = fenced_line_numbers(tidied)  # the same lines once a cut last line goes
    return single_blank_lines(_marker_lines(_without_cut_header(tidied, code), code))


_CHARACTER_REFERENCE = re.compile(
    r"((`++)[^\n]*?\2(?!`))|&(?:#[0-9]{1,6}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});"
)
"""An HTML character reference ("&mdash;", "&#8212;"), or inline code in one or more
backticks, which keeps its own as written."""
_MARKUP_REFERENCES = frozenset({"&lt;", "&gt;", "&amp;"})
"""References that stay as written: decoded, "&lt;name&gt;" would become a tag to whatever
renders the answer as Markdown or HTML."""


def _character(found: re.Match[str]) -> str:
    """The character a reference stands for (`html.unescape`); inline code as it is."""
    if found.group(1) or found.group().lower() in _MARKUP_REFERENCES:
        return found.group()
    return html.unescape(found.group())


_LEADING_REFUSAL = re.compile(
    r"\A\s*not found in the (?:provided )?sources[ \t]*(?:[.!]|(?=\[|\n|\Z))"
    r"(?:\s*\[[\d,\s\-–]+\])*\s*",
    re.I,
)
_TRAILING_REFUSAL = re.compile(
    r"(?<=[.!?\]])\s+not found in the (?:provided )?sources[ \t]*[.!]?(?:\s*\[[\d,\s\-–]+\])*\s*\Z",
    re.I,
)


def without_refusal(text: str) -> str:
    """`text` without a "Not found in the sources." that opens or closes a cited answer.

    Only when the text is an answer with the refusal and without it (`says_not_found` is
    false: it cites, and says more than a short caveat), and only a whole refusal ("Not
    found in the sources for trucks, but …" stays): it would contradict the answer. The
    embedded model sometimes ends a cited answer with one ("… due to the elliptical shape
    of the Moon's orbit [2]. Not found in the sources.").
    """
    for refusal in (_LEADING_REFUSAL, _TRAILING_REFUSAL):
        rest = refusal.sub("", text, count=1)
        if rest != text and rest.strip() and not (says_not_found(text) or says_not_found(rest)):
            text = rest
    return text


def _without_headers(text: str, headings: Collection[str]) -> str:
    """`text` without the lines that repeat a source's header (`headings`)."""
    if not headings:
        return text
    return "\n".join(
        line
        for line in text.split("\n")
        if not ((echo := _ECHOED_HEADER.fullmatch(line)) and echo.group(1) in headings)
    )


_MARKER_LINE = re.compile(r"[ \t]*\[[\d,\-–]+\](?:[ \t]*\[[\d,\-–]+\])*[ \t\r]*")
_ENDS_CITED = re.compile(r"\[[\d,\-–]+\][\s.!?:;\"')\]]*$")
_TITLE_LINE = re.compile(r"[ \t]*(?:#|\*\*[^*\n]+\*\*:?[ \t]*$)")
_PROSE_START = re.compile(r"(?![ \t]|#|>|\||\$ |\[\d|[-*+•][ \t]|\d{1,9}[.)](?:[ \t]|$))\S")
"""A line that opens with prose: no indent, heading, quote, table row, list item, shell
prompt or source header (nor a thematic break, `_opens_with_prose`)."""


_CUT_HEADER = re.compile(r"\r?\n[ \t]*\[\d+(?::[^\]\n]*)?[ \t\r]*\Z")
"""A last line that starts a source header and stops ("[5: L"): the model ran out of
tokens copying the context's layout."""


def _without_cut_header(text: str, code: Collection[int]) -> str:
    """`text` without a source header cut off at its end, unless that line is code."""
    cut = _CUT_HEADER.search(text)
    if cut is None or text.count("\n") in code:
        return text
    return text[: cut.start()]


def _marker_lines(text: str, code: Collection[int]) -> str:
    """`text` with each run of lines holding only markers joined to the line it cites.

    A small model may write its marker on the next line ("… using pip:" then "[1]"): it
    cites the line above when that line is text, not a heading, a bold title or a table
    row, and does not end cited already; after a blank line, when the line before it
    introduces what follows ("… as follows:", the marker standing where the model left out
    the code). After a heading, a cited line or at the very
    start, it opens the line below when that one opens with prose ("[1]" then "Unlike
    requests, …"), and moves to the end of its first sentence. Otherwise (a blank line or
    code above; a list, table, heading, thematic break, shell line or source header below)
    it stays where it is. Code (`code`: the numbers of its lines, `fenced_line_numbers`) is
    never read.
    """
    lines = text.split("\n")
    kept: list[str] = []
    index = 0
    while index < len(lines):
        run = index
        while run < len(lines) and run not in code and _is_marker_line(lines[run]):
            run += 1
        if run == index:
            kept.append(lines[index])
            index += 1
            continue
        markers = " ".join(line.strip() for line in lines[index:run])
        above = kept[-1] if kept else None
        below = lines[run] if run < len(lines) and run not in code else None
        if above and index - 1 not in code and _cites_above(above):
            kept[-1] = f"{above.rstrip()} {markers}"
        elif above == "" and len(kept) > 1 and index - 2 not in code and _introduces(kept[-2]):
            kept.pop()  # "… as follows:", a blank line, "[4]": where the code would be
            kept[-1] = f"{kept[-1].rstrip()} {markers}"
        elif (above is None or _heads_below(above, index - 1 in code)) and (
            below is not None and _opens_with_prose(below)
        ):
            lines[run] = _opening_markers(f"{markers} {below}")
        else:
            kept.extend(lines[index:run])
        index = run
    return "\n".join(kept)


def _opens_with_prose(line: str) -> bool:
    return bool(_PROSE_START.match(line)) and not THEMATIC_BREAK.fullmatch(line)


def _is_marker_line(line: str) -> bool:
    return bool(line.strip()) and _MARKER_LINE.fullmatch(line) is not None


def _cites_above(line: str) -> bool:
    """Whether markers on the next line cite `line`: text, not a title or table, uncited."""
    return (
        bool(line.strip())
        and not _TITLE_LINE.match(line)
        and not line.lstrip().startswith("|")
        and not THEMATIC_BREAK.fullmatch(line)
        and not _ENDS_CITED.search(line)
    )


def _introduces(line: str) -> bool:
    """Whether `line` is uncited text introducing what follows it ("… as follows:")."""
    return _cites_above(line) and line.rstrip().endswith(":") and not line.rstrip().endswith("::")


def _heads_below(line: str, in_code: bool) -> bool:
    """Whether markers after `line` belong below it: it is a title or ends cited."""
    return not in_code and bool(_TITLE_LINE.match(line) or _ENDS_CITED.search(line))


def _opening_markers(text: str) -> str:
    """`text` with each line's opening marker moved to the end of its first sentence.

    "[1] Cavies graze." → "Cavies graze [1]."; the numbers that sentence cites already are
    dropped from it ("[1] Pools hold ten [1]." → "Pools hold ten [1]."), never the others.
    """
    lines = text.split("\n")
    for index, line in enumerate(lines):
        opening = _OPENING_MARKER.match(line)
        if opening is None:
            continue
        indent, marker = opening.groups()
        rest = line[opening.end() :]
        first_end = sentence_spans(rest)[0][1] if rest.strip() else 0
        first = rest[:first_end]
        cited = set(cited_numbers(first))
        left = [n for n in dict.fromkeys(cited_numbers(marker)) if n not in cited]
        if not left:
            lines[index] = indent + rest
            continue
        moved = compact(left)
        cut = first_end - 1 if first.endswith((".", "!", "?")) else first_end
        lines[index] = f"{indent}{rest[:cut].rstrip()} {moved}{rest[cut:]}"
    return "\n".join(lines)


def _without_gap_marks(text: str) -> str:
    """`text` without the "…" a small model copies from its evidence, where text was cut.

    "… What this means is …" → "What this means is"; "the file. … [2]" → "the file. [2]",
    which the marker then cites. A list item that is only "…" (a list shown cut short),
    table rows and headings keep theirs, and an ellipsis inside a word or after one
    ("explicitly...", "wait…") is not a gap mark. Linear in the text: each mark looks up
    its line's start among the line starts found once.
    """
    text = _GAP_LINE.sub("", text)
    starts = [0, *(found.end() for found in re.finditer("\n", text))]

    def replaced(found: re.Match[str]) -> str:
        begin, end = found.span()
        line = starts[bisect.bisect_right(starts, begin) - 1]
        first = text[line : line + 16].lstrip(" \t")[:1]  # a table row's or heading's mark
        if first in {"|", "#"} or (begin - line <= 40 and _ITEM_MARK.fullmatch(text, line, begin)):
            return found.group()
        joins = begin > 0 and text[begin - 1] != "\n" and end < len(text)
        return " " if joins and text[end] != "\n" else ""

    return _GAP_MARK.sub(replaced, text)


def single_blank_lines(text: str) -> str:
    """`text` with every run of blank lines cut to one, outside code blocks."""
    return outside_code(text, lambda piece: _BLANK_RUN.sub("\n\n", piece))


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
    return outside_code(text, lambda piece: _TRAILING_SPACE.sub("", piece))


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
    if not words or _ITEM_MARK.match(core):
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
