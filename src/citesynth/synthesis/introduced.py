"""What an introducing sentence introduces: the code block or list right after it.

"Set the font in app-config.yaml as shown in the following example:" promises an example;
an answer quoting the sentence without it promises what it does not show. The extractive
writer brings the block along, copied from the same chunk and cited with the sentence:

- code: a fenced block (``` or ~~~, with its language), a reStructuredText code directive
  (`.. code-block:: yaml`, `.. click:example::`), literal block (after "::") or doctest
  block (a paragraph of ">>> " lines), or a Markdown indented block; shown as a fenced
  block, its lines dedented, cut after `MAX_LINES` lines;
- a list (-, *, +, •, 1. or 1)): its top-level items, at most `MAX_ITEMS`, each with the
  code block below it when it is a step of a procedure ("1. Switch to the project:" above
  "oc project x"), at most `MAX_LIST_CODE_LINES` lines of code in all.

Only a block that starts on a line after the sentence counts (blank lines between are
fine), and only when the sentence ends its line. A block cut short (by the limits or by the
end of the chunk) is marked incomplete; the answer then ends it with "…".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from citesynth.ingest.blocks import LIST_MARKER, columns, first_line_column, lines_from
from citesynth.ingest.fences import THEMATIC_BREAK
from citesynth.ingest.references import INCLUDE_DIRECTIVE
from citesynth.ingest.rst import EXAMPLE_SUFFIXES

MAX_LINES = 20
MAX_ITEMS = 8
MAX_LIST_CODE_LINES = 30

_FENCE_OPEN = re.compile(r"([ \t]*)(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n`]*$")
_MARK = r"([ \t]*)" + LIST_MARKER + r"[ \t]+"
_LIST_ITEM = re.compile(rf"{_MARK}(?=\S)")
_MARK_ONLY = re.compile(_MARK)
_DIRECTIVE = re.compile(r"[ \t]*\.\.[ \t]+([\w.+:-]+?)[ \t]*::[ \t]*(\S*)")
_SHOWN_CODE = frozenset(
    "code code-block sourcecode doctest testcode ipython prompt code-tab".split()
)
"""reStructuredText directives whose body is code a reader is shown as is."""
_OPTION = re.compile(r"[ \t]*:[\w-]+:")


@dataclass(frozen=True, slots=True)
class Introduced:
    """A block after an introducing sentence: where it is in the text, and what it shows.

    `lines` are a code block's lines (dedented) or a list's item texts (marks removed,
    each item's lines joined by single spaces).
    """

    kind: Literal["code", "list"]
    start: int
    end: int
    lines: tuple[str, ...]
    language: str = ""
    complete: bool = True
    code: tuple[Introduced | None, ...] = ()
    """A list's items' code blocks (a procedure's steps), by item; empty for code."""


def introduced(text: str, sentence_start: int, sentence_end: int) -> Introduced | None:
    """The block `text[sentence_start:sentence_end]` introduces, if it ends in ":" and has one.

    A sentence that ends in no stop at all introduces the code right below it too: "To use
    `markdown_py` from the command line, run it as" above a fenced `markdown_py
    input_file.txt` was quoted as "… run it as." with nothing to run. Not a list item's
    ("- A running Redis server version 6" above the list's example).
    """
    found = _below(text, sentence_start, sentence_end, (":",))
    if found is None:
        item = _LIST_ITEM.match(text, text.rfind("\n", 0, sentence_start) + 1)
        unfinished = None if item else _below(text, sentence_start, sentence_end, None)
        return None if unfinished is None else _code_at(*unfinished)
    lines, first = found
    indent = _column(text, sentence_start)
    rest = lines[first:]
    line = rest[0][1]
    if _TAB.match(line):
        return _first_tab(rest)
    if _FENCE_OPEN.fullmatch(line) or _DIRECTIVE.match(line):
        return _code_at(rest, 0)
    if (item := _LIST_ITEM.match(line)) and not THEMATIC_BREAK.fullmatch(line):
        # Its own list, not the items after the one the sentence is in ("1. Check:" "2. …").
        depth = columns(item.group(1))
        return _list(rest, depth) if depth >= indent else None
    if first == 0:  # an indented line right below continues the paragraph (or defines it)
        return None
    if _DOCTEST.match(line) and columns(line) >= indent:
        return _doctest(rest)
    if text[sentence_start:sentence_end].rstrip().endswith("::") and columns(line) > indent:
        return _indented(rest, indent, rest[0][0], "", options=False)
    if columns(line) >= indent + 4:  # Markdown's indented code: four columns in, or more
        return _indented(rest, indent + 3, rest[0][0], "", options=False)
    return None


@dataclass(frozen=True, slots=True)
class Included:
    """A file an introducing sentence shows by including it (`.. literalinclude::`)."""

    target: str
    """The file's path as the directive writes it."""
    start: int
    end: int
    """Where the directive (with its options) is in the text."""
    lines: tuple[tuple[int, int | None], ...] = ()
    """The file's lines it shows (`:lines: 2-5,8,10-`: first and last, 1-based, None to the
    end), when only some; empty for the whole file."""
    pyobject: str = ""
    """The function or class it shows (`:pyobject: TodoDirective`), when one; empty else."""


_INCLUDE = re.compile(INCLUDE_DIRECTIVE)
_PART = re.compile(r"[ \t]*:?(?:start-after|end-before|start-at|end-at|diff):")
"""An option showing a part of the file that only its text tells (the lines between two
markers, a diff): the file's chunks are then not what is shown."""
_PYOBJECT = re.compile(r"[ \t]*:?pyobject:[ \t]*(?P<name>[A-Za-z_][\w.]*)[ \t]*$")
"""The pyobject option ("   :pyobject: TodoDirective", "pyobject: Outer.method")."""
_LINES = re.compile(r"[ \t]*:?lines:[ \t]*(?P<spec>[\d\s,-]+?)[ \t]*$")
"""The lines option ("   :lines: 2-5,8", or "lines: 2-5" in MyST's YAML block)."""
_RANGE = re.compile(r"(?P<first>\d*)\s*(?P<dash>-)?\s*(?P<last>\d*)")


def line_ranges(spec: str) -> tuple[tuple[int, int | None], ...] | None:
    """The ranges of a `:lines:` option as Sphinx reads them ("2-5,8,10-", "-3").

    None when it reads none: an empty part, a range running backwards, line 0.
    """
    found: list[tuple[int, int | None]] = []
    for part in spec.split(","):
        match = _RANGE.fullmatch(part.strip())
        if match is None or not (match["first"] or match["last"]):
            return None
        first = int(match["first"] or 1)
        last = int(match["last"]) if match["last"] else (None if match["dash"] else first)
        if first < 1 or (last is not None and last < first):
            return None
        found.append((first, last))
    return tuple(found)


def included(text: str, sentence_start: int, sentence_end: int) -> Included | None:
    """The whole file `text[sentence_start:sentence_end]` ("Example:") shows by including it.

    AnyIO's docs say "To wrap an existing open file object as an asynchronous file, you can
    use :func:`.wrap_file`:" above `.. literalinclude:: snippets/fileio/wrap_file.py`; the
    code is another file's. None when the sentence does not end in ":" and its line, when
    the line below is no `literalinclude`, or when an option shows a part of the file that
    only its text tells (`:start-after:`, `:diff:`, …). Which lines `:lines:` shows (also
    MyST's "lines: 2-5" between two "---" lines) is kept in `Included.lines`, the object
    `:pyobject:` names in `Included.pyobject`.
    """
    found = _below(text, sentence_start, sentence_end, (":",))
    if found is None:
        return None
    lines, first = found
    directive = _INCLUDE.fullmatch(lines[first][1])
    if directive is None or "literalinclude" not in (directive["rst"], directive["myst"]):
        return None
    last = first
    shown: tuple[tuple[int, int | None], ...] = ()
    named = ""
    fenced = first + 1 < len(lines) and lines[first + 1][1].strip() == "---"
    for index in range(first + 1 + fenced, len(lines)):
        line = lines[index][1]
        if fenced and line.strip() == "---":  # MyST's options as YAML, between two "---"
            last = index
            break
        if not fenced and (not line.strip() or not _OPTION.match(line)):
            break
        if _PART.match(line):
            return None
        if option := _LINES.match(line):
            ranges = line_ranges(option["spec"])
            if ranges is None:
                return None
            shown = ranges
        if option := _PYOBJECT.match(line):
            named = option["name"]
        last = index
    return Included(directive["path"], lines[first][0], _end(lines, last), shown, named)


def example_after(text: str, sentence_start: int, sentence_end: int) -> Introduced | None:
    """The code block right after a statement that ends its paragraph: its example.

    "One common use case is to wrap data in a namespace upon serialization." followed by
    a `.. code-block:: python` showing `@post_dump` says how in the code alone. Only a
    fence or a code directive counts (not a list, not an indented paragraph), and only
    after a sentence that ends with "." or "!" and its line (a ":" one: `introduced`).
    """
    found = _below(text, sentence_start, sentence_end, (".", "!"))
    return None if found is None else _code_at(*found)


def code_opening(text: str, offset: int) -> Introduced | None:
    """The code block opening on the first line below `offset` that is not blank, if one.

    A fence, a directive whose body is code shown as is, or a doctest block: what a
    section opens with right below its heading ("Usage" over packaging's doctest).
    """
    line_end = text.find("\n", offset)
    if line_end < 0:
        return None
    lines = lines_from(text, line_end + 1)
    first = next((i for i, (_, line) in enumerate(lines) if line.strip()), None)
    if first is None:
        return None
    if _DOCTEST.match(lines[first][1]):
        return _doctest(lines[first:])
    return _code_at(lines, first)


def _below(
    text: str, sentence_start: int, sentence_end: int, endings: tuple[str, ...] | None
) -> tuple[list[tuple[int, str]], int] | None:
    """The lines below a sentence that ends its line, and the index of the first not blank.

    None when the sentence ends in none of `endings` (None: in a word or a code span, no
    stop) or not at its line's end, or when nothing follows it.
    """
    sentence = text[sentence_start:sentence_end].rstrip()
    if endings is None:
        if not sentence or not (sentence[-1].isalnum() or sentence[-1] == "`"):
            return None
    elif not sentence.endswith(endings):
        return None
    line_end = text.find("\n", sentence_end)
    if line_end < 0 or text[sentence_end:line_end].strip():
        return None
    lines = lines_from(text, line_end + 1)
    first = next((i for i, (_, line) in enumerate(lines) if line.strip()), None)
    return None if first is None else (lines, first)


def _column(text: str, start: int) -> int:
    """The indentation of the paragraph holding the sentence that starts at `start`.

    A list item's sentence counts from its text, after the mark ("1.  It can be …"); one
    on the chunk's first line, trimmed, from where that line stood (`first_line_column`).
    """
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start]
    if not before.strip() or _MARK_ONLY.fullmatch(before):
        return len(before.expandtabs(4))
    if line_start == 0 and not before[:1].isspace():
        return first_line_column(text)
    return columns(before)


def _end(lines: list[tuple[int, str]], index: int) -> int:
    """The offset just after line `index`'s text."""
    offset, line = lines[index]
    return offset + len(line)


def _fenced(lines: list[tuple[int, str]], fence: re.Match[str]) -> Introduced | None:
    margin, marks, language = fence.group(1), fence.group(2), fence.group(3)
    closing = re.compile(rf"[ \t]*{re.escape(marks[0])}{{{len(marks)},}}[ \t]*")
    body: list[str] = []
    last = 0
    complete = False
    for index in range(1, len(lines)):
        line = lines[index][1]
        if closing.fullmatch(line):
            last, complete = index, True
            break
        body.append(line[len(margin) :] if line.startswith(margin) else line.lstrip(" \t"))
        last = index
    shown, cut = _capped(body)
    if not shown:  # an empty block, or a fence the chunk ends at
        return None
    return Introduced("code", lines[0][0], _end(lines, last), shown, language, complete and not cut)


def _indented(
    lines: list[tuple[int, str]], indent: int, start: int, language: str, *, options: bool
) -> Introduced | None:
    """The lines indented deeper than `indent` (blank lines inside), as a code block.

    After a directive, its options (`:caption: hello.py`) are left out.
    """
    body: list[str] = []
    last = -1
    for index, (_, line) in enumerate(lines):
        if not line.strip():
            body.append("")
            continue
        if columns(line) <= indent:
            break
        if options and not any(body) and _OPTION.match(line):
            continue
        body.append(line)
        last = index
    if last < 0:
        return None
    kept = body[: last + 1]  # _capped drops the blank lines at either end
    margin = min(columns(line) for line in kept if line.strip())
    shown, cut = _capped([line.expandtabs(4)[margin:] for line in kept])
    return Introduced("code", start, _end(lines, last), shown, language, not cut)


_DOCTEST = re.compile(r"[ \t]*>>>(?:[ \t]|$)")
"""A doctest block's first line: reStructuredText's interactive session, a paragraph of its
own ("Rendering something that doesn't look like a Python literal produces a string:"
above ">>> t = env.from_string(…)" in Jinja's docs)."""


def _doctest(lines: list[tuple[int, str]]) -> Introduced | None:
    """The doctest block opening `lines`: its lines up to the first blank one, as code."""
    body: list[str] = []
    for _, line in lines:
        if not line.strip():
            break
        body.append(line)
    margin = min(columns(line) for line in body)
    shown, cut = _capped([line.expandtabs(4)[margin:] for line in body])
    return Introduced("code", lines[0][0], _end(lines, len(body) - 1), shown, "pycon", not cut)


def _capped(body: list[str]) -> tuple[tuple[str, ...], bool]:
    """At most `MAX_LINES` lines (no blank lines at either end); and whether it was cut."""
    while body and not body[-1].strip():
        body.pop()
    while body and not body[0].strip():
        body.pop(0)
    if len(body) <= MAX_LINES:
        return tuple(body), False
    return tuple(body[:MAX_LINES]), True


def _list(lines: list[tuple[int, str]], indent: int) -> Introduced:
    """The top-level items of the list whose first item is `lines[0]`, at `indent`.

    A step's code (a fence or a code directive below an item, as procedures write them, or
    the literal block an item's text opens with "::") goes with its item, within
    `MAX_LIST_CODE_LINES` for the whole list: Tornado's FAQ item "… use `tornado.gen.sleep`
    (or `asyncio.sleep`) instead::" had been shown with its code run into its text, and
    "range(5)" read as a citation.
    """
    items: list[list[str]] = []
    code: list[Introduced | None] = []
    last = 0
    blank = False
    nested = False
    complete = True
    budget = MAX_LIST_CODE_LINES
    index = 0
    text_column = indent
    while index < len(lines):
        line = lines[index][1]
        if not line.strip():
            blank = True
            index += 1
            continue
        depth = columns(line)
        item = _LIST_ITEM.match(line)
        if item and depth == indent and not THEMATIC_BREAK.fullmatch(line):
            if len(items) == MAX_ITEMS:
                complete = False
                break
            items.append([line[item.end() :].strip()])
            code.append(None)
            nested = False
            text_column = len(line[: item.end()].expandtabs(4))
        elif (literal := _opens_literal(items, depth, text_column)) or _code_opens(line):
            step = _literal_at(lines, index, text_column) if literal else _code_at(lines, index)
            if step is None and not literal and depth <= indent:
                break  # a directive after the list, no step of it: Invoke's ".. option:: -D"
            if step is None or code[-1] is not None or len(step.lines) > budget:
                complete = False  # the list shown ends before it, and says so
                break
            code[-1] = step
            budget -= len(step.lines)
            index = _after(lines, index, step.end)
            last = index - 1
            blank = False
            if not step.complete:  # cut: nothing after it is shown
                complete = False
                break
            continue
        elif depth > indent:
            nested = nested or bool(item)
            if not nested:
                items[-1].append(line.strip())
        elif not blank and not item and not nested:  # a lazy continuation line
            items[-1].append(line.strip())
        else:
            break
        last = index
        blank = False
        index += 1
    shown = tuple(_item_text(parts) for parts in items)
    return Introduced("list", lines[0][0], _end(lines, last), shown, "", complete, tuple(code))


_TAB = re.compile(
    r"[ \t]*(?:\.\.[ \t]+(?:tabs?|group-tab|tab-item|tab-set)[ \t]*::"
    r"|(?:`{3,}|~{3,}|:{3,})[ \t]*\{(?:tab|tab-item|tab-set)\})"
)
"""A tab of a tab set (sphinx-tabs, sphinx-design, MyST): its body holds the code."""
_TAB_LINES = 12
"""How far into a tab set its first code may start (its tabs and options before it)."""


def _first_tab(lines: list[tuple[int, str]]) -> Introduced | None:
    """The code of the first tab of the tab set opening at `lines[0]`.

    pip writes "Pip is able to uninstall most packages like so:" over `.. tab::
    Unix/macOS` and `.. tab:: Windows`, each holding a `.. code-block:: shell`: the
    sentence had been quoted with nothing after its colon (the tab was no code), and a
    MyST ````` ````{tab} Linux ````` had been shown with its inner fence as code. The first
    tab's code is shown; None when the tab opens with prose.
    """
    for index in range(1, min(len(lines), _TAB_LINES)):
        line = lines[index][1]
        if not line.strip() or _TAB.match(line) or _OPTION.match(line):
            continue
        return _code_at(lines, index) if _code_opens(line) else None
    return None


def _code_opens(line: str) -> bool:
    """Whether `line` opens a code block: a fence, or a directive (`_code_at` reads which)."""
    return bool(_FENCE_OPEN.fullmatch(line) or _DIRECTIVE.match(line))


def _opens_literal(items: list[list[str]], depth: int, text_column: int) -> bool:
    """Whether a line `depth` columns in is the literal block the last item's text opens."""
    return bool(items) and items[-1][-1].endswith("::") and depth > text_column


def _literal_at(lines: list[tuple[int, str]], index: int, text_column: int) -> Introduced | None:
    """The literal block at `lines[index]`, below an item's text `text_column` columns in."""
    return _indented(lines[index:], text_column, lines[index][0], "", options=False)


_LABEL = re.compile(r"(\*\*|__)[^*_\n]+\1")
"""An item's first line that is a bold label alone: "* __Middle-Word Emphasis__"."""


def _item_text(parts: list[str]) -> str:
    """An item's lines joined; a bold label alone on its line ends with ":".

    "__Middle-Word Emphasis__" above "Python-Markdown defaults to ignoring …" had read
    "Middle-Word Emphasis Python-Markdown defaults to …".
    """
    if len(parts) > 1 and _LABEL.fullmatch(parts[0]):
        said = parts[0].strip("*_").rstrip()
        colon = "" if said.endswith((":", ".", "!", "?")) else ":"
        return f"{parts[0]}{colon} {' '.join(parts[1:])}"
    return " ".join(parts)


def _code_at(lines: list[tuple[int, str]], index: int) -> Introduced | None:
    """The code block that starts at `lines[index]`, if it is one.

    A fence, or a directive whose body is code shown as is (`_SHOWN_CODE`, an extension's
    example); None for any other line.
    """
    line = lines[index][1]
    if fence := _FENCE_OPEN.fullmatch(line):
        return _fenced(lines[index:], fence)
    directive = _DIRECTIVE.match(line)
    if directive is None:
        return None
    name = directive.group(1).lower()
    if name not in _SHOWN_CODE and not name.endswith(EXAMPLE_SUFFIXES):
        return None
    return _indented(
        lines[index + 1 :], columns(line), lines[index][0], directive.group(2), options=True
    )


def _after(lines: list[tuple[int, str]], index: int, end: int) -> int:
    """The index of the first line after `lines[index]` that starts past offset `end`."""
    while index < len(lines) and lines[index][0] < end:
        index += 1
    return index
