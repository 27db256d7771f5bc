"""A comparison the source never makes is a veto (`verify.comparisons`)."""

from __future__ import annotations

from citesynth.verify import Check, LexicalVerifier
from citesynth.verify.comparisons import bound_denied, unstated_comparison

HYBRID = (
    "Dense search (MiniLM embeddings, cosine similarity) finds chunks that mean the same "
    "thing in other words. The two ranked lists are combined by a convex combination of "
    "z-scored scores: each list's scores are standardised over its candidates, then "
    "weighted half and half."
)


def test_a_comparison_no_sentence_about_it_makes_is_named() -> None:
    claim = "Dense search results are given more weight than BM25 results."
    assert unstated_comparison(claim, [HYBRID]) == "more weight than"


def test_a_source_comparing_the_same_things_states_it_whichever_way() -> None:
    said = "Dense scores weigh less than BM25 scores when the query is a single word."
    assert unstated_comparison("Dense scores weigh more than BM25 scores.", [said]) is None


def test_claims_without_a_comparison_and_look_alikes_are_not_read() -> None:
    assert unstated_comparison("The two ranked lists are weighted half and half.", [HYBRID]) is None
    assert unstated_comparison("Use dense search rather than BM25 here.", [HYBRID]) is None
    assert unstated_comparison("Any scores other than these are dropped.", [HYBRID]) is None


def test_a_comparison_elsewhere_in_the_passages_about_something_else_does_not_count() -> None:
    other = "Reranking takes longer than retrieval."
    claim = "Dense search results are given more weight than BM25 results."
    assert unstated_comparison(claim, [HYBRID, other]) == "more weight than"


def test_the_lexical_verifier_no_longer_passes_it_and_says_why() -> None:
    claim = "Dense search results are given more weight than BM25 results."
    (verdict,) = LexicalVerifier().verify_now([Check(claim, (HYBRID,))])
    assert verdict.label != "supported"
    assert any("comparison the source does not make" in r for r in verdict.reasons)
    (plain,) = LexicalVerifier().verify_now(
        [Check("The two ranked lists are weighted half and half.", (HYBRID,))]
    )
    assert plain.label == "supported"


MAX_FIELDS = (
    ":param client_max_fields: maximum number of form fields accepted by\n"
    "    :meth:`BaseRequest.post`.  ``0`` disables the limit.  Default is ``1000``."
)


def test_a_denial_past_a_bound_restates_the_bound_on_its_side() -> None:
    # aiohttp's docs, the embedded model: "cannot have more than" is the source's "maximum"
    claim = "The form cannot have more than 1000 fields by default."
    assert bound_denied(claim, MAX_FIELDS)
    assert not bound_denied("The form cannot have fewer than 1000 fields.", MAX_FIELDS)
    assert not bound_denied("The form can have more than 1000 fields.", MAX_FIELDS)
    assert bound_denied("Never keep less than two replicas.", "The minimum is two replicas.")
    verifier = LexicalVerifier()
    passed = verifier.verify_now([Check(claim, (MAX_FIELDS,))])[0]
    assert passed.supported, passed.reasons
    for wrong in (
        "The form cannot have fewer than 1000 fields by default.",
        "The form can have more than 1000 fields by default.",
        "The form cannot have more than 2000 fields by default.",
    ):
        assert not verifier.verify_now([Check(wrong, (MAX_FIELDS,))])[0].supported, wrong
