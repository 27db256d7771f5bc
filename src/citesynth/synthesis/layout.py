"""A model's answer without the layout it copied from its prompt, and without a refusal.

`strip_layout` takes off what the prompt's layout left in an answer: echoed source headers
("[2: L156-161] — …"), marker-only lines, definition marks, gap marks, character
references and runs of blank lines; `without_refusal` a "Not found in the sources." that
opens or closes an answer that goes on to answer.
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Collection

from citesynth.citations.resolve import (
    cited_numbers,
    compact,
    says_not_found,
)
from citesynth.ingest.blocks import LIST_MARKER
from citesynth.ingest.fences import (
    THEMATIC_BREAK,
    fenced_line_numbers,
    outside_code,
)
from citesynth.ingest.markdown import rendered_markup
from citesynth.ingest.sentences import sentence_spans

TRAILING_SPACE = re.compile(r"(?<![ \t])[ \t]++(?=\n|$)")
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
_ECHOED_HEADER = re.compile(r"[ \t]*(?:[-*+][ \t]+)?\[\d+\][ \t]+(?:[—–][ \t]+)?(.*?)[ \t]*")
"""A line `[1] …`: an echoed source header when the rest is one (`heading`), or what its
dash introduces ("- [1] — Windows › Windows ARM64 builds", the embedded model listing
cibuildwheel's "supported build backends" as its sources' titles)."""
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
ITEM_MARK = re.compile(r"[ \t]*" + LIST_MARKER)


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
        return TRAILING_SPACE.sub("", _opening_markers(_without_headers(piece, headings)))

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
    """`text` without the lines that repeat a source's header (`headings`) or its subject."""
    if not headings:
        return text
    echoed = {*headings, *(h.partition(" — ")[2] for h in headings)} - {""}
    return "\n".join(
        line
        for line in text.split("\n")
        if not ((echo := _ECHOED_HEADER.fullmatch(line)) and echo.group(1) in echoed)
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
        if first in {"|", "#"} or (begin - line <= 40 and ITEM_MARK.fullmatch(text, line, begin)):
            return found.group()
        joins = begin > 0 and text[begin - 1] != "\n" and end < len(text)
        return " " if joins and text[end] != "\n" else ""

    return _GAP_MARK.sub(replaced, text)


def single_blank_lines(text: str) -> str:
    """`text` with every run of blank lines cut to one, outside code blocks."""
    return outside_code(text, lambda piece: _BLANK_RUN.sub("\n\n", piece))
