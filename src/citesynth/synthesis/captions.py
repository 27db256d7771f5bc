"""Comments that caption the code below them, as the extractive writer quotes them.

Documentation shows how in code, and often says what each example does only in its
comment: APScheduler's interval trigger page has "Schedule job_function to be called every
two hours" above `sched.add_job(job_function, 'interval', hours=2)`, and no prose sentence
says so; "How do I run a job every 2 hours?" was answered with the combining triggers'
examples. A caption is a comment line (or a run of them) of a code block that reads as a
sentence, with the code right below it:

- in a fenced block, or on a line indented by two columns or more (a reStructuredText
  literal or code directive, Markdown's indented code): no Markdown heading is indented so;
- `#` or `//` and a space, then a capital letter, and at least `MIN_WORDS` words, most of
  them words of letters (not a commented-out call, not a pragma such as `# noqa: E501` or
  `# type: ignore`);
- followed, on the next line, by code at its indentation or deeper: the lines up to a blank
  line, the next comment at its indentation or a line indented less, at most `MAX_LINES`.

The extractive writer quotes the caption as a lead-in ("Schedule job_function to be called
every two hours: [1]") and shows its code below it, cited with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citesynth.ingest.sentences import fenced_blocks
from citesynth.synthesis.introduced import Introduced

MIN_WORDS = 4
MAX_LINES = 12

_COMMENT = re.compile(r"([ \t]*)(?:#|//)[ \t]+(\S.*?)[ \t]*")
_FENCE_INFO = re.compile(r"[ \t]*(?:`{3,}|~{3,})[ \t]*([\w+#.-]*)")
_PRAGMA = re.compile(
    r"\b(?:noqa|type:|pragma|pylint:|fmt:|isort:|mypy:|flake8|-\*-|eslint|ts-ignore|TODO|FIXME|XXX)",
    re.I,
)
_WORD = re.compile(r"[A-Za-z][a-z]+(?:'[a-z]+)?")


@dataclass(frozen=True, slots=True)
class Caption:
    """A comment saying what the code below it does, and that code."""

    start: int
    """Where the comment's text starts (after its `#` or `//`)."""
    sentence: str
    """The comment's text, its lines joined, as a lead-in ending in ":"."""
    block: Introduced


def captions(text: str) -> list[Caption]:
    """The captions of the code in `text`, in order."""
    lines = _lines(text)
    fences = fenced_blocks(text)
    found: list[Caption] = []
    index = 0
    while index < len(lines):
        offset, line = lines[index]
        comment = _COMMENT.fullmatch(line)
        fence = next((f for f in fences if f[0] < offset < f[1]), None)
        if comment is None or (fence is None and _indent(comment.group(1)) < 2):
            index += 1
            continue
        indent = comment.group(1)
        parts = [comment.group(2)]
        start = offset + comment.start(2)
        index += 1
        while index < len(lines) and (more := _COMMENT.fullmatch(lines[index][1])) is not None:
            if more.group(1) != indent:
                break
            parts.append(more.group(2))
            index += 1
        block = _code_below(lines, index, indent, fence, text)
        sentence = " ".join(parts)
        if block is not None and _reads_as_caption(sentence):
            found.append(Caption(start, sentence.rstrip(" .:;,") + ":", block))
    return found


def _reads_as_caption(sentence: str) -> bool:
    """A sentence of words opening with a capital letter, no pragma nor code."""
    words = sentence.split()
    if len(words) < MIN_WORDS or not sentence[0].isupper() or _PRAGMA.search(sentence):
        return False
    worded = sum(1 for word in words if _WORD.fullmatch(word.strip(",.;:!?()\"'")))
    return worded * 2 > len(words) and "(" not in words[0] and "=" not in sentence


def _code_below(
    lines: list[tuple[int, str]],
    index: int,
    indent: str,
    fence: tuple[int, int] | None,
    text: str,
) -> Introduced | None:
    """The code from `lines[index]` on at `indent` or deeper, up to a blank line or comment."""
    body: list[str] = []
    first = last = index
    while index < len(lines):
        offset, line = lines[index]
        if not line.strip() or (fence is not None and offset >= fence[1]):
            break
        if not line.startswith(indent) or _indent(line) < _indent(indent):
            break
        if _FENCE_INFO.fullmatch(line.strip()) and line.strip().startswith(("```", "~~~")):
            break
        comment = _COMMENT.fullmatch(line)
        if comment is not None and comment.group(1) == indent:
            break
        body.append(line[len(indent) :])
        last = index
        index += 1
    if not body or len(body) > MAX_LINES:
        return None
    end = lines[last][0] + len(lines[last][1])
    return Introduced("code", lines[first][0], end, tuple(body), _language(text, fence))


def _language(text: str, fence: tuple[int, int] | None) -> str:
    """The language a fenced block's opening line names ("" for other code)."""
    if fence is None:
        return ""
    info = _FENCE_INFO.match(text, fence[0])
    return info.group(1) if info else ""


def _lines(text: str) -> list[tuple[int, str]]:
    """The lines of `text`, each with its offset, without line ends."""
    found = []
    position = 0
    for line in text.split("\n"):
        found.append((position, line.rstrip("\r")))
        position += len(line) + 1
    return found


def _indent(margin: str) -> int:
    """Columns of a line's indentation (a tab to the next multiple of four)."""
    expanded = margin.expandtabs(4)
    return len(expanded) - len(expanded.lstrip(" "))
