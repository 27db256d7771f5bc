"""Code an answer shows, checked as a quotation: its lines, in order, in a cited source.

An answer may show a source's code ("… as shown in the following example: [4]" and then the
example). A code block is no sentence a verifier could judge, and no one-word change in it
is harmless, so it is checked by rule: it is supported when one of the sources its
introducing sentence cites holds its lines consecutively (spacing aside; blank lines and a
final "…" line, where the writer cut a long block, do not count), or, for a block of one
line, writes that line as inline code, and unsupported otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence

from citesynth.analysis import INLINE_CODE
from citesynth.verify.base import Span, Verdict

CUT = "…"
"""The last line of a code block the writer cut short."""
NOT_QUOTED = "the code is not in the cited source(s) as shown"


def code_verdict(code: str, passages: Sequence[str]) -> Verdict:
    """Whether one of `passages` holds the lines of `code` in a row (see the module docstring).

    Lines are compared with their indentation relative to the block's (a YAML key moved out
    of its parent is another document), spacing inside a line aside.
    """
    wanted = [line for line in code.split("\n") if line.strip()]
    if wanted and wanted[-1].strip() == CUT:
        wanted.pop()
    if wanted:
        for index, passage in enumerate(passages):
            found = _lines_at(_relative(wanted), passage)
            if found is None and len(wanted) == 1:
                found = _inline_at(wanted[0], passage)
            if found is not None:
                return Verdict(1.0, "supported", (Span(index, *found),))
    return Verdict(0.0, "unsupported", reasons=(NOT_QUOTED,))


def _inline_at(line: str, passage: str) -> tuple[int, int] | None:
    """Where `passage` writes the one `line` of a block as inline code: (start, end) offsets.

    A model shows a command the prose gives inline as a block of its own: Flask's "use
    ``flask run --port 5001`` to pick a different port" as a fenced block holding that one
    line (spacing aside).
    """
    said = " ".join(line.split())
    for span in INLINE_CODE.finditer(passage):
        if " ".join(span.group(1).split()) == said:
            return span.start(1), span.end(1)
    return None


def _indent(line: str) -> int:
    expanded = line.expandtabs(4)
    return len(expanded) - len(expanded.lstrip())


def _relative(lines: Sequence[str]) -> list[tuple[int, str]]:
    """Each line's indentation beyond the least of them, and its words."""
    margin = min(_indent(line) for line in lines)
    return [(_indent(line) - margin, " ".join(line.split())) for line in lines]


def _lines_at(wanted: Sequence[tuple[int, str]], passage: str) -> tuple[int, int] | None:
    """Where `passage`'s non-blank lines hold `wanted` in a row: (start, end) offsets."""
    lines: list[tuple[int, int, str]] = []
    position = 0
    for raw in passage.split("\n"):
        if raw.strip():
            lead = len(raw) - len(raw.lstrip())
            lines.append((position + lead, position + len(raw.rstrip()), raw))
        position += len(raw) + 1
    size = len(wanted)
    words = [" ".join(raw.split()) for _, _, raw in lines]
    for first in range(len(lines) - size + 1):
        if all(words[first + i] == wanted[i][1] for i in range(size)):
            run = _relative([raw for _, _, raw in lines[first : first + size]])
            if [depth for depth, _ in run] == [depth for depth, _ in wanted]:
                return lines[first][0], lines[first + size - 1][1]
    return None
