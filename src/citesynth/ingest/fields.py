"""The fields of Sphinx's info field lists, read as statements.

A hand-written API reference describes a function's or a class's parameters in fields
under its directive, and states there what no other sentence does: aiohttp's
`BaseConnector` has ":param int limit: total number simultaneous connections. If *limit*
is ``0`` the connector has no limit (default: 100)." A field is no prose
(`sentences.prose_sentences` leaves it out: alone, "total number simultaneous
connections." says nothing of what), so neither writer saw it: asked what
`enable_cleanup_closed` does, the extractive writer quoted three sentences about
connectors in general, and "What does the max_field_size parameter do?" was not found.
`info_fields` reads each field that describes something by name (a parameter, keyword,
variable, exception) or what a call returns, and `field_text` writes it as a statement
naming it ("`limit` (int): total number simultaneous connections. If *limit* is ``0`` the
connector has no limit (default: 100)."), as a table's row is (`tables.row_text`).

- A field opens a line: `:param [type] name:`, `:keyword name:`, `:ivar name:`,
  `:raises Error:`, `:returns:`; its text is the rest of that line and the lines below
  it indented deeper than its colon, up to a blank line (its first paragraph; a version
  note or a further paragraph below it is read as prose already) or the next field's line.
  A chunk may open at a field's colon, its indentation left in the chunk before: peewee's
  ":param str database: …" then sat at column 0 above three fields indented three
  spaces, and was read as running on through them ("… database file. :param int
  max_connections: Maximum number of concurrent connections [9].").
- A term of a definition list written as code alone on its line, its definition indented
  below it (2026-12-04), when no prose sentence reads the definition: Pygments' style
  rules ("``noinherit``" above "don't inherit styles from supertoken") are fragments in
  lower case, no sentence of their own, and "how do I stop a sub-token from picking up
  its parent's styling?" went unanswered. A definition read as prose already ("`tabsize`"
  above "If given and greater than 0, expand tabs …") is left to it. Kind "term".
- A field that only gives a type (`:type limit: int`, `:rtype:`) states nothing of its own.
- A field in code is an example of writing one, not a description: not inside a fenced
  block nor a reStructuredText literal or code block (`rst.rst_blocks`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice, pairwise

from citesynth.ingest.blocks import BlockKind, lines_from
from citesynth.ingest.fences import fenced_blocks
from citesynth.ingest.rst import rst_blocks
from citesynth.ingest.sentences import prose_sentences

_FIELD = re.compile(
    r"([ \t]*):(param|parameter|arg|argument|key|keyword|kwarg|var|ivar|cvar"
    r"|raises?|except|exception|returns?|yields?)(?:[ \t]+([^:`\n]+?))?[ \t]*:(?=[ \t]|$)"
)
_NAMED = frozenset("param parameter arg argument key keyword kwarg var ivar cvar term".split())
_TERM = re.compile(r"([ \t]*)(``?)([^`\n]+)\2[ \t]*\r?")
"""A definition list's term that is code alone on its line: "``noinherit``", "`tabsize`"."""
_RAISES = frozenset("raise raises except exception".split())
MOST_WORDS = 60
"""Words of a field's text shown at most: its first sentences up to this many (one at least)."""


@dataclass(frozen=True, slots=True)
class InfoField:
    """One field: where it is in the text, what it describes and its text."""

    start: int
    """Where the field's line starts (its indentation included)."""
    end: int
    """Where the text shown ends (`MOST_WORDS`)."""
    kind: str
    """The field's name as written: "param", "keyword", "raises", "returns"; "term" for a
    definition list's term."""
    name: str
    """What it describes ("limit"; the exception for "raises"; "" for "returns")."""
    type: str
    """The type written before the name (":param int limit:" → "int"; "" if none)."""
    text: str
    """Its text, as written (markup and line breaks kept)."""


@lru_cache(maxsize=256)
def info_fields(text: str) -> tuple[InfoField, ...]:
    """The fields of `text` outside code, in order (see the module docstring)."""
    if ":" not in text:
        return ()
    code = list(fenced_blocks(text))
    if "::" in text:
        code += [(b.start, b.end) for b in rst_blocks(text) if b.kind is BlockKind.CODE]
    lines = lines_from(text)
    found: list[InfoField] = []
    for index, (at, line) in enumerate(lines):
        marker = _FIELD.match(line)
        if marker is None or any(a <= at + len(marker.group(1)) < b for a, b in code):
            continue
        read = _read(marker)
        if read is None:
            continue
        kind, name, type_ = read
        column = len(marker.group(1).expandtabs())
        end = _body_end(lines, index, column)
        body = at + marker.end()
        body += len(text[body:end]) - len(text[body:end].lstrip())
        if body < end:
            shown = _shown_end(text, body, end)
            found.append(InfoField(at, shown, kind, name, type_, text[body:shown]))
    found += _terms(text, lines, code)
    return tuple(sorted(found, key=lambda field: field.start))


def _terms(text: str, lines: list[tuple[int, str]], code: list[tuple[int, int]]) -> list[InfoField]:
    """The definitions of code terms that no prose sentence reads (see the module)."""
    found: list[InfoField] = []
    prose: list[tuple[int, int]] | None = None
    prose_ends: list[int] = []
    for index, ((at, line), (below, below_line)) in enumerate(pairwise(lines)):
        term = _TERM.fullmatch(line)
        if term is None or any(a <= at + len(term.group(1)) < b for a, b in code):
            continue
        column = len(term.group(1).expandtabs())
        opening = below_line.lstrip()
        if _depth(below_line) <= column or not opening or opening.startswith(("..", ":")):
            continue
        if _TERM.fullmatch(below_line):
            continue  # a term nested below it defines nothing of it
        end = _body_end(lines, index, column, opens=_TERM.fullmatch)
        body = below + len(below_line) - len(opening)
        if prose is None:
            prose = prose_sentences(text)
            prose_ends = [b for _, b in prose]
        after = bisect_right(prose_ends, body)  # the first sentence ending past the body's start
        if after < len(prose) and prose[after][0] < end:
            continue  # read as prose already
        found.append(InfoField(at, end, "term", term.group(3).strip(), "", text[body:end]))
    return found


def _depth(line: str) -> int:
    """The columns a line is indented by (tabs expanded)."""
    return len(line.expandtabs()) - len(line.expandtabs().lstrip())


def _body_end(
    lines: list[tuple[int, str]],
    index: int,
    column: int,
    opens: Callable[[str], object] = _FIELD.match,
) -> int:
    """Where the text opening at `lines[index]` ends, with the lines below it.

    The lines deeper than `column`, up to a blank line or a line that `opens` another
    (a field's line opens the next field, however deep; a code term's, the next term).
    """
    at, line = lines[index]
    end = at + len(line)
    for below, below_line in islice(lines, index + 1, None):
        if not below_line.strip() or _depth(below_line) <= column or opens(below_line):
            break
        end = below + len(below_line)
    return end


def _read(marker: re.Match[str]) -> tuple[str, str, str] | None:
    """(kind, name, type) of a field's marker; None when it names nothing it should."""
    kind, argument = marker.group(2), (marker.group(3) or "").strip()
    words = argument.split()
    if kind in _NAMED:
        if not words:
            return None
        return kind, words[-1].strip("*"), " ".join(words[:-1])
    return kind, argument, ""


def _shown_end(text: str, body: int, end: int) -> int:
    """Where a field's text is cut: after its first sentences up to `MOST_WORDS` words."""
    shown = body
    words = 0
    for start, stop in prose_sentences(text[body:end], min_words=1):
        words += len(text[body + start : body + stop].split())
        if shown > body and words > MOST_WORDS:
            break
        shown = body + stop
    return shown if shown > body else end


def field_text(field: InfoField) -> str:
    """A field as a statement naming what it describes, its text on one line.

    "`limit` (int): total number …", "Raises `ValueError`: if …", "Returns: the …".
    """
    said = " ".join(field.text.split())
    if field.kind in _NAMED:
        return named_statement(field.name, field.type, said)
    if field.kind in _RAISES:
        return f"Raises `{field.name}`: {said}" if field.name else f"Raises: {said}"
    return f"{field.kind.rstrip('s').capitalize()}s: {said}"


def named_statement(name: str, type_: str, said: str) -> str:
    """The statement of what `said` describes, named in code, with its type if given.

    "`limit` (int): total number …": how fields, docstring items and doc comment tags are
    quoted alike (the extractive writer reads the name back from that form).
    """
    typed = f" ({type_})" if type_ else ""
    return f"`{name}`{typed}: {said}"
