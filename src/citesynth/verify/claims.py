"""An answer's claims: its factual sentences, split into clauses citing different sources.

    "Tokens expire after 30 minutes [1], while refresh tokens last 7 days [2]."
    → "Tokens expire after 30 minutes" cites [1]; "while refresh tokens last 7 days" cites [2]

A sentence is split after a citation group that is followed by more text and a later group
citing other numbers, when both pieces keep at least three words; otherwise it stays one
claim citing everything it cites.

A fenced code block is a claim of its own (`code`): it cites what the sentence introducing
it cites ("… in the following example: [4]" right above it) and is checked as a quotation
(`verify.code`). So is the inline code of a sentence that only shows it ("- Example:
`app.get_schema(routes)`", `inline`): it cites what the sentence cites, or else what the
sentence before it in its paragraph cites (the statement it exemplifies).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from citesynth.analysis import INLINE_CODE
from citesynth.citations.resolve import CANONICAL, cited_numbers, factual_spans, shows_code
from citesynth.ingest.fences import fenced_blocks
from citesynth.ingest.sentences import sentence_spans

MARKER = re.compile(rf"\s*{CANONICAL.pattern}")
_LEAD = re.compile(r"[\s,;:–—-]+")


@dataclass(frozen=True, slots=True)
class ClaimSpan:
    """A claim of the answer: its words, what it cites, and where it is in the answer."""

    text: str
    citations: tuple[int, ...]
    start: int
    end: int
    code: bool = False
    """Code the answer shows: `text` is its code, without the fences or backticks."""
    inline: bool = False
    """Code a sentence shows inline (`resolve.shows_code`); `start` and `end` are the
    sentence's, which goes with its code."""
    antecedent: str = ""
    """The claim right before it in its paragraph, when it opens by pointing back to that one
    ("This is because Y": `causes.with_antecedents`)."""


def plain(text: str) -> str:
    """`text` without citation markers, its whitespace collapsed.

    Collapsed first, as no marker holds any: `MARKER` tried at each character of a long run
    of whitespace is quadratic (30 KB of spaces in a sentence took 2.6 s).
    """
    return " ".join(MARKER.sub("", " ".join(text.split())).split())


def split_claims(answer: str) -> list[ClaimSpan]:
    """The claims of a resolved answer (canonical markers), in order."""
    claims: list[ClaimSpan] = []
    before: tuple[int, tuple[int, ...]] = (0, ())  # where the last sentence ends; its cites
    for start, end in factual_spans(answer):
        cited = tuple(dict.fromkeys(cited_numbers(answer[start:end])))
        if shows_code(answer[start:end]):
            if not cited and not _BREAK.search(answer, before[0], start):
                cited = before[1]  # the statement above it, in its paragraph, that it shows
            claims.append(_shown_code(answer, start, end, cited))
        else:
            claims.extend(_clauses(answer, start, end))
        before = (end, cited)
    claims.extend(code_claims(answer))
    return sorted(claims, key=lambda claim: claim.start)


_BREAK = re.compile(r"\n[ \t]*\n|```|~~~")
"""What ends a paragraph between two sentences: a blank line, or a fence."""


def _shown_code(answer: str, start: int, end: int, cited: tuple[int, ...]) -> ClaimSpan:
    """The inline code a sentence shows (`resolve.shows_code`), as a code claim.

    It cites what its sentence cites, or else what the sentence above it in its paragraph
    cites ("- Define your routes [3]." above "- Example: `…`"; several examples under one
    statement all cite it).
    """
    code = INLINE_CODE.search(answer, start, end)
    text = code.group(1).strip() if code else plain(answer[start:end])
    return ClaimSpan(text, cited, start, end, code=True, inline=True)


def code_claims(answer: str) -> list[ClaimSpan]:
    """The fenced code blocks of an answer, each citing what its introducing sentence cites."""
    found = []
    blocks = fenced_blocks(answer)
    for index, (start, end) in enumerate(blocks):
        lines = [line.rstrip("\r") for line in answer[start:end].split("\n")]
        closed = len(lines) > 1 and lines[-1].strip().startswith(lines[0].strip()[:3])
        body = "\n".join(lines[1 : -1 if closed else None])
        if not body.strip():
            continue
        after = blocks[index - 1][1] if index else 0
        found.append(ClaimSpan(body, _introduction(answer, after, start), start, end, code=True))
    return found


def _introduction(answer: str, after: int, start: int) -> tuple[int, ...]:
    """What the last sentence of the paragraph right above a code block cites.

    `start` is where the block starts, `after` where the paragraph may start at the
    earliest (the end of the block before). Nothing when no paragraph is between them.
    """
    before = answer[after:start].rstrip()
    paragraph = before[before.rfind("\n\n") + 1 :] if "\n\n" in before else before
    spans = sentence_spans(paragraph)
    if not spans:
        return ()
    first, last = spans[-1]
    return tuple(dict.fromkeys(cited_numbers(paragraph[first:last])))


def _clauses(answer: str, start: int, end: int) -> list[ClaimSpan]:
    markers = list(MARKER.finditer(answer, start, end))
    cuts = [start]
    for marker, following in itertools.pairwise(markers):
        here = cited_numbers(marker.group())
        later = cited_numbers(following.group())
        before = plain(answer[cuts[-1] : marker.start()])
        after = plain(answer[marker.end() : following.start()])
        if set(here) != set(later) and len(before.split()) >= 3 and len(after.split()) >= 3:
            cuts.append(marker.end())
    cuts.append(end)
    pieces = []
    for first, last in itertools.pairwise(cuts):
        lead = _LEAD.match(answer, first)
        first = lead.end() if lead else first
        text = plain(answer[first:last])
        if text:
            numbers = tuple(dict.fromkeys(cited_numbers(answer[first:last])))
            pieces.append(ClaimSpan(text, numbers, first, last))
    return pieces
