"""The section a source's sentence stands in: its heading, and what it names.

Reference pages and change logs write a sentence without what it is about: under
"### StreamingResponse", "Takes an async generator …"; under "Trio 0.32.0 (2025-10-31)",
"Drop support for Python 3.9". `section_of` reads the heading over a sentence (a Sphinx
object's name, a Markdown heading, an underlined title, else the chunk's heading path),
`unnamed_identifier` and `unnamed_release` what an extractive answer heads such a sentence
with.
"""

from __future__ import annotations

import re
from functools import lru_cache

from citesynth.ingest.fences import fenced_blocks
from citesynth.ingest.markdown import (
    CLOSING_HASHES,
    HEADING_ATTRIBUTES,
    rendered_markdown,
)
from citesynth.ingest.rst import described_at
from citesynth.ingest.titles import adornments, titled
from citesynth.synthesis.changelogs import change_log
from citesynth.synthesis.releases import names_release
from citesynth.synthesis.sources import Source
from citesynth.types import Chunk

_IDENTIFIER = re.compile(r"`{0,2}([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*(?:\(\))?)`{0,2}")
_CODE_CASE = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]|[_.]|\(\)")
"""How an identifier is written that no word of prose is: camelCase, an acronym run into a
word ("HTMLResponse"), snake_case, a dotted path or a call."""


def unnamed_identifier(chunk: Chunk, offset: int, sentence: str) -> str:
    """The identifier a sentence's section is headed by, when the sentence does not name it.

    Reference pages head a section with what it documents and describe it without naming
    it: under "### StreamingResponse", "Takes an async generator or a normal
    generator/iterator and streams the response body." The extractive answer heads such a
    sentence with the name; quoted alone it does not say which class to use. Only a
    heading that is one identifier (`_CODE_CASE`) counts: "Cookies" or "Installation" name
    no API; an object description's name is one however written (Pillow's ".. py:attribute::
    FASTOCTREE" over "Fast octree. Default method for RGBA images."). "" when there is
    none, or the sentence names it (or its last dotted part).
    """
    heading = section_of(chunk, offset).removesuffix(": ")
    found = _IDENTIFIER.fullmatch(heading)
    described = heading == described_at(chunk.text, offset)
    if found is None or not (described or _CODE_CASE.search(found.group(1))):
        return ""
    name = found.group(1)
    said = sentence.lower()
    return "" if name.lower() in said or name.rsplit(".", 1)[-1].lower() in said else name


def unnamed_release(source: Source, offset: int, sentence: str) -> str:
    """The release heading a change log's sentence stands under, when it does not name it.

    A change log lists its changes under a heading per release ("Trio 0.32.0
    (2025-10-31)", then "Deprecations and removals"), each change written without it:
    "Drop support for Python 3.9 (#3345)" quoted alone does not say which release dropped
    it. The nearest heading above the sentence that writes a release number (`releases.
    names_release`), in the chunk or on its heading path; "" when the document is no
    change log (`changelogs.change_log`), there is none, or the sentence writes it.
    """
    chunk = source.chunk
    if not change_log(source.document, chunk.title):
        return ""
    above = [heading for end, heading in section_headings(chunk.text) if end <= offset]
    release = next((h for h in reversed([*chunk.heading_path, *above]) if names_release(h)), "")
    release = " ".join(release.split())
    return "" if not release or release.lower() in sentence.lower() else release


_MARKDOWN_HEADING = re.compile(r"^ ?#{1,6}[ \t]+(\S[^\n]*)$", re.MULTILINE)
"""A Markdown heading's line. Not an indented one: that is a comment of indented code (a
reStructuredText literal block's "    # Initialize the rest of the application here" had
headed APScheduler's next sentence)."""


def section_of(chunk: Chunk, offset: int) -> str:
    """The heading of the section holding `chunk.text[offset]`, as a lead-in ("Immutability: ").

    The name of the Sphinx object whose description holds it (`rst.described_at`: Flask's
    ".. py:data:: TEMPLATES_AUTO_RELOAD" over "Reload templates when they are changed."),
    else the last heading above it in the chunk (outside code: a Markdown "#" heading or an
    underlined title, `section_headings`), else the chunk's
    deepest heading; "" when it has none, or the heading is the document's title (a
    record's heading path is its title: every sentence of it would read the same).
    """
    described = described_at(chunk.text, offset)  # ".. py:data:: TEMPLATES_AUTO_RELOAD"
    if described:
        return f"{described}: "
    above = [heading for end, heading in section_headings(chunk.text) if end <= offset]
    heading = above[-1] if above else (chunk.heading_path or ("",))[-1]
    heading = " ".join(heading.split())
    return f"{heading}: " if heading and heading != chunk.title else ""


@lru_cache(maxsize=256)
def section_headings(text: str) -> tuple[tuple[int, str], ...]:
    """The headings of `text` outside code, in order, each with where its last line ends.

    Markdown's "# Heading" lines, and the titles that adornment lines underline
    (`titles.adornments`, `titles.titled`): a chunk packing several small sections of
    a reference page (Django's settings, each titled and underlined) reads each sentence
    under its own title, not under the chunk's common heading ("Sessions"). Read once per
    chunk: every candidate sentence of the chunk asks for its section.
    """
    code = fenced_blocks(text)
    found = [
        (m.start(), m.end(), _markdown_heading(m.group(1)))
        for m in _MARKDOWN_HEADING.finditer(text)
    ]
    for line_start, line_end in adornments(text):
        if (title := titled(text, line_start, line_end)) is not None:
            found.append((title[0], line_end, text[title[0] : title[1]].strip()))
    return tuple(
        (end, heading)
        for start, end, heading in sorted(found)
        if not any(a <= start < b for a, b in code)  # a comment: "# Use a timeout"
    )


def _markdown_heading(written: str) -> str:
    """A Markdown heading's title as written, less its closing marks, attributes and links.

    Hatch's change log heads each release "## [1.32.0](https://github.com/…) - 2026-08-11
    ## {: #hatchling-v1.32.0 }": the closing "##" stands before the attribute list, and the
    release had been shown with both and the link's address. A reference link is its text
    ("## [3.3.0] - 2020-10-06" is "3.3.0 - 2020-10-06").
    """
    title = HEADING_ATTRIBUTES.sub("", CLOSING_HASHES.sub("", written.rstrip()))
    title = CLOSING_HASHES.sub("", title)
    return _SHORTCUT.sub(r"\1", rendered_markdown(_LINK.sub(r"\1", title)))


_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\s]*\)")
"""A Markdown link, "[1.32.0](https://…)": its text is what a heading says."""
_SHORTCUT = re.compile(r"(?<![\]\\!])\[([^\[\]\n]+)\](?![(\[:])")
"""A shortcut reference link, "[3.3.0]": Python-Markdown's change log heads each release "##
[3.3.0] - 2020-10-06" (Keep a Changelog's style), its label defined at the page's foot."""
