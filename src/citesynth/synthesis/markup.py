"""Answers are text: HTML markup copied from a source (or written by a model) is dropped.

A consumer may render an answer as HTML or Markdown (the web page escapes it; a CLI, a JSON
client or a chat front end may not), so nothing in an answer may run there. Outside code,
a complete tag (`<script>`, `<img onerror=...>`, `</div>`, `<!-- -->`) is dropped and the
text between tags stays; a `<` that opens a tag which never closes becomes `‹`, so a renderer
never sees the start of one; a Markdown link to `javascript:`/`vbscript:`/`data:` loses its
target. Inside code spans and fences nothing changes: renderers show code as text.

`MarkupStream` does this to text arriving in pieces (holding back only an unfinished tag),
and `strip_markup` to a whole text; they give the same result.
"""

from __future__ import annotations

import re

HOLD = 300  # the longest tag waited for before its `<` is made inert
_SPECIAL = re.compile(r"[`\n<\]]")
_TAG = re.compile(
    r"<(?:[A-Za-z][\w:.-]*(?:\s[^<>]*)?/?|/[A-Za-z][\w:.-]*\s*|!--.*?--|![A-Za-z][^<>]*|\?[^<>]*)>",
    re.S,
)
_SCRIPT_LINK = re.compile(
    r"\]\(\s*<?\s*(?:javascript|vbscript|data)\s*:[^()\n]*(?:\([^()\n]*\)[^()\n]*)*\)", re.I
)
INERT = "‹"


class MarkupStream:
    """Drops markup from text that arrives in pieces (see the module docstring)."""

    def __init__(self) -> None:
        self._held = ""
        self._fence = False
        self._inline = False

    def feed(self, piece: str) -> str:
        """Add a piece; return the text that can be released now, without markup."""
        self._held += piece
        return self._drain(final=False)

    def close(self) -> str:
        """Release everything held (an unfinished tag's `<` made inert)."""
        return self._drain(final=True)

    def _drain(self, *, final: bool) -> str:
        text, out, index = self._held, [], 0
        while (found := _SPECIAL.search(text, index)) is not None:
            at = found.start()
            out.append(text[index:at])
            step = self._step(text, at, final=final)
            if step is None:  # wait for more text
                self._held = text[at:]
                return "".join(out)
            kept, index = step
            out.append(kept)
        out.append(text[index:])
        self._held = ""
        return "".join(out)

    def _step(self, text: str, at: int, *, final: bool) -> tuple[str, int] | None:
        """What the special character at `at` becomes, and where to go on; None: wait."""
        char = text[at]
        if char == "`":
            if not final and len(text) - at < 3 and text[at:] == "`" * (len(text) - at):
                return None  # may become a fence
            if text.startswith("```", at):
                self._fence, self._inline = not self._fence, False
                return "```", at + 3
            if not self._fence:
                self._inline = not self._inline
            return "`", at + 1
        if char == "\n":
            self._inline = False
            return "\n", at + 1
        if self._fence or self._inline:
            return char, at + 1
        if char == "]":
            return self._bracket(text, at, final=final)
        tag = _TAG.match(text, at, at + HOLD)
        if tag:
            return "", tag.end()
        if at + 1 == len(text):
            return None if not final else ("<", at + 1)
        opens = text[at + 1].isalpha() or text[at + 1] in "/!?"
        if opens and ">" not in text[at : at + HOLD] and not final and len(text) - at < HOLD:
            return None  # a tag may still be closing
        # "<<b>x" would join into "<x" once the tag goes: the first "<" is made inert too.
        return (INERT if opens or text[at + 1] == "<" else "<"), at + 1

    def _bracket(self, text: str, at: int, *, final: bool) -> tuple[str, int] | None:
        """A `]` that may close a link label: a script link's target is dropped."""
        link = _SCRIPT_LINK.match(text, at, at + HOLD)
        if link:
            return "]", link.end()
        rest = text[at : at + HOLD]
        arriving = rest == "]" or (rest.startswith("](") and ")" not in rest and "\n" not in rest)
        if arriving and not final and len(rest) < HOLD:
            return None  # a link target may still be arriving
        return "]", at + 1


def strip_markup(text: str) -> str:
    """`text` without markup outside code (see the module docstring)."""
    stream = MarkupStream()
    return stream.feed(text) + stream.close()
