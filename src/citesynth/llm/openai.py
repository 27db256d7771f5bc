"""Any OpenAI-compatible chat endpoint: OpenAI, vLLM, Ollama, llama.cpp server, LM Studio.

Streams `POST {base_url}/chat/completions` with `stream: true` and asks for the usage in the
last chunk. The embedded model runs llama.cpp's own server on loopback and is reached through
this same adapter.

Tools go out as `tools: [{type: function, function: {name, description, parameters}}]`; a
call streams as `delta.tool_calls[i]` fragments (id and name first, then pieces of the JSON
arguments) that are joined by index and yielded as one `ToolCall` when the choice finishes.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from typing import Any

from citesynth.errors import ModelError
from citesynth.llm.base import ChatOptions, Message, Piece, ToolCall, Usage
from citesynth.llm.http import COMPLETE, ServerEvent
from citesynth.llm.provider import DEFAULT_TIMEOUT, HTTPModel, tool_arguments

__all__ = ["DEFAULT_TIMEOUT", "OPENAI_URL", "OpenAIModel"]

OPENAI_URL = "https://api.openai.com/v1"


class OpenAIModel(HTTPModel):
    """Chat completions over the OpenAI wire format."""

    family = "openai"
    default_base_url = OPENAI_URL
    key_required = False  # local servers (vLLM, llama.cpp, Ollama) take none

    def url(self) -> str:
        """`{base_url}/chat/completions`."""
        return f"{self.base_url}/chat/completions"

    def headers(self) -> dict[str, str]:
        """A bearer token when there is a key."""
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def request_body(self, messages: Sequence[Message], options: ChatOptions) -> dict[str, Any]:
        """The JSON body of one streaming chat completion request."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [_message(m) for m in messages],
            "stream": True,
            "stream_options": {"include_usage": True},
            "max_tokens": options.max_tokens,
            "temperature": options.temperature,
        }
        if options.stop:
            body["stop"] = list(options.stop)
        if options.tools:
            body["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description,
                        "parameters": tool.parameters,
                    },
                }
                for tool in options.tools
            ]
        return body

    async def decode(self, events: AsyncIterator[ServerEvent]) -> AsyncGenerator[Piece, None]:
        """Text deltas, tool calls when their choice finishes, then the usage.

        A whole non-streamed completion (a server that ignored `stream: true`) is read the
        same way. A stream that ends with neither `[DONE]` nor a `finish_reason` broke off.

        Raises:
            ModelError: an error in the stream, or a stream that broke off.
        """
        calls: dict[int, dict[str, str]] = {}  # streamed tool calls by index: id, name, args
        ended = False
        async for event in events:
            if event.data.strip() == "[DONE]":
                ended = True
                break
            payload = event.json()
            self._check(payload)
            for choice in payload.get("choices") or ():
                # A streamed chunk carries a `delta`; a whole completion its `message`.
                delta = choice.get("delta") or choice.get("message") or {}
                text = delta.get("content")
                if text:
                    yield text
                for index, fragment in enumerate(delta.get("tool_calls") or ()):
                    _gather(calls, {"index": index, **fragment})
                if choice.get("finish_reason"):
                    ended = True
                    for call in self._finished(calls):
                        yield call
            if payload.get("usage"):
                yield _usage(payload["usage"])
            if event.event == COMPLETE:
                ended = True
        if not ended:
            raise ModelError(
                f"{self.name}'s stream broke off: it ended without [DONE] or a finish_reason, "
                "so the answer may be cut short"
            )
        for call in self._finished(calls):  # a server that never sent a finish_reason
            yield call

    def _check(self, payload: object) -> None:
        """Raise when an event is not an object or reports an error (OpenAI, vLLM, llama.cpp).

        Raises:
            ModelError: what the server reported.
        """
        if not isinstance(payload, dict):
            raise ModelError(f"{self.name} sent a stream event that is not a JSON object")
        if payload.get("error"):
            error = payload["error"]
            message = error.get("message", error) if isinstance(error, dict) else error
            raise ModelError(f"{self.name} stopped with an error: {message}")

    def _finished(self, calls: dict[int, dict[str, str]]) -> list[ToolCall]:
        """The gathered calls in index order, parsed; `calls` is emptied."""
        done = [
            ToolCall(
                call["id"] or f"call_{index}",
                call["name"],
                tool_arguments(self.name, call["name"], call["arguments"]),
            )
            for index, call in sorted(calls.items())
        ]
        calls.clear()
        return done


def _usage(usage: dict[str, Any]) -> Usage:
    """The token counts of a chat-completions `usage` object."""
    details = usage.get("prompt_tokens_details") or {}
    return Usage(
        usage.get("prompt_tokens"), usage.get("completion_tokens"), details.get("cached_tokens")
    )


def _gather(calls: dict[int, dict[str, str]], fragment: dict[str, Any]) -> None:
    """Add one streamed `tool_calls` fragment to the call at its index."""
    index = int(fragment.get("index") or 0)
    call = calls.setdefault(index, {"id": "", "name": "", "arguments": ""})
    function = fragment.get("function") or {}
    call["id"] = call["id"] or fragment.get("id") or ""
    call["name"] = call["name"] or function.get("name") or ""  # sent once, with the id
    call["arguments"] += function.get("arguments") or ""


def _message(message: Message) -> dict[str, Any]:
    """One message in the chat-completions format."""
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    if not message.tool_calls:
        return {"role": message.role, "content": message.content}
    return {
        "role": message.role,
        "content": message.content or None,
        "tool_calls": [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
            }
            for call in message.tool_calls
        ],
    }
