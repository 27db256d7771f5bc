"""Joining and verifying the embedded model's parts, with small real part packages.

The parts are real importable packages written to a temporary directory on `sys.path`,
laid out like the model wheels (`<package>/data/partNN.bin`), so `model_file` reads them
through importlib.resources exactly as it reads the installed ones.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
import tomllib
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from citesynth.errors import ConfigError
from citesynth.llm.local import MODELS, LocalModel, LocalSpec, installed, model_file, models_dir

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
PARTS = [b"GGUF\x03\x00\x00\x00" + bytes(range(256)) * 3, b"\x00middle\xff" * 50, b"tail"]


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A directory on sys.path for part packages; the packages are forgotten afterwards."""
    root = tmp_path / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    before = set(sys.modules)
    yield root
    for name in set(sys.modules) - before:
        del sys.modules[name]


def make_spec(
    site: Path, parts: list[bytes], *, write: int | None = None, sha256: str | None = None
) -> LocalSpec:
    """A spec whose parts are packages in `site` (only the first `write` are written)."""
    pattern = f"cs_test_{uuid.uuid4().hex[:10]}_part{{i}}"
    for number, data in enumerate(parts[:write], start=1):
        package = site / pattern.format(i=number)
        (package / "data").mkdir(parents=True)
        (package / "__init__.py").write_text("")
        (package / "data" / f"part{number:02d}.bin").write_bytes(data)
    joined = b"".join(parts)
    return LocalSpec(
        name="tiny",
        file="tiny-q4_k_m.gguf",
        package=pattern,
        parts=len(parts),
        size=len(joined),
        sha256=sha256 or hashlib.sha256(joined).hexdigest(),
        extra="local-small",
    )


def test_joins_the_parts_in_order_and_records_the_checksum(site: Path, tmp_path: Path) -> None:
    spec = make_spec(site, PARTS)
    path = model_file(spec, tmp_path / "models")
    assert path == tmp_path / "models" / "tiny-q4_k_m.gguf"
    assert path.read_bytes() == b"".join(PARTS)
    assert (tmp_path / "models" / "tiny-q4_k_m.sha256").read_text() == spec.sha256 + "\n"
    assert sorted(p.name for p in path.parent.iterdir()) == [
        "tiny-q4_k_m.gguf",
        "tiny-q4_k_m.sha256",
    ]  # no .partial left behind


def test_ten_or_more_parts_use_two_digit_names(site: Path, tmp_path: Path) -> None:
    parts = [f"<{n}>".encode() for n in range(1, 13)]
    spec = make_spec(site, parts)
    assert model_file(spec, tmp_path).read_bytes() == b"<1><2><3><4><5><6><7><8><9><10><11><12>"


def test_a_verified_file_is_reused_without_reading_the_parts(site: Path, tmp_path: Path) -> None:
    spec = make_spec(site, PARTS)
    first = model_file(spec, tmp_path)
    stamp = first.stat().st_mtime_ns
    for package in site.iterdir():  # the parts are gone: only the joined file can answer
        (package / "data" / next((package / "data").iterdir()).name).unlink()
    again = model_file(spec, tmp_path)
    assert again == first
    assert again.stat().st_mtime_ns == stamp
    assert again.read_bytes() == b"".join(PARTS)


@pytest.mark.parametrize("damage", ["no marker", "other marker", "truncated", "no file"])
def test_an_unverified_file_is_joined_again(site: Path, tmp_path: Path, damage: str) -> None:
    spec = make_spec(site, PARTS)
    path = model_file(spec, tmp_path)
    marker = path.with_suffix(".sha256")
    if damage == "no marker":  # an earlier run stopped between the two writes
        marker.unlink()
    elif damage == "other marker":  # a file joined for another version
        marker.write_text("f" * 64 + "\n")
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:100])
    else:
        path.unlink()
    assert model_file(spec, tmp_path).read_bytes() == b"".join(PARTS)
    assert marker.read_text() == spec.sha256 + "\n"


def test_a_wrong_checksum_is_refused_and_nothing_is_kept(site: Path, tmp_path: Path) -> None:
    spec = make_spec(site, PARTS, sha256=hashlib.sha256(b"something else").hexdigest())
    with pytest.raises(ConfigError) as caught:
        model_file(spec, tmp_path)
    assert str(caught.value) == (
        "tiny-q4_k_m.gguf does not match its recorded checksum; "
        "reinstall 'citesynth[local-small]' (parts of a different version?)"
    )
    assert list(tmp_path.glob("tiny-q4_k_m.*")) == []


def test_a_missing_part_says_which_extra_to_install(site: Path, tmp_path: Path) -> None:
    spec = make_spec(site, PARTS, write=2)
    with pytest.raises(ConfigError) as caught:
        model_file(spec, tmp_path)
    missing = spec.package.format(i=3)
    assert str(caught.value) == (
        "the embedded model needs its extra: pip install 'citesynth[local-small]' "
        f"({missing} is missing)"
    )
    assert list(tmp_path.glob("tiny-q4_k_m.*")) == []
    assert not installed(spec)


def test_a_part_package_without_its_data_is_missing_too(site: Path, tmp_path: Path) -> None:
    spec = make_spec(site, PARTS)
    (site / spec.package.format(i=2) / "data" / "part02.bin").unlink()
    with pytest.raises(ConfigError, match=r"pip install 'citesynth\[local-small\]' \(.*_part2 is"):
        model_file(spec, tmp_path)


def test_installed_needs_every_part_and_the_runtime(site: Path) -> None:
    spec = make_spec(site, PARTS)
    assert installed(spec) == (importlib.util.find_spec("xllamacpp") is not None)
    assert not installed(make_spec(site, PARTS, write=0))


def test_models_dir_follows_the_environment(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CITESYNTH_MODELS", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert models_dir() == tmp_path / "cache" / "citesynth" / "models"
    monkeypatch.setenv("CITESYNTH_MODELS", str(tmp_path / "mine"))
    assert models_dir() == tmp_path / "mine"
    spec = make_spec(site, PARTS)
    assert model_file(spec) == tmp_path / "mine" / "tiny-q4_k_m.gguf"  # created on demand


def test_unknown_size_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"unknown embedded model '3b': use one of 1\.5b, 0\.5b"):
        LocalModel("3b")


@pytest.mark.parametrize("size", sorted(MODELS))
def test_shipped_specs_match_the_extras_in_pyproject(size: str) -> None:
    spec = MODELS[size]
    extras = tomllib.loads(PYPROJECT.read_text())["project"]["optional-dependencies"]
    requirements = {r.split("==")[0].replace("-", "_") for r in extras[spec.extra]}
    parts = {spec.package.format(i=i) for i in range(1, spec.parts + 1)}
    assert requirements == {"xllamacpp"} | parts  # every part, nothing else
    assert len(spec.sha256) == 64 and int(spec.sha256, 16) >= 0
    assert spec.file == f"{spec.name}.gguf"
    assert LocalModel(size).name == ("local" if size == "1.5b" else f"local:{size}")
