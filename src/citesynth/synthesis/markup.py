r"""Answers are text: HTML markup copied from a source (or written by a model) is dropped.

A consumer may render an answer as HTML or Markdown (the web page escapes it; a CLI, a JSON
client or a chat front end may not), so nothing in an answer may run there. Outside code,
a complete tag (`<script>`, `<img onerror=...>`, `</div>`, `<!-- -->`) is dropped and the
text between tags stays (a documentation placeholder such as `<chart_file_name>`, whose
underscore no element name has, or `<options>`, which names no HTML element, is shown
inert: `‹chart_file_name›`); a `<` that opens a tag which never closes becomes `‹`, so a
renderer never sees the start of one; a Markdown link to `javascript:`/`vbscript:`/`data:`
loses its target (an unclosed one its scheme).
Inside code spans and fences nothing changes: renderers show code as text. Code is read as
any Markdown renderer reads it, or else as text, where tags go (see `_Stage`): a code span
closes at a run of as many backticks as opened it (reStructuredText's and Markdown's
"``<input type="file">``" is code whole; read a backtick at a time, its tag had been
dropped); backticks that never close, an escaped one ("\`"), a fence's mark in mid-line
open no code.

`MarkupStream` does this to text arriving in pieces (holding back an unfinished tag, and
backticks until it knows whether they open code: up to the span's close, the line's end,
a blank line or `HOLD` characters), and `strip_markup` to a whole text; they give the same
result.
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
    """One stage of `MarkupStream`: tags (`links=False`) or script links (`links=True`).

    It reads code as any Markdown renderer would, or else as text (a tag dropped from
    code is a loss; a tag kept outside code would run): a fence opens at the start of a
    line (three spaces at most before it, no backtick after it on its line) and closes at
    a run at least as long at the start of a line with nothing after it; a code span opens
    at any other run of backticks no backslash escapes and closes at the next run of as
    many before a blank line, within `HOLD` characters. Only a span that opens and closes
    on one line is trusted as code (a span over lines may be a paragraph a renderer cuts
    at a block's start); and after an opening run whose close lies beyond `HOLD`, no span
    is, until a blank line (a renderer may pair it with a run this reading took for an
    opening one).
    """

    def __init__(self, *, links: bool) -> None:
        self._links = links
        self._held = ""
        self._fence = 0  # the length of the run that opened the fence we are in (0: none)
        self._inline = 0  # the length of the run that opened the code span we are in
        self._trusted = False  # that span is on one line: code to any renderer
        self._doubt = False  # an opening run's close lay beyond HOLD: trust no span
        self._indent: int | None = 0  # spaces released on this line, None after any other
        self._slashes = 0  # backslashes at the end of what was released
        self._ticks = False  # what was released ends in a backtick
        self._long = False  # that backtick is a long run's, which may go on in the next piece

    def feed(self, piece: str) -> str:
        self._held += piece
        return self._drain(final=False)

    def close(self) -> str:
        return self._drain(final=True)

    def _drain(self, *, final: bool) -> str:
        text, index = self._held, 0
        out: list[str] = []
        while (found := _SPECIAL.search(text, index)) is not None:
            at = found.start()
            self._released(text[index:at], out)
            step = self._step(text, at, final=final)
            if step is None:  # wait for more text
                self._held = text[at:]
                return "".join(out)
            kept, index = step
            if text[at] in "`\n":
                out.append(kept)  # `_step` has noted where the line stands
            else:
                self._released(kept, out)
        self._released(text[index:], out)
        self._held = ""
        return "".join(out)

    def _released(self, piece: str, out: list[str]) -> None:
        """Release `piece` (no newline or backtick in it), noting where the line stands."""
        if not piece:
            return
        out.append(piece)
        if self._indent is not None:
            self._indent = self._indent + len(piece) if not piece.strip(" ") else None
        bare = piece.rstrip("\\")
        self._slashes = len(piece) - len(bare) + (self._slashes if not bare else 0)
        self._ticks, self._long = False, False

    def _step(self, text: str, at: int, *, final: bool) -> tuple[str, int] | None:
        """What the special character at `at` becomes, and where to go on; None: wait."""
        char = text[at]
        if char == "`":
            return self._backticks(text, at, final=final)
        if char == "\n":
            if self._indent is not None:  # a blank line: no span goes on past it
                self._inline, self._doubt = 0, False
            self._trusted = False
            self._indent, self._slashes, self._ticks, self._long = 0, 0, False, False
            return "\n", at + 1
        if self._fence or (self._inline and self._trusted) or (char == "]") != self._links:
            return char, at + 1
        if char == "]":
            return _bracket(text, at, final=final)
        tag = _TAG.match(text, at, at + HOLD)
        if tag and _is_placeholder(tag.group()):
            return f"{INERT}{tag.group()[1:-1]}{INERT_CLOSE}", tag.end()
        if tag:  # a space keeps the backticks around it apart: "`<b>``" is no "```"
            return (" " if self._ticks else ""), tag.end()
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
        """A run of backticks: a fence's mark, a code span's opening or closing one, or text."""
        end = at
        while end < len(text) and text[end] == "`":
            end += 1
        run = end - at
        if self._long or run >= LONG_RUN:
            self._ticks, self._long = True, True  # text however it goes on
            self._indent, self._slashes = None, 0
            return text[at:end], end
        if end == len(text) and not final:
            return None  # the run may go on: a fence, or a longer code span's mark
        if self._inline:
            if run == self._inline:
                self._inline, self._trusted = 0, False
            mark: int | None = end
        elif self._slashes % 2 == 1 and not self._fence:
            mark = at + 1  # "\`" is a backtick; a run after it is read on its own
        elif run >= 3 and self._indent is not None and self._indent <= _FENCE_INDENT:
            mark = self._fence_mark(text, end, run, final=final)
        elif self._fence:
            mark = end
        else:
            mark = self._span_mark(text, end, run, final=final)
        if mark is None:
            return None
        self._indent, self._slashes, self._ticks, self._long = None, 0, True, False
        return text[at:mark], mark

    def _fence_mark(self, text: str, end: int, run: int, *, final: bool) -> int | None:
        """A run at a line's start: a fence opens or closes there, or a span; None: wait."""
        rest = _line_rest(text, end, final=final)
        if rest is None:
            return None
        if self._fence:
            if run >= self._fence and not rest.strip():
                self._fence = 0
            return end
        if "`" not in rest:
            self._fence = run
            return end
        return self._span_mark(text, end, run, final=final)  # "``` a`b": a code span's mark

    def _span_mark(self, text: str, end: int, run: int, *, final: bool) -> int | None:
        """A run outside code and no fence's mark: a code span opens there, or not."""
        closes = _closes(text, end, run, final=final)
        if closes is None:
            return None
        if closes == _FAR:
            self._doubt = True
        elif closes != _OPEN:
            self._inline = run  # paired; trusted only on one line and in no doubt
            self._trusted = not self._doubt and "\n" not in text[end:closes]
        return end


LONG_RUN = 64
"""Backticks in a row past which the run is text (no fence or span mark is that long): a
model repeating backticks is read in linear time."""
_FENCE_INDENT = 3
"""The most spaces before a fence's mark (four make an indented code block)."""


def _line_rest(text: str, start: int, *, final: bool) -> str | None:
    """The rest of the line from `start` (within `HOLD`); None: not all of it is here yet."""
    window = text[start : start + HOLD]
    line = window.split("\n", 1)[0]
    if len(line) < len(window) or len(window) == HOLD or final:
        return line
    return None


_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def _closes(text: str, start: int, run: int, *, final: bool) -> int | None:
    """Where a code span opened by `run` backticks before `start` closes; None: not known yet.

    It closes at the next run of exactly as many backticks before a blank line, within
    `HOLD` characters: `_FAR` when not within them, `_OPEN` when it never does (a span left
    open is no code, and a tag after its backticks is dropped as anywhere else: a renderer
    shows unmatched backticks as text).
    """
    window = text[start : start + HOLD]
    blank = _BLANK_LINE.search(window)
    paragraph = window[: blank.start()] if blank else window
    complete = blank is not None or final
    for found in _BACKTICKS.finditer(paragraph):
        if found.end() == len(window) and not complete:
            return _FAR if len(window) == HOLD else None  # the run may go on
        if len(found.group()) == run:
            return start + found.start()
    if complete:
        return _OPEN
    return _FAR if len(window) == HOLD else None


_FAR = -1
_OPEN = -2
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
