"""HTML main text with exact source lines.

The standard library's `html.parser` reports the source position of every text node, so
the extracted text keeps one anchor per text node back to its line in the original file
(parsers that are faster at main-text extraction, such as selectolax or trafilatura, drop
positions). Boilerplate is removed by structure: when the page has `<main>` (or
`<article>`), only that is read; navigation, headers, footers, sidebars, forms, scripts and
hidden elements are skipped everywhere.

A superscript number after a number is written as a power: SQLite's limits page writes
`2<sup>31</sup>-1`, which read as text is "231-1", a number the page never states; it
reads "2^31-1". Other superscripts (a footnote mark after a word or as a link,
"1<sup>st</sup>") are their text.

Inline code (`<code>`, `<tt>` outside `<pre>`) is written in backticks, as Markdown and
reStructuredText write it: "use `search()` instead". The verifier's code checks (a name a
claim calls must be written as code in its source, a setting written otherwise) and the
answer's rendering read code by its backticks; a Sphinx or MkDocs page read as plain text
had none, so a claim calling `read()` passed against `p.read_text()`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

from citesynth.ingest.blocks import Block, BlockKind
from citesynth.types import Anchor

_NEVER_TEXT = frozenset(
    {
        "script",
        "style",
        "noscript",
        "template",
        "svg",
        "math",
        "head",
        "iframe",
        "object",
        "canvas",
        "select",
        "button",
    }
)
_BOILERPLATE = frozenset({"nav", "footer", "aside", "form", "header"})
_BOILERPLATE_ROLES = frozenset({"navigation", "banner", "contentinfo", "search", "complementary"})
_BOILERPLATE_CLASSES = frozenset(
    {
        "nav",
        "navbar",
        "menu",
        "sidebar",
        "footer",
        "breadcrumb",
        "breadcrumbs",
        "cookie",
        "cookies",
        "toc",
        "skip-link",
        "headerlink",
    }
)
"""Classes of elements that are no content; "headerlink" is the "¶" Sphinx and MkDocs put
after every heading and signature ("json.dumps(obj, *, …)¶" was quoted with it)."""
_VOID = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    }
)
_BLOCK = frozenset(
    {
        "p",
        "div",
        "section",
        "article",
        "main",
        "li",
        "dt",
        "dd",
        "blockquote",
        "figcaption",
        "caption",
        "address",
        "details",
        "summary",
        "ul",
        "ol",
        "dl",
        "figure",
        "body",
        "hr",
    }
)
_HEADINGS = {f"h{level}": level for level in range(1, 7)}
_SPACES = re.compile(r"[^\S\n]+")
_SCOPE = re.compile(r"<(main|article)[\s>]", re.I)
_INLINE_CODE = frozenset({"code", "tt"})
_EXPONENT = re.compile(r"\s*[-+−]?\d")
"""What a superscript that is a power opens with: a digit, maybe signed."""


@dataclass(frozen=True, slots=True)
class HtmlText:
    """Main text of an HTML page with its anchors (text offset → source line) and blocks."""

    text: str
    anchors: tuple[Anchor, ...]
    blocks: tuple[Block, ...]
    title: str | None


class _Extractor(HTMLParser):
    def __init__(self, scope: str | None, strip_boilerplate: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.length = 0
        self.line_now = 1
        self.anchors: list[Anchor] = [Anchor(0, 1)]
        self.blocks: list[Block] = []
        self.title: str | None = None
        self._title_parts: list[str] | None = None
        self._scope = scope
        self._scope_depth = 0 if scope else 1
        self._strip = strip_boilerplate
        self._skip: list[str] = []
        self._pre = 0
        self._block_start: int | None = None
        self._block_part = 0
        self._block_kind = BlockKind.PARAGRAPH
        self._heading_level = 0
        self._cells = 0
        self._exponent = False
        """A `<sup>` opened right after a digit: its text is a power if it is a number."""
        self._code = 0
        """How many inline code elements are open (outside `<pre>`)."""
        self._code_opened = False
        """Whether the outermost open inline code element has written its opening backtick."""

    def _skipped(self, tag: str, attrs: list[tuple[str, str | None]]) -> bool:
        if tag in _NEVER_TEXT:
            return True
        if not self._strip:
            return False
        if tag in _BOILERPLATE and not (tag == "header" and self._scope):
            return True
        values = dict(attrs)
        if "hidden" in values or values.get("aria-hidden") == "true":
            return True
        if (values.get("role") or "") in _BOILERPLATE_ROLES:
            return True
        classes = set((values.get("class") or "").lower().split()) | {
            (values.get("id") or "").lower()
        }
        return not classes.isdisjoint(_BOILERPLATE_CLASSES)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title" and self.title is None:
            self._title_parts = []
        if tag == "body" and "head" in self._skip:
            self._skip.clear()  # </head> is optional in HTML
        if self._skip:
            if tag == self._skip[-1] and tag not in _VOID:
                self._skip.append(tag)
            return
        if tag == self._scope:
            self._scope_depth += 1
        if tag in _VOID:
            self._void(tag)
            return
        if self._skipped(tag, attrs):
            self._skip.append(tag)
            return
        if tag in _INLINE_CODE and not self._pre:
            self._code += 1
            if self._code == 1:
                self._code_opened = False
        if tag == "sup":
            self._exponent = bool(self.parts) and self.parts[-1][-1:].isdigit()
        elif tag == "a":
            self._exponent = False  # a footnote's link ("2015<sup><a>3</a></sup>")
        self._open_block(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self._skip and tag in _VOID:
            self._void(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in _INLINE_CODE and self._code and not self._skip:
            self._code -= 1
            if not self._code and self._code_opened and self._block_start is not None:
                self._emit("`")
            if not self._code:
                self._code_opened = False
        if tag == "sup":
            self._exponent = False
        if tag == "title" and self._title_parts is not None:
            self.title = " ".join("".join(self._title_parts).split()) or None
            self._title_parts = None
        if self._skip:
            if tag == self._skip[-1]:
                self._skip.pop()
            return
        if tag in _BLOCK or tag in _HEADINGS or tag in {"pre", "table"}:
            self._close_block()
            if tag == "pre":
                self._pre = max(0, self._pre - 1)
        if tag == self._scope and self._scope_depth > 0:
            self._scope_depth -= 1

    def handle_data(self, data: str) -> None:
        if self._title_parts is not None:
            self._title_parts.append(data)
        if self._skip or self._scope_depth == 0:
            return
        if self._exponent:
            self._exponent = False
            if _EXPONENT.match(data):
                data = "^" + data.lstrip()
        if self._code and not self._code_opened:
            if not data.strip():
                return  # no code yet: a backtick opens on its first character
            self._code_opened = True
            data = data[: len(data) - len(data.lstrip())] + "`" + data.lstrip()
        line, _ = self.getpos()
        if not self._pre:
            data = _SPACES.sub(" ", data)
        if self._block_start is None:
            stripped = data.lstrip()
            line += data[: len(data) - len(stripped)].count("\n")
            data = stripped
            if not data:
                return
            self._start_block()
        if line != self.line_now:
            if self.anchors[-1].offset == self.length:
                self.anchors[-1] = Anchor(self.length, line)
            else:
                self.anchors.append(Anchor(self.length, line))
            self.line_now = line
        self._emit(data)

    def _emit(self, text: str) -> None:
        self.parts.append(text)
        self.length += len(text)
        self.line_now += text.count("\n")

    def _void(self, tag: str) -> None:
        if tag == "br" and self._block_start is not None and self._scope_depth:
            self._emit("\n")
        elif tag == "hr":
            self._close_block()

    def _open_block(self, tag: str) -> None:
        if tag in _HEADINGS:
            self._close_block()
            self._block_kind, self._heading_level = BlockKind.HEADING, _HEADINGS[tag]
        elif tag == "pre":
            self._close_block()
            self._pre += 1
            self._block_kind = BlockKind.CODE
        elif tag == "table":
            self._close_block()
            self._block_kind = BlockKind.TABLE
        elif tag == "tr" and self._block_start is not None:
            self._emit("\n")
            self._cells = 0
        elif tag in {"td", "th"}:
            if self._block_start is not None and self._cells:
                self._emit(" | ")
            self._cells += 1
        elif tag in _BLOCK and self._block_kind not in {BlockKind.TABLE, BlockKind.CODE}:
            self._close_block()

    def _start_block(self) -> None:
        if self.length:
            self._emit("\n\n")
        self._block_start = self.length
        self._block_part = len(self.parts)

    def _close_block(self) -> None:
        if self._code_opened and self._block_start is not None:
            self._emit("`")  # an inline code element left open (malformed) ends with its block
        self._code, self._code_opened = 0, False
        if self._block_start is not None:
            text = "".join(self.parts[self._block_part :])
            start = self._block_start + len(text) - len(text.lstrip())
            end = self.length - (len(text) - len(text.rstrip()))
            if end > start:
                is_heading = self._block_kind is BlockKind.HEADING
                heading = " ".join(text.split()) if is_heading else None
                level = self._heading_level if heading else 0
                self.blocks.append(Block(start, end, self._block_kind, heading, level))
        self._block_start = None
        self._block_kind = BlockKind.PARAGRAPH
        self._heading_level = 0
        self._cells = 0


def extract(html: str) -> HtmlText:
    """Extract the main text of an HTML page, falling back to all text if that is empty."""
    match = _SCOPE.search(html)
    scope = match.group(1).lower() if match else None
    for strip_boilerplate, use_scope in ((True, scope), (False, None)):
        parser = _Extractor(use_scope, strip_boilerplate)
        parser.feed(html)
        parser.close()
        parser._close_block()
        text = "".join(parser.parts)
        if text.strip():
            break
    headings = [b.heading for b in parser.blocks if b.heading and b.level == 1]
    title = parser.title or (headings[0] if headings else None)
    return HtmlText(text, tuple(parser.anchors), tuple(parser.blocks), title)
