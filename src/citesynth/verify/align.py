"""Align a claim with the passages it cites: the best sentences, and what disagrees.

Every passage is split into sentences, each analysed once into stemmed terms with
positions (`analysed`). For a claim, the sentence
covering most of its content terms is the anchor; up to two more sentences are added
greedily when they cover terms the anchor lacks (a claim may join two facts; a long one
more, `coverage`). The
`Alignment` records what is covered (`coverage`, the first half) and what disagrees:

- content-term coverage by the best sentence, the best three, and the whole evidence;
- ordered term pairs of the claim found close together in one sentence (relations, not
  just vocabulary);
- numbers (with units and years) and proper names of the claim missing from the evidence;
- negation present on one side only (decided here); opposite directions ("increases" /
  "reduces");
- a superlative of the claim ("the best", "of all time") the evidence never states, and a
  comparison ("more weight than") no sentence about the same thing makes (`comparisons`);
- a word whose contradiction a stating sentence holds instead ("optional" against
  "required"), or whose converse relates the same two things in the same order ("after
  deserialization" against "before deserialization"), `opposites`; two numbers, names or
  contradictory words bound to each other's subjects ("the connect timeout is 10 s and
  the read timeout 5 s", `swaps`); a quantity of another thing ("the number of
  concurrent requests" against "the number of bytes", `measures`); a name whose sibling
  the sources write with the word the claim says (`trylast` for what runs first,
  `siblings`);
- how many content terms are missing, since one wrong name is enough to be unsupported.

A `Context` (the documents' titles and headings) supplies words and numbers the passages
leave to their heading: those count as stated, though no sentence of the context is ever
the anchor or the supporting span.

The features are what `lexical.py` weighs; the spans are where the citation points.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from citesynth.analysis import terms
from citesynth.verify.alternatives import alternative_chosen
from citesynth.verify.analysed import (
    NO_CONTEXT,
    Context,
    Evidence,
    Sentence,
    is_prose,
    text_of,
)
from citesynth.verify.arguments import arguments_exchanged
from citesynth.verify.calls import rearranged_calls
from citesynth.verify.causes import reversed_link
from citesynth.verify.clauses import ungrounded_clauses
from citesynth.verify.codevalues import differing_code, sets_otherwise
from citesynth.verify.comparisons import (
    BOUND_WORDS,
    bound_denied,
    bound_restated,
    unstated_comparison,
)
from citesynth.verify.compound import clause_denied
from citesynth.verify.contrasts import moved_across
from citesynth.verify.coverage import DECIDED_BY_ALIGN, claim_names, cover
from citesynth.verify.denied_stated import denies_stated
from citesynth.verify.effects import effect_reversed
from citesynth.verify.exclusive import only_other
from citesynth.verify.flag_defaults import flag_default_backs, flag_default_differs
from citesynth.verify.identifiers import (
    as_code,
    as_key,
    attributes,
    called_as,
    code_spans,
    identifiers,
    marks_code,
    other_attributes,
    written_option,
)
from citesynth.verify.lists import misattributed
from citesynth.verify.measures import other_measure, other_unit
from citesynth.verify.misplaced import code_elsewhere
from citesynth.verify.negated_pairs import pair_negated
from citesynth.verify.negated_subjects import negated_alike, subject_negated
from citesynth.verify.negation import (
    asserted_terms,
    contrast_denied,
    denies,
    governed_words,
    messages_only,
    negated_for,
    negated_scope,
    negates_word,
    negation_cues,
    otherwise_only,
    privative_only,
    privatives_shared,
    stating_clauses,
)
from citesynth.verify.numbers import canonical
from citesynth.verify.opposites import contradicting_words, opposed, reversed_order, words
from citesynth.verify.purpose import goal_elsewhere
from citesynth.verify.quotes import misquoted
from citesynth.verify.renamed import name_replaced
from citesynth.verify.replies import replied_otherwise
from citesynth.verify.respectively import paired_otherwise
from citesynth.verify.roles import crossed_names, partners_exchanged
from citesynth.verify.sequences import sequence_reversed
from citesynth.verify.siblings import misnamed_sibling
from citesynth.verify.subclasses import parent_reversed
from citesynth.verify.swaps import (
    order_reversed,
    preferred_reversed,
    rejected_chosen,
    rejected_stated,
    relation_reversed,
    span_reversed,
    swapped,
)
from citesynth.verify.table_cells import denied_in_table
from citesynth.verify.unlike import unlike_attributed

_SUPERLATIVE = re.compile(
    r"\b(?:the|its|their|his|her|our|your|\w+'s)\s+(?:(?:very|single|second|third)\s+)?"
    r"(best|worst|most|least|[a-z]+est)\b|\b(of all time)\b",
    re.IGNORECASE,
)
"""A superlative: "the tallest", "Brazil's best", "of all time" (not "ever": "the first
ever winner" claims no more than "the first winner")."""
_NOT_SUPERLATIVE = frozenset(
    """interest test rest forest west guest request suggest honest modest earnest harvest
    contest protest manifest nest pest vest chest quest zest jest invest digest arrest crest
    conquest priest behest unrest midwest northwest southwest everest fest inquest bequest
    attest detest""".split()
)


@dataclass(frozen=True, slots=True)
class Alignment:
    """What the best sentences of the evidence cover of a claim, and where they disagree."""

    features: dict[str, float]
    best: tuple[Sentence, ...]
    missing_terms: tuple[str, ...]
    missing_numbers: tuple[str, ...]
    missing_names: tuple[str, ...]
    negation_mismatch: bool
    direction_mismatch: bool
    missing_superlatives: tuple[str, ...] = ()
    unstated_comparison: str = ""
    """A comparison of the claim no source sentence about it makes (`comparisons`)."""
    missing_identifiers: tuple[str, ...] = ()
    misattributed: tuple[tuple[str, str], ...] = ()
    """(the name the claim gives, the list item that states it) (`lists.misattributed`),
    or the sibling name whose word says what the claim says (`siblings`: `tryfirst` for
    "run before the others", not `trylast`), or the code of the sentence stating the claim
    that the claim gives other code (`misplaced`: `reload_assets`, not `reload_templates`)."""
    reasons: tuple[str, ...] = field(default=())
    missing_words: tuple[str, ...] = ()
    """`missing_terms` as the claim writes them ("library" for the term "librari")."""
    ungrounded: tuple[str, ...] = ()
    """Clauses of the claim (cut as `clauses` cuts it: at `NEW_CLAUSE`, and before the Y of
    "the way to X is to Y") none of whose words or numbers the evidence or its titles hold:
    "… and is powered by hamsters", "… is to drop the extra entirely"."""
    opposite: tuple[tuple[str, str], ...] = ()
    """(the claim's word, the contradicting word of a sentence stating it): "optional"
    against "required" (`opposites.opposed`), "after" against "before"
    (`opposites.reversed_order`), `os.getcwd` against "mymodule.getcwd rather than
    os.getcwd" (`swaps.rejected_chosen`), "HTTP/2 Support for sync" against a table's
    "`sync`: HTTP/2 Support: No" (`table_cells.denied_in_table`), "only the query location"
    against "only the json location" (`exclusive.only_other`), "milliseconds" against
    "in seconds" (`other_unit`), "follows symbolic links by default" against the flag
    describing it, "Defaults to `False`" (`flag_defaults.flag_default_differs`), "replaces"
    against the "merged" the claim turns down (`swaps.rejected_stated`)."""
    stated_otherwise: bool = False
    """Whether a source states the claim's point otherwise outright: a table's cell, a
    measure's unit or a flag's default (`table_cells.denied_in_table`, `other_unit`,
    `flag_defaults`). Such a claim is false,
    not miscited: repair moves it only to a source saying all of it (`review`)."""
    swapped: tuple[tuple[str, str], ...] = ()
    """Two items of the claim the stating sentence binds the other way round
    (`swaps.swapped`) or relates from the other end (`swaps.relation_reversed`), a
    one-way relation with its two sides exchanged (`arguments.arguments_exchanged`), two names
    of it each said with what the passages say of the other (`roles.crossed_names`), or
    given each other's partner (`roles.partners_exchanged`, `respectively.paired_otherwise`),
    or a class made the subclass of its own subclass (`subclasses.parent_reversed`), or two
    steps put in the other order ("first A, then B", `sequences.sequence_reversed`)."""
    misquoted: tuple[str, ...] = ()
    """Text the claim quotes as what something prints or says, which no passage writes
    (`quotes.misquoted`)."""
    code_values: tuple[tuple[str, str], ...] = ()
    """(the claim's setting or operator, the passages' setting, or nothing) where the
    passages write that code otherwise: `err=False` against `err=True`
    (`codevalues.differing_code`)."""
    other_goal: tuple[str, str] | None = None
    """(the code the claim's purpose clause is given to, the purpose the passages give it)
    when those differ: "To disable SSL certificate verification, use `disable_warnings`"
    against "to disable these warnings" (`purpose.goal_elsewhere`)."""
    other_measure: tuple[str, str] | None = None
    """(the claim's measure, the passages') when they measure another thing: "the maximum
    number of concurrent requests" against "The maximum number of bytes that will be read"
    (`measures.other_measure`)."""
    reversed_link: tuple[str, str] | None = None
    """(the claim's cause, its effect) when a source gives the effect as the cause
    ("Because B, A" where it says "B because A": `causes.reversed_link`)."""

    @property
    def disagrees(self) -> bool:
        """A number, negation, direction, opposite, swap, superlative, comparison or quote.

        So does a name or value of code that differs, a goal or a measure of another thing
        (`other_goal`, `other_measure`), and a whole clause of the claim that has no word in
        the evidence (`ungrounded`).

        Missing proper names weigh in the score but do not veto: the name detector is a
        capitalisation rule, and as a veto it cost 1.4 points of balanced accuracy on the
        tuning splits (typos, capitalised common words).
        """
        return bool(
            self.missing_numbers
            or self.negation_mismatch
            or self.direction_mismatch
            or self.opposite
            or self.swapped
            or self.missing_superlatives
            or self.unstated_comparison
            or self.missing_identifiers
            or self.misattributed
            or self.ungrounded
            or self.code_values
            or self.misquoted
            or self.other_goal
            or self.other_measure
            or self.reversed_link
        )


@lru_cache(maxsize=1024)
def superlatives(text: str) -> frozenset[str]:
    """The superlatives of `text`, lower case: "the largest city" gives {"largest"}."""
    found = (
        (match.group(1) or match.group(2)).lower().replace(" ", "-")
        for match in _SUPERLATIVE.finditer(text)
    )
    return frozenset(word for word in found if word not in _NOT_SUPERLATIVE)


def _superlatives_missing(
    claim: str, best: Sequence[Sentence], evidence: Evidence, shown: Sequence[str]
) -> tuple[str, ...]:
    """The claim's superlatives the evidence never states.

    "The best Olympic gymnast of all time is X" against a source calling X a three-time
    world champion: both verifiers pass the rest. A superlative counts as stated when the
    anchor sentence (the one stating most of the claim) holds any superlative ("the
    greatest" for "the best"; another sentence's "the most dominant games ever" says
    nothing of X) or the cited passages hold the claim's own word. Fired on 7 unsupported
    and 0 supported claims of the tuning splits (WiCE dev, SciFact train, HaluEval 0-249).
    """
    wanted = superlatives(claim)
    if wanted and any(bound_restated(claim, text_of(evidence, s)) for s in best):
        wanted -= BOUND_WORDS
    if not wanted:
        return ()
    if best and superlatives(text_of(evidence, best[0])):
        return ()
    passages = " ".join(text.lower() for text in shown).replace("-", " ")
    return tuple(
        sorted(
            word
            for word in wanted
            if not re.search(rf"\b{re.escape(word.replace('-', ' '))}\b", passages)
        )
    )


def _identifiers_missing(claim: str, shown: Sequence[str], context: Context) -> tuple[str, ...]:
    """The code identifiers of the claim that neither the passages nor their titles hold.

    A claim about `httpx.HTTPTransport` is not supported by a passage about `httpx.Limits`
    that happens to hold its other words and its number (the embedded model's "The default
    number of connection retries of `httpx.HTTPTransport` is 20", from the resource limits
    page). Found anywhere in the passages' text (any case, as part of a longer name too:
    `AsyncHTTPTransport` holds it); prose claims name no identifiers and are never checked.
    Where the sources mark their code, a name the claim calls (`cancel()`) or writes as an
    attribute (`trio.timeout`) must be code there too (`as_code`), not only a word. A
    dotted name whose qualifier the passages give another attribute only
    (`identifiers.other_attributes`: `logging.INFO` against `logging.NOTSET`) is missing
    too, though its last part stands inside a longer name (`set_exc_info`).
    """
    wanted = identifiers(claim)
    if not wanted:
        return ()
    written = " ".join(shown) + " " + context.text
    text = written.lower()
    missing = {
        name
        for name in wanted
        if (name not in text if name[0] != "-" else not written_option(name, written))
    }
    missing.update(
        dotted
        for dotted in other_attributes(claim, text)
        if dotted.rpartition(".")[2].lower() not in missing
    )
    if marks_code(text):  # a source that marks its code (PDF, plain text seldom do)
        missing.update(
            f"{name}()" for name in called_as(claim) - missing if not as_code(name, text)
        )
        missing.update(
            dotted
            for dotted, name in attributes(claim)
            if name not in missing and not as_code(name, text) and not as_key(name, text)
        )
    return tuple(sorted(missing))


def _negation_differs(
    claim: str, wanted: Sequence[str], negated: bool, best: Sequence[Sentence], evidence: Evidence
) -> bool:
    """Whether negation disagrees, decided only when sure.

    A negated claim disagrees when the best sentence for its negated clause has no negation
    (a claim may join two sentences, its "no limits" stated by the second), nor does any
    sentence stating as much of that clause (among the anchor and the best others; any
    sentence of the passages stating more of it than they do: Flask's "Logs for each request
    aren't show in the terminal" below the lines stating the rest; and when code names more
    of it than the prose does, the prose stating most of it too: Jinja's "a macro in a child
    template does not override a macro in a parent template" above the example whose
    `child.txt` and `layout.txt` name more of "defining foo in child.txt doesn't override
    foo from layout.txt"), nor names the bound the
    claim denies going past ("cannot have more than" against "maximum":
    `comparisons.bound_denied`), nor denies it without a negation word in the clause stating
    it (`_denied`; of the stating sentences, those naming another name only and none of the
    claim's are not read when one names the claim's: `_of_the_named`), nor does any sentence
    of the passages negate what the claim's negation bears on (`_denied_alike`), unless a
    flag off by default states what it denies by default ("By default StaticFiles … doesn't
    follow symbolic links" against "`follow_symlink` - … should be followed. Defaults to
    `False`.": `flag_default_backs`, which the flag's line read as asserting it, by
    `clause_denied`, does not overrule); a plain claim when the clause of the anchor
    sentence that states it is negated; any claim when one of its clauses is stated the
    other way (`compound.clause_denied`: "… because the flask run command can read it early"
    against "It can't be read early by the ``flask run`` command"). A negation elsewhere in
    the sentence ("... or `None` for no limits") neither contradicts a plain claim nor backs
    a negated one, so it decides nothing. A plain claim opening with a purpose clause ("To
    enable HTTP/2, install ...") is checked on the sentences that best state what follows
    the clause: "HTTP/2 is not enabled by default" denies no install; of those stating as
    much, every one must negate it (`_negates`). A sentence setting a name the claim sets to
    another value speaks of another case and is not read (`codevalues.sets_otherwise`).
    """
    best = [s for s in best if not sets_otherwise(claim, text_of(evidence, s))]
    if not best or privative_only(claim):
        return False
    backed = negated and flag_default_backs(claim, evidence.passages)
    if clause_denied(claim, evidence) and not backed:
        return True
    if negated:
        scope = negated_scope(claim)
        stating = _stating(scope, best, evidence.sentences)
        prose = [s for s in best if is_prose(evidence, s)]
        if prose and len(prose) < len(best):  # code names more of it: the prose may deny
            others = [s for s in evidence.sentences if is_prose(evidence, s)]
            stating += [s for s in _stating(scope, prose, others) if s not in stating]
        stating = _of_the_named(claim, stating, evidence)
        if not any(_denied(claim, scope, sentence, evidence) for sentence in stating):
            alike = _denied_alike(claim, scope, stating, evidence) or negated_alike(claim, evidence)
            return not backed and not alike
        contrast = _CONTRAST.search(claim)  # "A depends on X, not on Y": "A … X" is plain
        texts = [text_of(evidence, sentence) for sentence in best]
        return contrast is not None and contrast_denied(claim, contrast, texts)
    tops = [best[0]]
    asserted = asserted_terms(claim)
    if asserted:
        wanted = [t for t in wanted if t in asserted]
        most = max(len(asserted & sentence.terms) for sentence in best)
        tops = [sentence for sentence in best if len(asserted & sentence.terms) == most]
    return all(_negates(claim, wanted, sentence, evidence) for sentence in tops)


def _stating(
    scope: frozenset[str], best: Sequence[Sentence], sentences: Sequence[Sentence]
) -> list[Sentence]:
    """The sentences of `best` holding most of `scope`, or of `sentences` if one holds more."""
    most = max(len(scope & sentence.terms) for sentence in best)
    beyond = max(len(scope & sentence.terms) for sentence in sentences)
    if beyond > most:
        return [s for s in sentences if len(scope & s.terms) == beyond]
    return [sentence for sentence in best if len(scope & sentence.terms) == most]


def _of_the_named(claim: str, stating: list[Sentence], evidence: Evidence) -> list[Sentence]:
    """The sentences of `stating` that speak of what the claim names, when some do.

    A sentence naming only others ("In Django, methods are called implicitly, without
    parentheses") states nothing of "In Jinja, parentheses are not required for method
    calls" where another ("In Jinja, using parentheses is required for calls") names
    Jinja. A sentence naming nothing is kept: most sources name their subject once.
    """
    names = set(claim_names(claim))
    if not names or len(stating) < 2 or all(names.isdisjoint(s.terms) for s in stating):
        return stating
    return [
        s for s in stating if not names.isdisjoint(s.terms) or not claim_names(text_of(evidence, s))
    ]


def _denied_alike(
    claim: str, scope: frozenset[str], stating: Sequence[Sentence], evidence: Evidence
) -> bool:
    """Whether a sentence of the passages negates a term the negated claim's negation does.

    Both negations bear on it (`_bears_on`), and the sentence holds `_ALIKE_TERMS` terms of
    the claim's negated clause `scope`: WTForms' "Field names may not begin with
    "validate"" backs "field names must be case-sensitive Python identifiers not starting
    with an underscore or 'validate'", which the sentence stating more of that clause
    ("Field names can be any valid python identifier, with the following restrictions")
    does not deny. It must negate as many of the terms the claim negates as any of the
    `stating` sentences holds plainly: "Excess gestational weight gain is not associated
    with obesity-related pregnancy outcomes", a right SciFact claim with a negation added,
    is not backed by "there were no significant differences in birth weight" where the
    abstract's conclusion states "improved pregnancy outcomes".
    """
    denied = scope & _governed_terms(claim)
    if not denied:
        return False
    stated = max(len(denied & sentence.terms) for sentence in stating)
    return any(
        sentence.negated
        and len(scope & sentence.terms) >= _ALIKE_TERMS
        and len(denied & _governed_terms(text_of(evidence, sentence))) >= max(stated, 1)
        for sentence in evidence.sentences
    )


_ALIKE_TERMS = 3
"""How many terms of a negated claim's clause a sentence negating what it negates must hold
(`_denied_alike`): with two, right SciFact claims with a negation added passed on an
abstract's other denials (two of the 198 changed-detail tuning claims more), and
Werkzeug's "The debugger must never be used on production machines" backed "… it must
never run in production"."""


def _governed_terms(text: str) -> frozenset[str]:
    """The terms of the words a negation of `text` bears on (`_CLAUSE_WORDS` of its clause)."""
    return frozenset(
        canonical(t) for word in governed_words(text, _CLAUSE_WORDS) for t in terms(word)
    )


def _denied(claim: str, scope: frozenset[str], sentence: Sentence, evidence: Evidence) -> bool:
    """Whether `sentence` denies what a negated claim's clause `scope` states, as it does.

    Read in the sentence's clauses stating most of the scope (`negation.stating_clauses`):
    a denial in another clause backs nothing. Jinja's "Currently it is only used to enable
    and disable automatic escaping, but it can be used by extensions as well" does not back
    "extensions cannot make use of it"; its "disable" stands in another clause. A message
    in inline code (`_MESSAGE`) denies as prose does.
    """
    written = text_of(evidence, sentence)
    blanked = privatives_shared(claim, written)  # its "without a deprecation period" is ours
    text = written if blanked is None else blanked
    return (
        (sentence.negated and blanked is None)
        or any(denies(clause, claim) for clause in stating_clauses(scope, text))
        or bound_denied(claim, text)
        or any(_MESSAGE.fullmatch(span) and negation_cues(span) for span in code_spans(text))
    )


_MESSAGE = re.compile(r"[A-Za-z][\w'’,.%-]*(?: [\w'’,.%:-]+){3,}")
"""Inline code that is a message in words ("`FAIL Required test coverage of 100% not
reached.`"): its "not" denies as the prose's would."""


_CONTRAST = re.compile(r",\s*+(?:and\s++|but\s++)?not\s++(?!only\b)")
"""A claim's last clause setting what it says against what it does not ("…, not on peewee
handling the dependent rows itself"): the clause before it asserts, and is read as a plain
claim is. The embedded model wrote "`delete_instance(recursive=True)` depends on the foreign
keys being declared with ON DELETE CASCADE, not on peewee handling the dependent rows
itself" over peewee's "it does not rely on ``ON DELETE CASCADE``", and, read as a denial
the source backs, both verifiers had passed it."""


def _negates(claim: str, wanted: Sequence[str], sentence: Sentence, evidence: Evidence) -> bool:
    """Whether `sentence`, stating what the plain `claim` asserts, negates it.

    The clause of `sentence` that states the claim's `wanted` terms decides
    (`_negation_differs`). Each sentence stating as much of the claim is read: urllib3's
    "the HTTP connection will be released back into the pool without manual intervention"
    (with the default `preload_content=True`) and, two sentences on, "you need to manually
    release the HTTP connection back to the connection pool" state as much of "you can
    manually release the HTTP connection back to the connection pool"; the first alone had
    vetoed it. A negation bearing on no term the claim states denies none of it
    (`_bears_on`): "most adult tissue macrophages originate during embryonic development
    and not from circulating monocytes" does not deny that they are seeded before birth.
    """
    text = text_of(evidence, sentence)
    return (
        sentence.negated
        and negated_for(wanted, text)
        and not bound_restated(claim, text)
        and not denies(claim, text)
        and not otherwise_only(wanted, text)
        and not messages_only(wanted, text)
        and _bears_on(wanted, text)
    )


def _bears_on(wanted: Sequence[str], text: str) -> bool:
    """Whether a negation of `text` bears on a term the claim states (`wanted`).

    Read on the rest of the negation's clause, up to `_CLAUSE_WORDS` words: "you must
    remove those earlier configuration changes as they are no longer required" denies
    nothing of "you must remove those earlier changes"; "… was not associated with an
    increased risk of serious cardiovascular events" denies "… increase the risk of serious
    cardiovascular events".
    """
    return not _governed_terms(text).isdisjoint(wanted)


_CLAUSE_WORDS = 12
"""How far into its clause a source's negation is read for a term the claim states
(`_bears_on`): a clause's rest is seldom longer, and a long one costs no more."""


_FENCED = re.compile(r"```.*?(?:```|\Z)", re.S)
"""A fenced code block: its values are an example's, never what the sentence asserts."""


def _opposite(
    claim: str, negated: bool, best: Sequence[Sentence], stating: Sequence[str]
) -> tuple[tuple[tuple[str, str], ...], bool]:
    """The claim's word a stating sentence contradicts, and whether negation agrees.

    The word counts when both are negated alike; a negation on one side only that the
    anchor's opposite word restates ("non-reusable" against "not reusable", "not enabled"
    against "disabled") agrees, and the second value says so. A further stating sentence
    (a claim may join two facts) contradicts it when the two words share two neighbours,
    not one, and never by the values of its fenced code (an example's `disabled: false`
    is no statement that a plugin is enabled); both contradictory words (`opposed`) and
    converse words in the same order (`reversed_order`) count.
    """
    for index, sentence in enumerate(best):
        others = [text for at, text in enumerate(stating) if at != index]
        prose = stating[index] if index == 0 else _FENCED.sub(" ", stating[index])
        found = opposed(claim, prose, others, shared=1 if index == 0 else 2)
        if found is None:
            found = reversed_order(claim, prose, others)
        if found is None:
            continue
        if sentence.negated == negated:
            return (found,), False
        negating, word = (claim, found[0]) if negated else (stating[index], found[1])
        if not negates_word(negating, word):
            return (found,), False  # the negation bears on another word
        if index == 0:
            return (), True
    return (), False


def _opposite_elsewhere(
    claim: str, negated: bool, best: Sequence[Sentence], evidence: Evidence
) -> tuple[tuple[str, str], ...]:
    """The claim's word a sentence of the passages outside `best` contradicts.

    A claim joining two facts may have the sentence stating one of them crowded out of
    `best` by longer ones stating the rest: "…, and the event-based watchdog, which is much
    slower than stat" against Werkzeug's list item "The watchdog backend … is much faster
    than stat", below three sentences naming the two backends. Read as a further stating
    sentence is (two shared neighbours; negated alike; no fenced code), and only when no
    passage holds the claim's own word (`opposed`) or relates the claim's sides its way
    (`reversed_order`). Only sentences holding a word that could contradict the claim
    (`contradicting_words`) are read, the first `_ELSEWHERE` of them; passages holding
    none (their words are remembered: `opposites.words`) are passed over whole.
    """
    wanted = contradicting_words(claim)
    if not wanted:
        return ()
    holding = {at for at, passage in enumerate(evidence.passages) if words(passage) & wanted}
    if not holding:
        return ()
    read = {id(sentence) for sentence in best}
    candidates = (
        text_of(evidence, sentence)
        for sentence in evidence.sentences
        if sentence.passage in holding and id(sentence) not in read and sentence.negated == negated
    )
    passages = evidence.passages
    for text in itertools.islice((t for t in candidates if words(t) & wanted), _ELSEWHERE):
        prose = _FENCED.sub(" ", text)
        found = opposed(claim, prose, passages, shared=2) or reversed_order(claim, prose, passages)
        if found is not None:
            return (found,)
    return ()


_ELSEWHERE = 16
"""How many sentences outside `best` holding a contradicting word are read
(`_opposite_elsewhere`): a page may hold thousands."""


def stated_otherwise(claim: str, passages: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """What `passages` state otherwise outright, whatever else they hold (see `Alignment`).

    A yes-or-no table cell ("`sync`: HTTP/2 Support: No"), a measure's unit ("milliseconds"
    against "(in seconds, …)"), a flag's default ("by default" against "Defaults to
    `False`"): (the claim's word, the passages'), each at most once.
    """
    celled = (denied_in_table(claim, passage) for passage in passages)
    cell = next(filter(None, celled), None)
    unit = other_unit(claim, passages)
    flag = flag_default_differs(claim, passages)
    return tuple(filter(None, (cell, unit, flag)))


def _chosen_otherwise(
    claim: str, plain: Iterable[str], shown: Sequence[str], stating: Sequence[str]
) -> tuple[tuple[str, str], ...]:
    """What the claim chooses that the passages turn down or choose otherwise.

    "replaces rather than merges" against a source's "merged" (`swaps.rejected_stated`,
    over the `plain` stating sentences), `os.getcwd` against "mymodule.getcwd rather than
    os.getcwd" (`swaps.rejected_chosen`), "only the query location" against "only the json
    location" (`exclusive.only_other`).
    """
    found = []
    if kept := rejected_stated(claim, plain, shown):
        found.append(kept)
    if chosen := next(filter(None, (rejected_chosen(claim, s) for s in stating)), None):
        found.append((chosen[0], f"{chosen[1]} rather than {chosen[0]}"))
    if singled := only_other(claim, shown):
        found.append(singled)
    return tuple(found)


def align(
    claim: str,
    evidence: Evidence,
    *,
    context: Context = NO_CONTEXT,
) -> Alignment:
    """Align `claim` with the sentences of `evidence`.

    Terms, names and numbers of the claim that no sentence holds but the `context` does are
    given: left out of what the sentences must cover.
    """
    coverage = cover(claim, evidence, context)
    wanted, negated, best = coverage.wanted, coverage.negated, coverage.best
    sentences, shown = evidence.sentences, list(evidence.passages)
    negation_mismatch = _negation_differs(claim, wanted, negated, best, evidence)
    missing_superlatives = _superlatives_missing(claim, best, evidence, shown)
    missing_identifiers = _identifiers_missing(claim, shown, context)
    misnamed = misattributed(claim, shown)
    if sibling := misnamed_sibling(claim, shown):  # `trylast` for what runs first
        misnamed = (*misnamed, sibling)
    terms_stated = evidence.vocabulary | context.terms
    ungrounded = ungrounded_clauses(claim, terms_stated, coverage.grounding)
    stating = [text_of(evidence, s) for s in best]
    if stating and (elsewhere := code_elsewhere(claim, stating[0], shown)):
        misnamed = (*misnamed, elsewhere)  # `reload_templates` where it says `reload_assets`
    replaced = (name_replaced(claim, text, (s.terms for s in sentences)) for text in stating)
    if renamed := next(filter(None, replaced), None):
        misnamed = (*misnamed, renamed)  # "the Broncos practice squad" where it says "Falcons"
    if chosen_other := alternative_chosen(claim, evidence):
        misnamed = (*misnamed, chosen_other)  # "A or B? B …" where the passages say it of A
    opposite, restated = _opposite(claim, negated, best, stating)
    if not opposite and not restated:
        opposite = _opposite_elsewhere(claim, negated, best, evidence)
    crossed = None
    if stating:
        said = (text_of(evidence, sentence) for sentence in sentences)
        crossed = swapped(claim, stating[0]) or relation_reversed(claim, stating[0], said)
    crossed = (
        crossed
        or sequence_reversed(claim, stating)
        or next(
            filter(
                None,
                (
                    preferred_reversed(claim, sentence)
                    or order_reversed(claim, sentence)
                    or span_reversed(claim, sentence)
                    or arguments_exchanged(
                        claim, sentence, (text_of(evidence, other) for other in sentences)
                    )
                    for sentence in stating
                ),
            ),
            None,
        )
    )
    link = None if crossed else reversed_link(claim, shown)  # "Because B, A" of "A because B"
    plain = (text for sentence, text in zip(best, stating, strict=True) if not sentence.negated)
    opposite = (*opposite, *_chosen_otherwise(claim, plain, shown, stating))
    outright = stated_otherwise(claim, shown)
    if not negation_mismatch and (
        denied := pair_negated(claim, evidence)
        or subject_negated(claim, evidence)
        or unlike_attributed(claim, evidence)
        or denies_stated(claim, evidence)
    ):  # "supports Windows": "does not support Windows"; "Nested multipart is not supported"
        opposite = (*opposite, denied)
    if not coverage.direction_mismatch and (turned := effect_reversed(claim, evidence)):
        opposite = (*opposite, turned)  # "decreases telomere fragility": "increases …"
    moved = moved_across(claim, stating)  # "…, while `__int__` fails" of `__str__`
    opposite = (*opposite, *outright, *([moved] if moved else []))
    exchanged = (
        crossed_names(claim, shown)
        or partners_exchanged(claim, shown)
        or paired_otherwise(claim, shown)
        or parent_reversed(claim, shown)
    )
    negation_mismatch = negation_mismatch and not restated
    replied = replied_otherwise(claim, evidence.passages, context.text)  # "Currently, it does not."
    if replied is not None:
        negation_mismatch = replied
    features = {**coverage.features, DECIDED_BY_ALIGN: float(negation_mismatch)}
    alignment = Alignment(
        features=features,
        best=best,
        missing_terms=coverage.missing_terms,
        missing_numbers=coverage.missing_numbers,
        missing_names=coverage.missing_names,
        negation_mismatch=negation_mismatch,
        direction_mismatch=coverage.direction_mismatch,
        missing_superlatives=missing_superlatives,
        unstated_comparison=unstated_comparison(claim, shown) or "",
        missing_identifiers=missing_identifiers,
        misattributed=misnamed,
        ungrounded=ungrounded,
        opposite=opposite,
        stated_otherwise=bool(outright),
        swapped=tuple(pair for pair in (crossed, exchanged) if pair),
        code_values=differing_code(claim, shown, negated=negated) + rearranged_calls(claim, shown),
        misquoted=misquoted(claim, [*shown, context.text]),
        other_goal=goal_elsewhere(claim, shown),
        other_measure=other_measure(claim, shown),
        reversed_link=link.sides() if link else None,
    )
    written = _written(claim)
    return replace(
        alignment,
        reasons=_reasons(alignment, coverage.labelled, written),
        missing_words=tuple(dict.fromkeys(written.get(t, t) for t in coverage.missing_terms)),
    )


@lru_cache(maxsize=1024)
def _written(claim: str) -> dict[str, str]:
    """Each term of `claim` (and its canonical form) and the word it first stands for."""
    found: dict[str, str] = {}
    for match in re.finditer(r"\w+", claim):
        for term in terms(match.group()):
            found.setdefault(term, match.group())
            found.setdefault(canonical(term), match.group())
    return found


def _reasons(
    alignment: Alignment, labelled: Sequence[str], written: Mapping[str, str]
) -> tuple[str, ...]:
    """Why a claim's alignment disagrees with its evidence, as a reader reads it.

    Names as the claim writes them ("Acme", not the term "acm").
    """
    reasons = []
    if absent := [n for n in alignment.missing_numbers if n not in labelled]:
        reasons.append("number(s) not in the source: " + ", ".join(absent))
    if labelled:
        reasons.append(
            "number(s) the source writes only as a label (No. 21): " + ", ".join(labelled)
        )
    if alignment.missing_names:
        names = dict.fromkeys(written.get(n, n) for n in alignment.missing_names)
        reasons.append("name(s) not in the source: " + ", ".join(names))
    if alignment.negation_mismatch:
        reasons.append("negation differs from the source")
    if alignment.direction_mismatch:
        reasons.append("direction differs from the source (increase vs decrease)")
    reasons.extend(_crossed_reasons(alignment))
    if superlatives := alignment.missing_superlatives:
        reasons.append("superlative not in the source: " + ", ".join(superlatives))
    if comparison := alignment.unstated_comparison:
        reasons.append(f"a comparison the source does not make: {comparison!r}")
    if identifiers := alignment.missing_identifiers:
        reasons.append("identifier(s) not in the source: " + ", ".join(identifiers))
    reasons.extend(_code_reasons(alignment.code_values))
    reasons.extend(f"quoted text not in the source: {q!r}" for q in alignment.misquoted)
    for clause in alignment.ungrounded:
        reasons.append(f"nothing in the source states {clause!r}")
    return tuple(reasons)


def _crossed_reasons(alignment: Alignment) -> list[str]:
    """Why the claim states what the source states otherwise.

    Its opposite, the other way round, of another name, or for another goal.
    """
    reasons = [f"the source says {theirs!r}, not {mine!r}" for mine, theirs in alignment.opposite]
    reasons += [
        f"the source pairs {first!r} and {second!r} the other way round"
        for first, second in alignment.swapped
    ]
    reasons += [
        f"the source says this of {other}, not of {name}" for name, other in alignment.misattributed
    ]
    if alignment.other_goal:
        name, theirs = alignment.other_goal
        reasons.append(f"the source says {name!r} is used {theirs!r}")
    if alignment.reversed_link:
        cause, effect = alignment.reversed_link
        reasons.append(f"the source gives {effect!r} as the cause of {cause!r}, not the reverse")
    if alignment.other_measure:
        mine, theirs = alignment.other_measure
        reasons.append(f"the source gives the {theirs!r}, not the {mine!r}")
    return reasons


def _code_reasons(code: Sequence[tuple[str, str]]) -> list[str]:
    """Why code of the claim disagrees: the source's setting, or an operator it lacks."""
    return [
        f"the source writes {theirs!r}, not {mine!r}"
        if theirs
        else f"{mine!r} is not in the source"
        for mine, theirs in code
    ]
