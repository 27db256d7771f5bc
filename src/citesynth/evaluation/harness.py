"""Run question sets through citesynth and through a naive baseline, one record per question.

Two pipelines share the index, the questions and the measuring:

- `ours`: the engine as configured (hybrid retrieval, cross-references, evidence selection,
  multi-source mode, cleanup, attribution, verification and repair, the not-found gate).
- `naive`: BM25 top chunks, the plain "answer with citations" prompt (`naive:MODEL`), no
  multi-source mode, not-found gate, attribution or verification (markers are still
  resolved to the numbered sources and repeated sentences dropped). With the
  extractive writer, which has no model to prompt, the baseline writer is `naive:fake`: the
  lead sentence of the top chunk, cited.

Every final answer, of either pipeline, is then checked by the same verifier (and by a judge
model when one is given), so citation figures are measured the same way for both. Ours
has already used that verifier to repair its citations: for a figure that ours was not
tuned against, add a judge model.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from citesynth.answers import Answer, SourceRecord
from citesynth.engine import Engine
from citesynth.evaluation import metrics
from citesynth.evaluation.qa_data import EvalItem, EvalSet, GoldSource
from citesynth.synthesis.answerability import UNANSWERED
from citesynth.synthesis.declined import answered_from_sources, checked_away
from citesynth.synthesis.options import AskOverrides
from citesynth.synthesis.outcomes import NOT_RELEVANT
from citesynth.types import Chunk
from citesynth.verify import Verifier
from citesynth.verify.base import Passage, about_of
from citesynth.verify.review import Review, review

PIPELINES = ("ours", "naive")

NAIVE_OPTIONS = AskOverrides(
    mode="simple",
    require_citations=False,
    attribute=False,
    verify=False,
    repair=False,
    follow_references=False,
    not_found_below=0.0,
)


@dataclass(frozen=True, slots=True)
class RunOptions:
    """What to run: the pipelines, the writer model, retrieval depth, checkers."""

    pipelines: tuple[str, ...] = PIPELINES
    model: str = "extractive"
    k: int = 10
    """Retrieval depth for Recall@k (nDCG is always @10)."""
    verifier: Verifier | None = None
    judge: Verifier | None = None


@dataclass(frozen=True, slots=True)
class Ref:
    """What a retrieved or cited source is, for matching against gold sources."""

    record_id: str | None
    path: str
    start_line: int
    end_line: int
    text: str

    @classmethod
    def of_chunk(cls, chunk: Chunk) -> Ref:
        """The chunk's reference."""
        return cls(chunk.record_id, chunk.path, chunk.start_line, chunk.end_line, chunk.text)

    @classmethod
    def of_source(cls, source: SourceRecord) -> Ref:
        """An answer source's reference."""
        return cls(source.record_id, source.path, source.start_line, source.end_line, source.text)

    @property
    def document(self) -> str:
        """The record id, or else the path."""
        return self.record_id or self.path


def same_document(ref: Ref, gold: GoldSource) -> bool:
    """Whether `ref` is from the gold source's document (record id or path)."""
    if ref.record_id is not None:
        return ref.record_id == gold.source
    path, wanted = ref.path.replace("\\", "/"), gold.source.replace("\\", "/").removeprefix("./")
    return path == wanted or path.endswith(f"/{wanted}")


def covers(ref: Ref, gold: GoldSource) -> bool:
    """Whether `ref` holds the gold evidence: its document, lines and sentence."""
    if not same_document(ref, gold):
        return False
    if gold.lines and (ref.end_line < gold.lines[0] or ref.start_line > gold.lines[1]):
        return False
    return not gold.text or metrics.normalise(gold.text) in metrics.normalise(ref.text)


def ranked_documents(refs: Sequence[Ref], gold: Sequence[GoldSource]) -> list[str]:
    """Documents in rank order, named as the gold names them where they match."""
    named = [next((g.source for g in gold if same_document(r, g)), r.document) for r in refs]
    return list(dict.fromkeys(named))


def retrieval_figures(refs: Sequence[Ref], item: EvalItem, k: int) -> dict[str, float | None]:
    """Recall@k and nDCG@10 of retrieved `refs` against the item's gold sources."""
    if not item.gold:
        return {"retrieval_recall_at_k": None, "ndcg_at_10": None}
    relevant: dict[str, int] = {}
    for gold in item.gold:
        relevant[gold.source] = max(relevant.get(gold.source, 0), gold.grade)
    ranked = ranked_documents(refs, item.gold)
    return {
        "retrieval_recall_at_k": metrics.recall_at(ranked, relevant, k),
        "ndcg_at_10": metrics.ndcg_at(ranked, relevant, 10),
    }


def gold_evidence_recall(answer: Answer, item: EvalItem) -> float | None:
    """Share of the gold evidence that the answer's citations cover (None: no gold)."""
    if not item.answerable or not item.gold:
        return None
    cited_numbers = {citation.number for citation in answer.citations}
    cited = [Ref.of_source(s) for s in answer.sources if s.number in cited_numbers]
    return sum(any(covers(r, g) for r in cited) for g in item.gold) / len(item.gold)


def answered_right(text: str, gold: Sequence[str], *, abstained: bool) -> bool | None:
    """Whether an answerable question's answer `text` says a gold answer.

    At least half of one's tokens (`metrics.gold_recall`), or one as written
    (`metrics.verbatim`: code that normalisation glues to its qualifier, a version after its
    "v", a glob of symbols written as code). None when there is no gold answer to judge by.
    """
    recall = metrics.gold_recall(text, gold)
    if recall is None:  # no gold answer, or one of symbols only, judged as written
        written = bool(metrics.judged(gold))
        return (not abstained and metrics.verbatim(text, gold)) if written else None
    return not abstained and (recall >= 0.5 or metrics.verbatim(text, gold))


def answer_figures(answer: Answer, item: EvalItem) -> dict[str, Any]:
    """Correctness of one answer against the item's gold answers, and its abstention."""
    abstained = answer.not_found
    text = "" if abstained or answer.fallback is not None else answer.answer
    gold = item.answers if item.answerable else ()
    recall = metrics.gold_recall(text, gold)
    correct: bool | None = abstained  # unanswerable: right when it abstains
    if item.answerable:  # None when there is no gold answer to judge by
        correct = answered_right(text, gold, abstained=abstained)
    return {
        "abstained": abstained,
        "abstained_at": abstained_at(answer),
        "fallback": answer.fallback.reason if answer.fallback else None,
        "answer_exact": metrics.exact_match(text, gold),
        "answer_f1": metrics.token_f1(text, gold),
        "answer_contains": metrics.contains(text, gold),
        "answer_recall": recall,
        "correct": correct,
    }


def abstained_at(answer: Answer) -> str | None:
    """Which step answered "not found" (None: the answer is not a not-found).

    `retrieval`: no source was relevant enough; `gate`: the passages found do not answer
    the question (`synthesis.answerability`); `verification`: no claim the writer made is
    supported, so none is left, or none states what was asked (a number, or anything
    beyond the question: `synthesis.asked`, `synthesis.restated`); `writer`: the model
    itself said so.
    """
    if not answer.not_found:
        return None
    if any(w.startswith(NOT_RELEVANT) for w in answer.warnings):
        return "retrieval"
    if any(w.startswith(UNANSWERED) for w in answer.warnings):
        return "gate"
    return "verification" if checked_away(answer) else "writer"


def passages(answer: Answer, subject: str = "") -> list[Passage]:
    """The answer's numbered sources as the verifier sees them (under the corpus's subject)."""
    return [
        Passage(
            s.number,
            s.text,
            s.record_id or s.path,
            about_of(s.title, s.heading_path),
            s.title,
            subject,
        )
        for s in answer.sources
    ]


def claim_figures(found: Review | None, prefix: str = "") -> dict[str, int]:
    """Claim and citation counts of a review (zeros when the answer has no text)."""
    labels = [c.label for c in found.claims] if found else []
    return {
        f"{prefix}claims": len(labels),
        f"{prefix}supported": labels.count("supported"),
        f"{prefix}partial": labels.count("partial"),
        f"{prefix}unsupported": labels.count("unsupported"),
        f"{prefix}citations": sum(len(c.claim.citations) for c in found.claims) if found else 0,
        f"{prefix}precise": sum(len(c.precise) for c in found.claims) if found else 0,
    }


async def check(
    answer: Answer, verifier: Verifier | None, prefix: str = "", subject: str = ""
) -> dict[str, int]:
    """Verify the final answer as shown (no repair) and count its claims.

    The sources are read as the pipeline reads them, under what the corpus is about
    (`Engine.subjects`).
    """
    if verifier is None or answer.not_found or answer.fallback is not None:
        return claim_figures(None, prefix)
    found = await review(answer.answer, passages(answer, subject), verifier, repair=False)
    return claim_figures(found, prefix)


class Harness:
    """Runs one question set through the chosen pipelines on an open, indexed engine."""

    def __init__(self, engine: Engine, options: RunOptions) -> None:
        self.engine = engine
        self.options = options
        baseline = f"naive:{'fake' if options.model == 'extractive' else options.model}"
        # BM25 only, with the same time limit as ours.
        self.naive = engine.with_model(baseline, timeout=engine.writer.timeout).without_dense()

    def writer_name(self, pipeline: str) -> str:
        """The writer a pipeline answers with."""
        return self.naive.writer.name if pipeline == "naive" else self.engine.writer.name

    async def run(
        self, eval_set: EvalSet, progress: Callable[[int], None] = lambda n: None
    ) -> list[dict[str, Any]]:
        """One record per question and pipeline, in question order per pipeline."""
        records = []
        for pipeline in self.options.pipelines:
            for item in eval_set.items:
                try:
                    record = await self.question(item, pipeline, eval_set.synthesize)
                except Exception as error:  # one bad question must not lose the run
                    record = {
                        "id": item.id,
                        "pipeline": pipeline,
                        "question": item.question,
                        "answerable": item.answerable,
                        "error": f"{type(error).__name__}: {error}",
                    }
                records.append(record)
                progress(1)
        return records

    async def question(self, item: EvalItem, pipeline: str, synthesize: bool) -> dict[str, Any]:
        """The record of one question through one pipeline."""
        naive = pipeline == "naive"
        engine = self.naive if naive else self.engine
        started = time.perf_counter()
        # Figures are over documents, and a document may hold several of the top chunks:
        # take the whole candidate pool, so that nDCG@10 and Recall@k never depend on `k`.
        depth = max(self.options.k, engine.retrieval.depth)
        hits = await engine.search(item.question, depth)
        search_ms = (time.perf_counter() - started) * 1000
        record: dict[str, Any] = {
            "id": item.id,
            "pipeline": pipeline,
            "question": item.question,
            "answerable": item.answerable,
            **retrieval_figures([Ref.of_chunk(h.chunk) for h in hits], item, self.options.k),
        }
        if not synthesize:
            return record | {"latency_ms": {"retrieve": search_ms, "total": search_ms}}
        overrides = AskOverrides(cache=False) | (NAIVE_OPTIONS if naive else AskOverrides())
        answer = await engine.answer(item.question, **overrides)
        return record | await self.measure(answer, item)

    async def measure(self, answer: Answer, item: EvalItem) -> dict[str, Any]:
        """Everything the record says about one answer."""
        cited = {c.number for c in answer.citations}
        subject = " ".join(await self.engine.subjects())
        judge = self.options.judge
        judged = await check(answer, judge, "judge_", subject) if judge else {}
        return {
            "answer": answer.answer[:2000],
            **answer_figures(answer, item),
            "gold_evidence_recall": gold_evidence_recall(answer, item),
            **await check(answer, self.options.verifier, subject=subject),
            **judged,
            "verified_by_pipeline": answer.verification is not None,
            "quoted": answered_from_sources(answer),
            "confidence": answer.confidence,
            "signals": answer.verification.signals if answer.verification else {},
            "latency_ms": dict(answer.usage.latency_ms),
            "prompt_tokens": answer.usage.prompt_tokens,
            "completion_tokens": answer.usage.completion_tokens,
            "cited": [s.location for s in answer.sources if s.number in cited],
            "removed": [
                {"text": c.text[:300], "label": c.label, "reasons": c.reasons}
                for c in answer.removed_claims
            ],
        }
