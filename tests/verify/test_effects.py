"""An effect the source states the other way round (`verify.effects`)."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import LexicalVerifier
from citesynth.verify.analysed import analyse
from citesynth.verify.base import Check
from citesynth.verify.effects import effect_reversed

ABSTRACT = (
    "Here, we demonstrate that the replication efficiency of telomeric repeats is decreased "
    "significantly in cells lacking HR. Treatment with the G4-stabilizing compound "
    "pyridostatin (PDS) increases telomere fragility in BRCA2-deficient cells, suggesting "
    "that G4 formation drives telomere instability."
)
PREGNANCY = (
    "Muscle sympathetic nerve activity is increased during normotensive pregnancy while "
    "mean arterial pressure is maintained or reduced."
)


def test_an_effect_the_source_states_the_other_way_round_is_reversed() -> None:
    claim = "Pyridostatin decreases telomere fragility in BRCA2-deficient cells."
    assert effect_reversed(claim, analyse([ABSTRACT])) == (
        "decreases telomere fragility",
        "increases telomere fragility",
    )
    claim = "Sympathetic nerve activity is reduced throughout normal pregnancy."
    assert effect_reversed(claim, analyse([PREGNANCY])) == (
        "nerve activity is reduced",
        "nerve activity is increased",
    )


def test_better_and_worse_are_an_effects_other_axis() -> None:
    source = "Sildenafil effectively improved erectile function in men with dysfunction."
    claim = "Sildenafil worsens erectile function in men with dysfunction."
    assert effect_reversed(claim, analyse([source])) == (
        "worsens erectile function",
        "improved erectile function",
    )
    # "impairs" lowers as well as worsens; "improves" does not lower
    lowered = "Age-related changes impair muscle regeneration in aged mice."
    claim = "Age-related changes increase muscle regeneration in aged mice."
    assert effect_reversed(claim, analyse([lowered])) is not None
    claim = "Age-related changes reduce muscle regeneration in aged mice."
    assert effect_reversed(claim, analyse([lowered])) is None


def test_the_lexical_verifier_names_the_reversed_effect() -> None:
    wrong = "Pyridostatin decreases telomere fragility in BRCA2-deficient cells."
    (verdict,) = LexicalVerifier().verify_now([Check(wrong, (ABSTRACT,))])
    assert not verdict.supported
    reason = "the source says 'increases telomere fragility', not 'decreases telomere fragility'"
    assert reason in verdict.reasons
    right = "Pyridostatin increases telomere fragility in BRCA2-deficient cells."
    (verdict,) = LexicalVerifier().verify_now([Check(right, (ABSTRACT,))])
    assert verdict.supported


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the claim negates, or names a cause by an "-ing" form
        ("Pyridostatin does not decrease telomere fragility.", ABSTRACT),
        (
            "Inhibiting HDAC6 increases survival of mice with ARID1A mutated tumors.",
            "Thus, ARID1A mutation inactivates p53 by upregulating HDAC6. Mice survived longer.",
        ),
        # the source negates its word, or says it the claim's way too
        (
            "Statins reduce cardiovascular mortality in older adults.",
            "Statins did not increase cardiovascular mortality in older adults.",
        ),
        (
            "Drug B decreases overall survival in the trial.",
            "Drug A increases overall survival, while drug B decreases overall survival.",
        ),
        # words before an active verb are its cause, not what it bears on
        (
            "Six months of physical activity improve cognitive function.",
            "Physical activity reduces the risk of cognitive decline.",
        ),
        # a comparative is no effect: "A is higher than B" is "B is lower than A"
        (
            "Placebo gives lower blood pressure than the drug.",
            "The drug gives higher blood pressure than placebo.",
        ),
        # code is no prose
        (
            "The counter increases request count on every call.",
            "```python\ncounter.decreases request count\n```",
        ),
    ],
)
def test_an_effect_is_not_read_as_reversed_when_the_texts_say_otherwise(
    claim: str, source: str
) -> None:
    assert effect_reversed(claim, analyse([source])) is None


def test_hostile_effects_are_read_in_linear_time() -> None:
    source = "It increases " + "the " * 20_000 + "risk. " + "It increases risk fragility " * 3000
    claim = "It decreases " + "the of " * 5000 + "risk fragility."
    started = time.perf_counter()
    assert effect_reversed(claim, analyse([source])) is None
    assert effect_reversed("It decreases risk fragility.", analyse([source])) is not None
    many = "It reduces heart rate " * 3000  # many effects of the claim, each read once
    assert effect_reversed(many, analyse([source])) is None
    assert time.perf_counter() - started < 5
