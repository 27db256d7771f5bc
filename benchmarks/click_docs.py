"""The Click 8.1.7 documentation, a reStructuredText corpus for the held-out documentation checks.

    python -m benchmarks.click_docs        # prints the folder, fetching it once

Click's documentation (BSD-3-Clause, © Pallets) ships in the source distribution on PyPI;
the benchmarks never copy it into the project: `click_docs()` downloads the sdist once with
pip (`pip download click==8.1.7 --no-binary :all:`, PyPI being reachable here) into
`benchmarks/.cache/click/` and unpacks its `docs/` folder. The questions and labelled
claims over it (`tests/fixtures/click_questions.jsonl`, `click_claims.jsonl`) were written
for this project by a helper that saw none of the pipeline's code or figures: 22
answerable questions a Click user would ask and 10 on-topic ones the documentation does
not answer (each checked absent from every `.rst` file and the changelog), and 20
supported paraphrases beside 20 claims with one detail changed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from benchmarks.common import CACHE

VERSION = "8.1.7"
FOLDER = CACHE / "click"
PIP_FLAGS = ("--no-binary", ":all:", "--dest", str(FOLDER))
DOCS = FOLDER / f"click-{VERSION}" / "docs"
QUESTIONS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "click_questions.jsonl"


def click_docs() -> Path:
    """The unpacked `docs/` folder of the Click sdist (`DOCS`), fetched and unpacked once."""
    docs = DOCS
    if (docs / "index.rst").is_file():
        return docs
    FOLDER.mkdir(parents=True, exist_ok=True)
    archive = FOLDER / f"click-{VERSION}.tar.gz"
    if not archive.is_file():
        fetched = subprocess.run(
            [sys.executable, "-m", "pip", "download", f"click=={VERSION}", "--no-deps", *PIP_FLAGS],
            capture_output=True,
            text=True,
        )
        if fetched.returncode != 0 or not archive.is_file():
            raise SystemExit(f"could not download the Click {VERSION} sdist: {fetched.stderr}")
    partial = FOLDER / "unpacking"
    shutil.rmtree(partial, ignore_errors=True)
    with tarfile.open(archive) as packed:
        wanted = [m for m in packed.getmembers() if m.name.startswith(f"click-{VERSION}/docs/")]
        if not wanted:
            raise SystemExit(f"{archive} holds no click-{VERSION}/docs/ folder")
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
            packed.extractall(partial, members=wanted, filter="data")
        else:  # the sdist's own members, checked to stay inside the folder
            if any(m.name.startswith("/") or ".." in m.name.split("/") for m in wanted):
                raise SystemExit(f"{archive} holds paths outside its folder")
            packed.extractall(partial, members=wanted)
    shutil.rmtree(FOLDER / f"click-{VERSION}", ignore_errors=True)
    (partial / f"click-{VERSION}").rename(FOLDER / f"click-{VERSION}")
    shutil.rmtree(partial, ignore_errors=True)
    return docs


if __name__ == "__main__":
    print(click_docs())
