"""The HTTPX documentation claims (an independent check of the verifiers) are what they say."""

from __future__ import annotations

from collections import Counter

import pytest
from benchmarks.docs_claims import CLAIMS, load_claims

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
