"""Code a page includes from a file (`.. literalinclude::`), shown with its introduction.

A sentence introducing a file its page includes shows that file's code when the file is
one of the sources (the lines the directive picks, or a definition it names), and cites it
too: "The view function: [2]" over the code of `views.py` [3].
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from citesynth.analysis import (
    estimate_tokens,
)
from citesynth.ingest.code import language_of
from citesynth.ingest.references import included_paths
from citesynth.synthesis.introduced import (
    MAX_LINES,
    Included,
    Introduced,
    included,
)
from citesynth.synthesis.sources import Source


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
