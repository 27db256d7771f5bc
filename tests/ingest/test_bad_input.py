"""Bad input never stops a run: each case is a real file and gets one clear reason."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pypdf
import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from citesynth.demo import write_pdf
from citesynth.errors import LoadError
from citesynth.ingest.chunking import split
from citesynth.ingest.files import discover, display_path, in_scope
from citesynth.ingest.loaders import load_pdf
from tests.conftest import write


def reportlab_pdf(pages: list[list[str]]) -> bytes:
    buffer = io.BytesIO()
    drawing = canvas.Canvas(buffer, pagesize=A4)
    for lines in pages:
        y = 800
        for line in lines:
            drawing.drawString(56, y, line)
            y -= 14
        drawing.showPage()
    drawing.save()
    return buffer.getvalue()


def encrypted_pdf() -> bytes:
    writer = pypdf.PdfWriter()
    writer.append(pypdf.PdfReader(io.BytesIO(reportlab_pdf([["Top secret plans."]]))))
    writer.encrypt("secret")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def test_pdf_pages_and_lines() -> None:
    pages = [
        [f"Page {p} line {i} talks about topic {p * 10 + i}." for i in range(1, 6)]
        for p in (1, 2, 3)
    ]
    (parsed,) = load_pdf("report.pdf", reportlab_pdf(pages)).parsed
    chunks = split(parsed, target_tokens=40, overlap_tokens=0)
    assert {chunk.page for chunk in chunks} == {1, 2, 3}
    for chunk in chunks:
        assert chunk.text.startswith(f"Page {chunk.page} line")  # no chunk crosses a page
        first_line = int(chunk.text.split()[3])
        assert chunk.start_line == first_line  # lines count within the page
    assert chunks[0].location == "report.pdf, p. 1"


def test_pdf_words_hyphenated_across_lines_are_rejoined() -> None:
    data = reportlab_pdf([["The extraction of informa-", "tion from documents is hard."]])
    (parsed,) = load_pdf("hyphen.pdf", data).parsed
    assert "information from documents" in " ".join(parsed.document.text.split())
    assert "\x02" not in parsed.document.text


def test_pdf_written_by_the_demo_writer_reads_back(tmp_path: Path) -> None:
    target = tmp_path / "demo.pdf"
    write_pdf(target, [["Alpha (one) \\ first."], ["Beta page two.", "Second line."]], title="Demo")
    (parsed,) = load_pdf("demo.pdf", target.read_bytes()).parsed
    assert parsed.document.title == "Demo"
    assert "Alpha (one) \\ first." in parsed.document.text
    assert [a.page for a in parsed.document.anchors] == [1, 2]


@pytest.mark.parametrize(
    "placeholder",
    ["Microsoft Word - report.docx", "Untitled", "Untitled1", "Document1", "slides.pptx"],
)
def test_a_placeholder_pdf_title_gives_way_to_the_file_name(
    tmp_path: Path, placeholder: str
) -> None:
    """An authoring tool's title would head every source of the file in the model's context."""
    target = tmp_path / "annual-report.pdf"
    write_pdf(target, [["Revenue grew by four percent."]], title=placeholder)
    (parsed,) = load_pdf("annual-report.pdf", target.read_bytes()).parsed
    assert parsed.document.title == "annual-report.pdf"


@pytest.mark.parametrize("title", ["Untitled Goose Game: Player Manual", "Serving index.html"])
def test_a_real_pdf_title_is_kept(tmp_path: Path, title: str) -> None:
    target = tmp_path / "manual.pdf"
    write_pdf(target, [["Press the honk button."]], title=title)
    (parsed,) = load_pdf("manual.pdf", target.read_bytes()).parsed
    assert parsed.document.title == title


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (lambda: encrypted_pdf(), "encrypted PDF"),
        (lambda: b"%PDF-1.4\n1 0 obj << garbage", "corrupt PDF"),
        (lambda: reportlab_pdf([["Truncated soon."] * 40] * 5)[:900], "corrupt PDF"),
        (lambda: reportlab_pdf([[], []]), "no extractable text"),
    ],
)
def test_unusable_pdfs_are_refused_with_a_reason(data: object, reason: str) -> None:
    with pytest.raises(LoadError, match=reason):
        load_pdf("bad.pdf", data())  # type: ignore[operator]


def test_discovery_skips_each_bad_case_with_one_line(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    write(root, "good.md", "# Fine\n\nText.")
    write(root, "empty.txt", "")
    write(root, "big.txt", "x" * 5000)
    write(root, ".secret.md", "hidden")
    write(root, ".git/config.md", "hidden too")
    write(root, "node_modules/pkg/readme.md", "dependency")
    write(root, "image.png", b"\x89PNG\r\n")
    os.symlink(root / "missing.md", root / "dangling.md")
    os.symlink(root, root / "loop")  # a folder symlink pointing at its own parent
    os.symlink(root / "self.md", root / "self.md")  # a file symlink pointing at itself
    os.mkfifo(root / "pipe.txt")
    found = discover([root], root=tmp_path, max_bytes=1000)
    assert [c.display for c in found.files] == ["tree/good.md"]
    reasons = {skip.path: skip.reason for skip in found.skipped}
    assert reasons["tree/empty.txt"] == "empty file"
    assert reasons["tree/big.txt"].startswith("too large (0.0 MiB > 0.0 MiB cap")
    assert reasons["tree/dangling.md"] == "broken symlink"
    assert reasons["tree/self.md"] == "symlink loop"
    assert reasons["tree/pipe.txt"].startswith("not a regular file")
    assert reasons["tree/loop"].startswith("folder already walked")
    assert found.unsupported == 1  # image.png


def test_explicit_paths_and_missing_paths(tmp_path: Path) -> None:
    notes = write(tmp_path, "notes.weird", "Plain words.")
    found = discover([notes, tmp_path / "nope"], root=tmp_path, max_bytes=1000)
    assert [(c.display, c.explicit) for c in found.files] == [("notes.weird", True)]
    assert found.skipped[0].reason == "no such file or folder"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files regardless of permissions")
def test_unreadable_folder_is_skipped(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    write(locked, "a.md", "text")
    locked.chmod(0)
    try:
        found = discover([tmp_path], root=tmp_path, max_bytes=1000)
    finally:
        locked.chmod(0o755)
    assert any("cannot list folder" in skip.reason for skip in found.skipped)


def test_exclude_globs(tmp_path: Path) -> None:
    write(tmp_path, "docs/a.md", "a")
    write(tmp_path, "docs/drafts/b.md", "b")
    write(tmp_path, "docs/c.md", "c")
    found = discover(
        [tmp_path / "docs"], root=tmp_path, max_bytes=1000, exclude=("docs/drafts", "c.md")
    )
    assert [c.display for c in found.files] == ["docs/a.md"]


def test_display_paths_and_scopes(tmp_path: Path) -> None:
    assert display_path(str(tmp_path / "a" / "b.md"), str(tmp_path)) == "a/b.md"
    assert display_path("/elsewhere/x.md", str(tmp_path)) == "/elsewhere/x.md"
    assert in_scope("/data/docs/a.md", ["/data/docs"])
    assert not in_scope("/data/docs2/a.md", ["/data/docs"])
    assert in_scope("/data/one.md", ["/data/one.md"])
