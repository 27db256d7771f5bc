"""An effect the source states the other way round: it raises where the claim lowers.

    effect_reversed("Pyridostatin decreases telomere fragility in BRCA2-deficient cells.",
                    evidence)
    → ("decreases telomere fragility", "increases telomere fragility")

SciFact's refuted claims often turn one effect around, and its abstracts say both ways
round what they measure: "Treatment with … pyridostatin (PDS) increases telomere
fragility in BRCA2-deficient cells" two sentences after "the replication efficiency … is
decreased significantly in cells lacking HR". The direction check of `coverage` reads the
best sentences as a whole, and vetoes only when none of them says the claim's direction,
so both verifiers passed "Pyridostatin decreases telomere fragility …".

`effect_reversed` reads each word of an effect (`RAISING`: "increases", "enhances",
"activates", …, against `LOWERING`: "decreases", "reduces", "inhibits", …; and
`IMPROVING`: "improves", "rescues", "alleviates", …, against `WORSENING`: "worsens",
"exacerbates", "impairs", …; verbs only, never a comparative: "A is higher than B" is "B
is lower than A") with what it bears on: the
`BORNE` content words after it in its clause ("decreases telomere fragility"), or, after
"is", "are", "was", … ("activity is reduced"), those before it. A claim's effect is
reversed when a prose sentence of its passages writes the other direction's word, not
negated (no negating word among the three before it), on the same words on the same
side, and no sentence of the passages writes the claim's direction on them. Not read: a
claim that negates anything, and a claim's "-ing" form, which names a cause or a means
("Inhibiting HDAC6 increases survival" says nothing of what upregulates HDAC6).

Measured on the tuning splits (2026-12-07), lexical: SciFact train wrong claims passed
109 → 102 (→ 100 with better against worse and `opposites`' "in-" forms), no right claim
of any tuning set vetoed (WiCE dev, SciFact train, HaluEval 0–249, Developer Hub dev,
the 760 written documentation claims: none of the others reverses an effect so). The
seven were passed by the trained verifier too. Reading the words before an active verb
as well vetoed a right claim ("… physical activity improve cognitive function" against
"physical activity reduces the risk of cognitive decline"), and so did a claim's "-ing"
form; three words borne rather than two caught five. Better against worse caught one
more ("Sildenafil worsens erectile function …" against "sildenafil effectively improved
erectile function"); "promotes" and "stimulates" among the raising verbs caught none,
and "induces", "blocks" and "prevents" vetoed a right claim.
"""

from __future__ import annotations

from citesynth.verify.analysed import (
    Evidence,
    Sentence,
    is_prose,
    remembered_when_short,
    text_of,
)
from citesynth.verify.negation import negation_cues
from citesynth.verify.numbers import canonical
from citesynth.verify.opposites import content_of
from citesynth.verify.swaps import clause_matches

RAISING = frozenset(
    """increase increases increased increasing raise raises raised raising rise rises rose
    rising improve improves improved improving enhance enhances enhanced enhancing
    upregulate upregulates upregulated upregulating activate activates activated activating
    accelerate accelerates accelerated accelerating elevate elevates elevated elevating
    boost boosts boosted augment augments augmented""".split()
)
"""Verbs of an effect that raises what they bear on."""
LOWERING = frozenset(
    """decrease decreases decreased decreasing reduce reduces reduced reducing lowers
    lowered lowering decline declines declined declining drop drops dropped diminish
    diminishes diminished inhibit inhibits inhibited inhibiting suppress suppresses
    suppressed suppressing downregulate downregulates downregulated downregulating impair
    impairs impaired impairing deactivate deactivates deactivated attenuate attenuates
    attenuated slows slowed""".split()
)
"""Verbs of an effect that lowers what they bear on ("lower" and "slow" alone are
comparatives or adjectives)."""
IMPROVING = frozenset(
    """improve improves improved improving rescue rescues rescued rescuing ameliorate
    ameliorates ameliorated ameliorating alleviate alleviates alleviated alleviating""".split()
)
"""Verbs of an effect that makes what they bear on better."""
WORSENING = frozenset(
    """worsen worsens worsened worsening exacerbate exacerbates exacerbated exacerbating
    aggravate aggravates aggravated aggravating impair impairs impaired impairing""".split()
)
"""Verbs of an effect that makes what they bear on worse."""
BORNE = 2
"""Content words an effect bears on that two sentences must share."""
_BE = frozenset("is are was were be been being".split())
_NEGATED_WITHIN = 3
"""Words before an effect's word in which a negation turns it ("did not increase")."""
_REACH = 6
"""Words read on a side of an effect's word for the `BORNE` ones: "reduces the risk of
vertebral fractures"; a clause of function words costs no more than its length."""

_POLES = {
    word: frozenset(
        pole
        for pole, words in (
            ("up", RAISING),
            ("down", LOWERING),
            ("better", IMPROVING),
            ("worse", WORSENING),
        )
        if word in words
    )
    for word in RAISING | LOWERING | IMPROVING | WORSENING
}
"""The poles each verb of an effect stands at: "impairs" lowers and worsens."""
_OPPOSITE = {"up": "down", "down": "up", "better": "worse", "worse": "better"}

Effect = tuple[frozenset[str], bool, tuple[str, ...], str]
"""(the poles of its verb, read on the left, the stems it bears on, its words as written)."""


def effect_reversed(claim: str, evidence: Evidence) -> tuple[str, str] | None:
    """(the claim's effect, the source's reversed one) as written, or None (module doc)."""
    if negation_cues(claim):
        return None
    mine = [effect for effect, negated in _effects(claim, claim=True) if not negated]
    if not mine:
        return None
    said: dict[tuple[bool, tuple[str, ...]], list[tuple[frozenset[str], bool, Sentence, str]]]
    said = {}  # by what each effect bears on, and on which side: a long page is read once
    for sentence in evidence.sentences:
        for (theirs, side, stems, written), negated in _effects(text_of(evidence, sentence)):
            said.setdefault((side, stems), []).append((theirs, negated, sentence, written))
    for poles, left, borne, words in mine:
        same = said.get((left, borne), [])
        if any(theirs & poles for theirs, _, _, _ in same):
            continue  # the source says it the claim's way too
        opposite = {_OPPOSITE[pole] for pole in poles}
        for theirs, negated, sentence, written in same:
            if theirs & opposite and not negated and is_prose(evidence, sentence):
                return words, written
    return None


@remembered_when_short(maxsize=4096)
def _effects(text: str, /, *, claim: bool = False) -> tuple[tuple[Effect, bool], ...]:
    """The effects `text` writes, each with whether a negation turns it.

    A claim's "-ing" forms are none (module doc). Remembered: a source's sentences are
    read for every claim citing them.
    """
    found: list[tuple[Effect, bool]] = []
    for _, words in clause_matches(text):
        lowered = [w.group().lower() for w in words]
        for at, word in enumerate(lowered):
            poles = _POLES.get(word)
            if poles is None:
                continue
            if claim and word.endswith("ing"):
                continue
            before = " ".join(lowered[max(0, at - _NEGATED_WITHIN) : at + 1])
            negated = bool(negation_cues(before))
            sides = [(False, range(at + 1, min(len(lowered), at + 1 + _REACH)))]
            if at and lowered[at - 1] in _BE:  # "activity is reduced"
                sides.append((True, range(at - 1, max(-1, at - 1 - _REACH), -1)))
            for left, order in sides:
                borne = _borne(lowered, order)
                if borne:
                    far = words[borne[-1][1]]
                    first, last = (far, words[at]) if left else (words[at], far)
                    written = text[first.start() : last.end()]
                    stems = tuple(stem for stem, _ in borne)
                    found.append(((poles, left, stems, written), negated))
    return tuple(found)


def _borne(words: list[str], order: range) -> list[tuple[str, int]]:
    """The first `BORNE` content stems of `words` in `order`, each with its word's index.

    None when fewer stand there; another effect's word is skipped.
    """
    found: list[tuple[str, int]] = []
    for index in order:
        word = words[index]
        if word in _POLES:
            continue
        found += [(canonical(stem), index) for stem in content_of(word)]
        if len(found) >= BORNE:
            return found[:BORNE]
    return []
