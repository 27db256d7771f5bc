"""The documentation claims are what they say: HTTPX, Click and cattrs (checks of the
verifiers), the written tuning claims over five other projects' docs (the docs stage) and
the tuning probes over four more (`docs_claims.PROBES`)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from benchmarks.docs_claims import CLAIMS, PROBES, load_claims, probe_file
from benchmarks.held_out_docs import CATTRS, CLICK, HELD_OUT, HeldOutDocs
from benchmarks.sdist_docs import docs_folder
from benchmarks.verifier_pairs import WRITTEN_CLAIMS, written_claim_pairs, written_claims_file

from tests.conftest import SHARED_DATA

DOCS = SHARED_DATA / "docs_httpx" / "docs"
CHANGES = {"number", "negation", "swap", "antonym", "unstated", "relation", "addition"}


@pytest.mark.parametrize(
    ("path", "each"),
    [(CLAIMS, 40), (CLICK.claims, 20), (CATTRS.claims, 20), *((probe_file(n), 20) for n in PROBES)],
)
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


@pytest.mark.parametrize("held_out", HELD_OUT, ids=lambda h: h.name)
def test_every_held_out_passage_and_answer_is_a_verbatim_excerpt_of_its_page(
    held_out: HeldOutDocs,
) -> None:
    if not held_out.docs.is_dir():
        pytest.skip(f"{held_out.docs} not found: python -m benchmarks.held_out_docs")
    for claim in load_claims(held_out.claims):
        page = (held_out.docs / claim["path"]).read_text(encoding="utf-8")
        assert claim["passage"] in page, claim["id"]
    for question in load_claims(held_out.questions):
        if question["answerable"]:
            path = question.get("path") or question["gold_sources"][0]
            page = (held_out.docs / path).read_text(encoding="utf-8")
            assert question["evidence"] in page, question["id"]


@pytest.mark.parametrize("name", sorted(WRITTEN_CLAIMS))
def test_the_written_tuning_claims_pair_a_paraphrase_with_a_minimal_edit(name: str) -> None:
    claims = load_claims(written_claims_file(name))
    assert Counter(c["label"] for c in claims) == {"supported": 60, "unsupported": 60}
    assert len({c["id"] for c in claims}) == len({c["claim"] for c in claims}) == 120
    for supported, edited in zip(claims[::2], claims[1::2], strict=True):
        assert supported["passage"] == edited["passage"], edited["id"]
        assert (supported["label"], supported["change"]) == ("supported", None), supported["id"]
        assert edited["label"] == "unsupported" and edited["change"] in CHANGES, edited["id"]
        assert supported["claim"] not in supported["passage"], f"{supported['id']} copies"
    pairs = [p for p in written_claim_pairs() if p["group"].startswith(f"docs-written:{name}:")]
    assert len(pairs) == 120
    by_group = Counter(p["group"] for p in pairs)
    assert set(by_group.values()) <= {2, 4, 6}, "a passage's claims share their group"


@pytest.mark.parametrize("name", sorted(WRITTEN_CLAIMS))
def test_every_written_tuning_passage_is_a_verbatim_excerpt_of_its_page(name: str) -> None:
    version = WRITTEN_CLAIMS[name][1]
    docs = docs_folder(name, version)
    if not docs.is_dir():
        pytest.skip(f"{docs} not found: python -m benchmarks.sdist_docs {name} {version}")
    for claim in load_claims(written_claims_file(name)):
        page = (docs / claim["path"]).read_text(encoding="utf-8")
        assert claim["passage"] in page, claim["id"]


@pytest.mark.parametrize("name", sorted(PROBES))
def test_every_probe_passage_is_a_verbatim_excerpt_of_its_page(name: str) -> None:
    folder = docs_folder(name, PROBES[name][1])
    if not folder.is_dir():
        pytest.skip(f"{folder} not found: python -m benchmarks.sdist_docs {name}")
    for claim in load_claims(probe_file(name)):
        page = (folder / claim["path"]).read_text(encoding="utf-8")
        assert claim["passage"] in page, claim["id"]
