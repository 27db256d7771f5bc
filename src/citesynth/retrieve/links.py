"""Context expansion: a retrieved passage that refers elsewhere brings what it refers to.

"see [Retries](retries.md#backoff)" or "see section Limits" in a retrieved chunk adds the
chunk it points to (cross-references are stored at indexing, see `ingest/references.py`).

The target goes right after the passage that refers to it, with that passage's score and a
slightly lower Pass-1 confidence, so the writer reads them together and budget trimming
(lowest rank first) drops expansions before the passages that found them.
"""

from __future__ import annotations

from collections.abc import Sequence

from citesynth.index.store import Store
from citesynth.types import Hit


async def follow_references(
    hits: Sequence[Hit], store: Store, *, from_top: int = 3, limit: int = 2
) -> tuple[list[Hit], int]:
    """`hits` with up to `limit` chunks the top `from_top` hits refer to; and how many."""
    top = [hit.chunk.id for hit in hits[:from_top]]
    if not top or limit <= 0:
        return list(hits), 0
    linked = await store.linked(top)
    present = {hit.chunk.id for hit in hits}
    expanded: list[Hit] = []
    added = 0
    for hit in hits:
        expanded.append(hit)
        for chunk in linked.get(hit.chunk.id, []):
            if added < limit and chunk.id not in present:
                expanded.append(Hit(chunk, hit.score, round(hit.confidence * 0.9, 4)))
                present.add(chunk.id)
                added += 1
    return expanded, added
