"""`eval_suite` runs with the embedded model's replies recorded once and replayed after.

    python -m benchmarks.replayed STORE.json OUT RUN [RUN ...] [--verifier NAME]
    # e.g. click-local httpx-local; --verifier trained:DIR reads other weights

The embedded model takes 30-40 s an answer on two cores and its replies vary from run to
run, so a change to what happens around the model (the gate, verification, what replaces
a refusal) is best measured on the same replies. Each prompt's reply is kept in `STORE`
by the hash of the messages: a prompt seen before is answered from it, a new one by the
model (then stored). Run the same command at two revisions (`PYTHONPATH` pointing at the
older tree's `src` for the before) and compare the runs' `records.jsonl` under `OUT`
(`python -m benchmarks.replay_compare OUT_BEFORE OUT_AFTER`): only the code differs. The
runs are `eval_suite`'s (`RUNS`); results go to `OUT/RUN/`, never to the committed
`results/eval/`. The store holds model output that quotes the shared data
sets: keep it out of the repository.

`results/declined_quoted.json` was measured this way (the model's own not-found answered
from the sources, `synthesis.declined`).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from pathlib import Path

from benchmarks import eval_suite
from citesynth.llm import register_model
from citesynth.llm.base import ChatOptions, Message, Piece, Usage
from citesynth.llm.local import LocalModel


class Replayed:
    """The embedded model behind a store of its replies, by prompt."""

    name = "local"

    def __init__(self, store: Path) -> None:
        self.store = store
        self.replies: dict[str, str] = json.loads(store.read_text()) if store.exists() else {}
        self.model: LocalModel | None = None
        self.replayed = 0
        self.recorded = 0

    def _model(self) -> LocalModel:
        if self.model is None:
            self.model = LocalModel("1.5b")
            self.model.check()
        return self.model

    async def count_tokens(self, text: str) -> int:
        return await self._model().count_tokens(text)

    async def stream(
        self, messages: Sequence[Message], options: ChatOptions
    ) -> AsyncIterator[Piece]:
        said = json.dumps([(m.role, m.content) for m in messages])
        key = hashlib.sha256(said.encode()).hexdigest()
        if key in self.replies:
            self.replayed += 1
            yield self.replies[key]
            yield Usage(prompt_tokens=None, completion_tokens=None)
            return
        self.recorded += 1
        pieces = []
        async for piece in self._model().stream(messages, options):
            if isinstance(piece, str):
                pieces.append(piece)
            yield piece
        self.replies[key] = "".join(pieces)
        self.store.write_text(json.dumps(self.replies))


async def main(store: Path, out: Path, names: list[str], verifier: str | None = None) -> None:
    model = Replayed(store)
    register_model("local", lambda rest, environ: model, replace=True)
    eval_suite.EVAL = out
    for name in names:
        replayed, recorded = model.replayed, model.recorded
        request = eval_suite.RUNS[name]
        if verifier is not None:  # the same replies read by other weights (`trained:DIR`)
            request = replace(request, verifier=verifier)
        await eval_suite.run_one(name, request)
        print(
            f"{name}: {model.replayed - replayed} replies replayed, "
            f"{model.recorded - recorded} recorded",
            flush=True,
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("runs", nargs="+", choices=sorted(eval_suite.RUNS), metavar="RUN")
    parser.add_argument("--verifier", help="a verifier name (`trained:DIR`) for every run")
    args = parser.parse_args()
    folder = args.out.resolve()
    folder.mkdir(parents=True, exist_ok=True)
    asyncio.run(main(args.store, folder, args.runs, args.verifier))
