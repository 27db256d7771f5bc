"""Negation as a claim or a sentence writes it: its cues, its scope, and what it denies.

`negation_cues` finds the words that deny ("not", "never", "without", "fails"), leaving
out those that deny nothing ("not only … but", "don't forget to", "Yes, no …"); `negated_for`
says whether a sentence denies the terms it shares with a claim, within the clause that
holds them (`_clauses`); `denies` and `contrast_denied` read a denial stated apart ("…, not
X", "unlike X"), and `asserted_terms` what a claim asserts past its opening purpose or
condition.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache

from citesynth.analysis import (
    content_terms,
    terms,
)
from citesynth.verify.numbers import (
    WORD,
    canonical,
    content_stems,
)

CODE = re.compile(r"`[^`\n]*`")
_CLAUSE = re.compile(r"[,;:()\[\]]|\s(?:-+|[–—])\s|—")
_NEGATION = frozenset(
    """not no never none neither nor cannot without lack lacks lacking absent unable fail fails
    failed nobody nothing nowhere""".split()
)
_ADDITIVE = re.compile(r"\s+(?:only|just|merely|simply)\b[^.!?;]*?\bbut\b", re.IGNORECASE)
"""After "not": "not only X but (also) Y" adds to X, it denies nothing."""
_PURPOSE = re.compile(r"\s*(?:in\s+order\s+)?to\s+[a-z]+\b[^,;:.!?]*,\s*", re.IGNORECASE)
"""A claim's opening purpose clause, "To enable HTTP/2 on a client, ": the goal the claim
serves, not what it asserts."""
_CIRCUMSTANCE = re.compile(
    r"\s*(?:after|when|whenever|once|before|while|if)\s+[^,;:.!?]*,\s*", re.IGNORECASE
)
"""A claim's opening clause of time or condition, "After streaming a response with
`preload_content=False` and reading all of it, ": when what the claim asserts holds."""
AUXILIARY = r"(?:does|do|did|is|are|was|were|can|could|will|would|should|has|have|may|might|must)"
"""An auxiliary verb, as a pattern: what a yes/no question opens with and a short reply ends
on ("Does it?" "It does."), and what a "not" follows ("is not")."""
PRIVATIVE = frozenset("without lack lacks lacking absent".split())
"""Negations that deny a thing's presence ("mice lacking Sirt1"), often a condition
("In environments without internet access, …") rather than a denial."""
_FAIL = frozenset("fail fails failed".split())
_LITOTES = re.compile(
    r"\s+(?:(?:to\s+)?(?:forget|hesitate|neglect|fail\s+to|mention)|least)\b", re.I
)
"""After "not", "never" or "don't": "make sure not to forget to set X" asks to set X; "last
but not least" and "not to mention" add, they deny nothing."""
_BUT_ONLY = re.compile(r"[ \t]+but\b", re.I)
_ONLY_BUT = frozenset("nothing none nobody".split())
"""Before "but": "contains nothing but the email address" holds only the address; it
asserts the address, it denies nothing."""
_DENIED_FAIL = re.compile(r"\b(?:not|never|\w+n't)(?:\s+to)?\Z", re.I)
_TO = re.compile(r"\s+to\b")
_AROUND = 40
"""Characters before a negating word that decide how it reads ("Yes, no …", "don't fail")."""


_YES_BEFORE = re.compile(r"\byes\s*(?:/|-|,?\s*\bor\b)\s*\Z", re.I)
_YES_AFTER = re.compile(r"\s*(?:/|-|\bor\b)\s*yes\b", re.I)
""""yes" beside "no": the two answers of a question, not a denial."""
_WHETHER_BEFORE = re.compile(r"\b(?:whether|if)\s+or\s*\Z", re.I)
_WHETHER_OPEN = re.compile(r"\b(?:whether|if)\b[^.!?;]*\bor\s*\Z", re.I)
_CLAUSE_END = re.compile(r"\s*(?:[.,;:!?)]|\Z)")
""""whether or not X", "whether X or not": the two alternatives of a question, not a denial."""


_MAYBE = re.compile(
    "(?:n['’]t|" + "|".join(sorted(_NEGATION, key=lambda w: (-len(w), w))) + r")-*(?![\w'’-])",
    re.IGNORECASE,
)
"""Where a word of `_NEGATION` (or one in "n't") may end: most texts have none, and are not
read word by word."""


def negation_cues(text: str) -> list[tuple[int, str]]:
    """The words of `text` that negate, with their offsets.

    Not inside inline code (`None`), not capitalised inside a sentence (a name: the album
    "No Fences", Python's None; a string opening a list opens one, marshmallow's
    `{'homepage': ['Not a valid URL.']}`), and "fail" only as "fail to" ("fails to improve"; "when
    a request fails" is an event, not a denial), "not" never in "not only X but Y",
    "no" never as the other of "yes" ("a yes/no question", "yes or no"), and "not" never
    as the other alternative of "whether" ("whether or not it came from the command line",
    "whether it is cached or not"); "not", "never" and "don't" never before "forget",
    "hesitate", "neglect" or "fail to", nor "fail" after them: "make sure not to forget to
    set the attribute" (Flask's docs) and "don't fail to" ask to do it; nor in "not least"
    or "not to mention" ("Last but not least `echo()` uses …", Click's docs); nor
    "nothing", "none" or "nobody" right before "but": "nothing but the email address" is
    only the address.
    """
    if _MAYBE.search(text) is None:
        return []
    code = [m.span() for m in CODE.finditer(text)]
    code_starts = [start for start, _ in code]
    found = []
    for match in WORD.finditer(text):
        word = match.group().lower().replace("’", "'").strip("-")  # "does -not- translate"
        if not (word in _NEGATION or word.endswith("n't")):
            continue
        start, end = match.span()
        if _inside(start, code, code_starts):
            continue
        # Each test reads a window around the word: a text of thousands of negations is
        # read in linear time.
        window = text[max(0, start - _AROUND) : start]
        before = window.rstrip(" \t*_\"'“([-")
        opens = not before or before[-1] in ".!?:\n"
        if match.group()[0].isupper() and not opens:
            continue
        if word in _FAIL and (not _TO.match(text, end) or _DENIED_FAIL.search(before)):
            continue
        litotes = word in {"not", "never"} or word.endswith("n't")
        if litotes and _LITOTES.match(text, end):
            continue  # "don't forget to set X" (`_LITOTES`) sets X
        if word == "not" and _ADDITIVE.match(text, end):
            continue  # "reviews not only X but also Y" asserts both
        if word in _ONLY_BUT and _BUT_ONLY.match(text, end):
            continue  # "nothing but X" is only X
        if word == "no" and (_YES_BEFORE.search(window) or _YES_AFTER.match(text, end)):
            continue
        if word == "not" and _alternative(text, start, end):
            continue
        found.append((start, word))
    return found


def negates_word(text: str, word: str) -> bool:
    """Whether a negation of `text` bears on `word` (lower case, as written).

    It does when the word follows it within `_GOVERNED` words of its clause: "is not
    required", "isn't enabled", "no longer enabled". "Because strict_slashes is disabled by
    default, … does not redirect" negates "redirect", never "disabled".
    """
    return any(found == word for found in governed_words(text))


def governed_words(text: str, reach: int = 0) -> Iterator[str]:
    """The words (lower case) a negation of `text` bears on: its `reach` next ones.

    `_GOVERNED` unless `reach` is given; only within the negation's clause, and read only
    that far, so a long clause of many negations costs no more than its words.
    """
    cues = negation_cues(text)
    for (offset, _), (after, _) in itertools.pairwise([*cues, (len(text), "")]):
        following = itertools.islice(WORD.finditer(text, offset), 1, 1 + (reach or _GOVERNED))
        for found in following:
            if found.start() >= after or _CLAUSE.search(text, offset + 1, found.start()):
                break  # the next negation bears on what follows it
            yield found.group().lower()


_GOVERNED = 3
"""How many words after a negation it bears on (`negates_word`)."""


def _alternative(text: str, start: int, end: int) -> bool:
    """Whether the "not" at `start` is the other alternative of a "whether" question.

    "whether or not an option came from the command line" and "whether it is cached or
    not." ask which of two holds; neither denies anything. Only the 200 characters before
    it are read (a question's alternatives are close; a long text costs no more).
    """
    before = text[max(0, start - 200) : start]
    if _WHETHER_BEFORE.search(before):
        return True
    return bool(_WHETHER_OPEN.search(before)) and bool(_CLAUSE_END.match(text, end))


@lru_cache(maxsize=1024)
def privative_only(claim: str) -> bool:
    """The claim's only negation is privative: "mice lacking Sirt1", "cells without IFN-γ".

    Sources say that with words no cue list holds ("Sirt1-deficient", "knockout", "loss
    of", "-/-"), so a source without a negation word is no sign of a mismatch; such a claim
    is not checked for negation at all. "Without" before a verb ("works without installing
    anything") denies an event and is checked.
    """
    found = negation_cues(claim)
    for offset, word in found:
        if word == "no" and _WITH_BEFORE.search(claim, 0, offset):
            continue  # "a placeholder with no converter" is one without a converter
        if word not in PRIVATIVE:
            return False
        following = _word_after(claim, offset + len(word))
        if word == "without" and following and following.endswith("ing"):
            return False  # "works without installing anything" denies an event
    return bool(found)


def privatives_shared(claim: str, text: str) -> str | None:
    """`text` with its privatives blanked when `claim` writes them too and negates more.

    None when `text` negates otherwise, or the claim no more than it. A privative is
    shared when the claim writes it before the same word: "Its API may change in minor
    releases without a deprecation period" does not back "Its API won't change in minor
    releases without a deprecation period"; its "without" is the claim's own, and "won't"
    has nothing of the source's beside it.
    """
    found = negation_cues(text)
    if not found or any(word not in PRIVATIVE for _, word in found):
        return None
    theirs = {_privative_phrase(text, offset, word) for offset, word in found}
    mine = [
        _privative_phrase(claim, offset, word) if word in PRIVATIVE else word
        for offset, word in negation_cues(claim)
    ]
    if not theirs <= set(mine) or all(phrase in theirs for phrase in mine):
        return None
    pieces, last = [], 0
    for offset, word in found:  # in one pass: a text of many privatives is not copied for each
        pieces += [text[last:offset], " " * len(word)]
        last = offset + len(word)
    return "".join([*pieces, text[last:]])


def _privative_phrase(text: str, offset: int, word: str) -> str:
    """A privative word of `text` at `offset` and the word after it ("without a")."""
    return f"{word} {(_word_after(text, offset + len(word)) or '').lower()}"


def _word_after(text: str, end: int) -> str | None:
    """The word right after `end` in `text`, past spaces only (none after punctuation).

    Matched where it stands: a text of many negations is not copied once for each.
    """
    found = _NEXT_WORD.match(text, end)
    return found.group(1) if found else None


_NEXT_WORD = re.compile(r"\s*(" + WORD.pattern + ")")


_WITH_BEFORE = re.compile(r"\bwith\s+\Z", re.I)
""""with" right before a "no" (`privative_only`): "with no converter" is "without" one."""


def negated_for(wanted: Iterable[str], sentence: str, *, privative: bool = True) -> bool:
    """Whether the part of `sentence` that states a claim's terms is negated.

    The sentence is cut into clauses (at commas, semicolons, colons, brackets and dashes
    outside inline code); the clause holding most of the claim's terms `wanted` decides,
    or, on a tie, any of them. "`max_connections`, maximum number of allowable
    connections, or `None` for no limits." is not a negation of "the maximum number of
    connections is 100": the "no" belongs to a clause that holds one of its terms, not the
    one that states it. Without `privative`, "without" and "lacking" negate nothing ("run
    without any arguments" states a condition, not a denial).
    """
    cues = (
        offset for offset, word in negation_cues(sentence) if privative or word not in PRIVATIVE
    )
    return bool(_stating_cues(cues, wanted, sentence))


def _stating_cues(cues: Iterable[int], wanted: Iterable[str], sentence: str) -> list[int]:
    """The offsets of `cues` inside the clauses of `sentence` stating `wanted` (`_stating`)."""
    spans = _stating(wanted, sentence)  # in order, never overlapping
    starts = [start for start, _ in spans]
    return [offset for offset in cues if _inside(offset, spans, starts)]


def otherwise_only(wanted: Iterable[str], sentence: str) -> bool:
    """Whether every negation of the clauses stating `wanted` follows their "otherwise".

    "greenlet>=1.0 is required, otherwise context locals such as ``request`` will not work
    as expected" (Werkzeug's docs) denies what happens when the requirement is not met; a
    plain claim that it is needed "so context locals like request behave correctly" says
    the same, and its negation check had vetoed it.
    """
    spans = _stating(wanted, sentence)
    cues = [offset for offset, _ in negation_cues(sentence)]
    found = False
    for start, end in spans:
        inside = [c for c in cues if start <= c < end]
        if not inside:
            continue
        turn = _OTHERWISE.search(sentence, start, end)
        if turn is None or any(c < turn.start() for c in inside):
            return False
        found = True
    return found


_OTHERWISE = re.compile(r"\b(?:otherwise|or\s+else)\b", re.I)


def messages_only(wanted: Iterable[str], sentence: str) -> bool:
    """Whether every negation of the clauses stating `wanted` lies in a string of code.

    A message an example prints or a value it holds is quoted, not stated: marshmallow's
    `print(err.messages)  # => {"email": ['"foo" is not a valid email address.']}` says
    what the error holds, and its "not" had vetoed "ValidationError's messages attribute
    holds the errors". A string opens after a bracket, "=", "," or ":" (`_STRING`), never
    after a word: reported speech ('the docs say "never use it in production"') denies.
    """
    strings = [match.span() for match in _STRING.finditer(sentence)]
    if not strings:
        return False
    cues = _stating_cues((offset for offset, _ in negation_cues(sentence)), wanted, sentence)
    starts = [start for start, _ in strings]
    return bool(cues) and all(_inside(offset, strings, starts) for offset in cues)


_STRING = re.compile(r"(?:(?<=[\[({=,:])|(?<=[\[({=,:] ))(?:'[^'\n]*'(?!\w)|\"[^\"\n]*\")")
"""A string of code: quoted after a bracket, "=", "," or ":" (and a space), on one line."""


def stating_clauses(wanted: Iterable[str], sentence: str) -> list[str]:
    """The clauses of `sentence` holding most of the terms `wanted` (all when none holds one).

    What `negated_for` reads, for the checks that read a denial without a negation word
    (`denies`): Jinja's "Currently it is only used to enable and disable automatic escaping,
    but it can be used by extensions as well" states "extensions cannot make use of it" in
    its last clause, which denies nothing; "disable" stands in another.
    """
    return [sentence[start:end] for start, end in _stating(wanted, sentence)]


def _stating(wanted: Iterable[str], sentence: str) -> list[tuple[int, int]]:
    """Spans of the clauses of `sentence` holding most of `wanted`; all when none holds one."""
    wanted = set(wanted)
    scored = []
    for start, end in _clauses(sentence):
        tokens = {canonical(t) for t in terms(sentence[start:end])}
        scored.append((len(wanted & tokens), (start, end)))
    most = max((count for count, _ in scored), default=0)
    return [span for count, span in scored if count == most]


def _clauses(text: str) -> list[tuple[int, int]]:
    """Spans of the clauses of `text`.

    Cut at commas, semicolons, colons, brackets and dashes outside inline code.
    """
    cuts = [m.start() for m in outside_code(_CLAUSE, text)]
    return list(itertools.pairwise([0, *cuts, len(text)]))


def outside_code(pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
    """The matches of `pattern` in `text` that start outside inline code.

    Each is placed among the code spans by bisection: thousands of spans and matches are
    read in linear time.
    """
    code = [m.span() for m in CODE.finditer(text)]
    starts = [start for start, _ in code]
    return [m for m in pattern.finditer(text) if not _inside(m.start(), code, starts)]


def _inside(offset: int, spans: Sequence[tuple[int, int]], starts: Sequence[int]) -> bool:
    """Whether `offset` falls inside one of the sorted spans `spans` (`starts` their starts).

    Found by bisection: inline code, a sentence's stating clauses, strings of code.
    """
    at = bisect_right(starts, offset) - 1
    return at >= 0 and offset < spans[at][1]


@lru_cache(maxsize=1024)
def negated_scope(claim: str) -> frozenset[str]:
    """The terms of the claim's clause that holds its first negation.

    What a source sentence must state to back the negation; all the claim's terms when
    that clause has none. A clause of its own opening inside it before the negation
    ("because", "since", "so", "whereas", "while") is the scope when it holds three terms
    or more: in "setting DEBUG in config or code is strongly discouraged since flask run
    cannot read it early", "flask run cannot read it early", which Flask's "It can't be
    read early by the ``flask run`` command" backs.
    """
    cues = negation_cues(claim)
    everything = content_stems(claim)
    if not cues:
        return everything
    offset = cues[0][0]
    for start, end in _clauses(claim):
        if start <= offset < end:
            joined = list(_JOINED.finditer(claim, start, offset))
            if joined:  # "… is strongly discouraged since flask run cannot read it early"
                own = content_stems(claim[joined[-1].end() : end])
                if len(own) >= _SCOPE_TERMS:
                    return own
            return content_stems(claim[start:end]) or everything
    return everything


_JOINED = re.compile(r"\s(?:because|since|so\s+that|so|whereas|while)(?=\s)", re.I)
"""A word opening a clause of its own inside a clause; the last before a negation counts."""
_SCOPE_TERMS = 3
"""Terms a clause opened so must hold to be the scope by itself."""


_CONTRASTED_TERMS = 3
"""Content terms the asserting clause needs of its own (not in the declined one)."""


def contrast_denied(claim: str, contrast: re.Match[str], sentences: Sequence[str]) -> bool:
    """Whether a sentence denies what a claim "A, not B" asserts (`align._CONTRAST`).

    A negated clause of a stating sentence that holds two or more terms only the asserting
    clause has, and none only the declined one has ("it does not rely on ``ON DELETE
    CASCADE``" against "… depends on the foreign keys being declared with ON DELETE
    CASCADE, not on peewee handling the dependent rows itself").
    """
    main = claim[: contrast.start()]
    if negation_cues(main):
        return False
    said = {canonical(t) for t in content_terms(main)}
    declined = {canonical(t) for t in content_terms(claim[contrast.end() :])}
    asserted, declined = said - declined, declined - said
    if len(asserted) < _CONTRASTED_TERMS:
        return False
    for text in sentences:
        for start, end in _clauses(text):
            clause = text[start:end]
            if not negation_cues(clause):
                continue
            held = {canonical(t) for t in content_terms(clause)}
            if len(held & asserted) >= 2 and not held & declined:
                return True
    return False


_DENYING = re.compile(
    r"\b(?:avoid(?:s|ed|ing)?|prevent(?:s|ed|ing)?|without|instead\s+of|rather\s+than"
    r"|outside|out\s+of(?!\s+the\s+box)|lack(?:s|ed|ing)?|disabl(?:e|es|ed|ing))\b"
    r"|\bun(?!(?:less|like|ique|iform|ify|ion|its?|iverse|iversal|icode)\b)([a-z]{4,})",
    re.IGNORECASE,
)
"""Words that deny without a negation word: "a bytecode cache to avoid repeated compiling",
"to prevent modifying lists", "outside the context of creating text files", "kept out of
source control", and a word that is another's opposite by "un-" ("untrusted"; not
"unless", "unlike", "unique", …)."""


_HALTING = re.compile(
    r"\b(?:stop(?:s|ped|ping)?|skip(?:s|ped|ping)?|ignor(?:e|es|ed|ing)|omit(?:s|ted|ting)?)\b",
    re.I,
)
"""Verbs that deny an action by naming its end: "an ordered list stops when an unordered
list item appears" is Python-Markdown's "an ordered list will not continue when an unordered
list item is encountered". Read on a claim's side only when the source does not write the
verb too (`denies`): "browsers never ignore Early Hints" against "browsers may ignore them"
denies nothing by "ignore"."""


def denying_terms(text: str) -> frozenset[str]:
    """The stemmed terms of the words of `text` that deny without a negation word."""
    return frozenset(
        canonical(t) for found in _DENYING.finditer(text) for t in terms(found.group())
    )


def denies(text: str, other: str) -> bool:
    """Whether `text` denies with a word no negation cue list holds (`_DENYING`).

    What one side states with "not" the other often states so: Jinja's "uses a bytecode
    cache to avoid repeated compiling" is the claim "templates aren't compiled over and
    over", and the claim "requests from a page on an untrusted URL receive a 400 error"
    Werkzeug's "a page that is not served on a trusted URL". An "un-" word counts only when
    `other` holds the word it negates, in any form ("trusted"; "unchanged" and "without any
    changes"): "under", "until" and "unique" deny nothing;
    nor when `other` writes the "un-" word too: "an ordered list continues when an unordered
    list item is encountered" denies nothing by "unordered" where Python-Markdown writes "an
    ordered list will not continue when an unordered list item is encountered". A verb
    ending an action ("stops", "skips", "ignores", "omits": `_HALTING`) denies when `other`
    does not write it. A snake_case name set to `False` denies what it names when `other`
    writes two of its words: structlog's `cache_logger_on_first_use=False` is "no caching
    of the logger on first use".
    """
    for found in _HALTING.finditer(text):
        if _stem(found.group()) not in _stems(other)[0]:
            return True
    for found in _SET_FALSE.finditer(text):
        named = {_stem(part) for part in found.group(1).lower().split("_") if part}
        if len(named & _stems(other)[0]) >= 2:
            return True
    held: frozenset[str] | None = None
    for found in _DENYING.finditer(text):
        rest = found.group(1)
        if rest is None:
            return True
        if held is None:
            held, negated = _stems(other)
        if _stem(rest) in held - negated:
            return True
    return False


_SET_FALSE = re.compile(r"\b([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)\s*[=:]\s*False\b")
"""A snake_case name set to `False` in code (`denies`)."""


def _stem(word: str) -> str:
    """The stem `terms` gives `word` ("changes" and "changed": "chang")."""
    return next((canonical(t) for t in terms(word)), word.lower())


@lru_cache(maxsize=1024)
def _stems(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The stems of the words of `text`, and those of the words its "un-" words negate.

    Cached: a claim is read against every sentence that may deny it.
    """
    words = [word.lower() for word in re.findall(r"[A-Za-z]+", text)]
    held = frozenset(_stem(word) for word in words)
    negated = frozenset(
        _stem(word[2:]) for word in words if word.startswith("un") and len(word) >= 6
    )
    return held, negated


@lru_cache(maxsize=1024)
def asserted_terms(claim: str) -> frozenset[str]:
    """The terms a claim opening with a purpose clause asserts: those after the clause.

    "To enable HTTP/2, install the optional dependencies" asserts the install; "HTTP/2 is
    not enabled by default" denies nothing it says. So does a claim opening with a clause
    of time or condition (`_CIRCUMSTANCE`): "After streaming a response with
    `preload_content=False` …, you can manually release the HTTP connection back to the
    connection pool" asserts the release, which urllib3's docs state two sentences after
    "the response body will be read immediately … without manual intervention" (of the
    default, `preload_content=True`). Empty when the claim has no such clause, or nothing
    follows it.
    """
    found = opening(claim)
    if found is None:
        return frozenset()
    return content_stems(claim[found.end() :])


def opening(claim: str) -> re.Match[str] | None:
    """The claim's opening purpose or clause of time or condition, or None.

    What it serves (`_PURPOSE`) or when it holds (`_CIRCUMSTANCE`), not what it asserts.
    """
    return _PURPOSE.match(claim) or _CIRCUMSTANCE.match(claim)


def goal_negated_only(claim: str) -> bool:
    """Whether the claim's negations all stand in its opening purpose clause.

    "To configure isort so it doesn't conflict with Black, use the black profile" asserts
    no negation: the source need not deny anything to back it.
    """
    opening = _PURPOSE.match(claim)
    return opening is not None and not negation_cues(claim[opening.end() :])
