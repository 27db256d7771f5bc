"""The model contract: one streaming method, whatever runs the model.

    async for piece in model.stream(messages, ChatOptions(max_tokens=400)):
        if isinstance(piece, str): ...       # a text delta
        else: usage = piece                  # the last item: token counts

Adapters (OpenAI-compatible servers, Anthropic, Gemini, the embedded llama.cpp model, the
scripted fake) are found by name with `citesynth.llm.get_model`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message."""

    role: Role
    content: str


@dataclass(frozen=True, slots=True)
class ChatOptions:
    """Generation settings every adapter understands."""

    max_tokens: int = 1024
    temperature: float = 0.3
    stop: tuple[str, ...] = ()
    timeout: float | None = None  # seconds for the whole call; None: the adapter's default


@dataclass(frozen=True, slots=True)
class Usage:
    """Token counts reported by the provider (None when it reports none)."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached_tokens: int | None = None
    extra: dict[str, float] = field(default_factory=dict)


Piece = str | Usage


class ChatModel(Protocol):
    """A chat model: streams text deltas, then (optionally) one `Usage`."""

    name: str

    def stream(self, messages: Sequence[Message], options: ChatOptions) -> AsyncIterator[Piece]:
        """Generate a reply to `messages`, piece by piece.

        Raises:
            ModelError: the call failed (`ModelTimeout`, `ModelHTTPError` for the details).
        """
        ...


@runtime_checkable
class TokenCounter(Protocol):
    """Counts tokens as a model sees them (optional; budgets fall back to an estimate)."""

    async def count_tokens(self, text: str) -> int:
        """The number of tokens in `text` for this model."""
        ...
