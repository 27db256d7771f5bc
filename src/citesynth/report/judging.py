"""A chat model scores a finished report; below 3.5 the report is revised (at most twice).

The judge reads the question, the planned subtopics and the report, and replies with one
JSON object: a score of 1–5 for each dimension and short feedback, and the subtopics it
finds missing. The overall score weighs the dimensions as DESIGN §7 does:

| dimension          | weight |
|--------------------|--------|
| factual accuracy   | 30 %   |
| completeness       | 25 %   |
| coverage           | 20 %   |
| coherence          | 15 %   |
| bias (balance)     | 10 %   |

A reply that is not that object is repaired when it can be (the scores read field by field
from the text), else asked for once more with the parse error; a judge that still fails,
errs or times out leaves the report unjudged, with a warning that says why.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping, Sequence

from citesynth.llm.base import ChatModel, ChatOptions, Message, Usage
from citesynth.report.values import Judgement
from citesynth.synthesis.prompts import Prompt

WEIGHTS: dict[str, float] = {
    "factual_accuracy": 0.30,
    "completeness": 0.25,
    "coverage": 0.20,
    "coherence": 0.15,
    "bias": 0.10,
}
REVISE_BELOW = 3.5
MAX_REVISIONS = 2
MAX_REPORT_CHARS = 12_000
"""How much of the report the judge reads (a small model's context is short)."""

_OBJECT = re.compile(r"\{.*\}", re.S)
_FIELD = re.compile(r'"?(\w+)"?\s*:\s*"?([1-5](?:\.\d+)?)"?')


class JudgeFailed(Exception):
    """The judge gave no usable scores (the message says why)."""


async def judge(
    model: ChatModel,
    prompts: Mapping[str, Prompt],
    question: str,
    subtopics: Sequence[str],
    report: str,
    *,
    limit_s: float = 300.0,
) -> Judgement:
    """The judge's scores for `report` (raises `JudgeFailed` when none can be had)."""
    prompt = prompts["report.judge"].render(
        question=question,
        subtopics="\n".join(f"- {title}" for title in subtopics),
        report=report[:MAX_REPORT_CHARS],
    )
    messages = [Message("user", prompt)]
    reply, usage = await _ask(model, messages, limit_s)
    try:
        return _counted(parse_judgement(reply, model.name), usage)
    except ValueError as error:  # ask once more, saying what was wrong
        messages += [
            Message("assistant", reply),
            Message("user", f"That reply could not be read ({error}). Reply with the JSON only."),
        ]
        reply, usage = await _ask(model, messages, limit_s)
        try:
            return _counted(parse_judgement(reply, model.name), usage)
        except ValueError as again:
            raise JudgeFailed(f"the judge's reply could not be read: {again}") from again


def _counted(judgement: Judgement, usage: Usage) -> Judgement:
    return judgement.model_copy(
        update={
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
        }
    )


async def _ask(model: ChatModel, messages: list[Message], limit_s: float) -> tuple[str, Usage]:
    text = ""
    usage = Usage()
    try:
        async with asyncio.timeout(limit_s):
            async for piece in model.stream(messages, ChatOptions(max_tokens=400, temperature=0.0)):
                if isinstance(piece, str):
                    text += piece
                elif isinstance(piece, Usage):
                    usage = piece
    except TimeoutError as error:
        raise JudgeFailed(f"the judge timed out after {limit_s:.0f} s") from error
    except Exception as error:  # any provider failure leaves the report unjudged
        raise JudgeFailed(f"the judge failed: {error}") from error
    return text, usage


def parse_judgement(reply: str, judge_name: str) -> Judgement:
    """The scores in a judge's reply: its JSON object, or its `name: score` fields.

    Raises:
        ValueError: a dimension has no score from 1 to 5.
    """
    found: dict[str, object] = {}
    match = _OBJECT.search(reply)
    if match:
        try:
            loaded = json.loads(match.group())
        except ValueError:
            loaded = None
        if isinstance(loaded, dict):
            nested = loaded.get("scores")
            found = {**loaded, **(nested if isinstance(nested, dict) else {})}
    if not all(key in found for key in WEIGHTS):  # repair: read the fields from the text
        found = {**{k: v for k, v in _FIELD.findall(reply)}, **found}
    scores: dict[str, float] = {}
    for key in WEIGHTS:
        try:
            value = float(str(found[key]))
        except (KeyError, ValueError):
            raise ValueError(f"no score for {key}") from None
        if not 1 <= value <= 5:
            raise ValueError(f"{key} is {value}, not 1-5")
        scores[key] = value
    missing = found.get("missing")
    return Judgement(
        judge=judge_name,
        scores=scores,
        overall=round(sum(WEIGHTS[k] * v for k, v in scores.items()), 3),
        feedback=str(found.get("feedback") or "").strip(),
        missing=[str(m).strip() for m in missing if str(m).strip()]
        if isinstance(missing, list)
        else [],
    )
