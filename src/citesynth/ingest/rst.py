"""reStructuredText structure: adorned section titles and the paragraphs between them.

Section levels follow the order in which adornment styles first appear, as docutils does.
The indented blocks that follow a literal-block marker (a paragraph ending in `::`) or a
directive that holds code or markup (`.. code-block::`, `.. autosummary::`, an extension's
`.. click:example::`) are code; the body of an admonition or a version note (`.. note::`,
`.. versionchanged:: 7.1`), of any other directive (`.. tabs::`, `.. glossary::`, whose
own code directives are read in turn) and any other indented paragraph (a block quote) are
prose.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from citesynth.analysis import INLINE_CODE
from citesynth.ingest.blocks import (
    GRID_BORDER_LINE,
    LIST_MARKER,
    Block,
    BlockKind,
    columns,
    first_line_column,
    line_offsets,
    paragraphs,
    trimmed,
)

_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}[ \t]*\r?$")
_WORD = re.compile(r"[^\W_]")


def title_at(lines: list[str], index: int) -> tuple[int, int, str] | None:
    """If line `index` is a section title, return (first line, line after, style key).

    A title holds a letter or a digit: "*        *" over a row of stars is a box drawn
    round a licence's clause, not its title. An overlined title may be inset (Celery's
    "=====" / " What's new in Celery 5.3 (Emerald Rush)" / "====="); one without an
    overline may not: an indented line over a rule is a block quote's.
    """
    title = lines[index].strip()
    if not _WORD.search(title) or _ADORNMENT.match(lines[index]):
        return None
    if index + 1 >= len(lines):
        return None
    under = _ADORNMENT.match(lines[index + 1])
    if under is None or len(lines[index + 1].rstrip()) < min(len(title), 3):
        return None
    char = under.group(1)
    over = index > 0 and (match := _ADORNMENT.match(lines[index - 1])) and match.group(1) == char
    inset = len(lines[index].rstrip())  # the overline covers the inset too, as docutils asks
    if lines[index][:1] in " \t" and not (over and len(lines[index - 1].rstrip()) >= inset):
        return None
    first = index - 1 if over else index
    return first, index + 2, ("over" if over else "") + char


def rst_blocks(text: str) -> list[Block]:
    """Split reStructuredText into heading and paragraph blocks with exact offsets."""
    lines = text.split("\n")
    offsets = line_offsets(text)
    styles: dict[str, int] = {}
    blocks: list[Block] = []
    body_start = 0
    index = 0
    while index < len(lines):
        found = title_at(lines, index)
        if found is None:
            index += 1
            continue
        first, after, style = found
        blocks.extend(_body(text, body_start, offsets[first]))
        level = styles.setdefault(style, len(styles) + 1)
        start, end = trimmed(text, offsets[first], offsets[min(after, len(offsets) - 1)])
        blocks.append(
            Block(start, end, BlockKind.HEADING, heading=lines[index].strip(), level=level)
        )
        body_start = end
        index = after
    blocks.extend(_body(text, body_start, len(text)))
    return blocks


def _body(text: str, start: int, end: int) -> list[Block]:
    """The paragraphs between two titles; the paragraphs of one literal block as one block.

    A grid table (opening with `blocks.GRID_BORDER_LINE`) is a table block, which chunking
    cuts between rows, never inside a row's text (Jinja's loop table had been cut after
    "The current iteration of the loop.", the rest of the row opening the next chunk).

    A code example with blank lines in it ("import urllib3", a blank line, then the calls)
    is one block, so that a chunk never ends inside it: cut after its first paragraph, an
    answer had quoted "import urllib3" as the example (urllib3's docs, 2026-11-29).
    """
    blocks: list[Block] = []
    literal_below: int | None = None
    in_code = False
    for block in paragraphs(text, start, end):
        read, literal_below = read_paragraph(
            text[block.start : block.end], _column(text, block.start), literal_below
        )
        if read is not None:
            grid = GRID_BORDER_LINE.match(text, block.start)
            blocks.append(Block(block.start, block.end, BlockKind.TABLE) if grid else block)
        elif in_code:
            blocks[-1] = Block(blocks[-1].start, block.end, BlockKind.CODE)
        else:
            blocks.append(Block(block.start, block.end, BlockKind.CODE))
        in_code = read is None
    return blocks


def _column(text: str, start: int) -> int:
    """How far into its line offset `start` is (the indentation of a trimmed block).

    At the start of a trimmed text, where its first line stood (`first_line_column`).
    """
    return first_line_column(text) if start == 0 else start - (text.rfind("\n", 0, start) + 1)


# Directives whose body is written for the reader: admonitions, whose argument is text
# too, and version notes, whose argument is a version.
_ADMONITIONS = frozenset(
    "note warning tip hint important caution danger attention error seealso".split()
)
_VERSION_NOTES = frozenset("versionadded versionchanged deprecated".split())
PROSE_DIRECTIVES = (
    _ADMONITIONS
    | _VERSION_NOTES
    | frozenset(
        """admonition tab tab-item tab-set dropdown card grid-item-card topic sidebar margin
    versionremoved rubric epigraph highlights pull-quote""".split()
    )
)
"""Directives whose body is written for the reader (as prose, or holding prose and code)."""
_ARGUMENT = re.compile(r"[ \t]*\S*")
# Directives whose body is code, data or markup rather than prose (an autosummary's names),
# and an extension's examples (`.. click:example::`, `.. click:run::`) code. Autodoc's
# (`.. autoclass::`) take options on the lines right below them; a body after a blank line
# is content written for the reader, as an object description's is: Scrapy describes
# `Request`'s parameters and attributes in 185 lines under `.. autoclass:: scrapy.Request`,
# which had been read as one block of code and cut between its lines.
_CODE_DIRECTIVES = frozenset(
    """code code-block sourcecode literalinclude highlight doctest testcode testoutput
    testsetup testcleanup ipython jupyter-execute math graphviz raw csv-table toctree include
    image currentmodule module literal parsed-literal program-output command-output
    prompt code-tab plot mermaid uml plantuml table list-table productionlist
    autosummary""".split()
)
EXAMPLE_SUFFIXES = ("example", ":run", "-run", "console", "repl")
"""How the names of directives that hold an extension's code examples end (`click:example`)."""
_DIRECTIVE = re.compile(r"\.\.[ \t]+([\w.+:-]+?)[ \t]*::")


_OBJECT = re.compile(
    r"([ \t]*)\.\.[ \t]+(?:[\w-]+:)?(?:auto)?"
    r"(?:data|attribute|function|method|class|exception|option|cmdoption|envvar|confval"
    r"|describe|object|decorator|property)::[ \t]+([^\s(]+)"
)
"""A Sphinx object description's line: ".. py:data:: TEMPLATES_AUTO_RELOAD", ".. confval::
name", ".. function:: run_simple(hostname, port, application)" (its name: up to "("), and
autodoc's, whose body adds to the docstring: WTForms' ".. autoattribute:: csrf_field_name"
over "The name of the automatically added CSRF token field." """


@lru_cache(maxsize=256)
def described_objects(text: str) -> tuple[tuple[int, int, str], ...]:
    """The bodies of `text`'s object descriptions: (start, end, name), in order.

    A reference page describes a setting or a function in the indented body under its
    directive, and never names it there: Flask's configuration page writes ".. py:data::
    TEMPLATES_AUTO_RELOAD" over "Reload templates when they are changed. … Default:
    ``None``". A body runs from the line after the directive to the first line (not blank)
    indented no deeper than the directive. One pass over the lines, whatever the nesting.
    """
    found: list[tuple[int, int, str]] = []
    open_: list[tuple[int, int, str]] = []  # (depth, body start, name), innermost last
    position = 0
    for line in text.splitlines(keepends=True):
        read = line.expandtabs()
        if read.strip():
            depth = len(read) - len(read.lstrip())
            while open_ and open_[-1][0] >= depth:
                _, start, name = open_.pop()
                found.append((start, position, name))
            if (match := _OBJECT.match(line)) is not None:
                open_.append((depth, position + len(line), match.group(2).strip("`")))
        position += len(line)
    found.extend((start, len(text), name) for _, start, name in reversed(open_))
    return tuple(sorted((f for f in found if f[0] < len(text)), key=lambda f: f[0]))


def described_at(text: str, offset: int) -> str:
    """The name of the object whose description body holds `text[offset]` ("" if none).

    The innermost, when descriptions nest (a class's methods).
    """
    names = [name for start, end, name in described_objects(text) if start <= offset < end]
    return names[-1] if names else ""


@dataclass(frozen=True, slots=True)
class Opener:
    """What a paragraph says about itself and the indented paragraphs after it.

    `literal`: the indented paragraphs that follow are code. `prose_from`: where the
    paragraph's own prose starts (0 for plain text), None when it holds none.
    """

    literal: bool
    prose_from: int | None


def opener(paragraph: str) -> Opener:
    """Read a paragraph (starting at its first non-space character) as rST markup."""
    directive = _DIRECTIVE.match(paragraph)
    if directive is None:
        return Opener(literal=paragraph.rstrip().endswith("::"), prose_from=0)
    name = directive.group(1).lower()
    if name in _ADMONITIONS:
        return Opener(literal=False, prose_from=directive.end())
    if name == "admonition":  # its argument is the box's title
        line_end = paragraph.find("\n")
        return Opener(literal=False, prose_from=len(paragraph) if line_end < 0 else line_end)
    if name in _VERSION_NOTES:  # the version, then what changed ("3.1 Use spam instead.")
        version = _ARGUMENT.match(paragraph, directive.end())
        return Opener(literal=False, prose_from=version.end() if version else directive.end())
    if name in _CODE_DIRECTIVES or name.endswith(EXAMPLE_SUFFIXES):
        return Opener(literal=True, prose_from=None)
    return Opener(literal=False, prose_from=None)  # a container (`.. tabs::`): read inside


def read_paragraph(
    paragraph: str, indent: int, literal_below: int | None
) -> tuple[Opener | None, int | None]:
    """One paragraph of a run, read in turn: its `Opener` (None inside a literal block).

    Also returns the indentation below which the paragraphs that follow are code (None:
    none are). `paragraph` starts at its first non-space character, `indent` columns in; a literal
    block is every paragraph indented deeper than the text of the one that opened it (a list
    item's text starts past its mark: `_ITEM_TEXT`).
    """
    if literal_below is not None and indent > literal_below:
        return None, literal_below
    read = opener(paragraph)
    if not read.literal:
        return read, None
    return read, _text_column(paragraph, indent)


def _text_column(paragraph: str, indent: int) -> int:
    r"""The column the text of `paragraph`'s last list item starts at (`indent`: none).

    A list item's text, and any literal block it opens, are indented past its mark; in a
    list without blank lines between items ("9. a\n10. Run::") the last item opens it.
    """
    lines = paragraph.split("\n")
    for number in range(len(lines) - 1, -1, -1):
        line = lines[number]
        column = indent if number == 0 else columns(line)
        item = _ITEM_TEXT.match(line.lstrip(" \t"))
        if item:
            return column + item.end()
    return indent


_ITEM_TEXT = re.compile(rf"{LIST_MARKER}[ \t]+")
"""A list item's mark and the space after it: "1. " (the item's text, and any literal block
it opens, are indented past it: Tornado's FAQ "1. … use `tornado.gen.sleep` instead::" over
code indented four columns, then "   When this option is available, …", prose again)."""


_ROLE = re.compile(
    r"(?<![\w`])(?::(?:[a-z][\w-]*:)?([a-z][\w-]*):|\{(?:[a-z][\w-]*:)?([a-z][\w-]*)\})"
    r"`((?:[^`\n]|\n(?![ \t]*\n))+)`"
)
"""A role, reStructuredText's (":py:func:`x`") or MyST Markdown's ("{func}`x`"); its text may
run onto the next line (Django's ":ref:`JSON serialization\n<serialization-formats-json>`"),
never past a blank one."""
_CROSS_REFERENCES = frozenset(
    """ref doc term any func meth class attr data exc mod obj const envvar option keyword
    type member macro var struct enum setting djadmin djadminopt ttag tfilter lookup
    fieldlookup""".split()
)
"""Roles whose text may be "Title <target>" (Django's own too: ":setting:`TIMEOUT
<CACHES-TIMEOUT>`"); in `:math:` or `:samp:` a `<…>` is text."""
_TITLED_TARGET = re.compile(r"(.*?)\s*<[^<>]+>\s*$", re.S)


_CHANGE_KINDS = {"bug": "Bug", "feature": "Feature", "support": "Support"}
"""The roles of the `releases` Sphinx extension that open a change log's entry (Invoke's,
Fabric's, Paramiko's: "- :bug:`742` Define a custom ``__repr__`` …")."""
_TRACKER_ROLES = frozenset({"issue", "pr", "gh", "user", "release"})
"""Roles naming an issue, a pull request or a user of a project's tracker (`releases`' and
sphinx-issues': pytest's change log writes ":issue:`1366`" 1,200 times, Scrapy's
":gh:`4365`" 3,500), or a release (`releases`: ":release:`3.0.3 <2026-04-07>`")."""
_ENTRY_MARK = re.compile(r"[ \t]*(?:[-*+][ \t]+)?")
"""What stands before a role opening a change log's entry on its line: a list item's mark."""
_BEFORE_ENTRY = 16
"""How many characters before a role are read for the start of its line."""


def _opens_entry(text: str, start: int, end: int) -> bool:
    """Whether the role at `text[start:end]` opens a change log's entry, taking a colon.

    Nothing but a list item's mark stands before it on its line, and no colon of its own
    follows it; a role inside a sentence ("See :bug:`742` for details.") takes none. Only
    `_BEFORE_ENTRY` characters are read back, so a line of many roles is read once.
    """
    if text.startswith(":", end):
        return False
    before = text[max(0, start - _BEFORE_ENTRY) : start]
    line = before.rfind("\n")
    if line < 0 and start > _BEFORE_ENTRY:
        return False
    return _ENTRY_MARK.fullmatch(before, line + 1) is not None


def _change_entry(role: str, inside: str) -> str:
    """A change log's role as its extension shows it, without its brackets.

    ":bug:`742`" -> "Bug #742:", ":feature:`-`" (no issue) -> "Feature:", ":bug:`1011
    major`" -> "Bug #1011:", ":issue:`528`" -> "#528", ":issue:`file an issue <new>`" ->
    "file an issue", ":user:`nicoddemus`" -> "@nicoddemus", ":release:`3.0.3
    <2026-04-07>`" -> "3.0.3 (2026-04-07)". Written as code ("`742` Define …"), an
    entry's number had read as a value of it in answers quoting Invoke's change log.
    """
    titled = _TITLED_TARGET.fullmatch(inside)
    if role == "release":
        if not titled:
            return inside
        date = inside[titled.end(1) :].strip(" <>")
        return f"{titled.group(1)} ({date})" if titled.group(1) else date
    if titled and titled.group(1):
        inside = titled.group(1)
    if role == "user":
        return f"@{inside.lstrip('@')}"
    words = inside.split()
    number = words[0] if words else ""
    if role in _TRACKER_ROLES:
        return f"#{number}" if number.isdigit() else inside
    shown = f"#{number}" if number.isdigit() else "" if number in {"", "-"} else number
    return " ".join(filter(None, (_CHANGE_KINDS[role], shown))) + ":"


_OBJECT_ROLES = frozenset(
    """func meth class attr data exc mod obj const envvar paramref member type""".split()
)
"""Roles naming a Python object (or an environment variable), whose target Sphinx looks up
from the current module when it opens with "." (Alembic's ":meth:`.Operations.add_column`",
shown "Operations.add_column"); not `:file:`, whose ".coveragerc" is a name."""
_INTERSPHINX = re.compile(r"^[a-z][\w-]*:(?=[A-Za-z_][\w.]*(?:\(\))?$)")
"""The name of another project's documentation before a target (intersphinx:
":func:`python:os._exit`", ":class:`~psycopg:psycopg_pool.ConnectionPool`"), which Sphinx
does not show."""


def _numbered_document(role: str, inside: str) -> str:
    """A PEP or an RFC as a reader sees it: "PEP 538".

    A titled one by its title, with the number it links to when the title does not say it
    ("in-tree backend (PEP 517)", "PEP 508"), never "PEP in-tree backend
    <517#in-tree-build-backends>".
    """
    titled = _TITLED_TARGET.fullmatch(inside)
    if not (titled and titled.group(1)):
        return f"{role.upper()} {inside}"
    title, number = titled.group(1), inside[titled.end(1) :].strip(" <>").partition("#")[0]
    return title if number in title.split() else f"{title} ({role.upper()} {number})"


def rendered_roles(text: str) -> str:
    """`text` with reStructuredText roles written as a reader sees them.

    `:func:`confirm`` -> `` `confirm` ``, `:class:`~click.core.ParameterSource`` ->
    `` `click.core.ParameterSource` ``, `:ref:`Prompting <option-prompting>`` -> "Prompting",
    `:func:`python:os._exit`` (another project's, `_INTERSPHINX`) -> `` `os._exit` ``,
    `:meth:`.Operations.add_column`` -> `` `Operations.add_column` ``, `:pep:`517`` -> "PEP
    517", `:pep:`in-tree backend <517#in-tree-build-backends>`` -> "in-tree backend (PEP
    517)":
    what Sphinx renders, the target in full, so that a sentence copied from a source still
    reads as a quotation of it. MyST Markdown's roles (`{func}`attrs.evolve``) likewise.
    """

    def render(found: re.Match[str]) -> str:
        role, inside = found.group(1) or found.group(2), found.group(3).lstrip("~!")
        if role in {"pep", "rfc"}:
            return _numbered_document(role, inside)
        if role in _CHANGE_KINDS or role in _TRACKER_ROLES:
            entry = _change_entry(role, inside)
            return entry if _opens_entry(text, found.start(), found.end()) else entry.rstrip(":")
        if role in _OBJECT_ROLES:
            inside = _INTERSPHINX.sub("", inside).lstrip("~.")
        titled = _TITLED_TARGET.fullmatch(inside) if role in _CROSS_REFERENCES else None
        if titled and titled.group(1):
            return titled.group(1) if role in {"ref", "doc", "term"} else f"`{titled.group(1)}`"
        return inside if role == "term" else f"`{inside}`"  # a glossary term is a word

    return _ROLE.sub(render, text) if ":`" in text or "}`" in text else text


API_REFERENCE = r":::[ \t]+\w+(?:\.\w+)+"
"""An API reference that mkdocstrings fills in (`::: httpx.Client`; a pattern part)."""
_MARKUP_LINE = re.compile(
    rf"^[ \t]*(?:({_DIRECTIVE.pattern}.*)|\.\.[ \t]+_[^\n]*:.*|{API_REFERENCE}.*)$",
    re.MULTILINE,
)
"""A directive's line (group 1), a link target (`.. _Trio: https://…`, `.. _label:`), or an
API reference that mkdocstrings fills in (`::: httpx.Client`)."""
_OPTION_OR_TAIL = re.compile(r"[ \t]+(?::[\w-]+:.*|\S+)")
"""A directive's option line (`   :members:`) or a target's wrapped address (`   #part`)."""


def markup_blanked(text: str) -> str:
    """`text` with the lines of markup that state nothing blanked, its other lines as they are.

    Those are the lines of a directive with no prose of its own (`.. autofunction::
    anyio.create_task_group`, `.. code-block:: python`, `.. tabs::`) and their options, link
    targets, and mkdocstrings' `::: name`; a directive whose body is prose (`.. note::`,
    `.. versionchanged:: 4.0`) is kept. A verifier reading only such lines reads names, not
    statements: the trained verifier passed a claim on how a task group cancels (0.58)
    against a passage of AnyIO's API page that held nothing else. A code block's body stays.
    """
    if ".. " not in text and "::: " not in text:
        return text
    lines = text.split("\n")
    blanked = False
    for index, line in enumerate(lines):
        found = _MARKUP_LINE.match(line)
        if found and (found.group(1) is None or opener(found.group(1)).prose_from is None):
            lines[index] = ""
            blanked = True
        elif blanked and _OPTION_OR_TAIL.fullmatch(line) and line.lstrip()[:1] in {":", "#"}:
            lines[index] = ""
        else:
            blanked = False
    return "\n".join(lines)


_PHRASE_REFERENCE = re.compile(
    r"(?<![`\w])`([^`<\n]*(?:\n(?![ \t]*\n)[^`<\n]*)*)(?:<[^<>`\n]+>)?`__?(?![\w`])"
)
"""A hyperlink reference in backticks: `` `Trio`_ ``, `` `the docs <https://…>`_ ``; its
text may run over lines of one paragraph (Tornado's "`chat\nexample application\n<https://…>`_").
Its text is read greedily up to the `<` or backtick that ends it: a long run of spaces
costs one pass (read lazily, each space had read all those after it)."""
_WORD_REFERENCE = re.compile(
    r"(?<![\w`.:/@#-])([A-Za-z][\w-]*[A-Za-z0-9])__?(?=\s|[.,;:!?)\]](?:\s|$)|$)"
)
"""A one-word hyperlink reference: `uvloop_`, `Trio_` (never `__init__`, `class_name` or a
part of an address: `…/Standard_output_.28stdout.29`)."""
_TITLED_OBJECT = re.compile(r"(?<![`\w:}])`([^`<>\n]+?)\s+<~?[A-Za-z_][\w]*(?:\.\w+)+>`(?![`_\w])")
"""Interpreted text in the default role with a title: `` `load <Schema.load>` `` (Sphinx's
`default_role`, as marshmallow's docs write 157 references), a link to a dotted name."""
_MARKED_OBJECT = re.compile(
    r"(?<![`\w:}])`~(?:\.([A-Za-z_]\w*(?:\.\w+)*(?:\(\))?)|([A-Za-z_]\w*(?:\.\w+)+))`(?![`_\w])"
)
"""Interpreted text in the default role whose target Sphinx searches for and shortens:
Tornado's `` `~.RequestHandler.get_user_locale` `` (a name shown as code, in full as
`rendered_roles` shows a role's target), and a dotted name after "~" (Invoke's
`` `~invoke.runners.Runner.run` ``: 170 such names in the reStructuredText docs here, none
in their Markdown). Markdown writes `` `~mask` `` and `` `~df.isna()` `` for a negation,
and `` `.gitignore` ``: no dots, or a call, after the "~" is no name."""
_LITERAL_MARKER = re.compile(r"(\s?)::(?=\s|$)")
"""The `::` that ends a paragraph introducing a literal block ("like this::")."""
_NOTE_REFERENCE = re.compile(r"[ \t]?\[(?:#[\w-]*|\*|\d+|[A-Za-z][\w.-]*)\]_(?![\w`])")
"""A footnote's or a citation's reference: "[#]_", "[*]_", "[1]_", "[#fnogc]_",
"[CIT2002]_"; Sphinx shows it as a raised mark, and written in an answer "[1]" reads as a
citation of it."""


_VERSION_NOTE = re.compile(
    r"^([ \t]*)\.\.[ \t]+(versionadded|versionchanged|deprecated|versionremoved)[ \t]*::"
    r"[ \t]*(?P<version>[^\s:]+)[ \t]*",
    re.MULTILINE,
)
"""A version note's directive and its version (".. versionadded:: 3.1"), opening a line."""
_VERSION_LABELS = {
    "versionadded": "Added in version",
    "versionchanged": "Changed in version",
    "deprecated": "Deprecated since version",
    "versionremoved": "Removed in version",
}
"""How Sphinx labels each version note, before the note's text."""


def version_note(paragraph: str) -> bool:
    """Whether `paragraph` (from its first non-space character) opens a version note."""
    return _VERSION_NOTE.match(paragraph) is not None


def bare_version_note(paragraph: str) -> bool:
    """Whether `paragraph` is a version note's directive alone, its body (if any) below it."""
    found = _VERSION_NOTE.match(paragraph)
    return found is not None and not paragraph[found.end() :].strip()


def _version_label(found: re.Match[str]) -> str:
    return f"{found.group(1)}{_VERSION_LABELS[found.group(2)]} {found.group('version')}: "


def rendered_rst(text: str) -> str:
    """`text` with reStructuredText written as a reader sees it, outside inline code.

    Roles as `rendered_roles` writes them, and a titled reference in the default role as
    its title (`` `load <Schema.load>` `` → `` `load` ``; the embedded model had copied
    "`utils.get_value <marshmallow.utils.get_value>`" into an answer); hyperlink
    references as their text ("Use the
    faster uvloop_ event loop" → "uvloop", `` `official documentation <https://…>`_ `` →
    "official documentation"); the `::` that introduces a literal block as Sphinx shows it
    (":" after a word, nothing after a space). The embedded model copied "Using uvloop_ as
    an example, code like the following should be converted into::" from AnyIO's docs
    into an answer. An auto-numbered item's "#." is a plain item's "-": the model had
    copied APScheduler's "There are two ways to make this happen: #. by calling …". A
    footnote's reference ("… concurrency slots [*]_ (processes/threads)") is left out. A
    name in the default role loses the "~." or "~" that tells Sphinx to search for it or
    shorten it (`` `~.RequestHandler.get_user_locale` `` → `` `RequestHandler.get_user_locale`
    ``, `` `~invoke.runners.Result` `` → `` `invoke.runners.Result` ``). A version note's
    directive is Sphinx's label (".. versionadded:: 3.1" → "Added in version 3.1: "), so that
    the note's first sentence, read from the directive (`sentences.prose_sentences`), says
    which version: Jinja's "A context can be passed to the ``trans`` tag …" had been quoted
    for "Which Jinja release first allowed passing a context to trans?" without its 3.1.
    """
    text = rendered_roles(text)
    if ".. " in text:
        text = _VERSION_NOTE.sub(_version_label, text)
    if "#" in text:
        text = _AUTO_NUMBER.sub(r"\1- ", text)
    if ">`" in text:
        text = _TITLED_OBJECT.sub(_titled_object, text)
    if "`~" in text:
        text = _MARKED_OBJECT.sub(lambda found: f"`{found.group(1) or found.group(2)}`", text)
    if "_" not in text and "::" not in text:
        return text
    text = _PHRASE_REFERENCE.sub(_reference_text, text)
    if "]_" in text:
        text = _outside_code(text, lambda plain: _NOTE_REFERENCE.sub("", plain))
    pieces, position = [], 0
    for kept in [*_KEPT.finditer(text), None]:
        start = kept.start() if kept else len(text)
        plain = _WORD_REFERENCE.sub(r"\1", text[position:start])
        pieces.append(_LITERAL_MARKER.sub(_literal_marker, plain))
        pieces.append(kept.group() if kept else "")
        position = kept.end() if kept else len(text)
    return "".join(pieces)


def _reference_text(found: re.Match[str]) -> str:
    """A hyperlink reference as its text, on one line (as written when it has none)."""
    return " ".join(found.group(1).split()) or found.group()


def _outside_code(text: str, change: Callable[[str], str]) -> str:
    """`text` with `change` made to what lies outside its inline code."""
    pieces, position = [], 0
    for code in [*INLINE_CODE.finditer(text), None]:
        start = code.start() if code else len(text)
        pieces.append(change(text[position:start]))
        pieces.append(code.group() if code else "")
        position = code.end() if code else len(text)
    return "".join(pieces)


_AUTO_NUMBER = re.compile(r"^([ \t]*)#[.)][ \t]+", re.MULTILINE)
"""reStructuredText's auto-enumerator opening a list item ("#. by calling …")."""
_KEPT = re.compile(
    r"``[^`\n]+``|`[^`\n]+`|(?<![\w`])(__?)(?=[^\s_])[^\n]{0,200}?(?<=[^\s_])\1(?!\w)"
)
"""What `rendered_rst` leaves as written: inline code, and Markdown's `_emphasis_` and
`__strong emphasis__`, whose closing underscores are no reference ("_for every single
request_", HTTPX's docs; "__Middle-Word Emphasis__", Python-Markdown's, had lost its
closing pair). An emphasis is looked for over at most 200 characters, so a long line
costs one pass."""
_DIRECTIVE_BEFORE = re.compile(r"(?:^|\s)\.\.[ \t]+[\w.+:-]+$")


def _titled_object(found: re.Match[str]) -> str:
    """A titled reference as Sphinx shows it: a name as code, a phrase as words."""
    title = found.group(1).strip()
    return title if " " in title else f"`{title}`"


def _literal_marker(found: re.Match[str]) -> str:
    """What a literal block's `::` reads as: ":" after a word, nothing after a space.

    A directive's own `::` (`.. automodule:: cattrs.gen`) stays as written; only the 80
    characters before it are read for it.
    """
    start = found.start()
    if _DIRECTIVE_BEFORE.search(found.string, max(0, start - 80), start):
        return found.group()
    return "" if found.group(1) else ":"
