"""The prose of doc comments in C-family code: JSDoc, Javadoc, KDoc, rustdoc, C#'s `///`.

What `docstrings` does for Python, for the languages whose documentation is a comment
above a declaration: `/** … */` blocks (each line's leading `*` aside) and runs of `///`
lines. Read as prose, code had passed for sentences ("A tiny HTTP client that keeps
connections open between requests. */ export class Client { /** [1]." was quoted from a
JavaScript file). `doc_comment_units` gives, with their offsets in the chunk, each doc
comment's prose sentences and its block tags as statements:

- `@param {number} [retries=3] - How many times …` → "`retries` (number): How many times
  …" (also `@arg`, `@argument`, `@property`, `@prop`);
- `@returns {string} The body.` → "Returns: The body." (`@return`);
- `@throws {TypeError} If …` → "Throws `TypeError`: If …" (`@exception`).

A tag's text runs on over the lines below it up to the next tag or a blank line; other
tags (`@example`, `@see`, `@since`) are left out, and so is what follows `@example`. A
chunk that starts inside a block (its first `*/` before any `/**`) is read from its start,
and one whose lines all open with a star is the middle of a long block, read whole.
"""

from __future__ import annotations

import re
from functools import lru_cache

from citesynth.ingest.docstrings import DocUnit, stripped
from citesynth.ingest.fields import named_statement
from citesynth.ingest.sentences import prose_sentences

DOC_COMMENT_LANGUAGES = frozenset(
    "javascript typescript java kotlin scala csharp swift c cpp objc rust php".split()
)
"""The languages whose documentation `doc_comment_units` reads (not Go, whose doc comments
are plain `//` lines)."""
_BLOCK = re.compile(r"/\*\*(?!/)(.*?)(?:\*/|\Z)", re.DOTALL)
_LINE_RUN = re.compile(r"(?:^[ \t]*///(?!/)[^\n]*(?:\n|\Z))+", re.MULTILINE)
_STARRED = re.compile(r"(?:[ \t]*(?:\*(?!/)[^\n]*)?(?:\n|\Z))+")
"""Text whose lines (not blank) all open with a comment's star."""
_LINE_MARK = re.compile(r"[ \t]*(?:\*(?!/)|///)?[ \t]?")
_TAG = re.compile(r"@(\w+)\b[ \t]*")
_FIRST_TAG = re.compile(r"^[ \t]*@\w", re.MULTILINE)
_ERROR_NAME = re.compile(r"([A-Z][\w.]*)[ \t]*(?:-[ \t]+)?")
_TYPE = re.compile(r"\{([^{}\n]*)\}[ \t]*")
_NAME = re.compile(r"\[?([\w.$]+)(?:=[^\]\s]*)?\]?[ \t]*(?:-[ \t]+)?")
_PARAMETERS = frozenset("param arg argument property prop".split())
_RETURNS = frozenset("returns return".split())
_THROWS = frozenset("throws exception".split())


@lru_cache(maxsize=256)
def doc_comment_units(text: str) -> tuple[DocUnit, ...]:
    """The sentences and tags of the doc comments of a chunk of code, in order."""
    opening, closing = text.find("/**"), text.find("*/")
    spans = [(m.start(1), m.end(1)) for m in _BLOCK.finditer(text)]
    if closing >= 0 and "/*" not in text[:closing]:  # the chunk opens in a comment
        spans.append((0, closing))
    elif opening < 0 and _STARRED.fullmatch(text):  # the middle of a long one
        spans.append((0, len(text)))
    spans += [(m.start(), m.end()) for m in _LINE_RUN.finditer(text)]
    units: list[DocUnit] = []
    for start, end in sorted(spans):
        units.extend(_read(text, start, end))
    return tuple(units)


def _read(text: str, start: int, end: int) -> list[DocUnit]:
    """The units of the comment `text[start:end]`, its lines' marks removed (offsets kept)."""

    def keep(_: int, line: str) -> tuple[int, int]:
        mark = _LINE_MARK.match(line)
        cut = mark.end() if mark else 0
        return cut, cut + len(line[cut:].rstrip())

    read = stripped(text, start, end, keep)
    plain, origin = read.text, read.origin
    tagged = _FIRST_TAG.search(plain)
    body_end = tagged.start() if tagged else len(plain)
    sentences = prose_sentences(plain[:body_end], min_words=1)
    units = [DocUnit(origin(a), plain[a:b]) for a, b in sentences]
    units += [DocUnit(origin(a), said) for a, said in _tags(plain, body_end)]
    return units


def _tags(plain: str, start: int) -> list[tuple[int, str]]:
    """The block tags from `start` on, as (offset, statement), those that say something."""
    found: list[tuple[int, str]] = []
    lines = plain[start:].split("\n")
    at = start
    current: tuple[int, str, list[str]] | None = None
    for line in [*lines, ""]:
        tag = _TAG.match(line.strip()) if line.strip().startswith("@") else None
        if tag is not None or not line.strip():
            if current is not None:
                found.extend(_statement(*current))
            current = None
            if tag is not None:
                indent = len(line) - len(line.lstrip())
                current = (at + indent, tag.group(1), [line.strip()[tag.end() :]])
            if tag is not None and tag.group(1) == "example":
                break
        elif current is not None:
            current[2].append(line.strip())
        at += len(line) + 1
    return found


def _statement(start: int, tag: str, words: list[str]) -> list[tuple[int, str]]:
    """A tag as a statement naming what it describes ([] for a tag that says nothing)."""
    said = " ".join(" ".join(words).split())
    typed = _TYPE.match(said)
    type_ = typed.group(1).strip() if typed else ""
    said = said[typed.end() :] if typed else said
    if tag in _PARAMETERS:
        named = _NAME.match(said)
        if named is None or not said[named.end() :].strip():
            return []
        return [(start, named_statement(named.group(1), type_, said[named.end() :].strip()))]
    if tag in _RETURNS and said:
        return [(start, f"Returns: {said}")]
    if tag in _THROWS and not type_ and (error_name := _ERROR_NAME.match(said)):
        type_, said = error_name.group(1), said[error_name.end() :]  # "IOException when …"
    if tag in _THROWS and (type_ or said):
        error = f" `{type_}`" if type_ else ""
        return [(start, f"Throws{error}: {said}" if said else f"Throws{error}.")]
    return []
