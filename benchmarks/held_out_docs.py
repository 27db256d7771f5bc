"""Documentation corpora from PyPI sdists, with questions and claims for the held-out checks.

    python -m benchmarks.held_out_docs        # prints each folder, fetching it once

The Click 8.1.7 documentation (reStructuredText; BSD-3-Clause, © Pallets) and the cattrs
25.1.1 documentation (MyST Markdown; MIT) ship in their source distributions on PyPI; the
benchmarks never copy them into the project: `HeldOutDocs.fetch` downloads the sdist once
with pip (`benchmarks.sdist_docs`, PyPI being reachable here) into `benchmarks/.cache/NAME/`
and unpacks its `docs/` folder. The questions and labelled claims over each
(`tests/fixtures/NAME_questions.jsonl`, `NAME_claims.jsonl`) were written for this project
by a helper that saw none of the pipeline's code or figures: answerable questions a user
would ask, in the user's words, beside on-topic ones the documentation does not answer
(each checked absent from every page), and supported paraphrases beside claims with one
detail changed. Click: 22 answerable and 10 unanswerable questions, 20 + 20 claims;
cattrs (2026-11-28): 20 and 10, 20 + 20 claims over 20 passages.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from benchmarks.common import ROOT
from benchmarks.sdist_docs import docs_folder, sdist_docs

FIXTURES = ROOT / "tests" / "fixtures"


@dataclass(frozen=True, slots=True)
class HeldOutDocs:
    """One project's documentation, and the questions and claims written over it."""

    name: str
    version: str

    @property
    def docs(self) -> Path:
        """Where `fetch` unpacks the `docs/` folder."""
        return docs_folder(self.name, self.version)

    @property
    def questions(self) -> Path:
        return FIXTURES / f"{self.name}_questions.jsonl"

    @property
    def claims(self) -> Path:
        return FIXTURES / f"{self.name}_claims.jsonl"

    def fetch(self) -> Path:
        """The unpacked `docs/` folder of the sdist, fetched and unpacked once."""
        return sdist_docs(self.name, self.version)


CLICK = HeldOutDocs("click", "8.1.7")
CATTRS = HeldOutDocs("cattrs", "25.1.1")
HELD_OUT = (CLICK, CATTRS)


if __name__ == "__main__":
    for held_out in HELD_OUT:
        print(held_out.fetch())
