r"""Finding the files to index under the paths a user names, safely.

Directory symlinks are followed once (loops are detected by device and inode); hidden files
and folders, dependency and cache folders are left out; special files (FIFOs, sockets,
devices) are never opened. Each problem becomes a `Skip` with a one-line reason.

A file name that is not valid UTF-8 (Python hands it over with lone surrogates) is indexed
under its printable form, the undecodable bytes written as `\xNN` (see `printable_path`):
the same bytes give the same text on every run, so incremental indexing still matches it,
and no store or terminal ever sees a surrogate. The raw name is kept only to open the file.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from citesynth.ingest.loaders import loader_for
from citesynth.types import Skip

IGNORED_DIRECTORIES = frozenset(
    {
        "node_modules",
        "__pycache__",
        "site-packages",
        "venv",
        "env",
        "dist-packages",
        "bower_components",
    }
)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A regular file to consider for indexing.

    `path` (absolute) and `display` are printable text, as the index keeps them; `os_path`
    is the name as the operating system knows it, for opening the file.
    """

    path: str
    os_path: str
    display: str
    size: int
    mtime_ns: int
    explicit: bool = False


@dataclass(slots=True)
class Discovery:
    """What a walk found: candidate files, skips, unsupported files and the walked scopes."""

    files: list[Candidate] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    unsupported: int = 0
    scopes: list[str] = field(default_factory=list)


def printable_path(path: str) -> str:
    r"""`path` as valid Unicode: bytes the file system name could not decode become `\xNN`.

    Identity for every name that is valid UTF-8; deterministic for the others.
    """
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def display_path(path: str, root: str) -> str:
    """`path` relative to `root` when inside it (with forward slashes), else absolute.

    Always printable text (see `printable_path`).
    """
    try:
        relative = os.path.relpath(path, root)
    except ValueError:
        return printable_path(path)
    if relative == os.curdir or relative.startswith(os.pardir):
        return printable_path(path)
    return printable_path(relative.replace(os.sep, "/"))


def discover(
    paths: Sequence[str | Path],
    *,
    root: str | Path,
    max_bytes: int,
    exclude: Sequence[str] = (),
) -> Discovery:
    """Walk `paths` and collect the files to index; nothing here raises on bad input."""
    found = Discovery()
    root_text = os.path.abspath(root)
    seen_dirs: set[tuple[int, int]] = set()
    seen_files: dict[str, str] = {}
    for given in paths:
        path = os.path.abspath(os.fspath(given))
        found.scopes.append(printable_path(path))
        display = display_path(path, root_text)
        try:
            info = os.stat(path)
        except OSError as error:
            found.skipped.append(Skip(display, _stat_reason(path, error)))
            continue
        if stat.S_ISDIR(info.st_mode):
            _walk(path, root_text, max_bytes, exclude, found, seen_dirs, seen_files)
        else:
            _consider(path, display, info, max_bytes, found, seen_files, explicit=True)
    return found


def _walk(
    top: str,
    root: str,
    max_bytes: int,
    exclude: Sequence[str],
    found: Discovery,
    seen_dirs: set[tuple[int, int]],
    seen_files: dict[str, str],
) -> None:
    def on_error(error: OSError) -> None:
        where = display_path(error.filename or top, root)
        found.skipped.append(Skip(where, f"cannot list folder ({error.strerror or error})"))

    for directory, subdirectories, names in os.walk(top, onerror=on_error, followlinks=True):
        try:
            info = os.stat(directory)
        except OSError as error:
            found.skipped.append(
                Skip(display_path(directory, root), _stat_reason(directory, error))
            )
            subdirectories[:] = []
            continue
        identity = (info.st_dev, info.st_ino)
        if identity in seen_dirs:
            found.skipped.append(
                Skip(display_path(directory, root), "folder already walked (symlink loop or alias)")
            )
            subdirectories[:] = []
            continue
        seen_dirs.add(identity)
        subdirectories[:] = sorted(
            name
            for name in subdirectories
            if not name.startswith(".")
            and name not in IGNORED_DIRECTORIES
            and not _excluded(display_path(os.path.join(directory, name), root), exclude)
        )
        for name in sorted(names):
            if name.startswith("."):
                continue
            path = os.path.join(directory, name)
            display = display_path(path, root)
            if _excluded(display, exclude):
                continue
            if loader_for(name) is None:
                found.unsupported += 1
                continue
            try:
                file_info = os.stat(path)
            except OSError as error:
                found.skipped.append(Skip(display, _stat_reason(path, error)))
                continue
            _consider(path, display, file_info, max_bytes, found, seen_files)


def _consider(
    path: str,
    display: str,
    info: os.stat_result,
    max_bytes: int,
    found: Discovery,
    seen_files: dict[str, str],
    *,
    explicit: bool = False,
) -> None:
    key = printable_path(path)
    if key in seen_files:
        if seen_files[key] != path:  # another name that prints the same: never merge them
            found.skipped.append(
                Skip(
                    display,
                    "name reads the same as another file's once undecodable bytes "
                    "are shown as \\xNN; rename one of them",
                )
            )
        return
    seen_files[key] = path
    if not stat.S_ISREG(info.st_mode):
        found.skipped.append(Skip(display, "not a regular file (FIFO, socket or device)"))
    elif info.st_size == 0:
        found.skipped.append(Skip(display, "empty file"))
    elif info.st_size > max_bytes:
        size, cap = info.st_size / 2**20, max_bytes / 2**20
        found.skipped.append(
            Skip(display, f"too large ({size:.1f} MiB > {cap:.1f} MiB cap; raise --max-file-mb)")
        )
    else:
        found.files.append(Candidate(key, path, display, info.st_size, info.st_mtime_ns, explicit))


def _stat_reason(path: str, error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return "symlink loop"
    if error.errno == errno.ENOENT:
        return "broken symlink" if os.path.islink(path) else "no such file or folder"
    if error.errno == errno.EACCES:
        return "permission denied"
    return f"cannot read ({error.strerror or error})"


def _excluded(display: str, patterns: Iterable[str]) -> bool:
    return any(
        fnmatch.fnmatch(display, pattern) or fnmatch.fnmatch(os.path.basename(display), pattern)
        for pattern in patterns
    )


def in_scope(path: str, scopes: Sequence[str]) -> bool:
    """Whether an indexed absolute path lies in (or is) one of the walked scopes."""
    return any(path == scope or path.startswith(scope.rstrip(os.sep) + os.sep) for scope in scopes)
