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

With a `SentenceScorer` (the trained verifier's gate, a cross-encoder reading the question
and a sentence together) the best candidates are ordered again, and one it finds answering
better than all in reach is brought in (`_reordered`). A sentence introducing a file its
page includes (`.. literalinclude::`) shows that file's code when it is one of the sources,
and cites it too (`included_block`).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import AsyncIterator, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise, takewhile
from typing import Protocol, runtime_checkable

from citesynth.analysis import (
    ADMONITIONS,
    DEFAULT_VALUE,
    INLINE_CODE,
    content_terms,
    coverage,
    estimate_tokens,
    query_terms,
    terms,
    without_asides,
    written_open,
)
from citesynth.citations.references import without_reference_marks
from citesynth.embed.base import Embedder
from citesynth.ingest.blocks import LIST_MARKER
from citesynth.ingest.code import language_of
from citesynth.ingest.doc_comments import DOC_COMMENT_LANGUAGES, doc_comment_units
from citesynth.ingest.docstrings import docstring_units
from citesynth.ingest.fields import field_text, info_fields
from citesynth.ingest.markdown import (
    CLOSING_HASHES,
    HEADING_ATTRIBUTES,
    rendered_markdown,
    rendered_markup,
)
from citesynth.ingest.references import included_paths
from citesynth.ingest.rst import described_at
from citesynth.ingest.sentences import (
    RST_FIELD_NAME,
    adornments,
    fenced_blocks,
    prose_sentences,
    sentence_spans,
    titled,
)
from citesynth.ingest.tables import row_text, table_rows
from citesynth.llm.base import ChatModel, Piece
from citesynth.synthesis.asked import asks_number, states_number, states_number_of
from citesynth.synthesis.bounds import asks_bound, states_bound_of
from citesynth.synthesis.captions import Caption, captions
from citesynth.synthesis.changelogs import CHANGE_LOG_WEIGHT, asks_about_changes, change_log
from citesynth.synthesis.defaults import (
    DEFAULT_ASKED,
    body_defaults,
    item_defaults,
    titled_defaults,
    with_stop,
)
from citesynth.synthesis.evidence import REACH, relevance
from citesynth.synthesis.inert import inline
from citesynth.synthesis.introduced import (
    MAX_LINES,
    Included,
    Introduced,
    example_after,
    included,
    introduced,
)
from citesynth.synthesis.markup import strip_markup
from citesynth.synthesis.means import asks_means, states_means
from citesynth.synthesis.reasons import ASKING_WORDS, asks_why, states_reason
from citesynth.synthesis.releases import names_release
from citesynth.synthesis.restated import FRAMING, yes_no_proposition
from citesynth.synthesis.sources import Source, subject
from citesynth.synthesis.writers import Plan
from citesynth.types import Chunk

NOT_FOUND = "Not found in the sources."
_LIST_MARK = re.compile(r"^\s*" + LIST_MARKER + r"\s+")
_INNER_BULLET = re.compile(r"\n[ \t]*[-*+][ \t]+(?=\S)")
"""A bullet opening a line inside a quoted sentence: an item of a sentence run over a list
(`_runs`), read without it ("… will exit with: code 0 if nothing would change; code 1 …"),
or an item shown with the one before it (peewee's "``preserve=``: … we wish to update." then
"* ``update=``: if a conflict occurs, this is …" had read "… update. * ``update=``: …")."""
_DEFINITION_MARK = re.compile(r"^:\s+|^:(?=" + RST_FIELD_NAME + ")")
"""The mark opening a definition list's definition (MyST, Pandoc: ": Checks the level …"),
or a reStructuredText field's opening colon (":Exit code 5: No tests were collected" reads
"Exit code 5: No tests were collected", as Sphinx shows it)."""
_BRACKETS = re.compile(r"\s*(?:\[[\d,\s\-–^]+\]|【[^】]*】)")
_EMPHASIS = re.compile(r"\*\*(.+?)\*\*|(?<!\w)__(?=\S)(.+?)(?<=\S)__(?!\w)")
"""Strong emphasis: `**bold**`, or `__bold__` not inside a word ("snake__case__name")."""
_OPENING_STARS = re.compile(r"^\*{1,2}(?=[A-Z0-9])")
_CLOSING_STARS = re.compile(r"(?<=[.!?])\*{1,2}$")
_ANAPHOR = re.compile(r"(?:It|Its|This|These|They|Their|That|Those|He|She|Such)\b")
_REFERS_BACK = re.compile(
    r"\bthis(?=\s*(?:[.,;:!?)]|(?:out|by|with|using|via|is|can|will|works|means|happens?"
    r"|possible)\b))|,\s+that(?:['’]s|\s+(?:is|was)\b)(?!\s*,)",
    re.I,
)
"""A sentence that names what the one before it said with "this" as a pronoun ("The
``get_parameter_source`` method can be used to find this out.", "You can do this by …",
"There are two ways to make this happen:"), not as a determiner ("this case"), or with
"that" after a comma (Trio's "… you're offering your changes under that project's
license. For most projects, that's dual MIT/Apache 2 …"), not "that is," meaning "i.e."."""
_COMPLEMENT = re.compile(
    r"[\s*_]*(?:otherwise|everywhere\s+else|if\s+not\s*,"
    r"|(?:on|in|for|under)\s+(?:all\s+)?(?:the\s+)?other\s+(?:cases?|platforms?|systems?"
    r"|operating\s+systems?|situations?|conditions?|environments?|machines?|hosts?|OSe?s))\b",
    re.I,
)
"""A sentence stating the other cases of the one before it ("If the shell cannot be
determined, then on Windows systems Hatch will use … `cmd`. On all other platforms only
the `SHELL` environment variable will be used, defaulting to `bash`."): shown with it, or
the answer tells a Linux user asking for the fallback shell what Windows does."""
_REASON_BACK = re.compile(
    r"[\s*_]*(?:the\s+(?:main\s+|only\s+)?reasons?\s+(?:for\s+(?:this|that)|(?:is|was)\s+"
    r"(?:that|because))|for\s+(?:this|that|these|those)\s+reasons?"
    r"|(?:this|that)(?:'s|\s+is|\s+was)\s+(?:why|because))\b",
    re.I,
)
"""A sentence giving the reason for the one before it: "The reason for that is …", "For
this reason …", "That's why …". It says nothing without that one, even when the authors
set it apart (structlog's licence: "… shall be dual licensed as above. / --- / The reason
for that is to be both protected against patent claims …")."""
_BLANK_OR_RULE = re.compile(r"\s*(?:(?:[-*_][ \t]*){3,}\s*)?")
"""What may stand between a sentence and the reason given for it (`_REASON_BACK`): blank
lines, or a thematic break ("---"). Not a heading, code or a table: the reason of another
FAQ entry, or code the first sentence introduces, is there."""
_EXAMPLE = re.compile(r"(?:For (?:example|instance)|E\.g\.|Example)\b", re.I)
"""A sentence showing the one before it in code ("Query parameters are exposed as an
immutable multi-dict." then "For example: `request.query_params['search']`"), also as the
next paragraph: the statement names no API without it."""
_ADMONITION = re.compile(rf"^\[(?:{'|'.join(ADMONITIONS)})\]\s*(?:-{{4,}}|={{4,}})?\s*")
"""An AsciiDoc admonition's label and block delimiter ("[TIP] ---- On OpenShift ...")."""
_ASIDE_END = re.compile(r"[.!?]\s+(\([^()\n.!?]{1,60}\))[.!?]?$")
_LITERAL_MARK = re.compile(r"(?<=\S):(?=:$)|\s+::$")
"""reStructuredText's literal-block mark: "follows::" reads "follows:", "follows: ::" "follows:"."""
_ASKS = re.compile(r"\?[\s*_)\"'’”]*$")
"""A sentence that ends as a question does, past closing emphasis, brackets and quotes."""
_AUTHORS_NOTE = re.compile(r"[\s*_(]*(?:TODO|FIXME|XXX|TBD)\b")
"""A sentence that is the writers' note to themselves: "TODO: give an example using
`fail_after`" (Trio's tutorial) says what the documents lack, not what they state."""
_CONTINUES = re.compile(r"(?:and|or|but|nor|so|then|how|what|which|where|why|whose)\b")
"""A sentence opening with a conjunction or a question word in lower case: it goes on from
what stands above it. coverage.py's FAQ sets a configuration block in its sentence ("…
dynamic contexts: [code] and then use the ``--contexts`` option when generating an HTML
report."), and pip's research notes list what users searched for ("- how to uninstall
pip"): either, quoted alone, had been an answer's sentence. An item opening with a
conjunction is a piece of its list's sentence too (`_GOES_ON_FROM`)."""
_SEE_ALSO = re.compile(
    r"[\s*_(]*(?:(?:also|please)\s+)?see\b"
    r"|[\s*_(]*for\s+(?:more|further|other)\s+(?:info(?:rmation)?|details|examples?)\b[^.]*?\bsee\b"
    r"|[\s*_(]*(?:more|further)\s+(?:details|info(?:rmation)?)\b[^.]*?\b(?:is|are)\s+available\b"
    r"|[\s*_(-]*(?::[\w.+-]+(?::[\w.+-]+)?:|\{[\w.+:-]+\})`[^`\n]+`_?\s+for\b"
    r"|[\s*_(-]*`[^`\n]+`_?\s+for\s+(?:(?:additional|more|further|other)\s+)?(?:discussion"
    r"|details|info(?:rmation)?|examples?|syntax)(?:\s+and\s+(?:example\s+)?(?:examples|usage))?"
    r"[\s.)]*$",
    re.IGNORECASE,
)
"""A sentence sending the reader elsewhere: "See `aiohttp-client-timeouts` for usage
examples.", "For more info see `call_historic`.", "More details about … is available here
`aiohttp-client-timeouts`.", and the items of a "see also" box, a reference and what it is
for (peewee's "* :ref:`upsert` for additional discussion.": a role's reference and what it
is for, or code and nothing but "for discussion", "for more details", "for syntax and
examples"; an option list's "- `--verbose` for more information about each request." is
none). In an answer it points at a label the reader cannot follow (a cross-reference is
shown as its target's name) and states nothing. Matched against the sentence alone."""
_CODE_SUBJECT = re.compile(
    r"[\s*_]*(?:Would|Will|Should|Could|Might|Must|Shall)\s+(?:also\s+|then\s+|now\s+)?"
    r"(?!you\b|we\b|I\b|it\b|they\b|he\b|she\b|this\b|that\b|these\b|those\b|there\b|the\b"
    r"|an?\b|your\b|my\b|our\b|its\b|their\b|not\b|any\b|each\b|every\b|some\b)[a-z]"
    r"(?![^,.;:!?\n]*,)"
)
"""A statement whose subject is the code above it: "Would cause all WikiLinks to be
assigned to the class `myclass`." under a `markdown(…, html_class='myclass')` example
(Python-Markdown's docs) says nothing alone ("Would you …?" asks: `_ASKS`); an inverted
condition ("Should any request fail, the client retries it") has its subject."""
_PAGE_CONTINUED = re.compile(r"[a-z]+[ \t,;]")
"""A PDF page opening with a plain lower-case word: the end of a sentence the page before
began ("at the shell prompt to install to the library tree …" atop R-FAQ's page 27). A
chunk never spans pages, so the part on this page is no sentence; one opening with code
("install.packages can install a source package …") is."""
_HOW = re.compile(
    r"\s*(?:how\s+(?!many|much|long|old|far|often|big|large|tall|high)\w+"
    r"|what(?:'s|\s+is)\s+the\s+(?:\w+\s+)?way\b|is\s+there\s+a\s+way\b|show\s+me\b)",
    re.I,
)
"""A question asking how to do something ("How do I …", "What is the best way to …"),
answered by an example as much as by a statement; not "How many …"."""
_TERM_MARK = re.compile(r"(?<=\S)::(?=\s)")
"""An AsciiDoc description list's mark between a term and its definition."""
_CANDIDATE_WORDS = 5
"""How many words a sentence needs to be a candidate of its own (`prose_sentences`)."""
_ARTICLES = frozenset("The A An This These That Those It Its Each Every Most Some All".split())


def clean(sentence: str) -> str:
    """A source sentence as the answer shows it: one line, no markup, list marks or refs.

    A closing aside the sentence splitter kept with its sentence moves inside it, so that
    the answer cites one sentence, not a sentence and a fragment. reStructuredText is
    rendered first (`rendered_rst`): a hyperlink reference whose text and address are on two
    lines (tenacity's docs) holds no code span to protect its address, which `strip_markup`
    would show as a broken tag ("a fork of retrying ‹https://…>").
    """
    sentence = _INNER_BULLET.sub("\n", sentence)  # the items of a sentence run over a list
    sentence = _BOLD_TERM.sub(r"\1: ", sentence)  # "**NO_COLOR**" over its definition
    text = rendered_markup(sentence)  # "[`codehilite`][codehilite]" -> `codehilite`
    text = _LIST_MARK.sub("", " ".join(strip_markup(text).split()))
    text = _DEFINITION_MARK.sub("", text)
    text = _ADMONITION.sub("", text)
    text = _plain_emphasis(_BRACKETS.sub("", text))
    text = _unpaired(text)  # "**Do not use …" of a bold run over two sentences
    text = _ASIDE_END.sub(r" \1", text)  # "no limits. (Default 100)" -> "no limits (Default 100)."
    text = _LITERAL_MARK.sub("", text)  # reStructuredText shows "follows::" as "follows:"
    text = _TERM_MARK.sub(":", text)  # AsciiDoc's "‹name›:: Specifies …" reads "‹name›: …"
    text = text.removesuffix(",")  # an item of a sentence run over a list ("…, - … is …,")
    ends = text.rstrip("\"'”’)]")  # 'under "North Africa."' already ends a sentence
    return text if ends.endswith((".", "!", "?", ":", ";")) else text + "."


_BOLD_TERM = re.compile(r"\A(\*\*[^*\n]+\*\*)[ \t]*\n[ \t]+(?=[^\s:])")
"""A term in bold alone on its line above its indented definition (a definition list's, as
tox's man page writes its environment variables): the answer reads "TOX_PARALLEL_NO_SPINNER:
When set, disables …", not the two run together."""


def _plain_emphasis(text: str) -> str:
    """`text` without strong-emphasis marks outside code: `__init__` in code stays."""
    kept, index = [], 0
    for span in INLINE_CODE.finditer(text):
        kept.append(_EMPHASIS.sub(_emphasised, text[index : span.start()]))
        kept.append(span.group())
        index = span.end()
    kept.append(_EMPHASIS.sub(_emphasised, text[index:]))
    return "".join(kept)


def _emphasised(found: re.Match[str]) -> str:
    return found.group(1) or found.group(2)


def _unpaired(sentence: str) -> str:
    """`sentence` without the asterisks of a bold or emphasised run it only begins or ends.

    A run of several sentences ("**Do not use the development server when deploying to
    production. It is intended for use only during local development.**") leaves its
    opening asterisks on its first sentence and its closing ones on its last; a sentence
    emphasised whole loses both.
    """
    opening = _OPENING_STARS.search(sentence)
    closing = _CLOSING_STARS.search(sentence)
    inner = sentence.count("*") - len(opening.group() if opening else "")
    inner -= len(closing.group() if closing else "")
    if inner:
        return sentence
    start = opening.end() if opening else 0
    end = closing.start() if closing else len(sentence)
    return sentence[start:end]


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
    substituted = bool(_apart(pick.words, words)) and bool(_apart(words, pick.words))
    return not substituted and _details(said) == _details(shown)


def _apart(a: frozenset[str], b: frozenset[str]) -> frozenset[str]:
    """The terms of `a` that `b` lacks, less those `b` writes otherwise.

    A name closed in one and open in the other ("hookwrapper", "hook wrapper";
    `written_open`) is in both.
    """
    only = a - b
    closed = {t for t in only if written_open([t], b)}
    return only - closed - written_open(b - a, a)


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


SHORTLIST = 24
"""How many of the best candidates by relevance a `SentenceScorer` reads again."""
SCORER_WEIGHT = 0.3
"""How much the scorer's probability adds to a shortlisted candidate's relevance."""
ANSWERS = 0.5
"""A scorer's probability from which a shortlisted sentence below reach is brought in, when
no sentence in reach has as much (`_reordered`)."""
MEANS_REACH = 0.5
"""Asked how to do something, a sentence giving a means (`means.states_means`) scoring at
least this share of the best candidate may be brought in after a neighbour in reach
(`_means_first`)."""


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
    ) -> None:
        self.embedder = embedder
        self.scorer = scorer
        """Reads the question against the best candidates again (None: relevance alone)."""
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
        candidates, following, numbered, leading = _candidates(sources)
        how = _HOW.match(question) is not None
        # Asked how, a comment saying what the code below it does is a candidate too,
        # shown with its code (`captions`).
        captioned = _captioned(sources, candidates) if how else {}
        tabled = _tabled(sources, candidates) | _fielded(question, sources, candidates)
        if not candidates:
            return []
        number = asks_number(question)
        # For a number or a default question a sentence is read with the value it is
        # followed by: "`max_age` - Session expiry time in seconds." says how long with
        # "Defaults to 2 weeks."
        # Asked for a default, or for a number (which a setting left alone has: "If I leave
        # the settings alone, how many seconds will Scrapy wait …?"), an item is read and
        # shown with the default it goes on to state.
        default = DEFAULT_ASKED.search(question) is not None
        valued = number or default
        stated, tails = _stated_defaults(sources) if valued else ({}, {})
        numbered = {**numbered, **stated}
        why = asks_why(question)
        read = _readings(candidates, numbered if valued else {}, leading, why)
        ranked = await self._ranked(question, candidates, read)
        if not ranked or ranked[0][0] < self.min_score:
            return []
        top = ranked[0][0]
        floor = max(self.min_score, top * self.keep_ratio)
        ranked = await self._reread(question, candidates, read, ranked, floor)
        if number:
            following = {**numbered, **following}
        texts = {
            (s.number, start): text for (s, start, _), text in zip(candidates, read, strict=True)
        }
        low = max(self.min_score, top * MEANS_REACH)
        ranked, lifted = _asked_first(
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
                said = clean(sentence)
                chosen.append(_Pick(said, score, source, start, words, said, block=caption.block))
            elif (source.number, start) in tabled:
                said = clean(sentence)
                chosen.append(_Pick(said, score, source, start, words, said))
            else:
                pick = _Pick("", score, source, start, words, clean(sentence))
                chosen = self._with_prose(pick, sentence, read_with, chosen, shown_already, how)
        return [p for p in chosen if not _listed_already(chosen, p)]

    async def _reread(
        self,
        question: str,
        candidates: Sequence[tuple[Source, int, str]],
        read: Sequence[str],
        ranked: list[tuple[float, Source, int, str]],
        floor: float,
    ) -> list[tuple[float, Source, int, str]]:
        """`ranked` reordered by the scorer (`_reordered`); as it is without one."""
        if self.scorer is None:
            return ranked
        texts = {
            (s.number, start): text for (s, start, _), text in zip(candidates, read, strict=True)
        }
        return await _reordered(self.scorer, question, ranked, texts, floor)

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
            # after 3 sessions. This behavior can be configured with …").
            later, then = around.following.get((source.number, last), (-1, ""))
            if then and later >= end and (stated is not None or DEFAULT_VALUE.match(then)):
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
                yield lead + _cited_sentences(text, numbers)
                if pick.block is not None:
                    yield "\n\n" + shown_block(pick.block, str(pick.source.number))


@dataclass(frozen=True, slots=True)
class _Around:
    """What the candidates' neighbours are: the sentences they bring along or lean on."""

    candidates: Sequence[tuple[Source, int, str]]
    following: _Followers
    leading: _Antecedents
    tails: Mapping[tuple[int, int], int]
    """(source number, offset) of an item's first sentence -> offset of the sentence stating
    its default, the last of those `following` brings along (`item_defaults`)."""
    files: IncludedFiles = field(default_factory=lambda: IncludedFiles({}, frozenset()))
    """The sources a file a sentence includes is shown from, if found (`included_files`)."""


def _captioned(
    sources: Sequence[Source], candidates: list[tuple[Source, int, str]]
) -> dict[tuple[int, int], Caption]:
    """The code captions of the sources, by (source number, offset), added to `candidates`."""
    found = {}
    for source in sources:
        for caption in captions(source.chunk.text):
            found[(source.number, caption.start)] = caption
            candidates.append((source, caption.start, caption.sentence))
    return found


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


async def _reordered(
    scorer: SentenceScorer,
    question: str,
    ranked: list[tuple[float, Source, int, str]],
    read: Mapping[tuple[int, int], str],
    floor: float,
) -> list[tuple[float, Source, int, str]]:
    """`ranked` (by relevance) with its best `SHORTLIST` read again by `scorer`.

    Relevance reads each sentence and the question apart (MiniLM cosines, shared terms); a
    cross-encoder reads them together, and tells the sentence that answers from the one
    that shares the question's words: "Black will not reformat … blocks that start with
    `# fmt: off`" from "doctests inside Python code blocks will not be formatted", asked
    "How do I stop Black from formatting a block of code?". Every shortlisted sentence at
    or above `floor` is ordered by relevance plus `SCORER_WEIGHT` × the scorer's
    probability, and so is any below it that the scorer finds answering (`ANSWERS`) better
    than every sentence in reach, lifted to `floor`: relevance missed the answer (Flask's
    "use ``flask run --port 5001``", 0.79, where the best in reach had 0.03). Not when a
    sentence in reach answers as well: a pointer ("Check out `validators` for more
    details.", 0.8) had taken the place of attrs' "The method has to accept three
    arguments:". The rest keep their place below. Which sentences are in reach otherwise
    stays with relevance: the scorer alone would keep fewer, and lose the sentence that
    goes on to say how ("In this case you should use `TestClient(app,
    raise_server_exceptions=False)`").
    """
    shortlist = ranked[:SHORTLIST]
    probabilities = await scorer.answering(
        question,
        [
            " ".join(
                read[source.number, start].removeprefix(section_of(source.chunk, start)).split()
            )
            for _, source, start, _ in shortlist
        ],
    )
    reached = max(
        (p for (score, *_), p in zip(shortlist, probabilities, strict=True) if score >= floor),
        default=0.0,
    )
    lifted = [
        (max(score, floor) + SCORER_WEIGHT * probability, source, start, sentence)
        for (score, source, start, sentence), probability in zip(
            shortlist, probabilities, strict=True
        )
        if score >= floor or (probability >= ANSWERS and probability > reached)
    ]
    kept = {(source.number, start) for _, source, start, _ in lifted}
    rest = [item for item in ranked if (item[1].number, item[2]) not in kept]
    return sorted(lifted, key=lambda item: (-item[0], item[1].number, item[2])) + rest


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


def included_block(
    text: str, start: int, end: int, source: Source, files: IncludedFiles
) -> tuple[Introduced | None, Source | None]:
    """The code of the file `text[start:end]` includes below it, and the source holding it.

    (None, None) when it includes none, or the file's first chunk is not one of the
    answer's sources (retrieval brings it along with the passage including it:
    `ingest.references`): a later chunk is no file's beginning. A first chunk that may not
    be the whole file (`WHOLE_FILE_TOKENS`, or a later chunk of the file is a source too:
    `IncludedFiles.continued`) is shown ending "…".
    """
    found = included(text, start, end)
    if found is None and not text[end:].strip():
        following = files.following(source)  # the sentence ends its chunk: the include opens
        if following is not None:  # the next one ("Let's start with the node classes:")
            found = included(f"{text[:end]}\n\n{following.chunk.text.lstrip()}", start, end)
    if found is None:
        return None, None
    paths = included_paths(found.target, source.chunk.path)
    if found.pyobject:
        return _defined(found, paths, source, files)
    shown = next((files.first[p] for p in paths if p in files.first), None)
    if shown is None or shown is source:
        return None, None
    whole = files.whole(shown)
    lines = shown.chunk.text.strip("\n").split("\n")
    if found.lines:
        picked = _picked_lines(shown.chunk.text, shown.chunk.start_line, found.lines, whole)
        if picked is None:
            return None, None
        lines, whole = picked
    return _file_code(found, lines, shown, whole), shown


def _file_code(found: Included, lines: Sequence[str], held: Source, whole: bool) -> Introduced:
    """The code block of `lines` of an included file, which `held` holds.

    At most `MAX_LINES`; complete when the lines are `whole` and all shown.
    """
    return Introduced(
        "code",
        found.start,
        found.end,
        tuple(lines[:MAX_LINES]),
        language_of(held.chunk.path) or "",
        complete=whole and len(lines) <= MAX_LINES,
    )


def _defined(
    found: Included, paths: Sequence[str], source: Source, files: IncludedFiles
) -> tuple[Introduced | None, Source | None]:
    """The function or class `:pyobject:` names, from the source of the file that defines it.

    Its `def` or `class` line and the lines below it, up to the first one indented no
    deeper that is not a closing bracket; ending "…" where the chunk stops first (unless
    the chunk is the whole file). (None, None) when no source of the file defines it.
    """
    name = found.pyobject.rsplit(".", 1)[-1]
    opening = re.compile(
        rf"^([ \t]*)(?:async[ \t]+)?(?:def|class)[ \t]+{re.escape(name)}\b", re.MULTILINE
    )
    for (path, _), held in sorted(files.starts.items(), key=lambda item: item[0]):
        if path not in paths or held is source:
            continue
        match = opening.search(held.chunk.text)
        if match is None:
            continue
        depth = len(match[1].expandtabs())
        body = held.chunk.text[match.start() :].split("\n")
        lines, ended = [body[0]], False
        for line in body[1:]:
            stripped = line.lstrip()
            if stripped and len(line) - len(stripped) <= depth and stripped[0] not in ")]}":
                ended = True
                break
            lines.append(line)
        shown = textwrap.dedent("\n".join(lines)).strip("\n").split("\n")
        return _file_code(found, shown, held, ended or files.whole(held)), held
    return None, None


def _picked_lines(
    text: str, first_line: int, ranges: Sequence[tuple[int, int | None]], whole: bool
) -> tuple[list[str], bool] | None:
    """The lines `:lines:` shows of a file's first chunk, dedented, and whether that is all.

    `text` is the chunk, from the file's line `first_line`; None when it holds none of the
    lines. A range past the chunk's end is shown up to it, ending "…", unless the chunk is the
    `whole` file.
    """
    written = text.split("\n")
    last_line = first_line + len(written) - 1
    picked: list[str] = []
    complete = True
    for start, end in ranges:
        stop = last_line if end is None else end
        if (end is None or end > last_line) and not whole:
            complete = False
        shown = range(max(start, first_line), min(stop, last_line) + 1)
        picked.extend(written[n - first_line] for n in shown)
    if not any(line.strip() for line in picked):
        return None
    return textwrap.dedent("\n".join(picked)).strip("\n").split("\n"), complete


WHOLE_FILE_TOKENS = 150
"""A file's first chunk shorter than this (in estimated tokens) is the whole file: chunking
cuts code at about 200 (`IngestOptions.chunk_tokens`); a longer one is shown ending "…"."""


@dataclass(frozen=True, slots=True)
class IncludedFiles:
    """The sources a file a page includes may be shown from (`included_files`)."""

    first: Mapping[str, Source]
    """The sources that are a file's first chunk, by path (the best-ranked of equals)."""
    continued: frozenset[str]
    """The paths of which a later chunk than the first is a source: files longer than it."""
    starts: Mapping[tuple[str, int], Source] = field(default_factory=dict)
    """Every source by its document and first line."""

    def whole(self, source: Source) -> bool:
        """Whether `source` is a whole file.

        It is the file's first chunk, shorter than `WHOLE_FILE_TOKENS`, and no later chunk
        of the file is a source.
        """
        return (
            source.chunk.char_start == 0
            and estimate_tokens(source.chunk.text) < WHOLE_FILE_TOKENS
            and source.chunk.path not in self.continued
        )

    def following(self, source: Source) -> Source | None:
        """The source that goes on where `source` stops in its document, if one does.

        It starts at most `NEXT_CHUNK_GAP` lines below: a chunk ends on a sentence
        introducing a block that did not fit beside it, and the block opens the next one.
        """
        end = source.chunk.end_line
        return next(
            (
                found
                for line in range(end + 1, end + 2 + NEXT_CHUNK_GAP)
                if (found := self.starts.get((source.chunk.path, line))) is not None
            ),
            None,
        )


NEXT_CHUNK_GAP = 2
"""Blank lines there may be between a chunk's last line and the next chunk's first."""


def included_files(sources: Sequence[Source]) -> IncludedFiles:
    """The files among `sources`: their first chunks, and which go on in a later one."""
    return IncludedFiles(
        {s.chunk.path: s for s in reversed(sources) if s.chunk.char_start == 0},
        frozenset(s.chunk.path for s in sources if s.chunk.char_start > 0),
        {(s.chunk.path, s.chunk.start_line): s for s in reversed(sources)},
    )


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
    return _BRACKETS.sub("", strip_markup(title)).replace("*", "\\*").strip()


_IDENTIFIER = re.compile(r"`{0,2}([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*(?:\(\))?)`{0,2}")
_CODE_CASE = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]|[_.]|\(\)")
"""How an identifier is written that no word of prose is: camelCase, an acronym run into a
word ("HTMLResponse"), snake_case, a dotted path or a call."""


def unnamed_identifier(chunk: Chunk, offset: int, sentence: str) -> str:
    """The identifier a sentence's section is headed by, when the sentence does not name it.

    Reference pages head a section with what it documents and describe it without naming
    it: under "### StreamingResponse", "Takes an async generator or a normal
    generator/iterator and streams the response body." The extractive answer heads such a
    sentence with the name; quoted alone it does not say which class to use. Only a
    heading that is one identifier (`_CODE_CASE`) counts: "Cookies" or "Installation" name
    no API. "" when there is none, or the sentence names it (or its last dotted part).
    """
    heading = section_of(chunk, offset).removesuffix(": ")
    found = _IDENTIFIER.fullmatch(heading)
    if found is None or not _CODE_CASE.search(found.group(1)):
        return ""
    name = found.group(1)
    said = sentence.lower()
    return "" if name.lower() in said or name.rsplit(".", 1)[-1].lower() in said else name


def unnamed_release(source: Source, offset: int, sentence: str) -> str:
    """The release heading a change log's sentence stands under, when it does not name it.

    A change log lists its changes under a heading per release ("Trio 0.32.0
    (2025-10-31)", then "Deprecations and removals"), each change written without it:
    "Drop support for Python 3.9 (#3345)" quoted alone does not say which release dropped
    it. The nearest heading above the sentence that writes a release number (`releases.
    names_release`), in the chunk or on its heading path; "" when the document is no
    change log (`changelogs.change_log`), there is none, or the sentence writes it.
    """
    chunk = source.chunk
    if not change_log(source.document, chunk.title):
        return ""
    above = [heading for end, heading in _headings(chunk.text) if end <= offset]
    release = next((h for h in reversed([*chunk.heading_path, *above]) if names_release(h)), "")
    release = " ".join(release.split())
    return "" if not release or release.lower() in sentence.lower() else release


_MARKDOWN_HEADING = re.compile(r"^ ?#{1,6}[ \t]+(\S[^\n]*)$", re.MULTILINE)
"""A Markdown heading's line. Not an indented one: that is a comment of indented code (a
reStructuredText literal block's "    # Initialize the rest of the application here" had
headed APScheduler's next sentence)."""


def section_of(chunk: Chunk, offset: int) -> str:
    """The heading of the section holding `chunk.text[offset]`, as a lead-in ("Immutability: ").

    The name of the Sphinx object whose description holds it (`rst.described_at`: Flask's
    ".. py:data:: TEMPLATES_AUTO_RELOAD" over "Reload templates when they are changed."),
    else the last heading above it in the chunk (outside code: a Markdown "#" heading or an
    underlined title, `_headings`), else the chunk's
    deepest heading; "" when it has none, or the heading is the document's title (a
    record's heading path is its title: every sentence of it would read the same).
    """
    described = described_at(chunk.text, offset)  # ".. py:data:: TEMPLATES_AUTO_RELOAD"
    if described:
        return f"{described}: "
    above = [heading for end, heading in _headings(chunk.text) if end <= offset]
    heading = above[-1] if above else (chunk.heading_path or ("",))[-1]
    heading = " ".join(heading.split())
    return f"{heading}: " if heading and heading != chunk.title else ""


@lru_cache(maxsize=256)
def _headings(text: str) -> tuple[tuple[int, str], ...]:
    """The headings of `text` outside code, in order, each with where its last line ends.

    Markdown's "# Heading" lines, and the titles that adornment lines underline
    (`sentences.adornments`, `sentences.titled`): a chunk packing several small sections of
    a reference page (Django's settings, each titled and underlined) reads each sentence
    under its own title, not under the chunk's common heading ("Sessions"). Read once per
    chunk: every candidate sentence of the chunk asks for its section.
    """
    code = fenced_blocks(text)
    found = [
        (m.start(), m.end(), _markdown_heading(m.group(1)))
        for m in _MARKDOWN_HEADING.finditer(text)
    ]
    for line_start, line_end in adornments(text):
        if (title := titled(text, line_start, line_end)) is not None:
            found.append((title[0], line_end, text[title[0] : title[1]].strip()))
    return tuple(
        (end, heading)
        for start, end, heading in sorted(found)
        if not any(a <= start < b for a, b in code)  # a comment: "# Use a timeout"
    )


def _markdown_heading(written: str) -> str:
    """A Markdown heading's title as written, less its closing marks, attributes and links.

    Hatch's change log heads each release "## [1.32.0](https://github.com/…) - 2026-08-11
    ## {: #hatchling-v1.32.0 }": the closing "##" stands before the attribute list, and the
    release had been shown with both and the link's address. A reference link is its text
    ("## [3.3.0] - 2020-10-06" is "3.3.0 - 2020-10-06").
    """
    title = HEADING_ATTRIBUTES.sub("", CLOSING_HASHES.sub("", written.rstrip()))
    title = CLOSING_HASHES.sub("", title)
    return _SHORTCUT.sub(r"\1", rendered_markdown(_LINK.sub(r"\1", title)))


_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\s]*\)")
"""A Markdown link, "[1.32.0](https://…)": its text is what a heading says."""
_SHORTCUT = re.compile(r"(?<![\]\\!])\[([^\[\]\n]+)\](?![(\[:])")
"""A shortcut reference link, "[3.3.0]": Python-Markdown's change log heads each release "##
[3.3.0] - 2020-10-06" (Keep a Changelog's style), its label defined at the page's foot."""


_Followers = dict[tuple[int, int], tuple[int, str]]
"""(source number, sentence offset) -> (offset, text) of the sentence shown after it."""


def _candidates(
    sources: Sequence[Source],
) -> tuple[list[tuple[Source, int, str]], _Followers, _Followers, _Antecedents]:
    """Every prose sentence of the sources (source, offset, text), and followers.

    A sentence whose successor in the same paragraph starts "It ..." or refers back to it
    with "this" ("… can be used to find this out."), or whose successor gives the reason for
    it ("The reason for that is …", `_REASON_BACK`: past blank lines or a rule too), maps to
    that successor (offset, text),
    and so does one followed, in the paragraph after, by an example in code (`_EXAMPLE`):
    the answer shows them together. The third value maps a sentence to a successor too
    short to be a candidate of its own that states a number (reference pages: "Warn if
    cookie headers are larger than this many bytes. Defaults to ``4093``."): for a
    question asking for a number, it is shown with the sentence before it. A successor
    stating a default without saying of what (`DEFAULT_VALUE`: "Defaults to `[TOC]`.")
    is mapped whatever its length, is always shown with the sentence before it, and
    brings that one along when quoted itself (asked "What text is used for the footnote
    backlink by default?", the writer had quoted "Defaults to `Jump back to footnote {}
    in the text`." of the option below, and not `BACKLINK_TEXT`'s "Defaults to
    `&#8617;`.", too short a sentence to be a candidate). The fourth maps
    a sentence referring back to the one before it to that one (`_leading`). A line of
    code or a log that passed for prose (`_symbolic`: a chunk cut inside an example has no
    fence to say so) is never quoted, nor a piece of a sentence run over a list's items
    (`_pieces`: "2. the *attribute* that it's validating, and finally"), nor a question
    (`_ASKS`: "Want to create your own field type?" states nothing; what follows does),
    nor a sentence going on from the text above it (`_CONTINUES`: "and then use …"),
    nor the writers' note to themselves (`_AUTHORS_NOTE`: "TODO: give an example"), nor a
    pointer elsewhere (`_SEE_ALSO`: "For more info see `call_historic`."), nor a
    statement whose subject is the code above it (`_CODE_SUBJECT`: "Would cause all …").
    Python source has no prose but its docstrings, nor C-family code but its doc comments,
    read apart (`_fielded`): what passed for prose in them was code ("os.close(cert_handle)
    … return ctx"), a docstring's closing quotes, or a comment run into the code below it
    ("… between requests. */ export class Client { /**").
    """
    candidates: list[tuple[Source, int, str]] = []
    following: _Followers = {}
    numbered: _Followers = {}
    leading: _Antecedents = {}
    for source in sources:
        text = source.chunk.text
        language = language_of(source.chunk.path)
        documented = language == "python" or language in DOC_COMMENT_LANGUAGES
        every = () if documented else _sentence_spans(text)
        pieces = _pieces(text, every)
        spans = [
            (a, b)
            for a, b in every
            if (len(text[a:b].split()) >= _CANDIDATE_WORDS or _titled_answer(source.chunk, a, b))
            and (a, b) not in pieces
            and not _ASKS.search(text[a:b])
            and not _AUTHORS_NOTE.match(text, a)
            and not _CODE_SUBJECT.match(text, a)
            and not _SEE_ALSO.match(text[a:b])
            and not _CONTINUES.match(_LIST_MARK.sub("", text[a:b], count=1))
            and not (a == 0 and _continued_from_page_before(source.chunk))
        ]
        runs = _runs(text, every, pieces)
        spans = sorted({**dict(spans), **runs}.items())
        candidates.extend((source, start, text[start:end]) for start, end in spans)
        adjacent = {a: b for (a, _), (b, _) in pairwise(every)}
        for (start, end), (after, stop) in pairwise(spans):
            successor = text[after:stop]
            refers = (
                _ANAPHOR.match(successor)
                or _REFERS_BACK.search(successor)
                or _COMPLEMENT.match(successor)
            )
            # "This is an additional check" after "The default is 1000." refers to that one;
            # a reason for it, even as a paragraph of its own or below a rule
            gap = text[end:after]
            reason = _REASON_BACK.match(successor) and _BLANK_OR_RULE.fullmatch(gap)
            if (reason or (refers and "\n\n" not in gap)) and adjacent.get(start) == after:
                following[(source.number, start)] = (after, successor)
                leading[(source.number, after)] = (start, text[start:end])
        candidate = set(spans)
        for (start, end), (after, stop) in pairwise(every):
            if (
                (start, end) not in candidate
                and (after, stop) in candidate
                and "\n\n" not in text[end:after]
                and _REPLY.match(text[start:end])
                and _answers_title(source.chunk, start)
            ):  # "Does WTForms handle file uploads?" / "Currently, it does not. This is …"
                leading.setdefault((source.number, after), (start, text[start:end]))
            successor = text[after:stop]
            example = _EXAMPLE.match(successor) and INLINE_CODE.search(successor)
            if example and not text[end:after].strip():
                following.setdefault((source.number, start), (after, successor))
        for (start, end), (after, stop) in pairwise(every):
            successor = text[after:stop]
            if text[end:after].count("\n\n") and not _default_paragraph(text, end, after, stop):
                continue
            if DEFAULT_VALUE.match(successor):
                numbered[(source.number, start)] = (after, successor)
                following[(source.number, start)] = (after, successor)  # before any "This …"
                leading.setdefault((source.number, after), (start, text[start:end]))
            elif _value_after(text[start:end], successor):
                numbered[(source.number, start)] = (after, successor)
    return candidates, following, numbered, leading


_REPLY = re.compile(
    r"[\s*_]*(?:(?:yes|no)\b|(?:currently|not\s+yet|unfortunately)\b[^.!?\n]{0,30}\bnot\b"
    r"|it\s+(?:does|is|can|will|doesn't|isn't|can't|won't)\b)[^.!?\n]{0,30}[.!]$",
    re.I,
)
"""A short reply to the question a section's title asks: "Currently, it does not.",
"Yes.", "No, it is not.", "It does."."""


def _answers_title(chunk: Chunk, start: int) -> bool:
    """Whether the sentence at `start` opens a section whose title asks a question.

    WTForms' FAQ titles a section "Does WTForms handle file uploads?" and replies
    "Currently, it does not. This is because WTForms strives to be framework-agnostic, …":
    the reply, too short to be a candidate, is shown before the reason that is one (which,
    quoted alone, had said "This is because …" of nothing), the title naming what "it" is.
    The title is the last heading above it in the chunk, or the chunk's deepest one when
    the chunk opens with the reply.
    """
    text = chunk.text
    above = [(end, heading) for end, heading in _headings(text) if end <= start]
    if above:
        end, title = above[-1]
    else:
        end, title = 0, (chunk.heading_path or ("",))[-1]
    return not text[end:start].strip() and _ASKS.search(title) is not None


_TITLED_ANSWER_WORDS = 3


def _titled_answer(chunk: Chunk, start: int, end: int) -> bool:
    """Whether a sentence too short to be a candidate answers its section's title.

    WTForms' FAQ: "What versions of Python are supported?" over "WTForms supports Python
    3.10+", four words that say what is asked. Not a reply leaning on the title ("It
    does.": `_REPLY`, shown before the sentence after it), nor one referring back.
    """
    sentence = chunk.text[start:end]
    return (
        len(sentence.split()) >= _TITLED_ANSWER_WORDS
        and not _REPLY.match(sentence)
        and not _ANAPHOR.match(sentence)
        and not _REFERS_BACK.search(sentence)
        and _answers_title(chunk, start)
    )


_VALUE_WORDS = 8
"""How many words a sentence stating a number of the one before it may have (`_value_after`)."""


def _value_after(sentence: str, successor: str) -> bool:
    """Whether `successor` states a number of `sentence`, as a value following it.

    Too short to be a candidate of its own ("Defaults to ``4093``."), or short and naming
    what `sentence` names: Celery's "A built-in periodic task will delete the results after
    this time … The task runs daily at 4am." answers at what time the cleanup runs.
    """
    words = successor.split()
    if len(words) < _CANDIDATE_WORDS:
        return states_number([successor])
    if not states_number([successor], versions=False):  # "… added in Celery 4.0.": no value
        return False
    return len(words) <= _VALUE_WORDS and bool(
        set(content_terms(successor)) & set(content_terms(sentence))
    )


def _runs(
    text: str, spans: Sequence[tuple[int, int]], pieces: Collection[tuple[int, int]]
) -> dict[int, int]:
    """Sentences run over a list, whole: each lead-in's start -> its last item's end.

    A lead-in ending in ":" whose list items are pieces of its sentence (`_pieces`) is
    quoted with them as one sentence: Black's "_Black_ will exit with:" over "- code 0 if
    nothing would change;", "- code 1 if some files would be reformatted; or" and "- code
    123 if there was an internal error" says what status 123 means, and neither the lead-in
    (too short) nor any item alone (a piece) had been a candidate. The items must read as
    one sentence: each but the last goes on (`_GOES_ON`: ", ", "; or"), the last ends it.
    A list of cases or ways whose items end in nothing or a stop ("There are two ways to
    make this happen:" over "#. by calling `remove_job` …") is shown as a block below its
    lead-in, as is a run of more than `_RUN_WORDS` words. At least two items.
    """
    runs: dict[int, int] = {}
    for index, (start, end) in enumerate(spans):
        if not text[start:end].rstrip("*_ \n").endswith(":"):
            continue
        items = list(takewhile(lambda span: _item_piece(text, span, pieces), spans[index + 1 :]))
        endings = [_GOES_ON.search(text[a:b].rstrip("*_ \n")) is not None for a, b in items]
        one_sentence = len(items) >= 2 and all(endings[:-1]) and not endings[-1]
        if one_sentence and len(text[start : items[-1][1]].split()) <= _RUN_WORDS:
            runs[start] = items[-1][1]
    return runs


def _item_piece(text: str, span: tuple[int, int], pieces: Collection[tuple[int, int]]) -> bool:
    """Whether `span` of `text` is a list item that is a piece of a sentence (`_runs`)."""
    return span in pieces and _LIST_MARK.match(text[span[0] : span[1]]) is not None


_RUN_WORDS = 60
"""The most words of a sentence run over a list that is quoted whole (`_runs`)."""


def _default_paragraph(text: str, end: int, after: int, stop: int) -> bool:
    """Whether the sentence at `after` is a paragraph of its own, stating a bare default.

    Right after the paragraph ending at `end` (one blank line between), stating a default
    of nothing it names (`DEFAULT_VALUE`), it says what that paragraph set: aiohttp's "The
    example limits total amount of parallel connections to `30`." then, alone, "The
    default is `100`." (asked the default limit, the writer had quoted the 30 alone).
    """
    if text[end:after].strip() or text[end:after].count("\n") != 2:
        return False
    closes = text.startswith("\n\n", stop) or not text[stop:].strip()
    return closes and DEFAULT_VALUE.match(text, after) is not None


def _continued_from_page_before(chunk: Chunk) -> bool:
    """Whether `chunk` opens a PDF page with the end of a sentence begun on the page before."""
    return (
        chunk.page is not None and chunk.start_line == 1 and bool(_PAGE_CONTINUED.match(chunk.text))
    )


@lru_cache(maxsize=256)
def _sentence_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The prose sentences of a chunk, code and logs that passed for prose aside (`_symbolic`).

    Read once per chunk: the candidates and the defaults its items state both need them.
    """
    return tuple((a, b) for a, b in prose_sentences(text, min_words=1) if not _symbolic(text[a:b]))


def _stated_defaults(
    sources: Sequence[Source],
) -> tuple[_Followers, dict[tuple[int, int], int]]:
    """The default each item of the sources goes on to state, by its first sentence.

    First, the sentences shown to reach it (`item_defaults`); second, the offset of the
    sentence stating it.
    """
    stated: _Followers = {}
    tails: dict[tuple[int, int], int] = {}
    for source in sources:
        text = source.chunk.text
        every = _sentence_spans(text)
        titles = [0, *(end for end, _ in _headings(text))]  # a chunk opens a section's text
        stated_in = {
            **titled_defaults(text, every, titles),
            **body_defaults(text, every),
            **item_defaults(text, every),
        }
        for head, (first, default, end) in stated_in.items():
            stated[(source.number, head)] = (first, text[first:end])
            tails[(source.number, head)] = default
    return stated, tails


_Antecedents = dict[tuple[int, int], tuple[int, str]]
"""(source number, sentence offset) -> (offset, text) of the sentence before it in its
paragraph, which it refers back to ("It …", "… do this by …"), or gives the reason for
(`_REASON_BACK`, maybe a paragraph of its own)."""
_BACK = 3
"""How many sentences back a pick opening with "This …" or "It …" reaches for what it
names (a chain: "Coverage.py counts …", "This is the number …", "It then counts …")."""


def _leading(
    leading: _Antecedents,
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
    refers = _ANAPHOR.match(first) or _REFERS_BACK.search(first)
    if not walked or (refers and not _REPLY.match(first)):  # a reply to a title may refer
        return start, ""
    shown_already.update((number, position) for position, _ in walked)
    return at, " ".join(sentence for _, sentence in walked)


def _stating_first(
    ranked: list[tuple[float, Source, int, str]],
    floor: float,
    following: _Followers,
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
of its score (`_means_first`)."""
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def _means_first(
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


def _readings(
    candidates: Sequence[tuple[Source, int, str]],
    valued: _Followers,
    leading: _Antecedents,
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


def _asked_first(
    question: str,
    ranked: list[tuple[float, Source, int, str]],
    reach: tuple[float, float],
    following: _Followers,
    read: Mapping[tuple[int, int], str],
    *,
    number: bool,
    why: bool,
    shown: int = 0,
) -> tuple[list[tuple[float, Source, int, str]], int]:
    """`ranked` with the sentences stating what `question` asks first; how many came in.

    A number when it asks for one, a reason when it asks why (`why`: `reasons.asks_why`,
    `_reason_of`; both `_stating_first`), a means when it asks how to do something
    (`means.asks_means`, `_means_first`: from the lower bound of `reach`, a pair of the
    floor and that bound, and from beyond the first `shown`), a bound when it asks whether
    something has one (`bounds.asks_bound`, `_bound_first`), a verdict that something
    cannot be done when it asks yes or no (`restated.yes_no_proposition`, `_VERDICT`); as
    it is otherwise. The count is of the means brought into reach.
    """
    floor, low = reach
    if asks_bound(question):  # "Is there a cap on how many …?" asks a bound, not any number
        return _bound_first(ranked, reach, following, _bound_of(question, ranked))
    if number:
        return _stating_first(ranked, floor, following, _number_of(question, ranked)), 0
    if why and ranked:
        return _stating_first(ranked, floor, following, _reason_of(question, ranked, read)), 0
    if asks_means(question):
        return _means_first(ranked, floor, low, shown)
    if (proposition := yes_no_proposition(question)) is not None:
        asked = set(content_terms(proposition)) - FRAMING
        above = [item for item in ranked if item[0] >= floor]
        if not any(asked <= set(content_terms(item[3])) for item in above):
            return _stating_first(ranked, floor, following, _states_verdict), 0
    return ranked, 0


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
    reads it (`_readings`: after its section's title). Asked "what was the purpose of the
    molasses act", "The purpose of the Townshend Acts was to raise revenue …" states a
    purpose, of another act: it had led the answer, above the Molasses Act's own
    sentences. Asked "when was the berlin wall built and why", "In practice, the Wall
    served to prevent the massive emigration …" holds "berlin" by its page's title.
    """
    _, source, start, _ = ranked[0]
    named = set(query_terms(question)) - ASKING_WORDS
    held = named & set(terms(f"{source.chunk.title} {read[source.number, start]}"))
    titles = {s.number: s.chunk.title for _, s, _, _ in ranked}

    def of(key: tuple[int, int], text: str) -> bool:
        said = f"{titles.get(key[0], '')} {read[key]} {text}"
        return states_reason(text) and held <= set(terms(said))

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
    following: _Followers, states: Callable[[tuple[int, int], str], bool]
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
    following: _Followers,
    states: Callable[[tuple[int, int], str], bool],
) -> tuple[list[tuple[float, Source, int, str]], int]:
    """`ranked` with the sentences stating a bound first (`_stating_first`); how many came in.

    When none at or above the floor of `reach` states one, the best between its lower bound
    and the floor (`MEANS_REACH` of the best score, as a means is reached for) is lifted to
    the floor: asked "Is there a cap on how many workers 'auto' will pick?", mypy's
    "Automatic selection uses at most 8 workers …" scored 0.35 against a floor of 0.40,
    below seven sentences on `--num-workers` stating none.
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


_GOES_ON = re.compile(r"(?:[,;]|\b(?:and|or|but|then|and finally|as well as))\s*$", re.I)
"""How a piece of a sentence ends that the next line or list item goes on with."""


def _pieces(text: str, spans: Sequence[tuple[int, int]]) -> set[tuple[int, int]]:
    """The spans that are pieces of a sentence run over lines or list items.

    "The method has to accept three arguments:" over "1. the *instance* that's being
    validated (aka `self`),", "2. the *attribute* that it's validating, and finally" and
    "3. the *value* that is passed for it.": each item alone states nothing, nor does one
    opening with a conjunction ("- and {func}`attrs.field()` to define an attribute."). A
    piece ends as a sentence goes on (`_GOES_ON`), or follows one that does, unless it states
    what the code it opens with is (`_CODE_IS`) and ends in no more than a comma; so is an
    item of a list under a lead-in ending in ":" that opens with a lower-case pronoun
    (`_PRONOUN_ITEM`).
    """
    found: set[tuple[int, int]] = set()
    goes_on, previous, led_in = False, 0, False
    for start, end in spans:
        states = _CODE_IS.match(text, start) is not None
        if goes_on and "\n\n" not in text[previous:start] and not states:
            found.add((start, end))
        if _clause_item(text[start:end]):
            found.add((start, end))
        item = _LIST_MARK.match(text[start:end]) is not None
        if led_in and item and _PRONOUN_ITEM.match(text, start):
            found.add((start, end))  # "It arises when …:" over "- you want several pools …"
        if led_in and _lower_step(text[start:end]):
            found.add((start, end))  # "… the following occurs:" over "1. column is added …"
        led_in = text[start:end].rstrip("*_ ").endswith(":") or (led_in and item)
        ending = _GOES_ON.search(text[start:end].rstrip("*_ \n"))
        goes_on = ending is not None
        if ending is not None and not (states and ending.group().strip() in ",;"):
            found.add((start, end))  # "- `timeout` is the read timeout, and" is half of one
        previous = end
    return found


_CLAUSE_OPENERS = frozenset(
    """when whenever if while because since unless although though after before once
    and or but""".split()
)
_CODE_IS = re.compile(
    r"\s*" + LIST_MARKER + r"\s+\[?(?:\{\w+\})?`[^`\n]+`(?:\]\([^)\n]*\))?\s+(?:is|are)\s"
)
"""An item stating what the code it opens with is: "- [`attrs.frozen()`](attrs.frozen) is an
alias for `define(frozen=True)`" is a sentence of its own, though the list runs one
sentence over its items ("We recommend our modern APIs for new code: - … ,")."""
_PRONOUN_ITEM = re.compile(r"\s*" + LIST_MARKER + r"\s+(?:you|we|they|it|one|there)\b")
"""An item under a lead-in, opening with a lower-case pronoun: the condition or case the
lead-in goes on into ("It arises when you want more granularity with your resources
management:" over "- you want several connection pools to benefit from different queues",
aiohttp's request lifecycle page); quoted alone it answered "Should I create a new
ClientSession for every request?" with a fragment."""
_LOWER_STEP = re.compile(r"\s*(?:\d{1,3}|#)[.)]\s+[a-z]")
"""A numbered item under a lead-in opening in lower case, ending as no sentence does: a
step its lead-in goes on into. peewee's "For non-null columns, the following occurs:" lists
"1. column is added as allowing NULLs", "2. ``UPDATE`` query is executed …": quoted alone,
the first answered how to add a NOT NULL column without a default as if that were what
happens to every new column."""


def _lower_step(sentence: str) -> bool:
    """Whether `sentence` is a numbered step going on from its lead-in (`_LOWER_STEP`).

    One opening with an article and a verb ("1. the ``ALTER TABLE`` statement adds the
    column …", `_FINITE`) is a sentence, stop or none.
    """
    if not _LOWER_STEP.match(sentence) or _ends_sentence(sentence):
        return False
    item = _LIST_MARK.sub("", sentence).strip()
    return not (item.split(maxsplit=1)[0] in {"a", "an", "the"} and _FINITE.search(item))


def _ends_sentence(sentence: str) -> bool:
    """Whether `sentence` ends as a sentence does (a stop, "!" or "?", markup aside)."""
    return sentence.rstrip("*_`) \n").endswith((".", "!", "?"))


_GOES_ON_FROM = frozenset("and or but nor".split())
"""A lower-case conjunction opening an item: "- and {func}`attrs.field()` to define an
attribute." ends the sentence "We recommend …: - {func}`attrs.define` to define a new
class, …" (attrs' docs, a chunk cut inside the list: quoted alone, it answered in which
version the APIs were added)."""
_MEANS = re.compile(r"(?:by|with|via|through|without)\s+[a-z]+ing\b|using\b", re.I)
"""An item opening with a means: "by calling `remove_job` …", "using the CLI"; not "By
default the pool holds 10 connections" or "With `--reload` the server restarts"."""


def _clause_item(sentence: str) -> bool:
    """Whether `sentence` is a list item that is a subordinate clause, no full sentence.

    "Starlette uses a thread pool in several scenarios:" lists "- When you create a
    synchronous endpoint using `def` instead of `async def`": alone, it states nothing;
    nor does a means (`_MEANS`: "There are two ways to make this happen:" over "#. by
    calling `remove_job` with the job's ID and job store alias"), nor a noun phrase
    (`_FINITE`). An item with a main clause after a comma ("- If set, cookies are sent over
    HTTPS only") or ending as a sentence does is one.
    """
    if not _LIST_MARK.match(sentence):
        return False
    item = _LIST_MARK.sub("", sentence).strip()
    opening = item.split(maxsplit=1)[0] if item else ""
    if opening in _GOES_ON_FROM:
        return True  # the last item of a sentence run over items, its lead-in maybe cut off
    if _ends_sentence(item):
        return False
    if opening in {"a", "an", "the"}:
        return not _FINITE.search(item)
    clause = opening.lower() in _CLAUSE_OPENERS or _MEANS.match(item) is not None
    return clause and "," not in item


_FINITE = re.compile(
    r"\b(?:is|are|was|were|be|been|being|has|have|had|do|does|did|can|could|will|would|"
    r"shall|should|may|might|must)\b|n't\b"
    r"|^(?:a|an|the)\s+[\w`'\"-]+\s+(?!(?:is|was|has|does|class|access|address|process|"
    r"status|bus|alias|as|its|this|us|plus|across|unless|series|options|settings)\b)[a-z]+s\b",
    re.I,
)
"""A verb that makes an item opening with a lower-case article a clause ("the arguments
must be pickleable", "the issue couldn't be reproduced", "the scheduler runs each job": a
word ending in "s" right after the article's noun); without one the item is a noun phrase
its lead-in goes on with. APScheduler's "The following three examples … will get you:"
lists "* a ThreadPoolExecutor named "default", with a worker count of 20": quoted alone,
it answered "How many worker threads does the default ThreadPoolExecutor have?" (10: the
paragraph before says so)."""


_SYMBOL = re.compile(r"[\[\]{}()<>=_/\\|@#$%^&*+~'\"]")
_CODE_OR_ADDRESS = re.compile(rf"{INLINE_CODE.pattern}|https?://\S+|\*\*[^\s*]+\*\*")
SYMBOLIC = 0.2
"""The share of a sentence's characters (inline code, web addresses and a name in bold
aside) that are brackets, quotes, operators and the like above which it is code or a log,
not prose: a chunk cut from a long code block has no fence to say so ("b'Thu, 17 Oct 2019
07:18:26 GMT'), (b'Server', …" has 0.26; prose sentences of the shared corpora stay under
0.12 but for a few list items and tokenised quotes). A name in bold is a term: tox's man
page defines "**TOX_PARALLEL_NO_SPINNER**" above "When set, disables the progress spinner
…", whose first line had been read as 0.26 of symbols and the sentence never quoted."""


def _symbolic(sentence: str) -> bool:
    """Whether `sentence` reads as code or a log rather than prose (`SYMBOLIC`).

    Line by line: a log's lines without a full stop are one "sentence", and its
    `DEBUG [2024-09-28 17:27:41] …` lines dilute the brackets of its first.
    """
    for line in sentence.splitlines():
        text = _CODE_OR_ADDRESS.sub(" ", line)
        visible = sum(not c.isspace() for c in text)
        if visible >= 20 and len(_SYMBOL.findall(text)) / visible >= SYMBOLIC:
            return True
    return False


def _cited_sentences(text: str, numbers: str) -> str:
    """Every sentence of `text` with its citation."""
    return " ".join(_cited(text[a:b], numbers) for a, b in sentence_spans(text))


def shown_block(block: Introduced, number: str) -> str:
    """An introduced block as the answer shows it, after its sentence.

    Code as a fenced block (a fence longer than any run of backticks inside), a list as
    "- item [n]" lines; "…" ends a block cut short (the rest is in the source).
    """
    if block.kind == "list":
        items = []
        for index, item in enumerate(block.lines):
            shown = f"- {_cited_sentences(clean(item), number)}"
            step = block.code[index] if index < len(block.code) else None
            if step is not None:  # a procedure's step: its code below it, in the item
                code = shown_block(step, number).split("\n")
                shown += "\n\n" + "\n".join(f"  {line}" if line else "" for line in code) + "\n"
            items.append(shown)
        return "\n".join([*items, *([] if block.complete else ["- …"])]).rstrip("\n")
    longest = max((len(run) for line in block.lines for run in _BACKTICKS.findall(line)), default=0)
    fence = "`" * max(3, longest + 1)
    body = [*block.lines, *([] if block.complete else ["…"])]
    return "\n".join([f"{fence}{block.language}", *body, fence])


_BACKTICKS = re.compile(r"`{3,}")


def _cited(sentence: str, numbers: str) -> str:
    """`sentence` with its citation before the final punctuation.

    Every sentence of a pick is cited, also the one a pick starting "It ..." brings along.
    The source's own numbered references ("France.[3]") go: they name no source of ours
    (`citations.references`).
    """
    sentence = without_reference_marks(sentence).rstrip()
    quoted = _QUOTED_END.match(sentence)
    if quoted and quoted["stop"] in "!?" and quoted["closers"][-1] in ")]":
        return f"{sentence} [{numbers}]"  # "(… renamed too!)": the "!" is the aside's
    if quoted:  # 'under "North Africa."' -> 'under "North Africa" [2].'
        return f"{quoted['body']}{quoted['closers']} [{numbers}]{quoted['stop']}"
    if sentence.endswith(("...", "…")):  # "dependencies [1].", not "dependencies.. [1]."
        return f"{sentence.rstrip('.…')} [{numbers}]."
    if sentence[-1:] in ".!?":  # "`PIP_<NAME>` ." (pip's docs) gives "`PIP_<NAME>` [1]."
        return f"{sentence[:-1].rstrip()} [{numbers}]{sentence[-1]}"
    return f"{sentence} [{numbers}]"


_QUOTED_END = re.compile(r"^(?P<body>.*?)(?P<stop>[.!?])(?P<closers>[\"'”’)\]]+)$", re.S)
