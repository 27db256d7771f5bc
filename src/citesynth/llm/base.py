"""The model contract: one streaming method, whatever runs the model.

    async for piece in model.stream(messages, ChatOptions(max_tokens=400, tools=tools)):
        if isinstance(piece, str): ...            # a text delta
        elif isinstance(piece, ToolCall): ...     # a complete call of one of `tools`
        else: usage = piece                       # the last item: token counts

A tool round trip in messages: the assistant's calls travel in `Message.tool_calls`, and each
result comes back as a `Message("tool", result, tool_call_id=call.id)`; every adapter turns
these into its vendor's wire format.

Adapters (OpenAI-compatible servers, Anthropic, Gemini, the embedded llama.cpp model, the
scripted fake) are found by name with `citesynth.llm.get_model`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar, runtime_checkable

Role = Literal["system", "user", "assistant", "tool"]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool the model may call: its name, what it does, and its arguments as JSON schema."""

    name: str
    description: str
    parameters: dict[str, Any] = field(default_factory=lambda: {"type": "object"})


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One call of a tool by the model, its arguments complete and parsed."""

    id: str
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message.

    An assistant message that called tools carries the calls in `tool_calls`; a tool's
    result is a message of role `tool` whose `tool_call_id` names the call it answers.
    """

    role: Role
    content: str
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None


@dataclass(frozen=True, slots=True)
class ChatOptions:
    """Generation settings every adapter understands."""

    max_tokens: int = 1024
    temperature: float = 0.3
    stop: tuple[str, ...] = ()
    timeout: float | None = None  # seconds for the whole call; None: the adapter's default
    tools: tuple[ToolSpec, ...] = ()  # tools the model may call; none: a text-only request


@dataclass(frozen=True, slots=True)
class Usage:
    """Token counts reported by the provider (None when it reports none)."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached_tokens: int | None = None
    extra: dict[str, float] = field(default_factory=dict)


Piece = str | Usage | ToolCall


class ChatModel(Protocol):
    """A chat model: streams text deltas and tool calls, then (optionally) one `Usage`."""

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


_T = TypeVar("_T")


@asynccontextmanager
async def closing(stream: AsyncIterator[_T]) -> AsyncIterator[AsyncIterator[_T]]:
    """`stream`, closed on exit when it can be (an async generator).

    A reader that stops early (a cap, an error) closes the model's stream at once: the
    request ends and the server stops generating. Left to the garbage collector, nested
    generators are closed later by finalizer tasks that race each other.
    """
    try:
        yield stream
    finally:
        close = getattr(stream, "aclose", None)
        if close is not None:
            await close()
