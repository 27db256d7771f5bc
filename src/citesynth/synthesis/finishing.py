"""Finishing step: a draft becomes the `Answer` of the contract (DESIGN §5).

The text is resolved (groups merged, compact ranges, invalid numbers reported), repeated
and pointer-only sentences are dropped, attribution wrappings ("According to [2], …")
become the citation they are, every claim is verified (and citations repaired)
when a verifier is given, citations are optionally renumbered by first use, and claims,
uncited claims, citations with their supporting spans, warnings and confidence are computed.
A not-found that cites nothing reads "Not found in the sources.": the embedded model's
refusals went on with what "can be inferred" ("… the default timeout is not a fixed value
but rather depends on the specific implementation"), a claim no source was asked about.
"""

from __future__ import annotations

import math
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypedDict

from citesynth.answers import Answer, Citation, Claim, UsageReport
from citesynth.citations.resolve import (
    CANONICAL,
    Removed,
    Resolved,
    compact,
    renumber,
    resolve,
    says_not_found,
)
from citesynth.synthesis import disagreement, verifying
from citesynth.synthesis.about import about_checked
from citesynth.synthesis.asked import NO_NUMBER, asks_number, states_number_of
from citesynth.synthesis.bounds import states_bound_of
from citesynth.synthesis.citing import citations, claims_of
from citesynth.synthesis.drafting import MAX_ANSWER_CHARS, Draft, tidy
from citesynth.synthesis.extractive import NOT_FOUND
from citesynth.synthesis.headings import BOLD_LINE, copied_headings, empty_headings_dropped
from citesynth.synthesis.layout import strip_layout, without_refusal
from citesynth.synthesis.leads import opening_links, plain_attributions, single_consensus
from citesynth.synthesis.options import AskOptions
from citesynth.synthesis.reasons import links_checked
from citesynth.synthesis.releases import asks_release, states_release, states_version_of
from citesynth.synthesis.restated import RESTATED, restatement_checked, restates_only
from citesynth.synthesis.sources import Source, document_count, record, refs
from citesynth.synthesis.tidying import (
    HEADING_LINE,
    close_lead_ins,
    drop_pointers,
    drop_repeats,
    drop_stubs,
    drop_unfinished,
    has_words,
)
from citesynth.synthesis.writers import Plan
from citesynth.verify.base import Verifier
from citesynth.verify.confidence import confidence as calibrated
from citesynth.verify.conflicts import Found


class HeaderFields(TypedDict):
    """The `Answer` fields a `Header` fills."""

    question: str
    model: str
    mode: str
    request_id: str


@dataclass(frozen=True, slots=True)
class Header:
    """What every answer to one request carries, whatever happens next."""

    question: str
    model: str
    mode: str
    request_id: str

    @classmethod
    def of(cls, question: str, model: str, mode: str, request_id: str = "") -> Header:
        """The header of a request: whitespace folded, a random request id when none."""
        return cls(" ".join(question.split()), model, mode, request_id or uuid.uuid4().hex[:16])

    def fields(self) -> HeaderFields:
        """The header as `Answer` keyword arguments."""
        return HeaderFields(
            question=self.question, model=self.model, mode=self.mode, request_id=self.request_id
        )


@dataclass(frozen=True, slots=True)
class Finishing:
    """How to finish: the confidence threshold, verification and its repairs, renumbering."""

    verifier: Verifier | None = None
    repair: bool = True
    renumber: bool = False
    low_confidence_below: float = 0.5
    remove_unsupported: bool = True
    """Take the claims no source supports out of the answer (see `verified`)."""
    question: str = ""
    """What was asked: a removed sentence restating it leaves the claims after it their
    referent (`verifying.without_unsupported`)."""

    def verifies_uncited(self, plan: Plan) -> bool:
        """Whether a draft citing nothing is verified instead of refused (`drafting.tidy`).

        Only when a verifier runs with repair and removal, and for a plain answer: a
        report's section has rules of its own for what it leaves out.
        """
        return (
            self.verifier is not None
            and self.repair
            and self.remove_unsupported
            and plan.prompt == "answer"
        )


def finishing_for(
    question: str, plan: Plan, verifier: Verifier | None, options: AskOptions
) -> Finishing:
    """How a draft of `plan` is finished: verified, repaired.

    Verified with the links of a why-question read, and a yes/no question's words held
    where a claim repeats them (`restated.restatement_checked`).
    """
    return Finishing(
        verifier=restatement_checked(
            links_checked(about_checked(verifier, plan.sources), question), question
        ),
        repair=options.repair,
        renumber=options.renumber,
        low_confidence_below=options.low_confidence_below,
        remove_unsupported=not options.keep_unsupported,
        question=question,
    )


def tidy_draft(draft: Draft, plan: Plan, options: AskOptions, how: Finishing) -> None:
    """`drafting.tidy` as `options` ask; uncited sentences are left to `how` when it verifies them.

    Raises:
        Unusable: the draft cannot be the answer.
    """
    tidy(
        draft,
        plan.sources,
        attribute_uncited=options.attribute,
        require_citations=options.require_citations,
        verified=how.verifies_uncited(plan),
    )


async def finish(header: Header, plan: Plan, draft: Draft, how: Finishing) -> Answer:
    """The answer for a draft written from `plan` (see the module docstring)."""
    sources = list(plan.sources)
    resolved = resolve(disagreement.tidy(draft.text, plan.found), refs(sources))
    removed = resolved.removed  # what later passes over the clean text no longer see
    text, _ = copied_headings(resolved.text, sources)
    text, repeated, pointers, notes = _tidied(text)
    if text != resolved.text:
        resolved = resolve(text, refs(sources))
    shown = sources
    found = list(plan.found)
    not_found = says_not_found(text) or (pointers > 0 and not text)  # it only pointed
    text, checked, not_found, checked_notes = await _checked(text, shown, how, not_found=not_found)
    notes += checked_notes
    if checked is not None or checked_notes:
        resolved = resolve(text, refs(shown))
    if how.renumber and resolved.used:
        order = [*resolved.used, *(s.number for s in sources if s.number not in resolved.used)]
        text, mapping = renumber(text, order)
        shown = sorted((replace(s, number=mapping[s.number]) for s in sources), key=_number)
        resolved = resolve(text, refs(shown))
        found = [replace(f, sources=(mapping[f.sources[0]], mapping[f.sources[1]])) for f in found]
        checked = verifying.renumbered(checked, mapping) if checked else None
    emptied = checked is not None and not text and bool(checked.removed)
    claims = [] if not_found else checked.claims if checked else claims_of(text)
    text, claims, disagreeing = disagreement.state(
        text,
        claims,
        found,
        header.question,
        shown,
        None if emptied else set(resolved.used),
        writer_not_found=not_found and not emptied,
    )
    if disagreeing:
        not_found = False  # the sources do answer: they disagree
        resolved = resolve(text, refs(shown))
    subject = shown[0].subject if shown else ""
    unasked = _nothing_asked(header.question, claims, disagreeing, subject, plan.common, text)
    if unasked:  # an answer stating no number asked, or nothing asked, is none
        text, claims, not_found, resolved = "", [], True, resolve("", refs(shown))
    uncited = [claim.text for claim in claims if not claim.citations]
    warnings = _warnings(resolved, draft, shown, not_found, repeated, plan.trimmed, removed)
    if unasked:
        warnings.append(unasked)
    if pointers:
        warnings.append(f"dropped {pointers} sentence(s) that only pointed at a source")
    warnings.extend(notes)
    if checked is not None:
        warnings.extend(checked.warnings)
    if uncited:
        warnings.append(f"{len(uncited)} sentence(s) cite no source")
    support = checked.support if checked else None
    if support is not None and disagreeing:
        support = disagreement.with_sides(support, claims[len(claims) - len(disagreeing) :])
    cited = citations(shown, resolved, claims, header.question, support)
    confidence, checked = _confidence(
        not_found, checked, shown, claims, found, cited, draft, header.question, text
    )
    if disagreeing:  # a disagreement on the point asked: never a confident answer
        confidence = min(confidence, disagreement_cap(how.low_confidence_below))
    low = not not_found and confidence < how.low_confidence_below
    usage = draft.usage
    return Answer(
        **header.fields(),
        answer=NOT_FOUND if not_found and not CANONICAL.search(text) else text,
        citations=cited,
        sources=[record(s) for s in shown],
        claims=claims,
        uncited_claims=uncited,
        removed_claims=checked.removed if checked else [],
        conflicts=verifying.conflict_records(found),
        verification=checked.summary if checked else None,
        confidence=confidence,
        low_confidence=low,
        disclaimer=disclaimer(claims, disagreeing, _coverage(checked)) if low else None,
        synthesis_mode=plan.grouped,
        source_doc_count=document_count(sources),
        not_found=not_found,
        warnings=warnings,
        usage=UsageReport(
            prompt_tokens=usage.prompt_tokens if usage else None,
            completion_tokens=usage.completion_tokens if usage else None,
            markers=draft.markers,
            invalid_markers=draft.invalid_markers,
        ),
    )


def _coverage(checked: verifying.Checked | None) -> float | None:
    """The answer's `coverage` signal, when its claims were checked."""
    signals = checked.summary.signals if checked is not None else {}
    return signals.get("coverage")


def disagreement_cap(low_confidence_below: float) -> float:
    """The highest confidence of an answer whose sources disagree on the point asked.

    Below the disclaimer threshold, so that the disclaimer names the disagreement.
    """
    return round(low_confidence_below * 0.8, 4)


def _confidence(
    not_found: bool,
    checked: verifying.Checked | None,
    shown: Sequence[Source],
    claims: Sequence[Claim],
    found: Sequence[Found],
    cited: Sequence[Citation],
    draft: Draft,
    question: str,
    text: str,
) -> tuple[float, verifying.Checked | None]:
    """The confidence of the answer `text` to `question`, and the signals behind it.

    The signals go into the verification it returns. 0 for a not-found; calibrated from
    verifiable signals when the claims were checked; provisional otherwise.
    """
    if not_found:
        return 0.0, checked
    if checked is None:
        return provisional_confidence(cited, claims, draft), None
    relevance = {s.number: s.hit.confidence for s in shown}
    signal = verifying.signals(
        claims,
        relevance,
        found,
        markers=draft.markers,
        invalid_markers=draft.invalid_markers,
        question=question,
        text=text,
    )
    summary = checked.summary.model_copy(
        update={"signals": {k: round(v, 4) for k, v in signal.as_dict().items()}}
    )
    return calibrated(signal), replace(checked, summary=summary)


def _tidied(text: str) -> tuple[str, int, int, list[str]]:
    """Resolved `text` tidied; how many repeats and pointers went, and notes.

    Tidied: without repeats (again once attribution wrappings are read: the embedded model
    wrote each of Django's sentences twice, once as "According to [1], …"), pointers,
    attribution wrappings, lead-ins that introduce
    nothing or stop at their comma, a sentence broken off at the end and a refusal around
    the answer.
    """
    text, repeated = drop_repeats(text)
    text, pointers = drop_pointers(text)
    text, rewritten = plain_attributions(text)
    if rewritten:  # "X. According to [2], X." is a repeat once it reads "X [2]. X [2]."
        text, again = drop_repeats(text)
        repeated += again
    text, _ = opening_links(text)
    text, _ = close_lead_ins(text)
    text, _ = drop_stubs(text)
    text, unfinished = drop_unfinished(text)
    notes = ["dropped the last sentence: the writer broke it off"] if unfinished else []
    return without_refusal(strip_layout(text)), repeated, pointers, notes


async def _checked(
    text: str, sources: Sequence[Source], how: Finishing, *, not_found: bool
) -> tuple[str, verifying.Checked | None, bool, list[str]]:
    """The verified text (when a verifier is set), whether it is a not-found, and notes.

    Every cited claim unsupported leaves nothing to answer with: a not-found. After repair
    (which may move a citation), a sentence that now repeats an earlier one goes, one
    that says several sources agree but cites one document loses the opening ("Multiple
    sources report that"), and one that nothing comes before any more its linking word
    ("Therefore, …").
    """
    checked = None
    if how.verifier is not None and not not_found:
        checked = await verified(text, sources, how.verifier, how)
        checked = await verifying.without_repeats(checked, sources, how.verifier)
        text = checked.text
        not_found = not text
    documents = {s.number: s.document for s in sources}
    text, lone = single_consensus(text, documents)
    notes = []
    if lone:
        if checked is not None:
            checked = verifying.single_consensus(checked, text, documents)
        notes.append(f"{lone} sentence(s) said several sources agree but cited one document")
    text, unlinked = opening_links(text)  # what they went on from may have been removed
    if unlinked and checked is not None:
        checked = verifying.relinked(checked, text)
    text, emptied = empty_headings_dropped(text)  # and what stood under a heading
    if emptied and checked is not None:
        checked = replace(checked, text=text)
    return text, checked, not_found, notes


def _nothing_asked(
    question: str,
    claims: Sequence[Claim],
    disagreeing: Sequence[Found],
    subject: str,
    common: frozenset[str],
    text: str,
) -> str:
    """Why the answer's `claims` state nothing `question` asks for, or "" when they do.

    A number asked and none stated (`lacks_number`), or every claim only restating the
    question (`restated.restates_only`; not when the answer shows code, or the sources disagree
    on the point asked: their sides are the answer).
    """
    if lacks_number(question, claims, disagreeing, subject, common, text):
        return NO_NUMBER
    if disagreeing or any(claim.kind == "code" for claim in claims):
        return ""
    headings = [m.group(1) for line in text.split("\n") if (m := BOLD_LINE.fullmatch(line.strip()))]
    return RESTATED if restates_only(question, [claim.text for claim in claims], headings) else ""


def lacks_number(
    question: str,
    claims: Sequence[Claim],
    disagreeing: Sequence[Found],
    subject: str = "",
    common: frozenset[str] = frozenset(),
    text: str = "",
) -> bool:
    """Whether `question` asks for a number and the answer's `claims` state none of it.

    A number of something else is none (`asked.states_number_of`; `subject` is what the
    corpus is about, `common` the question's terms half its chunks hold; each claim is read
    under the heading above it in the answer's `text`, `headings_above`). Asked in which
    release something changed, a release number is asked besides the ones the question
    names, which the answer names too (`releases.states_release`: "**Trio 0.32.0
    (2025-10-31)**" heading a change log's "Drop support for Python 3.9"); asked which
    version of a thing, a version of it (`releases.states_version_of`), which the sides of
    a disagreement may state: one between versions of something else ("… SQLAlchemy as of
    version: [1] says 2.0; [7] says 1.1" for "What's the oldest PostgreSQL server version
    …?") is no answer. Asked whether there is a limit, a bound of the thing asked
    (`bounds.states_bound_of`). Not when there are no claims (the answer is a not-found
    already) or when the sources disagree on the point asked (their sides are the answer).
    Code the answer shows states no number asked: an example's value is no default, and
    AnyIO's listener example (``client.receive(1024)``) had answered how long
    `connect_tcp` waits on one connection attempt before starting the next.
    """
    if not claims:
        return False
    said = [claim.text for claim in claims]
    headings = headings_above(text, said)
    sides = [f"{conflict.topic} {' '.join(conflict.values)}" for conflict in disagreeing]
    if not states_version_of(question, [*said, *sides], headings):
        return True
    if disagreeing:
        return False
    headed = [f"{heading} {claim}" for heading, claim in zip(headings, said, strict=True)]
    if asks_release(question) and not states_release(question, headed):
        return True
    if not states_bound_of(question, said, subject, common, headings):
        return True
    if not asks_number(question):
        return False
    prose = [i for i, claim in enumerate(claims) if claim.kind != "code"]
    return not states_number_of(
        question, [said[i] for i in prose], subject, common, [headings[i] for i in prose]
    )


def headings_above(text: str, claims: Sequence[str]) -> list[str]:
    """The heading line above each of `claims` in the answer `text` ("" for none).

    Claims are found in order by their opening words (a claim is a sentence of `text`
    without its markers); one not found has none.
    """
    headings = [(found.start(), found.group(1)) for found in _HEADING_LINES.finditer(text)]
    above: list[str] = []
    cursor = 0
    for claim in claims:
        opening = claim[:_OPENING].rstrip(".!?;:")  # "Default: ``10`` [1]." ends so
        at = text.find(opening, cursor) if opening else -1
        if at < 0:
            above.append("")
            continue
        cursor = at + 1  # a claim opening as the one before it is further on
        above.append(next((h for start, h in reversed(headings) if start < at), ""))
    return above


_HEADING_LINES = re.compile(rf"^[ \t]*({HEADING_LINE.pattern})[ \t]*$", re.MULTILINE)
_OPENING = 24
"""How many of a claim's first characters find it in the answer (markers come later)."""


SAYS_LITTLE_ASKED = 0.5
"""Below this share of the question's terms in the answer (the `coverage` signal), a low
confidence is put down to an answer that says little of what was asked."""


def disclaimer(
    claims: Sequence[Claim], disagreeing: Sequence[Found] = (), coverage: float | None = None
) -> str:
    """One line saying why confidence is low.

    The causes in order: a disagreement, weak support, an answer that states little of the
    question (`coverage`, when known), weak retrieval.
    """
    if disagreeing:
        named = "; ".join(
            f"[{c.sources[0]}] and [{c.sources[1]}] on {disagreement.about(c)}" for c in disagreeing
        )
        return f"Low confidence: the sources disagree ({named}); check which one applies."
    if any(c.label in {"unsupported", "partial"} or not c.citations for c in claims):
        return "Low confidence: the sources only partly support this answer; check the citations."
    if coverage is not None and coverage < SAYS_LITTLE_ASKED:
        return (
            "Low confidence: the answer states little of what was asked; "
            "check that it answers the question."
        )
    return (
        "Low confidence: the passages found match the question only weakly; "
        "check that they answer it."
    )


def _warnings(
    resolved: Resolved,
    draft: Draft,
    shown: Sequence[Source],
    not_found: bool,
    repeated: int,
    trimmed: int,
    removed: Removed,
) -> list[str]:
    """What was cleaned up or left out while finishing the answer, one line each."""
    warnings = draft.removed.plus(removed).plus(resolved.removed).warnings
    if draft.capped:
        warnings.append(
            f"the answer was cut at {MAX_ANSWER_CHARS:,} characters: the model wrote more than "
            "an answer holds (it may have been repeating itself) and the rest was not read"
        )
    unused = [s.number for s in shown if s.number not in resolved.used]
    if unused and not not_found:
        warnings.append(f"source(s) {compact(unused)} were not cited")
    if draft.attributed:
        warnings.append(
            f"{draft.attributed} citation(s) added by matching uncited sentences to sources"
        )
    if repeated:
        warnings.append(f"dropped {repeated} sentence(s) that repeated an earlier one")
    if trimmed:
        warnings.append(f"{trimmed} lower-ranked source(s) left out to fit the context budget")
    return warnings


async def verified(
    text: str, shown: Sequence[Source], verifier: Verifier, how: Finishing
) -> verifying.Checked:
    """Check (and repair) the answer, then take out the claims no source supports.

    A claim whose leading clause its sources support keeps that clause (`verify.trim`).
    Unless `how.remove_unsupported` is off (keep_unsupported): then they stay, flagged.
    When nothing cited is left, the text is empty: the answer is a not-found.
    """
    checked = await verifying.check(text, shown, verifier, repair=how.repair)
    if not how.remove_unsupported:
        return checked
    checked, cut = await verifying.cut_to_support(checked, shown, verifier)
    kept, removed = verifying.without_unsupported(
        checked.text, checked.claims, checked.review, question=how.question
    )
    if not removed and not cut:
        return checked
    removed = [*(claim for claim, _ in cut), *removed]
    note = (
        f"removed {len(removed)} claim(s) that no source supports (see removed_claims; "
        "keep_unsupported keeps them)"
    )
    warnings = [repair.describe() for repair in checked.review.repairs]  # removed: not kept
    warnings += [line for _, line in cut]
    if kept == checked.text:  # only parts were cut, and what is left is supported
        summary = checked.summary.model_copy(update={"removed": len(removed)})
        return replace(checked, summary=summary, warnings=[*warnings, note], removed=removed)
    if not has_words(kept) or not any(c.citations for c in claims_of(kept)):
        summary = checked.summary.model_copy(update={"removed": len(removed)})
        return replace(
            checked,
            text="",
            claims=[],
            summary=summary,
            warnings=[*warnings, note],
            removed=removed,
        )
    # What a removal leaves between the claims kept ("… glass [2]. [2] [2] Their …", a
    # marker opening a line) is tidied as a draft's layout is, then checked again.
    kept = strip_layout(resolve(kept, refs(shown)).text)
    again = await verifying.check(kept, shown, verifier, repair=False)
    summary = again.summary.model_copy(
        update={"removed": len(removed), "repairs": checked.summary.repairs}
    )
    return replace(again, summary=summary, warnings=[*warnings, note], removed=removed)


def provisional_confidence(
    cited: Sequence[Citation], claims: Sequence[Claim], draft: Draft
) -> float:
    """Confidence from verifiable signals when claims are not verified.

    Each claim counts as supported with probability 1 - Π(1 - r) over the Pass-1 relevance
    r of the sources it cites (0 when it cites none); the answer's confidence is the mean
    over claims, lowered by half the share of markers that named no source.
    """
    relevance = {citation.number: citation.relevance for citation in cited}
    if not relevance:
        return 0.0
    per_claim = [
        1.0 - math.prod(1.0 - relevance.get(n, 0.0) for n in claim.citations)
        if claim.citations
        else 0.0
        for claim in claims
    ] or [max(relevance.values())]
    invalid = draft.invalid_markers / draft.markers if draft.markers else 0.0
    return round(sum(per_claim) / len(per_claim) * (1 - 0.5 * invalid), 4)


def _number(source: Source) -> int:
    return source.number
