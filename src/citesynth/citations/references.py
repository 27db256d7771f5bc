"""The numbered references a document writes itself: "as shown in [12]", "France.[3]".

The model cites sources by number; a number a document writes is no source of ours. Copied
into an answer it cited one: asked how large an upload may be, the embedded model copied
"[1] says 10 MB; [2] says 25 MB" from an example answer in the docs, repair moved the "[2]"
to the example's own source and the answer read "[1] says 10 MB; says 25 MB [3]". So a
prose source's own references are left out of what the model reads
(`synthesis.sources.shown_text`) and of the sentences the extractive writer quotes, which
cite their source by our number instead ("France [8]." for "France.[3]"). Code is left
as it is: inline code, fenced blocks, indented lines (literal blocks); the callers pass no
code file's text.
"""

from __future__ import annotations

import re

from citesynth.analysis import INLINE_CODE
from citesynth.ingest.fences import fenced_blocks

_REFERENCE_MARK = re.compile(
    r"[ \t]?(?:(?<![\w`])\[\s*|\[\^\s*)\d{1,3}(?:\s*(?:[-–,;]|and)\s*\d{1,3})*\s*\](?![(:\w])"
)
"""A numbered reference a document writes ("[3]", "[4, 5]", "[1-3]", a footnote's "[^2]"),
with the space before it; not a Markdown link's text ("[1](…)"), a link definition ("[1]:
…"), an index ("items[3]") or a year ("[2019]")."""
_INDENTED = re.compile(r"(?:\t| {4})")


def without_reference_marks(text: str) -> str:
    """`text` without the numbered references its prose writes (see the module docstring)."""
    if "[" not in text:
        return text
    fenced = fenced_blocks(text)
    out: list[str] = []
    at = 0
    for line in text.splitlines(keepends=True):
        inside = any(start <= at < end for start, end in fenced)
        at += len(line)
        if inside or _INDENTED.match(line) or "[" not in line:
            out.append(line)
            continue
        pieces, codes, position = [], [], 0  # the prose between the line's inline code
        for code in INLINE_CODE.finditer(line):
            pieces.append(line[position : code.start()])
            codes.append(code.group())
            position = code.end()
        pieces.append(line[position:])
        kept = [_REFERENCE_MARK.sub("", piece) for piece in pieces]
        if kept[0] != pieces[0] and pieces[0].startswith("[") and kept[0].startswith(" "):
            kept[0] = kept[0][1:]  # "[1] says 10 MB" opened the line
        out.append("".join(k + c for k, c in zip(kept, [*codes, ""], strict=True)))
    return "".join(out)
