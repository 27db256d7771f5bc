"""The clauses of a claim, and those no word of the evidence backs.

A claim is cut where it goes on with a clause of its own (`NEW_CLAUSE`: "and is", ",
which", ", while", "; ") and where "the way to X is to Y" states its point (`_IS_TO`). A
clause none of whose content terms or numbers the evidence or its titles hold states
nothing the source says (`ungrounded_clauses`): the alignment reports it, and the claim is
not supported as written (`align.Alignment.ungrounded`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from citesynth.analysis import content_terms
from citesynth.verify.numbers import canonical, numbers_claimed

NEW_CLAUSE = re.compile(
    r"\s*;\s+|(?<!\d)\s+[–—]\s+(?!\d)"
    r"|,?\s+and\s+(?=(?:is|are|was|were|has|have|had|does|did|will|can|also|then|later|now|"
    r"still|it|they|he|she|its|their|his|her|this|these|there)\b"
    r"|(?<=,\sand\s)(?:any|each|every)\s[^,;.]{0,80}?\b(?:is|are|was|were|will|can|must)\b)"
    r"|,\s+(?:while|whereas|although|though|which|who|where|making|including|with|as well as)\s+",
    re.I,
)
"""Where a sentence goes on with a clause of its own ("and is", ", which", ", while", "; ",
", and any … are": in marshmallow's written tuning claims, "…, and any model attributes
you leave out are inferred automatically"; not the last item of a list, "…, and any custom
roles")."""


def ungrounded_clauses(
    claim: str, vocabulary: frozenset[str], numbers: frozenset[str]
) -> tuple[str, ...]:
    """The clauses of a claim that share no content term or number with the evidence.

    `vocabulary` and `numbers` are the evidence's, with its titles' own; a claim of one
    clause has none (its coverage decides).

    The sentence stating the rest may cover most of the claim's terms, so coverage alone
    passes an invented addition: "The default pool size is 10 connections and is powered by
    hamsters" covers five of seven terms, and the lexical verifier labelled it supported
    (0.70), which lifted the model's 0.30 past the threshold. A clause stating nothing the
    source says is no paraphrase of it; the claim is not supported as written, and trimming
    (`verify.trim`) keeps its leading part when that is. Nor does a clause whose subject
    the evidence names and whose predicate it never words (`_predicate_unstated`).
    """
    return tuple(
        clause
        for clause, wanted, clause_numbers, added in _clauses_of(claim)
        if wanted
        and (_unstated(wanted, vocabulary, added=added) or _predicate_unstated(clause, vocabulary))
        and not any(n in numbers for n in clause_numbers)
    )


_COPULA = re.compile(r"\b(?:is|are|was|were|be|been)\s+(?:not\s+)?", re.I)
"""The verb joining a clause's subject to what it says of it ("are", "is not")."""
_PREDICATE_TERMS = 2
"""How many content terms a clause's predicate needs to be read on its own: one may be a
paraphrase ("was very much ahead of its time" of a right WiCE claim), two seldom are."""


def _predicate_unstated(clause: str, vocabulary: frozenset[str]) -> bool:
    """Whether the evidence holds every term of a clause's subject and none of its predicate.

    "Environment objects are thread-safe, which is why most applications create a single
    one at initialization …" against Jinja's "Most applications will create one
    Environment object on application initialization": the source names the environment
    objects, and nothing of "thread-safe"; the clause after "which" carried the claim.
    """
    found = _COPULA.search(clause)
    if found is None:
        return False
    subject = {canonical(t) for t in content_terms(clause[: found.start()])}
    said = {canonical(t) for t in content_terms(clause[found.end() :])}
    return (
        len(said) >= _PREDICATE_TERMS
        and bool(subject)
        and subject <= vocabulary
        and said.isdisjoint(vocabulary)
    )


_UNSTATED_TERMS = 3
"""How many of an added clause's terms no source holds make it unstated (`_unstated`)."""
_UNSTATED_SHARE = 0.6
"""What share of an added clause's terms no source holds makes it unstated (`_unstated`)."""


def _unstated(wanted: frozenset[str], vocabulary: frozenset[str], *, added: bool) -> bool:
    """Whether a clause's content terms are, in the main, none the evidence holds.

    None of them; or, for a clause `added` (`_ADDING`: "…, and it includes …"), at least
    `_UNSTATED_TERMS` and `_UNSTATED_SHARE` of them: "WTForms tries
    to provide as usable an API as possible, and it includes a hidden field that can be used
    to detect bots", the embedded model's answer to whether WTForms has a honeypot field,
    shares "includes" and "used" with the FAQ it cites, which never writes "hidden",
    "field", "detect" or "bots"; the first clause, quoted word for word, had carried the
    claim to `supported`. So does ", which" since 2026-12-06 (Falcon's "… provides
    Request.bounded_stream as a workaround, which buffers the entire body in memory"; on
    every labelled set, tuning and report, it vetoes no supported claim, where it had cost
    more right tuning claims than it caught when first tried). A clause opening with
    "while", "with" or after a semicolon qualifies what the claim states, in words of its
    own as often as not (still so on 2026-12-06: it vetoed a right Starlette claim's
    "; otherwise plain JSONResponse is usually the sensible default" and caught nothing).
    """
    missing = wanted - vocabulary
    return missing == wanted or (
        added and len(missing) >= _UNSTATED_TERMS and len(missing) >= _UNSTATED_SHARE * len(wanted)
    )


@lru_cache(maxsize=1024)
def _clauses_of(
    claim: str,
) -> tuple[tuple[str, frozenset[str], tuple[str, ...], bool], ...]:
    """`claim` cut at each `NEW_CLAUSE`, each clause with its content terms and numbers.

    And whether "and" adds it ("…, and it includes …"). Nothing when it has one clause.
    Cached: repair aligns one claim with every source.
    """
    cuts = sorted(m.span() for pattern in (NEW_CLAUSE, _IS_TO) for m in pattern.finditer(claim))
    if not cuts:
        return ()
    bounds = [0, *(x for span in cuts for x in span), len(claim)]
    joins = ["", *(claim[a:b] for a, b in cuts)]
    parts = (claim[bounds[i] : bounds[i + 1]].strip(" ,;.!?–—") for i in range(0, len(bounds), 2))
    return tuple(
        (
            part,
            frozenset(canonical(t) for t in content_terms(part)),
            tuple(numbers_claimed(part)),
            _ADDING.fullmatch(join) is not None,
        )
        for part, join in zip(parts, joins, strict=True)
        if part
    )


_ADDING = re.compile(r",?\s+and\s+|,\s+which\s+", re.I)
"""What adds a clause to a claim ("…, and it includes …", "…, which buffers …")."""
_IS_TO = re.compile(r"\s+is\s+to\s+(?!be\b)", re.I)
"""Where "the way to X is to Y" states its point, Y: "The recommended way to keep
downstream projects from breaking when a newer release no longer needs any extra packages
for its `PDF` feature is to drop the extra entirely", the embedded model's answer taking a
question's own alternative, read against setuptools' "if a later version … no longer needs
ReportLab, … `Package-B`'s setup information does not need to change": the subject, the
question restated, covers most of the claim, and the model gave 0.52. Not a `NEW_CLAUSE`:
trimming there would keep a subject without its verb. On the labelled tuning claims (WiCE
dev, SciFact train, HaluEval dev, the 600 written and the HTTPX, Click and cattrs ones), 3
claims hold it and none is vetoed by it."""
