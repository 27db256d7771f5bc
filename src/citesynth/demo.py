"""The demo corpus: this project's docs, plus a PDF generated from one of them.

The README is left out on purpose: it shows this demo's own output, so indexing it made the
demo cite its example answer instead of the documentation that answer came from.

The PDF writer is deliberately tiny (text lines in Helvetica, no layout engine), so the demo
and the tests can make real multi-page PDFs without a PDF-writing dependency.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from pathlib import Path

from citesynth.errors import ConfigError
from citesynth.ingest.pdf_file import pdf_file

DEMO_QUERIES = (
    "How does citesynth keep every citation exact to the line?",
    "What happens to a corrupt or encrypted PDF during indexing?",
    "How are BM25 and dense retrieval results combined?",
)
DEMO_QUESTION = "How are BM25 and dense retrieval results combined?"
PDF_SOURCE = "docs/architecture.md"
PDF_NAME = "citesynth-architecture.pdf"
_LINES_PER_PAGE = 46
_WIDTH = 92


def _escape(line: str) -> bytes:
    data = line.encode("cp1252", errors="replace")
    return data.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def write_pdf(path: Path, pages: Sequence[Sequence[str]], *, title: str) -> None:
    """Write a PDF with one page per item of `pages`, each a list of text lines."""
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"",  # the page tree, filled in once the page objects are numbered
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Title (" + _escape(title) + b") /Producer (citesynth) >>",
    ]
    kids: list[bytes] = []
    for lines in pages:
        stream = (
            b"BT /F1 10 Tf 13 TL 56 790 Td "
            + b" ".join(b"(" + _escape(line) + b") Tj T*" for line in lines)
            + b" ET"
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
        content_number = len(objects)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % content_number
        )
        kids.append(b"%d 0 R" % len(objects))
    objects[1] = b"<< /Type /Pages /Kids [" + b" ".join(kids) + b"] /Count %d >>" % len(kids)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pdf_file(objects, info=4))


def markdown_to_lines(markdown: str, width: int = _WIDTH) -> list[str]:
    """Markdown as wrapped plain-text lines: markup dropped, paragraphs kept apart."""
    lines: list[str] = []
    in_fence = False
    for raw in markdown.splitlines():
        if raw.startswith("```"):
            in_fence = not in_fence
            continue
        text = raw if in_fence else re.sub(r"[*`]|^#+\s*", "", raw).strip()
        if not text:
            if lines and lines[-1]:
                lines.append("")
            continue
        lines.extend(textwrap.wrap(text, width) if not in_fence else [text[:width]])
    return lines


def build_demo_corpus(root: Path, out: Path | None = None) -> list[Path]:
    """The demo corpus paths under a checkout `root`, generating the PDF into `build/demo`."""
    docs = root / "docs"
    if not (docs / PDF_SOURCE.removeprefix("docs/")).is_file():
        where = root.resolve()
        raise ConfigError(f"run the demo from a citesynth checkout: no {PDF_SOURCE} in {where}")
    source = root / PDF_SOURCE
    lines = markdown_to_lines(source.read_text(encoding="utf-8"))
    pages = [lines[i : i + _LINES_PER_PAGE] for i in range(0, len(lines), _LINES_PER_PAGE)]
    pdf = (out or root / "build" / "demo") / PDF_NAME
    write_pdf(pdf, pages, title="citesynth architecture")
    return [docs, pdf]
