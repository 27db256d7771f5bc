"""A behaviour the claim says happens by default, where its source's flag for it is off.

    flag_default_differs("StaticFiles follows symbolic links by default.", [source])
    → ("follows symbolic links by default", "Defaults to `False`")

Starlette's reference describes each parameter on a line of its own: "`follow_symlink` - A
boolean indicating if symbolic links for files and directories should be followed.
Defaults to `False`." A claim that "StaticFiles follows symbolic links for files and
directories by default" holds every word of that line but its value, so coverage passed
it, and the sentence alignment chose a neighbouring line's "Defaults to `True`" (the
`check_dir` flag's) as stating it. The line describing a flag and the truth value it
defaults to state what happens by default: the behaviour when the flag is `True`, its
absence when `False`.

A claim contradicts such a line when:

- a clause of the claim says "default" and writes no truth value or on/off word of its own
  (a claim giving the value is read by `defaults` and `codevalues`);
- a passage line (or list item, read with the lines it wraps onto) describes a flag and
  ends its description with its default, `True` or `False` ("Defaults to `False`",
  "default: True", "(default ``False``)"), and that description denies nothing and turns
  nothing off ("Set to True to disable …", "If False, … won't …" are never read);
- the description holds at least `_SHARED` of the clause's content terms and `_SHARE` of
  them ("default" aside), more than any description of the other value does;
- the clause is negated and the flag defaults to `True`, or not and it defaults to `False`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from citesynth.analysis import content_terms
from citesynth.verify.negation import negation_cues

_SAYS_DEFAULT = re.compile(r"\bdefault(?:s|ed)?\b", re.I)
_VALUED = re.compile(r"\b(?:true|false|off|yes|enabled?|disabled?|none|null|zero)\b|\d|=", re.I)
"""A claim writing a value of its own: `defaults`, `codevalues` and the numbers read it."""
_CLAUSE = re.compile(r"[;:]|,\s+(?:and|but|while|whereas|so|which)\b|\s+(?:but|while|whereas)\s+")
_FLAG_DEFAULT = re.compile(
    r"\(?\bdefault(?:s\s+to|\s+is|\s+value\s+is|\s*[:=]|\s+to)?\s*`{0,2}(true|false)\b`{0,2}\)?",
    re.I,
)
"""A flag's default truth value as a description ends with it."""
_ITEM = re.compile(r"^\s*(?:[*+-]\s|\d+[.)]\s|:param\b|\S+\s+[-–—]\s)")
"""A line opening a list item or a parameter's description."""
_TURNED_OFF = frozenset(
    "disable disables disabled skip skips skipped ignore ignores ignored prevent prevents "
    "avoid avoids suppress suppresses exclude excludes omit omits".split()
)
"""Words describing a flag that turns its behaviour off: its `True` is the behaviour's absence."""
_LINES_BACK = 3
"""How many lines above the default's own line a description may wrap from."""
_SHARED = 2
_NEGATIONS = 4
"""How many of a claim's negations are read against the flags: a claim states a few."""
_READ = 300
"""How much of a claim after a negation its clause is looked for in."""
_SHARE = 0.6


def flag_default_differs(claim: str, passages: Sequence[str]) -> tuple[str, str] | None:
    """(the claim's clause, the source's default) when a flag describing it is off (or on)."""
    if not _SAYS_DEFAULT.search(claim) or _VALUED.search(claim):
        return None  # most claims: read before any passage
    for clause in _CLAUSE.split(claim):
        if not _SAYS_DEFAULT.search(clause):
            continue
        wanted = frozenset(content_terms(clause)) - {"default"}
        if len(wanted) < _SHARED:
            continue
        negated = bool(negation_cues(clause))
        found = _closest(wanted, passages)
        if found is None:
            continue
        value, written = found
        if negated == value:
            return clause.strip(" ,.;"), written
    return None


def flag_default_backs(claim: str, passages: Sequence[str]) -> bool:
    """Whether a flag defaulting to `False` states what a claim's negation denies by default.

    "By default StaticFiles … doesn't follow symbolic links" against "`follow_symlink` - A
    boolean indicating if symbolic links for files and directories should be followed.
    Defaults to `False`.": no sentence writes the negation, and the flag's line is what
    states it. What a negation denies is read from the word after it to its clause's end
    ("follow symbolic links"), held to the descriptions as `flag_default_differs` holds a
    clause.
    """
    if not _SAYS_DEFAULT.search(claim) or _VALUED.search(claim):
        return False
    for offset, _ in negation_cues(claim)[:_NEGATIONS]:
        clause = _CLAUSE.split(claim[offset : offset + _READ], maxsplit=1)[0]
        wanted = frozenset(content_terms(clause.split(maxsplit=1)[-1])) - {"default"}
        if len(wanted) < _SHARED:
            continue
        found = _closest(wanted, passages)
        if found is not None and not found[0]:
            return True
    return False


def _closest(wanted: frozenset[str], passages: Sequence[str]) -> tuple[bool, str] | None:
    """The default truth value of the flag whose description holds most of `wanted`.

    With how the passage writes it; None when no description holds enough of it, or
    descriptions of both values hold as much.
    """
    best: dict[bool, tuple[int, str]] = {}
    for passage in passages:
        for value, written, described in _flags(passage):
            shared = len(wanted & described)
            if shared < _SHARED or shared < _SHARE * len(wanted):
                continue
            if shared > best.get(value, (0, ""))[0]:
                best[value] = (shared, written)
    if not best or (len(best) == 2 and best[True][0] == best[False][0]):
        return None
    value, (_, written) = max(best.items(), key=lambda item: item[1][0])
    return value, written


@lru_cache(maxsize=512)
def _flags(passage: str) -> tuple[tuple[bool, str, frozenset[str]], ...]:
    """Each flag `passage` describes: its default, as written, and its description's terms.

    A description that denies anything or turns something off is left out.
    """
    if "default" not in passage.lower():
        return ()
    lines = passage.split("\n")
    found = []
    for at, line in enumerate(lines):
        match = _FLAG_DEFAULT.search(line)  # a description ends with its default: the first
        if match is None:
            continue
        described = _described(lines, at, line[: match.start()])
        words = {w.lower() for w in re.findall(r"[A-Za-z']+", described)}
        if negation_cues(described) or words & _TURNED_OFF:
            continue
        value = match.group(1).lower() == "true"
        found.append((value, match.group().strip(" ()"), frozenset(content_terms(described))))
    return tuple(found)


def _described(lines: Sequence[str], at: int, head: str) -> str:
    """What the line `at` (up to its default, `head`) and the lines it wraps from describe.

    Lines above are read back to the one opening its item, never past a blank line or
    more than `_LINES_BACK` lines.
    """
    if _ITEM.match(head):
        return head
    parts = [head] if head.strip() else []  # "Defaults to `False`." may stand alone
    for back in range(at - 1, max(-1, at - 1 - _LINES_BACK), -1):
        line = lines[back]
        if not line.strip():
            break
        parts.insert(0, line)
        if _ITEM.match(line):
            break
    return " ".join(parts)
