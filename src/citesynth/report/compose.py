"""A report's text: the template of DESIGN §7 filled from its sections.

    # Title
    ## Executive Summary     the first cited sentence of each answered section, and every
                             disagreement the sections state, in the report's numbers
    ## Key Findings          one `###` subsection per subtopic (its answer, or a plain
                             not-found with what was nearby)
    ## Conclusions           how many subtopics the sources answer, where they disagree
    ## Sources               `[n] Title. path:Lx-Ly. Accessed DATE.`

The length is in words (`max_words`, the body without Sources): when the findings are
longer, each section is cut at a sentence end to its share of the budget (a short section
keeps everything and its unused share goes to the others), before the summary is drawn
from them, so the summary never cites a sentence that was cut.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence

from citesynth.citations.resolve import CANONICAL, factual_spans, introduces_code
from citesynth.ingest.fences import fenced_blocks, outside_fences
from citesynth.ingest.sentences import sentence_spans
from citesynth.report.values import ReportSource, Section
from citesynth.verify.claims import plain

_CITED_END = re.compile(r"\][.!?]\s+")
"""A marker closing a sentence: "… [32]. ours repairs …" is two sentences, whatever
case or code quote the second opens with (the sentence splitter keeps them as one)."""
_MARKERS_ONLY = re.compile(rf"(?<=[.!?])[ \t]+(?:{CANONICAL.pattern}[ \t]*)+[.!?]?(?=\s|$)")
"""A sentence of markers alone ("… [48]. [50] [50]."), left when its words were cut."""

DISAGREE = "The sources disagree"


def words(text: str) -> int:
    """Words as the length limit counts them (citation markers are not words)."""
    return len(plain(text).split())


def fit(sections: Sequence[Section], budget: int) -> list[Section]:
    """The sections cut at sentence ends so that together they hold at most `budget` words."""
    sizes = [words(s.text) for s in sections]
    shares = _shares(sizes, budget)
    return [
        section if size <= share else _cut(section, share)
        for section, size, share in zip(sections, sizes, shares, strict=True)
    ]


def _shares(sizes: Sequence[int], budget: int) -> list[int]:
    """Equal shares of `budget`, what a short section leaves going to the longer ones."""
    shares = [0] * len(sizes)
    left = budget
    open_ = sorted(range(len(sizes)), key=lambda i: sizes[i])
    while open_:
        share = left // len(open_)
        index = open_.pop(0)
        shares[index] = min(sizes[index], share)
        left -= shares[index]
    return shares


def _cut(section: Section, share: int) -> Section:
    """`section` cut to about `share` words, after a whole sentence or code block.

    It keeps its first unit (and a heading or label with the unit under it) whatever its
    length; a sentence that introduces a code block the cut leaves out goes with it.
    """
    text = section.text
    blocks = fenced_blocks(text)
    code = {start for start, _ in blocks}
    units = sorted([*outside_fences(text, sentence_spans(text), blocks), *blocks])
    kept: list[tuple[int, int]] = []
    content = 0  # units kept that are no label or heading
    count = 0
    for start, end in units:
        count += words(text[start:end])
        if count > share and content:
            last_start, last_end = kept[-1]
            if content > 1 and last_start not in code and introduces_code(text, last_end, code):
                kept.pop()
            break
        kept.append((start, end))
        content += not _LABEL.fullmatch(text[start:end])
    shown = text[: kept[-1][1] if kept else 0].rstrip()
    if not blocks or blocks[-1][1] < len(shown):  # never strip lines inside code
        lines = shown.splitlines()
        while lines and _LABEL.fullmatch(lines[-1].strip()):
            lines.pop()  # a document's label (or heading) with nothing left under it
        shown = "\n".join(lines).rstrip()
    left = plain(shown)
    return section.model_copy(
        update={"text": shown, "claims": [c for c in section.claims if plain(c.text) in left]}
    )


_LABEL = re.compile(r"\s*(?:\*\*[^*\n]+\*\*:?|#{1,6}[ \t][^\n]*)\s*")
"""A line that only heads what follows: a document's bold label or a Markdown heading."""


def without_repeats(
    sections: Sequence[Section], droppable: Collection[str] = frozenset()
) -> list[Section]:
    """Each sentence once: one a section already said (same words) leaves later sections.

    Subtopics overlap, so their answers can share a sentence; the report says it where it
    first comes. A section left with nothing refers to the one that said it, or, when its
    title is `droppable` (a cluster nobody asked for), is left out.
    """
    seen: dict[frozenset[str], str] = {}
    kept: list[Section] = []
    for section in sections:
        if section.not_found or section.fallback:
            kept.append(section)
            continue
        text = section.text
        drop: list[tuple[int, int]] = []
        first_owner = ""
        for start, end in _pieces(text):
            key = frozenset(plain(text[start:end]).lower().split())
            if len(key) < 4:
                continue
            if key in seen:
                drop.append((start, end))
                first_owner = first_owner or seen[key]
            else:
                seen[key] = section.title
        if not drop:
            kept.append(section)
            continue
        shown = tidy(_removed(text, drop))
        if not plain(shown).strip():
            if section.title in droppable:
                continue
            shown = f"What the sources say on this is given under “{first_owner}” above."
        left = plain(shown)
        kept.append(
            section.model_copy(
                update={
                    "text": shown,
                    "claims": [c for c in section.claims if plain(c.text) in left],
                }
            )
        )
    return kept


def _pieces(text: str) -> Iterator[tuple[int, int]]:
    """The factual sentences of `text`, also cut after each marker that ends a sentence."""
    for start, end in factual_spans(text):
        for cut in _CITED_END.finditer(text, start, end):
            yield start, cut.start() + 2
            start = cut.end()
        if start < end:
            yield start, end


def _removed(text: str, spans: Sequence[tuple[int, int]]) -> str:
    pieces = []
    position = 0
    for start, end in spans:
        pieces.append(text[position:start])
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def without_bare_markers(text: str) -> str:
    """`text` without sentences of markers alone ("… [48]. [50] [50].")."""
    return _MARKERS_ONLY.sub("", text)


def tidy(text: str) -> str:
    """No blank runs, no trailing spaces, no empty document label, no markers-only sentence."""
    lines = [" ".join(line.split()) for line in without_bare_markers(text).splitlines()]
    out: list[str] = []
    for index, line in enumerate(lines):
        label = line.startswith("**") and line.endswith("**")
        following = next((x for x in lines[index + 1 :] if x), "")
        if label and (not following or (following.startswith("**") and following.endswith("**"))):
            continue
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip()


def executive_summary(sections: Sequence[Section], budget: int | None = None) -> str:
    """The first cited sentence of each answered section and every disagreement stated.

    Within `budget` words: a sentence that does not fit is left for the findings.
    """
    chosen: list[str] = []
    for section in sections:
        if section.not_found:
            continue
        spans = [" ".join(section.text[a:b].split()) for a, b in factual_spans(section.text)]
        cited = [s for s in spans if "[" in s and not s.startswith(DISAGREE)]
        chosen.extend(cited[:1])
        chosen.extend(s for s in spans if s.startswith(DISAGREE) and s not in chosen)
    if budget is not None:
        kept: list[str] = []
        for sentence in chosen:
            if sum(map(words, kept)) + words(sentence) <= budget:
                kept.append(sentence)
        chosen = kept or chosen[:1]
    if not chosen:
        return "The sources answer none of the subtopics; see Key Findings for what was nearby."
    return " ".join(chosen)


def conclusions(sections: Sequence[Section], across: Sequence[str] = ()) -> str:
    """How much the sources answer and where they disagree (the disagreements cited).

    The disagreements are those the sections state (the answer pipeline states a conflict
    only when it is on the point asked), not every difference found among the passages,
    and `across`: those between sources of different sections, on the point asked.
    """
    missing = [s.title for s in sections if s.not_found]
    answered = len(sections) - len(missing)
    parts = [f"The sources answer {answered} of the {len(sections)} subtopics"]
    parts[0] += f"; nothing was found on {_listed(missing)}." if missing else "."
    stated = list(dict.fromkeys([*_disagreements(sections), *across]))
    if stated:
        parts.append("Where they disagree, both sides are given:")
        parts.extend(f"- {sentence}" for sentence in stated)
    elif answered:
        parts.append("No two of the cited sources were found to disagree on these subtopics.")
    removed = sum(len(s.removed_claims) for s in sections)
    if removed:
        parts.append(
            f"{removed} claim(s) that no source supports were left out (see the report's checks)."
        )
    return "\n".join(parts)


def markdown(
    title: str,
    summary: str,
    sections: Sequence[Section],
    closing: str,
    sources: Sequence[ReportSource],
) -> str:
    """The whole report as Markdown, in the template's order."""
    findings = "\n\n".join(f"### {s.title}\n\n{s.text.strip()}" for s in sections)
    listed = "\n".join(source.entry for source in sources) or "No source was cited."
    return (
        f"# {title}\n\n## Executive Summary\n\n{summary}\n\n## Key Findings\n\n{findings}\n\n"
        f"## Conclusions\n\n{closing}\n\n## Sources\n\n{listed}\n"
    )


def body(markdown_text: str) -> str:
    """The report without its Sources section (what the length limit counts)."""
    return markdown_text.split("\n## Sources\n", 1)[0]


def _disagreements(sections: Sequence[Section]) -> list[str]:
    """The disagreement statements the sections make, in order."""
    found = []
    for section in sections:
        for start, end in factual_spans(section.text):
            sentence = " ".join(section.text[start:end].split())
            if sentence.startswith(DISAGREE):
                found.append(sentence)
    return found


def _listed(titles: Sequence[str]) -> str:
    quoted = [f'"{t}"' for t in titles]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + f" and {quoted[-1]}"
