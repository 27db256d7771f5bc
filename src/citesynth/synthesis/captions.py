"""Comments that caption the code below them, as the extractive writer quotes them.

Documentation shows how in code, and often says what each example does only in its
comment: APScheduler's interval trigger page has "Schedule job_function to be called every
two hours" above `sched.add_job(job_function, 'interval', hours=2)`, and no prose sentence
says so; "How do I run a job every 2 hours?" was answered with the combining triggers'
examples. A caption is a comment line (or a run of them) of a code block that reads as a
sentence, with the code right below it:

- a comment of code (`ingest.comments`: in a fenced block not fenced as Markdown, or on a
  line indented by two columns or more), its lines at one indentation read as one;
- a capital letter, then at least `MIN_WORDS` words, most of them words of letters (not a
  commented-out call, not a pragma such as `# noqa: E501` or `# type: ignore`);
- followed, on the next line, by code at its indentation or deeper: the lines up to a blank
  line, the next comment at its indentation or a line indented less, at most `MAX_LINES`.

The extractive writer quotes the caption as a lead-in ("Schedule job_function to be called
every two hours: [1]") and shows its code below it, cited with it.

A section may say what its example is for only in its heading: towncrier's pre-commit page
has "Usage with the default configuration" right over the YAML whose `id:
towncrier-check` is the hook, and packaging's "Usage" over the doctest calling
`sys_tags()`, with no sentence between. Such a heading is a caption too (`titled_examples`):
the heading is the lead-in, and relevance reads it with the names of its code split into
words (`sys_tags` as "sys tags").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citesynth.ingest.blocks import columns, lines_from
from citesynth.ingest.comments import Comment, code_comments, fence_language
from citesynth.synthesis.introduced import Introduced, code_opening
from citesynth.synthesis.section_titles import section_headings

MIN_WORDS = 4
MAX_LINES = 12

_COMMENT_OPENING = re.compile(r"[ \t]*(?:>>>[ \t]+)?(?:#|//)(?:[ \t]|$)")
_FENCE_LINE = re.compile(r"[ \t]*(?:`{3,}|~{3,})")
_PRAGMA = re.compile(
    r"\b(?:noqa|type:|pragma|pylint:|fmt:|isort:|mypy:|flake8|-\*-|eslint|ts-ignore|TODO|FIXME"
    r"|XXX)",
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
    reads: str = ""
    """What relevance reads for it, when not its sentence: a titled example's heading and
    the words of its code's names."""


def captions(text: str) -> list[Caption]:
    """The captions of the code in `text`, in order."""
    found: list[Caption] = []
    every: list[tuple[int, str]] | None = None
    for comment in code_comments(text):
        if not _reads_as_caption(comment.text):
            continue
        every = every if every is not None else lines_from(text)
        block = _code_below(every, comment, text)
        if block is not None:
            found.append(Caption(comment.start, comment.text.rstrip(" .:;,") + ":", block))
    return found


EXAMPLE_WORDS = 60
"""How many words of its code a titled example is read with, at most."""


def titled_examples(text: str) -> list[Caption]:
    """The code blocks of `text` that open their section, right below its heading.

    Each is a caption whose sentence is the heading (as a lead-in ending in ":"), starting
    where the heading ends, and read as the heading with the names of its code.
    """
    found: list[Caption] = []
    for end, heading in section_headings(text):
        block = code_opening(text, end)
        title = " ".join(heading.split()).rstrip(" .:;,")
        if block is None or not title:
            continue
        words = _NAME_PART.findall(" ".join(block.lines))[:EXAMPLE_WORDS]
        found.append(Caption(end, f"{title}:", block, f"{title}: {' '.join(words)}"))
    return found


_NAME_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+(?:\.\d+)*")
"""A word of a name as code writes it: `sys_tags` is "sys tags", `DirectUrl` "Direct Url"."""


def _reads_as_caption(sentence: str) -> bool:
    """A sentence of words opening with a capital letter, no pragma nor code."""
    words = sentence.split()
    if len(words) < MIN_WORDS or not sentence[0].isupper() or _PRAGMA.search(sentence):
        return False
    worded = sum(1 for word in words if _WORD.fullmatch(word.strip(",.;:!?()\"'")))
    return worded * 2 > len(words) and "(" not in words[0] and "=" not in sentence


def _code_below(every: list[tuple[int, str]], comment: Comment, text: str) -> Introduced | None:
    """The code right below `comment`, at its indentation or deeper.

    Up to a blank line or the next comment at its indentation; at most `MAX_LINES` lines.
    """
    body: list[str] = []
    index = last = comment.after
    indent, fence = comment.indent, comment.fence
    while index < len(every) and len(body) <= MAX_LINES:
        offset, line = every[index]
        if not line.strip() or (fence is not None and offset >= fence[1]):
            break
        margin = line[: len(line) - len(line.lstrip())]
        if not line.startswith(indent) or columns(margin) < columns(indent):
            break
        if _FENCE_LINE.match(line) or (_COMMENT_OPENING.match(line) and margin == indent):
            break
        body.append(line[len(indent) :])
        last = index
        index += 1
    if not body or len(body) > MAX_LINES:
        return None
    # a chunk opening on the comment has it trimmed of its indentation, not the code below
    least = min(columns(line[: len(line) - len(line.lstrip())]) for line in body)
    body = [line.expandtabs(4)[least:] for line in body]
    start = every[comment.after][0]
    end = every[last][0] + len(every[last][1])
    return Introduced("code", start, end, tuple(body), fence_language(text, fence))
