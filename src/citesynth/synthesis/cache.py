"""The answer cache: finished answers found again for the same question and the same setup.

The key covers everything that changes an answer: the question (case-folded), the corpus
generation, the writer and its evidence budget, the prompt versions and the sources' layout,
the embedder, fusion, the verifier (its `identity` where it has one: the trained verifier's
weights and gate), the code that answers and checks (`source_digest`: a new verification
rule replays no verdict cached before it), and every answering option that matters. The
store keeps the JSON; this class owns the policy: the time-to-live of a lookup, and entries
older than a week dropped on write.
"""

from __future__ import annotations

import hashlib
import json
import time
from functools import lru_cache
from pathlib import Path

from citesynth.answers import SCHEMA_VERSION, Answer
from citesynth.index.store import Store
from citesynth.synthesis.options import AskOptions
from citesynth.synthesis.sources import SOURCES_FORMAT
from citesynth.synthesis.steps import Parts

KEEP_SECONDS = 7 * 86_400.0
"""Entries older than this are dropped whenever an answer is written."""
PACKAGE = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=4)
def source_digest(root: Path = PACKAGE) -> str:
    """A digest of the Python sources under `root` (the installed package by default).

    Read once per process (about 1.5 MB). Any change to how answers are written, repaired
    or verified changes it, so an upgrade never replays an answer the old code checked.
    """
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


class AnswerCache:
    """Answers kept in the store under a key of the question and the setup."""

    def __init__(self, store: Store, *, keep_seconds: float = KEEP_SECONDS) -> None:
        self.store = store
        self.keep_seconds = keep_seconds

    async def key(self, question: str, parts: Parts, options: AskOptions) -> str:
        """The key of `question` answered by `parts` with `options` on the current corpus."""
        fields = [
            SCHEMA_VERSION,
            source_digest(),
            question.casefold(),
            await self.store.generation(),
            parts.writer.name,
            parts.writer.evidence_tokens,
            parts.prompt_version,
            SOURCES_FORMAT,
            parts.embedder.name if parts.embedder else None,
            parts.retrieval.fusion,
            parts.retrieval.alpha,
            options.mode,
            options.k,
            options.synthesize,
            options.renumber,
            options.not_found_below,
            getattr(parts.verifier, "identity", parts.verifier.name)
            if parts.verifier and options.verify
            else None,
            options.repair,
            options.strict,
            options.follow_references,
            options.low_confidence_below,
            options.require_citations,
            options.attribute,
            options.answerability,
            options.keep_unsupported,
        ]
        return hashlib.sha256(json.dumps(fields).encode()).hexdigest()

    async def get(self, key: str, ttl: float) -> Answer | None:
        """The answer kept under `key` within the last `ttl` seconds, or None."""
        kept = await self.store.get_cached(key, time.time() - ttl)
        return None if kept is None else Answer.model_validate_json(kept)

    async def put(self, key: str, answer: Answer) -> None:
        """Keep `answer` under `key`."""
        await self.store.put_cached(
            key, answer.model_dump_json(), drop_before=time.time() - self.keep_seconds
        )
