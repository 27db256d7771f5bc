"""Attribution phrases around a claim, turned into the citation they already are.

Small models wrap a fact in words about its source: "According to [2], the pool holds ten
connections.", "The text in source [1] states that retries back off.", "Retries back off,
as stated in [1]." (or "in limits.md [1]"). The reader learns nothing from the wrapping
that the marker does not say, and the claim the verifier checks carries words ("the text
states") that no source holds. `plain_attributions` keeps the fact and its citation:
"The pool holds ten connections [2].", "Retries back off [1]."

Only wrappings that name a cited source by its marker are rewritten, and only with verbs
that report, never with ones that hedge ("[1] suggests that …" stays as it is).

A sentence that opens by saying several sources agree ("Multiple sources report that …")
but cites one document says something false about its sources; `single_consensus` keeps
what it reports and drops the opening.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from citesynth.analysis import without_consensus
from citesynth.citations.resolve import (
    SUBJECT_VERBS,
    cited_numbers,
    compact,
    plural_verb,
    verb_pattern,
)
from citesynth.ingest.fences import outside_fences
from citesynth.ingest.sentences import sentence_spans
from citesynth.synthesis.tidying import HEADING_LINE

_MARK = r"\[\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*\]"
_MARKS = rf"{_MARK}(?:\s*(?:,|and|&)?\s*{_MARK})*"
_NOUN = (
    r"(?:(?:the\s+)?(?:text|information|passage|document|article|excerpt|context)"
    r"\s+(?:in|of|from)\s+)?(?:the\s+)?(?:sources?|documents?|documentation|docs|guides?"
    r"|passages?|references?|articles?|pages?|sections?)?"
)
_FILE = (
    r"(?:(?:the\s+)?(?:file\s+)?`?[\w./-]+\.(?:md|markdown|rst|txt|py|html?|pdf|jsonl|json|ya?ml"
    r"|toml|ipynb)(?:#[\w.-]+)?`?(?:\s+(?:file|page|guide|section))?\s*)?"
)
"""A file the model names beside the marker ("as stated in advanced/limits.md [1]")."""
_REPORTED_WORDS = (
    "stated|mentioned|described|noted|explained|reported|shown|indicated|documented"
    "|outlined|specified|detailed|confirmed"
)
_REPORTED = rf"(?:{_REPORTED_WORDS})"
_KEEPS_ITS_SUBJECT = frozenset("provides gives lists suggests recommends".split())
"""Verbs after which what follows is no claim of its own: "[1] lists three options", "[1]
suggests that …" (a hedge). Their sentence keeps a subject: "The source lists …"."""
_REPORTS = rf"(?:{verb_pattern(v for v in SUBJECT_VERBS if v not in _KEEPS_ITS_SUBJECT)})"
_LEAD = re.compile(
    rf"(?:\b(?:according\s+to|as\s+{_REPORTED}\s+(?:in|by)|based\s+on|per)\s+{_NOUN}\s*{_FILE}"
    rf"(?P<after>{_MARKS})\s*,?\s*"
    rf"|(?:the\s+)?{_NOUN}\s*{_FILE}(?P<subject>{_MARKS})\s+(?:also\s+)?{_REPORTS}:?\s+"
    rf"(?:that\s+)?"
    rf"|(?:this|it|that)\s+(?:can\s+be|is|was)\s+(?:also\s+)?(?:{_REPORTED_WORDS}|verified|seen"
    rf"|found)\s+(?:in\s+{_NOUN}\s*{_FILE})?(?P<pointed>{_MARKS})\s*,?\s+which\s+(?:also\s+)?"
    rf"{_REPORTS}\s+(?:that\s+)?)",
    re.IGNORECASE,
)
_TRAIL = re.compile(
    rf",?\s*\(?\b(?:according\s+to|as\s+{_REPORTED}\s+(?:in|by)|per)\s+{_NOUN}\s*{_FILE}"
    rf"(?P<marks>{_MARKS})\)?(?P<end>\s*[.!]?\s*)$",
    re.IGNORECASE,
)
_SOURCE_SUBJECT = re.compile(
    rf"(?:the\s+)?{_NOUN}\s*{_FILE}(?P<marks>{_MARKS})\s+"
    rf"(?P<rest>(?:also\s+)?(?P<verb>{verb_pattern(SUBJECT_VERBS)})\b.*)",
    re.IGNORECASE | re.DOTALL,
)
"""A marker as the subject of a sentence no rewriting makes a plain claim of."""
_ENDING_MARKS = re.compile(rf"\s*(?P<marks>{_MARK}(?:\s*{_MARK})*)\s*$")


def plain_attributions(text: str) -> tuple[str, int]:
    """Resolved `text` with attribution wrappings turned into citations; how many changed."""
    return _rewritten(text, _plain)


def single_consensus(text: str, documents: Mapping[int, str]) -> tuple[str, int]:
    """Resolved `text` without consensus openings on sentences citing fewer than two documents.

    `documents` maps each source number to its document. "Multiple sources report that the
    pool holds ten [3]." → "The pool holds ten [3]."; a sentence whose markers name two
    documents keeps its opening (whether they agree is verification's to say).
    """

    def plain(sentence: str) -> str:
        lone = one_document(cited_numbers(sentence), documents)
        return without_consensus(sentence) if lone else sentence

    return _rewritten(text, plain)


_LINK = re.compile(
    r"(?:(?:therefore|however|thus|hence|consequently|additionally|moreover|furthermore|also"
    r"|so|finally|in\s+addition|as\s+a\s+result|in\s+any\s+case|for\s+(?:example|instance)"
    r"|in\s+fact|instead|similarly|likewise|on\s+the\s+other\s+hand),\s+)?"
    r"(?:it\s+is\s+(?:important|worth)\s+(?:to\s+)?not(?:e|ing)\s+that\s+)?",
    re.IGNORECASE,
)
"""A word linking a sentence to one before it ("Therefore, …", "However, it is important to
note that …", "For example, …": an example of nothing said), or a phrase that only asks to
be noticed."""
_HEADED = re.compile(rf"[ \t]*(?:{HEADING_LINE.pattern})[ \t]*\n\s*")
"""A heading line of the answer (`tidying.HEADING_LINE`) and the line break after it."""


def opening_links(text: str) -> tuple[str, int]:
    """`text` without a linking word on a sentence that nothing comes before; how many went.

    The answer's first sentence, and the first under a heading of it, link to nothing:
    "Therefore, you can't set this option if …" opened an embedded answer whose first
    sentence verification had removed, and "However, it is important to note that you must
    never call `bind()` …" another. They read "You can't set this option if …", "You must
    never call `bind()` …". Code blocks are left as written.
    """
    previous: tuple[int, int] | None = None

    def opening(start: int, end: int) -> int | None:
        """Where the sentence at `start` opens, if nothing comes before it; else None."""
        nonlocal previous
        after_heading = (
            previous is not None
            and HEADING_LINE.fullmatch(text[previous[0] : previous[1]].strip()) is not None
        )
        first = start == len(text) - len(text.lstrip())
        previous = (start, end)
        headed = _HEADED.match(text, start, end)  # "**Limits**\nHowever, …" is one span
        if headed:
            return headed.end()
        return start if first or after_heading else None

    return _rewritten(text, unlinked, opening)


def unlinked(sentence: str) -> str:
    """`sentence` without an opening linking word (`_LINK`), when three words stay."""
    found = _LINK.match(sentence)
    rest = sentence[found.end() :] if found else sentence
    if not found or not found.group() or len(rest.split()) < 3:
        return sentence
    return _capitalised(rest)


def one_document(numbers: Iterable[int], documents: Mapping[int, str]) -> bool:
    """Whether the source `numbers` name fewer than two documents.

    `documents` maps each source number to its document; a number it lacks counts as a
    document of its own.
    """
    return len({documents.get(n, f"#{n}") for n in numbers}) < 2


def _rewritten(
    text: str,
    rewrite: Callable[[str], str],
    opening: Callable[[int, int], int | None] | None = None,
) -> tuple[str, int]:
    """`text` with each sentence outside code fences rewritten; how many changed.

    `opening`, given a sentence's span, says where to rewrite it from, or None to leave it.
    """
    pieces: list[str] = []
    position = 0
    changed = 0
    for span_start, end in outside_fences(text, sentence_spans(text)):
        start = span_start if opening is None else opening(span_start, end)
        if start is None:
            continue
        sentence = text[start:end]
        plain = rewrite(sentence)
        if plain != sentence:
            pieces.append(text[position:start] + plain)
            position = end
            changed += 1
    if not changed:
        return text, 0
    pieces.append(text[position:])
    return "".join(pieces), changed


def _plain(sentence: str) -> str:
    """One sentence without its attribution wrapping (unchanged when it has none)."""
    body, numbers = sentence, []
    lead = _LEAD.match(body)
    rest = body[lead.end() :] if lead else ""
    if lead and len(rest.split()) >= 3:
        marks = lead.group("after") or lead.group("subject") or lead.group("pointed")
        numbers.extend(cited_numbers(marks))
        body = _capitalised(_unquoted(rest))
    else:
        body = _sourced(body, numbers)
    trail = _TRAIL.search(body)
    if trail and len(body[: trail.start()].split()) >= 3:
        numbers.extend(cited_numbers(trail.group("marks")))
        body = body[: trail.start()] + trail.group("end").strip()
    if not numbers:
        return sentence
    stop = body[-1] if body[-1:] in (".", "!") else ""
    core = body[: len(body) - len(stop)].rstrip()
    ending = _ENDING_MARKS.search(core)
    if ending:
        numbers.extend(cited_numbers(ending.group("marks")))
        core = core[: ending.start()].rstrip()
    return f"{core.rstrip(',;: ')} {compact(numbers)}{stop or '.'}"


def _sourced(sentence: str, numbers: list[int]) -> str:
    """`sentence` with a marker as its subject made "the source", the marker into `numbers`.

    "[5] provides an example where HTTPX does not follow redirects." reads "The source
    provides an example where … [5].": a claim's text loses its markers, and repair puts
    the citation it keeps at the end, so the marker as subject had left " provides an
    example …" in the answer.
    """
    found = _SOURCE_SUBJECT.match(sentence)
    if not found:
        return sentence
    cited = cited_numbers(found.group("marks"))
    numbers.extend(cited)
    rest, verb = found.group("rest"), found.group("verb")
    if len(cited) == 1:
        return f"The source {rest}"
    if verb.lower() in SUBJECT_VERBS:  # "[1,2] explains" reads "The sources explain"
        rest = rest.replace(verb, plural_verb(verb), 1)
    return f"The sources {rest}"


def _unquoted(text: str) -> str:
    """`text` without the quotation marks around the whole of it: "[1] states: "x."" is x."""
    inner = text.strip()
    if len(inner) > 2 and inner[0] in '"“' and inner[-1] in '"”' and '"' not in inner[1:-1]:
        return inner[1:-1].strip()
    return text


def _capitalised(text: str) -> str:
    """`text` with a first word in lower-case letters capitalised ("the pool" → "The pool").

    Identifiers ("`httpx.get`", "max_connections") stay as they are.
    """
    word = re.match(r"[a-z]+\b(?![_.(`])", text)
    return text[0].upper() + text[1:] if word else text
