"""Loaders: file bytes to documents and their structural blocks, chosen by file name."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath

from citesynth.errors import LoadError
from citesynth.ingest.blocks import Block, BlockKind, paragraphs
from citesynth.ingest.code import FILENAMES, code_blocks, language_of
from citesynth.ingest.html import extract
from citesynth.ingest.jsonl import BadLine, read_records
from citesynth.ingest.markdown import markdown_blocks
from citesynth.ingest.markup import Markup, markup_of
from citesynth.ingest.pdf import read_pdf
from citesynth.ingest.pdf_layout import laid_out
from citesynth.ingest.rst import rst_blocks
from citesynth.ingest.text import content_hash, decode
from citesynth.types import Anchor, Document, DocumentId, DocumentKind


@dataclass(frozen=True, slots=True)
class Parsed:
    """A document and its blocks, ready for chunking."""

    document: Document
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class Loaded:
    """Everything one file yielded, with notes about what was tolerated on the way."""

    parsed: tuple[Parsed, ...]
    notes: tuple[str, ...] = ()


Loader = Callable[[str, bytes], Loaded]
"""`loader(display_path, data)`; raises `LoadError` when the file cannot be used."""

_MARKDOWN = frozenset({"md", "markdown", "mdx", "mkd", "mdown"})
_TEXT = frozenset({"txt", "text"})
_TEXT_NAMES = frozenset(
    """readme news install changes changelog history authors contributors contributing
    copying license licence notice todo thanks credits faq bugs hacking""".split()
)
"""Text files named without a suffix, as projects name them: README, NEWS, INSTALL, …"""


def _text_name(name: str) -> bool:
    """Whether `name` is a text file's name without a suffix ("README", "License").

    Capitalised: "install" is a script's name as often.
    """
    return name.lower() in _TEXT_NAMES and name[:1].isupper()


_RST = frozenset({"rst", "rest"})
_HTML = frozenset({"html", "htm", "xhtml"})
_JSONL = frozenset({"jsonl", "ndjson"})


def _suffix(path: str) -> str:
    return PurePosixPath(path).suffix.lower().lstrip(".")


def _stem_title(path: str) -> str:
    return PurePosixPath(path).name


def _text_of(data: bytes) -> tuple[str, tuple[str, ...]]:
    decoded = decode(data)
    if not decoded.text.strip():
        raise LoadError("empty file")
    notes = (f"not valid UTF-8; decoded as {decoded.encoding}",) if decoded.fell_back else ()
    return decoded.text, notes


def _document(
    path: str,
    kind: DocumentKind,
    data: bytes,
    text: str,
    title: str | None,
    anchors: tuple[Anchor, ...] = (Anchor(0, 1),),
    language: str | None = None,
) -> Document:
    return Document(
        id=DocumentId(content_hash(kind.value, data)),
        path=path,
        title=title or _stem_title(path),
        kind=kind,
        text=text,
        anchors=anchors,
        language=language,
    )


def _title_heading(blocks: list[Block]) -> str | None:
    """The heading that titles the document: its first, when no heading ranks above it.

    A first-level heading titles what follows it. Below the first level, the first heading
    is the title only when it opens the document and is the one heading of its level:
    documentation sites often leave the title to their navigation, and one of several `##`
    sections ("Third party responses"), or a last section under the page's prose, would
    otherwise name, and be searched with, every chunk of the file. Without such a heading
    the file's name is the title.
    """
    headings = [block for block in blocks if block.heading]
    if not headings:
        return None
    first = headings[0]
    if any(block.level < first.level for block in headings):
        return None
    if first.level > 1:
        opening = next(block for block in blocks if block.kind is not BlockKind.CODE)
        if opening is not first or any(block.level == first.level for block in headings[1:]):
            return None
    return first.heading


def load_markdown(path: str, data: bytes) -> Loaded:
    """Markdown file: raw text, blocks by markdown-it token line ranges."""
    return _read_as("markdown", path, data, *_text_of(data))


def load_rst(path: str, data: bytes) -> Loaded:
    """Load a reStructuredText file: raw text, blocks by section titles and paragraphs."""
    return _read_as("rst", path, data, *_text_of(data))


def load_text(path: str, data: bytes) -> Loaded:
    """Text file: read as the markup it is written in (`markup.markup_of`), else paragraphs.

    Django's documentation is reStructuredText in `.txt` files; read as plain text it had
    no headings and no title but its file name.
    """
    text, notes = _text_of(data)
    return _read_as(markup_of(text), path, data, text, notes)


def _read_as(
    markup: Markup | None, path: str, data: bytes, text: str, notes: tuple[str, ...]
) -> Loaded:
    if markup is None:
        document = _document(path, DocumentKind.TEXT, data, text, None)
        return Loaded((Parsed(document, tuple(paragraphs(text))),), notes)
    blocks, kind = (
        (rst_blocks(text), DocumentKind.RST)
        if markup == "rst"
        else (markdown_blocks(text), DocumentKind.MARKDOWN)
    )
    document = _document(path, kind, data, text, _title_heading(blocks))
    return Loaded((Parsed(document, tuple(blocks)),), notes)


MINIFIED_SIZE = 20_000
"""Characters from which a source or data file may be minified (`MINIFIED_LINE`)."""
MINIFIED_LINE = 1_000
"""The mean line length (characters) past which such a file is minified or generated."""


def _minified(text: str) -> str | None:
    """Why `text` is a minified or generated file no reader reads, or None.

    griffe 2.4.1 ships its API as `docs/griffe.json`, 3 MB on one line: indexed as code, its
    chunks all cited "L1-L1" and answers quoted runs of `"is_public": true, …` (2026-12-05).
    Source written by people keeps its lines short; a bundle, a source map or a JSON dump
    does not.
    """
    if len(text) < MINIFIED_SIZE:
        return None
    lines = text.count("\n") + (not text.endswith("\n"))
    if len(text) / lines <= MINIFIED_LINE:
        return None
    return (
        f"minified or generated: {len(text):,} characters on {lines:,} line(s), "
        "no line range could cite it"
    )


def load_code(path: str, data: bytes) -> Loaded:
    """Source or config file: definitions open sections.

    Raises:
        LoadError: the file is minified or generated (`_minified`).
    """
    language = language_of(path) or "text"
    text, notes = _text_of(data)
    if reason := _minified(text):
        raise LoadError(reason)
    blocks = code_blocks(text, language)
    document = _document(path, DocumentKind.CODE, data, text, None, language=language)
    return Loaded((Parsed(document, tuple(blocks)),), notes)


def load_html(path: str, data: bytes) -> Loaded:
    """HTML page: main text only, anchored to source lines."""
    source, notes = _text_of(data)
    page = extract(source)
    if not page.text.strip():
        raise LoadError("HTML page has no text outside scripts and markup")
    document = _document(path, DocumentKind.HTML, data, page.text, page.title, page.anchors)
    return Loaded((Parsed(document, page.blocks),), notes)


def load_pdf(path: str, data: bytes) -> Loaded:
    """PDF: text per page; chunks never span pages.

    Running headers and footers are left out, and a section opens at each numbered heading
    (`pdf_layout`).
    """
    pdf = read_pdf(data)
    pages = laid_out(pdf.pages)
    separator = "\n\n"
    text = separator.join(page.text for page in pages)
    anchors: list[Anchor] = []
    blocks: list[Block] = []
    offset = 0
    for number, page in enumerate(pages, start=1):
        anchors.append(Anchor(offset, 1, number))
        position = offset
        for heading in page.headings:
            start, end = offset + heading.start, offset + heading.end
            blocks.extend(paragraphs(text, position, start, page=number))
            blocks.append(
                Block(
                    start,
                    end,
                    BlockKind.HEADING,
                    _heading_title(text[start:end]),
                    heading.level,
                    number,
                )
            )
            position = end
        blocks.extend(paragraphs(text, position, offset + len(page.text), page=number))
        offset += len(page.text) + len(separator)
    document = _document(path, DocumentKind.PDF, data, text, pdf.title, tuple(anchors))
    return Loaded((Parsed(document, tuple(blocks)),))


def _heading_title(text: str) -> str:
    """A PDF heading's title on one line, a word broken across its lines made whole again.

    "2 The penalized least squares approach to lin- / ear mixed models" is "… to linear
    mixed models"; "pre- and post-processing" and "First- versus second-order effects" keep
    their hyphens.
    """
    return " ".join(_BROKEN_WORD.sub("", text).split())


_BROKEN_WORD = re.compile(r"(?<=[a-z]{2})-[ \t]*\n[ \t]*(?!(?:and|or|to|und|et)\b)(?=[a-z])")
"""A hyphen ending a line inside a word; "First- versus second-order" on one line stays."""


def load_jsonl(path: str, data: bytes) -> Loaded:
    """JSONL corpus: one document per record; unusable lines are reported, not fatal."""
    text, notes = _text_of(data)
    parsed: list[Parsed] = []
    bad: list[BadLine] = []
    for item in read_records(text):
        if isinstance(item, BadLine):
            bad.append(item)
            continue
        document = Document(
            id=DocumentId(content_hash("record", item.record_id, item.title, item.text)),
            path=path,
            title=item.title or item.record_id,
            kind=DocumentKind.RECORD,
            text=item.text,
            record_id=item.record_id,
        )
        parsed.append(Parsed(document, tuple(paragraphs(item.text))))
    if not parsed:
        first = f": line {bad[0].line} {bad[0].reason}" if bad else ""
        raise LoadError(f"no usable records in JSONL file{first}")
    if bad:
        shown = "; ".join(f"line {b.line} {b.reason}" for b in bad[:3])
        more = f" and {len(bad) - 3} more" if len(bad) > 3 else ""
        notes = (*notes, f"skipped {len(bad)} bad line(s): {shown}{more}")
    return Loaded(tuple(parsed), notes)


def loader_for(path: str) -> Loader | None:
    """The loader for a file name, or None when the type is not supported."""
    suffix = _suffix(path)
    name = PurePosixPath(path).name
    if suffix in _MARKDOWN:
        return load_markdown
    if suffix in _RST:
        return load_rst
    if (suffix in _TEXT and name not in FILENAMES) or _text_name(name):
        return load_text
    if suffix in _HTML:
        return load_html
    if suffix == "pdf":
        return load_pdf
    if suffix in _JSONL:
        return load_jsonl
    if language_of(path) is not None:
        return load_code
    return None
