"""A model's "not found" that the passages contradict: the sources' own sentences instead.

A small model declines questions its passages plainly answer. On the tuning questions the
embedded 1.5B model said "Not found in the sources." past the answerability gate to 5 of 60
answerable ClapNQ questions (best gate scores 0.48–0.88), 2 of 20 Developer Hub ones and 12
of 17 MultiHop-RAG ones (0.94–1.00); the unanswerable ClapNQ questions it declined past the
gate scored 0.37–0.53. When a model writer says "Not found in the sources."
and the gate's best score reaches the verifier's `declined_threshold` (calibrated on
tuning questions only: `python -m benchmarks.calibrate_declined`), the extractive writer
answers from the same sources, its sentences are verified like any answer, and a warning
says what happened. When the extractive writer finds nothing that answers either, the
model's not-found stands. Answers whose claims were all removed by verification, and
not-founds decided by the gate, are never overruled: only the model's own words are; nor
is a report's section (its writer has rules of its own for what a section leaves out).

Tried, not shipped (2026-11-25): the shipped weights carry no `declined` threshold, so the
shipped verifier never overrules. Fitted at 0.60 on the tuning questions it took ClapNQ
`dev` not-found F1 from 0.79 to 0.82 and no unanswerable question was answered; on the
ClapNQ report slice and the HTTPX questions it answered as many unanswerable questions as it
rescued answerable ones (not-found F1 0.78 -> 0.77 and 0.76 -> 0.74; `declined.json`). Set
`TrainedVerifier.declined_threshold` to turn it on.
"""

from __future__ import annotations

from dataclasses import dataclass

from citesynth.answers import Answer
from citesynth.citations.resolve import says_not_found
from citesynth.synthesis.answerability import Gate
from citesynth.synthesis.drafting import Draft, tidy, write
from citesynth.synthesis.extractive import ExtractiveWriter
from citesynth.synthesis.finishing import Finishing, Header, finish
from citesynth.synthesis.steps import Parts
from citesynth.synthesis.writers import Plan


@dataclass(frozen=True, slots=True)
class Writing:
    """What the answer was written from, and how it is finished."""

    header: Header
    plan: Plan
    parts: Parts
    how: Finishing


async def second_opinion(
    answer: Answer, draft: Draft, judged: Gate | None, writing: Writing
) -> Answer:
    """`answer`, or the extractive writer's when the model declined what the gate passed."""
    if judged is None or writing.plan.prompt != "answer":  # a report section: its own rules
        return answer
    if not overrules(answer, draft, judged, writing.parts):
        return answer
    return await quoted_instead(answer, writing, judged)


def overrules(answer: Answer, draft: Draft, judged: Gate, parts: Parts) -> bool:
    """Whether the writer's own "not found" meets a gate score that says otherwise."""
    return (
        judged.score >= judged.declined
        and answer.not_found
        and not answer.removed_claims
        and not isinstance(parts.writer, ExtractiveWriter)
        and says_not_found(draft.text)
    )


async def quoted_instead(answer: Answer, writing: Writing, judged: Gate) -> Answer:
    """The extractive writer's verified answer from the plan, or `answer` when it has none."""
    plan = writing.plan
    quoted = Draft()
    async for _ in write(ExtractiveWriter(writing.parts.embedder), plan, quoted):
        pass  # the model's tokens were streamed already; the `done` answer replaces them
    tidy(quoted, plan.sources, attribute_uncited=False, require_citations=False)
    found = await finish(writing.header, plan, quoted, writing.how)
    if found.not_found or not found.claims:
        return answer
    note = (
        f'the model answered "Not found in the sources." although [{judged.best}] answers the '
        f"question (answerability {judged.score:.2f}, at least {judged.declined:.2f}); "
        "the answer quotes the sources instead"
    )
    return found.model_copy(update={"warnings": [*found.warnings, note], "usage": answer.usage})
