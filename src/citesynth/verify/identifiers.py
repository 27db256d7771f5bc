"""Identifiers a claim writes as code, and whether a passage writes them as code does.

`identifiers` reads a claim's dotted paths, snake_case names, options ("--reload") and
literals; the rest say how a source may write the same name: as an attribute of its
parent, a call, a key of a YAML or TOML example, or in a code span (`marks_code`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from citesynth.analysis import (
    INLINE_CODE,
    SINGLE_CODE,
)
from citesynth.verify.analysed import remembered_when_short

_DOTTED_NAME = r"[A-Za-z_]\w+(?:\.[A-Za-z_]\w+)+"
_DOUBLE_CODE = re.compile(r"(?<!`)``([^`\s](?:[^`\n]*[^`\s])?)``(?!`)")
"""Inline code in reStructuredText's double backticks (``x``): no space inside its edges,
so the quotes of tokenised text ("`` Fooled Around ''") are none."""


def _inline_code(text: str) -> list[re.Match[str]]:
    """The inline code spans of `text`, in single (`x`) or double (``x``) backticks.

    Both writers quote reStructuredText as written: "To run tests we use ``nox``." had
    passed against build's "To run tests we use ``tox``." (0.63), where `nox` in single
    backticks is an identifier the page never writes.
    """
    return sorted([*SINGLE_CODE.finditer(text), *_DOUBLE_CODE.finditer(text)], key=re.Match.start)


_DOTTED = re.compile(rf"(?<![\w.]){_DOTTED_NAME}(?!\w|\.\w)")
"""Dotted names (`httpx.Client`, `www.example.com`), a full stop after one ending its
sentence ("at logging.INFO."); not "e.g." or "U.S." (one-letter parts)."""
_SNAKE = re.compile(r"(?<![\w.])[A-Za-z]\w*_\w+")
_CODE_WORD = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_LITERALS = frozenset({"none", "true", "false", "null", "self", "async", "await"})


@lru_cache(maxsize=1024)
def identifiers(text: str) -> frozenset[str]:
    """The code identifiers `text` names, lower case, each by its last dotted part.

    Words in inline code (`httpx.HTTPTransport`, `max_connections`, ``nox``), and outside it dotted
    names and snake_case words: `HTTPTransport`, `max_connections`. Literals (`None`) and
    parts shorter than three characters are left out.
    """
    found: list[str] = []
    options: list[str] = []
    for match in _inline_code(text):
        option = _OPTION.fullmatch(match.group(1))
        if option:
            options.append(option.group(1))  # as written: `-x` is not `-X`
        else:
            found.extend(_CODE_WORD.findall(match.group(1)))
    plain = _DOUBLE_CODE.sub(" ", SINGLE_CODE.sub(" ", text))
    found.extend(_DOTTED.findall(plain))
    found.extend(_SNAKE.findall(plain))
    parts = (name.rsplit(".", 1)[-1].lower() for name in found)
    return frozenset(p for p in parts if len(p) >= 3 and p not in _LITERALS) | frozenset(options)


_OPTION = re.compile(r"\s*(--?[A-Za-z][\w-]*)(?:=\S*)?\s*")
"""Inline code that is a command-line option, whole and however short (`--ff`, `-x`,
`--maxfail=2`): the embedded model's "use the `--ff` option, which stands for 'fail
fast'" passed against pytest's stepwise section, which names `--sw` and `--lf -x`. An
option inside a command (`oc apply -f <file>`) is not read: a claim quoting a command
quotes it, and the Developer Hub answers write commands with flags their guides spell
otherwise."""


def written_option(option: str, text: str) -> bool:
    """Whether `text` writes the command-line `option`: whole and in its case, or its name.

    `-s` is not in `--sw`, nor `-x` in `-X`, nor `--ff` in "failed first"; a longer name
    may stand as a word: pip's "You can install local projects in 'editable' mode" with
    `pip install -e` states what the embedded model's `--editable` does (a first version
    that asked for the option whole removed that right claim).
    """
    if re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text):
        return True
    name = option.lstrip("-")
    return len(name) >= 3 and re.search(rf"(?<![\w-]){re.escape(name)}", text, re.I) is not None


def attributes(claim: str) -> list[tuple[str, str]]:
    """Dotted names the claim writes as code (`trio.move_on_after`), with their last part.

    Naming an attribute of a module or object is naming code: the embedded model's "use
    the `trio.timeout` function" against Trio's "when a timeout expires" and
    `trio.move_on_after(30)` had every term held, "timeout" as a word. A setting's key
    path (`upstream.backstage.extraEnvVars`) passes where the source writes the last key
    as a key (`as_key`).
    """
    found: dict[tuple[str, str], None] = {}  # each name once, in order
    for code in _inline_code(claim):
        for dotted in _ATTRIBUTE.findall(code.group(1)):
            name = dotted.rsplit(".", 1)[-1].lower()
            if len(name) >= 3 and name not in _DOMAINS:
                found[(dotted.lower(), name)] = None
    return list(found)


def other_attributes(claim: str, text: str) -> list[str]:
    """Dotted names of the claim whose qualifier lower-case `text` gives another attribute.

    "a filtering bound logger at logging.INFO" against structlog's
    `make_filtering_bound_logger(logging.NOTSET)`: the source writes `logging.` with
    another name, and neither `logging.info` nor the word "info" on its own (its
    `set_exc_info` holds it only as a part). A name the source writes on its own, under
    another qualifier too (`structlog.stdlib.get_logger` for `structlog.get_logger`), is
    no other attribute; one it writes only inside a hyphenated word ("i18n-extension") is.
    The source's names are read once, whatever the claim names.
    """
    chains, qualifiers = _dotted_names(text)
    found = []
    for dotted in dict.fromkeys(_WRITTEN_ATTRIBUTE.findall(claim)):
        qualifier, _, name = dotted.lower().rpartition(".")
        if len(name) < 3 or name in _DOMAINS or f"{qualifier}.{name}" in chains:
            continue
        if qualifier in qualifiers:
            found.append((dotted, name))
    if not found:
        return []  # most claims: no other attribute is read, nor the source word by word
    written = frozenset(_OWN_WORD.findall(text))
    return [dotted for dotted, name in found if name not in written]


_OWN_WORD = re.compile(r"(?<![\w-])[a-z0-9_]+(?![\w-])")
"""A word of lower-case text as code spells it, not a part of a hyphenated one: Jinja's
":ref:`i18n-extension`" writes no `i18n` of its own where `jinja2.ext` has another
attribute (`jinja2.ext.babel_extract`)."""


@remembered_when_short(maxsize=256)
def _dotted_names(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """Each run of two or more parts of the dotted names of `text`, and each qualifier.

    A qualifier is a run some further part follows: `structlog.stdlib.get_logger` has the
    runs `structlog.stdlib`, `stdlib.get_logger` and itself, and the qualifiers
    `structlog`, `stdlib` and `structlog.stdlib`.
    """
    chains: set[str] = set()
    qualifiers: set[str] = set()
    for dotted in _WRITTEN_ATTRIBUTE.findall(text):
        parts = dotted.split(".")[:_PARTS]
        for first in range(len(parts)):
            for last in range(first + 1, len(parts)):
                qualifiers.add(".".join(parts[first:last]))
                chains.add(".".join(parts[first : last + 1]))
    return frozenset(chains), frozenset(qualifiers)


_PARTS = 6
"""The parts of a dotted name read (`_dotted_names`): names nest a few deep."""
_WRITTEN_ATTRIBUTE = re.compile(rf"(?<![\w./@:-]){_DOTTED_NAME}(?![\w/:@-]|\.\w)")
"""`_ATTRIBUTE` written anywhere, a sentence's full stop after it ("at logging.INFO.")."""


_MARKS_CODE = re.compile(
    rf"{SINGLE_CODE.pattern}|{_DOUBLE_CODE.pattern}|```|^[ \t]*~~~"
    r"|^[ \t]*\.\. (?:code-block|code|sourcecode)::|::[ \t]*$",
    re.M,
)
"""What shows that a text marks its code: inline code (`x`, reStructuredText's ``x``), a
fence (also inside a line, as text flattened from Markdown keeps it), or a
reStructuredText code directive or literal block ("… as follows::"), as a
section that shows its example in a `.. code-block::` and names nothing inline. Not the
quotes of tokenised text ("`` Fooled Around ''", ClapNQ, MuSiQue, HotpotQA)."""


def marks_code(text: str) -> bool:
    """Whether `text` marks its code (`_MARKS_CODE`): documentation does, prose seldom."""
    return _MARKS_CODE.search(text) is not None


_ATTRIBUTE = re.compile(rf"(?<![\w./@:-]){_DOTTED_NAME}(?![\w./:@-])")
"""A dotted name that is no part of a web address, path or e-mail address."""
_DOMAINS = frozenset({"com", "org", "net", "edu", "gov", "dev", "app"})
"""Last parts that make a dotted name a host (`example.com`), not an attribute."""


_CALL = re.compile(r"(?<![\w.])(?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*)\(")


def called_as(claim: str) -> frozenset[str]:
    """Names the claim's inline code calls (`cancel()`, `tg.start_soon(f)`), lower case."""
    return frozenset(
        match.group(1).lower()
        for code in _inline_code(claim)
        for match in _CALL.finditer(code.group(1))
        if len(match.group(1)) >= 3
    )


def as_code(name: str, text: str) -> bool:
    """Whether lower-case `text` writes `name` as code: called, after a dot, or in backticks.

    A claim calling a method (`cancel()`) names code; a source that marks its code and has
    the word only in prose ("cancelled", "cancel message support", AnyIO's changelog) does
    not state it: the trained verifier passed "use the `cancel()` method on the task group
    object" against such a changelog line (0.57). A source with no backtick at all (a PDF,
    plain text) is not asked to.
    """
    name = re.escape(name)
    return re.search(rf"(?<![\w-]){name}(?=\s*\(|`)|[.`]{name}(?!\w)", text) is not None


def as_key(name: str, text: str) -> bool:
    """Whether lower-case `text` writes `name` as a setting's key (`application:`, `x =`).

    A dotted path in a claim (`spec.application.extraEnvs`) names the keys a YAML or TOML
    example nests, which the source writes one per line.
    """
    return re.search(rf"(?<![\w-]){re.escape(name)}\s*[:=]", text) is not None


_WORD = re.compile(r"[a-z0-9_]+")


def words(text: str) -> frozenset[str]:
    """The words of `text` as code spells them, lower case: `reload_templates` is one."""
    return frozenset(_WORD.findall(text.lower()))


MARKERS = re.compile(r"\[\d[\d,\s-]*\]")
"""Citation markers ("[1]", "[2,4-6]", "[2, 4]"): no terms of a claim."""

_LINK_TARGET = re.compile(r"<[^<>\n]*>\s*$")


def code_spans(text: str) -> tuple[str, ...]:
    """The inline code `text` writes, in order; not its reStructuredText links.

    towncrier's "(see `Configuration <configuration.html>`_ for details)" is a link in
    single backticks, which had been read as the default five fragment types are given.
    """
    return tuple(
        m.group(1).strip()
        for m in INLINE_CODE.finditer(text)
        if not text.startswith("_", m.end()) and not _LINK_TARGET.search(m.group(1))
    )
