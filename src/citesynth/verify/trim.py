"""Keep the supported part of a claim whose tail no source supports.

A model often states a right fact and adds a wrong or unsupported one to it in the same
sentence: "Shelley Morrison played Rosario on Will & Grace and is still alive [1]." The
claim as written is unsupported and would go whole. Cut where a new clause begins ("and
is", ", which", ", while", "; ") or a link of cause and effect does (`causes.LINK`:
"GZipMiddleware defaults to compresslevel 9 because …"), and check the part before the cut
against the sources the claim cites (a last phrase naming the module code is from, "… from
the `threading` module", is cut the same way), with the configured verifier *and* the
lexical one, and with no name the sources lack: a short claim is where a cross-encoder is
easiest to fool (it passed "The highest-paid footballer of all time is Cristiano Ronaldo."
cut from a longer claim, against a passage about cast salaries that never names him). When
both say *supported*, the answer keeps that part, as written, with its citation ("Shelley
Morrison played Rosario on Will & Grace [1].") and the claim as written is still listed as
removed. The longest supported leading part wins. Nothing is added or reworded: the kept
part is the answer's own text up to the cut. Never kept: a part under `MIN_WORDS` words; one
ending on a word that needs what follows ("between", "of"); one with unbalanced quotes,
brackets or emphasis; a part whose tail limits it (", and only for GET requests", "; this
applies to GET only"; a reason limits nothing); the parts of a claim that opens with a
condition or a concession ("If …", "Although …"), or that cut a choice ("or") or a range
("5 – 10").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from citesynth.analysis import INLINE_CODE
from citesynth.citations.resolve import CANONICAL, SENTENCE_CLOSERS, cited_numbers, compact
from citesynth.verify.base import Passage, Verifier, check_of
from citesynth.verify.causes import LINK
from citesynth.verify.claims import MARKER, ClaimSpan, plain
from citesynth.verify.clauses import NEW_CLAUSE
from citesynth.verify.lexical import LexicalVerifier

MIN_WORDS = 4
"""The fewest words a kept part may have."""

KEEPS = "the answer keeps only"
"""How the reason on a trimmed claim begins (the terminal and the page show it)."""

_DANGLING = frozenset(
    "a an the of to for from in on at by with between and or but as than that which who "
    "whose its their his her this these those not no".split()
)
_BEFORE_A_LINK = frozenset(
    "is are was were be been being only just mainly partly simply largely solely not".split()
)
"""A part's last word that needs the link after it: "… is due to …", "… only because …"."""
_NEGATING = frozenset("not no never cannot".split())
MAX_TRIMMED = 2_000
"""The longest claim trimming reads, in characters: no sentence runs longer, and each cut
reads the text after it."""
_LIMITING_START = frozenset("not never no without nor if when unless except".split())
_LIMITING = frozenset("only except unless exclusively solely rarely sometimes".split())
"""A tail holding one of these limits what comes before it: the part would overstate."""
_OPENS_WITH_CONDITION = re.compile(
    r"(?:if|when|whenever|although|though|even though|either|neither|not only|whether|"
    r"because|since|unless|while|whereas|once|until|as long as)\b",
    re.I,
)
_WORD = re.compile(r"[\w']+")
_MARKS_AFTER = rf"\s*(?:{CANONICAL.pattern}\s*)*"
_WHERE_CODE_LIVES = re.compile(
    r"\s+(?=(?:from|in|of)\s+the\s+`[^`\n]+`\s+(?:module|package|library|namespace)"
    rf"{_MARKS_AFTER}[.!?]?{_MARKS_AFTER}$)",
    re.I,
)
"""A claim's last words naming where its code lives: "… the `to_thread.run_sync` method
from the `threading` module" (AnyIO's docs, the embedded model; the module is wrong, the
rest is what the source says). Cut there like a clause."""


@dataclass(frozen=True, slots=True)
class Trim:
    """A claim cut to the leading part its cited sources support."""

    claim: ClaimSpan
    end: int
    """Where the kept part ends in the answer (the cut)."""
    kept: str
    """The kept part as a claim: no markers, whitespace folded, the claim's closing mark."""
    citations: tuple[int, ...]
    """What the kept part cites (and was checked against)."""

    def reason(self) -> str:
        """Why the claim as written is listed as removed while part of it stays."""
        return f"{KEEPS} {self.kept!r}: the cited source(s) do not support the rest"

    def describe(self, answer: str) -> str:
        """One line for `warnings`: what was dropped from the claim."""
        dropped = plain(answer[self.end : self.claim.end]).strip(" ,;.–—")
        quoted = dropped if len(dropped) <= 60 else dropped[:57] + "..."
        return (
            f"kept the supported part of a claim and dropped {quoted!r}, which its cited "
            "source(s) do not support"
        )


def leading_parts(text: str) -> list[str]:
    """The parts of `text` before each clause cut, longest first, that may stand alone."""
    return [plain(text[:end]) for end in _cut_ends(text)]


def _cut_ends(raw: str) -> list[int]:
    """Offsets in `raw` where a part that may stand alone ends, longest part first."""
    if _OPENS_WITH_CONDITION.match(plain(raw)):
        return []
    if len(raw) > MAX_TRIMMED:
        return []
    ends = []
    cuts = [(cut, False) for cut in [*NEW_CLAUSE.finditer(raw), *_WHERE_CODE_LIVES.finditer(raw)]]
    # A reason after the part limits nothing: "… because structlog only looks at …"
    cuts += [(cut, True) for cut in LINK.finditer(raw) if _cuts_at_link(raw, cut)]
    for cut, explains in cuts:
        part = raw[: cut.start()].rstrip(" ,")
        tail = [w.lower() for w in _WORD.findall(plain(raw[cut.end() :]))]
        if not tail or tail[0] in _LIMITING_START or (_LIMITING & set(tail) and not explains):
            continue
        words = _WORD.findall(plain(part))
        if len(words) < MIN_WORDS or words[-1].lower() in _DANGLING or not _balanced(part):
            continue
        ends.append(len(part))
    return sorted(set(ends), reverse=True)


def _cuts_at_link(raw: str, link: re.Match[str]) -> bool:
    """Whether the part before a link of cause and effect may stand without it.

    Not a link set in commas inside its sentence ("The server, because it is written with
    uvloop, handles …"), a part ending on what the link completes ("… is due to", "… only
    because"), nor a negated part ("It is not disabled by default because it is slow" may
    deny the link, not the fact).
    """
    if link.group().lstrip().startswith(",") and "," in raw[link.end() :]:
        return False
    words = [w.lower() for w in _WORD.findall(plain(raw[: link.start()]))]
    negated = any(word in _NEGATING or word.endswith("n't") for word in words)
    return bool(words) and words[-1] not in _BEFORE_A_LINK and not negated


def _balanced(part: str) -> bool:
    """Whether `part` closes what it opens: emphasis, code, quotation, brackets.

    A single "*" counts outside code: trimmed there, Tornado's item "*Find a
    coroutine-friendly equivalent.*" would leave its emphasis open to the end of the answer.
    """
    text = MARKER.sub("", part)
    return (
        text.count("**") % 2 == 0
        and INLINE_CODE.sub("", text).replace("**", "").count("*") % 2 == 0
        and text.count("`") % 2 == 0
        and text.count('"') % 2 == 0
        and text.count("(") == text.count(")")
        and text.count("[") == text.count("]")
    )


_TRAILING = re.compile(rf"[ \t]*(?:{CANONICAL.pattern}[ \t]*)+(?=\s|$)")
"""Markers alone after a sentence's full stop."""
_AFTER_STOP = re.compile(
    rf"(?<=[{re.escape(SENTENCE_CLOSERS)}])(?:[ \t]*{CANONICAL.pattern})+[ \t]*$"
)
"""Markers ending a claim's span after its full stop ("… widely. [1]")."""


def _ending(raw: str) -> str:
    body = MARKER.sub("", raw).rstrip()
    return body[len(body.rstrip(".!?;,")) :]


async def trims(
    answer: str,
    claims: Sequence[ClaimSpan],
    passages: Sequence[Passage],
    verifier: Verifier,
    screen: LexicalVerifier | None = None,
) -> list[Trim]:
    """The longest leading part of each claim of `answer` that its cited sources support.

    Pass the claims that are not supported; a claim citing nothing is left alone. A part
    counts as supported when `verifier` and the lexical verifier (`screen`) both say so and
    it names nothing the sources do not.
    """
    by_number = {p.number: p for p in passages}
    asked: list[Trim] = []
    for claim in claims:
        raw = answer[claim.start : claim.end]
        for end in _cut_ends(raw):
            inside = tuple(dict.fromkeys(cited_numbers(raw[:end])))
            cited = tuple(n for n in inside or claim.citations if n in by_number)
            if cited:
                kept = plain(raw[:end]) + _ending(raw)
                asked.append(Trim(claim, claim.start + end, kept, cited))
    if not asked:
        return []
    checks = [check_of(t.kept, [by_number[n] for n in t.citations]) for t in asked]
    verdicts = await verifier.verify(checks)
    screened = (screen or LexicalVerifier()).aligned(checks)
    found: dict[int, Trim] = {}
    for trim, verdict, (lexical, alignment) in zip(asked, verdicts, screened, strict=True):
        named = alignment is not None and not alignment.missing_names
        supported = verdict.supported and lexical.supported and named
        if supported and trim.claim.start not in found:  # longest first
            found[trim.claim.start] = trim
    return list(found.values())


def apply(answer: str, cuts: Sequence[Trim]) -> str:
    """`answer` with each trimmed claim ending at its cut, cited, with its closing mark."""
    pieces = []
    position = 0
    for trim in sorted(cuts, key=lambda t: t.claim.start):
        raw = answer[trim.claim.start : trim.end]
        # Markers written after the claim's full stop ("… 2016. [1]") were the claim's:
        # the kept part carries them before its own stop, so they do not stay behind alone.
        # The claim's span holds them (`resolve.factual_spans`), or they follow it.
        own = _AFTER_STOP.search(answer, trim.claim.start, trim.claim.end)
        after = _TRAILING.match(answer, trim.claim.end)
        trailing = (own.group() if own else "") + (after.group() if after else "")
        numbers = tuple(cited_numbers(trailing))
        marker = "" if MARKER.search(raw) else f" {compact(trim.citations or numbers)}"
        ending = _ending(answer[trim.claim.start : trim.claim.end])
        pieces.append(answer[position : trim.claim.start] + raw + marker + ending)
        position = after.end() if after else trim.claim.end
    pieces.append(answer[position:])
    return "".join(pieces)
