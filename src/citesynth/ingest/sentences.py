"""Sentence spans inside a region of text, by rule (no model), for prose in many formats."""

from __future__ import annotations

import re
from bisect import bisect_left

from citesynth.ingest.blocks import (
    GRID_BORDER,
    LIST_MARKER,
    PIPE_DELIMITER,
    SECTION_NUMBER,
    SIMPLE_BORDER,
    first_line_column,
)
from citesynth.ingest.code_shape import code_lines, in_comment
from citesynth.ingest.fences import (
    CONTAINER_LINE,
    FENCE,
    FENCE_LINE,
    append_trimmed,
    container_fences,
    front_matter_end,
)
from citesynth.ingest.rst import API_REFERENCE, bare_version_note, read_paragraph, version_note
from citesynth.ingest.tabular import in_columns, is_record
from citesynth.ingest.titles import (
    ADORNMENT,
    HEADING_WORDS,
    SHORT_TITLE,
    adornment_at,
    adornments,
    is_title_or_rule,
    titled,
    under_title,
)

# A sentence ends at . ! ? (and closing quotes/brackets) followed by whitespace and a
# plausible sentence start; or at a line break that begins a list item; or after a line that
# is a heading: a Markdown `#` line, or (as PDFs and plain text set them) a short line with no
# closing punctuation that starts a paragraph and is followed by a capitalised line.
# A sentence may open with inline code ("… set to `{shell}_source`. `{PROG_NAME}` is the
# executable name"), never with a code fence. A citation marker that closes with the
# sentence's own stop ("… (Pres. …) [1].") is part of the sentence before it.
_END = re.compile(
    r"""(?<![.!?…])[.!?…]++(?:[ \t]["”](?=\s))?["'”’)\]]*"""
    r"""(?:\[\^?\d{1,3}(?:[,\-–]\s*\d{1,3})*\])*(?:\*\*?|__?)?"""
    r"""(?=\s+(?:`(?!``)|(?:\*\*?|__?)(?=[A-Z0-9])|(?!\[[\d,\s\-–]+\][.!?])["'“‘(\[]?[A-Z0-9])"""
    r"""|[ \t]*\n[ \t]*(?:\*\*?|__?)(?=[a-z])|(?<=\d\][.!?])\s+(?=(?:\*\*?|__?)?[a-z]))"""
)
"""A sentence's end: before a capital, a digit, code or emphasis on a capital, and, at a line
break, before emphasis on a lower-case word: a page written a sentence a line opens one
with its project's name ("… that showed promise.\n*attrs* was always Python 3-first"), and
after a citation marker before anything lower-case: an answer joins the sentences it copies
on one line ("… to the caller [3]. *historic* calls are …", "… [2]. pip installs …"). A
document's own numbered references after the stop end the sentence with it ("… of
France.[3] The city …", "….[4][5]"; `citations.references`). A quotation closed after a
space ends its sentence too: the embedded model quoted a source as `… from the ASGI server. "`
and went on with the next line.
Chunking splits by sentences only a paragraph longer than a chunk. A run of stops is read
once, from its first (a 20,000-dot run had taken 14 s, each dot starting a match)."""
# A bracketed fragment with no closing punctuation of its own that ends its line, as in
# "... or `None` for no limits.\n(Default 100)", is an aside of the sentence before it.
_ASIDE = re.compile(r"\s+\([^()\n.!?]{1,60}\)\.?(?=[ \t]*(?:\n|$))")
FIELD_MARKER = (
    r":(?:param|parameter|arg|argument|key|keyword|type|raises?|except|exception|var|ivar"
    r"|cvar|vartype|returns?|rtype|yields?|ytype|meta)(?:[ \t]+[^:`\n]+)?:(?=\s|$)"
)
"""The name of a field of Sphinx's info field lists (a pattern part): `:param RetryCallState
retry_state:`, `:rtype:`; never a role, whose name a backtick follows (`:type:`int``), nor
a directive's option (`:members:`), which is markup of its own."""
RST_FIELD_NAME = r"(?![\s`])[^:`\n]{1,40}(?<!\s):(?=[ \t]+\S)"
"""What follows the colon opening a field of a reStructuredText field list, with its body on
the line (a pattern part): `Exit code 5:` in ":Exit code 5: No tests were collected",
`Version:` in ":Version: 2.1"; never a role's, whose closing colon a backtick follows
(`:class:`Foo``), nor a directive's flag alone on its line (`:members:`)."""
_LIST_BREAK = re.compile(
    r"\n(?=[ \t]*(?:" + LIST_MARKER + r"[ \t]+|" + FIELD_MARKER + "|:" + RST_FIELD_NAME + "))",
    re.MULTILINE,
)
CONSOLE_LINE = re.compile(
    r"^[ \t]*(?:(?:R?>|\$|>>>)[ \t]+[\w.$]+(?:[(\[]|[ \t]*(?:<-|->|=))|\$[ \t]+[a-zA-Z][\w.-]*\b)"
    r"(?:[^\n]*[^.!?\s])?$",
    re.MULTILINE,
)
"""A line typed at a console prompt ("> accountants <- data.frame(home=statef)", ">>> f(x)",
"$ R CMD INSTALL pkg.tar.gz"): a name called, indexed or assigned to follows the prompt, or
a command a shell's "$". Alone it is no prose, and a PDF's heading may follow it
(`pdf_layout`). It is not cut out of the sentence around it: R's manual displays its
examples inside sentences ("The attach / > attach(lentils) / places the data frame …"), and
cut out they left "The attach" and "places the data frame …" to quote. A sentence opening on
the line after it ends the sentence the example closes (`_opens_next`). A Markdown quote
("> Use `f()` here.", "> Note (see below) that …") opens with a word, not a call, or ends
as a sentence does."""
_HEADING_LINE = re.compile(
    rf"^[ \t]*(?:\#{{1,6}}[ \t][^\n]*$"  # a Markdown heading, or a short title
    rf"|{SHORT_TITLE}(?=\n[ \t]*[A-Z0-9\"“]))",  # followed by a line that starts a sentence
    re.MULTILINE,
)
_PARAGRAPH = re.compile(r"\n[ \t\r]*\n")  # CRLF text too
_CONTENT = re.compile(r"(?:[ \t\r]*\n)*([ \t]*)\S")  # a paragraph's first line and its indent
_FRAGMENT = re.compile(
    r"[a-z](?:[^.!?]|[.!?](?!\s))*?(?:[^.!?:…)\s\"'”’*_`\]]|(?<![.!?:…])``?[^`\s]+``?)\s*",
    re.DOTALL,
)
"""A paragraph of one sentence that opens in lower case and ends without a stop (nor a
closing quote, emphasis or reference after one; inline code may end it: "for upstream
details on … in ``draft2019-09``"). Indented, it describes the
term or link above it, as in a `.. seealso::` ("for details on how to enable format
validation"): never a sentence. Not indented, it mostly introduces the code below it
("urllib3 can be installed with `pip`")."""


_LINK_DEFINITION = r"\[(?!\^)[^\]\n]+\]:[ \t]*<?[^\s<>]+>?[ \t]*(?:[\"'(][^\n]*)?(?:\n|\Z)"
"""A Markdown link reference definition's line, "[label]: target" with an optional title
(not a footnote's "[^1]: …", which is prose)."""
_LINK_RUN = re.compile(rf"(?:[ \t]*{_LINK_DEFINITION})+")
"""The Markdown link definitions opening a paragraph: no prose, unlike what follows them."""
_NOT_PROSE = re.compile(
    rf"^\s*(?:#(?![.)][ \t])|```|~~~|{API_REFERENCE}|\||[=\-~^*+]{{3,}}\s*$"
    rf"|\+(?:[-=]+\+)+[ \t]*(?:\n|$)|\.\. |>>>|\$ "
    rf"|<[A-Za-z/!]|{FIELD_MARKER}|(?i:key[ \t]?words|index[ \t]terms)[ \t]*[:—–][^.!?\n]*[,;])"
)
"""A line opening no prose: a heading, fence, table row or grid table border ("+----+---+",
whose rows Jinja's docs had quoted as a sentence), rule, directive, prompt or tag, an
API reference that mkdocstrings fills in (`::: httpx.HTTPError`), or a field of a field
list: a paper's keywords ("Keywords: contingency tables, mosaic plots, …"); Sphinx's
":param RetryCallState
retry_state: info about current retry invocation" under `.. function::
my_stop(retry_state)` says nothing without the function it describes, and was quoted as
a sentence of an answer (tenacity's docs)."""
_TABLE_RULE = re.compile(rf"^(?:{GRID_BORDER}|{PIPE_DELIMITER}|{SIMPLE_BORDER})\r?$", re.M)
"""A grid table's border, a pipe table's delimiter line or a simple table's border
anywhere in a paragraph: the paragraph is a table (Jinja's loop table, in a chunk that
begins inside its first row, had been read as "(1 indexed) | +----+ | `loop.index0` | The
current …"; Flask's table of `route` parameters as "`defaults`      A dictionary with
defaults for this rule.", now a row of its own: `tables.table_rows`)."""
_SIMPLE_RULE = re.compile(rf"{SIMPLE_BORDER}\r?$", re.M)
"""A simple table's border: the rows above it in its paragraph (a chunk cut inside the
table opens with them) are the table's too."""
_ABBREVIATIONS = frozenset(
    """mr mrs ms dr prof sr jr st vs etc e.g i.e eg ie viz cf al fig figs eq eqs no nos vol vols pp
    approx inc ltd co corp dept est min max sec ref refs resp u.s u.k jan feb mar apr jun jul
    aug sep sept oct nov dec""".split()
)
_WORD_BEFORE = re.compile(r"([\w.]+)$")


def _is_abbreviation(text: str, dot: int) -> bool:
    """Whether the period at `dot` closes an abbreviation, an initial or a number."""
    match = _WORD_BEFORE.search(text, max(0, dot - 12), dot)
    if match is None:
        return False
    word = match.group(1).lower().strip(".")
    if word in _ABBREVIATIONS:
        return True
    # Single-letter initials ("J. Smith") and section numbers ("Fig. 3."), not a plural's
    # "s" after code ("instances of `attr.ib`s.") nor a letter before a word that opens
    # sentences and names nobody ("… analyzed in R.\nWe have learned …": lme4's paper)
    before = text[match.start() - 1] if match.start() > 0 else " "
    return (
        len(word) == 1
        and word.isalpha()
        and before not in "`'’"
        and not (_in_a_sentence(text, match.start()) and _OPENER_AFTER.match(text, dot + 1))
    )


def _in_a_sentence(text: str, letter: int) -> bool:
    """Whether the single letter at `letter` ends a sentence's words, no label's.

    "in R.", "an array, a.", "lentils$w.", "in Appendix A." and "value of / N." end what a
    sentence says; a list's "a." opening its line after a colon, "Appendix A." and "See
    Fig. A." opening one are labels.
    """
    line_start = text.rfind("\n", 0, letter) + 1
    on_line = text[line_start:letter]
    if not on_line.strip():  # opening its line: wrapped after a word ("… a reasonably
        above = text[max(0, line_start - 40) : line_start].split()  # small value of / N.")
        return bool(above) and above[-1].isalpha() and above[-1].islower()
    if not on_line[-1].isspace():
        return on_line[-1] not in '"“‘(['  # glued to code: "lentils$w."; “S. An Interactive …”
    words = text[max(0, letter - 60) : letter].split()
    return not words[-1][0].isupper() or (len(words) > 1 and words[-2][0].islower())


_OPENER_AFTER = re.compile(
    r"\s+(?:The|This|These|That|Those|There|Their|Then|Thus|Hence|Here|However|We|Our|It|"
    r"Its|In|If|When|While|For|An|As|At|On|To|By|With|From|Since|Such|Each|They|Note|Now|"
    r"Also|Finally|Moreover|Furthermore|Otherwise)\b(?![.'’)])(?!\s+(?:and|et|&)\b)"
)
"""A word a sentence opens with that is nobody's name, after a single letter's stop: the
letter ended its sentence ("… written in C. The …"), where a surname follows an initial
("H. An and J. Smith": a name goes on with "and")."""


def sentence_spans(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Split `text[start:end]` into sentences; returns `(start, end)` offsets into `text`.

    Spans exclude surrounding whitespace, cover every non-space character of the region,
    and never overlap. A region with no boundary is one span.
    """
    stop = len(text) if end is None else end
    cuts: list[int] = []
    for match in _END.finditer(text, start, stop):
        single_period = text[match.start()] == "." and match.end() - match.start() == 1
        if single_period and _is_abbreviation(text, match.start()):
            continue
        aside = _ASIDE.match(text, match.end())
        cuts.append(aside.end() if aside and aside.end() <= stop else match.end())
    names = _NAME_STOP.finditer(text, start, stop)
    cuts.extend(m.end() for m in names if not _is_abbreviation(text, m.start()))
    cuts.extend(match.start() for match in _LIST_BREAK.finditer(text, start, stop))
    for match in _HEADING_LINE.finditer(text, start, stop):
        line = match.group()
        if len(line.split()) <= HEADING_WORDS and (
            line.lstrip().startswith("#")
            or (
                _opens_paragraph(text, match.start())
                and not _wrapped(text, match.end(), len(line.strip()))
            )
        ):
            cuts.extend((match.start(), match.end()))
    for match in CONTAINER_LINE.finditer(text, _indented_from(text, start), stop):
        cuts.extend((max(start, match.start()), match.end()))
    cuts.extend(m.end() for m in CONSOLE_LINE.finditer(text, start, stop) if _opens_next(text, m))
    cuts.extend(m.end() for m in _LINE_ENDING_CUT.finditer(text, start, stop))
    opened = (_after_data(text, m) for m in _PROSE_LINE.finditer(text, start, stop))
    cuts.extend(cut for cut in opened if cut > start)
    for line_start, line_end in adornments(text, start, stop):
        # A rule, and a reStructuredText or setext title with its adornment, are spans of
        # their own (`is_title_or_rule`).
        cuts.extend((line_start, line_end))
        title = titled(text, line_start, line_end)
        if title is not None and title[0] >= start:
            cuts.append(title[0])
    code = _inline_code(text, start, stop)
    code_starts = [code_start for code_start, _ in code]
    spans: list[tuple[int, int]] = []
    previous = start
    for cut in sorted(set(cuts)):
        index = bisect_left(code_starts, cut) - 1  # the last code opening before the cut
        if index >= 0 and cut < code[index][1]:
            continue
        append_trimmed(text, previous, cut, spans)
        previous = cut
    append_trimmed(text, previous, stop, spans)
    return spans


_NAME_STOP = re.compile(
    r"(?<=[A-Za-z`*_)])\.(?=\s+(?!(?:and|or|but|nor|so|then|than|as|that|which|who|also|not)\b)"
    r"[a-z][a-z0-9_]*(?:-[a-z0-9]+)*(?:['’]s[ \t]+[a-z]|[ \t]+(?:is|are|was|were|has|have|"
    r"had|can|could|will|would|does|did|may|might|must|should|supports|provides|uses|"
    r"allows)\b))"
)
"""A full stop after a word, before a sentence opening with a name written in lower case
and its verb, or its "'s": "… via the HTTP CONNECT method. aiohttp has a limited support for
proxies …", "… the ASGI server spec.\n\ngevent provides …", "… or SOCKS. urllib3's behavior
will be different …" (`_END` ends a sentence before a capital only: the two had been one).
Not after a number ("1. column is added") or an ellipsis, nor before a conjunction ("3.13.\nand
is also supported")."""


_INLINE_CODE = re.compile(
    r"(?<![`\w])(`{1,2})(?![`\s])(?:[^`\n]|\n(?![ \t]*\n)){1,120}?(?<![`\s])\1(?!`)"
)
"""Inline code, `x` or ``x`` (reStructuredText), on one line or wrapped onto the next: a
backtick after a space opens code and never closes it, so that a stray one ("a `typo. …
And `x` here") pairs with no later code's opening."""


def _inline_code(text: str, start: int, stop: int) -> list[tuple[int, int]]:
    """Where `text[start:stop]` holds inline code, within which no sentence ends.

    Gunicorn's FAQ quotes a kernel log, "`Memory cgroup out of memory ... Killed process
    (gunicorn.md)`", and the stops before "Killed" had ended a sentence there: the writer
    quoted "Killed process (gunicorn.md)`, raise memory limits …" as a sentence.
    """
    return [match.span() for match in _INLINE_CODE.finditer(text, start, stop)]


def _indented_from(text: str, start: int) -> int:
    """Where the line of `start` begins, when only its indentation stands before `start`.

    A line pattern (`^`) finds no line that a region opens after its indentation: Hatch's
    content tab `    === "Complex"` nested in another, and the sentence under it, had been
    one "sentence" that reads as no prose, so the writers never quoted what the tab says.
    Container lines only: an indented paragraph's short first line ("This setting is only
    read by" in a note) is no title.
    """
    line_start = text.rfind("\n", 0, start) + 1
    return line_start if not text[line_start:start].strip(" \t") else start


_LINE_ENDING_CUT = re.compile(
    r"\?(?=[ \t]*\n[ \t]*\S)|(?<![^\s,.])\(\d{1,3}\)(?=[ \t]*\n[ \t]*[A-Z])"
)
"""A question mark ending its line ends its sentence, whatever opens the next ("What do I
do? / zoo objects should not …": zoo's FAQ), and so does a display's equation number
before a capital ("… X. (9) / The outer product estimator …": sandwich's paper, where
"X." reads as an initial)."""


_PROSE_LINE = re.compile(r"(?<=\n)[ \t]*[A-Z][a-z]*\s+[a-z]{2,}\b(?![(.])")
"""A line opening with a capitalised word then a lower-case one, as a sentence opens."""
_TERM_LINE = re.compile(
    r"(?:--?[a-z][\w.]*(?:-[\w.]+)*|[A-Za-z][\w.]*(?:-[\w.]+)+)(?:[ \t]+\([^()\n]{1,30}\))?"
)
"""A term a definition list defines: a hyphenated name or an option, "bind-tty-special-chars",
"display-shell-version (C-x C-v)", "--no-environ" (each part read once: a long key of
hyphens had taken minutes to fail)."""
_TERM_LONGEST = 80
_PROSE_PAIR = re.compile(r"(?<![\w.$@-])[a-z]{2,}[ \t]+[a-z]{2,}(?![\w(])")


def _after_data(text: str, line: re.Match[str]) -> int:
    """Where a sentence opens at `line` when the line before it holds code or data, no prose.

    A PDF sets an example's output in the paragraph that explains it, and the sentence after
    it opens its own line: "R> cbind(z1, z2) / z1 z2 / 2004-01-03 NA 0.94306673 / In fact,
    the cbind method …" (zoo's paper) had been one sentence, cut for size between words. The
    line before must hold no two lower-case words in a row and not end in a word, a comma
    or a colon ("(see / Zeileis and Hornik 2007)" goes on; a definition list's term,
    "``int`` / :data:`click.INT`:", introduces its description), and the line must not be
    indented under it. A term alone on the line after a finished sentence opens the sentence
    it names ("… the terminal's bell. / bind-tty-special-chars / If set to 'on' …": Bash's
    manual). Returns `line`'s start, that term's, or -1 (no cut; `sentence_spans` trims).
    """
    line_start = line.start()
    previous_start = text.rfind("\n", 0, line_start - 1) + 1
    above = text[previous_start : line_start - 1]
    previous = above.strip()
    indent = len(line.group()) - len(line.group().lstrip())
    last_word = previous.rsplit(None, 1)[-1] if previous else ""
    if not (
        previous
        and _PROSE_PAIR.search(previous) is None
        and not previous.endswith((",", ":"))
        and not (last_word.isascii() and last_word.isalpha())
        and indent <= len(above) - len(above.lstrip())
    ):
        return -1
    ended = text[max(0, previous_start - 3) : previous_start].rstrip()[-1:]  # CRLF too
    if (
        ended in (".", "!", "?", ")")
        and len(previous) <= _TERM_LONGEST
        and _TERM_LINE.fullmatch(previous)
    ):
        return previous_start
    return line_start


def _opens_next(text: str, console: re.Match[str]) -> bool:
    """Whether the line after a console line opens a sentence.

    The example then ended the sentence it was shown in ("… excludes a correlation
    parameter: / > fm2 <- lmer(…) / Although mixed models …": lme4's paper). One going on
    in lower case stays in it (R's manual: "The attach / > attach(lentils) / places the
    data frame …").
    """
    return (
        _SENTENCE_OPENING.match(text, console.end()) is not None
        and CONSOLE_LINE.match(text, console.end() + 1) is None  # "R> library(…)" goes on
    )


_SENTENCE_OPENING = re.compile(r"\n[ \t]*[\"“‘(]?[A-Z]")


def _wrapped(text: str, line_end: int, length: int) -> bool:
    """Whether the line ending at `line_end` (`length` characters) is a wrapped line of prose.

    Hard-wrapped text fills its lines about evenly: a title is short beside the line below it,
    or the line below it ends a sentence there. "If this environment variable is set then
    HTTPX will load" (56 characters) above "CA certificate from the specified file instead of
    the default" (61, going on) is a paragraph wrapped at 60 columns, not a title.
    """
    below_end = text.find("\n", line_end + 1)
    below = text[line_end + 1 : len(text) if below_end < 0 else below_end].strip()
    return length >= 0.85 * len(below) and not below.endswith((".", "!", "?", ":"))


def _opens_paragraph(text: str, line_start: int) -> bool:
    """Whether the line at `line_start` follows a blank line or a finished sentence."""
    before = text[max(0, line_start - 2) : line_start]
    return line_start == 0 or before == "\n\n" or (len(before) == 2 and before[0] in ".!?:")


def _fences(text: str, start: int, end: int) -> int:
    """How many code fences (a line opening with ``` or ~~~) `text[start:end]` holds.

    A bare run of four or more backticks or tildes where a title's adornment goes (under a
    line that reads as a title, or over one) is not counted, whatever the title's length.
    """
    count = 0
    for match in FENCE.finditer(text, start, end):
        line_end = text.find("\n", match.start())
        line_end = len(text) if line_end < 0 else line_end
        run = ADORNMENT.fullmatch(text, match.start(), line_end)
        long_run = run is not None and len(run.group().strip()) >= 4
        if not long_run or not (
            adornment_at(text, match.start(), line_end) or under_title(text, match.start())
        ):
            count += 1
    return count


def prose_sentences(text: str, *, min_words: int = 5) -> list[tuple[int, int]]:
    """Spans of the sentences of `text` that are prose: no headings, code, tables or rules.

    A document's front matter (`front_matter_end`) is no prose either. Code is a fenced block,
    or what reStructuredText marks as code: the paragraphs indented
    under one ending in `::` or under a directive that holds code (see `rst.opener`). The
    body of a MyST directive fenced as prose (```` ```{note} ````) is read as paragraphs of
    its own, its fence lines as blank ones (`container_fences`; offsets stay). The first
    sentence of a reStructuredText version note starts at its directive, whose version it
    says (".. versionadded:: 3.1", shown "Added in version 3.1:" by `rst.rendered_rst`),
    also when the note's body is a paragraph indented below a directive standing alone
    (".. deprecated:: v4.14.0", a blank line, "Use `FormatChecker.checks` … instead.").
    """
    text = _without_containers(text)
    spans: list[tuple[int, int]] = []
    start = front_matter_end(text)
    in_fence = opens_inside_fence(text)
    literal_below: int | None = None
    note: tuple[int, int] | None = None  # a version note's directive alone: (start, column)
    for boundary in [*(m.start() for m in _PARAGRAPH.finditer(text, start)), len(text)]:
        paragraph = text[start:boundary]
        fences = _fences(text, start, boundary)
        skip = in_fence
        in_fence = in_fence != (fences % 2 == 1)
        content = _CONTENT.match(paragraph)
        if content is None:
            start = boundary
            continue
        first = start + content.end(1)
        defined = _LINK_RUN.match(text, first)
        if defined is not None:  # "[bug tracker]: https://…" (Python-Markdown's docs)
            first = defined.end()
            if not text[first:boundary].strip():
                start = boundary
                continue
        column = first_line_column(text) if first == 0 else len(content.group(1))
        noted, note = note if note is not None and column > note[1] else None, None
        markup, literal_below = read_paragraph(text[first:boundary], column, literal_below)
        if markup is None:  # inside a literal block
            start = boundary
            continue
        if markup.prose_from is None or (
            markup.prose_from == 0 and _NOT_PROSE.match(text[first:boundary].lstrip("\n"))
        ):
            skip = True
        if content.group(1) and _FRAGMENT.fullmatch(text, first, boundary):
            skip = True  # an indented description: "for details on how to enable …"
        stop = boundary
        if rule := _TABLE_RULE.search(paragraph):
            at = start + rule.start()  # a simple table's rows never share a paragraph
            stop = first if _SIMPLE_RULE.match(text, at) else _table_start(text, at)
            skip = skip or stop <= first  # a table, maybe from a chunk cut inside its row
        if not skip:
            found = [
                (begin, end)
                for begin, end in sentence_spans(text, first + (markup.prose_from or 0), stop)
                if _worded(text[begin:end], min_words) and _reads_as_prose(text, begin, end)
            ]
            if found:
                below = noted if found[0][0] == first else None
                opening = _note_opening(text[first:boundary], first, markup.prose_from, below)
                found[0] = (found[0][0] if opening is None else opening, found[0][1])
            spans.extend(found)
        if bare_version_note(text[first:boundary]):
            note = (first, column)
        start = boundary
    return spans


def _note_opening(
    paragraph: str, first: int, prose_from: int | None, noted: tuple[int, int] | None
) -> int | None:
    """Where the first sentence of `paragraph` (at `first`) starts when a version note's is.

    At the paragraph's directive when its text follows it ("Added in version 3.1: A context
    can …"), or at the directive standing alone above it (`noted`: its start and column)
    whose body it opens; None when it opens no version note.
    """
    if prose_from and version_note(paragraph):
        return first
    if noted is not None and prose_from == 0:
        return noted[0]
    return None


def _table_start(text: str, rule: int) -> int:
    """Where the table whose rule (a grid border, a pipe delimiter) starts at `rule` begins.

    Its header above a delimiter, or the rows above a border a chunk opens with. A
    paragraph's sentences above it are prose ("The options below control …" right above `|
    Option | Meaning |` with no blank line between them).
    """
    line = rule
    if not text[rule:].lstrip(" \t").startswith("+") and line > 0:
        above = text.rfind("\n", 0, line - 1) + 1
        if "|" in text[above:line]:
            line = above
    while line > 0:
        above = text.rfind("\n", 0, line - 1) + 1
        row = text[above:line].strip()
        if not (row.startswith("|") or row.endswith("|")):
            break
        line = above
    return line


def _without_containers(text: str) -> str:
    """`text` with the fence lines of prose directives blanked: spaces, the same offsets."""
    if "{" not in text:
        return text
    containers = container_fences(text)
    if not containers:
        return text
    pieces: list[str] = []
    position = 0
    for line_start in sorted(containers):
        line_end = text.find("\n", line_start)
        line_end = len(text) if line_end < 0 else line_end
        pieces.extend((text[position:line_start], " " * (line_end - line_start)))
        position = line_end
    pieces.append(text[position:])
    return "".join(pieces)


def _reads_as_prose(text: str, begin: int, end: int) -> bool:
    """Whether a sentence of a prose paragraph is prose: no code, title, rule or container."""
    line = text[begin:end]
    return not (
        _NOT_PROSE.match(line)
        or "\n#" in line
        or "```" in line
        or "\n~~~" in line
        or CONTAINER_LINE.match(line)
        or code_lines(text, begin, end)
        or in_columns(text, begin, end)
        or is_record(text[begin:end])
        or _LINK_ONLY.fullmatch(line) is not None
        or in_comment(text, begin)
        or is_title_or_rule(text, begin, end)
        or _LEADER.search(line) is not None
        or CONSOLE_LINE.fullmatch(line.strip()) is not None
        or _numbered_title(text, begin, end)
        or _CONTENTS_LINE.fullmatch(line) is not None
        or _numbered_lines(line)
        or _diagram(line)
        or _CUT_SHORT.search(line) is not None
        or _ASKED.search(line) is not None
        or _labels(line)
    )


def _labels(sentence: str) -> bool:
    """Whether a sentence is labels: short lines ending none, or console lines alone.

    Three lines or more, each a label (`_label`): a paper's title block (title, authors,
    their universities: "Fitting Linear Mixed-Effects Models Using lme4 / Douglas Bates /
    University of Wisconsin-Madison / …") or a figure's labels read out of a PDF. Wrapped
    prose fills its lines; fields a sentence introduces ("… for the server / Python: 3.9 or
    newer"), lines holding code, indented continuations (a changelog's entry, a definition
    list's body) and a last line introducing what follows stay prose.
    """
    written = sentence.split("\n")
    lines = [line.strip() for line in written]
    if all(CONSOLE_LINE.fullmatch(line) for line in lines):
        return True  # an example typed at a prompt, line after line
    if sum(_FIELD_LINE.match(line) is not None for line in lines) >= 2:
        return False
    if "`" in sentence or any(line[:1] in " \t" for line in written[1:]):
        return False  # code, or a field or definition list's indented body: documentation
    wrapped = sum(line[:1].islower() for line in lines)  # a long title wraps
    lower = wrapped * 3 <= len(lines) - 1 and all(_NAMES_LINE.fullmatch(line) for line in lines)
    return (
        len(lines) >= _NUMBERED_LINES
        and all(_label(line, lower=lower) for line in lines)
        and not lines[-1].endswith(":")  # a sentence introducing what follows
    )


_NAMES_LINE = re.compile(r"[^\W\d_][^\W_]*(?:[ ,.'’&–-]+[^\W_]+)*")
"""A line of a title block: words and numbers, no code, data or mathematics."""


def _label(line: str, *, lower: bool = False) -> bool:
    """Whether a line may be a label: a few words that end no sentence.

    A title may wrap at its colon. A line opening in lower case is a sentence broken around
    a display ("currently available use"), unless it is `lower`: a third at most of the
    lines below the first open so, each of words (`_NAMES_LINE`), as a long title wraps
    ("Penalized least squares versus generalized / least squares representations of linear
    mixed / models / Douglas Bates / Department of Statistics / …": lme4's "PLSvGLS"). One
    stopping where prose goes on is wrapped prose ("Returns value is `…` if no"), and a
    console line is an example ("Consider the following assignments / > Xplus <- qr(X)").
    """
    return (
        len(line.split()) <= _MOST_LABEL_WORDS
        and not _LINE_ENDS.search(line.removesuffix(":"))
        and (lower or not line[:1].islower())
        and not _GOES_ON.search(line)
        and not CONSOLE_LINE.fullmatch(line)
    )


_MOST_LABEL_WORDS = 8
_FIELD_LINE = re.compile(r"[A-Z][\w ]{0,24}:[ \t]+\S")
_GOES_ON = re.compile(
    r"(?<![\w-])(?:the|a|an|and|or|of|in|for|with|to|on|by|from|if|no|not|that|is|are)\s*$"
)
_LINE_ENDS = re.compile(r"[.!?:;,]\W*$")


_ASKED = re.compile(r"\?[\"'”’)*_]*\s*$")
"""A question, which states nothing to quote: a FAQ's ("What do I do?", zoo's FAQ), or
the one a paragraph asks before it answers it."""
_CUT_SHORT = re.compile(
    r"(?<![\w,;-])(?<![,;] )(?:the|a|an|and|or|of|than|its|their|these|those|whose)\s*$"
)
"""A sentence that stops, with no stop, at a word no sentence or title ends with (an
article, a conjunction, "of", a possessive): the rest is on the next page and in the next
chunk, or below a display it runs into ("For the zero-truncated and zero-inflated Poisson
distribution the": a paper's page ends there). A list item ending ", or" or "; and"
goes on in the next item and is whole."""


def _worded(sentence: str, least: int) -> bool:
    """Whether a sentence has `least` words, and three of two letters, of code or numbers.

    Of a shorter one, all its words but one, and at least one of two letters or of code;
    numbers count beside two such words; marks alone ("*", "-", "·") are no words. A
    display of mathematics read out of a PDF ("0 · · · É(r(yn, x¦ n ˆ¹)) X.", sandwich's
    paper) or a table's row of numbers fails;
    "``{{ 20 // 7 }}`` is ``2``.", "* `.status_code` - **int**" and "Default: 10000 (10
    seconds)" pass.
    """
    tokens = sentence.split()
    words = [token for token in tokens if "`" in token or _ALPHANUMERIC.search(token)]
    named = sum("`" in word or _TWO_LETTERS.search(word) is not None for word in words)
    numbers = sum(_NUMBER_WORD.fullmatch(word) is not None for word in words)
    counted = named + numbers if named >= 2 else named
    return len(tokens) >= least and named > 0 and counted >= min(len(words) - 1, 3)


_ALPHANUMERIC = re.compile(r"[^\W_]")
_NUMBER_WORD = re.compile(r"[^\w]*#?\d[\d.,:/%]*[^\w]*")
"""A number as a word of its own ("10000", "(10", "3.19.0", "#955:"): a setting's value
counts ("Default: 10000 (10 seconds)"), though not without a word beside it ("0.5 1.0
0.0")."""
_TWO_LETTERS = re.compile(
    r"(?:(?![\u02b0-\u02ff\u00b2\u00b3\u00b9\u00bc-\u00be\u2070-\u209f])[^\W\d_]){2}"
)
"""Two letters in a row; a modifier letter or a superscript is none ("ˆ¹" of a display)."""


def _numbered_lines(sentence: str) -> bool:
    """Whether every line of a sentence of three lines or more opens with a section number.

    A table of contents without page numbers (MNRAS's "1 Introduction / 2 Obtaining and
    installing the MNRAS package / …") or a table's numbered rows ("1 Colorado 7.9").
    """
    lines = sentence.split("\n")
    return len(lines) >= _NUMBERED_LINES and all(_NUMBERED_LINE.match(line) for line in lines)


def _diagram(sentence: str) -> bool:
    """Whether every line of a sentence is an edge of a diagram and none reads as prose.

    A chunk cut inside a `.. mermaid::` block loses the directive that tells its lines are
    a diagram: tox's "extend --> core_config[tox_add_core_config] core_config -->
    env_config[tox_add_env_config]" had been quoted as a sentence. Each line holds an arrow
    ("-->", "->", "==>", "-.->") between two names; no two lower-case words stand in a row.
    """
    lines = [line for line in sentence.split("\n") if line.strip()]
    return (
        all(_DIAGRAM_EDGE.search(line) for line in lines) and _PROSE_PAIR.search(sentence) is None
    )


_DIAGRAM_EDGE = re.compile(r"\S[ \t]*(?:-{1,3}|={2,3}|-\.+-?)>{1,2}[ \t]*[|\w(\[]")
"""An edge of a diagram: a name, an arrow, the next name ("a --> b[B]", "x ==> y")."""


_NUMBERED_LINES = 3
_NUMBERED_LINE = re.compile(rf"[ \t]*{SECTION_NUMBER}[ \t]+\S")
_CAPITALS = r"[A-Z][A-Z0-9 \t&'’/,:()\-–]{2,78}[A-Z0-9)]"
"""A line in capitals (a pattern part): "CHECKLIST FOR ELECTRONIC", "REFERENCES"."""
_NUMBERED_TITLE = re.compile(
    rf"{SECTION_NUMBER}[ \t]+[A-Z][^\n.!:;,]{{0,78}}(?:\n[^\n.!:;,]{{0,78}})?[^\s.!:;,]"
    rf"|(?:{SECTION_NUMBER}[ \t]+)?{_CAPITALS}(?:\n{_CAPITALS})?"
)
"""A numbered section title: "6 Lists and data frames", "7.31 Why doesn't R think these
numbers are equal?", wrapped on two lines ("2 The penalized least squares approach to lin-
/ ear mixed models": lme4's "PLSvGLS"); or a title in capitals, on up to two lines:
"UNPUBLISHED PAPER PRESENTED AT A / PREVIOUS CONFERENCE" (`ingest.pdf_layout` sets a PDF's
apart by blank lines; `_numbered_title` reads one only alone in its paragraph)."""


_MOST_TITLE_WORDS = 12
_MOST_CAPITALS_WORDS = 8
"""The most words of a title in capitals: JACoW's longest has 8 ("PAPER PUBLISHED IN, OR
SUBMITTED TO, A PERIODICAL"); a warning in capitals says more."""
_CONTENTS_LINE = re.compile(
    rf"{SECTION_NUMBER}[ \t]+[A-Z][^\n.!?:;]{{0,78}}[^\W\d_][ \t]+\d{{1,4}}"
)
"""A table of contents' line without a dot leader: "4 Accelerated Failure Time models 75"."""


def _numbered_title(text: str, begin: int, end: int) -> bool:
    """Whether `text[begin:end]` is a numbered title, or one in capitals, alone in its paragraph.

    A number with a stop ("7. Theorem and theorem like environments", Elsevier's) is left
    out: alone in its paragraph it is as often a step of a procedure ("1. Setup your
    machine with the required development environment", aiohttp's; Developer Hub's "Add the
    Llama Stack and LCS container definitions to extraContainers"), which is worth quoting.
    """
    words = len(text[begin:end].split())
    if not _NUMBERED_TITLE.fullmatch(text, begin, end) or words > _MOST_TITLE_WORDS:
        return False
    if text[begin].isalpha() and words > _MOST_CAPITALS_WORDS:
        return False  # "WARNING: DO NOT UNPLUG THE DEVICE DURING A FIRMWARE UPDATE" is said
    above = text[max(0, begin - 2) : begin]
    return (begin == 0 or above == "\n\n") and text[end : end + 2] in ("", "\n", "\n\n")


_LEADER = re.compile(r"\.(?:[ \t]?\.){4,}")
"""A dot leader: a table of contents' line ("2.3 Generating regular sequences . . . . 9"),
which R's manuals had the extractive writer quote as a sentence."""


def opens_inside_fence(text: str) -> bool:
    """Whether `text`, a chunk, opens inside a fenced code block that its first fence closes.

    A chunk cut from a long example holds the closing fence and not the opening one. Read
    from the top, its first fence would open a block and the code above it would pass for
    prose. The chunk has an odd number of fences, the first of them bare (an opening fence
    mostly names its language: ```` ```python ````), with code above it. A line ending in
    `:` or an ellipsis right above introduces a block ("… wherever `stdout` is directed
    too..." above HTTPX's debug log): the fence opens one there.
    """
    first = FENCE_LINE.search(text)
    if first is None or first.group(2).strip() or _fences(text, 0, len(text)) % 2 == 0:
        return False
    above = text[: first.start()].rstrip()
    return bool(above) and not above.endswith((":", "...", "…"))


_LINK_ONLY = re.compile(
    r"\s*(?:`[^`<\n]*<[^<>`\s]+>`__?|\[[^\]\n]+\]\([^()\s]+\)|<?https?://\S+?>?)\s*[.:;,]?\s*"
)
"""A span that is one link and nothing else: a reStructuredText reference with its address
(`` `Draft 2019-09's release notes on format <https://…>`_ ``, a `.. seealso::` entry in
jsonschema's FAQ that the extractive writer had quoted), a Markdown link, an address."""
