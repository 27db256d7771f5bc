"""The candidate sentences that state what is asked, brought first.

Asked for a number, a bound, a reason, a means or a verdict (yes or no), the sentence in
reach that states one of what is asked goes before a better-scored one that does not
(`asked_first`); an item's default stated after it is read with it (`stated_defaults`);
and a sentence is read with its section's title (`readings`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from citesynth.analysis import (
    content_terms,
    query_terms,
    terms,
)
from citesynth.synthesis.asked import given_numbers, states_number_of, writes_number
from citesynth.synthesis.bounds import asks_bound, states_bound_of
from citesynth.synthesis.candidates import Antecedents, Followers, prose_spans
from citesynth.synthesis.defaults import (
    body_defaults,
    item_defaults,
    titled_defaults,
)
from citesynth.synthesis.means import asks_means, states_means
from citesynth.synthesis.reasons import ASKING_WORDS, states_reason
from citesynth.synthesis.restated import FRAMING, yes_no_proposition
from citesynth.synthesis.section_titles import section_headings, section_of
from citesynth.synthesis.sources import Source


def stated_defaults(
    sources: Sequence[Source],
) -> tuple[Followers, dict[tuple[int, int], int]]:
    """The default each item of the sources goes on to state, by its first sentence.

    First, the sentences shown to reach it (`item_defaults`); second, the offset of the
    sentence stating it.
    """
    stated: Followers = {}
    tails: dict[tuple[int, int], int] = {}
    for source in sources:
        text = source.chunk.text
        every = prose_spans(text)
        titles = [0, *(end for end, _ in section_headings(text))]  # a chunk opens a section's text
        stated_in = {
            **titled_defaults(text, every, titles),
            **body_defaults(text, every),
            **item_defaults(text, every),
        }
        for head, (first, default, end) in stated_in.items():
            stated[(source.number, head)] = (first, text[first:end])
            tails[(source.number, head)] = default
    return stated, tails


def _stating_first(
    ranked: list[tuple[float, Source, int, str]],
    floor: float,
    following: Followers,
    states: Callable[[tuple[int, int], str], bool],
) -> list[tuple[float, Source, int, str]]:
    """`ranked` with the sentences at or above `floor` that state what is asked first.

    A question asking for a number ("How many worker processes does Gunicorn start by
    default?") is answered by the sentence that states it ("The default is only 1
    worker …"), which may rank below sentences about the same subject that state none
    and fill the answer; an answer stating no number is a not-found (`asked`). A
    why-question is answered by the sentence stating a reason (`_reason_of`), though an
    answer stating none is still an answer (`reasons`). A sentence is read with
    the one it brings along (`following`: "This allows for easy code reuse"); `states`
    gets its key (source number, offset) and that text. Relevance still decides which
    sentences are in reach, and the order within each group.
    """
    stated = _stating(following, states)
    above = [item for item in ranked if item[0] >= floor]
    flags = [stated(item) for item in above]
    return (
        [item for item, flag in zip(above, flags, strict=True) if flag]
        + [item for item, flag in zip(above, flags, strict=True) if not flag]
        + ranked[len(above) :]
    )


MEANS_NEAR = 3
"""How many candidate sentences of its source apart a means may be from one in reach."""
MEANS_MOST = 3
"""How many means one answer brings in at most, each as one sentence more."""
MEANS_IN_PARAGRAPH = 0.3
"""A sentence giving a means in the best candidate's paragraph is brought in from this share
of its score (`means_first`)."""
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def means_first(
    ranked: list[tuple[float, Source, int, str]], floor: float, low: float, shown: int = 0
) -> tuple[list[tuple[float, Source, int, str]], int]:
    """`ranked` with the sentences giving a means near one in reach brought in (`means`).

    A sentence at or above `low` but below `floor` that gives a means, at most `MEANS_NEAR`
    candidate sentences of its source (in the source's order) from one at or above `floor`,
    is lifted to `floor` and put right after the best such neighbour; the best-scored
    `MEANS_MOST` at most. So is one at or above `floor` ranked below the first `shown`
    (the sentences an answer shows), near one of them: pip's "Use ``--all`` to include
    those packages when you need a complete environment snapshot.", ranked tenth, right
    below the note that `pip freeze` leaves `pip` out, ranked first, for "… pip itself
    isn't in the output. Is that expected, and how do I get a complete list?". Everything
    else keeps its place, and the count of those brought in is the number of sentences
    more the answer may show (`picks`), so that none takes another's place.

    In the best candidate's own paragraph a means is brought in from a lower score
    (`MEANS_IN_PARAGRAPH` of the best's): coverage.py's warning "Dynamic contexts aren't
    supported with core=sysmon; …" ends "Change your configuration to use the ctrace
    core.", which shares two words with "… Which measurement core should we configure?".
    """
    above = [item for item in ranked if item[0] >= floor]
    first = {(s.number, start) for _, s, start, _ in above[:shown]}
    best = above[0] if above else None
    order: dict[int, list[int]] = {}
    for _, source, start, _ in ranked:
        order.setdefault(source.number, []).append(start)
    place = {
        (number, start): index
        for number, starts in order.items()
        for index, start in enumerate(sorted(starts))
    }
    after: dict[tuple[int, int], list[tuple[float, Source, int, str]]] = {}
    lifted: set[tuple[int, int]] = set()
    for score, source, start, sentence in ranked:
        if len(lifted) == MEANS_MOST:
            break
        beyond = score >= floor and len(above) > shown > 0 and (source.number, start) not in first
        under = score < low and not (
            best is not None
            and score >= best[0] * MEANS_IN_PARAGRAPH
            and _in_paragraph(best[1], best[2], start)
        )
        if (score >= floor and not beyond) or under or not states_means(sentence):
            continue
        here = place[source.number, start]
        near = next(
            (
                (s.number, st)
                for _, s, st, _ in above
                if s.number == source.number
                and abs(place[s.number, st] - here) <= MEANS_NEAR
                and (not beyond or (s.number, st) in first)
            ),
            None,
        )
        if near is not None:
            after.setdefault(near, []).append((max(score, floor), source, start, sentence))
            lifted.add((source.number, start))
    if not lifted:
        return ranked, 0
    result: list[tuple[float, Source, int, str]] = []

    def put(item: tuple[float, Source, int, str]) -> None:
        """`item`, then what was brought in after it (and after those, in turn)."""
        result.append(item)
        for follower in after.get((item[1].number, item[2]), []):
            put(follower)

    for item in ranked:
        if (item[1].number, item[2]) not in lifted:
            put(item)
    return result, len(lifted)


def _in_paragraph(source: Source, one: int, other: int) -> bool:
    """Whether the sentences of `source` at `one` and `other` are of one paragraph."""
    low, high = sorted((one, other))
    return _PARAGRAPH_BREAK.search(source.chunk.text, low, high) is None


def readings(
    candidates: Sequence[tuple[Source, int, str]],
    valued: Followers,
    leading: Antecedents,
    why: bool,
) -> list[str]:
    """Each candidate as relevance reads it, after its section's title.

    With the value it is followed by (`valued`: asked for a number or a default); asked
    why, a sentence giving the reason for the one before it after that one ("Any
    contribution … shall be dual licensed as above. The reason for that is to be both
    protected against patent claims …": alone it names nothing the question does).
    """
    read = []
    for source, start, sentence in candidates:
        key = (source.number, start)
        before = leading[key][1] if why and key in leading and states_reason(sentence) else ""
        after = valued[key][1] if key in valued else ""
        said = " ".join(part for part in (before, sentence, after) if part)
        read.append(f"{section_of(source.chunk, start)}{said}")
    return read


def asked_first(
    question: str,
    ranked: list[tuple[float, Source, int, str]],
    reach: tuple[float, float],
    following: Followers,
    read: Mapping[tuple[int, int], str],
    *,
    number: bool,
    why: bool,
    shown: int = 0,
) -> tuple[list[tuple[float, Source, int, str]], int]:
    """`ranked` with the sentences stating what `question` asks first; how many came in.

    A number when it asks for one, a reason when it asks why (`why`: `reasons.asks_why`,
    `_reason_of`; both `_stating_first`), a means when it asks how to do something
    (`means.asks_means`, `means_first`: from the lower bound of `reach`, a pair of the
    floor and that bound, and from beyond the first `shown`), a bound when it asks whether
    something has one (`bounds.asks_bound`, `_bound_first`), a verdict that something
    cannot be done when it asks yes or no (`restated.yes_no_proposition`, `_VERDICT`); as
    it is otherwise. The count is of the means brought into reach.

    Before those, unless it asks for a number, the sentences writing a number the question
    gives come first: Pyramid's "Does pyramid.httpexceptions have a class for status 418,
    and what is it called?" is answered by "Added HTTP 418 error code via
    `pyramid.httpexceptions.HTTPImATeapot`", in reach but below sentences naming the
    module, which filled the answer.
    """
    floor, low = reach
    given = frozenset() if number else given_numbers(question)
    if given:
        ranked = _stating_first(ranked, floor, following, _writing(given))
    if asks_bound(question):  # "Is there a cap on how many …?" asks a bound, not any number
        return _bound_first(ranked, reach, following, _bound_of(question, ranked))
    if number:
        return _stating_first(ranked, floor, following, _number_of(question, ranked)), 0
    if why and ranked:
        return _stating_first(ranked, floor, following, _reason_of(question, ranked, read)), 0
    if asks_means(question):
        return means_first(ranked, floor, low, shown)
    if (proposition := yes_no_proposition(question)) is not None:
        asked = set(content_terms(proposition)) - FRAMING
        above = [item for item in ranked if item[0] >= floor]
        if not any(asked <= set(content_terms(item[3])) for item in above):
            return _stating_first(ranked, floor, following, _states_verdict), 0
    return ranked, 0


def _writing(numbers: frozenset[str]) -> Callable[[tuple[int, int], str], bool]:
    """Whether a candidate writes one of `numbers` (`asked.writes_number`)."""
    return lambda _, text: writes_number(numbers, text)


_VERDICT = re.compile(
    r"\b(?:incompatible|unsupported|impossible|(?:is|are)\s+ignored"
    r"|not\s+(?:be\s+)?(?:supported|possible|allowed|permitted|compatible|recommended)"
    r"|cannot|can't|can\s+not|(?:will\s+not|won't|does\s+not|doesn't|do\s+not|don't)\s+work"
    r"|must\s+not|has\s+no\s+effect)\b",
    re.I,
)
"""A sentence stating that something asked cannot be done: what a yes/no question most often
needs ("Can I use ``--reload`` while keeping ``--preload`` on?" is answered by Gunicorn's
"The reloader is incompatible with application preloading.", ranked sixth below sentences
on reloading and preloading apart). Not when a sentence in reach holds every word of what
is asked (`restated.yes_no_proposition`, its framing words aside): "The gthread worker
supports keep-alive connections." answers "Does the gthread worker support keep-alive
connections?" before "Keep-alive connections are not supported by the sync worker."."""


def _states_verdict(_: tuple[int, int], text: str) -> bool:
    """Whether a candidate (with what it brings along) states a verdict (`_VERDICT`)."""
    return _VERDICT.search(text) is not None


def _reason_of(
    question: str,
    ranked: Sequence[tuple[float, Source, int, str]],
    read: Mapping[tuple[int, int], str],
) -> Callable[[tuple[int, int], str], bool]:
    """Whether a candidate states a reason (`reasons`) of what the question asks about.

    Of it means holding every word of the question (its asking words aside) that the best
    candidate holds, each read after its document's title (`Chunk.title`) as relevance
    reads it (`readings`: after its section's title). Asked "what was the purpose of the
    molasses act", "The purpose of the Townshend Acts was to raise revenue …" states a
    purpose, of another act: it had led the answer, above the Molasses Act's own
    sentences. Asked "when was the berlin wall built and why", "In practice, the Wall
    served to prevent the massive emigration …" holds "berlin" by its page's title. A
    reason the best candidate's own document gives is of what that one speaks of: asked
    why Griffe's JSON dump gives `members` as an array, its page's "We use an array for
    members instead of a map to preserve order …" names no JSON, which the best did.
    """
    _, source, start, _ = ranked[0]
    named = set(query_terms(question)) - ASKING_WORDS
    held = named & set(terms(f"{source.chunk.title} {read[source.number, start]}"))
    titles = {s.number: s.chunk.title for _, s, _, _ in ranked}
    documents = {s.number: s.document for _, s, _, _ in ranked}

    def of(key: tuple[int, int], text: str) -> bool:
        if not states_reason(text):
            return False
        if documents.get(key[0]) == source.document:
            return True  # the best candidate's own page speaks of what it does
        return held <= set(terms(f"{titles.get(key[0], '')} {read[key]} {text}"))

    return of


def _number_of(
    question: str, ranked: Sequence[tuple[float, Source, int, str]]
) -> Callable[[tuple[int, int], str], bool]:
    """Whether a candidate states a number of what `question` asks (`asked.states_number_of`).

    Read under its section's title, as the answer shows it. The number an answer must state
    to be one (`finishing.lacks_number`) is the number that comes first: "the number of
    seconds a password reset link is valid for" had been put below release notes' "…
    which will be removed in Django 4.0" and "… running Django 1.6 for more than …", whose
    versions counted as numbers of a question asking how long a link keeps working.
    """
    chunks = {source.number: source.chunk for _, source, _, _ in ranked}

    def of(key: tuple[int, int], text: str) -> bool:
        section = section_of(chunks[key[0]], key[1]) if key[0] in chunks else ""
        return states_number_of(question, [text], headings=[section])

    return of


def _stating(
    following: Followers, states: Callable[[tuple[int, int], str], bool]
) -> Callable[[tuple[float, Source, int, str]], bool]:
    """Whether a ranked sentence, read with the one it brings along, states what is asked."""

    def stated(item: tuple[float, Source, int, str]) -> bool:
        _, source, start, sentence = item
        more = following.get((source.number, start), (-1, ""))[1]
        return states((source.number, start), f"{sentence} {more}")

    return stated


def _bound_first(
    ranked: list[tuple[float, Source, int, str]],
    reach: tuple[float, float],
    following: Followers,
    states: Callable[[tuple[int, int], str], bool],
) -> tuple[list[tuple[float, Source, int, str]], int]:
    """`ranked` with the sentences stating a bound first (`_stating_first`); how many came in.

    When none at or above the floor of `reach` states one, the best between its lower bound
    and the floor (`MEANS_REACH` of the best score, as a means is reached for) is lifted to
    the floor: asked "Is there a cap on how many workers 'auto' will pick?", mypy's
    "Automatic selection uses at most 8 workers …" scored 0.35 against a floor of 0.40,
    below seven sentences on `--num-workers` stating none. Not any number asked: lifted so,
    "Jinja 2.1 and higher …" answered how many templates Jinja's cache keeps, and a
    trusted-publishing token's "15 minutes" how many times twine retries (six unanswerable
    documentation questions answered, none answerable gained; 2026-12-05).
    """
    floor, low = reach
    stated = _stating(following, states)
    if any(stated(item) for item in ranked if item[0] >= floor):
        return _stating_first(ranked, floor, following, states), 0
    reached = next((item for item in ranked if low <= item[0] < floor and stated(item)), None)
    if reached is None:
        return ranked, 0
    rest = [item for item in ranked if item is not reached]
    return [(floor, *reached[1:]), *rest], 1


def _bound_of(
    question: str, ranked: Sequence[tuple[float, Source, int, str]]
) -> Callable[[tuple[int, int], str], bool]:
    """Whether a candidate states a bound of what `question` asks (`bounds.states_bound_of`).

    Read under its section's title, as the answer shows it. Asked "Is there a cap on how
    many workers 'auto' will pick?", mypy's "Automatic selection uses at most 8 workers …"
    stood below seven sentences on `--num-workers` that state none, and an answer stating
    no bound is a not-found (`finishing.lacks_number`).
    """
    chunks = {source.number: source.chunk for _, source, _, _ in ranked}

    def of(key: tuple[int, int], text: str) -> bool:
        section = section_of(chunks[key[0]], key[1]) if key[0] in chunks else ""
        return states_bound_of(question, [text], headings=[section])

    return of
