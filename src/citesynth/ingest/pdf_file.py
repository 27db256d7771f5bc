"""A PDF file's bytes around its numbered objects: header, cross-reference table, trailer.

Two small PDFs are written here, never parsed: the demo's PDF made from a Markdown page
(`citesynth.demo`) and the one-page PDF that asks PDFium for the Zapf Dingbats glyph
names (`ingest.pdf._dingbat_codes`).
"""

from __future__ import annotations

from collections.abc import Sequence


def pdf_file(objects: Sequence[bytes], *, info: int | None = None) -> bytes:
    """A PDF 1.4 file of `objects`, numbered from 1 in order, the first the catalog.

    `info` is the number of the document information object, when there is one.
    """
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    described = b"" if info is None else b" /Info %d 0 R" % info
    out += b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        described,
        xref,
    )
    return bytes(out)
