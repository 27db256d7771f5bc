"""Verification reads any text: claims, sources and questions built from hostile pieces.

Bad input never stops a run. These build claims, passages and questions from the pieces
that the verification code treats specially (markers, inline code and fences, negations,
numbers, code names, consensus openings, invisible and composed characters) and check
that every step answers with well-formed results.
"""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citesynth.synthesis.answerability import question_parts
from citesynth.synthesis.named import (
    acronyms,
    code_names,
    proper_names,
    unnamed,
    unnamed_code,
    unnamed_proper,
    versioned,
)
from citesynth.synthesis.sources import numbered
from citesynth.verify.alternatives import alternative_chosen
from citesynth.verify.analysed import analyse
from citesynth.verify.base import Check, Passage
from citesynth.verify.calls import rearranged_calls
from citesynth.verify.causes import LinksChecked, link_of, unstated_link
from citesynth.verify.claims import plain, split_claims
from citesynth.verify.conflicts import find_conflicts
from citesynth.verify.contrasts import moved_across
from citesynth.verify.crossencoder import available
from citesynth.verify.cues import sides_of
from citesynth.verify.denied_stated import denies_stated
from citesynth.verify.effects import effect_reversed
from citesynth.verify.evidence import evidence_text
from citesynth.verify.exclusive import only_other
from citesynth.verify.lexical import LexicalVerifier
from citesynth.verify.negated_pairs import pair_negated
from citesynth.verify.negated_subjects import negated_alike, subject_negated
from citesynth.verify.purpose import goal_elsewhere, split_goal
from citesynth.verify.renamed import name_replaced
from citesynth.verify.respectively import paired_otherwise
from citesynth.verify.review import review
from citesynth.verify.roles import crossed_names, partners_exchanged
from citesynth.verify.sequences import sequence_reversed
from citesynth.verify.swaps import preferred_reversed
from citesynth.verify.trained import TrainedVerifier
from citesynth.verify.unlike import unlike_attributed
from tests.synthesis.test_evidence_and_repeats import hit

PIECES = [
    *("`", "``", "```", "```python\n", "[1]", "[1-3]", "[2,4-6]", "[", "]", "(", ")"),
    *("\n", "\n\n", " ", ".", ",", ";", ":", "!", "?", "-", "—", "'s", "’", "_", "|"),
    *("not", "no", "never", "without", "unlike", "like", "increase", "decrease"),
    *("To", "If", "when", "By default,", "is", "are", "first", "last", "The", "e.g."),
    *("10", "3.5", "100%", "1e9", "__init__", "dump_default", "load_default", "JWT"),
    *("HTTP/2", "uuid.UUID", "dumps()", "Multiple sources report that"),
    *("\u200b", "\u0301", "é", "İ", "ß", "ﬁ", "\u202e", "日本語", "🙂", "\x00", "\t"),
    *("*", "**", "_x_", "## Heading\n", "- ", "1. ", "---", ">>> ", "pool", "size"),
    *(" because ", ", so ", ", since ", " due to ", "This is because ", ", which means ", '"'),
]
TEXT = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)
LABELS = {"supported", "partial", "unsupported"}


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(TEXT, TEXT, TEXT)
def test_the_lexical_verifier_reads_any_text(claim: str, first: str, second: str) -> None:
    checks = [Check(claim, (first,)), Check(claim, (first, second), second), Check(claim, ())]
    verdicts = LexicalVerifier().verify_now(checks)
    assert len(verdicts) == len(checks)
    for check, verdict in zip(checks, verdicts, strict=True):
        assert verdict.label in LABELS and 0.0 <= verdict.score <= 1.0
        for span in verdict.spans:  # every span lies inside the passage it names
            assert 0 <= span.start <= span.end <= len(check.passages[span.passage])


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(TEXT, TEXT, TEXT)
def test_an_answer_of_any_text_is_reviewed(answer: str, first: str, second: str) -> None:
    passages = [Passage(1, first, "a.md", "A"), Passage(2, second, "b.md", "B")]
    checked = asyncio.run(review(answer, passages, LexicalVerifier()))
    for claim in checked.claims:
        assert set(claim.precise) <= set(claim.claim.citations) <= {1, 2}
        assert claim.verdict is None or claim.verdict.label in LABELS
    for repair in checked.repairs:
        assert set(repair.after) <= {1, 2} and repair.claim
    for span in split_claims(answer):
        assert 0 <= span.start <= span.end <= len(answer)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(TEXT, TEXT, TEXT)
def test_the_checks_beside_the_verifier_read_any_text(text: str, first: str, second: str) -> None:
    goal = split_goal(text)
    assert goal is None or (goal.goal and len(goal.assertion.split()) >= 3)
    elsewhere = goal_elsewhere(f"To set {text}, you can call `{first}`.", [second])
    assert elsewhere is None or elsewhere[0] in first
    crossed = crossed_names(text, [first, second])
    assert crossed is None or all(name in text for name in crossed)
    partners = partners_exchanged(text, [first, second])
    assert partners is None or all(name in text.lower() for name in partners)
    for mine, theirs in rearranged_calls(text, [first, second]):
        assert mine in "".join(text.split()) and theirs in "".join((first + second).split())
    moved = moved_across(f"{text} while {first}", [f"{second}, but {text}"])
    assert moved is None or moved[0] in f"{text} while {first}"
    paired = paired_otherwise(text, [f"{first} respectively", second])
    assert paired is None or all(item.lower() in text.lower() for item in paired)
    preferred = preferred_reversed(text + " instead of " + first, second)
    renamed = name_replaced(text, first, [frozenset(second.split())])
    assert renamed is None or (renamed[0] in text and renamed[1] in first)
    assert preferred is None or all(isinstance(word, str) for word in preferred)
    turned = effect_reversed(f"It increases {text}", analyse([f"{first} decreases", second]))
    assert turned is None or all(isinstance(words, str) and words for words in turned)
    chosen = alternative_chosen(f"Which {text}, {first} or {second}? {second}", analyse([text]))
    assert chosen is None or all(isinstance(name, str) and name for name in chosen)
    negated = pair_negated(text, analyse([first, second]))
    assert negated is None or (
        negated[0] in " ".join(text.split())
        and any(negated[1] in " ".join(p.split()) for p in (first, second))
    )
    denied = subject_negated(text, analyse([first, second]))
    assert denied is None or (
        denied[0] in " ".join(text.split())
        and any(denied[1] in " ".join(p.split()) for p in (first, second))
    )
    assert negated_alike(text, analyse([first, second])) in (True, False)
    contrasted = unlike_attributed(text, analyse([first, second]))
    assert contrasted is None or (
        contrasted[0] in " ".join(text.split())
        and any(contrasted[1] in " ".join(p.split()) for p in (first, second))
    )
    stated = denies_stated(text, analyse([first, second]))
    assert stated is None or (
        stated[0] in " ".join(text.split())
        and any(stated[1] in " ".join(p.split()) for p in (first, second))
    )
    steps = sequence_reversed(f"first {text} and then {first}", [f"{first}, then {text}"])
    assert steps is None or all(word in f"first {text} and then {first}" for word in steps)
    singled = only_other(f"only the {text}", [f"only the {first}", second])
    assert singled is None or (
        singled[0] in " ".join(f"only the {text}".split())
        and any(singled[1] in " ".join(p.split()) for p in (f"only the {first}", second))
    )
    found = find_conflicts([Passage(1, first, "a.md"), Passage(2, second, "b.md")])
    assert all(set(f.sources) <= {1, 2} for f in found)
    assert len(evidence_text(text, [first, second], budget=90, similarity=None).split()) <= 200
    parts = question_parts(text)
    assert parts == [text] or all(len(part.split()) >= 3 for part in parts)
    sources = numbered([hit(first or "empty"), hit(second or "empty")])
    assert set(unnamed(text, sources)) <= set(acronyms(text)) | set(versioned(text))
    assert set(unnamed_code(text, sources)) <= set(code_names(text))
    assert set(unnamed_proper("How do I " + text, sources)) <= set(proper_names("How do I " + text))


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(TEXT, TEXT, TEXT)
def test_the_link_check_reads_any_text(claim: str, first: str, second: str) -> None:
    link = link_of(claim)
    assert link is None or (link.second and link.first in plain(claim))
    unstated = unstated_link(claim, [first, second], second)
    assert unstated is None or link is not None
    [verdict] = asyncio.run(
        LinksChecked(LexicalVerifier(), every=True, question=first).verify(
            [Check(claim, (first, second))]
        )
    )
    assert verdict.label in LABELS
    sides = sides_of(first)
    assert sides is None or all(isinstance(term, str) for side in sides for term in side)


@pytest.mark.skipif(not available(), reason="the trained verifier needs citesynth[embed]")
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(TEXT, TEXT, TEXT)
def test_the_trained_verifier_and_its_gate_read_any_text(
    claim: str, first: str, second: str
) -> None:
    verifier = TrainedVerifier.load()
    checks = [Check(claim, (first,)), Check(claim, (first, second), second)]
    for check, verdict in zip(checks, verifier.verify_now(checks), strict=True):
        assert verdict.label in LABELS and 0.0 <= verdict.score <= 1.0
        for span in verdict.spans:
            assert 0 <= span.start <= span.end <= len(check.passages[span.passage])
    scores = asyncio.run(verifier.answerable(claim, [first, second], [0.5, 0.0]))
    assert len(scores) == 2 and all(0.0 <= s <= 1.0 for s in scores)
