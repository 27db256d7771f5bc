"""Speed of the verifiers (trained and lexical): claims per second, and a 10-claim answer.

1. Claims/s: every SciFact dev claim–abstract pair (abstract-sized evidence, ~10 sentences)
   and every WiCE test claim (a whole cited web page, ~120 sentences), in batches of 32.
2. A 10-claim answer: ClapNQ passages as five numbered sources; ten claims, half copied
   from sentences of their cited source and half citing the wrong one (so repair works),
   through `review` with repair on: split, verify, precision checks, repair, re-verify.
   p50/p95 over 200 answers.
Baseline in the same run: analysing the same passages and claims into terms only (the
floor any lexical verifier pays), so the figures can be read as a ratio on a noisy machine.
For the trained verifier also: ten claims (copied sentences, half citing the wrong source)
verified in one call, without repair: what an answer's first verification pass costs; and
ten real paraphrased claims in one call (SciFact dev claims, each against a chunk-sized
window of about 150 words of its cited abstract, from its first rationale sentence): what a
model's own wording costs, since a quotation needs no model (`evidence.quoted`).

    python -m benchmarks.verify_speed
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

from benchmarks.common import DATA, percentiles, require, write_result
from citesynth.analysis import terms
from citesynth.evaluation.verifier_data import load
from citesynth.verify import Check, LexicalVerifier
from citesynth.verify.analysed import passage_sentences
from citesynth.verify.base import Passage
from citesynth.verify.crossencoder import available
from citesynth.verify.lexical import forget_alignments
from citesynth.verify.review import review
from citesynth.verify.trained import TrainedVerifier

Checker = LexicalVerifier | TrainedVerifier


def _cold(verifier: Checker) -> None:
    """Scores and alignments remembered from an earlier answer would flatter the next one."""
    forget_alignments()
    if isinstance(verifier, TrainedVerifier):
        verifier.forget()


def claims_per_second(verifier: Checker, dataset: str, split: str) -> dict[str, Any]:
    examples = load(dataset, split)
    started = time.perf_counter()
    for first in range(0, len(examples), 32):
        batch = examples[first : first + 32]
        verifier.verify_now([Check(e.claim, e.passages) for e in batch])
    seconds = time.perf_counter() - started
    return {"claims": len(examples), "claims_per_second": round(len(examples) / seconds, 1)}


def answers(count: int) -> list[tuple[str, list[Passage]]]:
    path = require(DATA / "clapnq_dev" / "corpus.jsonl")
    texts = [json.loads(line)["text"] for line in path.read_text().splitlines()[:2000]]
    texts = [t for t in texts if len(passage_sentences(t)) >= 4]
    rng = random.Random(7)
    made = []
    for _ in range(count):
        chosen = rng.sample(texts, 5)
        sources = [Passage(n, t, f"doc{n}") for n, t in enumerate(chosen, start=1)]
        claims = []
        for index in range(10):
            source = sources[index % 5]
            start, end = rng.choice(passage_sentences(source.text))
            sentence = source.text[start:end].rstrip(".!? ")
            cited = source.number if index % 2 == 0 else source.number % 5 + 1
            claims.append(f"{sentence} [{cited}].")
        made.append((" ".join(claims), sources))
    return made


async def ten_claims(verifier: Checker, count: int = 100) -> dict[str, Any]:
    """One `verify` call of ten claims against their cited source, p50/p95 over answers."""
    timings = []
    for text, sources in answers(count):
        checks = []
        for piece in text.split("]. ")[:10]:
            claim, _, number = piece.rpartition(" [")
            checks.append(Check(claim, (sources[int(number.rstrip("].")) - 1].text,)))
        _cold(verifier)
        started = time.perf_counter()
        await verifier.verify(checks)
        timings.append((time.perf_counter() - started) * 1000)
    return {"answers": count, "claims_per_answer": 10, "verify_ms": percentiles(timings)}


def real_claims(count: int) -> list[list[Check]]:
    """`count` answers of ten SciFact dev claims, each against a ~150-word abstract window."""
    rows = [json.loads(line) for line in (DATA / "scifact" / "corpus.jsonl").open()]
    abstracts = {str(r["_id"]): [r["text"][a:b] for a, b in r["sentence_offsets"]] for r in rows}
    pairs = [json.loads(line) for line in (DATA / "scifact" / "claim_doc_pairs_dev.jsonl").open()]
    checks = []
    for pair in pairs:
        sentences = abstracts.get(str(pair["doc_id"]))
        if not sentences:
            continue
        first = min(pair["rationale_sentence_ids"], default=0)
        window: list[str] = []
        for sentence in sentences[first:]:
            if window and sum(len(s.split()) for s in window) + len(sentence.split()) > 150:
                break
            window.append(sentence)
        checks.append(Check(pair["claim"], (" ".join(window),)))
    rng = random.Random(7)
    return [rng.sample(checks, 10) for _ in range(count)]


async def ten_real_claims(verifier: Checker, count: int = 50) -> dict[str, Any]:
    """One `verify` call of ten paraphrased claims (see the module docstring)."""
    timings = []
    for checks in real_claims(count):
        _cold(verifier)
        started = time.perf_counter()
        await verifier.verify(checks)
        timings.append((time.perf_counter() - started) * 1000)
    return {"answers": count, "claims_per_answer": 10, "verify_ms": percentiles(timings)}


async def answer_latency(verifier: Checker, count: int = 200) -> dict[str, Any]:
    cases = answers(count)
    timings, floor = [], []
    for text, sources in cases:
        started = time.perf_counter()
        for passage in sources:
            for start, end in passage_sentences(passage.text):
                terms(passage.text[start:end])
        terms(text)
        floor.append((time.perf_counter() - started) * 1000)
        _cold(verifier)
        started = time.perf_counter()
        await review(text, sources, verifier)
        timings.append((time.perf_counter() - started) * 1000)
    verify = percentiles(timings)
    baseline = percentiles(floor)
    return {
        "answers": count,
        "claims_per_answer": 10,
        "review_with_repair_ms": verify,
        "baseline_tokenise_only_ms": baseline,
        "p95_ratio_to_baseline": round(verify["p95"] / baseline["p95"], 1),
    }


def measured(verifier: Checker, count: int) -> dict[str, Any]:
    return {
        "scifact_dev_pairs": claims_per_second(verifier, "scifact", "dev"),
        "wice_test_pages": claims_per_second(verifier, "wice", "test"),
        "halueval_test": claims_per_second(verifier, "halueval", "test"),
        "ten_claims_one_call": asyncio.run(ten_claims(verifier)),
        "ten_real_claims_one_call": asyncio.run(ten_real_claims(verifier)),
        "ten_claim_answer": asyncio.run(answer_latency(verifier, count)),
    }


def main() -> None:
    payload: dict[str, Any] = {"lexical": measured(LexicalVerifier(), 200)}
    if available():
        payload["trained"] = measured(TrainedVerifier.load(), 50)
    payload["goals"] = {"trained_ten_claim_answer_p95_ms": 150, "lexical_p95_ms": 50}
    print(json.dumps(payload, indent=2))
    write_result("verify_speed", payload)


if __name__ == "__main__":
    main()
