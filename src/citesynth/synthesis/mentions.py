"""Sources a model names by their file, turned into the citation they are.

A small model given sources headed by their location echoes it: "you can use the
`request.client.host` attribute from the `requests.md` file.", "use the GZipMiddleware
provided in the middleware.md document", "the `websocket_connect` method provided in the
`testclient.md` file, which is located at line 238-253". The sentence cites no marker, so
it is checked against every source and, carrying "requests.md", "file" and "line 238" that
no source's text holds, none supports it: the embedded model's right answer to "How do I
get the IP address of the client?" was removed and the answer became a not-found.

`cited_by_name` replaces such a mention by the marker of that file's source (by its
path, or its name when only one source file has that name): "you can use the
`request.client.host` attribute [1]." A file no source comes from is left as written:
only what the model was given can be cited, as with markers. Only documents in prose
formats are read so (Markdown, reStructuredText, AsciiDoc, HTML, PDF, and text read as a
document with titles, as Django's `.txt` pages are): a code, configuration or plain text
file an answer names ("dependencies are listed in the `requirements.txt` file", "set it
in `settings.yaml`") is part of what it says.

A sentence that cites already loses a mention of the file its cited source is: "The
password reset link keeps working for 3 days, as specified in the `PASSWORD_RESET_TIMEOUT`
setting in the `settings.txt` file [1]." had been removed for "txt", which no passage
holds, though [1] is that file and says 3 days; it reads "… setting [1]." now. A file
another source is, or none, stays as written.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import PurePosixPath

from citesynth.analysis import terms
from citesynth.citations.resolve import cited_numbers
from citesynth.ingest.fences import outside_fences
from citesynth.ingest.sentences import sentence_spans
from citesynth.synthesis.sources import Source

_FILE = r"`?(?P<file>[\w./-]*[\w-]\.(?:md|markdown|mdx|rst|adoc|asciidoc|html?|pdf|txt))`?"
"""A document's file, in a prose format (see the module docstring)."""
_KIND = r"(?:\s+(?:file|document|page|guide|section|documentation|docs))?"
_LINES = r"(?:,?\s*(?:which\s+is\s+)?(?:located\s+)?(?:at|on|in)\s+lines?\s+\d+(?:\s*[-–]\s*\d+)?)?"
_LEAD = re.compile(
    r"\b(?P<lead>(?:according\s+to|as\s+(?:stated|mentioned|described|explained|shown|noted"
    r"|documented|outlined|specified)\s+(?:in|by)|based\s+on|per)\s+(?:the\s+)?)"
    rf"{_FILE}{_KIND}{_LINES}",
    re.IGNORECASE,
)
"""An attribution lead naming the file ("As described in docs/routing.md, …"): the file
becomes its marker and `leads.plain_attributions` then keeps the claim and the citation."""
_OPENING = re.compile(
    rf"^(?P<space>\s*)(?:in|from|within)\s+(?:the\s+)?{_FILE}{_KIND}{_LINES}\s*,\s*", re.I
)
"""A sentence opening with where it comes from ("From the `requests.md` file, you can …"):
read as the lead "According to [1], …"."""
_MENTION = re.compile(
    r",?\s*(?:(?:which\s+(?:is|are)\s+)?(?:provided|defined|described|documented|found|shown"
    r"|mentioned|explained|listed|available|located|given|covered)\s+)?"
    rf"\b(?:in|from|of|within)\s+(?:the\s+)?{_FILE}{_KIND}{_LINES}"
    r"(?=\s*[,.;:!?)\[]|\s+(?:to|for|and|or|with|which|that|by)\b|\s*$)",
    re.IGNORECASE,
)
"""A source named by its file inside a sentence, with the words around it that only locate
it."""
_MENTION_BEFORE_VERB = re.compile(
    rf"\s+(?:in|from|within)\s+(?:the\s+)?{_FILE}{_KIND}{_LINES}"
    r"(?=\s+(?:is|are|was|were|has|have|can|could|will|would|should|must|may|might|does|do"
    r"|defaults?|accepts?|takes?|sets?|controls?|limits?)\b)",
    re.IGNORECASE,
)
"""A file named between a subject and its verb ("The `client_max_fields` parameter in the
`web_reference.rst` file is set to 1000"): the mention goes and its marker ends the
sentence, which a marker inside it would cut in two."""
_SENTENCE_END = re.compile(r"[.!?:;]*\s*$")


def cited_by_name(text: str, sources: Sequence[Source]) -> tuple[str, int]:
    """Resolved `text` with the files its uncited sentences name cited instead; how many gained one.

    A file with several sources among them is cited by the one holding most of the
    sentence's terms (the best-ranked of equals): "[1-5]" for a five-chunk page would
    credit four chunks with what one says. A sentence that cites a source already loses
    only a mention of the file a cited source is, unless a cited source's text names that
    file (a quote); a lead naming it is `leads.plain_attributions`' ("as stated in limits.md
    [1]"). Code stays as written, and an extractive answer's sentences, all cited, stay word
    for word what their sources say.
    """
    by_file = _sources_by_file(sources)
    if not by_file:
        return text, 0
    changed = 0
    words: set[str] = set()

    def cite(found: re.Match[str], before: str, after: str = "") -> str:
        nonlocal changed
        named = by_file.get(_key(found.group("file")))
        if named is None:
            return found.group()
        best = max(named, key=lambda s: (len(words & set(terms(s.chunk.text))), -s.number))
        changed += 1
        return f"{before}[{best.number}]{after}"

    def unnamed(found: re.Match[str], cited: set[int]) -> str:
        named = by_file.get(_key(found.group("file")), [])
        quoted = any(found.group("file") in s.chunk.text for s in sources if s.number in cited)
        if quoted or not cited.intersection(source.number for source in named):
            return found.group()  # a quote of a source naming it, or another file
        return ""  # cited already: no citation added, so not counted

    pieces: list[str] = []
    position = 0
    for start, end in outside_fences(text, sentence_spans(text)):
        sentence = text[start:end]
        if cited := set(cited_numbers(sentence)):
            plain = _MENTION.sub(lambda found: unnamed(found, cited), sentence)
            pieces.append(text[position:start] + plain)
            position = end
            continue
        words = set(terms(sentence))
        sentence = _OPENING.sub(
            lambda found: cite(found, f"{found.group('space')}According to ", ", "), sentence
        )
        sentence = _LEAD.sub(lambda found: cite(found, found.group("lead")), sentence)
        sentence = _cited_at_end(sentence, lambda found: cite(found, ""))
        pieces.append(text[position:start] + _MENTION.sub(lambda found: cite(found, " "), sentence))
        position = end
    pieces.append(text[position:])
    return "".join(pieces), changed


def _cited_at_end(sentence: str, cite: Callable[[re.Match[str]], str]) -> str:
    """`sentence` without the files it names before a verb, their markers at its end."""
    markers: list[str] = []

    def moved(found: re.Match[str]) -> str:
        marker = cite(found)
        if marker == found.group():  # no source comes from that file: left as written
            return marker
        markers.append(marker)
        return ""

    sentence = _MENTION_BEFORE_VERB.sub(moved, sentence)
    if not markers:
        return sentence
    end = _SENTENCE_END.search(sentence)
    at = end.start() if end else len(sentence)
    return f"{sentence[:at]} {''.join(dict.fromkeys(markers))}{sentence[at:]}"


def _sources_by_file(sources: Sequence[Source]) -> dict[str, list[Source]]:
    """Sources by file path and, where one file holds it, by file name (lower case).

    A text file (`.txt`) counts only when it was read as a document with titles (Django's
    reStructuredText pages are `.txt`), never a list such as `requirements.txt`.
    """
    by_path: dict[str, list[Source]] = {}
    for source in sources:
        if source.chunk.path.lower().endswith(".txt") and not source.chunk.heading_path:
            continue
        by_path.setdefault(_key(source.chunk.path), []).append(source)
    by_name: dict[str, set[str]] = {}
    for path in by_path:
        by_name.setdefault(PurePosixPath(path).name, set()).add(path)
    named = {name: by_path[next(iter(paths))] for name, paths in by_name.items() if len(paths) == 1}
    return {**named, **by_path}


def _key(path: str) -> str:
    return path.strip("`./").replace("\\", "/").lower()
