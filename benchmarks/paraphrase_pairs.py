"""Paraphrased positives for the verifier's recipe, written once by the embedded model.

    python -m benchmarks.paraphrase_pairs [--limit 1500] [--model local]

Of the recipe's 5,093 generated positives, 3,988 are a passage's own sentence against the
window that holds it (`gen-copy`, `verifier_pairs.generated_pairs`): they teach that
support looks like verbatim overlap. The claims the verifier meets are not copies: WiCE's
are Wikipedia sentences paraphrasing a web page, and the trained verifier passes 59 % of
its supported ones; it passes half of the right paraphrases of the HTTPX documentation.

This command asks the embedded model (Qwen2.5 1.5B, seeded, about 4 s a sentence on two
cores) to rewrite each copied sentence, in a fixed order (by a hash of the sentence, so
that any prefix is a sample across documents), and keeps a rewrite only when `faithful`
finds it a paraphrase: no number or name the sentence and its window do not have, the
same negation, most of the sentence's content terms, and not a near copy. Every sentence
asked is recorded, kept or not, in `benchmarks/.cache/paraphrases/paraphrases.jsonl`, one
line each, so that a stopped run goes on where it stopped; these are derived from the
data sets and never committed. `verifier_pairs.paraphrase_pairs` turns the kept ones into
training pairs (`train_crossencoder --paraphrases`).
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import hashlib
import json
import re
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from benchmarks.common import CACHE
from benchmarks.verifier_pairs import paraphrase_rows
from citesynth.analysis import content_terms
from citesynth.llm.base import ChatModel, ChatOptions, Message, Usage

PARAPHRASES = CACHE / "paraphrases" / "paraphrases.jsonl"
SYSTEM = (
    "You rewrite one sentence at a time. Say exactly the same thing in other words and "
    "with another sentence structure. Keep every fact, number, name and negation; add "
    "nothing and leave nothing out. Reply with the rewritten sentence only."
)
EXAMPLE = (
    "The bridge, which opened in 2009, carries about 40,000 vehicles a day.",
    "About 40,000 vehicles cross the bridge each day; it has been open since 2009.",
)
"""One worked example shown before each sentence (written for this command)."""
OPTIONS = ChatOptions(max_tokens=120, temperature=0.3, timeout=120.0)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NEGATION = re.compile(r"\b(?:not|no|never|none|nor|without|cannot)\b|n't\b", re.I)
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][\w-]*")
_PREFIX = re.compile(r"^(?:rewritten(?: sentence)?|paraphrase|answer)\s*:\s*", re.I)
MIN_SHARED_TERMS = 0.4
"""The share of the sentence's content terms a paraphrase must keep."""
MAX_SIMILARITY = 0.85
"""Word-sequence similarity (difflib) from which a rewrite is a near copy."""


def _numbers(text: str) -> set[str]:
    return {n.replace(",", "") for n in _NUMBER.findall(text)}


def cleaned(reply: str) -> str:
    """The model's reply as one sentence: first line, no label, no quotes."""
    line = next((part.strip() for part in reply.strip().splitlines() if part.strip()), "")
    line = _PREFIX.sub("", line).strip()
    if len(line) > 1 and line[0] == line[-1] and line[0] in "\"'":
        line = line[1:-1].strip()
    return line


def faithful(sentence: str, rewrite: str, evidence: str) -> str | None:
    """Why `rewrite` is not a paraphrase of `sentence` (whose window is `evidence`), or None.

    Conservative by design: a rewrite that may say something else is dropped, since a
    wrong positive teaches the verifier to pass an invented claim.
    """
    words, new = sentence.split(), rewrite.split()
    if not new:
        return "empty"
    if not 0.6 <= len(new) / max(len(words), 1) <= 1.6:
        return "length"
    if not _numbers(rewrite) <= _numbers(sentence):
        return "number"
    if bool(_NEGATION.search(rewrite)) != bool(_NEGATION.search(sentence)):
        return "negation"
    known = evidence.lower()
    if any(name.lower() not in known for name in _NAME.findall(rewrite)):
        return "name"
    terms = content_terms(sentence)
    if terms and len(set(terms) & set(content_terms(rewrite))) / len(terms) < MIN_SHARED_TERMS:
        return "terms"
    ratio = difflib.SequenceMatcher(None, sentence.lower().split(), rewrite.lower().split())
    if ratio.ratio() >= MAX_SIMILARITY:
        return "copy"
    return None


def order(pairs: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The recipe's copied sentences (`gen-copy`), each once, ordered by a hash of the text."""
    seen: dict[str, dict[str, Any]] = {}
    for pair in pairs:
        if pair["source"] == "gen-copy":
            seen.setdefault(pair["text"], pair)
    return sorted(seen.values(), key=lambda p: hashlib.sha256(p["text"].encode()).hexdigest())


def done(path: Path) -> set[str]:
    """The sentences already asked (`verifier_pairs.paraphrase_rows`: a torn last line from a
    stopped run is ignored)."""
    return {row["text"] for row in paraphrase_rows(path)}


async def rewrite(model: ChatModel, sentence: str) -> str:
    messages = [
        Message("system", SYSTEM),
        Message("user", EXAMPLE[0]),
        Message("assistant", EXAMPLE[1]),
        Message("user", sentence),
    ]
    text = []
    async for piece in model.stream(messages, OPTIONS):
        if isinstance(piece, str):
            text.append(piece)
        elif not isinstance(piece, Usage):
            break
    return cleaned("".join(text))


async def paraphrase(
    model: ChatModel, pairs: list[dict[str, Any]], path: Path, limit: int
) -> Counter[str]:
    """Rewrite up to `limit` copied sentences not yet in `path`, appending each outcome."""
    asked = done(path)
    todo = [p for p in order(pairs) if p["text"] not in asked][: max(0, limit - len(asked))]
    path.parent.mkdir(parents=True, exist_ok=True)
    outcomes: Counter[str] = Counter()
    started = time.monotonic()
    with path.open("a") as out:
        for number, pair in enumerate(todo, 1):
            try:
                new = await rewrite(model, pair["text"])
            except Exception as error:  # a timeout or a failed call: recorded, not fatal
                new, why = "", f"error: {type(error).__name__}"
            else:
                why = faithful(pair["text"], new, pair["evidence"]) or ""
            outcomes[why or "kept"] += 1
            row = {"text": pair["text"], "paraphrase": new, "rejected": why or None}
            out.write(json.dumps(row) + "\n")
            out.flush()
            if number % 25 == 0 or number == len(todo):
                rate = (time.monotonic() - started) / number
                print(f"{number}/{len(todo)} ({rate:.1f} s each) {dict(outcomes)}", flush=True)
    return outcomes


def main() -> None:
    from benchmarks.train_crossencoder import WORK, recipe_pairs
    from citesynth.llm import get_model

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=1500, help="sentences asked in all")
    parser.add_argument("--model", default="local", help="the model that rewrites")
    parser.add_argument("--work", type=Path, default=WORK, help="train_crossencoder's cache")
    parser.add_argument("--out", type=Path, default=PARAPHRASES)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    pairs = recipe_pairs(args.work, 4000, similarity=False)
    outcomes = asyncio.run(paraphrase(get_model(args.model), pairs, args.out, args.limit))
    print(json.dumps(dict(outcomes)))


if __name__ == "__main__":
    main()
