"""Uploaded files: safe names, each file streamed to its own temporary file, atomic placement.

An upload request's multipart body is parsed as it arrives, so the per-file limit holds while
each file streams (not only on the whole body). Each file goes to a temporary file of its own
(`mkstemp` in the uploads folder: a unique name per request), is flushed to disk, and is then
given its final name by `os.link`, which fails instead of overwriting. Concurrent uploads of
one name therefore end as `name.md`, `name-2.md`, … each holding exactly the bytes its request
sent, and a failed upload leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import tempfile
import threading
import unicodedata
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import TYPE_CHECKING, BinaryIO

from python_multipart.exceptions import FormParserError
from python_multipart.multipart import MultipartParser, parse_options_header

from citesynth.errors import CitesynthError

if TYPE_CHECKING:
    from python_multipart.multipart import MultipartCallbacks

FIELD = "files"
"""The multipart field that carries the documents."""
_UNSAFE = re.compile(r"[^A-Za-z0-9._ -]+")
_NAME_LIMIT = 120
_COPY_LIMIT = 1000
_MB = 2**20


class UploadRejected(CitesynthError):
    """An upload that cannot be stored; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def safe_name(filename: str) -> str:
    """`filename` reduced to a plain name that cannot leave a folder or hide itself.

    Directory parts (either slash), control characters, `..` and leading dots are dropped;
    what remains is ASCII letters, digits, `._ -`.
    """
    name = PureWindowsPath(PurePosixPath(filename.replace("\\", "/")).name).name
    name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    name = _UNSAFE.sub("_", name).strip(" .")
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        stem, suffix = name, ""
    stem = stem[: _NAME_LIMIT - len(suffix) - 1].strip(" .") or "upload"
    return f"{stem}.{suffix}" if suffix else stem


def candidates(root: Path, filename: str) -> Iterator[Path]:
    """The paths `filename` may take inside `root`, in order: `name.ext`, `name-2.ext`, ….

    Raises:
        UploadRejected: the name resolves outside `root` (never expected after `safe_name`).
    """
    root = root.resolve()
    name = safe_name(filename)
    stem, dot, suffix = name.rpartition(".")
    if not dot:
        stem, suffix = name, ""
    for copy in range(1, _COPY_LIMIT + 1):
        candidate = name if copy == 1 else f"{stem}-{copy}{dot}{suffix}"
        path = (root / candidate).resolve()
        if not path.is_relative_to(root) or path.parent != root:
            raise UploadRejected(f"file name {filename!r} is not allowed", 400)
        yield path


def claim(temporary: Path, root: Path, filename: str) -> Path:
    """Give the complete file `temporary` the first free name for `filename` under `root`.

    Never replaces a file that is there, even one placed a moment ago by another request.

    Raises:
        UploadRejected: 409 when all `_COPY_LIMIT` names are taken.
    """
    for path in candidates(root, filename):
        try:
            os.link(temporary, path)  # atomic; fails if the name exists
        except FileExistsError:
            continue
        except OSError:  # a filesystem without hard links: claim the name, then fill it
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            except FileExistsError:
                continue
            os.replace(temporary, path)  # replaces only the empty file claimed just now
            return path
        temporary.unlink()
        return path
    raise UploadRejected(
        f"too many files called {safe_name(filename)!r}: rename the file or delete old copies",
        409,
    )


class _Receiver:
    """Parses one multipart body, writing each `files` part to a temporary file under `root`.

    Runs in worker threads (file writes and fsync stay off the event loop); a lock keeps a
    late write from racing the clean-up.
    """

    def __init__(
        self, root: Path, boundary: bytes, limit: int, accept: Callable[[str], bool]
    ) -> None:
        self.root = root
        self.limit = limit
        self.accept = accept
        self.files: list[tuple[Path, str]] = []
        """Complete files: (temporary path, the name the client gave)."""
        self.ended = False
        self._lock = threading.Lock()
        self._header = [b"", b""]
        self._disposition = b""
        self._handle: BinaryIO | None = None
        self._current: tuple[Path, str] | None = None
        self._size = 0
        callbacks: MultipartCallbacks = {
            "on_header_field": self._on_header_field,
            "on_header_value": self._on_header_value,
            "on_header_end": self._on_header_end,
            "on_headers_finished": self._on_headers_finished,
            "on_part_data": self._on_part_data,
            "on_part_end": self._on_part_end,
            "on_end": self._on_end,
        }
        self._parser = MultipartParser(boundary, callbacks)

    def write(self, chunk: bytes) -> None:
        """Parse the next piece of the body."""
        with self._lock:
            try:
                self._parser.write(chunk)
            except FormParserError as error:
                raise UploadRejected(f"malformed multipart body: {error}", 400) from None

    def finish(self) -> list[tuple[Path, str]]:
        """The complete files, once the body has ended."""
        with self._lock:
            self._parser.finalize()
            if not self.ended:
                raise UploadRejected("the multipart body ended early: send it again", 400)
            return list(self.files)

    def discard(self) -> None:
        """Remove every temporary file (after a failure)."""
        with self._lock:
            if self._handle is not None:
                self._handle.close()
                self._handle = None
            for path, _ in [*self.files, *([self._current] if self._current else [])]:
                path.unlink(missing_ok=True)
            self.files.clear()
            self._current = None

    def _on_header_field(self, data: bytes, start: int, end: int) -> None:
        self._header[0] += data[start:end]

    def _on_header_value(self, data: bytes, start: int, end: int) -> None:
        self._header[1] += data[start:end]

    def _on_header_end(self) -> None:
        if self._header[0].strip().lower() == b"content-disposition":
            self._disposition = self._header[1]
        self._header = [b"", b""]

    def _on_headers_finished(self) -> None:
        _, options = parse_options_header(self._disposition)
        self._disposition = b""
        if options.get(b"name") != FIELD.encode() or b"filename" not in options:
            return  # another field: its bytes are read (within the request cap) and dropped
        filename = options[b"filename"].decode("utf-8", "replace") or "upload"
        if not self.accept(safe_name(filename)):
            raise UploadRejected(f"{filename!r}: unsupported file type", 415)
        descriptor, name = tempfile.mkstemp(prefix=".upload-", suffix=".part", dir=self.root)
        self._current = (Path(name), filename)
        self._handle = os.fdopen(descriptor, "wb")
        self._size = 0

    def _on_part_data(self, data: bytes, start: int, end: int) -> None:
        if self._handle is None or self._current is None:
            return
        self._size += end - start
        if self._size > self.limit:
            raise UploadRejected(
                f"{self._current[1]!r} is larger than the {self.limit / _MB:g} MB limit per "
                "file: split it, or start the service with a larger --max-upload-mb",
                413,
            )
        self._handle.write(data[start:end])

    def _on_part_end(self) -> None:
        if self._handle is None or self._current is None:
            return
        self._handle.flush()
        os.fsync(self._handle.fileno())  # the bytes are on disk before the file gets its name
        self._handle.close()
        self._handle = None
        self.files.append(self._current)
        self._current = None

    def _on_end(self) -> None:
        self.ended = True


async def receive(
    body: AsyncIterator[bytes],
    content_type: str | None,
    root: Path,
    *,
    limit: int,
    accept: Callable[[str], bool],
) -> list[Path]:
    """Store every file of a multipart `body` under `root`; the stored paths, in order.

    Each file may hold at most `limit` bytes, and `accept(safe_name)` must allow its name.
    On any failure nothing is left under `root`; a refused body is read to its end (within the
    request cap the guard enforces) so that the client gets the answer, not a reset.

    Raises:
        UploadRejected: what is wrong, with the HTTP status to answer.
    """
    kind, options = parse_options_header(content_type or "")
    if kind != b"multipart/form-data" or b"boundary" not in options:
        raise UploadRejected(
            f"send the documents as multipart/form-data in the field {FIELD!r}", 422
        )
    await asyncio.to_thread(root.mkdir, parents=True, exist_ok=True)
    receiver = _Receiver(root, options[b"boundary"], limit, accept)
    placed: list[Path] = []
    try:
        try:
            async for chunk in body:
                if chunk:
                    await asyncio.to_thread(receiver.write, chunk)
            received = await asyncio.to_thread(receiver.finish)
        except UploadRejected:
            async for _ in body:  # drain: the client is still sending
                pass
            raise
        if not received:
            raise UploadRejected(f"no files: send them in the multipart field {FIELD!r}", 422)
        for temporary, filename in received:
            placed.append(await asyncio.to_thread(claim, temporary, root, filename))
        await asyncio.to_thread(_sync_folder, root)
    except BaseException:
        await asyncio.shield(asyncio.to_thread(_remove, receiver, placed))
        raise
    return placed


def _remove(receiver: _Receiver, placed: list[Path]) -> None:
    receiver.discard()
    for path in placed:
        path.unlink(missing_ok=True)


def _sync_folder(root: Path) -> None:
    """Make the new names durable (the files' bytes already are)."""
    with contextlib.suppress(OSError):  # some platforms cannot open a folder
        descriptor = os.open(root, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
