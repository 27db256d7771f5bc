"""Cross-references inside chunks: where a passage points the reader to another passage.

- Markdown links to other files of the corpus and to sections: `[Retries](retries.md#backoff)`,
  `[see below](#limits)`; web and mail links are left out;
- reStructuredText roles: ``:doc:`guide/retries` ``, ``:ref:`Backoff <backoff>` ``;
- "see section X" / "see chapter X" / 'see "X"' in prose: a section of the same document.

Each reference names a target document path (relative to the corpus, as the index shows
paths; empty for the same document) and a heading (an anchor slug or a title; empty for
the whole document). The index stores them per chunk; retrieval resolves them at query time,
so a target indexed later is still found.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

_LINK = re.compile(r"(?<!!)\[([^\]\n]{1,200})\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'][^)]*[\"'])?\s*\)")
_DOC_ROLE = re.compile(r":doc:`(?:[^`<]*<)?([^`>]+)>?`")
_REF_ROLE = re.compile(r":ref:`(?:[^`<]*<)?([^`>]+)>?`")
_SEE = re.compile(
    r"\bsee (?:the )?(?:section|chapter|heading)s?\s+[\"“']?([A-Z0-9][^.\"”'\n;:()]{1,60})",
    re.I,
)
_SEE_QUOTED = re.compile(r"\bsee\s+[\"“]([^\"”\n]{3,60})[\"”]", re.I)
_EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.I)
_SLUG_DROP = re.compile(r"[^\w\- ]")


@dataclass(frozen=True, slots=True)
class Reference:
    """A pointer from a chunk to a document (and optionally one of its sections)."""

    path: str
    heading: str
    kind: str


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
    for pattern in (_SEE, _SEE_QUOTED):
        for match in pattern.finditer(text):
            found.append(Reference("", match.group(1).strip(), "see"))
    return list(dict.fromkeys(found))


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
