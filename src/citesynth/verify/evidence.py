"""What the trained verifier reads for a claim: a short evidence text from the cited passages.

The cross-encoder reads at most about a hundred words of evidence beside the claim, so the
lexical alignment (`align.py`) picks them: its best sentences (the anchor and up to two that
cover what the anchor lacks), in document order, then their neighbours while the word
budget lasts (a pronoun's antecedent is often the sentence before). Evidence that fits the
budget whole is read whole. Training (`benchmarks/train_crossencoder.py`) builds its pairs
with this same function, so the model is trained on what it will read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citesynth.verify.align import Evidence, Sentence, align, analyse

BUDGET = 90
"""Evidence words the cross-encoder reads beside a claim (about 128 tokens with the claim)."""


def _words(text: str) -> int:
    return len(text.split())


_HEADING = re.compile(r"(?m)^[ \t]*#{1,6}[ \t]+")


def unmarked(text: str) -> str:
    """`text` without Markdown heading marks: a heading's words count as context."""
    return _HEADING.sub("", text)


def _clean(text: str) -> str:
    """One line; Markdown heading marks dropped (the heading's words stay, as context)."""
    return " ".join(unmarked(text).split())


def evidence_text(claim: str, passages: Sequence[str], *, budget: int = BUDGET) -> str:
    """The evidence the verifier reads for `claim` against `passages` (see the module doc)."""
    texts = [p for p in passages if p.strip()]
    whole = _clean("\n".join(texts))
    if _words(whole) <= budget:
        return whole
    evidence = analyse(texts)
    return select(claim, evidence, budget=budget)


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
    pieces: list[str] = []
    previous = -2
    for index in chosen:
        if pieces and index != previous + 1:
            pieces.append("…")
        pieces.append(_clean(_text(evidence, evidence.sentences[index])))
        previous = index
    return " ".join(pieces)


def _text(evidence: Evidence, sentence: Sentence) -> str:
    return evidence.passages[sentence.passage][sentence.start : sentence.end]
