"""Bytes to text: binary sniffing, decoding with fallbacks, and a cheap token estimate."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from citesynth.errors import LoadError

_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)
_SNIFF_BYTES = 8192
# Bytes that never occur in text: C0 controls except tab, LF, form feed, CR and escape.
_CONTROL = bytes(set(range(32)) - {9, 10, 12, 13, 27})


@dataclass(frozen=True, slots=True)
class Decoded:
    """Text decoded from bytes, and the codec that worked."""

    text: str
    encoding: str

    @property
    def fell_back(self) -> bool:
        """True when the bytes were not valid UTF-8 and a legacy codec was used."""
        return self.encoding not in {"utf-8", "utf-8-sig", "utf-16", "utf-32"}


def content_hash(*parts: bytes | str) -> str:
    """A tagged content hash; the tag lets the digest change later without mixing id spaces."""
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return "b2:" + digest.hexdigest()


def looks_binary(data: bytes) -> bool:
    """Whether bytes look like a binary file (NUL bytes or many control characters)."""
    head = data[:_SNIFF_BYTES]
    if any(head.startswith(bom) for bom, _ in _BOMS):
        return False
    if b"\x00" in head:
        return True
    if not head:
        return False
    controls = len(head) - len(head.translate(None, _CONTROL))
    return controls / len(head) > 0.05


def decode(data: bytes) -> Decoded:
    """Decode file bytes: a BOM wins, then UTF-8, then Windows-1252, then Latin-1 (total).

    Raises:
        LoadError: the bytes look binary.
    """
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                return Decoded(data.decode(codec), codec)
            except UnicodeDecodeError:
                break
    if looks_binary(data):
        raise LoadError("binary file (not text)")
    try:
        return Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return Decoded(data.decode("cp1252"), "cp1252")
    except UnicodeDecodeError:
        return Decoded(data.decode("latin-1"), "latin-1")
