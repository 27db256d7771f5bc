"""Markdown structure: headings, paragraphs, list items, fences and tables as blocks.

markdown-it-py (CommonMark + tables) gives each block token its line range; those ranges
become exact character offsets into the unmodified file text. A fence that opens a MyST
directive written for the reader (```` ```{note} ````, ```` ````{tab} Linux ````) is a
paragraph, not code (`fences.container_fences`).
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

from citesynth.analysis import INLINE_CODE
from citesynth.ingest.blocks import Block, BlockKind, line_offsets, trimmed
from citesynth.ingest.fences import MKDOCS_CONTAINER, opens_prose_directive
from citesynth.ingest.rst import rendered_rst

# Block structure only: inline parsing (half the cost) is skipped, headings keep their raw text.
_PARSER = MarkdownIt("commonmark").enable("table").disable("inline")
# Emphasis, code ticks and link targets; an underscore inside a word (HTTP_PROXY) is kept.
_INLINE_MARKUP = re.compile(r"[*`]+|(?<!\w)_+|_+(?!\w)|\[([^\]]*)\]\([^)]*\)")
_KINDS = {
    "fence": BlockKind.CODE,
    "code_block": BlockKind.CODE,
    "table_open": BlockKind.TABLE,
}


_FRONT_MATTER = re.compile(
    r"\A(?:---|\+\+\+)[ \t]*\r?\n.*?\r?\n(?:---|\+\+\+|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S
)
_ATTRIBUTE = r"(?:[#.][\w:-]+(?:\.[\w:-]+)*|[\w-]+=(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s{}]+))"
HEADING_ATTRIBUTES = re.compile(
    rf"(?<![ \t])[ \t]*\{{:?[ \t]*{_ATTRIBUTE}(?:[ \t]+{_ATTRIBUTE})*[ \t]*\}}[ \t]*$"
)
"""The attribute list ending a heading (the attr_list extension's `{: #output_format }`,
Pandoc's `{#intro .unnumbered}`, Hatch's `{: #hatchling-v1.32.0 }`): no words of its title."""


CLOSING_HASHES = re.compile(r"[ \t]+#+[ \t]*$")
"""A heading's closing sequence, which may stand before its attribute list ("## 1.32.0 ##
{: #hatchling-v1.32.0 }"); not the "#" of "C#"."""


_REFERENCE_LINK = (
    r"(?<![!\]\\\w)])\[((?:[^\[\]\n]|\[[^\[\]\n]*\])+)\]"
    r"(?:\[([^\[\]\n]*)\]|\(<?([^()\s<>]*)>?(?:[ \t]+\"[^\"\n]*\")?\))"
)
"""A link: reference-style, "[text][label]" or "[text][]", or inline, "[text](target)" or
"[text](target "title")"; not an image's "![…][…]" or "![…](…)"."""
_INLINE_ATTRIBUTES = (
    rf"(?:(?<=[^\s{{])|(?<![ \t])[ \t]*(?=\{{:))"  # from a run's first space: linear time
    rf"\{{:?[ \t]*{_ATTRIBUTE}(?:[ \t]+{_ATTRIBUTE})*[ \t]*\}}"
)
"""An attribute list set on the inline element before it ("**`linenums`**{ #linenums }"),
or one in the colon form after a space ("… paragraph. {: .note }")."""
_RENDERED = re.compile(rf"({INLINE_CODE.pattern})|{_REFERENCE_LINK}|{_INLINE_ATTRIBUTES}")
_CITATION = re.compile(r"[\d,\s\-–]+")


def rendered_markdown(text: str) -> str:
    """`text` with Markdown written as a reader sees it, outside inline code.

    A reference-style link is its text: Python-Markdown's pages write "the
    [`codehilite`][codehilite] extension" and "[WikiLinks][]", whose labels are defined at
    the page's foot, which an answer quoting the sentence does not bring (a renderer shows
    "[`codehilite`][codehilite]" as written). So is an inline link: "If the
    [tables](./tables.md) extension is enabled" had been quoted with its target, a path
    that leads nowhere from an answer (the citation leads to the page). An attribute
    list set on an inline element (the attr_list extension's "**`linenums`**{ #linenums
    }: An alias …") goes, as a renderer drops it, and so does one in the colon form ("{:
    .note }") after a space.
    Nothing that reads as a citation ("[2][3]", "[see it][1]": a label of numbers alone)
    changes, nor anything in inline code.
    """
    if "[" not in text and "{" not in text:
        return text

    def shown(found: re.Match[str]) -> str:
        if found.group(1) is not None:  # inline code, as written
            return found.group()
        link_text, label = found.group(3), found.group(4)
        if link_text is None:  # an attribute list
            return ""
        if _CITATION.fullmatch(link_text) or (label and _CITATION.fullmatch(label)):
            return found.group()
        return link_text if link_text.strip() else found.group()

    return _RENDERED.sub(shown, text)


def rendered_markup(text: str) -> str:
    """`text` as a reader sees it: what an answer shows of a source's text.

    reStructuredText first (`rst.rendered_rst`), then Markdown (`rendered_markdown`).
    """
    return rendered_markdown(rendered_rst(text))


def heading_text(raw: str) -> str:
    """A heading as plain text: inline markup, link targets and its attribute list removed.

    Python-Markdown's "### Output Format {: #output_format }" is "Output Format".
    """
    raw = CLOSING_HASHES.sub("", HEADING_ATTRIBUTES.sub("", raw))
    return " ".join(_INLINE_MARKUP.sub(lambda m: m.group(1) or "", raw).split())


def _containers_opened(source: str) -> str:
    """`source` with the bodies of mkdocs containers (`fences.MKDOCS_CONTAINER`) dedented.

    An admonition's body is indented four spaces under its opening line; to CommonMark a
    paragraph so indented after a blank line is a code block, and a fence in it is no fence.
    Dedented, the body reads as what it is. Only the parser sees this text: lines keep their
    numbers, and blocks take their offsets from the file's own text.
    """
    if MKDOCS_CONTAINER.search(source) is None:
        return source
    lines = source.split("\n")
    depth = 0  # how many containers hold the current line
    for number, line in enumerate(lines):
        expanded = line.expandtabs(4)
        indent = len(expanded) - len(expanded.lstrip(" "))
        if expanded.strip():
            depth = min(depth, indent // 4)
            expanded = expanded[4 * depth :]
            lines[number] = expanded
            if MKDOCS_CONTAINER.fullmatch(expanded):
                depth += 1
    return "\n".join(lines)


def markdown_blocks(text: str) -> list[Block]:
    """Split Markdown `text` into blocks; list items become separate blocks."""
    blocks: list[Block] = []
    source = text
    front = _FRONT_MATTER.match(text)
    if front is not None:
        start, end = trimmed(text, 0, front.end())
        blocks.append(Block(start, end, BlockKind.CODE))
        # Blank the front matter but keep its newlines so that line numbers still match.
        source = re.sub(r"[^\n]", " ", text[: front.end()]) + text[front.end() :]
    source = _containers_opened(source)
    offsets = line_offsets(text)
    last_line = len(offsets) - 1
    tokens = _PARSER.parse(source)
    for index, token in enumerate(tokens):
        if token.map is None:
            continue
        top_level = token.level == 0 and token.type not in {"bullet_list_open", "ordered_list_open"}
        list_item = token.type == "list_item_open" and token.level == 1
        if not (top_level or list_item):
            continue
        first, stop = token.map
        start, end = trimmed(text, offsets[min(first, last_line)], offsets[min(stop, last_line)])
        if end <= start:
            continue
        if token.type == "heading_open":
            title = heading_text(tokens[index + 1].content)
            level = int(token.tag[1])
            blocks.append(Block(start, end, BlockKind.HEADING, heading=title, level=level))
        elif token.type == "fence" and opens_prose_directive(token.info):
            blocks.append(Block(start, end, BlockKind.PARAGRAPH))  # ```{note}: prose
        else:
            blocks.append(Block(start, end, _KINDS.get(token.type, BlockKind.PARAGRAPH)))
    return blocks
