"""The verifier contract: does this text support this claim, and where exactly?

    verdicts = await verifier.verify([Check(claim, (passage_a, passage_b))])
    verdicts[0].label     # "supported" | "partial" | "unsupported"
    verdicts[0].spans     # best supporting sentences: (passage index, char start, char end)

Every verifier (the default lexical one, an LLM judge, an NLI model) answers the same way,
so the answer pipeline, the repair step and the evaluation never know which one ran; the
answer records its `name`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from citesynth.analysis import without_consensus

Label = Literal["supported", "partial", "unsupported"]


@dataclass(frozen=True, slots=True)
class Check:
    """A claim and the passages it is checked against (together: the union supports it?)."""

    claim: str
    passages: tuple[str, ...]
    about: str = ""
    """What the passages' documents are about: their titles and section headings, when known.

    A chunk seldom repeats its subject ("Filming took place at Holdsworth House" in the
    article *Last Tango in Halifax*; "The default is 5 seconds" under "Timeouts"), and the
    writer is shown it beside the text. Its words and numbers count as stated for the claim
    (never as the supporting span); see `analysed.Context`.
    """
    antecedent: str = ""
    """The sentence a claim opening "This is because …" points back to, when the answer has
    one before it in its paragraph: the side of its link the claim does not write
    (`causes.unstated_link`)."""


@dataclass(frozen=True, slots=True)
class Passage:
    """A numbered source as verification sees it: its text and the document it is from."""

    number: int
    text: str
    document: str
    about: str = ""
    """The document's title and headings (what it is about), when known."""
    title: str = ""
    """The document's title alone, when known (`verify.conflicts` tells subjects apart by it)."""
    subject: str = ""
    """What the whole corpus is about ("Click"; `retrieve.subjects`), when it has subjects:
    read as the outermost title of every source."""


def about_of(title: str, headings: Sequence[str]) -> str:
    """A `Passage.about`: the document's title and the chunk's heading path, in order."""
    return " ".join((title, *headings))


def check_of(claim: str, passages: Sequence[Passage], antecedent: str = "") -> Check:
    """The check of `claim` against `passages` together, with what their documents are about.

    The corpus's subject comes first, then each document's title and headings. A claim that
    opens by saying several sources agree ("Multiple sources report that …") is checked for
    what it says they report (`without_consensus`).
    """
    told = [*(p.subject for p in passages), *(p.about for p in passages)]
    about = " ".join(dict.fromkeys(t.strip() for t in told if t.strip()))
    return Check(without_consensus(claim), tuple(p.text for p in passages), about, antecedent)


@dataclass(frozen=True, slots=True)
class Span:
    """A supporting span: `passages[passage][start:end]` of the check."""

    passage: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Verdict:
    """How well the passages support the claim: a score in 0..1, a label, and where."""

    score: float
    label: Label
    spans: tuple[Span, ...] = ()
    reasons: tuple[str, ...] = ()

    @property
    def supported(self) -> bool:
        """Whether the label is `supported`."""
        return self.label == "supported"


class Verifier(Protocol):
    """Checks claims against passages."""

    name: str

    async def verify(self, checks: Sequence[Check]) -> list[Verdict]:
        """One verdict per check, in order.

        Never raises for odd input: an empty claim or empty passages give `unsupported`.
        """
        ...


def with_reason(verdict: Verdict, reason: str, label: Label | None = None) -> Verdict:
    """`verdict` with `reason` added, its label changed to `label` when one is given."""
    said = verdict.label if label is None else label
    return Verdict(verdict.score, said, verdict.spans, (*verdict.reasons, reason))


class Holding:
    """A verifier wrapping another: its verdicts, each passed through `_held`.

    Subclasses set `wrapped` and `name` (the wrapped verifier's) and overrule some verdicts
    in `_held` (`synthesis.about.AboutChecked`, `causes.LinksChecked`,
    `synthesis.restated.RestatementChecked`); the rest pass as they are.
    """

    wrapped: Verifier
    name: str

    async def verify(self, checks: Sequence[Check]) -> list[Verdict]:
        """The wrapped verifier's verdicts, each as `_held` leaves it."""
        verdicts = await self.wrapped.verify(checks)
        return [self._held(check, verdict) for check, verdict in zip(checks, verdicts, strict=True)]

    def _held(self, check: Check, verdict: Verdict) -> Verdict:
        """`verdict` on `check`, overruled or as it is."""
        return verdict


def unwrapped(verifier: Verifier) -> Verifier:
    """The verifier a wrapper holds (its `wrapped` attribute), or `verifier` itself.

    A wrapper (a `Holding`) only overrules some
    verdicts; what kind of verifier decides the rest (`LexicalVerifier` or a trained one) is
    the innermost wrapped one's.
    """
    inner: Verifier = verifier
    for _ in range(_DEEPEST):
        wrapped = getattr(inner, "wrapped", None)
        if wrapped is None or wrapped is inner:
            break
        inner = wrapped
    return inner


def repair_bar(verifier: Verifier) -> float | None:
    """The score a source repair adds must reach under `verifier`, if it sets one.

    That is its innermost verifier's `repair_threshold` (a trained verifier's:
    `crossencoder.Meta.repair_threshold`); None when it has none and its `supported` label
    is the bar.
    """
    bar = getattr(unwrapped(verifier), "repair_threshold", None)
    return float(bar) if isinstance(bar, int | float) else None


_DEEPEST = 8
"""The most wrappers `unwrapped` looks through (a wrapper holding itself ends the search)."""
