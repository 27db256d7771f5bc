"""Cross-references inside chunks: where a passage points the reader to another passage.

- Markdown links to other files of the corpus and to sections: `[Retries](retries.md#backoff)`,
  `[see below](#limits)`; web and mail links are left out;
- reStructuredText roles: ``:doc:`guide/retries` ``, ``:ref:`Backoff <backoff>` ``;
- "see section X" / "see chapter X" / 'see "X"' in prose: a section of the same document;
- included files: ``.. literalinclude:: snippets/read_file.py`` and ``.. include::`` (also
  MyST's ```` ```{literalinclude} ```` fences): AnyIO's "Example:" is a sentence whose
  code lives in another file, which a passage then brings along;
- defined terms (`definitions`): a chunk that uses a term another chunk defines is linked
  to the definition.

Each reference names a target document path (relative to the corpus, as the index shows
paths; empty for the same document) and a heading (an anchor slug or a title; empty for
the whole document). Indexing extracts them per chunk and the index stores them; retrieval
(`retrieve/links.py`) resolves them at query time, so a target indexed later is still found.
"""

from __future__ import annotations

import posixpath
import re

from citesynth.ingest.fences import fenced_blocks
from citesynth.types import Reference

_LINK = re.compile(r"(?<!!)\[([^\]\n]{1,200})\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'][^)]*[\"'])?\s*\)")
_DOC_ROLE = re.compile(r":doc:`(?:[^`<]*<)?([^`>]+)>?`")
_REF_ROLE = re.compile(r":ref:`(?:[^`<]*<)?([^`>]+)>?`")
_SEE = re.compile(
    r"\bsee (?:the )?(?:section|chapter|heading)s?\s+[\"“']?([A-Z0-9][^.\"”'\n;:()]{1,60})",
    re.I,
)
_SEE_QUOTED = re.compile(r"\bsee\s+[\"“]([^\"”\n]{3,60})[\"”]", re.I)
INCLUDE_DIRECTIVE = (
    r"[ \t]*(?:\.\.[ \t]+(?P<rst>literalinclude|include)::"
    r"|[`~:]{3,}[ \t]*\{(?P<myst>literalinclude|include)\})[ \t]*(?P<path>\S+)[ \t]*"
)
"""A line holding a directive that includes another file (reStructuredText's, or MyST's
fence), with the directive's name and the file's path: Sphinx reads the path relative to
the including document, or from its source folder when it starts with "/"."""
_INCLUDE = re.compile(rf"^{INCLUDE_DIRECTIVE}$", re.MULTILINE)
_EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.I)
_SLUG_DROP = re.compile(r"[^\w\- ]")


def slug(heading: str) -> str:
    """The anchor a Markdown renderer gives a heading: `Read timeout` → `read-timeout`."""
    return _SLUG_DROP.sub("", heading.strip().lower()).replace(" ", "-")


def references(text: str, path: str) -> list[Reference]:
    """The cross-references in `text`, a chunk of the document at `path`."""
    found: list[Reference] = []
    folder = posixpath.dirname(path)
    for match in _LINK.finditer(text):
        target = match.group(2)
        if _EXTERNAL.match(target):
            continue
        file, _, anchor = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(folder, file)) if file else ""
        if resolved == path:
            resolved = ""
        if resolved or anchor:
            found.append(Reference(resolved, anchor, "link"))
    for match in _DOC_ROLE.finditer(text):
        target = match.group(1).strip()
        base = posixpath.normpath(posixpath.join(folder, target.lstrip("/")))
        named = base if "." in posixpath.basename(base) else f"{base}.rst"
        found.append(Reference(named, "", "doc"))
    for match in _REF_ROLE.finditer(text):
        found.append(Reference("", match.group(1).strip(), "ref"))
    code = fenced_blocks(text)
    for match in _INCLUDE.finditer(text):
        if not any(start < match.start() < end for start, end in code):  # a shown example
            found.extend(Reference(p, "", "include") for p in included_paths(match["path"], path))
    for pattern in (_SEE, _SEE_QUOTED):
        for match in pattern.finditer(text):
            found.append(Reference("", match.group(1).strip(), "see"))
    return list(dict.fromkeys(found))


def included_paths(target: str, path: str) -> list[str]:
    """Where the file `target` names may be, included by the document at `path`; best first.

    A relative path is read from the including document's folder. A path from the Sphinx
    source folder ("/snippets/x.py") is read from each folder above the document, the
    deepest first: the source folder may be `docs/`, `docs/source/` or a package's own
    (`packages/foo/docs/`), and only an indexed path is ever followed. A Windows separator
    (a backslash) reads as "/".
    """
    written = target.replace("\\", "/")
    folder = posixpath.dirname(path)
    if not written.startswith("/"):
        return [posixpath.normpath(posixpath.join(folder, written))]
    above = []
    while folder:
        above.append(folder)
        folder = posixpath.dirname(folder)
    return [posixpath.normpath(posixpath.join(f, written.lstrip("/"))) for f in [*above, ""]]


_BOLD_DEFINITION = re.compile(
    r"\*\*([A-Za-z][\w .'’/-]{1,40}?)\*\*\s*(?:\([^)\n]{1,40}\)\s*)?"
    r"(?:is|are|means|refers to|denotes|:|—|–|-)\s"
)
_ACRONYM = re.compile(r"\b((?:[A-Z][a-z]+[ -]){1,5}[A-Z][a-z]+) \(([A-Z][A-Za-z]{1,7})\)")
_DEFINED_AS = re.compile(
    r"\b[\"“']?([A-Za-z][\w-]*(?: [\w-]+){0,3})[\"”']? (?:is|are) defined as\b"
)
_LEADING = re.compile(r"^(?:the term|we define|the|an?)\s+", re.I)
_DEFINITION_LIST = re.compile(r"^([A-Za-z][\w .'’/-]{1,40})\n:[ \t]+\S", re.MULTILINE)


def definitions(text: str) -> list[str]:
    """Terms a chunk defines, case-folded.

    `**Term** is ...`, `Long Name (LN)` (both), `X is defined as ...`, and Markdown
    definition lists (`Term` on its line, then `: definition`).
    """
    found: list[str] = []
    for pattern in (_BOLD_DEFINITION, _DEFINED_AS, _DEFINITION_LIST):
        found.extend(m.group(1).strip() for m in pattern.finditer(text))
    for match in _ACRONYM.finditer(text):
        found.extend((match.group(1), match.group(2)))
    terms = (_LEADING.sub("", t).casefold() for t in found)
    return list(dict.fromkeys(t for t in terms if len(t) >= 2))


def matches(heading: str, heading_path: tuple[str, ...], text: str = "") -> bool:
    """Whether a chunk (under `heading_path`, holding `text`) is in the section `heading`.

    The section may be an enclosing heading, or a Markdown heading inside the chunk.
    """
    if not heading:
        return True
    wanted = heading.casefold()
    wanted_slug = slug(heading)
    inside = (line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#"))
    return any(
        h.casefold() == wanted or slug(h) == wanted_slug or h.casefold().startswith(wanted + " ")
        for h in (*heading_path, *inside)
    )
