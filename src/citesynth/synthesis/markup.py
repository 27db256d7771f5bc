"""Answers are text: HTML markup copied from a source (or written by a model) is dropped.

A consumer may render an answer as HTML or Markdown (the web page escapes it; a CLI, a JSON
client or a chat front end may not), so nothing in an answer may run there. Outside code,
a complete tag (`<script>`, `<img onerror=...>`, `</div>`, `<!-- -->`) is dropped and the
text between tags stays (a documentation placeholder such as `<chart_file_name>`, whose
underscore no element name has, or `<options>`, which names no HTML element, is shown
inert: `‹chart_file_name›`); a `<` that opens a tag which never closes becomes `‹`, so a
renderer never sees the start of one; a Markdown link to `javascript:`/`vbscript:`/`data:`
loses its target (an unclosed one its scheme).
Inside code spans and fences nothing changes: renderers show code as text. A code span
closes at a run of as many backticks as opened it, on the same line (reStructuredText's and
Markdown's "``<input type="file">``" is code whole; read a backtick at a time, its tag had
been dropped); backticks that never close open no code ("`<script>…" loses its tag).

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
_SCHEME = re.compile(r"\s*<?\s*(?:javascript|vbscript|data)\s*:", re.I)
_SCRIPT_START = re.compile(r"\]\(" + _SCHEME.pattern, re.I)
_SCRIPT_LINK = re.compile(_SCRIPT_START.pattern + r"(?:[^()]|\([^()]*\))*\)", re.I)
"""A link to a script target, to its closing parenthesis (one level of nesting; a target
may start or end on the next line, as renderers allow)."""
INERT = "‹"
INERT_CLOSE = "›"
_PLACEHOLDER = re.compile(r"<[A-Za-z][\w-]*_[\w-]*>")
"""A placeholder in documentation (`helm install ./<helm_chart_archive_file_name>`): a
name with an underscore and no attributes, which no HTML element has. It names what the
reader fills in, so it is shown, inert: `‹helm_chart_archive_file_name›`."""
_BARE_TAG = re.compile(r"<([A-Za-z][\w-]*)(?:[ \t]+[\w-]+)*>")
"""A tag of words alone, no attribute given a value: "<options>", "<text material>"."""
HTML_ELEMENTS = frozenset(
    """a abbr acronym address area article aside audio b base basefont bdi bdo big blink
    blockquote body br button canvas caption center cite code col colgroup data datalist dd
    del details dfn dialog dir div dl dt em embed fieldset figcaption figure font footer
    form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img input ins
    kbd label legend li link main map mark marquee math menu meta meter nav nobr noscript
    object ol optgroup option output p param picture pre progress q rp rt ruby s samp script
    search section select slot small source span strike strong style sub summary sup svg
    table tbody td template textarea tfoot th thead time title tr track tt u ul var video
    wbr xmp""".split()
)
"""The elements of HTML (with the obsolete ones pages still carry): a tag of words alone
naming any other is a placeholder ("\\documentclass[<options>]{elsarticle}", "git checkout
<branch>", NRC's "\\begin{WideText} <text material> \\end{WideText}")."""


def _is_placeholder(tag: str) -> bool:
    """Whether a complete tag is a documentation placeholder, shown inert, not dropped."""
    if _PLACEHOLDER.fullmatch(tag):
        return True
    bare = _BARE_TAG.fullmatch(tag)
    return bare is not None and bare.group(1).lower() not in HTML_ELEMENTS


class MarkupStream:
    """Drops markup from text that arrives in pieces (see the module docstring).

    Two stages run in a chain: tags first, then script links over the text without tags
    (so that a tag dropped from `](<b>javascript:...)` cannot leave a script link behind).
    """

    def __init__(self) -> None:
        self._tags = _Stage(links=False)
        self._links = _Stage(links=True)

    def feed(self, piece: str) -> str:
        """Add a piece; return the text that can be released now, without markup."""
        return self._links.feed(self._tags.feed(piece))

    def close(self) -> str:
        """Release everything held (an unfinished tag's `<` made inert)."""
        return self._links.feed(self._tags.close()) + self._links.close()


class _Stage:
    """One stage of `MarkupStream`: tags (`links=False`) or script links (`links=True`)."""

    def __init__(self, *, links: bool) -> None:
        self._links = links
        self._held = ""
        self._fence = False
        self._inline = 0  # the length of the backtick run opening the code span we are in

    def feed(self, piece: str) -> str:
        self._held += piece
        return self._drain(final=False)

    def close(self) -> str:
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
            return self._backticks(text, at, final=final)
        if char == "\n":
            self._inline = 0
            return "\n", at + 1
        if self._fence or self._inline or (char == "]") != self._links:
            return char, at + 1
        if char == "]":
            return _bracket(text, at, final=final)
        tag = _TAG.match(text, at, at + HOLD)
        if tag and _is_placeholder(tag.group()):
            return f"{INERT}{tag.group()[1:-1]}{INERT_CLOSE}", tag.end()
        if tag:
            return "", tag.end()
        if at + 1 == len(text):
            return None if not final else ("<", at + 1)
        opens = text[at + 1].isalpha() or text[at + 1] in "/!?"
        comment = text.startswith("<!--", at)  # closes at "-->", not at its first ">"
        closing, after = ("-->", at + 4) if comment else (">", at)
        if opens and closing not in text[after : at + HOLD] and not final and len(text) - at < HOLD:
            return None  # a tag may still be closing
        # "<<b>x" would join into "<x" once the tag goes: the first "<" is made inert too.
        return (INERT if opens or text[at + 1] == "<" else "<"), at + 1

    def _backticks(self, text: str, at: int, *, final: bool) -> tuple[str, int] | None:
        """A run of backticks: a fence's mark, or a code span's opening or closing one."""
        end = at
        while end < len(text) and text[end] == "`":
            end += 1
        if end == len(text) and not final:
            return None  # the run may go on: a fence, or a longer code span's mark
        run = end - at
        if run >= 3:
            self._fence, self._inline = not self._fence, 0
        elif not self._fence and not self._inline:
            closes = _closes(text, end, run, final=final)
            if closes is None:
                return None  # its closing run (or the line's end) may still be arriving
            self._inline = run if closes else 0  # an unclosed run is text, not code
        elif not self._fence and run == self._inline:
            self._inline = 0
        return text[at:end], end


def _closes(text: str, start: int, run: int, *, final: bool) -> bool | None:
    """Whether a code span opened by `run` backticks before `start` closes; None: not known yet.

    It closes at the next run of exactly as many backticks on the same line, within `HOLD`
    characters; a span left open is no code, and a tag after its backticks is dropped as
    anywhere else (a renderer shows unmatched backticks as text).
    """
    window = text[start : start + HOLD]
    line = window.split("\n", 1)[0]
    for found in _BACKTICKS.finditer(line):
        if found.end() == len(window):  # the run may go on past what is here
            if final or "\n" in window:
                return len(found.group()) == run
            return False if len(window) == HOLD else None
        if len(found.group()) == run:
            return True
    whole = "\n" in window or len(window) == HOLD or final
    return False if whole else None


_BACKTICKS = re.compile(r"`+")


def _bracket(text: str, at: int, *, final: bool) -> tuple[str, int] | None:
    """A `]` that may close a link label: script targets after it are dropped.

    What follows a dropped target is read again from the same `]`, so that dropping one
    (`](javascript:x)(javascript:y)`) never joins the `]` to the next.
    """
    kept, end = "]", at + 1
    while True:
        rest = "]" + text[end : end + HOLD - 1]
        link = _SCRIPT_LINK.match(rest)
        if link:
            end += link.end() - 1
            continue
        if _may_become_script_link(rest) and not final and len(rest) < HOLD:
            return None  # a link target may still be arriving
        scheme = _SCRIPT_START.match(rest)
        if scheme:  # a script target that never closes: its scheme goes all the same
            kept, end = "](", end + scheme.end() - 1
            while scheme := _SCHEME.match(text, end, end + HOLD):
                end = scheme.end()
        return kept, end


_TARGET_START = re.compile(r"\]\(\s*<?\s*([A-Za-z]*)(\s*:)?")
_SCHEMES = ("javascript", "vbscript", "data")


def _may_become_script_link(rest: str) -> bool:
    """Whether more text could make `rest` (from a `]`) start a `_SCRIPT_LINK`.

    The target may begin or end on the next line, so the wait ends only once the scheme is
    known not to be a script one, or once the link's parentheses close.
    """
    if rest == "]":
        return True
    start = _TARGET_START.match(rest)
    if start is None:
        return False
    scheme = start.group(1).lower()
    if start.group(2) is None:  # no colon yet: wait while the name may still be a scheme
        return start.end() == len(rest) and any(s.startswith(scheme) for s in _SCHEMES)
    target = rest[start.end() :]
    return scheme in _SCHEMES and 1 + target.count("(") - target.count(")") > 0


def strip_markup(text: str) -> str:
    """`text` without markup outside code (see the module docstring)."""
    stream = MarkupStream()
    return stream.feed(text) + stream.close()
