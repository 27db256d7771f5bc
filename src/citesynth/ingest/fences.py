"""Where a text is code, not prose: fenced blocks, containers and front matter.

`fenced_blocks` finds Markdown's fenced code blocks (an item's fence, "- ```", too; a MyST
directive whose body is prose is no code: `opens_prose_directive`), `container_fences` the
colon fences of MyST's directives, and `front_matter_end` where a page's front matter
(YAML, TOML) ends. Sentences, chunks and answers are read outside them (`outside_fences`,
`outside_code`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from citesynth.ingest.rst import PROSE_DIRECTIVES

_MKDOCS_OPENING = r"(?:!!!|\?\?\?\+?)[ \t]+\w[^\n]*|===[ \t]+\"[^\n]*"
MKDOCS_CONTAINER = re.compile(rf"^[ \t]*(?:{_MKDOCS_OPENING})$", re.MULTILINE)
"""A line opening an mkdocs container, whose body is indented below it."""
CONTAINER_LINE = re.compile(
    rf"^[ \t]*(?:{_MKDOCS_OPENING}|:{{3,}}[ \t]*(?:\{{[\w:-]+\}}[^\n]*)?|\([\w.:-]+\)=)[ \t]*$",
    re.MULTILINE,
)
"""A line that opens or closes a container, or marks a place, never prose: a span of its own.

Python-Markdown and pymdown-extensions (mkdocs' sites) open an admonition or collapsible
block (`!!! warning "Secure cookies"`, `??? info`) or a content tab (`=== "Python"`) whose
body is indented below it; MyST Markdown (Sphinx sites) fences a directive's body with
colons (`:::{important}` … `:::`) and marks a cross-reference target with
`(private-attributes)=`."""
_ITEM_OPENING = r"(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?"
"""A list item's marker a fence may follow on its line ("- ```", as pip's docs open an item
with a code block; unread, the fence count was odd and the prose above read as code)."""
FENCE = re.compile(rf"^[ \t]*{_ITEM_OPENING}(?:```|~~~)", re.MULTILINE)
"""A line that opens or closes a fenced code block."""
FENCE_LINE = re.compile(rf"^[ \t]*{_ITEM_OPENING}(`{{3,}}|~{{3,}})([^\n]*)$", re.MULTILINE)
_FRONT_MATTER_LINE = re.compile(
    r"[ \t]*(?:[\w\"'][\w\"' .-]*[ \t]*[:=][^\n]*|\[[\w. \"'-]+\][ \t]*|#[^\n]*|-[ \t][^\n]*|)\r?"
)
"""A line of front matter: a key ("title: …", "weight = 10", "Last Modified: …"), a TOML
table ("[menu.main]"), a comment, a YAML list item or a blank line; an indented line
continues a value."""
_KEY_LINE = re.compile(r"[\w\"'][\w\"' .-]*[ \t]*[:=]|\[[\w. \"'-]+\]")
_FRONT_MATTER_LINES = 200


def front_matter_end(text: str) -> int:
    """Where the front matter `text` opens with ends (0: none).

    Between `---` (or `+++`) lines at the very start, every line reads as front matter
    (`_FRONT_MATTER_LINE`, or indented) and the first that is not blank is a key: not
    prose ("title: New Line to Break Extension" had run into the summary the embedded
    model was shown, and into its answer, Python-Markdown's docs). A rule above a heading
    ("---" then "## Changelog") opens none. Read line by line, `_FRONT_MATTER_LINES` at most.
    """
    if not text.startswith(("---", "+++")):
        return 0
    lines = text.split("\n", _FRONT_MATTER_LINES + 1)
    if lines[0].rstrip("\r \t") not in {"---", "+++"}:
        return 0
    offset = len(lines[0]) + 1
    keyed = False
    for line in lines[1:_FRONT_MATTER_LINES]:
        if line.rstrip("\r \t") in {"---", "+++", "..."}:
            return min(offset + len(line) + 1, len(text)) if keyed else 0
        if not keyed and line.strip():
            if _KEY_LINE.match(line) is None:
                return 0
            keyed = True
        if not (line[:1] in {" ", "\t"} or _FRONT_MATTER_LINE.fullmatch(line)):
            return 0
        offset += len(line) + 1
    return 0


def fenced_blocks(text: str) -> list[tuple[int, int]]:
    """The fenced code blocks of `text`, from the opening fence line to the closing one.

    A fence is a line of three or more backticks or tildes (a backtick fence's info string
    holds no backtick: "```js``` blocks …" is inline code). A block closes at a fence line of
    the same mark at least as long, with nothing after it; an unclosed block runs to the end
    of the text (as CommonMark reads it). The fences of a MyST directive whose body is prose
    (```` ```{note} ````, ```` ````{tab} Linux ````) hold no code: they are left out, and
    a code fence inside them is a block (`container_fences`).
    """
    return _fence_reading(text)[0]


def container_fences(text: str) -> frozenset[int]:
    """Where the fence lines of MyST directives whose body is prose start in `text`.

    ```` ```{note} ```` … ```` ``` ```` is a note (MyST Markdown, as pip's and cattrs' docs
    write them: "Attributes annotated with `typing.Self` are not supported by the
    BaseConverter"), not code; read as code, what it says was never prose, neither quoted nor
    shown to the model. The opening line names a directive of `PROSE_DIRECTIVES`; its
    closing line is the next bare fence of the same mark at least as long that closes no
    code block opened inside it.
    """
    return _fence_reading(text)[1]


def _fence_reading(text: str) -> tuple[list[tuple[int, int]], frozenset[int]]:
    """The fenced code blocks of `text`, and where its containers' fence lines start."""
    blocks: list[tuple[int, int]] = []
    containers: list[str] = []  # the marks of the containers open, innermost last
    fences: list[int] = []
    opening: tuple[int, str] | None = None
    for match in FENCE_LINE.finditer(text):
        marks, rest = match.group(1), match.group(2)
        bare = not rest.strip(" \t\r")
        if opening is not None:
            if marks[0] == opening[1][0] and len(marks) >= len(opening[1]) and bare:
                blocks.append((opening[0], match.end()))
                opening = None
        elif opens_prose_directive(rest):
            containers.append(marks)
            fences.append(match.start())
        elif bare and containers and marks[0] == containers[-1][0]:
            if len(marks) >= len(containers[-1]):
                containers.pop()
                fences.append(match.start())
            else:
                opening = (match.start(), marks)
        elif not (marks[0] == "`" and "`" in rest):
            opening = (match.start(), marks)
    if opening is not None:
        blocks.append((opening[0], len(text)))
    return blocks, frozenset(fences)


_PROSE_DIRECTIVE = re.compile(r"\{(?:" + "|".join(sorted(PROSE_DIRECTIVES)) + r")\}", re.I)


def opens_prose_directive(info: str) -> bool:
    """Whether a fence's info string opens a MyST directive whose body is prose.

    `{note}`, `{tab} Linux`, `{versionadded} 20.1`; read trimmed, as CommonMark reads an
    info string, so that a fence line and markdown-it's token of it agree (``` {note}).
    """
    return _PROSE_DIRECTIVE.match(info.strip()) is not None


def fenced_line_numbers(text: str) -> set[int]:
    """The numbers of the lines of `text` inside fenced code blocks, fences included.

    ("# Install" there is no heading, "[1]" no marker line.)
    """
    numbers: set[int] = set()
    line = 0
    position = 0  # lines before `position` are counted: the blocks come in order
    for start, end in fenced_blocks(text):
        line += text.count("\n", position, start)
        last = line + text.count("\n", start, end)
        numbers.update(range(line, last + 1))
        line, position = last, end
    return numbers


THEMATIC_BREAK = re.compile(r"[ \t]*([-*_])(?:[ \t]*\1){2,}[ \t]*")
"""A Markdown thematic break ("---", "- - -", "***"): no list item, no text (`fullmatch`)."""


def outside_fences(
    text: str, spans: list[tuple[int, int]], blocks: list[tuple[int, int]] | None = None
) -> list[tuple[int, int]]:
    """`spans` of `text` with what lies in fenced code blocks cut out (`fenced_blocks`).

    `spans` are in order and do not overlap; `blocks` are the text's blocks when known. What
    rewrites an answer's sentences (adds citations, drops repeats) must leave the code it
    shows as it is.
    """
    blocks = fenced_blocks(text) if blocks is None else blocks
    if not blocks:
        return spans
    kept: list[tuple[int, int]] = []
    first = 0  # the first block that may still overlap a span: both lists are in order
    for start, end in spans:
        while first < len(blocks) and blocks[first][1] <= start:
            first += 1
        index = first
        while index < len(blocks) and blocks[index][0] < end:
            block_start, block_end = blocks[index]
            append_trimmed(text, start, min(end, block_start), kept)
            start = max(start, block_end)
            index += 1
        append_trimmed(text, start, end, kept)
    return kept


def outside_code(text: str, change: Callable[[str], str]) -> str:
    """`text` with `change` applied to each stretch between its fenced code blocks.

    The blocks themselves stay as written.
    """
    pieces: list[str] = []
    position = 0
    for start, end in fenced_blocks(text):
        pieces.extend((change(text[position:start]) if start > position else "", text[start:end]))
        position = end
    if position < len(text) or not pieces:
        pieces.append(change(text[position:]))
    return "".join(pieces)


def append_trimmed(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> None:
    """Append `text[start:end]` to `spans` without its surrounding whitespace, unless empty."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        spans.append((start, end))
