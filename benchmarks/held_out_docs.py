"""The Click 8.1.7 documentation, a reStructuredText corpus for the held-out documentation checks.

    python -m benchmarks.click_docs        # prints the folder, fetching it once

Click's documentation (BSD-3-Clause, © Pallets) ships in the source distribution on PyPI;
the benchmarks never copy it into the project: `click_docs()` downloads the sdist once with
pip (`benchmarks.sdist_docs`, PyPI being reachable here) into `benchmarks/.cache/click/`
and unpacks its `docs/` folder. The questions and labelled
claims over it (`tests/fixtures/click_questions.jsonl`, `click_claims.jsonl`) were written
for this project by a helper that saw none of the pipeline's code or figures: 22
answerable questions a Click user would ask and 10 on-topic ones the documentation does
not answer (each checked absent from every `.rst` file and the changelog), and 20
supported paraphrases beside 20 claims with one detail changed.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.sdist_docs import docs_folder, sdist_docs

VERSION = "8.1.7"
DOCS = docs_folder("click", VERSION)
QUESTIONS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "click_questions.jsonl"


def click_docs() -> Path:
    """The unpacked `docs/` folder of the Click sdist (`DOCS`), fetched and unpacked once."""
    return sdist_docs("click", VERSION)


if __name__ == "__main__":
    print(click_docs())
