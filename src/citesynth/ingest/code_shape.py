"""Whether a sentence-shaped span of a chunk is laid out as code, not prose.

A chunk cut inside an example loses the fence or the `::` that marked its code, so the
lines themselves are read: statements one per line (`s = URLSafeSerializer('secret-key')`),
a block opened and stepped into (`def f(x):` above a deeper line), a comment's line.
`sentences.prose_sentences` leaves such spans out.
"""

from __future__ import annotations

import re


def code_lines(text: str, start: int, end: int) -> bool:
    """Whether a sentence's lines are laid out as code rather than wrapped prose.

    Wrapped prose keeps one indentation after its first line; code opens a block (`def
    f(x):`, `if ready:` above a deeper line) or steps in and out. This catches code whose
    marker is out of sight, as in a chunk that begins inside a long code block. A term
    ending in `:` above its indented definition ("``str``:" then "The default type.") is
    prose.
    """
    lines = text[start:end].split("\n")
    if _statements(lines):
        return True
    if len(lines) < 2:
        return False
    indents = [len(line) - len(line.lstrip(" \t")) for line in lines[1:] if line.strip()]
    if indents and max(indents) >= 4 and max(indents) - min(indents) >= 2:
        return True  # steps in and out by a block's width, not a ragged line of a PDF
    column = start - (text.rfind("\n", 0, start) + 1)  # the first line's indentation
    return bool(indents) and bool(_BLOCK_OPENER.match(lines[0])) and indents[0] > column


_COMMENT_LINE = re.compile(r"[ \t]+(?:#|//)(?:[ \t]|$)")
"""An indented line opening as a code comment: no Markdown heading is indented so, and
no prose opens with it."""


def in_comment(text: str, begin: int) -> bool:
    """Whether the sentence at `begin` sits on a code comment's line.

    A chunk cut inside an example shows the comment's lines with nothing to mark them as
    code ("        # memory object stream. This is a bit of trick, as
    create_memory_object_stream" in AnyIO's docs).
    """
    return _COMMENT_LINE.match(text, text.rfind("\n", 0, begin) + 1) is not None


def _statements(lines: list[str]) -> bool:
    """Whether `lines` are statements of code, each line one, the last ending in no stop.

    The opening of a chunk cut inside an indented code block loses its indentation to the
    chunk's trim: `s = URLSafeSerializer('secret-key')` above `    decoded_payload = None`
    steps in by nothing that `code_lines` sees, yet no line of it is prose.
    """
    shown = [line for line in lines if line.strip()]
    if not shown or shown[-1].rstrip().endswith((".", "!", "?", ":")):
        return False
    return all(_STATEMENT.match(line) for line in shown)


_STATEMENT = re.compile(
    r"\s*(?:(?:>>>|\.\.\.)(?:\s|$)"
    r"|[\w.]+(?:\[[^\]\n]*\])?(?:\s*,\s*[\w.]+)*\s*(?:[-+*/%|&^]|//|\*\*)?=(?!=)\s*\S"
    r"|(?:import\s+[\w.]+|from\s+[\w.]+\s+import)\b"
    r"|[\w.]+\(.*\)\s*$)"
)
"""A line that is a statement of code: a prompt (`>>> `), an assignment (`x = 1`,
`d["k"] += 1`, `send, receive = pair()`), an import, or a call alone on its line
(`s.dumps([1, 2])`)."""


_BLOCK_OPENER = re.compile(
    r"\s*(?:(?:async\s+)?(?:def|class|if|elif|else|for|while|with|try|except|finally)\b.*"
    r"|[\w.]+\(.*\)(?:\s*->.*)?):\s*$"
)
"""A line that opens a code block: a keyword's, or a call's (`def f(x):`, `main():`), never a
term with its classifier ("timeout (float):")."""
