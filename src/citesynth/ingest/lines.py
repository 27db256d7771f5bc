"""Map character offsets in a document's text to source lines and pages via its anchors."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from citesynth.types import Anchor


def newline_offsets(text: str) -> list[int]:
    """Offsets of every newline character in `text`, ascending."""
    offsets: list[int] = []
    find = text.find
    position = find("\n")
    while position != -1:
        offsets.append(position)
        position = find("\n", position + 1)
    return offsets


class LineMap:
    """Answers "which source line and page holds this offset" in O(log n)."""

    __slots__ = ("_anchor_offsets", "_anchors", "_newlines")

    def __init__(self, text: str, anchors: Sequence[Anchor]) -> None:
        if not anchors or anchors[0].offset != 0:
            raise ValueError("a document's anchors must start at offset 0")
        self._anchors = tuple(anchors)
        self._anchor_offsets = [anchor.offset for anchor in anchors]
        self._newlines = newline_offsets(text)

    def locate(self, offset: int) -> tuple[int, int | None]:
        """The `(line, page)` of the character at `offset`."""
        anchor = self._anchors[bisect_right(self._anchor_offsets, offset) - 1]
        crossed = bisect_left(self._newlines, offset) - bisect_left(self._newlines, anchor.offset)
        return anchor.line + crossed, anchor.page
