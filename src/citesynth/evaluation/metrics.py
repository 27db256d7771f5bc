"""The measures `citesynth eval` reports, as plain functions over plain values.

Answer text is compared after SQuAD normalisation (lower case, no punctuation, no articles,
single spaces) with citation markers removed. Every function returns `None` when its measure
does not apply (no gold answer, no unanswerable question, ...): a figure is never invented.
"""

from __future__ import annotations

import math
import re
import statistics
import string
from collections import Counter
from collections.abc import Iterable, Sequence

_MARKERS = re.compile(r"\[\d+(?:\s*[-–,]\s*\d+)*\]")
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = str.maketrans("", "", string.punctuation + "‘’“”–—")


def normalise(text: str) -> str:
    """SQuAD answer normalisation, after removing citation markers."""
    lowered = _MARKERS.sub(" ", text).lower().translate(_PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", lowered).split())


def usable(gold: Sequence[str]) -> list[str]:
    """The gold answers that say something once normalised ("." or "" say nothing)."""
    return [g for g in gold if normalise(g)]


def exact_match(answer: str, gold: Sequence[str]) -> float | None:
    """1.0 when the normalised answer equals a normalised gold answer."""
    gold = usable(gold)
    if not gold:
        return None
    mine = normalise(answer)
    return float(any(mine == normalise(g) for g in gold))


def token_f1(answer: str, gold: Sequence[str]) -> float | None:
    """The best token F1 of the answer against any gold answer."""
    gold = usable(gold)
    if not gold:
        return None
    mine = normalise(answer).split()
    return max((_f1(mine, normalise(g).split()) for g in gold), default=0.0)


def _f1(mine: list[str], theirs: list[str]) -> float:
    common = sum((Counter(mine) & Counter(theirs)).values())
    if not common:
        return 0.0
    precision, recall = common / len(mine), common / len(theirs)
    return 2 * precision * recall / (precision + recall)


def contains(answer: str, gold: Sequence[str]) -> float | None:
    """1.0 when a normalised gold answer appears, as whole words, in the normalised answer."""
    gold = usable(gold)
    if not gold:
        return None
    mine = f" {normalise(answer)} "
    return float(any(f" {normalise(g)} " in mine for g in gold))


def verbatim(answer: str, gold: Sequence[str]) -> bool:
    """Whether a gold answer appears as written in the answer, case aside.

    SQuAD normalisation deletes punctuation, which glues a code answer to what qualifies
    it: "`structlog.stdlib.ProcessorFormatter`" normalises to one token that the gold
    "ProcessorFormatter" never matches, nor "`TestClient(app, raise_server_exceptions=False)`"
    the gold "raise_server_exceptions". Read as written, a gold answer counts when it is
    not inside a longer word ("dump" is not found in "dumps"); a version after its "v"
    ("pip v21.1" says the gold "21.1"). A gold answer of symbols only, which normalisation
    empties (the glob ".*"), counts when the answer writes it as code ("``.*``"): in prose
    its characters are punctuation.
    """
    lowered = _MARKERS.sub(" ", answer).lower()
    return any(re.search(_written_as(g.strip().lower()), lowered) is not None for g in judged(gold))


_PLACEHOLDER = frozenset(".,;:!?'\"-–— \t\n")
"""What a gold answer that says nothing is made of (ClapNQ's "." and "")."""


def judged(gold: Sequence[str]) -> list[str]:
    """The gold answers an answer can be judged by as written.

    The `usable` ones, and those of symbols only that are no placeholder (the glob ".*",
    not ".").
    """
    return [g for g in gold if normalise(g) or not set(g) <= _PLACEHOLDER]


def _written_as(gold: str) -> str:
    """The pattern finding `gold` as written in an answer (`verbatim`)."""
    if not normalise(gold):  # symbols only: as inline code
        return rf"`{re.escape(gold)}`"
    version = "v?" if gold[0].isdigit() else ""
    return rf"(?<!\w){version}{re.escape(gold)}(?!\w)"


def gold_recall(answer: str, gold: Sequence[str]) -> float | None:
    """The best share of a gold answer's tokens found in the answer (long-form answers)."""
    gold = usable(gold)
    if not gold:
        return None
    mine = Counter(normalise(answer).split())
    scores = [
        sum((mine & Counter(tokens)).values()) / len(tokens)
        for tokens in (normalise(g).split() for g in gold)
        if tokens
    ]
    return max(scores, default=0.0)


def ndcg_at(ranked: Sequence[str], relevant: dict[str, int], k: int = 10) -> float:
    """BEIR-style nDCG@k with graded gains and a log2 discount."""
    dcg = sum(relevant.get(doc, 0) / math.log2(i + 2) for i, doc in enumerate(ranked[:k]))
    ideal = sorted(relevant.values(), reverse=True)[:k]
    best = sum(gain / math.log2(i + 2) for i, gain in enumerate(ideal))
    return dcg / best if best else 0.0


def recall_at(ranked: Sequence[str], relevant: dict[str, int], k: int = 100) -> float:
    """Share of the relevant documents found in the top k."""
    wanted = {doc for doc, gain in relevant.items() if gain > 0}
    return len(wanted.intersection(ranked[:k])) / len(wanted) if wanted else 0.0


def abstention(pairs: Iterable[tuple[bool, bool]]) -> dict[str, float | None]:
    """Precision, recall and F1 of abstaining, "unanswerable" being the positive class.

    `pairs` are (abstained, answerable) per question. All three are None when no question
    is unanswerable; precision is None when nothing was abstained.
    """
    rows = list(pairs)
    positives = sum(1 for _, answerable in rows if not answerable)
    if not positives:
        return {"precision": None, "recall": None, "f1": None}
    abstained = sum(1 for did, _ in rows if did)
    hits = sum(1 for did, answerable in rows if did and not answerable)
    precision = hits / abstained if abstained else None
    recall = hits / positives
    f1 = 2 * precision * recall / (precision + recall) if precision and recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}


def mean(values: Iterable[float | None]) -> float | None:
    """The mean of the values that are not None (None when there are none)."""
    present = [v for v in values if v is not None]
    return statistics.fmean(present) if present else None


def ratio(part: int, whole: int) -> float | None:
    """`part / whole`, or None when `whole` is 0."""
    return part / whole if whole else None


def reliability(scored: Sequence[tuple[float, bool]], bins: int = 5) -> dict[str, object]:
    """Reliability curve and expected calibration error of confidences against outcomes."""
    curve: list[dict[str, float | int | str]] = []
    ece = 0.0
    for b in range(bins):
        low, high = b / bins, (b + 1) / bins
        inside = [(p, y) for p, y in scored if low <= p < high or (b == bins - 1 and p >= 1.0)]
        if not inside:
            continue
        confidence = statistics.fmean(p for p, _ in inside)
        accuracy = statistics.fmean(float(y) for _, y in inside)
        ece += len(inside) / len(scored) * abs(confidence - accuracy)
        curve.append(
            {
                "bin": f"{low:.1f}-{high:.1f}",
                "n": len(inside),
                "mean_confidence": round(confidence, 3),
                "accuracy": round(accuracy, 3),
            }
        )
    return {"ece": round(ece, 4) if scored else None, "curve": curve, "answers": len(scored)}
