"""Text analysis shared by every layer: the stemmed terms BM25, coverage and hashing share.

tantivy's own analyzer is used from Python too, so the index and the code never disagree.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

import tantivy

TOKENIZER_NAME = "citesynth_en"

# Function words and question words that carry no topic. Removed from queries only: the
# index keeps every word, so a query made only of these still matches.
QUERY_STOPWORDS = frozenset(
    """
a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further
had has have having he her here hers herself him himself his how i if in into is it its
itself just me might more most must my myself no nor not of off on once only or other ought
our ours ourselves out over own please same shall she should so some such than that the
their theirs them themselves then there these they this those through to too under until up
upon us very was we were what when where which while who whom whose why will with would you
your yours yourself yourselves tell explain describe give show list
""".split()
)


def _analyzer(*, stopwords: bool) -> tantivy.TextAnalyzer:
    """Simple tokens, long ones dropped, lower case, ASCII folding, English stemming."""
    builder = (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
        .filter(tantivy.Filter.remove_long(40))
        .filter(tantivy.Filter.lowercase())
        .filter(tantivy.Filter.ascii_fold())
    )
    if stopwords:
        builder = builder.filter(tantivy.Filter.custom_stopword(sorted(QUERY_STOPWORDS)))
    return builder.filter(tantivy.Filter.stemmer("english")).build()


INDEX_ANALYZER = _analyzer(stopwords=False)
_QUERY_ANALYZER = _analyzer(stopwords=True)

NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][\w'’-]*")
"""A capitalised word that does not open a sentence: how the verifiers spot proper names."""


def terms(text: str) -> list[str]:
    """The stemmed terms of `text` as the index sees them, in order."""
    result: list[str] = INDEX_ANALYZER.analyze(text)
    return result


def query_terms(text: str) -> list[str]:
    """Distinct stemmed query terms, stopwords removed unless nothing else is left."""
    found: list[str] = _QUERY_ANALYZER.analyze(text) or INDEX_ANALYZER.analyze(text)
    return list(dict.fromkeys(found))


def coverage(wanted: Collection[str], found: Collection[str]) -> float:
    """The share of the `wanted` terms among the `found` ones (0 when none are wanted).

    A wanted term of five letters or more also counts when it opens or closes a found term
    at least four letters longer, as "timeout" does in `TimeoutException` (stemmed
    "timeoutexcept"): identifiers in code and documentation run words together.
    """
    if not wanted:
        return 0.0
    present = set(found)
    compounds = [term for term in present if len(term) >= 9]
    return sum(term in present or _inside(term, compounds) for term in wanted) / len(wanted)


def _inside(term: str, compounds: Sequence[str]) -> bool:
    return len(term) >= 5 and any(
        len(c) >= len(term) + 4 and (c.startswith(term) or c.endswith(term)) for c in compounds
    )


def written_open(closed: Collection[str], open_: Collection[str]) -> frozenset[str]:
    """The terms of `open_` that spell, two together, a term of `closed` written as one word.

    "hook wrapper" for "hookwrapper", "set up" for "setup", "time out" for "timeout" (stems:
    "hook" and "wrapper" make "hookwrapp"). Documentation writes a name both ways, often on
    one page.
    """
    pieces = [t for t in open_ if len(t) >= 2]
    found: set[str] = set()
    for term in closed:
        for first in pieces:
            if len(first) >= len(term) or not term.startswith(first[: max(len(first) - 1, 2)]):
                continue
            for second in pieces:
                if second != first and terms(first + second) == [term]:
                    found.update((first, second))
    return frozenset(found)


def unwritten(wanted: Collection[str], found: Collection[str]) -> frozenset[str]:
    """The terms of `wanted` that `found` does not write, as one word or as two.

    A term closed in one and open in the other ("hookwrapper", "hook wrapper";
    `written_open`) is written in both.
    """
    only = frozenset(wanted) - frozenset(found)
    closed = {t for t in only if written_open([t], found)}
    return only - closed - written_open(frozenset(found) - frozenset(wanted), wanted)


# A word of n characters matches ceil(n / 7) times; every punctuation mark matches once.
_PIECE = re.compile(r"\w{1,7}|[^\w\s]")


def estimate_tokens(text: str) -> int:
    """Estimate the WordPiece token count of `text` without a tokenizer.

    One token per punctuation mark, one per word plus one per further 7 characters.
    Calibrated on SciFact abstracts and the httpx docs against MiniLM's tokenizer:
    mean ratio 1.01 (prose) and 0.98 (Markdown), 90 % of paragraphs within ±25 %.
    """
    return len(_PIECE.findall(text))


INLINE_CODE = re.compile(r"(?<!`)`+([^`\n]+?)`+")
"""An inline code span (`x` or ``x``), its text the group. It opens where a run of
backticks does, never inside one: a run of 120,000 is read once, not once a position."""

SINGLE_CODE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
"""Inline code in single backticks (`x`), its text the group; not the fences of a code block."""

_DOMAINS = frozenset("com org net io ai co edu gov uk de fr info news tv".split())
"""Last parts of a web site's name ("Space.com", "Fortune.com"): a publisher, not code."""


def bare_name(word: str) -> str | None:
    """`word` as a name, as written but for a call's "()", a leading "~" and a closing ".".

    None unless each dotted part opens with a letter or "_" ("1.5", "a..b" are none).
    """
    name = word.lstrip("~").removesuffix("()").rstrip(".")
    if any(not part or not (part[0].isalpha() or part[0] == "_") for part in name.split(".")):
        return None
    return name


_DUNDER = re.compile(r"__[A-Za-z][A-Za-z0-9]*__")
"""A special method's name: "__json__", "__hash__"."""


def code_name(word: str) -> str | None:
    """`word` as a name when it is code by its form, else None.

    Snake_case ("max_connections"), dotted with parts of two characters or more opening
    with a letter or "_" ("uuid.UUID"; never "e.g." nor a web site, "Space.com"), a special
    method's ("__hash__") or called ("dumps()"). As `bare_name` writes it.
    """
    name = bare_name(word)
    if name is None:
        return None
    parts = name.split(".")
    dotted = (
        len(parts) > 1
        and all(len(part) >= 2 for part in parts)
        and parts[-1].lower() not in _DOMAINS
    )
    snake = "_" in name.strip("_") and any(c.isalpha() for c in name)
    dunder = _DUNDER.fullmatch(name) is not None
    return name if dotted or snake or dunder or word.endswith("()") else None


_CODE_NAME = re.compile(
    r"(?<![\w.\-/])[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?(?![\w\-/])"
)
"""A word as code writes a name: letters, digits and "_", dotted parts, a call's "()"."""


def code_names(question: str) -> tuple[str, ...]:
    """The names `question` writes as code, in order, each once (call parentheses aside).

    A name in backticks, or one that is code by its form: dotted with parts of two
    characters or more ("uuid.UUID", never "e.g." nor a web site, "Space.com"), snake_case
    ("max_connections") or called ("dumps()").
    """
    spans = [m.group(1).strip() for m in INLINE_CODE.finditer(question)]
    found = [s.removesuffix("()") for s in spans if _CODE_NAME.fullmatch(s)]
    words = _CODE_NAME.finditer(INLINE_CODE.sub(" ", question))
    found += [name for word in words if (name := code_name(word.group())) is not None]
    return tuple(dict.fromkeys(found))


POSSESSIVE = re.compile(r"(?<=\w)['’]s\b")
"""The "'s" of "Click's" or "it's", which the tokenizer cuts into a term "s" of its own."""


_CONTRACTION = re.compile(
    r"\b(can|won|shan)['’]t\b|(?<=\w)(n)['’]t\b|(?<=\w)['’](?:re|ve|ll|d|m)\b", re.IGNORECASE
)
_UNCONTRACTED = {"can": "can not", "won": "will not", "shan": "shall not"}


def _uncontracted(found: re.Match[str]) -> str:
    """A contraction uncontracted: "doesn't" as "does not", "they're" as "they"."""
    if found.group(1):
        return _UNCONTRACTED[found.group(1).lower()]
    return " not" if found.group(2) else ""


def content_terms(text: str) -> list[str]:
    """Distinct stemmed terms of `text` without function words, in order (maybe none).

    A possessive's "s" is no term: "Click's shell completion" states "click", "shell" and
    "complet", and a source need not hold an "'s" to state them. Nor is a contraction's
    part: "doesn't" is "does not" (the tokenizer had cut it into the terms "doesn" and
    "t", which a source wording it otherwise never holds), "won't" is "will not", "we'll"
    is "we".
    """
    text = _CONTRACTION.sub(_uncontracted, POSSESSIVE.sub("", text))
    return list(dict.fromkeys(_QUERY_ANALYZER.analyze(text)))


CALENDAR = frozenset(
    """january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday""".split()
)
"""The names of months and days: capitalised, yet a date's, not a proper name."""

ADMONITIONS = ("NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION")
"""The labels of admonition blocks (AsciiDoc's `[TIP]`, `[NOTE]`, …): a label says
how to read what follows, never what it is about."""

_ASIDE = re.compile(r"\s*\([^()]*\)")


def without_asides(text: str) -> str:
    """`text` without its parenthesised asides: "Milli Vanilli (band)" -> "Milli Vanilli".

    Nested ones go from the inside out: "Foo (bar (baz)) Qux" -> "Foo Qux".
    """
    while (shorter := _ASIDE.sub("", text)) != text:
        text = shorter
    return text


_SOURCES_AGREE = (
    r"(?:multiple|several|both|all(?: the)?|the) sources (?:also )?(?:report|agree|say|state"
    r"|confirm|mention|note|indicate|show|explain)"
)
"""Asked what the sources say about a yes/no question (`writers.shown_question`), the
embedded model opens "The sources say that …" and goes on "The sources also mention that
…"; a hedge ("suggest") is not among them."""
CONSENSUS = re.compile(rf"\b{_SOURCES_AGREE}(?: that|:)?\s*", re.I)
"""A statement that several cited sources say what follows ("Multiple sources report that")."""


def without_consensus(claim: str) -> str:
    """`claim` without an opening consensus phrase: what is checked is what the sources say.

    "Multiple sources report that the pool holds ten." -> "The pool holds ten." So with one
    after an opening clause: "When it is full, multiple sources report that it blocks." ->
    "When it is full, it blocks." Each cited source is still checked alone for citation
    precision.
    """
    found = _CONSENSUS_LEAD.match(claim.lstrip())
    if found is None:
        inner = _CONSENSUS_INNER.search(claim)
        if inner is None or len(claim[inner.end() :].split()) < 3:
            return claim
        return f"{claim[: inner.start()]}, {claim[inner.end() :]}"
    rest = claim.lstrip()[found.end() :]
    if len(rest.split()) < 3:
        return claim
    first = rest.split()[0]
    return rest[:1].upper() + rest[1:] if first.isalpha() and first.islower() else rest


_CONSENSUS_INNER = re.compile(rf",\s+{_SOURCES_AGREE}(?: that\s|:\s*)", re.I)
"""A consensus phrase after an opening clause's comma ("When …, multiple sources report
that …")."""
_CONSENSUS_LEAD = re.compile(rf"{_SOURCES_AGREE}(?: that\s|:\s*)", re.I)
"""A consensus phrase that opens a claim and is followed by what is reported ("… that",
"…:"); "The sources agree on the timeout" is no such opening."""


DEFAULT_VALUE = re.compile(
    r"(?:Defaults?\s+(?:to|is)\b|Default(?:\s+value)?\s*(?::|is\b)"
    r"|The\s+default(?:\s+value)?\s+is\b|(?:It|This)\s+defaults\s+to\b)"
)
"""A sentence stating a default without saying of what: "Defaults to `[TOC]`.", "The
default value is `4`." (reference pages, under the option they describe), "It defaults to
``fE`` …" (pytest's, a paragraph of its own below the `-r` flag's)."""
