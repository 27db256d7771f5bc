"""Two names, each said with what the source says of the other.

"dump_default gives a field's default value for deserialization, while load_default gives
its default value for serialization" against

    `load_default` specifies the default deserialization value for a field.
    Likewise, `dump_default` specifies the default serialization value.

holds every word of its source and both names, so coverage and the trained model pass it,
and `swaps` never sees it: that rule reads the one sentence stating the claim, and here
each sentence names one of the two. Documentation describes names two by two this way
(`dump` and `dumps`, `lstrip_blocks` and `trim_blocks`, the `Request` and `Response`
classes), and a claim that exchanges their roles reads like a paraphrase.

A claim's two names are crossed against a passage when:

- the claim names both, among at most `_MAX_NAMES` names the passage holds (more is a
  list), each written as code: in backticks, snake_case or dotted (`_identifier`), or
  written plainly where the passage writes it as a code span of its own (`Schema.dumps`,
  ``dump``); neither is a part of the other ("LocalProxy" and "proxy");
- they stand in different clauses of the claim (two names in one clause are coordinated:
  "`dump_only` and `load_only` are read-only and write-only, respectively"), or in
  different halves of a claim contrasting two things (`_HALF`: "; ", "while", "whereas",
  "but"), where what a name's half says may stand in a clause before its own: "To recreate
  itself with less context data, a bound logger offers bind() and new(), whereas unbind()
  and try_unbind() recreate it with additional context" against structlog's list giving
  `bind` and `new` the additional context;
- the passage has prose sentences or table rows naming one and not the other, for each
  of the two (rows since 2026-12-07: Flask-WTF's table giving `RECAPTCHA_PARAMETERS` "A
  dict of JavaScript (api.js) parameters" and `RECAPTCHA_DATA_ATTRS` "A dict of data
  attributes options", which a claim had exchanged; every line outside prose, code
  included, had also vetoed a sentence of marshmallow's upgrading guide against its own
  page);
- each name's clause shares more content terms with what only the other's sentences hold
  than with what only its own sentences hold.

Fitted on the written tuning claims only: on their 300 right paraphrases, the HTTPX and
Click claims and the 2,049 Developer Hub reference-answer claims of both splits it fires
on none; on the 50 written tuning claims with two details swapped it fires on 6 (on the 11
such HTTPX and Click report claims, on none). Until 2026-12-05 a claim had to name exactly
two; any two of more are read since ("the Response class wraps the environ …, while the
Request class is a standard WSGI application": three names), and on the 380 right written
tuning and probe claims it still fires on none.

`partners_exchanged` reads names two by two: a claim writing two names in one clause and
two more in another gives each pair's names the other's partner when no unit of the
passage (a prose sentence, or a line outside prose: a table's row, a list item, a line of
code) writes either of the claim's pairs together, and units write each name with the
other clause's partner ("`smart_angled_quotes` | `False`" and "`smart_ellipses` | `True`"
against "smart_angled_quotes defaults to True, while smart_ellipses defaults to False").
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import combinations, pairwise

from citesynth.analysis import bare_name, code_name, content_terms
from citesynth.ingest.sentences import prose_sentences
from citesynth.ingest.tables import row_text, table_rows

_SPAN = re.compile(r"(?<!`)(`{1,2})([^`\n]{1,100}?)\1(?!`)")
"""An inline code span of at most 100 characters (longer ones are commands, not names)."""
_WORD = re.compile(r"[A-Za-z_~][\w.]*(?:\(\))?")
"""A word as code may write it: letters, digits, "_" and "." (a call's "()" after it)."""
_DISPLAY = re.compile(r"\s*<[^<>]*>$")
"""The target of a reStructuredText reference: "Schema.dumps <marshmallow.Schema.dumps>"."""
_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_CLAUSE = re.compile(r"[,;:()!?]|\.(?:\s|$)|\s(?:and|but|while|whereas|or)\s", re.I)
"""Where a clause of the claim ends."""
_HALF = re.compile(r";|,?\s(?:while|whereas|but)\s|\.(?:\s|$)", re.I)
"""Where a claim contrasting two things turns from one to the other."""
_MIN_LETTERS = 3
_MAX_NAMES = 8
"""A claim writing more names than this is a list, never read (and never read at a cost
of one search of the passage a name)."""


def _name(written: str) -> str | None:
    """`written` as a name (`analysis.bare_name`), lower-cased, or None."""
    name = bare_name(written)
    return name.lower() if name is not None else None


def _spanned(text: str) -> str | None:
    """The name a code span writes, when it is one name ("Schema.dumps <…>", "dump()")."""
    inner = _DISPLAY.sub("", text.strip())
    return _name(inner) if _WORD.fullmatch(inner) else None


@lru_cache(maxsize=512)
def _spanned_names(text: str) -> frozenset[str]:
    """The names `text` writes as code spans of their own.

    A dotted name counts by its last part too: `Schema.dumps` names "dumps".
    """
    names: set[str] = set()
    for found in _SPAN.finditer(text):
        if (name := _spanned(found.group(2))) is not None:
            names.update({name, name.rpartition(".")[2]})
    return frozenset(n for n in names if len(n) >= _MIN_LETTERS)


@lru_cache(maxsize=1024)
def _claim_words(claim: str) -> tuple[tuple[str | None, str | None, int], ...]:
    """Each word of the claim that may be a name, read once a claim.

    As (its name by form, its name written plainly, where it stands); a code span's name
    counts by form.
    """
    found: list[tuple[str | None, str | None, int]] = [
        (name, None, span.start())
        for span in _SPAN.finditer(claim)
        if (name := _spanned(span.group(2))) is not None
    ]
    masked, _ = _clauses(claim)
    for word in _WORD.finditer(masked):
        if word.start() and masked[word.start() - 1] == "-":
            continue  # an option ("--help"), which `codevalues` reads
        coded = code_name(word.group())
        by_form = coded.lower() if coded else None
        plain = None if by_form else _name(word.group())
        if (by_form or plain) and len(by_form or plain or "") >= _MIN_LETTERS:
            found.append((by_form, plain, word.start()))
    return tuple(found)


def _claim_names(claim: str, spanned: frozenset[str]) -> dict[str, list[int]]:
    """The claim's names (see the module docstring) and where each stands in it."""
    found: dict[str, list[int]] = {}
    for by_form, plain, at in _claim_words(claim):
        name = by_form or (plain if plain in spanned else None)
        if name is not None:
            found.setdefault(name, []).append(at)
    return found


def _mentions(text: str, name: str) -> bool:
    """Whether `text` writes `name` as a word of its own ("Schema.dumps" writes "dumps")."""
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w])", text, re.I) is not None


def _written(claim: str, at: Sequence[int]) -> str:
    """A name as the claim first writes it, at `at` ("LocalProxy", not "localproxy")."""
    return claim[at[0] :].split(None, 1)[0].strip("`")


def _parts(name: str, written: str) -> frozenset[str]:
    """The words a name is made of, as written ("LocalProxy": "local", "proxy")."""
    return frozenset(p.lower() for p in _PART.findall(written or name))


def crossed_names(claim: str, passages: Sequence[str]) -> tuple[str, str] | None:
    """Two names of `claim` each said with what a passage says of the other, or None."""
    if len(_claim_words(claim)) < 2:
        return None
    masked, bounds = _clauses(claim)
    halves = tuple(m.start() for m in _HALF.finditer(masked))
    for passage in passages:
        written = _claim_names(claim, _spanned_names(passage))
        if len(written) > _MAX_NAMES:
            continue
        names = {name: at for name, at in written.items() if _mentions(passage, name)}
        if len(names) < 2:
            continue  # most claims: no pair of names to cross
        sentences = _prose_and_rows(passage)
        naming = {
            name: frozenset(i for i, sentence in enumerate(sentences) if _mentions(sentence, name))
            for name in names
        }
        for first, second in combinations(names.items(), 2):
            if _crossed(claim, masked, bounds, sentences, naming, first, second) or (
                halves and _crossed(claim, masked, halves, sentences, naming, first, second)
            ):
                return first[0], second[0]
    return None


def partners_exchanged(claim: str, passages: Sequence[str]) -> tuple[str, str] | None:
    """Two names `claim` gives each other's partner, or None (see the module docstring).

    "smart_angled_quotes defaults to True, while smart_ellipses defaults to False" against
    a table whose rows pair `smart_angled_quotes` with `False` and `smart_ellipses` with
    `True`; the two names the claim gives the wrong partner.
    """
    if len(_claim_words(claim)) < 4:
        return None
    bounds = _clauses(claim)[1]
    for passage in passages:
        written = _claim_names(claim, _spanned_names(passage))
        if len(written) > _MAX_NAMES:
            continue
        names = {name: at for name, at in written.items() if _mentions(passage, name)}
        pairs = _clause_pairs(claim, names, bounds)
        if len({clause for clause, _ in pairs}) < 2:
            continue  # most claims: no unit of the passage is read
        stated = _stated_pairs(passage, tuple(names))
        for (one, (a, b)), (other, (c, d)) in combinations(pairs, 2):
            if one == other or len({a, b, c, d}) < 4 or {a, b} in stated or {c, d} in stated:
                continue
            if {a, d} in stated and {c, b} in stated:
                return b, d
            if {a, c} in stated and {b, d} in stated:
                return a, d
    return None


def _clause_pairs(
    claim: str, names: Mapping[str, list[int]], bounds: Sequence[int]
) -> list[tuple[int, tuple[str, str]]]:
    """Each two names written in one clause of the claim (and in no other), with the clause.

    Never a name and a part of it ("LocalProxy" and "proxy").
    """
    by_clause: dict[int, list[str]] = {}
    for name, at in names.items():
        clauses = {bisect_right(bounds, where) for where in at}
        if len(clauses) == 1:
            by_clause.setdefault(clauses.pop(), []).append(name)
    parts = {name: _parts(name, _written(claim, at)) for name, at in names.items()}
    return [
        (clause, (a, b))
        for clause, written in by_clause.items()
        for a, b in combinations(written, 2)
        if not (parts[a] <= parts[b] or parts[b] <= parts[a])
    ]


@lru_cache(maxsize=512)
def _prose_and_rows(text: str) -> tuple[str, ...]:
    """The prose sentences of `text`, then its tables' rows (`ingest.tables.row_text`).

    Split only for a claim two of whose names it writes.
    """
    spans = prose_sentences(text, min_words=1)
    return (*(text[a:b] for a, b in spans), *(row_text(row) for row in table_rows(text)))


@lru_cache(maxsize=1024)
def _stated_pairs(passage: str, names: tuple[str, ...]) -> frozenset[frozenset[str]]:
    """Each two of `names` one unit of `passage` writes together.

    A unit is a prose sentence, or a line outside prose: a table's row, a line of code.
    """
    found: set[frozenset[str]] = set()
    for unit in _units(passage):
        together = [name for name in names if _mentions(unit, name)]
        found.update(frozenset(pair) for pair in combinations(together, 2))
    return frozenset(found)


@lru_cache(maxsize=256)
def _units(text: str) -> tuple[str, ...]:
    """The prose sentences of `text`, then each line outside them (`_stated_pairs`)."""
    spans = prose_sentences(text, min_words=1)
    found = [text[start:end] for start, end in spans]
    read = 0
    for start, end in [*spans, (len(text), len(text))]:
        found.extend(line for line in text[read:start].split("\n") if line.strip())
        read = max(read, end)
    return tuple(found)


def claim_clauses(claim: str) -> tuple[int, ...]:
    """Where the clauses of `claim` end (never inside a code span).

    A position's clause is the number of these at or before it.
    """
    return _clauses(claim)[1]


@lru_cache(maxsize=1024)
def _clauses(claim: str) -> tuple[str, tuple[int, ...]]:
    """The claim with its code spans blanked, and where its clauses end in it."""
    masked = _SPAN.sub(lambda m: " " * len(m.group()), claim)
    return masked, tuple(m.start() for m in _CLAUSE.finditer(masked))


def _crossed(
    claim: str,
    masked: str,
    bounds: Sequence[int],
    sentences: Sequence[str],
    naming: Mapping[str, frozenset[int]],
    first: tuple[str, list[int]],
    second: tuple[str, list[int]],
) -> bool:
    """Whether each of two names stands in a clause saying what the other's sentences say.

    Each name comes with where the claim writes it; each must stand in a clause of its own
    that holds more of what only the other's sentences say than of what only its own do.
    `masked` is the claim with its code spans blanked, `bounds` where its clauses end
    (the clause of a character is the number of bounds at or before it); `naming` holds
    the sentences (by index) naming each name.
    """
    (a, at_a), (b, at_b) = first, second
    parts_a, parts_b = _parts(a, _written(claim, at_a)), _parts(b, _written(claim, at_b))
    if parts_a <= parts_b or parts_b <= parts_a:
        return False
    clauses_a = {bisect_right(bounds, at) for at in at_a}
    clauses_b = {bisect_right(bounds, at) for at in at_b}
    if clauses_a & clauses_b:
        return False
    own_a = [sentences[i] for i in sorted(naming[a] - naming[b])]
    own_b = [sentences[i] for i in sorted(naming[b] - naming[a])]
    if not own_a or not own_b:
        return False
    names = frozenset(content_terms(" ".join([*parts_a, *parts_b])))
    said_a, said_b = (_terms(" ".join(own), names) for own in (own_a, own_b))
    only_a, only_b = said_a - said_b, said_b - said_a
    pieces = [0, *bounds, len(masked)]
    clause_terms = [_terms(masked[x:y], names) for x, y in pairwise(pieces)]
    claim_a = frozenset().union(*(clause_terms[i] for i in clauses_a))
    claim_b = frozenset().union(*(clause_terms[i] for i in clauses_b))
    return len(claim_a & only_b) > len(claim_a & only_a) and len(claim_b & only_a) > len(
        claim_b & only_b
    )


def _terms(text: str, names: frozenset[str]) -> frozenset[str]:
    """The content terms of `text`, its code spans and the two names' own words aside."""
    return frozenset(content_terms(_SPAN.sub(" ", text))) - names
