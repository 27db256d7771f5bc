"""The PDF layout benchmark counts what a writer could quote, before and after, on a real PDF."""

from __future__ import annotations

from pathlib import Path

from benchmarks.pdf_layout import measure

from tests.ingest.test_bad_input import reportlab_pdf

BODY = "Page {} says the interpreter reads each line before it runs the commands."


def test_the_baseline_quotes_headers_headings_and_contents_and_the_loader_does_not(
    tmp_path: Path,
) -> None:
    pages = [["i", "Table of Contents", "1 Introduction . . . . . . . . . . 1"]]
    pages += [
        [f"Chapter 1: Introduction {n}", BODY.format(n), f"1.{n} Part {n} of it", BODY.format(n)]
        for n in (1, 2)
    ]
    pages += [
        [f"Chapter 1: Introduction {n}", f"1.{n} Part {n} of it", BODY.format(n)] for n in (3, 4)
    ]
    path = tmp_path / "manual.pdf"
    path.write_bytes(reportlab_pdf(pages))
    found = measure(path)
    before, after = found["before"], found["after"]
    assert found["running_lines_dropped"] == 4  # the chapter headers; a lone "i" tells nothing
    assert before["leader"] == 1 and before["running"] >= 1 and before["glued"] >= 1
    assert (after["leader"], after["running"], after["glued"]) == (0, 0, 0)
    assert before["with_heading_path"] == 0.0 and after["with_heading_path"] > 0.0
