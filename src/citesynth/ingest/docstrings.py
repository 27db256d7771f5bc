"""The prose of Python docstrings: their sentences and described parameters, as statements.

A source file is code, and no sentence of it was ever prose (`sentences.prose_sentences`
reads a docstring's indented lines as code): asked "What does the retries parameter of
Client do?" over a project's own source, the extractive writer answered "Not found in the
sources." though `Client.__init__`'s docstring says it. `docstring_units` reads each
docstring of a chunk of Python with its indentation removed, and gives, with their offsets
in the chunk:

- its prose sentences ("A client that keeps connections open between requests.");
- its Sphinx info fields as `fields.field_text` writes them ("`retries`: how many times a
  failed request is sent again. …");
- the items of its Google-style sections ("Args:", "Keyword Args:", "Raises:", "Returns:",
  …): "`stream`: read the body lazily, …", "Returns: The body of the response.", and of
  its NumPy-style ones ("Parameters" over dashes, "limit : int, optional" over its
  description): "`limit` (int, optional): The most rows read.".

A docstring is a string literal in triple quotes opening its line, first in its chunk or
right below a line ending in ":" (a `def` or `class` header); one left unclosed by the
chunk's end is read up to it, and a chunk that starts inside one (its first triple quotes
close it: `_closes`) is read from its start. A chunk with no triple quotes is the middle of
a long docstring when it holds a line no code does (a field, ":param x_host: …", or a
section's title, "Args:"): ProxyFix's fields were such a chunk, and never read.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from citesynth.ingest.fields import field_text, info_fields, named_statement
from citesynth.ingest.sentences import prose_sentences

_QUOTES = re.compile(r"\"\"\"|'''")
_OPENING = re.compile(r"^([ \t]*)[rRuU]?(\"\"\"|''')", re.MULTILINE)
_SECTION = re.compile(
    r"(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Other Parameters"
    r"|Attributes|Raises|Returns|Return|Yields|Yield)[ \t]*:[ \t]*$"
)
_NUMPY_SECTION = re.compile(r"(Parameters|Other Parameters|Attributes|Raises|Returns|Yields)[ \t]*")
_DASHES = re.compile(r"[ \t]*-{3,}[ \t]*")
_FIELD_LINE = re.compile(r"^[ \t]*:(?:param|parameter|arg|keyword|raises?|returns?)\b", re.M)
_SECTION_LINE = re.compile(
    r"^[ \t]*(?:(?:Args|Arguments|Parameters|Raises|Returns)[ \t]*:|Parameters\n[ \t]*-{3,})"
    r"[ \t]*$",
    re.MULTILINE,
)
"""A line no code holds: a chunk without quotes holding one is inside a long docstring."""
_NAMED_SECTIONS = frozenset(
    {
        "Args",
        "Arguments",
        "Parameters",
        "Params",
        "Keyword Args",
        "Keyword Arguments",
        "Other Parameters",
        "Attributes",
    }
)
"""The sections whose items each name what they describe ("path: the path …")."""
_ITEM = re.compile(r"(\*{0,2}[A-Za-z_][\w.]*)(?:[ \t]*\(([^()\n]{1,60})\))?[ \t]*:[ \t]+(\S.*)")


@dataclass(frozen=True, slots=True)
class DocUnit:
    """A sentence or a described item of a docstring or doc comment, where it starts."""

    start: int
    text: str


@dataclass(frozen=True, slots=True)
class Stripped:
    """Lines with part of each cut off (indentation, a comment's mark), joined by newlines.

    With where each line's kept part stood, so that a unit found in `text` is cited where it
    stands in the text the lines were cut from.
    """

    text: str
    starts: tuple[int, ...]
    """Where each line starts in `text`."""
    sources: tuple[int, ...]
    """Where each line's kept part starts in the text it was cut from."""

    def origin(self, offset: int) -> int:
        """Where `text[offset]` stands in the text the lines were cut from."""
        line = bisect_right(self.starts, offset) - 1
        return self.sources[line] + offset - self.starts[line]


def stripped(
    text: str, start: int, end: int, keep: Callable[[int, str], tuple[int, int]]
) -> Stripped:
    """The lines of `text[start:end]`, each cut to the part `keep(index, line)` gives."""
    pieces: list[str] = []
    starts: list[int] = []
    sources: list[int] = []
    position, at = 0, start
    for index, line in enumerate(text[start:end].split("\n")):
        first, last = keep(index, line)
        starts.append(position)
        sources.append(at + first)
        pieces.append(line[first:last])
        position += last - first + 1
        at += len(line) + 1
    return Stripped("\n".join(pieces), tuple(starts), tuple(sources))


@lru_cache(maxsize=256)
def docstring_units(text: str) -> tuple[DocUnit, ...]:
    """The sentences and items of the docstrings of a chunk of Python, in order."""
    if '"""' not in text and "'''" not in text:
        inside = _FIELD_LINE.search(text) or _SECTION_LINE.search(text)
        return tuple(_read(text, 0, len(text))) if inside else ()
    units: list[DocUnit] = []
    position = 0
    first = _QUOTES.search(text)
    if first is not None and _closes(text, first.start()):  # the chunk opens in a docstring
        units.extend(_read(text, 0, first.start()))
        position = first.end()
    while (opening := _OPENING.search(text, position)) is not None:
        before = text[: opening.start()].rstrip()
        if before and not before.endswith(":"):  # a closing quote, or a string statement
            position = opening.end()
            continue
        body_start = opening.end()
        close = text.find(opening.group(2), body_start)
        body_end = len(text) if close < 0 else close
        units.extend(_read(text, body_start, body_end))
        position = len(text) if close < 0 else close + 3
    return tuple(units)


def _closes(text: str, at: int) -> bool:
    """Whether the triple quotes at `at`, the first of the text, close a docstring.

    They do after text on their line ("… environ key." and the quotes) but an assignment's
    or a call's ("x =", "f("), and alone on their line when the line above ends no `def` or
    `class` header.
    """
    line_start = text.rfind("\n", 0, at) + 1
    before = text[line_start:at].strip()
    if before:
        return not before.endswith(("=", "(", ",", "[", "{")) and before not in "rRuUbBfF"
    above = text[:line_start].rstrip()
    return bool(above) and not above.endswith(":")


def _read(text: str, start: int, end: int) -> list[DocUnit]:
    """The units of the docstring `text[start:end]`, dedented (offsets kept).

    Its lines lose their common indentation; the first (after the opening quotes) is kept.
    """
    lines = text[start:end].split("\n")
    cut = min((_indent(line, 0) for line in lines[1:] if line.strip()), default=0)
    read = stripped(
        text, start, end, lambda i, line: (0 if i == 0 else min(cut, _indent(line, 0)), len(line))
    )
    plain, origin = read.text, read.origin

    described, items = _sections(plain)
    fields = info_fields(plain)
    taken = [(f.start, f.end) for f in fields] + [(a, b) for a, b, _ in items]
    units = [
        DocUnit(origin(a), plain[a:b])
        for a, b in prose_sentences(plain, min_words=1)
        if not any(x <= a < y for x, y in taken) and not any(x <= a < y for x, y in described)
    ]
    units += [DocUnit(origin(f.start + _indent(plain, f.start)), field_text(f)) for f in fields]
    units += [DocUnit(origin(a), said) for a, _, said in items]
    return sorted(units, key=lambda unit: unit.start)


def _indent(text: str, start: int) -> int:
    return len(text[start:]) - len(text[start:].lstrip(" \t"))


def _sections(plain: str) -> tuple[list[tuple[int, int]], list[tuple[int, int, str]]]:
    """The Google- and NumPy-style sections of a docstring, and their items as statements.

    First, the span of each section (its title and items); second, each item's (start,
    end, statement): "`stream` (bool): read the body lazily …", "Returns: The body …".
    """
    spans: list[tuple[int, int]] = []
    items: list[tuple[int, int, str]] = []
    lines: list[tuple[int, str]] = []
    at = 0
    for line in plain.split("\n"):
        lines.append((at, line))
        at += len(line) + 1
    index = 0
    while index < len(lines):
        at, line = lines[index]
        if _numpy_title(lines, index):
            listed, index = _numpy_body(lines, index + 2)
            end = listed[-1][0] + len(listed[-1][1]) if listed else lines[index - 1][0]
            spans.append((at, end))
            items.extend(_numpy_items(line.strip(), listed))
            continue
        title = _SECTION.fullmatch(line)
        if title is None or line[:1] in " \t":
            index += 1
            continue
        name = title.group(1)
        body: list[tuple[int, str]] = []
        index += 1
        while index < len(lines) and (not lines[index][1].strip() or lines[index][1][:1] in " \t"):
            if lines[index][1].strip():
                body.append(lines[index])
            index += 1
        end = body[-1][0] + len(body[-1][1]) if body else at + len(line)
        spans.append((at, end))
        items.extend(_items(name, body))
    return spans, items


def _numpy_title(lines: list[tuple[int, str]], index: int) -> bool:
    """Whether `lines[index]` titles a NumPy-style section: "Parameters" over dashes."""
    title = lines[index][1]
    below = lines[index + 1][1] if index + 1 < len(lines) else ""
    return _NUMPY_SECTION.fullmatch(title) is not None and _DASHES.fullmatch(below) is not None


def _numpy_body(lines: list[tuple[int, str]], index: int) -> tuple[list[tuple[int, str]], int]:
    """A NumPy-style section's lines (not blank) from `index` to the next section's title."""
    body: list[tuple[int, str]] = []
    while index < len(lines):
        below = lines[index + 1][1] if index + 1 < len(lines) else ""
        if lines[index][1].strip() and _DASHES.fullmatch(below):
            break  # the next section's title
        if lines[index][1].strip():
            body.append(lines[index])
        index += 1
    return body, index


def _numpy_items(section: str, body: list[tuple[int, str]]) -> list[tuple[int, int, str]]:
    """A NumPy-style section's items as statements (start, end, statement).

    An item is a line at the section's least indentation, "limit : int, optional" (what
    it describes and its type; a returned value's type alone), and the lines indented
    deeper below it, its description: "`limit` (int, optional): the most rows read.",
    "Returns: the rows read.".
    """
    statements = []
    for start, end, words in _grouped(body):
        head, said = words[0], " ".join(words[1:])
        name, _, type_ = (part.strip() for part in head.partition(":"))
        if section in _NAMED_SECTIONS:
            statement = named_statement(name, type_, said) if said else ""
        elif section == "Raises":
            statement = f"Raises `{name}`: {said}" if said else f"Raises `{name}`."
        else:
            statement = f"{section.rstrip('s')}s: {said or head}"
        if statement:
            statements.append((start, end, statement))
    return statements


def _grouped(body: list[tuple[int, str]]) -> list[tuple[int, int, list[str]]]:
    """A section's lines as items: (start, end, the item's lines stripped).

    An item is a line at the section's least indentation and the lines indented deeper
    below it.
    """
    if not body:
        return []
    depth = min(len(line) - len(line.lstrip()) for _, line in body)
    found: list[tuple[int, int, list[str]]] = []
    for at, line in body:
        indent = len(line) - len(line.lstrip())
        if indent == depth or not found:
            found.append((at + indent, at + len(line), [line.strip()]))
        else:
            first, _, words = found[-1]
            found[-1] = (first, at + len(line), [*words, line.strip()])
    return found


def _items(section: str, body: list[tuple[int, str]]) -> list[tuple[int, int, str]]:
    """A section's items as statements (start, end, statement).

    An item as `_grouped` reads it. In a section of named items (`_NAMED_SECTIONS`) an
    item that does not open with a name and a colon ("path: …", "stream (bool): …") is
    left out.
    """
    statements = []
    for start, end, words in _grouped(body):
        said = " ".join(words)
        named = _ITEM.fullmatch(said) if section in _NAMED_SECTIONS or section == "Raises" else None
        if named is not None and section == "Raises":
            statement = f"Raises `{named.group(1)}`: {named.group(3)}"
        elif named is not None:
            statement = named_statement(
                named.group(1).lstrip("*"), named.group(2) or "", named.group(3)
            )
        elif section in _NAMED_SECTIONS:
            continue
        else:
            statement = f"{section.rstrip('s')}s: {said}"
        statements.append((start, end, statement))
    return statements
