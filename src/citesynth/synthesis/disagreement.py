"""No false consensus: when the sources disagree on the point asked, the answer says so.

Conflicts are found before writing (`verify.conflicts`) and named in the writer's prompt.
After writing, whatever the writer did, this step

- drops what echoes the prompt's internal note ("Note: these sources disagree ...", or a
  copied "- topic: [1] says 100, [2] says 10" line): the reader gets the statement below;
- removes a consensus phrase ("multiple sources report", "sources agree", ...) from a
  sentence citing both sides of a conflict, and the citation of the side whose value the
  sentence does not state;
- adds one sentence per conflict on the point asked, each value with its own citation:
  "The sources disagree on the default pool size: [1] says 100 connections; [2] says 10."

A conflict is on the point asked when it is about what the question asks (the two
sentences share at least two of the question's content terms and most of them: "When was
the company founded?" and "The company was founded in 1998 / 2001 ..."), whatever the
writer cited; or when the
answer cites one of its sources and either states one of its values or the topic shares two
of the question's terms (the only one of a one-term question). One shared word is not
enough: a question on retries is not about "the default request timeout".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from citesynth.analysis import CONSENSUS, content_terms
from citesynth.answers import Claim, EvidenceSpan, Support
from citesynth.synthesis.sources import Source
from citesynth.synthesis.verifying import span
from citesynth.verify.analysed import passage_sentences
from citesynth.verify.base import Span
from citesynth.verify.conflicts import NEGATION, Found, describe

_NOTE = re.compile(r"^\s*(?:\*\*)?note:?(?:\*\*)?\s.*\bdisagree", re.I)
_NOTE_LINE = re.compile(r"^\s*[-*•]\s.*\[\d+\] says .*\[\d+\] says ", re.I)
"""A copied line of the note: "- topic: [1] says 100, [2] says 10"."""
_ASKED_SHARE = 0.6
"""Share of the question's content terms a conflict's topic holds to be what is asked."""
_MARKERS = re.compile(r"\s*\[(\d+(?:\s*[-,]\s*\d+)*)\]")


def on_point(
    found: Sequence[Found], question: str, text: str, cited: set[int] | None
) -> list[Found]:
    """The conflicts the answer must state (see the module docstring).

    `cited` None: the answer was emptied (no claim held up), so any conflict on the
    question's topic is what the sources say.
    """
    asked = set(content_terms(question))
    lowered = text.lower()
    chosen = []
    for conflict in found:
        shared = len(asked & set(content_terms(conflict.topic)))
        topical = shared >= min(2, len(asked)) > 0
        stated = any(v.lower() in lowered for v in conflict.values if conflict.kind != "negation")
        answered = cited is None or bool(cited & set(conflict.sources))
        if asks(conflict, question) or (answered and (topical or stated)):
            chosen.append(conflict)
    return chosen


def asks(conflict: Found, question: str) -> bool:
    """Whether the conflict's topic is what `question` asks (see the module docstring)."""
    asked = set(content_terms(question))
    shared = len(asked & (conflict.subject or set(content_terms(conflict.topic))))
    return shared >= 2 and shared >= _ASKED_SHARE * len(asked)


def about(conflict: Found) -> str:
    """What a conflict is about, for a sentence: "the default pool size"."""
    return _lower_first(conflict.topic.rstrip(" .…"))


def statement(conflict: Found) -> str:
    """One sentence stating both sides, each with its own citation."""
    (one, two), (n, m) = conflict.values, conflict.sources
    if conflict.kind == "negation":
        return f'The sources disagree: [{n}] says "{_quote(one)}"; [{m}] says "{_quote(two)}".'
    return f"The sources disagree on {about(conflict)}: [{n}] says {one}; [{m}] says {two}."


def _bare(line: str) -> str:
    """A line as an echo of the note is matched: its marks, markers and case aside.

    The embedded model copied "- [3] and [5] disagree on whether: Install packages build."
    and the answer's layout took its opening "[3]" for an echoed source header, leaving
    "And [5] disagree on whether: …" (build's docs, 2026-12-05).
    """
    bare = " ".join(_MARKERS.sub(" ", line).split()).lstrip("-*• ").lower().rstrip(".")
    return bare.removeprefix("and ")


def tidy(text: str, found: Sequence[Found]) -> str:
    """`text` without echoes of the prompt's note and without false consensus."""
    if not found:
        return text
    echoes = {_bare(line) for line in describe(found).splitlines()}
    kept_lines = [
        line
        for line in text.splitlines()
        if not _NOTE.match(line) and not _NOTE_LINE.match(line) and _bare(line) not in echoes
    ]
    text = "\n".join(kept_lines).strip()
    for conflict in found:
        text = _no_consensus(text, conflict)
    return text


def state(
    text: str,
    claims: Sequence[Claim],
    found: Sequence[Found],
    question: str,
    sources: Sequence[Source],
    cited: set[int] | None,
    *,
    writer_not_found: bool = False,
) -> tuple[str, list[Claim], list[Found]]:
    """The answer with a statement of each on-point disagreement (at most three) added.

    `cited` None: the answer was emptied (see `on_point`). `writer_not_found`: the writer
    said the sources do not answer; when they disagree on exactly what was asked (`asks`),
    they do answer, twice: the statements replace the not-found.
    """
    if writer_not_found:
        chosen = [c for c in found if asks(c, question)][:3]
        text = "" if chosen else text
    else:
        chosen = on_point(found, question, text, cited)[:3]
    if not chosen:
        return text, list(claims), []
    said = "\n".join(statement(c) for c in chosen)
    text = f"{text.rstrip()}\n\n{said}" if text.strip() else said
    return text, [*claims, *(stated(c, sources) for c in chosen)], chosen


def with_sides(
    support: Mapping[int, tuple[Support, EvidenceSpan | None]], statements: Sequence[Claim]
) -> dict[int, tuple[Support, EvidenceSpan | None]]:
    """Per-source support, with each side of a stated disagreement holding its own value."""
    found = dict(support)
    for claim in statements:
        for evidence in claim.evidence:
            if evidence.number is not None:
                found.setdefault(evidence.number, ("supported", evidence))
    return found


def stated(conflict: Found, sources: Sequence[Source]) -> Claim:
    """The statement of a conflict as a claim: both values, located in their sources."""
    by_number = {s.number: s for s in sources}
    evidence = []
    for number, value in zip(conflict.sources, conflict.values, strict=True):
        source = by_number.get(number)
        where = source.chunk.text.find(value) if source else -1
        if source is not None and where >= 0:  # the sentence that holds the value
            start, end = next(
                ((a, b) for a, b in passage_sentences(source.chunk.text) if a <= where < b),
                (where, where + len(value)),
            )
            evidence.append(span(source, Span(0, start, end)))
    return Claim(
        text=statement(conflict),
        citations=list(conflict.sources),
        support=1.0,
        label="supported",
        evidence=evidence,
        documents=2,
        precise=list(conflict.sources),
        reasons=["the sources disagree: each value is quoted from the source cited with it"],
    )


def _no_consensus(text: str, conflict: Found) -> str:
    """Sentences citing both sides lose the consensus phrase and the unstated side's citation."""
    n, m = conflict.sources
    values = dict(zip(conflict.sources, conflict.values, strict=True))
    pieces = re.split(r"(?<=[.!?])(\s+)", text)
    for index, sentence in enumerate(pieces):
        numbers = {
            int(x) for group in _MARKERS.findall(sentence) for x in re.findall(r"\d+", group)
        }
        if not {n, m} <= numbers:
            continue
        sentence = CONSENSUS.sub("", sentence, count=1)
        sentence = sentence[:1].upper() + sentence[1:]
        if conflict.kind == "negation":  # keep the side whose polarity the sentence has
            negated = bool(NEGATION.search(sentence))
            for number in (n, m):
                if bool(NEGATION.search(values[number])) != negated:
                    sentence = _drop_citation(sentence, number)
        else:
            for number in (n, m):
                other = m if number == n else n
                if values[number].lower() not in sentence.lower() and values[other].lower() in (
                    sentence.lower()
                ):
                    sentence = _drop_citation(sentence, number)
        pieces[index] = sentence
    return "".join(pieces)


def _drop_citation(sentence: str, number: int) -> str:
    def keep(match: re.Match[str]) -> str:
        numbers = [x for x in re.split(r"\s*,\s*", match.group(1)) if x != str(number)]
        return f" [{','.join(numbers)}]" if numbers else ""

    return _MARKERS.sub(keep, sentence)


def _quote(text: str) -> str:
    text = " ".join(text.split()).rstrip(".")
    return text if len(text) <= 160 else text[:157] + "..."


def _lower_first(text: str) -> str:
    first = text.split(" ", 1)[0]
    return text if first.isupper() or first[1:2].isupper() else text[:1].lower() + text[1:]
