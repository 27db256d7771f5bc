"""Verification inside the answer pipeline: claims, repairs, spans, conflicts, signals.

The checking itself lives in `citesynth.verify`; this module speaks the answer contract:
spans become `EvidenceSpan`s with line numbers in the original file, verdicts become
`Claim`s, and what was found becomes the `Verification` summary and `warnings`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from citesynth.analysis import INLINE_CODE, content_terms, coverage, without_consensus
from citesynth.answers import Claim, Conflict, EvidenceSpan, Support, Verification
from citesynth.ingest.blocks import ITEM_START, LIST_MARKER
from citesynth.ingest.fences import fenced_line_numbers
from citesynth.synthesis.candidates import names_again
from citesynth.synthesis.layout import single_blank_lines
from citesynth.synthesis.leads import one_document, unlinked
from citesynth.synthesis.restated import STANDS_FOR_BEFORE
from citesynth.synthesis.sources import Source
from citesynth.synthesis.tidying import HEADING_LINE, LEAD_IN_ENDS, MARKS, drop_repeats
from citesynth.verify.base import Passage, Span, Verifier
from citesynth.verify.claims import ClaimSpan, plain
from citesynth.verify.confidence import Signals, question_coverage
from citesynth.verify.conflicts import Found, find_conflicts
from citesynth.verify.cues import PARAGRAPH_END, POINTING
from citesynth.verify.review import ClaimReview, Review, review
from citesynth.verify.trim import apply, trims

_RANK: dict[Support, int] = {"unchecked": 0, "unsupported": 1, "partial": 2, "supported": 3}


def passages(sources: Sequence[Source]) -> list[Passage]:
    """The sources as the verifier sees them: the whole chunk text, not the shown excerpt."""
    return [
        Passage(s.number, s.chunk.text, s.document, s.about, s.chunk.title, s.subject)
        for s in sources
    ]


def conflicts(sources: Sequence[Source]) -> list[Found]:
    """Where the sources disagree."""
    return find_conflicts(passages(sources))


def conflict_records(found: Sequence[Found]) -> list[Conflict]:
    """Conflicts in the answer contract."""
    return [
        Conflict(topic=f.topic, values=list(f.values), sources=list(f.sources), kind=f.kind)
        for f in found
    ]


def span(source: Source, where: Span) -> EvidenceSpan:
    """A verifier span inside `source`'s chunk as offsets and lines in the original file."""
    chunk = source.chunk
    first = chunk.start_line + chunk.text.count("\n", 0, where.start)
    return EvidenceSpan(
        char_start=chunk.char_start + where.start,
        char_end=chunk.char_start + where.end,
        start_line=first,
        end_line=first + chunk.text.count("\n", where.start, where.end),
        text=chunk.text[where.start : where.end],
        number=source.number,
    )


@dataclass(frozen=True, slots=True)
class Checked:
    """An answer after verification (and repair)."""

    text: str
    claims: list[Claim]
    support: dict[int, tuple[Support, EvidenceSpan | None]]
    """Per cited source: its best label over the claims citing it, and its best span."""
    summary: Verification
    warnings: list[str]
    review: Review
    removed: list[Claim] = field(default_factory=list)
    """Claims taken out because no source supports them."""


async def check(
    text: str, sources: Sequence[Source], verifier: Verifier, *, repair: bool = True
) -> Checked:
    """Verify every claim of `text` against `sources`; repair citations when asked."""
    by_number = {s.number: s for s in sources}
    found = await review(text, passages(sources), verifier, repair=repair)
    claims: list[Claim] = []
    support: dict[int, tuple[Support, EvidenceSpan | None]] = {}
    for item in found.claims:
        cited = item.claim.citations
        evidence: list[EvidenceSpan] = []
        if item.verdict is not None:
            evidence = [span(by_number[cited[s.passage]], s) for s in item.verdict.spans]
        claims.append(
            Claim(
                text=item.claim.text,
                citations=list(cited),
                support=item.verdict.score if item.verdict else None,
                label=item.verdict.label if item.verdict else "unchecked",
                evidence=evidence,
                documents=item.documents,
                precise=list(item.precise),
                reasons=list(item.verdict.reasons) if item.verdict else [],
                kind="code" if item.claim.code else "sentence",
            )
        )
        for number, verdict in item.alone.items():
            best = next((span(by_number[number], s) for s in verdict.spans[:1]), None)
            known = support.get(number)
            if known is None or _RANK[verdict.label] > _RANK[known[0]]:
                support[number] = (verdict.label, best)
    labels = [c.label for c in claims if c.label != "unchecked"]
    summary = Verification(
        verifier=verifier.name,
        claims=len(claims),
        supported=labels.count("supported"),
        partial=labels.count("partial"),
        unsupported=labels.count("unsupported"),
        citation_recall=_round(found.citation_recall),
        citation_precision=_round(found.citation_precision),
        repairs=len(found.repairs),
    )
    warnings = [repair.describe() for repair in found.repairs]
    weak = summary.unsupported
    if weak:
        warnings.append(f"{weak} claim(s) not supported by the source(s) they cite")
    return Checked(found.text, claims, support, summary, warnings, found)


async def without_repeats(
    checked: Checked, sources: Sequence[Source], verifier: Verifier
) -> Checked:
    """`checked` without sentences that repeat an earlier one now that repair moved citations.

    A sentence written nearly twice citing different sources is corroboration and stays
    (`drop_repeats`; the very same sentence is said once, citing both); once repair finds
    that one of them does not say it and cites the other ("… [2]." becomes "… [4]."), it
    is a repeat. What is left is verified again.
    """
    if not checked.summary.repairs:
        return checked
    text, repeated = drop_repeats(checked.text)
    if not repeated:
        return checked
    again = await check(text, sources, verifier, repair=False)
    kept = {"repairs": checked.summary.repairs, "removed": checked.summary.removed}
    note = f"dropped {repeated} sentence(s) that repeated an earlier one once repaired"
    return replace(
        again,
        summary=again.summary.model_copy(update=kept),
        review=replace(again.review, repairs=checked.review.repairs),
        warnings=[*checked.warnings, note],
        removed=checked.removed,
    )


async def cut_to_support(
    checked: Checked, sources: Sequence[Source], verifier: Verifier
) -> tuple[Checked, list[tuple[Claim, str]]]:
    """`checked` with unsupported claims cut to the leading part their sources support.

    See `citesynth.verify.trim`. The cut answer is verified again; returns it with, per cut,
    the claim as written (its reason saying what stays) and a warning naming what went.
    When a kept part does not hold up on the second look, nothing is cut.
    """
    weak = [
        (item, claim)
        for item, claim in zip(checked.review.claims, checked.claims, strict=True)
        if item.label != "supported" and not item.claim.code  # code is whole or nothing
    ]
    cuts = await trims(checked.text, [item.claim for item, _ in weak], passages(sources), verifier)
    if not cuts:
        return checked, []
    again = await check(apply(checked.text, cuts), sources, verifier, repair=False)
    held = {c.text for c in again.claims if c.label == "supported"}
    if any(cut.kept not in held for cut in cuts):
        return checked, []
    again = replace(
        again,
        summary=again.summary.model_copy(update={"repairs": checked.summary.repairs}),
        review=replace(again.review, repairs=checked.review.repairs),
    )
    written = {item.claim.start: claim for item, claim in weak}
    return again, [
        (
            written[cut.claim.start].model_copy(
                update={"reasons": [*written[cut.claim.start].reasons, cut.reason()]}
            ),
            cut.describe(checked.text),
        )
        for cut in cuts
    ]


def single_consensus(checked: Checked, text: str, documents: Mapping[int, str]) -> Checked:
    """`checked` for `text`, where consensus openings on claims citing one document went.

    `documents` maps each source number to its document (`leads.single_consensus`).
    """
    claims = [
        c.model_copy(update={"text": without_consensus(c.text)})
        if one_document(c.citations, documents)
        else c
        for c in checked.claims
    ]
    return replace(checked, text=text, claims=claims)


def relinked(checked: Checked, text: str) -> Checked:
    """`checked` for `text`, where linking words opening a sentence went (`leads.opening_links`).

    A claim keeps its text unless only its text without the linking word is in `text`.
    """
    said = plain(text)
    claims = []
    for claim in checked.claims:
        rest = unlinked(claim.text)
        if rest != claim.text and claim.text not in said and rest in said:
            claim = claim.model_copy(update={"text": rest})
        claims.append(claim)
    return replace(checked, text=text, claims=claims)


def renumbered(checked: Checked, mapping: dict[int, int]) -> Checked:
    """`checked` with every source number replaced by `mapping[number]`."""

    def evidence(spans: Sequence[EvidenceSpan]) -> list[EvidenceSpan]:
        return [
            s.model_copy(update={"number": mapping.get(s.number, s.number)})
            if s.number is not None
            else s
            for s in spans
        ]

    claims = [
        c.model_copy(
            update={
                "citations": [mapping[n] for n in c.citations],
                "precise": [mapping[n] for n in c.precise],
                "evidence": evidence(c.evidence),
            }
        )
        for c in checked.claims
    ]
    support = {
        mapping[n]: (label, evidence([span])[0] if span else None)
        for n, (label, span) in checked.support.items()
    }
    return replace(checked, claims=claims, support=support)


def signals(
    claims: Sequence[Claim],
    relevance: dict[int, float],
    found: Sequence[Found],
    *,
    markers: int,
    invalid_markers: int,
    question: str,
    text: str,
) -> Signals:
    """The confidence signals of the answer `text` to `question`.

    See `citesynth.verify.confidence`.
    """
    cited_numbers = {n for c in claims for n in c.citations}
    count = max(len(claims), 1)
    return Signals(
        retrieval=(
            sum(relevance.get(n, 0.0) for n in cited_numbers) / len(cited_numbers)
            if cited_numbers
            else 0.0
        ),
        cited=sum(bool(c.citations) for c in claims) / count,
        support=sum((c.support or 0.0) if c.citations else 0.0 for c in claims) / count,
        documents=sum(min(c.documents, 2) / 2 for c in claims) / count,
        conflict=float(any(set(f.sources) & cited_numbers for f in found)),
        invalid=invalid_markers / markers if markers else 0.0,
        coverage=question_coverage(question, text),
    )


def without_unsupported(
    text: str, claims: Sequence[Claim], review_: Review, *, question: str = ""
) -> tuple[str, list[Claim]]:
    """`text` without the claims no source supports; returns the claims removed.

    `partial` is not support: a claim only partly supported goes too. So does a claim that
    still cites nothing after repair (which cites a sentence wherever a source supports it):
    no source supports it either, and every sentence left must carry its citation. A code
    block goes with the sentence right above it, which introduces it; a sentence opening
    with a demonstrative that points back ("This is how you can do it [3].", "This line will
    be removed …") goes with the sentence right before it in its paragraph (`LEANS`): alone
    it says nothing a reader can use. So does "It can be achieved by …" ("However, it can be
    done …"). Another "It …"
    stays: a heading or the question may name what it stands for ("## Connect timeout"
    above "It defaults to five seconds"). And a pointing claim stays when the sentence it
    leans on only restated the `question` (`restates`): what it points at is what was
    asked, and nothing more. The embedded model opened "While resolving aliases …, Griffe
    also went off and loaded the private `_ast`-style sibling package" (the question,
    copied, citing nothing) and went on "To stop this automatic loading, you can pass
    `resolve_external=False` [1]", supported; griffe's docs, 2026-12-05.
    """
    pairs = []
    previous: tuple[ClaimSpan, bool] | None = None  # the claim before, and whether it goes
    for item, written in zip(review_.claims, claims, strict=True):
        goes = not written.citations or written.label != "supported"
        if item.claim.code and previous is not None and previous[1]:
            goes = goes or not text[previous[0].end : item.claim.start].strip()
        elif (
            not goes
            and previous is not None
            and previous[1]
            and _leans_on(
                text[previous[0].end : item.claim.start],
                written.text,
                previous[0],
                text[previous[0].start : previous[0].end],
            )
            and not restates(text[previous[0].start : previous[0].end], question)
        ):
            goes = True
            reason = LEANS_ON_CODE if previous[0].code else LEANS
            written = written.model_copy(update={"reasons": [*written.reasons, reason]})
        if goes and not written.citations and not written.reasons:
            written = written.model_copy(update={"reasons": [UNCITED]})
        if goes:
            pairs.append((item.claim, written))
        previous = (item.claim, goes)
    pairs = _with_lead_ins(text, pairs, list(zip(review_.claims, claims, strict=True)))
    drop = [span for span, _ in pairs]
    if not drop:
        return text, []
    pieces = []
    position = 0
    for claim in sorted(drop, key=lambda c: c.start):
        before = text[position : claim.start].rstrip(" \t")
        closing = text[claim.start : claim.end].rstrip()[-1:]
        if before[-1:] in {",", ";", ":"} and closing in {".", "!", "?"}:
            before = before[:-1] + closing  # the clause before now ends the sentence
        elif claim.code and not claim.inline:  # "… as follows [1]:" introduced it: it ends
            before = _INTRODUCING_END.sub(r"\1.", before.rstrip()) + "\n\n"
        pieces.append(before)
        position = claim.end
        while position < len(text) and text[position] in " \t.,;":
            position += 1
        opens_line = not pieces[-1] or pieces[-1].endswith("\n")
        if not opens_line and position < len(text) and not text[position].isspace():
            pieces.append(" ")
    pieces.append(text[position:])
    return without_empty_sections("".join(pieces)), [claim for _, claim in pairs]


def _with_lead_ins(
    text: str,
    pairs: list[tuple[ClaimSpan, Claim]],
    found: Sequence[tuple[ClaimReview, Claim]],
) -> list[tuple[ClaimSpan, Claim]]:
    """`pairs` (the claims that go) with the lead-in of each code block that goes.

    A sentence that introduces a block and says nothing without it ("For example, to check
    where a value came from, you can use [1]:") ends on a word that needs the block after
    it (`LEAD_IN_ENDS`); kept, it read "… you can use [1]." once its code was removed.
    """
    going = {claim.start for claim, _ in pairs}
    added = []
    for (before, written), (item, _) in itertools.pairwise(found):
        if not item.claim.code or item.claim.start not in going or before.claim.start in going:
            continue
        written_out = MARKS.sub(" ", text[before.claim.start : item.claim.start]).rstrip()
        if before.claim.code or not written_out.endswith(":"):  # it introduces the block
            continue
        said = written_out.rstrip(" \t:")
        last = re.sub(r"\W", "", said.split()[-1]).lower() if said.split() else ""
        if last not in LEAD_IN_ENDS:
            continue
        reasons = [*written.reasons, INTRODUCED]
        added.append((before.claim, written.model_copy(update={"reasons": reasons})))
    return sorted([*pairs, *added], key=lambda pair: pair[0].start)


def restates(sentence: str, question: str) -> bool:
    """Whether `sentence` only restates `question`: every content term and piece of code its.

    Citation markers aside; a sentence of fewer than three terms restates nothing. One that
    adds anything asserts it: "The name of the `[tool.griffe]` key for default search paths
    is `search_paths`." (griffe's docs, an invented key) is no restatement, and the
    sentence after it, "This key allows you to …", goes with it.
    """
    bare = MARKS.sub(" ", sentence)
    wanted = content_terms(bare)
    if not question or len(wanted) < 3 or coverage(wanted, set(content_terms(question))) < 1:
        return False
    asked = question.lower()
    return all(code.lower() in asked for code in INLINE_CODE.findall(bare))


INTRODUCED = "it introduced the code below it, which was removed, and says nothing without it"
"""The reason a lead-in goes with the code it introduced (`without_unsupported`)."""
LEANS = "it refers back to the sentence before it, which was removed"
"""The reason a supported claim is removed with the one before it (`without_unsupported`)."""
LEANS_ON_CODE = "it refers back to the code before it, which was removed"
"""The reason a supported claim is removed with the code block before it: "This will output:
`2 hours` [4]" under an example of a library the sources never name."""
UNCITED = "it cites no source, and repair found none among the retrieved ones that supports it"
"""The reason on a removed sentence that cited nothing (its label stays `unchecked`)."""


def _leans_on(between: str, claim: str, before: ClaimSpan, said: str = "") -> bool:
    """Whether `claim` opens by referring back to the claim `before` it (whose text is `said`).

    A demonstrative ("This", "These", "Such"), an opening giving the reason for or the
    consequence of the claim before ("That is why …", "For this reason, …", "The reason is
    that …": `cues.POINTING`, what `causes.with_antecedents` reads with it), a pronoun
    standing for what the claim before said ("It can be achieved by using the `--cover-xml`
    flag …" after "The `hatch test` command does not have a direct flag to emit a JUnit XML
    report."; `restated.STANDS_FOR_BEFORE`), or an opening clause naming a thing of it with a
    demonstrative ("After setting this environment variable, you can run `twine upload` as
    usual …" after the removed sentence that named `TWINE_PROXIES`, `names_again`, or after
    the removed code block that set it), with
    nothing but citation markers and punctuation `between` the two: in the same paragraph (a
    blank line, LF or CRLF, ends it), or right below a code block (what "This will output"
    is the output of).
    """
    if MARKS.sub("", between).strip(" \t\r\n.,;:!?"):
        return False
    if PARAGRAPH_END.search(between) and not before.code:
        return False
    opening = claim.lstrip()
    pointing = (_POINTS_BACK, POINTING, STANDS_FOR_BEFORE)
    if any(pattern.match(opening) is not None for pattern in pointing):
        return True
    clause = _OPENING_CLAUSE.match(opening)
    if clause is None:
        return False
    if before.code:  # "After setting this environment variable," below the removed `export`
        return _THIS_THING.search(clause.group()) is not None
    return bool(said) and names_again(clause.group(), said)


_OPENING_CLAUSE = re.compile(r"[^,;:.!?\n]{1,80}(?=,)")
"""A claim's opening clause, up to its first comma ("After setting this environment
variable,")."""
_THIS_THING = re.compile(r"\b(?:this|these|those)\s+[\w`-]", re.I)
"""A thing named with a demonstrative: below code, the code ("this environment variable",
"these settings")."""
_POINTS_BACK = re.compile(r"(?:This|These|That(?!\s+(?:said|is)\b)|Those|Such)\b(?!\s*[,:])")
_INTRODUCING_END = re.compile(r":((?:[ \t]*\[[\d,\s\-–]+\])*)$")
"""The colon ending a sentence that introduces a block, with the markers after it."""
_EMPTY_ITEM = re.compile(LIST_MARKER)
"""A list item's marker with nothing after it (`fullmatch` on a stripped line)."""
_BARE_LEAD = re.compile(
    rf"([ \t]*)({LIST_MARKER}[ \t]+)?(?:here(?:'s|’s|\s+is|\s+are)\s+(?:an?\s+|the\s+)?"
    r"(?:code\s+)?(?:examples?|snippets?)|for\s+(?:example|instance)|(?:an?\s+)?example)"
    r"[ \t]*[.:]?[ \t]*",
    re.IGNORECASE,
)
"""A line that only introduces an example below it: "Here's an example.", "1. For example:"
(an item of a list, or a line of its own). With the code below it removed, the embedded
model's arrow answer read "1. Here's an example." and went on to its next step."""
_LABEL_ITEM = re.compile(rf"[ \t]*{LIST_MARKER}[ \t]+\*\*[^*\n]+\*\*[ \t]*:?[ \t]*")
"""A list item that only labels the items below it: "- **v2**:". With its items removed (the
embedded model's made-up versioning steps for Starlette, their code in no source) it was
left above the next heading."""


def without_empty_sections(text: str) -> str:
    """`text` without headings or list items left empty, and no runs of blank lines.

    Removing every claim of a section must not leave its heading behind, nor removing an
    item's claims its number ("1." on a line of its own, as an embedded-model answer on
    ClapNQ showed: "1. / 2. **Control of substance movement** … / 3. / 4."), nor removing
    a code block the line that only introduced it (`_BARE_LEAD`), nor removing an item's
    sub-items its label ("- **v2**:" above the next heading, `_LABEL_ITEM`); the numbered
    items left are numbered again (`items_renumbered`: "2. … 4. …" read as steps a reader
    lost). Read from the end, so a heading above a label that goes goes too.
    """
    code = fenced_line_numbers(text)
    lines = [
        "" if index not in code and _EMPTY_ITEM.fullmatch(line.strip()) else line
        for index, line in enumerate(text.split("\n"))
    ]
    kept = lines_kept(lines, code, _empty)
    return items_renumbered(single_blank_lines("\n".join(kept)).strip())


def lines_kept(
    lines: Sequence[str], code: Collection[int], empty: Callable[[str, str | None], bool]
) -> list[str]:
    """`lines` without those that head or introduce nothing, read from the end.

    `empty(line, below)` says whether a line outside code (`code` holds the indexes of code
    lines) goes, `below` being the next line with text that stays ("" for a line of code,
    None at the end); read from the end, a heading over one that goes sees what follows it.
    """
    kept: list[str] = []
    below: str | None = None
    for index in range(len(lines) - 1, -1, -1):
        line = lines[index]
        if index not in code and line.strip() and empty(line, below):
            continue
        kept.append(line)
        if line.strip():
            below = "" if index in code else line
    return kept[::-1]


def _empty(line: str, below: str | None) -> bool:
    """Whether `line` heads or introduces nothing, `below` being the next line that stays.

    A heading or an item's label (`_LABEL_ITEM`) is empty when the text ends or the next
    heading follows it; a line that only introduces an example (`_BARE_LEAD`) also when it
    is a list item and the next is an item no deeper (the next step). Code, an indented
    block, a table, an image, a list or a paragraph below may be the example.
    """
    heading = below is not None and HEADING_LINE.fullmatch(below.strip()) is not None
    if HEADING_LINE.fullmatch(line.strip()) or _LABEL_ITEM.fullmatch(line):
        return below is None or heading
    lead = _BARE_LEAD.fullmatch(line)
    if lead is None:
        return False
    if below is None or heading:
        return True
    indent = len(below) - len(below.lstrip(" \t"))
    step = lead.group(2) is not None and indent <= len(lead.group(1))
    return step and ITEM_START.match(below.strip()) is not None


_NUMBERED = re.compile(r"^([ \t]*)(\d{1,3})([.)])(?=[ \t])")


def items_renumbered(text: str) -> str:
    """`text` with each run of numbered list items numbered 1, 2, 3, ... again.

    A run is the items at one indentation: blank lines, fenced code and lines indented
    deeper stay inside it, any other line ends it. A run keeps its first number when that
    is 0 or 1; otherwise it goes on from the run that ended before it at the same
    indentation ("3." after a paragraph that broke off "1.", "2."), or starts at 1 when
    there was none ("2." is left once "1." went). A heading or a line ending in ":" opens
    lists of its own, and a less indented line ends the runs deeper than it (a sub-list
    of another item starts afresh). Fenced code is never read.
    """
    code = fenced_line_numbers(text)
    lines = text.split("\n")
    runs: dict[int, int] = {}  # indentation -> the next number of the run open there
    closed: dict[int, int] = {}  # indentation -> the next number of the run that ended there
    for index, line in enumerate(lines):
        if index in code or not line.strip():
            continue
        found = _NUMBERED.match(line)
        indent = len(line) - len(line.lstrip(" \t"))
        ended = {at: n for at, n in runs.items() if not (at < indent or (found and at == indent))}
        closed.update(ended)
        runs = {at: n for at, n in runs.items() if at not in ended}
        if found is None and (HEADING_LINE.fullmatch(line.strip()) or line.rstrip().endswith(":")):
            closed = {}  # a heading or a lead-in opens lists of their own
        closed = {at: n for at, n in closed.items() if at <= indent}  # another parent's
        if found is None:
            continue
        number = int(found.group(2))
        start = closed.get(indent, 1) if number > 1 else number  # "3." goes on from "2."
        expected = runs.get(indent, start)
        if number != expected:
            lines[index] = f"{found.group(1)}{expected}{found.group(3)}{line[found.end() :]}"
        runs[indent] = expected + 1
    return "\n".join(lines)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
