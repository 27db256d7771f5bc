"""reStructuredText structure: adorned section titles and the paragraphs between them.

Section levels follow the order in which adornment styles first appear, as docutils does.
Indented blocks (literal blocks, directive bodies) are kept whole as code.
"""

from __future__ import annotations

import re

from citesynth.ingest.blocks import Block, BlockKind, line_offsets, paragraphs, trimmed

_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}[ \t]*\r?$")


def _title_at(lines: list[str], index: int) -> tuple[int, int, str] | None:
    """If line `index` is a section title, return (first line, line after, style key)."""
    title = lines[index].strip()
    if not title or _ADORNMENT.match(lines[index]) or lines[index][:1] in " \t":
        return None
    if index + 1 >= len(lines):
        return None
    under = _ADORNMENT.match(lines[index + 1])
    if under is None or len(lines[index + 1].rstrip()) < min(len(title), 3):
        return None
    char = under.group(1)
    over = index > 0 and (match := _ADORNMENT.match(lines[index - 1])) and match.group(1) == char
    first = index - 1 if over else index
    return first, index + 2, ("over" if over else "") + char


def rst_blocks(text: str) -> list[Block]:
    """Split reStructuredText into heading and paragraph blocks with exact offsets."""
    lines = text.split("\n")
    offsets = line_offsets(text)
    styles: dict[str, int] = {}
    blocks: list[Block] = []
    body_start = 0
    index = 0
    while index < len(lines):
        found = _title_at(lines, index)
        if found is None:
            index += 1
            continue
        first, after, style = found
        blocks.extend(_body(text, body_start, offsets[first]))
        level = styles.setdefault(style, len(styles) + 1)
        start, end = trimmed(text, offsets[first], offsets[min(after, len(offsets) - 1)])
        blocks.append(
            Block(start, end, BlockKind.HEADING, heading=lines[index].strip(), level=level)
        )
        body_start = end
        index = after
    blocks.extend(_body(text, body_start, len(text)))
    return blocks


def _body(text: str, start: int, end: int) -> list[Block]:
    return [
        Block(block.start, block.end, BlockKind.CODE) if _indented(text, block.start) else block
        for block in paragraphs(text, start, end)
    ]


def _indented(text: str, start: int) -> bool:
    """Whether the line holding offset `start` begins with whitespace."""
    line_start = text.rfind("\n", 0, start) + 1
    return start > line_start and text[line_start:start].strip() == ""
