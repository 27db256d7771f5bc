"""PDF manuals and papers read for their layout: what a writer could quote, before and after.

    python -m benchmarks.pdf_layout          # fetches the Debian packages once (apt-get)

PDFium returns a page's text line by line. Read as plain lines, a manual's running
headers and page numbers run into the sentences below them, its numbered headings open
the sentence after them, its table of contents reads as sentences, and a LaTeX font's
ligatures come out as control codes ("coe\\x1ecients"). `ingest.pdf_layout` and
`ingest.pdf.cleaned` read them; this benchmark counts, over real PDFs from Debian
packages (R's manuals, the survival package's vignettes, Bash's reference and man page,
Asymptote's and gnuplot's manuals, six papers set in two columns by journals' and
conferences' LaTeX classes: MNRAS, Elsevier, JACoW, ACM, NRC, ASME, and thirteen
vignettes of R packages, most in the Journal of Statistical Software's style: lme4, zoo,
sandwich, lmtest and vcd), the prose sentences a writer could quote that hold such
lines, with the loader as it was (pages as plain paragraphs: the baseline, rebuilt in the
same run) and as it is:

- `leader`: a table of contents' dot leader ("Vector arithmetic . . . . 9");
- `running`: a running header or footer of two words or more (the lines `pdf_layout.running`
  finds), inside a sentence;
- `glued`: a numbered heading opening a sentence ("6.3.1 Making data frames Objects …");
- `codes`: a T1 ligature code left in a word;
- `console`: a line typed at a console prompt ("> x <- 1", "$ R") inside the sentence;
- `cut`: a sentence that stops at an article, a conjunction or "of", the rest on the next
  page ("For the zero-truncated and zero-inflated Poisson distribution the");
- `symbols`: fewer than three words of two letters, of code or numbers beside two words
  (a display of mathematics, "0 · · · É(r(yn, x¦ n ˆ¹)) X.", a matrix's row);
- `dingbats`: letters as dingbats, three or more and a third of the sentence's letters, as a
  TeX bitmap font's glyph names read by the glyph list ("P❡♥❛❧✐③❡❞ ❧❡❛st sq✉❛r❡s":
  `pdf.by_code`; lme4's "♣" for "|" in a formula is a symbol);

and the share of chunks whose heading path names a section. Which lines were dropped is
listed per document (the most frequent), to read for lines that were not running.
Results: `benchmarks/results/pdf_layout.json`.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pypdfium2

from benchmarks.common import CACHE, write_result
from citesynth.ingest import pdf, sentences
from citesynth.ingest.blocks import Block, paragraphs
from citesynth.ingest.chunking import split
from citesynth.ingest.loaders import Parsed, load_pdf
from citesynth.ingest.pdf import read_pdf
from citesynth.ingest.pdf_layout import numbered_heading, running
from citesynth.types import Anchor, Document, DocumentKind

PACKAGES = {
    "r-doc-pdf=4.2.2.20221110-2": [
        "usr/share/R/doc/manual/R-intro.pdf",
        "usr/share/R/doc/manual/R-FAQ.pdf",
        "usr/share/R/doc/manual/R-data.pdf",
        "usr/share/R/doc/manual/R-admin.pdf",
    ],
    "r-cran-survival=3.5-3-1": [
        "usr/lib/R/library/survival/doc/survival.pdf",
        "usr/lib/R/library/survival/doc/compete.pdf",
        "usr/lib/R/library/survival/doc/timedep.pdf",
    ],
    "bash-doc=5.2.15-2": ["usr/share/doc/bash/bashref.pdf", "usr/share/doc/bash/bash.pdf"],
    "asymptote-doc=2.85+ds-1": ["usr/share/doc/asymptote/asymptote.pdf"],
    "gnuplot-doc=5.4.4+dfsg1-2": ["usr/share/doc/gnuplot/gnuplot.pdf"],
    "texlive-publishers-doc=2022.20230122-4": [
        f"usr/share/doc/texlive-doc/latex/{name}.pdf"
        for name in (
            "mnras/mnras_guide",
            "elsarticle/elsdoc",
            "jacow/JACoW_LaTeX_A4",
            "acmart/samples/sample-sigconf",
            "nrc/userguide",
            "asmejour/asmejour-template",
        )
    ],
    # the Journal of Statistical Software's style: numbers with a stop, R sessions, math
    # (and, from the forty-fourth session, the same packages' other six vignettes: lme4's
    # PLSvGLS set in a TeX bitmap font whose letters read as dingbats)
    "r-cran-lme4=1.1-31-1": [
        "usr/lib/R/site-library/lme4/doc/lmer.pdf",
        "usr/lib/R/site-library/lme4/doc/Theory.pdf",
        "usr/lib/R/site-library/lme4/doc/PLSvGLS.pdf",
    ],
    "r-cran-zoo=1.8-11-1": [
        "usr/lib/R/site-library/zoo/doc/zoo.pdf",
        "usr/lib/R/site-library/zoo/doc/zoo-faq.pdf",
        "usr/lib/R/site-library/zoo/doc/zoo-read.pdf",
        "usr/lib/R/site-library/zoo/doc/zoo-design.pdf",
    ],
    "r-cran-sandwich=3.0-2-1": [
        "usr/lib/R/site-library/sandwich/doc/sandwich.pdf",
        "usr/lib/R/site-library/sandwich/doc/sandwich-CL.pdf",
        "usr/lib/R/site-library/sandwich/doc/sandwich-OOP.pdf",
    ],
    "r-cran-lmtest=0.9.40-1": ["usr/lib/R/site-library/lmtest/doc/lmtest-intro.pdf"],
    "r-cran-vcd=1:1.4-11-1": [
        "usr/lib/R/site-library/vcd/doc/strucplot.pdf",
        "usr/lib/R/site-library/vcd/doc/residual-shadings.pdf",
    ],
}
"""Debian bookworm packages (name=version) and the PDFs read from each."""
FOLDER = CACHE / "debian"
_LEADER = re.compile(r"\.(?:[ \t]?\.){4,}")
_CONSOLE = re.compile(r"[ \t]*(?:R?>|\$|>>>)[ \t]+\S")
KINDS = ("leader", "running", "glued", "codes", "console", "cut", "symbols", "dingbats")
_CUT = sentences._CUT_SHORT
_DINGBATS = frozenset(pdf._dingbat_codes())
_WORDED = sentences._worded
"""The loader's own readings of a page-cut sentence and of one of symbols, kept before the
baseline swaps them out (`_reading_as_it_was`)."""
_T1_CODE = re.compile(r"(?<=[^\W\d_])[\x1b-\x1f]|[\x1b-\x1f](?=[^\W\d_])")


def fetch(package: str) -> Path:
    """The unpacked files of a Debian package, downloaded once with apt-get.

    Raises:
        SystemExit: apt-get or dpkg-deb is missing, or the package could not be fetched.
    """
    name = package.split("=")[0]
    unpacked = FOLDER / name
    if unpacked.is_dir() and any(unpacked.iterdir()):
        return unpacked
    if shutil.which("apt-get") is None or shutil.which("dpkg-deb") is None:
        raise SystemExit("apt-get and dpkg-deb are needed to fetch the Debian packages")
    with tempfile.TemporaryDirectory() as folder:
        fetched = subprocess.run(
            ["apt-get", "download", package], cwd=folder, capture_output=True, text=True
        )
        archives = list(Path(folder).glob("*.deb"))
        if fetched.returncode != 0 or not archives:
            raise SystemExit(f"could not download {package}: {fetched.stderr.strip()}")
        partial = FOLDER / f"{name}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        FOLDER.mkdir(parents=True, exist_ok=True)  # a fresh clone has no cache yet
        subprocess.run(["dpkg-deb", "-x", str(archives[0]), str(partial)], check=True)
        partial.rename(unpacked)
    return unpacked


def _raw_pages(data: bytes) -> list[str]:
    """Each page's text as the loader read it before: PDFium's, line ends and hyphenation
    marks aside, a LaTeX font's codes left as they are."""
    document = pypdfium2.PdfDocument(data)
    try:
        pages = []
        for index in range(len(document)):
            page = document[index]
            textpage = page.get_textpage()
            text = textpage.get_text_bounded()
            textpage.close()
            page.close()
            pages.append(text.replace("\r\n", "\n").replace("\r", "\n").replace("\x02", ""))
        return pages
    finally:
        document.close()


def _as_it_was(path: Path, data: bytes, reference: Parsed) -> Parsed:
    """The loader before `pdf_layout` and `pdf.cleaned`: each page's lines as paragraphs."""
    pages = _raw_pages(data)
    text = "\n\n".join(pages)
    blocks: list[Block] = []
    anchors: list[Anchor] = []
    offset = 0
    for number, page in enumerate(pages, start=1):
        anchors.append(Anchor(offset, 1, number))
        blocks.extend(paragraphs(text, offset, offset + len(page), page=number))
        offset += len(page) + 2
    document = reference.document
    rebuilt = Document(
        document.id, str(path), document.title, DocumentKind.PDF, text, tuple(anchors)
    )
    return Parsed(rebuilt, tuple(blocks))


@contextmanager
def _reading_as_it_was() -> Iterator[None]:
    """`prose_sentences` before this change: a dot leader, a numbered title alone in its
    paragraph or ending with a page number, and a console line were prose (those checks
    swapped out for the baseline only)."""
    never = re.compile(r"(?!)")  # matches nothing
    kept = (sentences._LEADER, sentences._numbered_title, sentences._CONTENTS_LINE,
            sentences.CONSOLE_LINE, sentences._CUT_SHORT, sentences._labels,
            sentences._worded)  # fmt: skip
    sentences._LEADER, sentences._CONTENTS_LINE, sentences.CONSOLE_LINE = never, never, never
    sentences._CUT_SHORT = never
    sentences._numbered_title = lambda text, begin, end: False
    sentences._labels = lambda sentence: False
    sentences._worded = lambda sentence, least: len(sentence.split()) >= least
    try:
        yield
    finally:
        (sentences._LEADER, sentences._numbered_title, sentences._CONTENTS_LINE,
         sentences.CONSOLE_LINE, sentences._CUT_SHORT, sentences._labels,
         sentences._worded) = kept  # fmt: skip


def count(parsed: Parsed, running_lines: set[str]) -> dict[str, Any]:
    """What the prose sentences of `parsed`'s chunks hold (see the module docstring)."""
    chunks = split(parsed)
    found: Counter[str] = Counter()
    read = 0
    for chunk in chunks:
        text = chunk.text
        for begin, end in sentences.prose_sentences(text):
            sentence = text[begin:end]
            read += 1
            lines = sentence.split("\n")
            found["leader"] += bool(_LEADER.search(sentence))
            found["running"] += any(line.strip() in running_lines for line in lines)
            found["glued"] += len(lines) > 1 and numbered_heading(lines, 0) > 0
            found["codes"] += bool(_T1_CODE.search(sentence))
            found["console"] += any(_CONSOLE.match(line) for line in lines)
            found["cut"] += bool(_CUT.search(sentence))
            found["symbols"] += not _WORDED(sentence, 1)
            found["dingbats"] += _letters_as_dingbats(sentence)
    return {
        "chunks": len(chunks),
        "with_heading_path": round(sum(bool(c.heading_path) for c in chunks) / len(chunks), 4),
        "prose_sentences": read,
        **{kind: found[kind] for kind in KINDS},
    }


def _letters_as_dingbats(sentence: str) -> bool:
    """Three dingbats or more, a third of the sentence's letters at least (as `by_code`)."""
    dingbats = sum(character in _DINGBATS for character in sentence)
    letters = sum(character.isalpha() for character in sentence)
    return dingbats >= 3 and dingbats * 3 >= letters


def _before(path: Path, data: bytes, parsed: Parsed, wordy: set[str]) -> dict[str, Any]:
    with _reading_as_it_was():
        return count(_as_it_was(path, data, parsed), wordy)


def measure(path: Path) -> dict[str, Any]:
    data = path.read_bytes()
    (parsed,) = load_pdf(path.name, data).parsed
    raw_pages = [page.split("\n") for page in read_pdf(data).pages]  # cleaned
    dropped = running(raw_pages)
    lines = Counter(raw_pages[p][i].strip() for p, found in enumerate(dropped) for i in found)
    wordy = {line for line in lines if len(line.split()) >= 2}
    return {
        "pages": len(raw_pages),
        "running_lines_dropped": sum(lines.values()),
        "most_dropped": [line for line, _ in lines.most_common(5)],
        "headings": sum(block.heading is not None for block in parsed.blocks),
        "before": _before(path, data, parsed, wordy),
        "after": count(parsed, wordy),
    }


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    documents: dict[str, Any] = {}
    for package, paths in PACKAGES.items():
        folder = fetch(package)
        for relative in paths:
            path = folder / relative
            documents[path.name] = {"package": package, **measure(path)}
            after, before = documents[path.name]["after"], documents[path.name]["before"]
            print(
                f"{path.name}: pages {documents[path.name]['pages']}, "
                + ", ".join(f"{k} {before[k]} -> {after[k]}" for k in (*KINDS, "with_heading_path"))
            )
    totals = {
        side: {
            kind: sum(d[side][kind] for d in documents.values())
            for kind in ("prose_sentences", *KINDS)
        }
        for side in ("before", "after")
    }
    print(totals)
    write_result("pdf_layout", {"documents": documents, "totals": totals})


if __name__ == "__main__":
    main()
