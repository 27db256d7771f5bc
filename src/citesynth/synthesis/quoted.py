"""A source's sentence as the extractive writer quotes it: plain, and cited.

`clean` takes off what a reader of the answer would see as stray markup (a list's or a
definition's mark, an admonition's label, a literal block's "::", emphasis left unpaired,
brackets of the source's own citations); `shown_block` and `cited_sentences` put the
citation marker where it reads as the sentence's (before a closing quotation, after each
sentence of a block).
"""

from __future__ import annotations

import re

from citesynth.analysis import (
    ADMONITIONS,
    INLINE_CODE,
)
from citesynth.citations.references import without_reference_marks
from citesynth.ingest.blocks import LIST_MARK
from citesynth.ingest.markdown import (
    rendered_markup,
)
from citesynth.ingest.sentences import (
    RST_FIELD_NAME,
    sentence_spans,
)
from citesynth.synthesis.introduced import (
    Introduced,
)
from citesynth.synthesis.markup import strip_markup

_INNER_BULLET = re.compile(r"\n[ \t]*[-*+][ \t]+(?=\S)")
"""A bullet opening a line inside a quoted sentence: an item of a sentence run over a
list (`candidates._runs`), read without it ("… will exit with: code 0 if nothing would
change; code 1 …"), or an item shown with the one before it (peewee's "``preserve=``: …
we wish to update." then "* ``update=``: if a conflict occurs, this is …" had read "…
update. * ``update=``: …")."""
_DEFINITION_MARK = re.compile(r"^:\s+|^:(?=" + RST_FIELD_NAME + ")")
"""The mark opening a definition list's definition (MyST, Pandoc: ": Checks the level …"),
or a reStructuredText field's opening colon (":Exit code 5: No tests were collected" reads
"Exit code 5: No tests were collected", as Sphinx shows it)."""
BRACKETS = re.compile(r"\s*(?:\[[\d,\s\-–^]+\]|【[^】]*】)")
_EMPHASIS = re.compile(r"\*\*(.+?)\*\*|(?<!\w)__(?=\S)(.+?)(?<=\S)__(?!\w)")
"""Strong emphasis: `**bold**`, or `__bold__` not inside a word ("snake__case__name")."""
_OPENING_STARS = re.compile(r"^\*{1,2}(?=[A-Z0-9])")
_CLOSING_STARS = re.compile(r"(?<=[.!?])\*{1,2}$")
_ADMONITION = re.compile(rf"^\[(?:{'|'.join(ADMONITIONS)})\]\s*(?:-{{4,}}|={{4,}})?\s*")
"""An AsciiDoc admonition's label and block delimiter ("[TIP] ---- On OpenShift ...")."""
_ASIDE_END = re.compile(r"[.!?]\s+(\([^()\n.!?]{1,60}\))[.!?]?$")
_LITERAL_MARK = re.compile(r"(?<=\S):(?=:$)|\s+::$")
"""reStructuredText's literal-block mark: "follows::" reads "follows:", "follows: ::" "follows:"."""
_TERM_MARK = re.compile(r"(?<=\S)::(?=\s)")
"""An AsciiDoc description list's mark between a term and its definition."""


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
    text = LIST_MARK.sub("", " ".join(strip_markup(text).split()))
    text = _DEFINITION_MARK.sub("", text)
    text = _ADMONITION.sub("", text)
    text = _plain_emphasis(BRACKETS.sub("", text))
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


def cited_sentences(text: str, numbers: str) -> str:
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
            shown = f"- {cited_sentences(clean(item), number)}"
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
