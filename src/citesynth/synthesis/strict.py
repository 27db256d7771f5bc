"""Strict mode: rewrite once with the verdicts, keep the better version, remove what stays weak.

The claims the verifier found unsupported go back to the writer as feedback; the version
with more mean verified support is kept; its claims that are still unsupported are removed.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from citesynth.answers import Answer
from citesynth.synthesis.drafting import Draft, tidy, write
from citesynth.synthesis.finishing import Finishing, Header, finish
from citesynth.synthesis.writers import Plan, Writer

log = logging.getLogger("citesynth.answer")


def unsupported(answer: Answer) -> bool:
    """Whether verification found at least one claim unsupported (kept or removed)."""
    summary = answer.verification
    return summary is not None and (summary.unsupported > 0 or summary.removed > 0)


async def rewrite_strictly(
    first: Answer,
    draft: Draft,
    *,
    header: Header,
    plan: Plan,
    writer: Writer,
    how: Finishing,
    attribute_uncited: bool,
    require_citations: bool,
) -> Answer:
    """The better of `first` and one rewrite, with its still-unsupported claims removed."""
    weak = [c.text for c in (*first.claims, *first.removed_claims) if c.label != "supported"]
    again = replace(plan, feedback="\n".join(f"- {text}" for text in weak))
    retried = Draft()
    notes = []
    kept, kept_draft = first, draft
    try:
        async for _ in write(writer, again, retried):
            pass
        tidy(
            retried,
            plan.sources,
            attribute_uncited=attribute_uncited,
            require_citations=require_citations,
            verified=how.verifies_uncited(plan),
        )
    except Exception as error:  # the first answer stands
        log.debug("strict retry failed", exc_info=error)
        notes.append("strict mode: the rewrite failed; kept the first version")
    else:
        second = await finish(header, plan, retried, how)
        if _support(second) > _support(first):
            kept, kept_draft = second, retried
        which = "second" if kept is second else "first"
        notes.append(f"strict mode: rewrote once with the verdicts; kept the {which} version")
    if unsupported(kept):
        kept = await finish(header, plan, kept_draft, replace(how, remove_unsupported=True))
    summary = kept.verification
    if summary is not None:
        summary = summary.model_copy(update={"regenerated": True})
    return kept.model_copy(update={"verification": summary, "warnings": [*kept.warnings, *notes]})


def _support(answer: Answer) -> float:
    """Mean verified support over claims; an answer without claims scores 0."""
    scores = [c.support or 0.0 for c in answer.claims]
    return sum(scores) / len(scores) if scores else 0.0
