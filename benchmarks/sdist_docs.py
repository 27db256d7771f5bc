"""Documentation folders of PyPI source distributions, fetched once for the benchmarks.

    python -m benchmarks.sdist_docs starlette 1.10.0     # prints the folder, fetching it once

Many projects ship their documentation in the sdist on PyPI, which is reachable here. The
benchmarks never copy it into the project: `sdist_docs(name, version)` downloads the sdist
once with pip (`pip download NAME==VERSION --no-deps --no-binary NAME`: the project's
sdist, its build tools as wheels; with `--no-binary :all:` pip built those from source too,
and mypy's needs Rust crates this machine cannot fetch) into `benchmarks/.cache/NAME/` and
unpacks its `docs/` folder there. The Click documentation (a
report sets, `benchmarks.held_out_docs`) and the documentation the gate is trained on
(`benchmarks.gate_pairs`) come this way.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from benchmarks.common import CACHE


def docs_folder(name: str, version: str, part: str = "docs") -> Path:
    """Where `sdist_docs` unpacks the `docs/` folder (or another `part`) of NAME==VERSION."""
    return CACHE / name / f"{name}-{version}" / part


def sdist_docs(name: str, version: str, part: str = "docs") -> Path:
    """The unpacked `docs/` folder of the NAME==VERSION sdist, fetched and unpacked once.

    Another top folder of the sdist (`part`: "src" for a project's source) is unpacked
    beside it the same way.

    Raises:
        SystemExit: pip could not fetch the sdist, or it holds no such folder.
    """
    wanted_folder = docs_folder(name, version, part)
    if wanted_folder.is_dir() and any(wanted_folder.iterdir()):
        return wanted_folder
    folder = CACHE / name
    folder.mkdir(parents=True, exist_ok=True)
    archive = folder / f"{name}-{version}.tar.gz"
    if not archive.is_file():
        fetched = subprocess.run(
            [
                *(sys.executable, "-m", "pip", "download", f"{name}=={version}", "--no-deps"),
                *("--no-binary", name, "--dest", str(folder)),
            ],
            capture_output=True,
            text=True,
        )
        if fetched.returncode != 0 or not archive.is_file():
            raise SystemExit(f"could not download the {name} {version} sdist: {fetched.stderr}")
    top = f"{name}-{version}"
    partial = folder / "unpacking"
    shutil.rmtree(partial, ignore_errors=True)
    with tarfile.open(archive) as packed:
        wanted = [m for m in packed.getmembers() if m.name.startswith(f"{top}/{part}/")]
        if not wanted:
            raise SystemExit(f"{archive} holds no {top}/{part}/ folder")
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
            packed.extractall(partial, members=wanted, filter="data")
        else:  # the sdist's own members, checked to stay inside the folder
            if any(m.name.startswith("/") or ".." in m.name.split("/") for m in wanted):
                raise SystemExit(f"{archive} holds paths outside its folder")
            packed.extractall(partial, members=wanted)
    shutil.rmtree(wanted_folder, ignore_errors=True)
    wanted_folder.parent.mkdir(parents=True, exist_ok=True)
    (partial / top / part).rename(wanted_folder)
    shutil.rmtree(partial, ignore_errors=True)
    return wanted_folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name")
    parser.add_argument("version")
    args = parser.parse_args()
    print(sdist_docs(args.name, args.version))


if __name__ == "__main__":
    main()
