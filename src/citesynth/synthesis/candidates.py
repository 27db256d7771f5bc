"""The sentences an extractive answer is chosen from, each with what it needs around it.

`candidate_sentences` reads every prose sentence of the sources (code and logs aside,
`_symbolic`) and what goes with one: the sentence after it that only makes sense with it
("It …", "For example: …", a bare default in the next paragraph), the list a lead-in runs
over, and the sentence before a reply ("Yes, …") or an anaphor. Sentences too short to
stand alone are no candidates, unless they answer their section's title (an FAQ's).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from functools import lru_cache
from itertools import pairwise, takewhile

from citesynth.analysis import (
    DEFAULT_VALUE,
    INLINE_CODE,
    content_terms,
)
from citesynth.ingest.blocks import LIST_MARK, LIST_MARKER
from citesynth.ingest.code import language_of
from citesynth.ingest.doc_comments import DOC_COMMENT_LANGUAGES
from citesynth.ingest.sentences import (
    prose_sentences,
)
from citesynth.synthesis.asked import states_number
from citesynth.synthesis.section_titles import section_headings
from citesynth.synthesis.sources import Source
from citesynth.types import Chunk
from citesynth.verify.cues import LINKS_BACK

ANAPHOR = re.compile(
    r"(?:It|Its|This|These|They|Their|That|Those|He|She|Such)\b"
    r"|[A-Z][a-z]+ing\s+(?:it|them|this|these|those)\b"
)
"""A sentence opening with a pronoun for what the one before it named ("It …", "These …"),
or with doing something to it ("Calling it will inspect a ``$schema`` keyword …" after the
sentence naming `Resource.from_contents`: asked how that decides a schema's version, the
writer had quoted the sentences before it and not this one)."""
REFERS_BACK = re.compile(
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
_CONSEQUENCE = re.compile(rf"[\s*_]*(?:{LINKS_BACK.pattern})", re.I)
"""A sentence opening with what follows from the one before it ("As a result, one config
value may reference another.", "Therefore …", "In other words …"): setuptools' answer to
which feature of the config parser lets a value refer to another, interpolation, is in the
sentence before it, and the writer had quoted this one alone, its link dropped."""
CONCLUDES = re.compile(
    r"[\s*_]*so\s+(?:it|they|this|that|these|those|there|you|we|one|the|an?)\s+(?!(?:far|long"
    r"|much|many)\b)[\w`*]",
    re.I,
)
"""A sentence drawing what follows from the one before it: "So it appears in the root node
of the tree." after "This is because ``minItems`` is an error that applies globally to the
instance itself." (jsonschema's docs, asked where that error is): shown after it, also when
that one is itself shown after the sentence it goes on from."""
_DEMONSTRATIVE = re.compile(
    r"(?:\b(?:this|these|those)|(?:^[\s*_]*|\b(?:under|in|of|for|with|to|on|by|from|at|into"
    r"|about|like|than)\s+)that)\s+([\w-]+(?:\s+[\w-]+)?)",
    re.I,
)
"""A thing named with a demonstrative, and the two words after it: "this default mapping",
"these settings", "under that license". "That" counts opening the sentence or after a
preposition only: elsewhere it is as often a conjunction ("so that packages …", "agree
that they …")."""


def names_again(successor: str, sentence: str) -> bool:
    """Whether `successor` names with a demonstrative a thing `sentence` names.

    Babel's "The ``python`` extractor is by default mapped to the glob pattern ``**.py``
    …" then "If you specify your own mapping configuration, this default mapping is
    discarded …": asked what happens to that mapping, the writer quoted the first alone.
    Pygments' "The code is distributed under the BSD 2-clause license." then "Contributors
    making pull requests must agree … to put their contributions under that license.":
    asked under which license, it quoted the second alone.
    A content term of the two words after the demonstrative must be one of `sentence`:
    "this case" after a sentence about something else names nothing of it.
    """
    said = set(content_terms(sentence))
    named = (content_terms(found.group(1)) for found in _DEMONSTRATIVE.finditer(successor))
    return any(said.intersection(terms) for terms in named)


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
_CANDIDATE_WORDS = 5
"""How many words a sentence needs to be a candidate of its own (`prose_sentences`)."""


Followers = dict[tuple[int, int], tuple[int, str]]
"""(source number, sentence offset) -> (offset, text) of the sentence shown after it."""


def candidate_sentences(
    sources: Sequence[Source],
) -> tuple[list[tuple[Source, int, str]], Followers, Followers, Antecedents]:
    """Every prose sentence of the sources (source, offset, text), and followers.

    A sentence whose successor in the same paragraph starts "It ..." or refers back to it
    with "this" ("… can be used to find this out."), or names a thing of it with "this",
    "these", "those" or "that" (`names_again`: "this default mapping", "under that
    license"), or opens with a link ("As a result, …", `_CONSEQUENCE`; "So it appears
    …", `CONCLUDES`), or whose successor
    gives the reason for
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
    a sentence referring back to the one before it to that one (`extractive._leading`). A
    line of code or a log that passed for prose (`_symbolic`: a chunk cut inside an example has no
    fence to say so) is never quoted, nor a piece of a sentence run over a list's items
    (`_pieces`: "2. the *attribute* that it's validating, and finally"), nor a question
    (`_ASKS`: "Want to create your own field type?" states nothing; what follows does),
    nor a sentence going on from the text above it (`_CONTINUES`: "and then use …"),
    nor the writers' note to themselves (`_AUTHORS_NOTE`: "TODO: give an example"), nor a
    pointer elsewhere (`_SEE_ALSO`: "For more info see `call_historic`."), nor a
    statement whose subject is the code above it (`_CODE_SUBJECT`: "Would cause all …").
    Python source has no prose but its docstrings, nor C-family code but its doc comments,
    read apart (`extractive._fielded`): what passed for prose in them was code
    ("os.close(cert_handle) … return ctx"), a docstring's closing quotes, or a comment run
    into the code below it ("… between requests. */ export class Client { /**").
    """
    candidates: list[tuple[Source, int, str]] = []
    following: Followers = {}
    numbered: Followers = {}
    leading: Antecedents = {}
    for source in sources:
        text = source.chunk.text
        language = language_of(source.chunk.path)
        documented = language == "python" or language in DOC_COMMENT_LANGUAGES
        every = () if documented else prose_spans(text)
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
            and not _CONTINUES.match(LIST_MARK.sub("", text[a:b], count=1))
            and not (a == 0 and _continued_from_page_before(source.chunk))
        ]
        runs = _runs(text, every, pieces)
        spans = sorted({**dict(spans), **runs}.items())
        candidates.extend((source, start, text[start:end]) for start, end in spans)
        adjacent = {a: b for (a, _), (b, _) in pairwise(every)}
        for (start, end), (after, stop) in pairwise(spans):
            successor = text[after:stop]
            refers = (
                ANAPHOR.match(successor)
                or REFERS_BACK.search(successor)
                or _COMPLEMENT.match(successor)
                or _CONSEQUENCE.match(successor)
                or CONCLUDES.match(successor)
                or names_again(successor, text[start:end])
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
                and REPLY.match(text[start:end])
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
            elif value_after(text[start:end], successor):
                numbered[(source.number, start)] = (after, successor)
    return candidates, following, numbered, leading


REPLY = re.compile(
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
    above = [(end, heading) for end, heading in section_headings(text) if end <= start]
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
    does.": `REPLY`, shown before the sentence after it), nor one referring back.
    """
    sentence = chunk.text[start:end]
    return (
        len(sentence.split()) >= _TITLED_ANSWER_WORDS
        and not REPLY.match(sentence)
        and not ANAPHOR.match(sentence)
        and not REFERS_BACK.search(sentence)
        and _answers_title(chunk, start)
    )


_VALUE_WORDS = 8
"""How many words a sentence stating a number of the one before it may have (`value_after`)."""


def value_after(sentence: str, successor: str) -> bool:
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
    return span in pieces and LIST_MARK.match(text[span[0] : span[1]]) is not None


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
def prose_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The prose sentences of a chunk, code and logs that passed for prose aside (`_symbolic`).

    Read once per chunk: the candidates and the defaults its items state both need them.
    """
    return tuple((a, b) for a, b in prose_sentences(text, min_words=1) if not _symbolic(text[a:b]))


Antecedents = dict[tuple[int, int], tuple[int, str]]
"""(source number, sentence offset) -> (offset, text) of the sentence before it in its
paragraph, which it refers back to ("It …", "… do this by …"), or gives the reason for
(`_REASON_BACK`, maybe a paragraph of its own)."""


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
        item = LIST_MARK.match(text[start:end]) is not None
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
    item = LIST_MARK.sub("", sentence).strip()
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
    if not LIST_MARK.match(sentence):
        return False
    item = LIST_MARK.sub("", sentence).strip()
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
