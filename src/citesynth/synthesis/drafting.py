"""Writing step: the writer's stream turned into token and citation events, and a `Draft`.

Plain text goes out as `token` events; each citation marker as its canonical `[n]` token
plus a `citation` event. What names no source (a number, a range reaching past the sources,
a file reference no source matches) is dropped on the spot, counted and reported.
Output past `MAX_ANSWER_CHARS` is not read (a looping model can write megabytes) and the
answer says so. When the writer is done, `tidy` cleans the draft in place and raises
`Unusable` when it cannot be an answer (no text, only markers, no citation at all).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field

from citesynth.answers import Claim
from citesynth.citations.markers import Marker, MarkerStream, Text
from citesynth.citations.resolve import Removed, compact, judge, resolve, says_not_found
from citesynth.events import CitationEvent, Event, TokenEvent
from citesynth.llm.base import Usage
from citesynth.synthesis.attribute import attribute
from citesynth.synthesis.citing import citations
from citesynth.synthesis.layout import strip_layout
from citesynth.synthesis.markup import MarkupStream
from citesynth.synthesis.mentions import cited_by_name
from citesynth.synthesis.promised import show_promised
from citesynth.synthesis.sources import Source, heading, refs
from citesynth.synthesis.tidying import has_words
from citesynth.synthesis.writers import Plan, Writer

MAX_ANSWER_CHARS = 100_000
"""The most of a model's output kept as an answer (about 25,000 tokens)."""


class Unusable(Exception):
    """The writer produced nothing that can be shown as an answer."""


@dataclass(slots=True)
class Draft:
    """What the writer produced, as it arrives (filled in by `write`, cleaned by `tidy`)."""

    pieces: list[str] = field(default_factory=list)
    """The text in the pieces it arrived in: appending stays linear; `text` joins them."""
    capped: bool = False
    """The model wrote more than `MAX_ANSWER_CHARS`: the rest was not read."""
    size: int = 0
    """Characters received so far."""
    invalid_markers: int = 0
    markers: int = 0
    attributed: int = 0
    invalid: list[int] = field(default_factory=list)
    markup: MarkupStream = field(default_factory=MarkupStream)
    """Drops HTML markup from the text as it streams (answers are text)."""
    removed: Removed = field(default_factory=Removed)
    """Everything dropped on the spot: numbers, ranges and references naming no source."""
    usage: Usage | None = None
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The text so far."""
        if len(self.pieces) != 1:
            self.pieces[:] = ["".join(self.pieces)]
        return self.pieces[0]

    @text.setter
    def text(self, value: str) -> None:
        self.pieces[:] = [value]

    def tail(self, size: int) -> str:
        """The last `size` characters of the text, without joining all of it."""
        taken: list[str] = []
        length = 0
        for piece in reversed(self.pieces):
            taken.append(piece)
            length += len(piece)
            if length >= size:
                break
        return "".join(reversed(taken))[-size:]

    @property
    def cites(self) -> bool:
        """Whether at least one citation names a real source (written or attributed)."""
        return self.markers > self.invalid_markers or self.attributed > 0


async def write(
    writer: Writer, plan: Plan, draft: Draft, started: float | None = None
) -> AsyncIterator[Event]:
    """Stream the writer's output for `plan` as token and citation events, within its timeout.

    `draft` collects the text, marker counts, usage and timings (`first_token` is measured
    from `started`, default now).
    """
    began = time.perf_counter() if started is None else started
    valid = {source.number: source for source in plan.sources}
    scanner = MarkerStream(refs(plan.sources))
    deadline = asyncio.get_running_loop().time() + writer.timeout
    pieces = aiter(writer.write(plan))
    generating = time.perf_counter()
    try:
        while True:
            try:
                async with asyncio.timeout_at(deadline):
                    piece = await anext(pieces)
            except StopAsyncIteration:
                break
            if isinstance(piece, Usage):
                draft.usage = piece
                continue
            if not isinstance(piece, str):  # a tool call: not part of an answer's text
                continue
            for item in scanner.feed(_taken(piece, draft, began)):
                for event in _events(item, valid, draft, plan.question):
                    yield event
            if draft.capped:
                break  # a looping model: stop reading (closing the stream stops it)
        for item in scanner.close():
            for event in _events(item, valid, draft, plan.question):
                yield event
        for event in _token(draft, draft.markup.close()):
            yield event
    finally:
        close = getattr(pieces, "aclose", None)
        if close is not None:
            await close()
        draft.timings["generate"] = elapsed_ms(generating)


def _taken(piece: str, draft: Draft, began: float) -> str:
    """What of `piece` the draft takes: all of it, until `MAX_ANSWER_CHARS` are reached."""
    if piece and "first_token" not in draft.timings:
        draft.timings["first_token"] = elapsed_ms(began)
    if draft.size + len(piece) > MAX_ANSWER_CHARS:
        piece, draft.capped = piece[: MAX_ANSWER_CHARS - draft.size], True
    draft.size += len(piece)
    return piece


def _events(
    item: Text | Marker, valid: dict[int, Source], draft: Draft, question: str
) -> list[Event]:
    if isinstance(item, Text):
        return _token(draft, draft.markup.feed(item.text))
    # A marker ends any tag held back before it (its "<" made inert).
    return [*_token(draft, draft.markup.close()), *_cited(item, valid, draft, question)]


def _token(draft: Draft, text: str) -> list[Event]:
    if not text:
        return []
    draft.pieces.append(text)
    return [TokenEvent(text=text)]


def _cited(item: Marker, valid: dict[int, Source], draft: Draft, question: str) -> list[Event]:
    draft.markers += 1
    good, removed = judge(item, valid)
    if removed:
        draft.invalid_markers += 1
        draft.removed = draft.removed.plus(removed)
        draft.invalid.extend(n for n in removed.numbers if n not in draft.invalid)
    if not good:
        return []
    token = compact(good)
    draft.pieces.append(token)
    cited = [valid[n] for n in good]
    last = draft.tail(400)
    resolved = resolve(token, refs(cited))
    found = citations(cited, resolved, [Claim(text=last, citations=good)], question)
    return [TokenEvent(text=token), CitationEvent(numbers=tuple(good), citations=tuple(found))]


def tidy(
    draft: Draft,
    sources: Sequence[Source],
    *,
    attribute_uncited: bool,
    require_citations: bool,
    verified: bool = False,
) -> None:
    """Clean the draft in place; raise `Unusable` when it cannot be the answer.

    Layout the model added is stripped; uncited sentences that name a source's file
    (`cited_by_name`) or that one source clearly holds are cited (`attribute_uncited`) unless
    every citation the model wrote named no source; a paragraph ending on a sentence that
    introduces code or a list in its cited source shows it (`promised`); an answer citing
    nothing that is not "not found" is refused (`require_citations`), unless it wrote no marker
    at all and `verified` says verification follows: that cites each sentence a source supports
    and removes the rest, so an answer no source supports ends as a not-found with its sentences
    listed, like any answer whose claims are all unsupported. Markers that all name no source
    still refuse it (the model may be obeying a document's instructions).
    """
    draft.text = strip_layout(draft.text, {heading(s) for s in sources})
    if not draft.text.strip():
        raise Unusable("the model returned no text")
    if not has_words(draft.text):
        raise Unusable("the model's answer holds only citation markers")
    # Attribution is for a model that forgot its citations, not one whose every citation
    # named no source (it may be following a document's instructions).
    if attribute_uncited and (draft.cites or not draft.markers):
        tidied = resolve(draft.text, refs(sources)).text  # markers inside their sentences
        tidied, named = cited_by_name(tidied, sources)  # "… from the `requests.md` file."
        draft.text, draft.attributed = attribute(tidied, sources)
        draft.attributed += named
    draft.text = show_promised(draft.text, sources)
    if require_citations and not draft.cites and not says_not_found(draft.text):
        if verified and not draft.markers:
            return
        raise Unusable("the model's answer cites no source")


def elapsed_ms(since: float) -> float:
    """Milliseconds since `since` (a `time.perf_counter()` reading), to two decimals."""
    return round((time.perf_counter() - since) * 1000, 2)
