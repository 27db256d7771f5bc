"""The extractive synthesizer: an answer built from the sources' own sentences, no model.

It scores every prose sentence of the top sources against the question (dense cosine and
query-term coverage, as evidence selection does, the same from whichever source: a rank
bonus for better-ranked sources cost right answers on every tuning set but MultiHop-RAG;
a change log's sentence is worth a little less unless the question is about a change:
`changelogs`), keeps the best few (each with the next sentence when that one
starts with "It", "This", "They"… or refers back with "this" as a pronoun, which only
makes sense with it, or shows it in code: "For example: `request.query_params['search']`";
asked how, with the code block right after it), folds near-duplicates together (when two
documents say the same thing the sentence cites both and is marked as consensus), groups
what is left by document (and by the identifier its section documents, when the sentence
does not name it: `unnamed_identifier`), and cites each sentence.
Every sentence is copied from a source, so the answer is grounded by construction; it is
instant, deterministic, and the fallback when no model is usable. When no sentence is
relevant enough it answers "Not found in the sources."

The sentences it chooses from are read in `candidates`, those stating what is asked brought
first in `asked_first`, their sections' headings in `section_titles`, included files' code
in `included_code`, and each is shown as `quoted` cleans and cites it; this module scores,
picks, groups and writes.

Which of the best candidates are quoted, and in what order, a model fitted on tuning sets
decides (`sentence_rank`: relevance, the rank of the source, the share of the asked
sentence's terms, code, …); a `SentenceScorer` (the trained verifier's gate, a
cross-encoder reading the question and a sentence together) may bring one more into reach.
A sentence introducing a file its
page includes (`.. literalinclude::`) shows that file's code when it is one of the sources,
and cites it too (`included_block`).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from citesynth.analysis import (
    DEFAULT_VALUE,
    INLINE_CODE,
    coverage,
    query_terms,
    terms,
    unwritten,
    without_asides,
)
from citesynth.embed.base import Embedder
from citesynth.ingest.code import language_of
from citesynth.ingest.doc_comments import DOC_COMMENT_LANGUAGES, doc_comment_units
from citesynth.ingest.docstrings import docstring_units
from citesynth.ingest.fields import field_text, info_fields
from citesynth.ingest.tables import row_text, table_rows
from citesynth.llm.base import ChatModel, Piece
from citesynth.synthesis.asked import asks_named, asks_number
from citesynth.synthesis.asked_first import asked_first, readings, stated_defaults
from citesynth.synthesis.candidates import (
    ANAPHOR,
    CONCLUDES,
    REFERS_BACK,
    REPLY,
    Antecedents,
    Followers,
    candidate_sentences,
)
from citesynth.synthesis.captions import Caption, captions, titled_examples
from citesynth.synthesis.changelogs import CHANGE_LOG_WEIGHT, asks_about_changes, change_log
from citesynth.synthesis.defaults import (
    DEFAULT_ASKED,
    with_stop,
)
from citesynth.synthesis.evidence import REACH, relevance
from citesynth.synthesis.included_code import IncludedFiles, included_block, included_files
from citesynth.synthesis.inert import inline
from citesynth.synthesis.introduced import (
    Introduced,
    example_after,
    introduced,
)
from citesynth.synthesis.markup import strip_markup
from citesynth.synthesis.quoted import BRACKETS, cited_sentences, clean, shown_block
from citesynth.synthesis.reasons import asks_why
from citesynth.synthesis.section_titles import unnamed_identifier, unnamed_release
from citesynth.synthesis.sentence_rank import SCORED, SHIPPED, Ranked, Weights, ordered
from citesynth.synthesis.sources import Source, subject
from citesynth.synthesis.writers import Plan

NOT_FOUND = "Not found in the sources."
_HOW = re.compile(
    r"\s*(?:how\s+(?!many|much|long|old|far|often|big|large|tall|high)\w+"
    r"|what(?:'s|\s+is)\s+the\s+(?:\w+\s+)?way\b|is\s+there\s+a\s+way\b|show\s+me\b)",
    re.I,
)
"""A question asking how to do something ("How do I …", "What is the best way to …"),
answered by an example as much as by a statement; not "How many …"."""
_ARTICLES = frozenset("The A An This These That Those It Its Each Every Most Some All".split())


@dataclass(slots=True)
class _Pick:
    text: str
    score: float
    source: Source
    position: int
    words: frozenset[str]
    """The terms of the sentence picked (not of those shown with it)."""
    said: str = ""
    """The sentence picked, as shown (`text` adds what it leans on and what refers back)."""
    also: list[int] = field(default_factory=list)
    block: Introduced | None = None
    """The code block or list the sentence introduces ("… as follows:"), shown after it."""
    included: Source | None = None
    """The source `block` is copied from when the sentence's chunk includes another file's
    code (`.. literalinclude::`); the sentence cites it too."""


def _listed_already(chosen: Sequence[_Pick], pick: _Pick) -> bool:
    """Whether another pick of the same document shows `pick`'s sentence (list or text).

    Chunks of one document overlap: jsonschema's FAQ list of what is not public API was
    shown under its lead-in from one chunk, and its items came again as sentences of the
    next chunk ("the specific non-zero error codes presented by the command line
    interface [7]."). Or in its text: a pick brings along the default its item states
    (`item_defaults`), and a chunk overlapping the first holds that sentence again
    (pytest's `tmp_path` and `tmp_path_factory` both say "By default, … old bases are
    removed after 3 sessions.").
    """
    wanted = " ".join(pick.text.split()).rstrip(".")
    if pick.block is not None or len(wanted) <= 20:  # what it shows below it is its own
        return False
    whole = re.compile(rf"(?<!\w){re.escape(wanted)}(?!\w)")  # "… is 10" is not in "… is 100"
    return any(
        p is not pick
        and p.source.document == pick.source.document
        and (
            any(whole.search(" ".join(clean(line).split())) for line in p.block.lines)
            if p.block is not None and p.block.kind == "list"
            else len(p.text) > len(pick.text) and whole.search(" ".join(p.text.split()))
        )
        for p in chosen
    )


def _similar(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / min(len(a), len(b)) if a and b else 0.0


_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")


def _restates(pick: _Pick, words: frozenset[str], shown: str, *, same_page: bool) -> bool:
    """Whether a sentence alike to `pick`'s (its `words`, as `shown`) says the same.

    Not when each holds a term the other lacks ("eventlet provides a WSGI server …"
    against "gevent provides a WSGI server …": one subject swapped for another; a name
    written as one word in one and two in the other, "hookwrapper" and "hook wrapper", is
    the same term, `written_open`), nor when
    their inline code or numbers differ (`_details`): folded into one "multiple sources
    report" sentence, each source would be credited with what only the other says, the
    sentences it shows along with it too (Starlette's `request.query_params['search']`
    below a sentence its WebSocket page writes alike). A sentence of the `same_page` is
    compared with the pick's own sentence only, since it is dropped, never credited:
    pytest's page of fixtures says "By default, … old bases are removed after 3 sessions"
    under two fixtures, once followed by a sentence naming `tmp_path_retention_count`, and
    an answer quoted it twice.
    """
    said = pick.said if same_page and pick.said else pick.text
    substituted = bool(unwritten(pick.words, words)) and bool(unwritten(words, pick.words))
    return not substituted and _details(said) == _details(shown)


def _details(sentence: str) -> frozenset[str]:
    """The inline code and numbers of a shown sentence.

    Two sentences alike but for these say different things: "The ``-w`` option specifies
    the number of processes to run" (Gunicorn) is not "The ``--processes`` option
    specifies the number of worker processes" (mod_wsgi), and folding them into one
    "multiple sources report" sentence would credit one source with the other's option.
    """
    code = frozenset(found.strip() for found in INLINE_CODE.findall(sentence))
    return code | frozenset(_DIGITS.findall(INLINE_CODE.sub(" ", sentence)))


@runtime_checkable
class SentenceScorer(Protocol):
    """Reads a question against each sentence: how likely the sentence answers it.

    The trained verifier is one (its answerability gate, a cross-encoder).
    """

    async def answering(self, question: str, sentences: Sequence[str]) -> list[float]:
        """Per sentence, the probability that it answers `question`."""
        ...


def scorer(verifier: object) -> SentenceScorer | None:
    """`verifier` as the extractive writer's sentence scorer, when it can read questions."""
    return verifier if isinstance(verifier, SentenceScorer) else None


MEANS_REACH = 0.5
"""Asked how to do something, a sentence giving a means (`means.states_means`) scoring at
least this share of the best candidate may be brought in after a neighbour in reach
(`means_first`)."""


class ExtractiveWriter:
    """Writes an answer from the sources' own sentences (see the module docstring)."""

    name = "extractive"
    model: ChatModel | None = None
    timeout = 30.0
    evidence_tokens: int | None = None
    max_sources: int | None = None

    def __init__(
        self,
        embedder: Embedder | None,
        *,
        max_sentences: int = 5,
        min_score: float = 0.25,
        keep_ratio: float = REACH,
        duplicate: float = 0.8,
        titled: bool = True,
        max_blocks: int = 3,
        scorer: SentenceScorer | None = None,
        ranker: Weights | None = SHIPPED,
    ) -> None:
        self.embedder = embedder
        self.scorer = scorer
        """Reads the question against the best candidates too: one it finds answering may
        come into reach (`sentence_rank.ordered`)."""
        self.ranker = ranker
        """Chooses and orders the candidates in reach (`sentence_rank`; None: relevance)."""
        self.max_sentences = max_sentences
        self.min_score = min_score
        self.keep_ratio = keep_ratio
        self.duplicate = duplicate
        self.titled = titled
        """Head a single document's answer with its title when its sentences never name it
        (a report's section has a heading of its own: off)."""
        self.max_blocks = max_blocks
        """How many introduced blocks (code, lists) one answer shows at most."""

    async def picks(
        self,
        question: str,
        sources: Sequence[Source],
        apart: frozenset[frozenset[int]] = frozenset(),
    ) -> list[_Pick]:
        """The chosen sentences, best first, near-duplicates folded into `also`.

        Sources in an `apart` pair disagree: their sentences are never folded into one
        "multiple sources report" sentence (that would be false consensus).
        """
        candidates, following, numbered, leading = candidate_sentences(sources)
        how = _HOW.match(question) is not None
        # Asked how, or for a named thing (an API's examples show which function or
        # exception: `asks_named`), a comment saying what the code below it does is a
        # candidate too, shown with its code (`captions`).
        named = asks_named(question)
        captioned = _captioned(sources, candidates, titled=named) if how or named else {}
        tabled = _tabled(sources, candidates) | _fielded(question, sources, candidates)
        if not candidates:
            return []
        number = asks_number(question)
        read, stated, tails = _readings(question, sources, candidates, numbered, leading)
        read = [  # a titled example is read as its heading and the names of its code
            reads if (reads := _caption_reading(captioned, source, start)) else text
            for (source, start, _), text in zip(candidates, read, strict=True)
        ]
        numbered = {**numbered, **stated}
        why = asks_why(question)
        ranked = await self._ranked(question, candidates, read)
        if not ranked or ranked[0][0] < self.min_score:
            return []
        top = ranked[0][0]
        floor = max(self.min_score, top * self.keep_ratio)
        ranked = await self._reread(question, ranked, floor)
        if number:
            following = {**numbered, **following}
        texts = {
            (s.number, start): text for (s, start, _), text in zip(candidates, read, strict=True)
        }
        low = max(self.min_score, top * MEANS_REACH)
        ranked, lifted = asked_first(
            question,
            ranked,
            (floor, low),
            following,
            texts,
            number=number,
            why=why,
            shown=self.max_sentences,
        )
        most = self.max_sentences + lifted  # each means brought in takes no one's place
        following = {**following, **stated}
        read_with = _Around(candidates, following, leading, tails, included_files(sources))
        chosen: list[_Pick] = []
        shown_already: set[tuple[int, int]] = set()  # sentences a pick already brought along
        for score, source, start, sentence in ranked:
            if score < floor or len(chosen) >= most:
                break
            if (source.number, start) in shown_already:
                continue
            caption = captioned.get((source.number, start))
            if caption is not None and not _caption_shown(caption, source, chosen, self.max_blocks):
                continue
            words = frozenset(terms(sentence))
            twin = self._twin(chosen, words, sentence, source, apart)
            if twin is not None:
                if twin.source.document != source.document and source.number not in twin.also:
                    twin.also.append(source.number)
            elif caption is not None:
                said = clean(caption.sentence)
                chosen.append(_Pick(said, score, source, start, words, said, block=caption.block))
            elif (source.number, start) in tabled:
                said = clean(sentence)
                chosen.append(_Pick(said, score, source, start, words, said))
            else:
                pick = _Pick("", score, source, start, words, clean(sentence))
                chosen = self._with_prose(pick, sentence, read_with, chosen, shown_already, how)
        return [p for p in chosen if not _listed_already(chosen, p)]

    async def ranked(self, question: str, sources: Sequence[Source]) -> list[Ranked]:
        """Every candidate sentence of `sources` by relevance, best first.

        What `picks` chooses from; `benchmarks.fit_sentence_rank` fits the ranker on them.
        """
        candidates, _, numbered, leading = candidate_sentences(sources)
        read, _, _ = _readings(question, sources, candidates, numbered, leading)
        return await self._ranked(question, candidates, read)

    async def _reread(self, question: str, ranked: list[Ranked], floor: float) -> list[Ranked]:
        """`ranked` chosen and ordered by the ranker (`sentence_rank.ordered`).

        The scorer, when there is one, reads the best candidates too (`answering`) and may
        bring one more into reach; without a ranker, `ranked` is as it was.
        """
        if self.ranker is None:
            return ranked
        return ordered(question, ranked, floor, self.ranker, await self.answering(question, ranked))

    async def answering(self, question: str, ranked: Sequence[Ranked]) -> list[float] | None:
        """The scorer's probability for each of the best `SCORED` candidates (None: none)."""
        if self.scorer is None:
            return None
        sentences = [" ".join(sentence.split()) for *_, sentence in ranked[:SCORED]]
        return await self.scorer.answering(question, sentences)

    def _with_prose(
        self,
        pick: _Pick,
        sentence: str,
        around: _Around,
        chosen: list[_Pick],
        shown_already: set[tuple[int, int]],
        how: bool,
    ) -> list[_Pick]:
        """`chosen` with a prose sentence's pick: what it leans on, refers to and introduces.

        A lead-in ("… like this:") whose block no longer fits (`max_blocks`) is quoted alone;
        finishing shows the block it promises (`promised`).
        """
        source, start = pick.source, pick.position
        after, more = around.following.get((source.number, start), (-1, ""))
        if any(p.source.number == source.number and p.position == after for p in chosen):
            more = ""  # "It ..." is in the answer already, as a pick of its own
        above = ""
        if more and after < start:  # a default stated above it, under the title (Django's)
            above, more = more, ""
            shown_already.add((source.number, after))
        end = after + len(more) if more else start + len(sentence)
        spare = sum(p.block is not None for p in chosen) < self.max_blocks
        if more:
            stated = around.tails.get((source.number, start))
            last = after if stated is None else stated
            shown_already.update({(source.number, after), (source.number, last)})
            # What the last sentence shown brings along comes too, when it is a default
            # ("`max_form_parts` - Stop parsing … This is useful to stop … The default is
            # 1000.") or when that sentence is the item's default ("By default, … removed
            # after 3 sessions. This behavior can be configured with …"), or a conclusion
            # ("… you'll notice … This is because … So it appears in the root node …").
            later, then = around.following.get((source.number, last), (-1, ""))
            if (
                then
                and later >= end
                and (stated is not None or DEFAULT_VALUE.match(then) or CONCLUDES.match(then))
            ):
                shown_already.add((source.number, later))
                more, end = f"{more} {then}", later + len(then)
        pick.position, before = _leading(
            around.leading, source.number, start, chosen, shown_already
        )
        if above:  # "Default: ``10``" ends with no stop: it is a sentence of its own
            pick.position, before = after, with_stop(above)
        # each part on a line of its own: an item's bullet opening one goes (`clean`)
        pick.text = clean("\n".join(part for part in (before, sentence, more) if part))
        if spare:
            chosen = _with_block(pick, end, around, chosen, shown_already, how)
        return [*chosen, pick]

    async def _ranked(
        self, question: str, candidates: Sequence[tuple[Source, int, str]], read: Sequence[str]
    ) -> list[tuple[float, Source, int, str]]:
        """The candidates by relevance (a change log's a little less), best first.

        Each is scored as `read` gives it (its text, or with the value that follows it).
        """
        scores = await relevance(question, read, self.embedder)
        wanted = set(query_terms(question))
        history = asks_about_changes(question)
        sources = {source.number: source for source, _, _ in candidates}
        logs = {n: _history_weight(s, history) for n, s in sources.items()}  # once a source
        return sorted(
            (
                (score * logs[source.number], source, start, sentence)
                for score, text, (source, start, sentence) in zip(
                    scores, read, candidates, strict=True
                )
                if not wanted or self.embedder or coverage(wanted, terms(text))
            ),
            key=lambda item: (-item[0], item[1].number, item[2]),
        )

    def _twin(
        self,
        chosen: Sequence[_Pick],
        words: frozenset[str],
        sentence: str,
        source: Source,
        apart: frozenset[frozenset[int]],
    ) -> _Pick | None:
        """The pick that `sentence` of `source` (its terms: `words`) restates.

        None when there is none, or when it is of a source that disagrees with `source`.
        """
        twin = next(
            (
                p
                for p in chosen
                if _similar(p.words, words) >= self.duplicate
                and _restates(
                    p, words, clean(sentence), same_page=p.source.document == source.document
                )
            ),
            None,
        )
        if twin is not None and frozenset({twin.source.number, source.number}) in apart:
            return None
        return twin

    async def write(self, plan: Plan) -> AsyncIterator[Piece]:
        """The answer, one sentence at a time, grouped by document in rank order."""
        apart = frozenset(frozenset(f.sources) for f in plan.found)
        chosen = await self.picks(plan.question, plan.sources, apart)
        if not chosen:
            yield NOT_FOUND
            return
        named = {
            id(p): unnamed_identifier(p.source.chunk, p.position, p.text)
            or unnamed_release(p.source, p.position, p.text)
            for p in chosen
        }
        groups = list(dict.fromkeys((p.source.document, named[id(p)]) for p in chosen))
        grouped = len(groups) > 1
        for index, (document, name) in enumerate(groups):
            members = sorted(
                (p for p in chosen if p.source.document == document and named[id(p)] == name),
                key=lambda p: (p.source.number, p.position),
            )
            if grouped:
                title = _shown_title(inline(members[0].source.chunk.title or document))
                named_as = _shown_title(name) if name else ""
                # a release's page titled by the release, "Hatch v1.18.0", says it once
                title = f"{named_as} ({title})" if name and named_as != title else title
                yield ("\n\n" if index else "") + f"**{title}**"
            elif name:
                yield f"**{_shown_title(name)}**\n"
            elif self.titled and (title := _unnamed_subject(members)):
                yield f"**{_shown_title(title)}**\n"
            for position, pick in enumerate(members):
                shown_from = [] if pick.included is None else [pick.included.number]
                numbers = ",".join(str(n) for n in [pick.source.number, *pick.also, *shown_from])
                text = pick.text
                if pick.also:
                    text = _corroborated(text)
                lead = "\n" if grouped and position == 0 else (" " if position or index else "")
                if position and members[position - 1].block is not None:
                    lead = "\n\n"
                yield lead + cited_sentences(text, numbers)
                if pick.block is not None:
                    yield "\n\n" + shown_block(pick.block, str(pick.source.number))


@dataclass(frozen=True, slots=True)
class _Around:
    """What the candidates' neighbours are: the sentences they bring along or lean on."""

    candidates: Sequence[tuple[Source, int, str]]
    following: Followers
    leading: Antecedents
    tails: Mapping[tuple[int, int], int]
    """(source number, offset) of an item's first sentence -> offset of the sentence stating
    its default, the last of those `following` brings along (`item_defaults`)."""
    files: IncludedFiles = field(default_factory=lambda: IncludedFiles({}, frozenset()))
    """The sources a file a sentence includes is shown from, if found (`included_files`)."""


def _readings(
    question: str,
    sources: Sequence[Source],
    candidates: Sequence[tuple[Source, int, str]],
    numbered: Followers,
    leading: Antecedents,
) -> tuple[list[str], Followers, dict[tuple[int, int], int]]:
    """How each candidate is read for relevance, and the defaults items state (and where).

    For a number or a default question a sentence is read with the value it is followed
    by: "`max_age` - Session expiry time in seconds." says how long with "Defaults to 2
    weeks." Asked for a default, or for a number (which a setting left alone has: "If I
    leave the settings alone, how many seconds will Scrapy wait …?"), an item is read and
    shown with the default it goes on to state.
    """
    valued = asks_number(question) or DEFAULT_ASKED.search(question) is not None
    stated, tails = stated_defaults(sources) if valued else ({}, {})
    values = {**numbered, **stated} if valued else {}
    return readings(candidates, values, leading, asks_why(question)), stated, tails


def _captioned(
    sources: Sequence[Source], candidates: list[tuple[Source, int, str]], *, titled: bool
) -> dict[tuple[int, int], Caption]:
    """The code captions of the sources, by (source number, offset), added to `candidates`.

    With the examples that open their section under its heading (`titled_examples`) when
    `titled`: asked for a named thing, an API's usage example may be all that shows it.
    """
    found = {}
    for source in sources:
        text = source.chunk.text
        for caption in [*captions(text), *(titled_examples(text) if titled else ())]:
            found[(source.number, caption.start)] = caption
            candidates.append((source, caption.start, caption.reads or caption.sentence))
    return found


def _caption_reading(
    captioned: Mapping[tuple[int, int], Caption], source: Source, start: int
) -> str:
    """How relevance reads the caption at `start` when not as its sentence ("" else)."""
    caption = captioned.get((source.number, start))
    return caption.reads if caption is not None else ""


def _tabled(
    sources: Sequence[Source], candidates: list[tuple[Source, int, str]]
) -> set[tuple[int, int]]:
    """The table rows of the sources (`tables.row_text`), added to `candidates`; their keys.

    A row is a candidate as a sentence is, quoted as written from its cells ("`loop.index`:
    The current iteration of the loop (1 indexed)."), with nothing around it.
    """
    found = set()
    for source in sources:
        for row in table_rows(source.chunk.text):
            candidates.append((source, row.start, row_text(row)))
            found.add((source.number, row.start))
    return found


def _fielded(
    question: str, sources: Sequence[Source], candidates: list[tuple[Source, int, str]]
) -> set[tuple[int, int]]:
    """What reference text describes, as statements, added to `candidates`; their keys.

    The info fields of a document (`fields.field_text`: "`limit` (int): total number
    simultaneous connections. …") and the sentences and described parameters of a Python
    source's docstrings (`docstrings.docstring_units`) or of another language's doc
    comments (`doc_comments.doc_comment_units`: JSDoc, Javadoc, rustdoc), each a candidate
    as a table's row
    is, quoted as it reads with nothing around it. When the question names what some of
    them describe, the others describing something else are none: asked what ProxyFix's
    `x_host` does, the writer had quoted `x_port`'s field beside it (`_asked_names`).
    """
    units: list[tuple[Source, int, str]] = []
    for source in sources:
        text = source.chunk.text
        language = language_of(source.chunk.path)
        if language is None:
            units += [(source, f.start, field_text(f)) for f in info_fields(text)]
        elif language == "python":
            units += [(source, unit.start, unit.text) for unit in docstring_units(text)]
        elif language in DOC_COMMENT_LANGUAGES:
            units += [(source, unit.start, unit.text) for unit in doc_comment_units(text)]
    named = {unit: found.group(1) for unit in units if (found := _DESCRIBED.match(unit[2]))}
    asked = _asked_names(question, set(named.values()))
    kept = [unit for unit in units if not asked or named.get(unit, "") in asked | {""}]
    candidates.extend(kept)
    return {(source.number, start) for source, start, _ in kept}


_DESCRIBED = re.compile(r"`([^`]+)`(?: \([^()]*\))?: ")
"""The name a field's or a docstring item's statement opens with ("`limit` (int): …")."""


def _asked_names(question: str, names: set[str]) -> set[str]:
    """The `names` the question names, each as a whole word ("limit", not in "limits")."""
    return {
        name
        for name in names
        if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", question) is not None
    }


def _caption_shown(caption: Caption, source: Source, chosen: Sequence[_Pick], most: int) -> bool:
    """Whether a caption may be picked: a block to spare, no code of it shown already.

    Not when another pick's block holds the comment or overlaps the caption's code (a
    caption inside another's code, or around it, would show the same lines twice).
    """
    if sum(p.block is not None for p in chosen) >= most:
        return False  # a caption says nothing without its code
    low, high = min(caption.start, caption.block.start), caption.block.end
    return not any(
        p.source is source and p.block is not None and p.block.start < high and low < p.block.end
        for p in chosen
    )


def _history_weight(source: Source, history: bool) -> float:
    """Less for a change log's sentence unless the question is about a change (`history`)."""
    if history or not change_log(source.document, source.chunk.title):
        return 1.0
    return CHANGE_LOG_WEIGHT


_NO_CLAUSE = frozenset(
    """to when if for in on at by with from after before as once unless while during since
    although because under within without using use click select run create add set enter
    install see ensure open go navigate configure specify edit copy apply enable disable
    remove delete update define verify check make follow do don't never always only avoid
    note be keep prefer try consider return returns restrict get gets raise raises pass
    call calls print prints write writes read reads convert converts show shows
    we i you our your my let's""".split()
)
"""Words opening a sentence that cannot follow "report that": a preposition, a
subordinator or an instruction ("To use the Operator, create …", "Click Save.", "Do not
use the development server when deploying to production."), or the authors or the reader
("Multiple sources report that We don't think that your business model …" had been
written over attrs' docs)."""


def _with_block(
    pick: _Pick,
    end: int,
    around: _Around,
    chosen: list[_Pick],
    shown_already: set[tuple[int, int]],
    how: bool,
) -> list[_Pick]:
    """`chosen` once `pick` carries the block its text (up to `end`) introduces, if any.

    The text is the pick's sentence, or with the sentence it brings along, which may be
    the one introducing the block ("… a maximum of 40 threads to be spawned. You can
    adjust this limit like this::"). Asked how (`how`), a statement's example counts too:
    the code right after it (`example_after`). A file the chunk includes below the
    sentence is shown from its own source, when that is one of the answer's
    (`included_block`).
    The block's own sentences (a list's items) are shown with it: they are marked shown,
    and a pick among them already chosen goes.
    """
    source = pick.source
    text, start = source.chunk.text, pick.position
    pick.block = introduced(text, start, end) or (example_after(text, start, end) if how else None)
    if pick.block is None:
        pick.block, pick.included = included_block(text, start, end, source, around.files)
    if pick.block is None:
        return chosen
    if pick.text.endswith(".") and not text[start:end].rstrip().endswith("."):
        pick.text = pick.text[:-1] + ":"  # "… run it as" above its code reads "… run it as:"
    inside = range(pick.block.start, pick.block.end)
    shown_already.update(
        (s.number, at) for s, at, _ in around.candidates if s is source and at in inside
    )
    return [p for p in chosen if p.source is not source or p.position not in inside]


_CONNECTIVES = frozenset(
    "therefore then also additionally however finally first next now so thus instead".split()
)
"""Words opening a sentence that link it to the one before ("Therefore add your
pull-secret …"): after "report that" it reads as no sentence."""


def _corroborated(sentence: str) -> str:
    """`sentence` as several sources state it: "Multiple sources report that the …".

    "Multiple sources report: To use …" when it cannot read as a that-clause, as a field
    or a table's row cannot ("Multiple sources report that `max_msg_size` (int): maximum
    size of read websocket message …" had been written).
    """
    first, _, rest = sentence.partition(" ")
    opening = first.lower().rstrip(",")
    named = _DESCRIBED.match(sentence) is not None
    if opening in _NO_CLAUSE | _CONNECTIVES or sentence.rstrip().endswith(":") or named:
        return f"Multiple sources report: {sentence}"
    lowered = first.lower() if first in _ARTICLES else first
    return f"Multiple sources report that {lowered} {rest}"


def _unnamed_subject(members: Sequence[_Pick]) -> str:
    """The title of a single document's answer when its sentences never name it.

    "The first public sign that the group was lip-synching came ..." answers "which band"
    only under its title, Milli Vanilli ("Milli Vanilli (band)" is named by "Milli Vanilli
    was ..."). Nothing when the location already says it.
    """
    title = subject(members[0].source.chunk, headings=False)
    said: set[str] = set().union(*(p.words for p in members))
    return title if title and not set(terms(without_asides(title))) <= said else ""


def _shown_title(title: str) -> str:
    """A title as the answer's bold line shows it.

    No markup, no citation-like brackets (a title "Milli Vanilli [2]" must not cite source
    2), asterisks escaped.
    """
    return BRACKETS.sub("", strip_markup(title)).replace("*", "\\*").strip()


_BACK = 3
"""How many sentences back a pick opening with "This …" or "It …" reaches for what it
names (a chain: "Coverage.py counts …", "This is the number …", "It then counts …")."""


def _leading(
    leading: Antecedents,
    number: int,
    start: int,
    chosen: Sequence[_Pick],
    shown_already: set[tuple[int, int]],
) -> tuple[int, str]:
    """Where a pick starts and the sentences it shows before its own (or `start` and "").

    A sentence opening with what the one before it said ("This is the number of
    executable statements …") is unreadable alone: the sentences before it are shown
    first, back to the one that names its subject ("Coverage.py counts the total number
    of possible executions."), when that is at most `_BACK` back. Nothing is added when a
    pick shows one of them already (the answer keeps each source's sentences in order, so
    what the pronoun names is there), nor when the chain goes back further or ends at a
    paragraph's first sentence that refers back too ("She …" after "She …": more of them
    would name nobody either).
    """
    taken = {(p.source.number, p.position) for p in chosen} | shown_already
    walked: list[tuple[int, str]] = []
    at = start
    while (number, at) in leading:
        previous, sentence = leading[(number, at)]
        if (number, previous) in taken or len(walked) == _BACK:
            return start, ""
        walked.insert(0, (previous, sentence))
        at = previous
    first = walked[0][1] if walked else ""
    refers = ANAPHOR.match(first) or REFERS_BACK.search(first)
    if not walked or (refers and not REPLY.match(first)):  # a reply to a title may refer
        return start, ""
    shown_already.update((number, position) for position, _ in walked)
    return at, " ".join(sentence for _, sentence in walked)
