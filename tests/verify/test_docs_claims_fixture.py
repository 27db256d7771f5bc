"""The HTTPX and Click documentation claims (checks of the verifiers) are what they say."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from benchmarks import click_docs
from benchmarks.docs_claims import CLAIMS, CLICK_CLAIMS, load_claims

from tests.conftest import SHARED_DATA

DOCS = SHARED_DATA / "docs_httpx" / "docs"
CHANGES = {"number", "negation", "swap", "antonym", "unstated", "relation", "addition"}


@pytest.mark.parametrize(("path", "each"), [(CLAIMS, 40), (CLICK_CLAIMS, 20)])
def test_the_claims_are_balanced_and_labelled(path: Path, each: int) -> None:
    claims = load_claims(path)
    assert Counter(c["label"] for c in claims) == {"supported": each, "unsupported": each}
    assert len({c["id"] for c in claims}) == len({c["claim"] for c in claims}) == 2 * each
    for claim in claims:
        changed = claim["change"]
        assert (changed is None) == (claim["label"] == "supported"), claim["id"]
        assert changed is None or changed in CHANGES, claim["id"]
        assert claim["claim"] not in claim["passage"], f"{claim['id']} copies its passage"


@pytest.mark.skipif(not DOCS.is_dir(), reason=f"{DOCS} not found (the shared data)")
def test_every_passage_is_a_verbatim_excerpt_of_its_page() -> None:
    for claim in load_claims(CLAIMS):
        page = (DOCS / claim["path"]).read_text(encoding="utf-8")
        assert claim["passage"] in page, claim["id"]


@pytest.mark.skipif(
    not click_docs.DOCS.is_dir(), reason="the Click docs are fetched by benchmarks.click_docs"
)
def test_every_click_passage_and_answer_is_a_verbatim_excerpt_of_its_page() -> None:
    for claim in load_claims(CLICK_CLAIMS):
        page = (click_docs.DOCS / claim["path"]).read_text(encoding="utf-8")
        assert claim["passage"] in page, claim["id"]
    for question in load_claims(click_docs.QUESTIONS):
        if question["answerable"]:
            page = (click_docs.DOCS / question["path"]).read_text(encoding="utf-8")
            assert question["evidence"] in page, question["id"]
