"""One citation index for a whole report: each source chunk gets one number, once.

Every subtopic is answered by the answer pipeline with its own numbers `[1]`, `[2]`…; the
index gives each cited chunk the next report-wide number the first time any section cites
it and the same number every time after, and rewrites the section's markers, claims and
conflicts to those numbers. Numbers never change once given, so a section written later
(or a revision) cannot renumber what an earlier one cites.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citesynth.answers import Answer, Claim, SourceRecord
from citesynth.citations.resolve import CANONICAL, cited_numbers, compact, numbers_in, relabel
from citesynth.ingest.sentences import prose_sentences
from citesynth.report.checks import markers
from citesynth.report.compose import tidy, without_bare_markers
from citesynth.report.planning import file_title, readable
from citesynth.report.values import Observation, ReportSource, Section, Subtopic
from citesynth.synthesis.quoted import clean
from citesynth.types import document_name
from citesynth.verify.base import Passage, about_of
from citesynth.verify.claims import plain

RESEARCH_SENTENCES = 3


class CitationIndex:
    """Report-wide source numbers, given in order of first citation (see the module doc)."""

    def __init__(self, accessed: str) -> None:
        self.accessed = accessed
        self._by_chunk: dict[str, ReportSource] = {}
        self._texts: dict[str, tuple[str, str, str, str]] = {}
        """chunk id → text, document, about, title"""

    def passages(self) -> list[Passage]:
        """The cited chunks as verification reads them, under their report numbers."""
        return [
            Passage(source.number, *self._texts[source.chunk_id])
            for source in self.sources
            if source.chunk_id in self._texts
        ]

    @property
    def sources(self) -> list[ReportSource]:
        """The index, by number."""
        return sorted(self._by_chunk.values(), key=lambda s: s.number)

    def number(self, record: SourceRecord) -> int:
        """The report's number for this source's chunk (a new one the first time)."""
        known = self._by_chunk.get(record.chunk_id)
        if known is None:
            known = ReportSource(
                number=len(self._by_chunk) + 1,
                chunk_id=record.chunk_id,
                title=readable(record.title) or file_title(record.path),
                path=record.path,
                location=_distinct_location(record),
                url=record.url,
                accessed=self.accessed,
                snippet=" ".join(record.text.split())[:240],
            )
            self._by_chunk[record.chunk_id] = known
            document = document_name(record.path, record.record_id)
            about = about_of(record.title, record.heading_path)
            self._texts[record.chunk_id] = (record.text, document, about, record.title)
        return known.number

    def keep(self, cited: set[int]) -> tuple[CitationIndex, dict[int, int]]:
        """An index of only the sources in `cited`, renumbered, and old → new numbers.

        After the report is cut to its length, a source only a cut sentence cited leaves
        the index, and the numbers close up: 1, 2, … in the same order, so nothing swaps
        places. This index is left as it is: a revision goes on numbering from it.
        """
        mapping = {old: new for new, old in enumerate(sorted(cited & self.numbers()), start=1)}
        kept = CitationIndex(self.accessed)
        kept._texts = self._texts
        kept._by_chunk = {
            chunk: source.model_copy(update={"number": mapping[source.number]})
            for chunk, source in self._by_chunk.items()
            if source.number in mapping
        }
        return kept, mapping

    def numbers(self) -> set[int]:
        """The numbers given so far."""
        return {source.number for source in self._by_chunk.values()}

    def section(
        self, subtopic: Subtopic, answer: Answer, observations: Sequence[Observation]
    ) -> Section:
        """The subtopic's answer as a report section, in the report's numbers."""
        if answer.fallback is not None:
            return self._research_output(subtopic, answer, observations)
        if answer.not_found:
            return Section(
                title=subtopic.title,
                subtopic=subtopic.title,
                text=not_found_text(answer),
                not_found=True,
                observations=list(observations),
            )
        # Uncited sentences no source supports were already taken out by verification
        # (removed claims without citations); those left (keep_unsupported) go here.
        uncited = [
            *answer.uncited_claims,
            *(c.text for c in answer.removed_claims if not c.citations),
        ]
        kept_text = _without(answer.answer, answer.uncited_claims)
        if not plain(kept_text).strip():  # every sentence the writer wrote cited nothing
            return Section(
                title=subtopic.title,
                subtopic=subtopic.title,
                text=not_found_text(answer),
                not_found=True,
                uncited=uncited,
                observations=list(observations),
            )
        records = {record.number: record for record in answer.sources}
        cited = set(cited_numbers(answer.answer)) | {c.number for c in answer.citations}
        cited |= {n for conflict in answer.conflicts for n in conflict.sources}
        mapping = {n: self.number(records[n]) for n in sorted(cited) if n in records}
        written = Section(
            title=subtopic.title,
            subtopic=subtopic.title,
            text=kept_text,
            uncited=uncited,
            confidence=answer.confidence,
            claims=answer.claims,
            removed_claims=answer.removed_claims,
            conflicts=answer.conflicts,
            observations=list(observations),
            warnings=[_in_report_terms(w, mapping, records) for w in answer.warnings],
            prompt_tokens=answer.usage.prompt_tokens,
            completion_tokens=answer.usage.completion_tokens,
        )
        section = renumbered(written, mapping)
        text, unknown = _known_only(section.text, self.numbers())
        if unknown:
            note = f"removed marker(s) {', '.join(unknown)} naming no source of the report"
            section = section.model_copy(update={"warnings": [*section.warnings, note]})
        return section.model_copy(update={"text": without_bare_markers(text)})

    def _research_output(
        self, subtopic: Subtopic, answer: Answer, observations: Sequence[Observation]
    ) -> Section:
        """What research found, as copied and cited sentences, when writing failed."""
        sentences = []
        for record in answer.sources[:RESEARCH_SENTENCES]:
            spans = prose_sentences(record.text)
            if spans:
                first = clean(record.text[spans[0][0] : spans[0][1]])
                sentences.append(f"{first[:-1]} [{self.number(record)}]{first[-1]}")
        reason = answer.fallback.reason if answer.fallback else "the writer failed"
        return Section(
            title=subtopic.title,
            subtopic=subtopic.title,
            text=" ".join(sentences) or not_found_text(answer),
            not_found=not sentences,
            fallback=reason,
            observations=list(observations),
        )


def _known_only(text: str, known: set[int]) -> tuple[str, list[str]]:
    """`text` without markers naming a number the index does not have, and those markers."""
    removed = []
    for marker in markers(text):
        if not set(numbers_in(marker)) <= known:
            text = text.replace(" " + marker, "", 1).replace(marker, "", 1)
            removed.append(marker)
    return text, removed


def _in_report_terms(
    warning: str, mapping: dict[int, int], records: dict[int, SourceRecord]
) -> str:
    """An answer's warning with its source numbers as the report's, or as locations.

    A section is an answer with its own numbers; in the report a source it cited has the
    report's number, and one it did not cite (a retrieved passage left unused, a citation
    repair moved away from) has none: it is named by where it is.
    """

    def report_terms(match: re.Match[str]) -> str:
        numbers = numbers_in(match.group())
        if all(n in mapping for n in numbers):
            return compact([mapping[n] for n in numbers])
        return (
            "("
            + "; ".join(
                _distinct_location(records[n]) if n in records else f"[{n}]" for n in numbers
            )
            + ")"
        )

    return CANONICAL.sub(report_terms, warning)


def _without(text: str, sentences: Sequence[str]) -> str:
    """`text` without `sentences` (a report cites every sentence or leaves it out)."""
    for sentence in sentences:
        text = text.replace(sentence, "", 1)
    return tidy(text) if sentences else text


def _distinct_location(record: SourceRecord) -> str:
    """Where a source is, told apart from the other chunks of the same JSONL record.

    A record's location is `corpus.jsonl#telemetry` for all of its chunks; in a report's
    Sources list each entry adds the lines inside the record's text.
    """
    if record.record_id is None or record.page is not None:
        return record.location
    return f"{record.location}:L{record.start_line}-L{record.end_line}"


def not_found_text(answer: Answer) -> str:
    """A plain not-found for a section: what was nearby, and how to ask again."""
    nearby = ", ".join(dict.fromkeys(record.location for record in answer.sources[:3]))
    where = f" The closest passages were {nearby}." if nearby else ""
    return (
        f"Not found in the sources.{where} Rephrasing this subtopic in the documents' own "
        "terms, or narrowing it, may find more."
    )


def renumbered(section: Section, mapping: dict[int, int]) -> Section:
    """`section` with every source number replaced by `mapping[number]`."""
    return section.model_copy(
        update={
            "text": relabel(section.text, mapping),
            "claims": [_claim(claim, mapping) for claim in section.claims],
            "removed_claims": [_claim(claim, mapping) for claim in section.removed_claims],
            "conflicts": [
                c.model_copy(update={"sources": [mapping.get(n, n) for n in c.sources]})
                for c in section.conflicts
            ],
        }
    )


def _claim(claim: Claim, mapping: dict[int, int]) -> Claim:
    return claim.model_copy(
        update={
            "citations": [mapping.get(n, n) for n in claim.citations],
            "precise": [mapping.get(n, n) for n in claim.precise],
            "evidence": [
                e.model_copy(update={"number": mapping.get(e.number, e.number)})
                if e.number is not None
                else e
                for e in claim.evidence
            ],
        }
    )
