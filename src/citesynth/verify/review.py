"""Check an answer claim by claim against its sources, measure its citations, repair them.

For every claim (see `claims.py`):

1. Its cited sources together are checked (ALCE citation recall: is the claim entailed by
   the union of what it cites?).
2. With several citations, each source is also checked alone; a citation is precise when it
   supports the claim at least partly by itself, or when the others do not support the claim
   without it (ALCE citation precision). A single citation is precise when it supports.
3. Repair, when asked: a claim its citations do not support, and an uncited claim, are
   checked against every other source (cheaply, with the lexical verifier, then confirmed by
   the configured one); a source that supports it replaces (or becomes) its citation. When
   the claim's own cited source contradicts it (`_contradicted`: the claim turned around),
   only a source holding every term of it, with nothing against it, does.
   What is still unsupported stays so, labelled, never dressed up with a citation.

Independent documents behind a claim are counted from the sources that support it alone.
A code block is checked as a quotation instead (`verify.code`), and never repaired: its
citations are its introducing sentence's.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from citesynth.citations.resolve import compact, numbers_in
from citesynth.verify.align import stated_otherwise
from citesynth.verify.base import (
    Check,
    Passage,
    Verdict,
    Verifier,
    check_of,
    repair_bar,
    unwrapped,
    with_reason,
)
from citesynth.verify.causes import with_antecedents
from citesynth.verify.claims import MARKER as _MARKER
from citesynth.verify.claims import ClaimSpan, split_claims
from citesynth.verify.code import code_verdict
from citesynth.verify.denials import denied_elsewhere
from citesynth.verify.lexical import LexicalVerifier

_SUPPORTS = frozenset({"supported", "partial"})


@dataclass(frozen=True, slots=True)
class ClaimReview:
    """One claim's verdict over its citations, and each citation's own verdict."""

    claim: ClaimSpan
    verdict: Verdict | None
    """Over the union of the cited sources; None when the claim cites nothing."""
    alone: dict[int, Verdict] = field(default_factory=dict)
    precise: tuple[int, ...] = ()
    documents: int = 0
    """Distinct documents among the cited sources that support the claim by themselves."""

    @property
    def label(self) -> str:
        """`supported`, `partial` or `unsupported` (an uncited claim is `unsupported`)."""
        return self.verdict.label if self.verdict else "unsupported"

    @property
    def score(self) -> float:
        """The support score (0 for an uncited claim)."""
        return self.verdict.score if self.verdict else 0.0


@dataclass(frozen=True, slots=True)
class Repair:
    """A citation moved or added: in the claim, from these numbers to these."""

    claim: str
    before: tuple[int, ...]
    after: tuple[int, ...]

    def describe(self) -> str:
        """One line for `warnings`."""
        quoted = self.claim if len(self.claim) <= 60 else self.claim[:57] + "..."
        if not self.before:
            return f"cited {compact(self.after)} for an uncited sentence it supports: {quoted!r}"
        if set(self.after) < set(self.before):
            dropped = [n for n in self.before if n not in self.after]
            return (
                f"dropped citation {compact(dropped)}, which does not support {quoted!r} "
                f"(cited {compact(self.after)} does)"
            )
        return (
            f"moved citation {compact(self.before)} to {compact(self.after)}, "
            f"the source that supports {quoted!r}"
        )


@dataclass(frozen=True, slots=True)
class Review:
    """An answer's claims with verdicts, its citation recall and precision, and repairs."""

    text: str
    claims: tuple[ClaimReview, ...]
    repairs: tuple[Repair, ...] = ()

    @property
    def citation_recall(self) -> float | None:
        """Share of claims whose cited sources support them (uncited claims count as not)."""
        if not self.claims:
            return None
        return sum(c.label == "supported" for c in self.claims) / len(self.claims)

    @property
    def citation_precision(self) -> float | None:
        """Share of citations (claim, number) that support their claim or are needed for it."""
        total = sum(len(c.claim.citations) for c in self.claims)
        if not total:
            return None
        return sum(len(c.precise) for c in self.claims) / total


async def review(
    answer: str,
    passages: Sequence[Passage],
    verifier: Verifier,
    *,
    repair: bool = True,
    screen: LexicalVerifier | None = None,
) -> Review:
    """Verify `answer` (resolved markers) against its numbered `passages`; repair if asked."""
    by_number = {p.number: p for p in passages}
    screen = screen or LexicalVerifier()
    claims = _claims_of(answer, by_number)
    repairs: list[Repair] = []
    if repair:
        first = await _verified(claims, passages, verifier, screen)
        answer, repairs = await _repair(answer, claims, first, passages, verifier, screen)
        if repairs:
            claims = _claims_of(answer, by_number)
    union = await _verified(claims, passages, verifier, screen)
    reviews = await _precision(claims, union, by_number, verifier)
    if repair and (pruned := _unneeded(reviews)):
        answer = _without_numbers(answer, pruned)
        repairs += [Repair(claim.text, claim.citations, kept) for claim, kept in pruned]
        claims = _claims_of(answer, by_number)
        union = await _verified(claims, passages, verifier, screen)
        reviews = await _precision(claims, union, by_number, verifier)
    return Review(answer, tuple(reviews), tuple(repairs))


def _unneeded(reviews: Sequence[ClaimReview]) -> list[tuple[ClaimSpan, tuple[int, ...]]]:
    """Supported claims citing a source they do not need, each with the citations to keep.

    A citation is not needed when its source does not support the claim even in part and
    the others support it without it (ALCE's imprecise citation): "[5-7]" where [5] states
    the whole claim and [6] and [7] do not is "[5]".
    """
    found = []
    for review in reviews:
        claim = review.claim
        if claim.code or review.verdict is None or not review.verdict.supported:
            continue
        kept = tuple(n for n in claim.citations if n in review.precise)
        if kept and len(kept) < len(claim.citations):
            found.append((claim, kept))
    return found


def _without_numbers(answer: str, edits: Sequence[tuple[ClaimSpan, tuple[int, ...]]]) -> str:
    """The answer with each edited claim's markers holding only the numbers kept, in place."""

    def narrowed(segment: str, kept: tuple[int, ...]) -> str:
        def marker(found: re.Match[str]) -> str:
            written = found.group()
            numbers = [n for n in numbers_in(written.strip()) if n in kept]
            space = written[: len(written) - len(written.lstrip())]
            return space + compact(numbers) if numbers else ""

        return _MARKER.sub(marker, segment)

    return _edited(answer, edits, narrowed)


def _claims_of(answer: str, by_number: dict[int, Passage]) -> list[ClaimSpan]:
    """The answer's claims, citing only known sources, each with what it points back to."""
    return with_antecedents(answer, [_only_known(c, by_number) for c in split_claims(answer)])


def _check(claim: ClaimSpan, passages: Sequence[Passage]) -> Check:
    """The check of `claim` against `passages`, with the claim it points back to."""
    return check_of(claim.text, passages, claim.antecedent)


def _only_known(claim: ClaimSpan, by_number: dict[int, Passage]) -> ClaimSpan:
    known = tuple(n for n in claim.citations if n in by_number)
    return claim if known == claim.citations else replace(claim, citations=known)


async def _verified(
    claims: Sequence[ClaimSpan],
    passages: Sequence[Passage],
    verifier: Verifier,
    screen: LexicalVerifier,
) -> list[Verdict | None]:
    """Each claim's verdict over its cited sources; unsupported where their document denies it.

    A claim its cited sources support may say more than they do; when a retrieved sentence
    of the same document denies those further words (`denials.denied_elsewhere`), the claim
    is false, whatever its citations hold.
    """
    union = await _verify_union(claims, {p.number: p for p in passages}, verifier)
    supported = [i for i, verdict in enumerate(union) if verdict is not None and verdict.supported]
    for index, sentence in _denied(claims, supported, passages, screen).items():
        verdict = union[index]
        if verdict is not None:
            said = f"its source's document denies it: {sentence!r}"
            union[index] = with_reason(verdict, said, "unsupported")
    return union


def _denied(
    claims: Sequence[ClaimSpan],
    indices: Sequence[int],
    passages: Sequence[Passage],
    screen: LexicalVerifier,
) -> dict[int, str]:
    """Of the claims at `indices`, those a retrieved sentence denies, with that sentence.

    What a claim says beyond its cited sources (the lexical alignment's missing terms) is
    read against the retrieved sources of the cited sources' documents
    (`denials.denied_elsewhere`): the pages around a cited passage are about its subject;
    another document's denial is more often another thing's ("The solo pool cannot run
    blocking tasks concurrently" against a claim on the threaded pool).
    """
    cited = _cited(claims, indices, passages)
    if not cited:
        return {}
    checks = [_check(claims[i], sources) for i, sources in cited]
    found = {}
    for (index, sources), check, (_, alignment) in zip(
        cited, checks, screen.aligned(checks), strict=True
    ):
        if alignment is None:
            continue
        documents = {source.document for source in sources}
        texts = [p.text for p in passages if p.document in documents]
        if sentence := denied_elsewhere(check.claim, alignment.missing_terms, texts):
            found[index] = sentence
    return found


def _cited(
    claims: Sequence[ClaimSpan], indices: Sequence[int], passages: Sequence[Passage]
) -> list[tuple[int, list[Passage]]]:
    """The claims at `indices` that are no code and cite a known source, with their sources."""
    by_number = {p.number: p for p in passages}
    cited = [
        (i, [by_number[n] for n in claims[i].citations if n in by_number])
        for i in indices
        if not claims[i].code
    ]
    return [(i, sources) for i, sources in cited if sources]


async def _verify_union(
    claims: Sequence[ClaimSpan], by_number: dict[int, Passage], verifier: Verifier
) -> list[Verdict | None]:
    cited = [c for c in claims if c.citations and not c.code]
    checks = [_check(c, [by_number[n] for n in c.citations]) for c in cited]
    verdicts = iter(await verifier.verify(checks)) if checks else iter(())
    return [
        None
        if not c.citations
        else code_verdict(c.text, [by_number[n].text for n in c.citations])
        if c.code
        else next(verdicts)
        for c in claims
    ]


async def _precision(
    claims: Sequence[ClaimSpan],
    union: Sequence[Verdict | None],
    by_number: dict[int, Passage],
    verifier: Verifier,
) -> list[ClaimReview]:
    singles: list[tuple[int, int]] = []  # (claim index, number) checked alone
    alone: dict[int, dict[int, Verdict]] = {}
    for index, claim in enumerate(claims):
        if claim.code:
            alone[index] = {
                n: code_verdict(claim.text, [by_number[n].text]) for n in claim.citations
            }
        elif len(claim.citations) > 1:
            singles.extend((index, n) for n in claim.citations)
    checks = [_check(claims[i], [by_number[n]]) for i, n in singles]
    alone_verdicts = await verifier.verify(checks) if checks else []
    for (index, number), verdict in zip(singles, alone_verdicts, strict=True):
        alone.setdefault(index, {})[number] = verdict
    leave_out: list[tuple[int, int]] = []
    for index, claim in enumerate(claims):
        whole = union[index]
        if whole is None or claim.code:
            continue
        if len(claim.citations) == 1:
            alone[index] = {claim.citations[0]: whole}
        elif whole.supported:
            leave_out.extend(
                (index, n) for n, v in alone[index].items() if v.label not in _SUPPORTS
            )
    rest_checks = [
        _check(claims[i], [by_number[m] for m in claims[i].citations if m != n])
        for i, n in leave_out
    ]
    rest = await verifier.verify(rest_checks) if rest_checks else []
    needed = {key for key, verdict in zip(leave_out, rest, strict=True) if not verdict.supported}
    needed |= _quoted_below(claims, alone)
    reviews = []
    for index, claim in enumerate(claims):
        verdicts = alone.get(index, {})
        precise = tuple(
            n
            for n in claim.citations
            if verdicts.get(n) is not None
            and (verdicts[n].label in _SUPPORTS or (index, n) in needed)
        )
        documents = len(
            {by_number[n].document for n, v in verdicts.items() if v.label in _SUPPORTS}
        )
        reviews.append(ClaimReview(claim, union[index], verdicts, precise, documents))
    return reviews


def _quoted_below(
    claims: Sequence[ClaimSpan], alone: Mapping[int, Mapping[int, Verdict]]
) -> set[tuple[int, int]]:
    """(claim index, number): a sentence's citation of the source its code block quotes.

    "To wrap an open file object, you can use `.wrap_file`: [2,8]" above the code of
    `snippets/wrap_file.py` (source [8], which the page [2] includes): [8] says nothing the
    sentence does, yet without it the block, which cites what its introducing sentence
    cites, quotes no cited source.
    """
    kept = set()
    for index, claim in enumerate(claims):
        if not claim.code:
            continue
        above = next(
            (
                i
                for i in range(index - 1, -1, -1)
                if not claims[i].code and claims[i].end <= claim.start
            ),
            None,
        )
        if above is None:
            continue
        for number, verdict in alone.get(index, {}).items():
            if verdict.supported and number in claims[above].citations:
                kept.add((above, number))
    return kept


async def _repair(
    answer: str,
    claims: list[ClaimSpan],
    union: Sequence[Verdict | None],
    passages: Sequence[Passage],
    verifier: Verifier,
    screen: LexicalVerifier,
) -> tuple[str, list[Repair]]:
    """Move or add citations where another source supports a claim; returns the new text."""
    weak = [
        i
        for i, verdict in enumerate(union)
        if (verdict is None or verdict.label != "supported") and not claims[i].code
    ]
    if not weak or not passages:  # one passage still gets an uncited claim it supports
        return answer, []
    contradicted = _contradicted(claims, weak, passages, screen)
    candidates: list[tuple[int, Passage]] = []
    checks = []
    for index in weak:
        for passage in passages:
            if passage.number not in claims[index].citations:
                candidates.append((index, passage))
                checks.append(_check(claims[index], [passage]))
    hopeful = [screen.could_support(check) for check in checks]  # most share little
    aligned = iter(screen.aligned(list(itertools.compress(checks, hopeful))))
    screened = [next(aligned) if keep else None for keep in hopeful]
    # a claim another retrieved source states otherwise outright (a table's cell, a unit) is
    # false wherever it is cited: only a source saying all of it may take it (an aligned
    # source's alignment has read it already)
    contradicted |= {
        index
        for (index, _), check, found in zip(candidates, checks, screened, strict=True)
        if (
            found[1].stated_otherwise
            if found is not None and found[1] is not None
            else stated_otherwise(check.claim, check.passages)
        )
    }
    best: dict[int, tuple[float, Passage]] = {}
    lexical_only = isinstance(unwrapped(verifier), LexicalVerifier)
    for (index, passage), found in zip(candidates, screened, strict=True):
        if found is None:
            continue  # its coverage rules out even a partial verdict
        verdict, alignment = found
        # a partial candidate the lexical checks veto (a number, identifier or negation the
        # source lacks) can never be confirmed: it would take the place of one that can
        vetoed = alignment is None or alignment.disagrees
        wanted = verdict.supported or (
            not lexical_only and verdict.label == "partial" and not vetoed
        )
        if index in contradicted:  # only a source saying all of it, and nothing against it
            whole = alignment is not None and not alignment.missing_terms
            wanted = verdict.supported and not vetoed and whole
        rank = verdict.score + (1.0 if verdict.supported else 0.0)
        if wanted and rank > best.get(index, (0.0, passage))[0]:
            best[index] = (rank, passage)
    if not best:
        return answer, []
    chosen = sorted(best.items())
    if not isinstance(unwrapped(verifier), LexicalVerifier):
        confirmed = await verifier.verify([_check(claims[i], [p]) for i, (_, p) in chosen])
        bar = repair_bar(verifier) or 0.0  # the best of many sources: a higher bar than one
        chosen = [
            item
            for item, v in zip(chosen, confirmed, strict=True)
            if v.supported and v.score >= bar
        ]
    repairs = [Repair(claims[i].text, claims[i].citations, (p.number,)) for i, (_, p) in chosen]
    return _apply(answer, [(claims[i], (p.number,)) for i, (_, p) in chosen]), repairs


CONTRADICTED_COVERAGE = 0.8
"""Share of a claim's terms its cited sources' best sentences hold, with the claim's
negation or a contradictory word the other way, above which they contradict it."""


def _contradicted(
    claims: Sequence[ClaimSpan],
    weak: Sequence[int],
    passages: Sequence[Passage],
    screen: LexicalVerifier,
) -> set[int]:
    """The weak claims their own cited sources contradict: repair needs more for them.

    A model that turns what its source says around ("attrs does not strip the leading
    underscore …" citing "… it will strip the underscore from the name when it creates the
    `__init__` method signature") has written a false claim, not cited the wrong source;
    another source holding the same words less closely (attrs' `evolve`: "private attributes
    should be specified without the leading underscore, just like in `__init__`") had been
    judged to support it and the citation moved there. Contradicted: the cited sources'
    best sentences hold `CONTRADICTED_COVERAGE` of the claim's terms, and the claim's
    negation or a word of it the other way (`opposites`); or they state its point otherwise
    outright, whatever else they hold (`Alignment.stated_otherwise`: a table's "No" for
    "HTTP/2 will work with the default sync worker", which repair had moved to a page of
    settings saying nothing of sync; "in seconds" for "in milliseconds"). Such a claim
    moves only to a source that holds every term of it with nothing against it: cited to
    the page on version 1, "In version 2, the pool does not block when it is full" still
    moves to the page on version 2, which says it word for word.
    """
    cited = _cited(claims, weak, passages)
    if not cited:
        return set()
    screened = screen.aligned([_check(claims[i], sources) for i, sources in cited])
    return {
        i
        for (i, _), (_, alignment) in zip(cited, screened, strict=True)
        if alignment is not None
        and (
            alignment.stated_otherwise
            or (
                (alignment.negation_mismatch or alignment.opposite)
                and alignment.features.get("top3_coverage", 0.0) >= CONTRADICTED_COVERAGE
            )
        )
    }


def _apply(answer: str, edits: Sequence[tuple[ClaimSpan, tuple[int, ...]]]) -> str:
    """The answer with each edited claim's markers replaced by its new citation."""

    def cited(segment: str, numbers: tuple[int, ...]) -> str:
        body = _MARKER.sub("", segment).rstrip()
        ending = ""
        while body and body[-1] in ".!?;,":
            ending = body[-1] + ending
            body = body[:-1]
        return f"{body.rstrip()} {compact(numbers)}{ending}"

    return _edited(answer, edits, cited)


def _edited(
    answer: str,
    edits: Sequence[tuple[ClaimSpan, tuple[int, ...]]],
    rewrite: Callable[[str, tuple[int, ...]], str],
) -> str:
    """The answer with each edited claim's text rewritten with its numbers, the rest as is."""
    pieces = []
    position = 0
    for claim, numbers in sorted(edits, key=lambda edit: edit[0].start):
        pieces.append(answer[position : claim.start])
        pieces.append(rewrite(answer[claim.start : claim.end], numbers))
        position = claim.end
    pieces.append(answer[position:])
    return "".join(pieces)
