"""Writers turn a plan (question, numbered sources, budgets) into answer text, streamed.

`LLMWriter` prompts a chat model with the grounding rules (and, in multi-source mode, the
subtopic, consensus and conflict rules); `NaiveWriter` is the baseline the benchmarks compare
against: a plain prompt, no multi-source mode. The extractive writer, which needs no model,
lives in `extractive.py`.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from citesynth.llm.base import ChatModel, ChatOptions, Message, Piece, closing
from citesynth.synthesis.asked import asks_yes_no
from citesynth.synthesis.prompts import Prompt, pick
from citesynth.synthesis.sources import Source, context
from citesynth.verify.conflicts import Found


@dataclass(frozen=True, slots=True)
class Plan:
    """What to write: the question, the numbered sources, and how."""

    question: str
    sources: tuple[Source, ...]
    grouped: bool
    max_tokens: int
    conflicts: str = ""
    """Lines naming where the sources disagree (the answer must present both sides)."""
    feedback: str = ""
    """Claims of an earlier attempt that the sources did not support (strict mode)."""
    found: tuple[Found, ...] = ()
    """The disagreements `conflicts` describes, as found."""
    trimmed: int = 0
    """Lower-ranked sources left out to fit the context budget."""
    linked: int = 0
    """Sources added because retrieved passages refer to them."""
    prompt: str = "answer"
    """The prompt family: templates `{prompt}.system`, `{prompt}.user`, `{prompt}.multi.*`."""
    values: Mapping[str, str] = field(default_factory=dict)
    """Further placeholder values for the family's templates (an outline, a digest, ...)."""
    common: frozenset[str] = frozenset()
    """The question's terms that half the corpus's chunks hold (`subjects.common_terms`):
    they tell what a number answers no better than the question's asking words. Looked up
    only for a question asking for a number or a bound (`bounds.asks_bound`), the places
    they are read."""

    def notes(self) -> str:
        """What follows the sources in the prompt: conflicts, and feedback on a retry."""
        parts = []
        if self.conflicts:
            parts.append(
                "Note: these sources disagree. Present both values, each with its own "
                f"citation:\n{self.conflicts}"
            )
        if self.feedback:
            parts.append(
                "Your previous answer made these claims, which the cited sources do not "
                f"support. Leave them out or state only what the sources say:\n{self.feedback}"
            )
        return "".join(f"\n\n{part}" for part in parts)


class Writer(Protocol):
    """Writes an answer with inline `[n]` markers for a plan."""

    name: str
    timeout: float
    evidence_tokens: int | None
    """Cut each source to its most relevant sentences within this many tokens (None: don't)."""
    max_sources: int | None
    """Show the writer at most this many sources (None: as many as the mode allows)."""

    @property
    def model(self) -> ChatModel | None:
        """The chat model behind the writer (None: it writes without one)."""
        ...

    def write(self, plan: Plan) -> AsyncIterator[Piece]:
        """Text pieces (and possibly a final `Usage`)."""
        ...


_ANSWER = re.compile(r"(?:^|\n)\s*\**answer\**\s*:\s*", re.I)
_NOTES_LIMIT = 100_000  # reasoning held back at most; a looping model never writes "Answer:"
_ANSWER_LOOKBACK = 200  # longer than any "\n  **Answer**: " a model writes


def shown_question(question: str) -> str:
    """`question` as a model is asked it: a yes/no one as what the sources say about it.

    Asked "Do I need to restart runserver every time I edit my Python code?" beside two
    sources saying "You don't need to restart the server for code changes to take effect",
    the embedded model replied "Not found in the sources."; it did so for 9 of the 24
    yes/no tuning questions the sources answer (`tests/fixtures/yes_no_tuning_*`), and
    for none of them asked "What do the sources say about this: …?".
    """
    return f"What do the sources say about this: {question}" if asks_yes_no(question) else question


class LLMWriter:
    """Prompts a chat model; optionally lets it reason first and shows only the answer."""

    def __init__(
        self,
        model: ChatModel,
        prompts: Mapping[str, Prompt],
        *,
        reasoning: bool = True,
        max_output_tokens: int | None = None,
        temperature: float = 0.3,
        timeout: float = 120.0,
        evidence_tokens: int | None = None,
        max_sources: int | None = None,
    ) -> None:
        self.model = model
        self.name = model.name
        self.prompts = prompts
        self.reasoning = reasoning
        self.max_output_tokens = max_output_tokens
        self.temperature = temperature
        self.timeout = timeout
        self.evidence_tokens = evidence_tokens
        self.max_sources = max_sources

    def messages(self, plan: Plan) -> list[Message]:
        """The prompt for a plan: its family's templates, the multi-source ones when grouped.

        A family without multi-source templates uses its plain ones in both cases.
        """
        values = {
            **plan.values,
            "question": shown_question(plan.question) if plan.prompt == "answer" else plan.question,
            "sources": context(plan.sources, grouped=plan.grouped) + plan.notes(),
        }
        family = plan.prompt
        names = [f"{family}.multi", family] if plan.grouped else [family]
        system = pick(self.prompts, *(f"{name}.system" for name in names))
        direct = plan.grouped and not self.reasoning
        user = pick(
            self.prompts,
            *(f"{name}.user.direct" for name in names if direct),
            *(f"{name}.user" for name in names),
        )
        return [Message("system", system.render(**values)), Message("user", user.render(**values))]

    async def write(self, plan: Plan) -> AsyncIterator[Piece]:
        """Stream the model's answer; in reasoning mode, hold text back until "Answer:"."""
        options = ChatOptions(
            max_tokens=_budget(plan, self.max_output_tokens), temperature=self.temperature
        )
        async with closing(self.model.stream(self.messages(plan), options)) as pieces:
            if not (plan.grouped and self.reasoning):
                async for piece in pieces:
                    yield piece
                return
            async with closing(_after_answer(pieces)) as answer:
                async for piece in answer:
                    yield piece


async def _after_answer(pieces: AsyncIterator[Piece]) -> AsyncIterator[Piece]:
    """What follows "Answer:" in a reasoning-mode reply (all of it when the mark is missing)."""
    held = ""
    answering = False
    async for piece in pieces:
        if not isinstance(piece, str) or answering:
            yield piece
            continue
        # Search only where a match could end in the new piece: linear in the reply.
        since = max(0, len(held) - _ANSWER_LOOKBACK)
        held += piece
        found = _ANSWER.search(held, since)
        if found:
            answering = True
            if held[found.end() :]:
                yield held[found.end() :]
        elif len(held) > _NOTES_LIMIT:  # notes that never end: show them, as if unformatted
            answering = True
            yield re.sub(r"^\s*\**notes\**\s*:\s*", "", held, flags=re.I)
    if not answering and held:  # the model skipped the format: show all of it
        yield re.sub(r"^\s*\**notes\**\s*:\s*", "", held, flags=re.I)


class NaiveWriter:
    """The baseline: top chunks in a plain prompt, no grounding rules, no multi-source mode."""

    evidence_tokens: int | None = None

    def __init__(
        self,
        model: ChatModel,
        prompts: Mapping[str, Prompt],
        *,
        timeout: float = 120.0,
        max_output_tokens: int | None = None,
        max_sources: int | None = None,
    ) -> None:
        self.model = model
        self.name = f"naive:{model.name}"
        self.prompts = prompts
        self.timeout = timeout
        self.max_output_tokens = max_output_tokens
        self.max_sources = max_sources

    async def write(self, plan: Plan) -> AsyncIterator[Piece]:
        """Stream the model's answer to the plain prompt."""
        sources = "\n\n".join(f"[{s.number}] {s.shown.strip()}" for s in plan.sources)
        prompt = self.prompts["naive.user"].render(question=plan.question, sources=sources)
        options = ChatOptions(max_tokens=_budget(plan, self.max_output_tokens))
        async with closing(self.model.stream([Message("user", prompt)], options)) as pieces:
            async for piece in pieces:
                yield piece


def _budget(plan: Plan, cap: int | None) -> int:
    return plan.max_tokens if cap is None else min(plan.max_tokens, cap)
