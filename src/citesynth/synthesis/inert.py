r"""Document text made inert before it reaches a prompt: documents are data, never structure.

The context gives each source a header line (`[3] docs/a.md L4-9`, or `=== docs/a.md ===`
and `[3: L4-9]` when grouped by document), and chat templates mark roles with control
tokens (`<|im_start|>`). Everything a document controls (its text, path, title, heading
path, record id) passes through here so that it can neither forge a header nor a role:

- `defang(text)` for a source's text: line breaks of every kind become `\n`; invisible
  characters (zero-width spaces and joiners, word joiner, BOM, bidirectional controls) and
  other control characters go; a line that starts, once NFKC-normalised, like a header
  (`[8]`, `［９］`, `【9】`, `〔9〕`, `===`, `＝＝＝`) gets its opener replaced by `(` or
  `= = =`; chat control tokens (`<|im_start|>`, `<｜begin▁of▁sentence｜>`, `[INST]`,
  `<start_of_turn>`) lose the characters that make them tokens.
- `inline(text)` for text shown inside a header line (a path, a title): one line, control
  and invisible characters shown as escapes (`\n`, `\u200b`), control tokens made inert.

A prose source's own numbered references ("as shown in [12]") are left out before this
(`citations.references.without_reference_marks`, in `sources.shown_text`).
"""

from __future__ import annotations

import re
import unicodedata

# Characters a reader (or a tokenizer) may take as a line break; re's `^` knows only "\n".
_BREAKS = re.compile(r"\r\n?|[\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
# Invisible format characters: zero-width space/joiners, word joiner, BOM, soft hyphen,
# Mongolian vowel separator, bidirectional marks, embeddings, overrides and isolates.
_INVISIBLE = re.compile(
    "[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]"
)
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f]")
# Openers that look like "[" to a reader; NFKC maps some ("［" to "["), not all.
_OPENERS = "[［【〔〖〘〚⟦⦋⦍⦏⁅❲❨⸢⸤﹇〈⟨"
_HEADER_START = re.compile(rf"[{re.escape(_OPENERS)}]\s*\^?\s*\d|={{3,}}")
_CONTROL_TOKEN = re.compile(
    r"[<＜]\s*[|｜]([^|｜<>＜＞\n]{0,40})[|｜]\s*[>＞]"  # <|im_start|>, <｜end▁of▁sentence｜>
    r"|<\s*(/?\s*(?:start_of_turn|end_of_turn|s|/s|bos|eos)\s*)>"  # Gemma, sentencepiece
    r"|\[\s*(/?\s*INST\s*)\]|<<\s*(/?\s*SYS\s*)>>",  # Llama 2, Mistral
    re.I,
)


def defang(text: str) -> str:
    """`text` with header look-alikes, control characters and chat control tokens made inert.

    Every line that reaches the model starts with something no header starts with.
    """
    text = _INVISIBLE.sub("", _CONTROL.sub("", _BREAKS.sub("\n", text)))
    text = "\n".join(_line(line) for line in text.split("\n"))
    return _tokens(text)


def inline(text: str) -> str:
    """`text` for one header line: control and invisible characters escaped, tokens inert."""
    shown = "".join(_escaped(char) for char in text)
    return _tokens(shown)


def _line(line: str) -> str:
    """A line whose start, as a reader sees it, is not a source header."""
    body = line.lstrip()
    if not body:
        return line
    start = unicodedata.normalize("NFKC", body[:16]).lstrip()
    if not _HEADER_START.match(start):
        return line
    indent = line[: len(line) - len(body)]
    if unicodedata.normalize("NFKC", body[0]) == "=":
        run = 0
        while run < len(body) and unicodedata.normalize("NFKC", body[run]) == "=":
            run += 1
        return f"{indent}= = ={body[run:]}"
    return f"{indent}({body[1:]}"


def _tokens(text: str) -> str:
    """Chat control tokens written without the characters that make them tokens."""

    def inert(match: re.Match[str]) -> str:
        name = next(group for group in match.groups() if group is not None)
        return f"({name.strip()})"

    return _CONTROL_TOKEN.sub(inert, text)


def _escaped(char: str) -> str:
    if char in "\n\r\t":
        return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}[char]
    if unicodedata.category(char) in {"Cc", "Cf", "Zl", "Zp"} or _INVISIBLE.match(char):
        return f"\\u{ord(char):04x}"
    return char
