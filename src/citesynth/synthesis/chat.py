"""Multi-turn chat: keep a bounded history, condense follow-ups into standalone questions.

Retrieval only sees one question, so "and how long does it take?" must become "how long
does indexing take?" first. With a chat model the `condense` prompt does it; without one
(extractive), or when the model fails, a rule does: a follow-up that leans on the
conversation (a pronoun, a leading "and", "what about", or three words or fewer) is joined
with the previous standalone question, which is what retrieval needs.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from citesynth.llm.base import ChatModel, ChatOptions, Message
from citesynth.synthesis.prompts import Prompt

_FOLLOW_UP = re.compile(
    r"^\s*(?:and|also|but|so|what about|how about|then|why)\b"
    r"|\b(?:it|its|they|them|their|this|that|these|those|he|she|his|her|there|one)\b",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Turn:
    """One exchange: the question as asked, as retrieval saw it, and the answer."""

    question: str
    standalone: str
    answer: str


def recent(history: Sequence[Turn], limit: int) -> list[Turn]:
    """The last `limit` turns."""
    return list(history[-limit:]) if limit > 0 else []


def needs_context(question: str) -> bool:
    """Whether a follow-up leans on the conversation to be understood."""
    return bool(_FOLLOW_UP.search(question)) or len(question.split()) <= 3


def by_rule(question: str, history: Sequence[Turn]) -> str:
    """The follow-up joined with the previous standalone question when it needs context."""
    if not history or not needs_context(question):
        return question
    return f"{question} (context: {history[-1].standalone})"


async def condense(
    question: str,
    history: Sequence[Turn],
    model: ChatModel | None,
    prompts: Mapping[str, Prompt],
    *,
    limit_s: float = 30.0,
) -> str:
    """A standalone version of `question` given the conversation so far."""
    if not history or model is None or not needs_context(question):
        return by_rule(question, history)
    conversation = "\n".join(
        f"User: {turn.question}\nAssistant: {' '.join(turn.answer.split())[:600]}"
        for turn in history
    )
    prompt = prompts["condense"].render(history=conversation, question=question)
    text = ""
    try:
        async with asyncio.timeout(limit_s):
            async for piece in model.stream(
                [Message("user", prompt)], ChatOptions(max_tokens=96, temperature=0.0)
            ):
                if isinstance(piece, str):
                    text += piece
    except Exception:  # a failed rewrite must not fail the turn: fall back to the rule
        return by_rule(question, history)
    rewritten = " ".join(text.strip().strip('"').split())
    if not rewritten or len(rewritten) > 4 * len(question) + 200:
        return by_rule(question, history)
    return rewritten
