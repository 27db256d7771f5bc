"""Compare pypdf and pypdfium2 for extracting text page by page.

Why this exists
---------------
citesynth cites every answer sentence back to a page of a source document, so the PDF text
layer is the foundation of everything: a lost space breaks exact-phrase search, a sentence
on the wrong page breaks a citation, a hang on a broken file stalls ingestion. This script
measures the two pure-pip candidates, pypdf and pypdfium2 (PDFium), on the properties that
matter to us, and writes the numbers to JSON so the choice made in
``src/citesynth/ingest/pdf.py`` can be checked and re-checked.

What it does
------------
All test PDFs are generated here with reportlab in a temporary directory (no third-party
documents), so the ground truth is known exactly:

* ``prose``       100 A4 pages: heading, four wrapped paragraphs with numbers, units and
                  dates and ligature-prone words (office, efficient, affinity, flow), a
                  small table, a "Page N" footer and a sentinel ``SENTINEL-NNN costs
                  NNN000 euros.`` whose page is recorded while reportlab lays it out.
* ``two_column``  20 pages, two frames per page, known paragraphs per column.
* ``hyphenated``  one page drawn line by line, long words split with a hyphen.
* ``ligature_glyphs`` one page set in Bitstream Vera (ships with reportlab) using the real
                  ligature glyphs U+FB01 "fi" and U+FB02 "fl", as LaTeX or Word emit them.
* robustness files: truncated, garbage after a ``%PDF-1.4`` header, encrypted with a
  user password, encrypted with an empty user password (permissions only, which every
  reader should open), and pages that hold only drawn rectangles.

Each extractor is called the way an application would call it: ``PdfReader`` +
``page.extract_text()`` for pypdf, ``PdfDocument`` + ``textpage.get_text_bounded()`` for
pypdfium2 (the same call as citesynth's ingestion). Timings are single-threaded, include
opening the file, are repeated three times and the median is reported. Robustness cases run
in a child process with a timeout so that a hang is reported instead of stalling the run.

Run::

    .venv/bin/python benchmarks/pdf_parsers.py --out benchmarks/results/pdf_parsers.json
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import logging
import multiprocessing as mp
import os
import platform
import random
import re
import statistics
import tempfile
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pypdf
import pypdfium2
import reportlab
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import cm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as pdfcanvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    FrameBreak,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

SEED = 20240312
PROSE_PAGES = 100
TWO_COLUMN_PAGES = 20
REPEATS = 3
ROBUSTNESS_TIMEOUT_S = 60.0
LIBRARIES = ("pypdf", "pypdfium2")

# Words whose letter pairs (fi, fl, ff, ffi, ffl) a typesetter may turn into ligatures.
LIGATURE_WORDS = tuple(
    """office officials efficient affinity flow fluid final field sufficient difficult
    reflected fifty shuffled scientific fleet traffic staff buffer effect financial""".split()
)


# --------------------------------------------------------------------------------------
# Ground truth
# --------------------------------------------------------------------------------------


@dataclass
class Sentence:
    """One generated sentence and the numeric tokens (numbers, units, dates) it contains."""

    text: str
    numeric_tokens: list[str] = field(default_factory=list)


@dataclass
class ProsePage:
    page: int  # 1-based
    heading: str
    paragraphs: list[list[Sentence]]
    sentinel: str
    table_cells: list[str]

    @property
    def sentences(self) -> list[Sentence]:
        return [s for paragraph in self.paragraphs for s in paragraph]


@dataclass
class ColumnPage:
    page: int
    left: list[list[Sentence]]
    right: list[list[Sentence]]


@dataclass
class HyphenLine:
    """A manually broken line: ``text`` is drawn, ``split_word`` continues on the next line."""

    text: str
    split_word: str | None


MONTHS = tuple(
    """January February March April May June July August September October November
    December""".split()
)
CITIES = tuple("Lyon Porto Ghent Tampere Graz Bologna Utrecht Aarhus".split())
TEAMS = (
    "office team",
    "field engineers",
    "finance department",
    "research group",
    "quality staff",
    "logistics unit",
)
TOPICS = (
    "Efficient office workflows",
    "Field measurements",
    "Financial outlook",
    "Traffic flow in the city",
    "Scientific review",
    "Affinity studies",
    "Staff and training",
    "Buffer capacity",
)


class ProseGenerator:
    """Realistic, reproducible English sentences that carry numbers, units and dates."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def date(self) -> str:
        return f"{self.rng.randint(1, 28)} {self.rng.choice(MONTHS)} {self.rng.randint(2019, 2025)}"

    def pct(self) -> str:
        return f"{self.rng.randint(3, 97)} %"

    def decimal(self, low: float, high: float, unit: str, digits: int = 1) -> str:
        return f"{self.rng.uniform(low, high):.{digits}f} {unit}"

    def count(self) -> str:
        return f"{self.rng.randint(1, 9)},{self.rng.randint(0, 999):03d}"

    def small(self) -> str:
        return str(self.rng.randint(2, 11))

    def templates(self) -> list[tuple[str, dict[str, Callable[[], str]]]]:
        """Sentence templates and, for each numeric slot, how to draw its value."""
        rng = self.rng
        return [
            (
                "On {date}, the {team} measured a flow rate of {flow}, which was {pct} higher "
                "than in the previous quarter.",
                {"date": self.date, "flow": lambda: self.decimal(1, 40, "l/min"), "pct": self.pct},
            ),
            (
                "Each patient received {dose} of the compound twice a day, a dose the official "
                "guidelines describe as sufficient for adults.",
                {"dose": lambda: self.decimal(0.5, 9.5, "mg")},
            ),
            (
                "The affinity of the new antibody was {factor} times stronger than the reference, "
                "according to the final report from {date}.",
                {"factor": lambda: f"{rng.uniform(1.1, 9.9):.1f}", "date": self.date},
            ),
            (
                "Our office in {city} handled {count} requests in {month}, which makes it the most "
                "efficient branch in the region.",
                {
                    "count": self.count,
                    "month": lambda: f"{rng.choice(MONTHS)} {rng.randint(2019, 2025)}",
                },
            ),
            (
                "About {pct} of the respondents said the workflow felt difficult at first, "
                "but most of them adapted within {weeks} weeks.",
                {"pct": self.pct, "weeks": self.small},
            ),
            (
                "The field team reflected on the results and decided to keep the temperature at "
                "{temp} for the rest of the trial.",
                {"temp": lambda: self.decimal(4, 38, "\u00b0C")},
            ),
            (
                "A fluid schedule allowed the staff to finish the inventory of {count} items "
                "before {date}.",
                {"count": self.count, "date": self.date},
            ),
            (
                "The engineers found that the pipeline lost {pct} of its throughput whenever the "
                "buffer held more than {size} of data.",
                {"pct": self.pct, "size": lambda: f"{rng.choice((128, 256, 512, 768))} MB"},
            ),
            (
                "Officials confirmed that the bridge, which is {length} long, will reopen to "
                "traffic on {date}.",
                {"length": lambda: self.decimal(0.3, 4.8, "km"), "date": self.date},
            ),
            (
                "In the first fifty days the shuffled sample showed an affinity score of {score}, "
                "well within the expected range.",
                {"score": lambda: f"{rng.uniform(0.5, 0.99):.2f}"},
            ),
            (
                "The scientific committee will meet again on {date} to review the {count} "
                "submissions it received this year.",
                {"date": self.date, "count": self.count},
            ),
            (
                "Sufficient funding of {money} was approved for the office renovation, "
                "and the work is expected to take {months} months.",
                {
                    "money": lambda: f"{rng.uniform(1.1, 9.9):.1f} million euros",
                    "months": self.small,
                },
            ),
            (
                "The efficient cooling system keeps the server room at {temp} even when the load "
                "exceeds {pct}.",
                {"temp": lambda: self.decimal(16, 24, "\u00b0C"), "pct": self.pct},
            ),
            (
                "Traffic flow in the city centre improved by {pct} after the council introduced a "
                "fleet of {buses} electric buses.",
                {"pct": self.pct, "buses": lambda: str(rng.randint(12, 95))},
            ),
            (
                "The financial effect of the change was modest: costs fell from {before} to "
                "{after} per unit.",
                {
                    "before": lambda: f"{rng.uniform(5, 9):.2f} euros",
                    "after": lambda: f"{rng.uniform(2, 4.9):.2f} euros",
                },
            ),
        ]

    def sentence(self, index: int) -> Sentence:
        """Fill template ``index``; every numeric slot's value is recorded as a token."""
        template, slots = self.templates()[index]
        values = {name: make() for name, make in slots.items()}
        text = template.format(team=self.rng.choice(TEAMS), city=self.rng.choice(CITIES), **values)
        return Sentence(text, list(values.values()))

    def paragraph(self, n_sentences: int) -> list[Sentence]:
        """``n_sentences`` sentences from distinct templates, so no paragraph repeats itself."""
        indices = self.rng.sample(range(len(self.templates())), n_sentences)
        return [self.sentence(index) for index in indices]


def sentinel_sentence(page: int) -> str:
    return f"SENTINEL-{page:03d} costs {page:03d}000 euros."


def make_prose_truth(gen: ProseGenerator, n_pages: int) -> list[ProsePage]:
    pages = []
    for number in range(1, n_pages + 1):
        heading = f"Section {number}: {TOPICS[number % len(TOPICS)]}"
        paragraphs = [gen.paragraph(4) for _ in range(4)]
        cells = ["Sample", "Dose", "Measured on"]
        for row in range(1, 4):
            cells += [f"S-{number:03d}-{row}", gen.decimal(0.5, 9.5, "mg"), gen.date()]
        pages.append(ProsePage(number, heading, paragraphs, sentinel_sentence(number), cells))
    return pages


def make_column_truth(gen: ProseGenerator, n_pages: int) -> list[ColumnPage]:
    return [
        ColumnPage(
            number,
            left=[gen.paragraph(3) for _ in range(3)],
            right=[gen.paragraph(3) for _ in range(3)],
        )
        for number in range(1, n_pages + 1)
    ]


HYPHEN_LINES = (
    HyphenLine("The committee discussed how the informa-", "information"),
    HyphenLine("tion retrieval system could support the imple-", "implementation"),
    HyphenLine("mentation of new rules in the public administra-", "administration"),
    HyphenLine("tion of several European municipal-", "municipalities"),
    HyphenLine("ities during the previous finan-", "financial"),
    HyphenLine("cial year. The documentation describes the architec-", "architecture"),
    HyphenLine("ture of the indexing service and its configura-", "configuration"),
    HyphenLine("tion options, including the synchroniza-", "synchronization"),
    HyphenLine("tion of replicas and the authenti-", "authentication"),
    HyphenLine("cation of clients. Independent measure-", "measurements"),
    HyphenLine("ments confirmed the reproduci-", "reproducibility"),
    HyphenLine("bility of the results across environ-", "environments"),
    HyphenLine("ments and hardware generations.", None),
)


# --------------------------------------------------------------------------------------
# PDF generation (reportlab)
# --------------------------------------------------------------------------------------


class Marker(Flowable):  # type: ignore[misc]  # reportlab ships no type stubs
    """A zero-size flowable that records on which page and in which frame it was laid out."""

    def __init__(self, key: str, log: dict[str, tuple[int, str]]) -> None:
        super().__init__()
        self.key = key
        self.log = log
        self.width = self.height = 0

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return 0, 0

    def draw(self) -> None:
        doc_page = self.canv.getPageNumber()
        frame_id = getattr(self.canv, "_current_frame_id", "")
        self.log[self.key] = (doc_page, frame_id)


class TrackingDoc(BaseDocTemplate):  # type: ignore[misc]
    """Exposes the id of the frame being filled to :class:`Marker`."""

    def handle_frameBegin(self, resume: int = 0, pageTopFlowables: Any = None) -> None:
        super().handle_frameBegin(resume, pageTopFlowables)
        self.canv._current_frame_id = self.frame.id


def footer(canvas: pdfcanvas.Canvas, doc: BaseDocTemplate) -> None:
    canvas.setFont("Helvetica", 9)
    canvas.drawCentredString(A4[0] / 2, 1.2 * cm, f"Page {canvas.getPageNumber()}")


def body_style() -> ParagraphStyle:
    return ParagraphStyle(
        "body", parent=getSampleStyleSheet()["BodyText"], fontSize=10.5, leading=13.5, spaceAfter=6
    )


def small_table(cells: Sequence[str]) -> Table:
    rows = [list(cells[i : i + 3]) for i in range(0, len(cells), 3)]
    table = Table(rows, colWidths=[3.5 * cm, 3 * cm, 4.5 * cm])
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
                ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                ("FONTSIZE", (0, 0), (-1, -1), 9),
            ]
        )
    )
    return table


def build_prose_pdf(path: Path, truth: Sequence[ProsePage]) -> dict[str, tuple[int, str]]:
    """Write the prose PDF; return where each page's markers were laid out."""
    log: dict[str, tuple[int, str]] = {}
    doc = TrackingDoc(str(path), pagesize=A4, title="citesynth prose benchmark")
    frame = Frame(2 * cm, 2 * cm, A4[0] - 4 * cm, A4[1] - 4 * cm, id="body")
    doc.addPageTemplates([PageTemplate(id="prose", frames=[frame], onPage=footer)])
    heading_style = getSampleStyleSheet()["Heading2"]
    style = body_style()
    story: list[Flowable] = []
    for page in truth:
        story += [Marker(f"start-{page.page}", log), Paragraph(page.heading, heading_style)]
        for index, paragraph in enumerate(page.paragraphs):
            texts = [s.text for s in paragraph]
            if index == 2:  # the sentinel sits mid-paragraph, wrapped like everything else
                texts.insert(2, page.sentinel)
            story.append(Paragraph(" ".join(texts), style))
        story += [Spacer(1, 6), small_table(page.table_cells), Marker(f"end-{page.page}", log)]
        story.append(PageBreak())
    doc.build(story[:-1])
    return log


def build_two_column_pdf(path: Path, truth: Sequence[ColumnPage]) -> dict[str, tuple[int, str]]:
    log: dict[str, tuple[int, str]] = {}
    doc = TrackingDoc(str(path), pagesize=A4, title="citesynth two-column benchmark")
    gutter, margin = 0.8 * cm, 2 * cm
    width = (A4[0] - 2 * margin - gutter) / 2
    height = A4[1] - 2 * margin
    left = Frame(margin, margin, width, height, id="left")
    right = Frame(margin + width + gutter, margin, width, height, id="right")
    doc.addPageTemplates([PageTemplate(id="columns", frames=[left, right], onPage=footer)])
    style = body_style()
    story: list[Flowable] = []
    for page in truth:
        for side, paragraphs in (("left", page.left), ("right", page.right)):
            story.append(Marker(f"{side}-start-{page.page}", log))
            story += [Paragraph(" ".join(s.text for s in p), style) for p in paragraphs]
            story += [Marker(f"{side}-end-{page.page}", log), FrameBreak()]
    doc.build(story[:-1])
    return log


def check_layout(log: dict[str, tuple[int, str]], expected: dict[str, tuple[int, str]]) -> None:
    """Fail loudly if reportlab put any block somewhere else than the ground truth says."""
    wrong = {key: (log.get(key), want) for key, want in expected.items() if log.get(key) != want}
    if wrong:
        raise RuntimeError(f"layout differs from ground truth: {dict(list(wrong.items())[:5])}")


def build_hyphenated_pdf(path: Path) -> None:
    canvas = pdfcanvas.Canvas(str(path), pagesize=A4)
    canvas.setFont("Helvetica", 12)
    y = A4[1] - 3 * cm
    for line in HYPHEN_LINES:
        canvas.drawString(2.5 * cm, y, line.text)
        y -= 16
    canvas.showPage()
    canvas.save()


def ligature_glyph_lines() -> tuple[list[str], list[str]]:
    """Lines that use real ligature glyphs, and the words they should read as."""
    lines = [
        "The \ufb01nal report from the \ufb01eld team describes the \ufb02ow of goods",
        # Vera has no U+FB03 "ffi" glyph, so "office" is set as o + f + U+FB01 + ce.
        "through the of\ufb01ce, the \ufb02eet of trucks and a suf\ufb01cient buffer.",
        "A scienti\ufb01c review \ufb01xed the con\ufb02ict over the \ufb01fty \ufb02uid samples.",
    ]
    words = "final field flow office fleet sufficient scientific fixed conflict fifty fluid".split()
    return lines, words


def build_ligature_pdf(path: Path) -> None:
    font_file = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
    pdfmetrics.registerFont(TTFont("Vera", str(font_file)))
    canvas = pdfcanvas.Canvas(str(path), pagesize=A4)
    canvas.setFont("Vera", 12)
    y = A4[1] - 3 * cm
    for line in ligature_glyph_lines()[0]:
        canvas.drawString(2.5 * cm, y, line)
        y -= 16
    canvas.showPage()
    canvas.save()


def build_no_text_pdf(path: Path, pages: int = 3) -> None:
    canvas = pdfcanvas.Canvas(str(path), pagesize=A4)
    for index in range(pages):
        for k in range(6):
            canvas.setFillColorRGB(0.1 * k, 0.5, 1 - 0.1 * k)
            canvas.rect(2 * cm + k * cm, 5 * cm + index * cm, 6 * cm, 4 * cm, fill=1)
        canvas.showPage()
    canvas.save()


def build_encrypted_pdf(path: Path, source: Path, user_password: str = "secret") -> None:
    """pypdf's default encryption (RC4-128). An empty user password is the common
    "permissions only" case: anyone may open the file, only editing needs the owner password."""
    writer = pypdf.PdfWriter(clone_from=str(source))
    writer.encrypt(user_password=user_password, owner_password="secret")
    with path.open("wb") as handle:
        writer.write(handle)


def build_truncated_pdf(path: Path, source: Path, share: float = 0.6) -> None:
    data = source.read_bytes()
    path.write_bytes(data[: int(len(data) * share)])


def build_garbage_pdf(path: Path, size: int = 200_000) -> None:
    rng = random.Random(SEED)
    path.write_bytes(b"%PDF-1.4\n" + rng.randbytes(size))


# --------------------------------------------------------------------------------------
# Extractors: the way an application would call each library
# --------------------------------------------------------------------------------------


class PypdfDocument:
    """pypdf behind the small interface both libraries share here."""

    def __init__(self, path: Path) -> None:
        self.reader = pypdf.PdfReader(path)

    def __len__(self) -> int:
        return len(self.reader.pages)

    def page_text(self, index: int) -> str:
        return self.reader.pages[index].extract_text()

    def close(self) -> None:
        self.reader.close()


class PdfiumDocument:
    """pypdfium2 behind the same interface, called as citesynth/ingest/pdf.py calls it."""

    def __init__(self, path: Path) -> None:
        self.document = pypdfium2.PdfDocument(path)

    def __len__(self) -> int:
        return len(self.document)

    def page_text(self, index: int) -> str:
        page = self.document[index]
        try:
            textpage = page.get_textpage()
            try:
                text: str = textpage.get_text_bounded()
            finally:
                textpage.close()
        finally:
            page.close()
        return text

    def close(self) -> None:
        self.document.close()


OPENERS: dict[str, Callable[[Path], PypdfDocument | PdfiumDocument]] = {
    "pypdf": PypdfDocument,
    "pypdfium2": PdfiumDocument,
}


def extract(library: str, path: Path) -> list[str]:
    """Open the file and return the text of every page: what an ingestion pipeline does."""
    document = OPENERS[library](path)
    try:
        return [document.page_text(index) for index in range(len(document))]
    finally:
        document.close()


# --------------------------------------------------------------------------------------
# Metrics
# --------------------------------------------------------------------------------------


def normalize(text: str) -> str:
    """Collapse every run of whitespace (spaces, \\n, \\r\\n, ...) into a single space."""
    return " ".join(text.split())


def share(found: int, total: int) -> float:
    return round(found / total, 4) if total else 0.0


def contains_word(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def time_extraction(library: str, path: Path) -> float:
    start = time.perf_counter()
    extract(library, path)
    return time.perf_counter() - start


def missing_example(sentence: str, page_text: str) -> dict[str, str]:
    """Show what the extractor produced where a missing sentence should have started."""
    prefix = " ".join(sentence.split()[:3])
    at = page_text.find(prefix)
    return {"expected": sentence, "got": page_text[at : at + len(sentence) + 20] if at >= 0 else ""}


def prose_metrics(pages: Sequence[str], truth: Sequence[ProsePage]) -> dict[str, Any]:
    norm = [normalize(p) for p in pages]
    sentinel_ok = sum(1 for t in truth if t.page <= len(norm) and t.sentinel in norm[t.page - 1])
    sentences = found = 0
    numbers = numbers_found = 0
    ligatures = ligatures_found = 0
    cells = cells_found = rows = rows_on_one_line = 0
    headings_found = 0
    examples: list[dict[str, str]] = []
    for t in truth:
        text = norm[t.page - 1] if t.page <= len(norm) else ""
        headings_found += t.heading in text
        for s in t.sentences:
            sentences += 1
            if s.text in text:
                found += 1
            elif len(examples) < 3:
                examples.append(missing_example(s.text, text))
            numbers += len(s.numeric_tokens)
            numbers_found += sum(token in text for token in s.numeric_tokens)
        page_words = {w for w in LIGATURE_WORDS for s in t.sentences if contains_word(s.text, w)}
        ligatures += len(page_words)
        ligatures_found += sum(contains_word(text, w) for w in page_words)
        cells += len(t.table_cells)
        cells_found += sum(cell in text for cell in t.table_cells)
        raw = pages[t.page - 1] if t.page <= len(pages) else ""
        lines = {normalize(line) for line in raw.splitlines()}
        table_rows = [" ".join(t.table_cells[i : i + 3]) for i in range(0, len(t.table_cells), 3)]
        rows += len(table_rows)
        rows_on_one_line += sum(row in lines for row in table_rows)
    return {
        "pages_extracted": len(pages),
        "sentinel_on_correct_page": sentinel_ok,
        "sentinel_total": len(truth),
        "sentence_recovery": share(found, sentences),
        "sentences_total": sentences,
        "numeric_tokens_preserved": share(numbers_found, numbers),
        "numeric_tokens_total": numbers,
        "ligature_words_intact": share(ligatures_found, ligatures),
        "ligature_words_total": ligatures,
        "headings_found": share(headings_found, len(truth)),
        "table_cells_found": share(cells_found, cells),
        "table_rows_on_one_line": share(rows_on_one_line, rows),
        "missing_sentence_examples": examples,
    }


def column_metrics(pages: Sequence[str], truth: Sequence[ColumnPage]) -> dict[str, Any]:
    norm = [normalize(p) for p in pages]
    sentences = found = order_ok = 0
    examples: list[dict[str, str]] = []
    for t in truth:
        text = norm[t.page - 1] if t.page <= len(norm) else ""
        left = [s.text for p in t.left for s in p]
        right = [s.text for p in t.right for s in p]
        for sentence in left + right:
            sentences += 1
            if sentence in text:
                found += 1
            elif len(examples) < 3:
                examples.append(missing_example(sentence, text))
        left_positions = [text.find(s) for s in left]
        first_right = text.find(right[0])
        if min(left_positions) >= 0 and first_right >= 0 and max(left_positions) < first_right:
            order_ok += 1
    return {
        "sentence_recovery": share(found, sentences),
        "sentences_total": sentences,
        "column_order_preserved_pages": order_ok,
        "pages_total": len(truth),
        "missing_sentence_examples": examples,
    }


HYPHEN_MARKS = "-\u00ad\u2010\x02\ufffe"  # ASCII hyphen, soft hyphen, Unicode hyphen, PDFium marks


def dehyphenate_simple(text: str) -> str:
    """The textbook rule: an ASCII hyphen at the end of a line joins the two halves."""
    return re.sub(r"(\w)-[ \t]*\r?\n[ \t]*(\w)", r"\1\2", text)


def dehyphenate_tolerant(text: str) -> str:
    """Also accept soft hyphens and PDFium's control marks, with or without a line break."""
    marks = re.escape(HYPHEN_MARKS)
    return re.sub(rf"(\w)[{marks}][ \t]*(?:\r\n|\r|\n)?[ \t]*(\w)", r"\1\2", text)


def hyphen_metrics(pages: Sequence[str]) -> dict[str, Any]:
    text = "\n".join(pages)
    words = [line.split_word for line in HYPHEN_LINES if line.split_word]
    raw_forms = {}
    for line in HYPHEN_LINES:
        if line.split_word:
            head = line.text.split()[-1].rstrip("-")
            at = text.find(head)
            raw_forms[line.split_word] = text[at : at + len(head) + 8] if at >= 0 else None
    simple = dehyphenate_simple(text)
    tolerant = dehyphenate_tolerant(text)
    return {
        "split_words": len(words),
        "raw_forms": raw_forms,
        "rejoined_simple_rule": sum(contains_word(simple, w) for w in words),
        "rejoined_tolerant_rule": sum(contains_word(tolerant, w) for w in words),
    }


def ligature_glyph_metrics(pages: Sequence[str]) -> dict[str, Any]:
    text = "\n".join(pages)
    _, words = ligature_glyph_lines()
    nfkc = unicodedata.normalize("NFKC", text)
    ligature_chars = sorted({f"U+{ord(c):04X}" for c in text if 0xFB00 <= ord(c) <= 0xFB06})
    return {
        "words": len(words),
        "intact_raw": sum(contains_word(text, w) for w in words),
        "intact_after_nfkc": sum(contains_word(nfkc, w) for w in words),
        "ligature_code_points_returned": ligature_chars,
    }


def line_ending_metrics(pages: Sequence[str]) -> dict[str, Any]:
    text = "".join(pages)
    crlf = text.count("\r\n")
    lone_cr = text.count("\r") - crlf
    lone_lf = text.count("\n") - crlf
    counts = {"\\r\\n": crlf, "\\r": lone_cr, "\\n": lone_lf}
    dominant = max(counts, key=lambda k: counts[k]) if any(counts.values()) else "none"
    return {"counts": counts, "dominant": dominant}


def control_characters(pages: Sequence[str]) -> dict[str, int]:
    """Control and non-characters other than \\r, \\n, \\t, with how often each occurs."""
    found: dict[str, int] = {}
    for char in "".join(pages):
        odd = unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn") or char in "\ufffe\uffff"
        if odd and char not in "\r\n\t":
            key = f"U+{ord(char):04X}"
            found[key] = found.get(key, 0) + 1
    return dict(sorted(found.items()))


# --------------------------------------------------------------------------------------
# Robustness: each case in a child process, so a hang or a crash cannot stop the run
# --------------------------------------------------------------------------------------


def _error(error: Exception) -> dict[str, str]:
    return {"exception": type(error).__name__, "message": str(error)[:300]}


def _robust_child(library: str, path: str, queue: mp.Queue) -> None:  # type: ignore[type-arg]
    """Open, count pages, then extract page by page, so a partly readable file shows how far
    it got. The first failure is reported with the stage it happened in."""
    warnings = io.StringIO()
    logging.getLogger("pypdf").addHandler(logging.StreamHandler(warnings))
    result: dict[str, Any] = {}
    chars = pages_ok = 0
    page_errors: list[dict[str, str]] = []
    stage = "open"
    start = time.perf_counter()
    try:
        document = OPENERS[library](Path(path))
        try:
            stage = "page count"
            page_count = len(document)
            stage = "extract"
            for index in range(page_count):
                try:
                    chars += len(document.page_text(index).strip())
                    pages_ok += 1
                except Exception as error:  # recording any failure is the point
                    page_errors.append(_error(error))
        finally:
            document.close()
        if page_errors:
            result = {"outcome": "exception", "stage": stage, **page_errors[0]}
        else:
            result = {"outcome": "text" if chars else "empty text"}
        result |= {"pages": page_count, "pages_extracted": pages_ok, "chars": chars}
    except Exception as error:
        result = {"outcome": "exception", "stage": stage, **_error(error)}
    result["seconds"] = round(time.perf_counter() - start, 4)
    result["logged_warnings"] = len(warnings.getvalue().splitlines())
    queue.put(result)


def robustness_case(
    library: str, path: Path, timeout: float = ROBUSTNESS_TIMEOUT_S
) -> dict[str, Any]:
    """Run one robustness case in a child process; report a hang or a crash as such."""
    queue: mp.Queue = mp.Queue()  # type: ignore[type-arg]
    child = mp.Process(target=_robust_child, args=(library, str(path), queue))
    start = time.perf_counter()
    child.start()
    child.join(timeout)
    if child.is_alive():
        child.terminate()
        child.join()
        return {
            "outcome": "hang",
            "seconds": round(time.perf_counter() - start, 2),
            "message": f"no result after {timeout:.0f} s, killed",
        }
    if queue.empty():
        return {
            "outcome": "crash",
            "exit_code": child.exitcode,
            "seconds": round(time.perf_counter() - start, 2),
        }
    result: dict[str, Any] = queue.get()
    return result


# --------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------


def machine_info() -> dict[str, Any]:
    cpu = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpu": cpu,
        "cpu_count": os.cpu_count(),
    }


def markdown_table(results: dict[str, dict[str, Any]]) -> str:
    def row(label: str, get: Callable[[dict[str, Any]], Any]) -> str:
        return f"| {label} | " + " | ".join(str(get(results[lib])) for lib in LIBRARIES) + " |"

    def pct(value: float) -> str:
        return f"{100 * value:.1f} %"

    def robust(name: str) -> Callable[[dict[str, Any]], str]:
        def cell(r: dict[str, Any]) -> str:
            case = r["robustness"][name]
            if case["outcome"] == "exception":
                what = f"{case['exception']} at {case['stage']}"
            else:
                what = case["outcome"]
            return f"{what} ({case['seconds']:.3f} s)"

        return cell

    lines = [
        "| metric | " + " | ".join(LIBRARIES) + " |",
        "|---|" + "---|" * len(LIBRARIES),
        row("prose pages/s (median of 3)", lambda r: f"{r['speed']['prose_pages_per_second']:.1f}"),
        row("two_column pages/s", lambda r: f"{r['speed']['two_column_pages_per_second']:.1f}"),
        row(
            "sentinel on correct page",
            lambda r: f"{r['prose']['sentinel_on_correct_page']}/{r['prose']['sentinel_total']}",
        ),
        row("prose sentences verbatim", lambda r: pct(r["prose"]["sentence_recovery"])),
        row("two_column sentences verbatim", lambda r: pct(r["two_column"]["sentence_recovery"])),
        row(
            "column order preserved",
            lambda r: (
                f"{r['two_column']['column_order_preserved_pages']}/{r['two_column']['pages_total']}"
            ),
        ),
        row("numbers/units/dates", lambda r: pct(r["prose"]["numeric_tokens_preserved"])),
        row("ligature-prone words", lambda r: pct(r["prose"]["ligature_words_intact"])),
        row(
            "ligature glyphs raw / NFKC",
            lambda r: (
                f"{r['ligature_glyphs']['intact_raw']}/{r['ligature_glyphs']['words']} / "
                f"{r['ligature_glyphs']['intact_after_nfkc']}/{r['ligature_glyphs']['words']}"
            ),
        ),
        row("table cells found", lambda r: pct(r["prose"]["table_cells_found"])),
        row("table rows kept on one line", lambda r: pct(r["prose"]["table_rows_on_one_line"])),
        row("hyphen split raw form", lambda r: repr(r["hyphenated"]["raw_forms"]["information"])),
        row(
            "dehyphenated simple / tolerant",
            lambda r: (
                f"{r['hyphenated']['rejoined_simple_rule']}/{r['hyphenated']['split_words']} / "
                f"{r['hyphenated']['rejoined_tolerant_rule']}/{r['hyphenated']['split_words']}"
            ),
        ),
        row("line endings", lambda r: r["line_endings"]["dominant"]),
        row(
            "other control chars (all files)",
            lambda r: ", ".join(f"{k} x{v}" for k, v in r["control_characters"].items()) or "none",
        ),
    ]
    for name in ROBUSTNESS_FILES:
        lines.append(row(f"robustness: {name}", robust(name)))
    return "\n".join(lines)


ROBUSTNESS_FILES = ("truncated", "garbage", "encrypted", "encrypted_owner_only", "no_text")


@dataclass
class Corpus:
    paths: dict[str, Path]
    prose: list[ProsePage]
    columns: list[ColumnPage]


def build_corpus(directory: Path) -> Corpus:
    gen = ProseGenerator(SEED)
    prose = make_prose_truth(gen, PROSE_PAGES)
    columns = make_column_truth(gen, TWO_COLUMN_PAGES)
    paths = {
        name: directory / f"{name}.pdf"
        for name in ("prose", "two_column", "hyphenated", "ligature_glyphs", *ROBUSTNESS_FILES)
    }

    log = build_prose_pdf(paths["prose"], prose)
    check_layout(
        log, {f"{edge}-{p.page}": (p.page, "body") for p in prose for edge in ("start", "end")}
    )
    log = build_two_column_pdf(paths["two_column"], columns)
    check_layout(
        log,
        {
            f"{side}-{edge}-{c.page}": (c.page, side)
            for c in columns
            for side in ("left", "right")
            for edge in ("start", "end")
        },
    )
    build_hyphenated_pdf(paths["hyphenated"])
    build_ligature_pdf(paths["ligature_glyphs"])
    build_truncated_pdf(paths["truncated"], paths["prose"])
    build_garbage_pdf(paths["garbage"])
    build_no_text_pdf(paths["no_text"])
    build_encrypted_pdf(paths["encrypted"], paths["hyphenated"])
    build_encrypted_pdf(paths["encrypted_owner_only"], paths["hyphenated"], user_password="")
    return Corpus(paths, prose, columns)


def evaluate(library: str, corpus: Corpus, timings: dict[str, list[float]]) -> dict[str, Any]:
    prose_pages = extract(library, corpus.paths["prose"])
    column_pages = extract(library, corpus.paths["two_column"])
    hyphen_pages = extract(library, corpus.paths["hyphenated"])
    ligature_pages = extract(library, corpus.paths["ligature_glyphs"])
    prose_median = statistics.median(timings["prose"])
    column_median = statistics.median(timings["two_column"])
    return {
        "speed": {
            "prose_seconds_runs": [round(t, 4) for t in timings["prose"]],
            "prose_seconds_median": round(prose_median, 4),
            "prose_pages_per_second": round(PROSE_PAGES / prose_median, 2),
            "two_column_seconds_median": round(column_median, 4),
            "two_column_pages_per_second": round(TWO_COLUMN_PAGES / column_median, 2),
        },
        "prose": prose_metrics(prose_pages, corpus.prose),
        "two_column": column_metrics(column_pages, corpus.columns),
        "hyphenated": hyphen_metrics(hyphen_pages),
        "ligature_glyphs": ligature_glyph_metrics(ligature_pages),
        "line_endings": line_ending_metrics(prose_pages),
        "control_characters": control_characters([*prose_pages, *column_pages, *hyphen_pages]),
        "robustness": {
            name: robustness_case(library, corpus.paths[name]) for name in ROBUSTNESS_FILES
        },
    }


def run_timings(corpus: Corpus) -> dict[str, dict[str, list[float]]]:
    """Interleave the libraries run by run, so drift on the machine hits both alike.

    One untimed warm-up pass first, so that one-off costs (lazy imports, PDFium's
    initialization, the OS file cache) are not charged to the first timed run."""
    timings: dict[str, dict[str, list[float]]] = {
        lib: {"prose": [], "two_column": []} for lib in LIBRARIES
    }
    for lib in LIBRARIES:
        for name in ("prose", "two_column"):
            extract(lib, corpus.paths[name])
    for _ in range(REPEATS):
        for lib in LIBRARIES:
            for name in ("prose", "two_column"):
                timings[lib][name].append(time_extraction(lib, corpus.paths[name]))
    return timings


def derived_notes(results: dict[str, dict[str, Any]]) -> list[str]:
    notes = []
    speeds = {lib: results[lib]["speed"]["prose_pages_per_second"] for lib in LIBRARIES}
    fast, slow = sorted(LIBRARIES, key=lambda lib: -speeds[lib])
    notes.append(
        f"{fast} extracted the prose PDF {speeds[fast] / speeds[slow]:.1f}x faster "
        f"than {slow} ({speeds[fast]:.0f} vs {speeds[slow]:.0f} pages/s)."
    )
    for lib in LIBRARIES:
        endings = results[lib]["line_endings"]
        counts = ", ".join(f"{ending} x{n}" for ending, n in endings["counts"].items())
        controls = ", ".join(f"{c} x{n}" for c, n in results[lib]["control_characters"].items())
        notes.append(
            f"{lib} line endings on prose: {counts}; other control characters in all "
            f"extracted text: {controls or 'none'}."
        )
        hyphens = results[lib]["hyphenated"]
        if hyphens["rejoined_simple_rule"] < hyphens["split_words"]:
            example = hyphens["raw_forms"]["information"]
            notes.append(
                f"{lib} returns a line-end hyphen as {example!r}; the textbook "
                f"'-\\n' dehyphenation rejoins {hyphens['rejoined_simple_rule']}/"
                f"{hyphens['split_words']} words, a rule that knows this form "
                f"{hyphens['rejoined_tolerant_rule']}/{hyphens['split_words']}."
            )
        glyphs = results[lib]["ligature_glyphs"]
        if glyphs["ligature_code_points_returned"]:
            notes.append(
                f"{lib} returns ligature glyphs as "
                f"{', '.join(glyphs['ligature_code_points_returned'])}: "
                f"{glyphs['intact_raw']}/{glyphs['words']} words match as extracted, "
                f"{glyphs['intact_after_nfkc']}/{glyphs['words']} after NFKC."
            )
        for name, case in results[lib]["robustness"].items():
            if case["outcome"] in ("hang", "crash"):
                notes.append(f"{lib} {case['outcome']} on the {name} file.")
    return notes


METHOD_NOTES = [
    "All PDFs are generated by reportlab with a fixed seed; the page and frame of every "
    "ground-truth block is recorded during layout and checked before measuring.",
    "pypdf: PdfReader(path) + page.extract_text() (default 'plain' mode). pypdfium2: "
    "PdfDocument(path) + page.get_textpage().get_text_bounded(), as in citesynth/ingest/pdf.py.",
    "Timings are wall-clock, single-threaded, include opening the file, follow one untimed "
    f"warm-up pass, are interleaved between libraries, {REPEATS} runs each, median reported. "
    "A pypdfium2 run over 100 pages takes about a tenth of a second, so expect run-to-run noise "
    "of some tens of percent on a shared machine; the ratio between libraries is the stable part.",
    "Text checks compare after collapsing every whitespace run to one space; nothing else is "
    "normalized (no NFKC, no dehyphenation) unless the metric says so.",
    "reportlab's standard fonts never form ligatures, so 'ligature-prone words' checks that "
    "fi/fl/ff pairs survive as plain letters; 'ligature glyphs' uses real U+FB01/U+FB02 glyphs "
    "from Bitstream Vera, as typeset documents contain.",
    "reportlab draws the two columns left frame first, so column order reflects content-stream "
    "order too; PDFs that draw columns out of order would be a harder test.",
    "Robustness cases run in a child process with a "
    f"{ROBUSTNESS_TIMEOUT_S:.0f} s timeout; 'seconds' is measured inside the child.",
    "The encrypted file is the hyphenated page encrypted by pypdf PdfWriter.encrypt('secret') "
    "(RC4-128, user password 'secret'), opened without a password; encrypted_owner_only has an "
    "empty user password, which every reader should open. AES files were not tested: both "
    "pypdf and reportlab need an extra package (cryptography, pyaes) to write them, and pypdf "
    "needs cryptography to read them.",
]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/pdf_parsers.json"))
    args = parser.parse_args(argv)
    logging.getLogger("pypdf").setLevel(logging.WARNING)

    with tempfile.TemporaryDirectory(prefix="pdf_parsers_") as tmp:
        corpus = build_corpus(Path(tmp))
        timings = run_timings(corpus)
        results = {lib: evaluate(lib, corpus, timings[lib]) for lib in LIBRARIES}

    report = {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": machine_info(),
        "versions": {
            "pypdf": pypdf.__version__,
            "pypdfium2": version("pypdfium2"),
            "pdfium": str(pypdfium2.version.PDFIUM_INFO),
            "reportlab": reportlab.Version,
        },
        "results": results,
        "notes": derived_notes(results) + METHOD_NOTES,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(markdown_table(results))
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
