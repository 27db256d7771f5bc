"""The HTTPX documentation claims (an independent check of the verifiers) are what they say."""

from __future__ import annotations

from collections import Counter

import pytest
from benchmarks import click_docs
from benchmarks.docs_claims import CLAIMS, CLICK_CLAIMS, load_claims

from tests.conftest import SHARED_DATA

DOCS = SHARED_DATA / "docs_httpx" / "docs"
CHANGES = {"number", "negation", "swap", "antonym", "unstated", "relation"}


def test_the_claims_are_balanced_and_labelled() -> None:
    claims = load_claims(CLAIMS)
    assert Counter(c["label"] for c in claims) == {"supported": 40, "unsupported": 40}
    assert len({c["id"] for c in claims}) == len({c["claim"] for c in claims}) == 80
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


def test_the_click_claims_are_balanced_and_labelled() -> None:
    claims = load_claims(CLICK_CLAIMS)
    assert Counter(c["label"] for c in claims) == {"supported": 20, "unsupported": 20}
    assert len({c["id"] for c in claims}) == len({c["claim"] for c in claims}) == 40
    for claim in claims:
        changed = claim["change"]
        assert (changed is None) == (claim["label"] == "supported"), claim["id"]
        assert changed is None or changed in CHANGES | {"addition"}, claim["id"]
        assert claim["claim"] not in claim["passage"], f"{claim['id']} copies its passage"


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
