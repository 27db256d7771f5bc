"""What the trained verifier reads for a claim: a short evidence text from the cited passages.

The cross-encoder reads a limited number of words of evidence beside the claim (`budget`).
Evidence that fits the budget whole is read whole; otherwise its sentences are chosen:

- by the lexical alignment (`align.py`) alone: its best sentences (the anchor and up to
  two, more for a long claim, that cover what the anchor lacks), then their neighbours
  while the budget lasts (a pronoun's antecedent is often the sentence before);
- or, given a `similarity` (claim against sentences, e.g. the packaged MiniLM's cosine),
  by that similarity with a bonus for the lexical alignment's best sentences, then the
  neighbours. Paraphrased claims share few words with their support: on the tuning splits
  the lexical choice of 90 words held a SciFact rationale sentence for 69 % of the claims,
  this one with 160 words for 96 % (WiCE, a whole supporting set: 52 % and 67 %).

Either way the chosen sentences are read in document order, gaps marked "…", after the
passages' titles and headings (`about`) when those state part of the claim that the
passages leave unsaid ("Last Tango in Halifax: … Filming took place at Holdsworth House"),
or a name of it that they state only in sentences the budget left out ("Click" in a
chunk's opening, not in the sentence that states the claim), within the same budget. Training
(`benchmarks/train_crossencoder.py`) builds its pairs with this same function, so the
model is trained on what it will read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from citesynth.ingest.comments import code_comments
from citesynth.ingest.markdown import rendered_markup
from citesynth.ingest.rst import markup_blanked
from citesynth.ingest.sentences import prose_sentences
from citesynth.ingest.titles import adornments
from citesynth.verify.align import align
from citesynth.verify.analysed import Evidence, Sentence, analyse, context_of
from citesynth.verify.coverage import given, named

BUDGET = 90
"""Evidence words read beside a claim when the weights do not say (128 tokens with a claim)."""
LEXICAL_BONUS = 0.3
"""Added to the similarity of the lexical alignment's best sentences (chosen on the tuning
splits: rationale recall 0.957 with it against 0.952 without on SciFact train, 0.67 against
0.54 on WiCE dev)."""

Similarity = Callable[[str, Sequence[str]], Sequence[float]]
"""Scores a claim against sentences (higher: closer in meaning), one score per sentence."""


def _words(text: str) -> int:
    return len(text.split())


_HEADING = re.compile(r"(?m)^[ \t]*#{1,6}[ \t]+")


def unmarked(text: str) -> str:
    """`text` without heading marks: a heading's words count as context.

    The marks are Markdown's `#` and the `-----` under a reStructuredText or setext title.
    """
    pieces, position = [], 0
    for start, end in adornments(text):
        pieces.append(text[position:start])
        position = end
    return _HEADING.sub("", "".join(pieces) + text[position:])


def _clean(text: str) -> str:
    """One line; Markdown heading marks dropped (the heading's words stay, as context)."""
    return " ".join(unmarked(text).split())


def evidence_text(
    claim: str,
    passages: Sequence[str],
    *,
    budget: int = BUDGET,
    similarity: Similarity | None = None,
    about: str = "",
) -> str:
    """The evidence the verifier reads for `claim` against `passages` (see the module doc)."""
    texts = [t for t in (_readable(p) for p in passages) if t.strip()]
    evidence = analyse(texts) if about.strip() else None
    context = context_of(about)
    led = evidence is not None and given(claim, evidence, context)
    body = _body(claim, texts, evidence, _led_budget(budget, about) if led else budget, similarity)
    if evidence is not None and not led and named(claim, body, context):
        led = True  # the passages name it only in sentences the budget left out
        body = _body(claim, texts, evidence, _led_budget(budget, about), similarity)
    return f"{_clean(about)}: {body}" if led else body


@lru_cache(maxsize=512)
def _readable(passage: str) -> str:
    """`passage` as the model reads it: as it is, or without its markup when it has no prose.

    A passage of titles and directives only (AnyIO's API page: "Task groups" over `..
    autofunction:: anyio.create_task_group`) states nothing, yet the cross-encoder read
    the names as support for how a task group cancels (0.58); its markup lines
    (`rst.markup_blanked`) are not read. Among prose they are, as in every calibration:
    blanked there too, near-threshold scores on Click's docs moved both ways (a right
    claim lost `.. currentmodule:: click` and fell to 0.37; a wrong one read the example
    after `.. click:example::` instead and rose to 0.56).
    """
    blanked = markup_blanked(passage)  # the passage itself when it holds no markup line
    if blanked == passage or prose_sentences(passage):
        return passage
    return blanked


def _led_budget(budget: int, about: str) -> int:
    """What is left of `budget` for the passages' sentences once `about` leads them."""
    return max(budget - _words(_clean(about)), budget // 2)


def _body(
    claim: str,
    texts: Sequence[str],
    evidence: Evidence | None,
    budget: int,
    similarity: Similarity | None,
) -> str:
    """The passages whole when they fit `budget`, else their sentences chosen for `claim`."""
    whole = _clean("\n".join(texts))
    if _words(whole) <= budget:
        return whole
    evidence = evidence or analyse(texts)
    if similarity is not None and evidence.sentences:
        return _by_similarity(claim, evidence, budget, similarity)
    return select(claim, evidence, budget=budget)


def _by_similarity(claim: str, evidence: Evidence, budget: int, similarity: Similarity) -> str:
    """The sentences closest to `claim` in meaning (lexical best ones favoured), in budget."""
    sentences = evidence.sentences
    texts = [_clean(_text(evidence, s)) for s in sentences]
    scores = list(similarity(claim, texts))
    lexical = {id(s) for s in align(claim, evidence).best}
    for index, sentence in enumerate(sentences):
        if id(sentence) in lexical:
            scores[index] += LEXICAL_BONUS
    ranked = sorted(range(len(sentences)), key=lambda i: -scores[i])
    chosen: list[int] = []
    used = 0
    for index in ranked:
        size = _words(texts[index])
        if chosen and used + size > budget:
            continue
        chosen.append(index)
        used += size
        if used >= budget:
            break
    anchor = ranked[0]
    for neighbour in (anchor - 1, anchor + 1):
        fits = (
            0 <= neighbour < len(sentences)
            and neighbour not in chosen
            and sentences[neighbour].passage == sentences[anchor].passage
            and used + _words(texts[neighbour]) <= budget
        )
        if fits:
            chosen.append(neighbour)
            used += _words(texts[neighbour])
    return _joined(sorted(chosen), dict(enumerate(texts)))


def _joined(chosen: Sequence[int], texts: Mapping[int, str]) -> str:
    """The chosen sentences in document order, "…" where sentences were skipped."""
    pieces: list[str] = []
    previous = -2
    for index in chosen:
        if pieces and index != previous + 1:
            pieces.append("…")
        pieces.append(texts[index])
        previous = index
    return " ".join(pieces)


def select(claim: str, evidence: Evidence, *, budget: int = BUDGET) -> str:
    """The best sentences of analysed `evidence` for `claim`, with neighbours, within `budget`."""
    alignment = align(claim, evidence)
    if not alignment.best:
        return _clean(" ".join(evidence.passages))[:2000]
    order = {id(s): i for i, s in enumerate(evidence.sentences)}
    chosen = sorted({order[id(s)] for s in alignment.best})
    used = sum(_words(_text(evidence, evidence.sentences[i])) for i in chosen)
    while used > budget and len(chosen) > 1:  # drop the weakest (last-added) best sentence
        weakest = order[id(alignment.best[len(chosen) - 1])]
        chosen.remove(weakest)
        used -= _words(_text(evidence, evidence.sentences[weakest]))
    anchor = order[id(alignment.best[0])]
    for neighbour in (anchor - 1, anchor + 1, chosen[0] - 1, chosen[-1] + 1):
        if 0 <= neighbour < len(evidence.sentences) and neighbour not in chosen:
            sentence = evidence.sentences[neighbour]
            if sentence.passage != evidence.sentences[anchor].passage:
                continue
            size = _words(_text(evidence, sentence))
            if used + size <= budget:
                chosen = sorted([*chosen, neighbour])
                used += size
    return _joined(chosen, {i: _clean(_text(evidence, evidence.sentences[i])) for i in chosen})


def _text(evidence: Evidence, sentence: Sentence) -> str:
    return evidence.passages[sentence.passage][sentence.start : sentence.end]


_PLAIN = re.compile(r"[^\w%$€£.,:/+-]+")
_BEFORE_STOP = re.compile(r" (?=[.,:])")
"""A space markup left before punctuation: "**z-scores**:" reads as "z-scores:"."""
_QUALIFYING = re.compile(
    r"\b(?:not|no|never|none|neither|nor|cannot|without|false|untrue|if|unless|whether|"
    r"when|only|until|except|claims?|claimed|rumou?red|alleged(?:ly)?)\b|n't\b",
    re.I,
)
"""Words before a quotation that change what it asserts ("It is not true that ...",
"If the flag is set, ...", "Some claimed that ...")."""


def _plain(text: str) -> str:
    """Lower case, markup and punctuation between words gone, trailing dots dropped."""
    rendered = unmarked(rendered_markup(text))
    spaced = " ".join(_PLAIN.sub(" ", rendered.lower()).split())
    return _BEFORE_STOP.sub("", spaced).strip(" .,:")


def comment_quoted(claim: str, passages: Sequence[str]) -> bool:
    """Whether `claim` (four words or more) is one whole code comment of `passages`.

    A comment of code (`ingest.comments`: inside a fence, or on a line indented two
    columns or more; never a heading or a line of prose) quoted whole says what the
    source's author wrote above the code it describes, word for word, its operators
    (`<`, `>=`, `!=`) too. The extractive writer quotes such captions
    (`synthesis.captions`); the lexical alignment, which reads a comment inside its code,
    had seen a "not" of structlog's two-line comment as a disagreement, and the model reads
    prose only.
    """
    wanted, _, (operators, _) = _quotable(claim)
    if not wanted:
        return False
    return any(
        _plain(comment.text) == wanted and _OPERATORS.findall(comment.text) == list(operators)
        for passage in passages
        for comment in code_comments(passage)
    )


_OPERATORS = re.compile(r"[<>=!]+")
_WRITTEN_NUMBER = re.compile(r"\d+(?:[.,:/]\d+)*")
"""A number as written ("1,000", "3.5", "10:30"): `_plain` reads its punctuation as a space."""


@lru_cache(maxsize=1024)
def _quotable(claim: str) -> tuple[str, str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """`claim` plain, its longest word, its operators and numbers ("" when under four words)."""
    wanted = _plain(claim)
    words = wanted.split()
    if len(words) < 4:
        return "", "", ((), ())
    return wanted, max(words, key=len), _marks(claim)


def _marks(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The operators and the numbers of `text`, as written."""
    return tuple(_OPERATORS.findall(text)), tuple(_WRITTEN_NUMBER.findall(text))


def quoted_whole(claim: str, passages: Sequence[str]) -> bool:
    """Whether `claim` is a whole code comment or a whole sentence of `passages`.

    Quoted word for word, it is support whatever the checks reading it against the rest
    of the page say; both verifiers read it alike.
    """
    return comment_quoted(claim, passages) or sentence_quoted(claim, passages)


def sentence_quoted(claim: str, passages: Sequence[str]) -> bool:
    """Whether `claim` (four words or more) is one whole sentence of `passages`, word for word.

    Its words in order, its numbers and operators as written; markup and the spacing of
    the page aside (`_plain`). Such a claim says what its source says, however the checks
    that read it against the rest of the passage read it: read against its own page, a
    prose sentence of the tuning documentation had been vetoed as two names crossed
    against other sentences of the page (trio's "the server needs ``send`` and
    ``receive_some`` to alternate in sequence, while the client needs them to run
    concurrently"), or as a contradiction of a sentence near it. The extractive writer
    quotes whole sentences.
    """
    wanted, longest, written = _quotable(claim)
    if not wanted or not any(longest in passage.lower() for passage in passages):
        return False  # read first: repair checks a claim against every source
    return any(
        text == wanted and _marks(raw) == written
        for passage in passages
        for raw, text in _plain_sentences(passage)
    )


@lru_cache(maxsize=512)
def _plain_sentences(passage: str) -> tuple[tuple[str, str], ...]:
    """Each sentence of `passage`, as written and plain (`_plain`).

    Read once for every claim checked against it, by `quoted` and `mostly_quoted` alike.
    """
    found = (passage[s.start : s.end] for s in analyse([passage]).sentences)
    return tuple((sentence, _plain(sentence)) for sentence in found)


def quoted(claim: str, passages: Sequence[str]) -> bool:
    """Whether `claim` is a quotation of one sentence of `passages` (or of its opening part).

    A claim of at least four words that appears word for word in one sentence, as its
    opening or as most of it, with nothing negating or qualifying it earlier in that
    sentence ("It is not true that ...", "If ..."), is entailed by it: no model is needed to
    say so.
    """
    wanted = _plain(claim)
    if len(wanted.split()) < 4:
        return False
    for passage in passages:
        for _, text in _plain_sentences(passage):
            where = text.find(wanted)
            if where < 0:
                continue
            after = text[where + len(wanted) : where + len(wanted) + 2]
            ends = not after[:1].isalnum() and not after[1:].isdigit()  # "1" is not "1,000"
            opens = where == 0 or (text[where - 1] == " " and len(wanted) >= 0.7 * len(text))
            if ends and opens and not _QUALIFYING.search(text[:where]):
                return True
    return False


def mostly_quoted(claim: str, passages: Sequence[str]) -> bool:
    """Whether `claim` quotes the rest of one sentence of `passages` after words of its own.

    "The optimizers built into lme4 are the Nelder-Mead simplex algorithm adapted from …
    (Powell 2009)." copies the end of "lme4 incorporates two built-in optimization choices,
    an implementation of the Nelder-Mead simplex algorithm adapted from … (Powell 2009).":
    the copied words run to the sentence's end and are most of the claim
    (`_QUOTED_SHARE`, `_QUOTED_WORDS` at least), nothing negates, qualifies or contrasts
    them earlier in the sentence ("…, while Python 3 is supported by …") nor opens another
    clause before them ("…; timeouts are enabled by default"), and every word of the
    claim's own opening that says anything is in that sentence, by its stem
    ("optimizers" for "optimization"). The trained model had read the claim as
    unsupported (0.19).
    """
    words = _plain(claim).split()
    if len(words) < _QUOTED_WORDS:
        return False
    for passage in passages:
        for raw, plain in _plain_sentences(passage):
            text = plain.split()
            copied = _copied_ending(words, text)
            if copied < max(_QUOTED_WORDS, _QUOTED_SHARE * len(words)):
                continue
            opening = words[: len(words) - copied]
            before = " ".join(text[: len(text) - copied])
            stems = {word[:_STEM] for word in text}
            if (
                not _QUALIFYING.search(before)
                and not _CONTRASTED.search(before)
                and not _another_clause(raw, copied)
                and all(word in _FILLER or word[:_STEM] in stems for word in opening)
            ):
                return True
    return False


def _another_clause(sentence: str, copied: int) -> bool:
    """Whether the last `copied` words of `sentence` follow a clause of their own.

    "Retries are disabled by default; timeouts are enabled by default": the words after
    the semicolon (or a colon, or a dash between spaces) say what another subject does.
    """
    boundary = max(sentence.rfind(mark) for mark in (";", ":", " – ", " — ", " - "))
    return boundary >= 0 and len(_plain(sentence[boundary:]).split()) >= copied


_CONTRASTED = re.compile(
    r"\b(?:while|whereas|unlike|but|however|although|though|instead|rather|versus|vs|"
    r"compared|contrast|other)\b"
)
"""Words before the copied run that set another subject against the claim's ("Python 2
is deprecated, while Python 3 is supported by …"; "the async client, unlike the sync
client, reuses …")."""


def _copied_ending(words: list[str], sentence: list[str]) -> int:
    """How many words `words` and `sentence` end with alike."""
    count = 0
    while count < min(len(words), len(sentence)) and words[-1 - count] == sentence[-1 - count]:
        count += 1
    return count


_QUOTED_WORDS = 8
_QUOTED_SHARE = 0.7
_STEM = 5
"""Letters two words share from their start to count as one ("optimizers", "optimization")."""
_FILLER = frozenset(
    "the a an is are was were be that which this these those it its of in into on for with by "
    "from to at as and or".split()
)
"""Words of a claim's own opening that say nothing a source must (its content words
decide: "built" and "lme4" of "built into lme4" are in "lme4 incorporates two built-in
…")."""
