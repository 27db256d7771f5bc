"""A model's own "not found" past the gate: the sources' own sentences instead.

The embedded 1.5B model says "Not found in the sources." to many questions its passages
answer. Over four documentation sets read as a user (Flask, aiohttp, urllib3, Black: 80
answerable questions) it declined 22 that the answerability gate (`synthesis.answerability`)
had passed, and the extractive writer, given the same question, answered 18 of them right.
So when a model writer's answer is its own not-found (it said so, or only pointed at
sources) and the gate judged the passages to answer, the extractive writer answers
instead; its sentences are verified like any answer's, and a warning (`QUOTED`) says what
happened. When it finds nothing that answers either, or only an answer of low confidence
(one that needs a disclaimer does not overrule a refusal), the model's not-found stands.
On those sets, the recorded replies replayed: answerable right 36 → 54 of 80, unanswerable
caught 32 → 30 of 40 (docs/verification.md, "Not found", for the held-out figures).

Only the model's own words are overruled: never a not-found decided by retrieval or the
gate, nor an answer that verification emptied or found stating nothing asked
(`checked_away`: the model wrote something no source supports; quoting those as well would
have given back 10 more answerable tuning questions and let 8 more unanswerable ones
through, estimated from each writer's records of the same questions), nor a
report's section, whose writer has rules of its own for what a section leaves out.
Without a gate (no trained verifier) nothing is overruled: retrieval strength alone does
not say the passages answer. First tried on 2026-11-25, with a threshold of the gate's
own, and not shipped then (docs/verification.md, "Not found").
"""

from __future__ import annotations

import logging
from dataclasses import replace

from citesynth.answers import Answer
from citesynth.synthesis.answerability import Gate
from citesynth.synthesis.asked import NO_NUMBER
from citesynth.synthesis.drafting import Draft, write
from citesynth.synthesis.extractive import ExtractiveWriter, scorer
from citesynth.synthesis.finishing import Header, finish, finishing_for, tidy_draft
from citesynth.synthesis.modes import Mode
from citesynth.synthesis.options import AskOptions
from citesynth.synthesis.restated import RESTATED
from citesynth.synthesis.steps import Parts, Retrieved, planned, retrieve
from citesynth.synthesis.writers import Plan, Writer

log = logging.getLogger("citesynth.answer")

QUOTED = 'the model answered "Not found in the sources."'
"""How the warning of an overruled not-found begins (the evaluation counts them by it)."""


def answered_from_sources(answer: Answer) -> bool:
    """Whether `answer` is the extractive writer's, standing for a model's refusal."""
    return any(w.startswith(QUOTED) for w in answer.warnings)


def declined(answer: Answer, judged: Gate | None, writer: Writer) -> bool:
    """Whether a model writer's own "not found" meets passages the gate judged to answer.

    Its own: it said so, or only pointed at sources, not an answer that verification
    emptied (`checked_away`). `judged` is the gate's verdict on the same sources (None: no
    gate ran).
    """
    return (
        judged is not None
        and judged.answerable
        and answer.not_found
        and not checked_away(answer)
        and not isinstance(writer, ExtractiveWriter)
    )


def checked_away(answer: Answer) -> bool:
    """Whether verification made `answer` a not-found.

    It removed every claim the writer made, or found none stating what was asked (a number:
    `asked`; anything beyond the question: `restated`).
    """
    return bool(answer.removed_claims) or any(w in (NO_NUMBER, RESTATED) for w in answer.warnings)


def quoting_writer(parts: Parts) -> ExtractiveWriter:
    """The extractive writer that answers instead, reading questions as the engine's does."""
    return ExtractiveWriter(parts.embedder, scorer=scorer(parts.verifier))


def quoted(found: Answer, model: Answer, judged: Gate, where: str) -> Answer:
    """`found`, the extractive writer's answer, said to stand for the model's `model`.

    The warning names the passage (or the two) the gate found answering, `where`: their
    locations, since the model's source numbers are not the answer's.

    The model's not-found stands when `found` is one too, kept no claim, or is itself of low
    confidence (below the disclaimer threshold): an answer that needs a disclaimer does not
    overrule a refusal. The tokens are the model's (it was called); the marker counts are
    the extractive writer's.
    """
    if found.not_found or not found.claims or found.low_confidence:
        return model
    note = (
        f"{QUOTED} although the answerability check found that {where} answers the question "
        f"(score {judged.score:.2f}, threshold {judged.threshold:.2f}): the answer quotes the "
        "sources' own sentences instead"
    )
    tokens = {"prompt_tokens": model.usage.prompt_tokens}
    tokens["completion_tokens"] = model.usage.completion_tokens
    usage = found.usage.model_copy(update=tokens)
    return found.model_copy(update={"warnings": [*found.warnings, note], "usage": usage})


def answering(plan: Plan, judged: Gate) -> str:
    """Where the passage the gate found answering is (and its partner, when a pair did)."""
    numbers = (judged.best, judged.partner)
    found = [s.chunk.location for n in numbers for s in plan.sources if n and s.number == n]
    return " with ".join(found) or f"[{judged.best}]"


async def quote_instead(
    model: Answer,
    judged: Gate | None,
    header: Header,
    written: Plan,
    given: Retrieved | None,
    parts: Parts,
    mode: Mode,
    options: AskOptions,
) -> Answer:
    """`model`, or the extractive writer's answer when the model declined (`declined`).

    `written` is the plan the model wrote from. The answer comes from the same search
    (`given`: what an agent found; None: the question is searched again, as many passages
    as the mode holds, where the model read fewer), planned for the extractive writer (whole
    sources) and finished like any answer (with `strict`, unsupported claims are removed
    whatever `keep_unsupported` says, as strict mode's rewrite does); its text is not
    streamed (the model's was). Any failure keeps `model` and is logged. A report's section
    (a prompt other than "answer") has rules of its own for what it leaves out: it is kept.
    """
    if written.prompt != "answer" or judged is None:
        return model
    if not declined(model, judged, parts.writer):
        return model
    quoting = replace(parts, writer=quoting_writer(parts))
    draft = Draft()
    try:
        found = given or await retrieve(header.question, quoting, options, mode)
        plan, _ = await planned(header.question, found, quoting, mode, options)
        verifier = quoting.verifier if options.verify else None
        how = finishing_for(header.question, plan, verifier, options)
        if options.strict:
            how = replace(how, remove_unsupported=True)
        async for _ in write(quoting.writer, plan, draft):
            pass
        tidy_draft(draft, plan, options, how)
        answer = await finish(header, plan, draft, how)
    except Exception as error:  # the model's not-found stands; never a crash
        log.warning("the extractive writer failed after the model declined: %r", error)
        return model
    return quoted(answer, model, judged, answering(written, judged))
