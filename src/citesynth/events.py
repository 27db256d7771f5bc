"""Events streamed by long operations; the CLI renders them, the server will send them.

Indexing yields `IndexPlanned` once, then one event per file (`FileIndexed`,
`FileUnchanged`, `FileSkipped`, `FileRemoved`), then `EmbeddingProgress` while vectors are
computed, and finally `IndexFinished` with the report.
"""

from __future__ import annotations

from dataclasses import dataclass

from citesynth.types import IndexReport


@dataclass(frozen=True, slots=True)
class IndexPlanned:
    """What the run will do: files to read (and their bytes), files already up to date."""

    to_read: int
    bytes_to_read: int
    up_to_date: int
    to_remove: int


@dataclass(frozen=True, slots=True)
class FileIndexed:
    """A file was read and its chunks written; `notes` are tolerated problems."""

    path: str
    bytes: int
    chunks: int
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FileUnchanged:
    """A file was read but its content hash had not changed."""

    path: str
    bytes: int


@dataclass(frozen=True, slots=True)
class FileSkipped:
    """A file could not be indexed; `reason` is one line for the user."""

    path: str
    reason: str
    bytes: int = 0


@dataclass(frozen=True, slots=True)
class FileRemoved:
    """A file that is gone (or no longer indexable) was dropped from the index."""

    path: str


@dataclass(frozen=True, slots=True)
class EmbeddingProgress:
    """Chunk texts embedded so far out of `total`."""

    done: int
    total: int


@dataclass(frozen=True, slots=True)
class IndexFinished:
    """The run is over."""

    report: IndexReport


IndexEvent = (
    IndexPlanned
    | FileIndexed
    | FileUnchanged
    | FileSkipped
    | FileRemoved
    | EmbeddingProgress
    | IndexFinished
)
