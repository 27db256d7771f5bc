"""Anthropic's Messages API, streamed (`POST /v1/messages` with `stream: true`).

System messages go in the top-level `system` field; text arrives in `content_block_delta`
events; token counts in `message_start` (input) and `message_delta` (output).

Tools go out as `tools: [{name, description, input_schema}]`. A call is a `tool_use` content
block: `content_block_start` gives its id and name, `input_json_delta` events carry pieces of
its JSON input, and `content_block_stop` completes it. In the conversation, an assistant's
calls are `tool_use` blocks and the results `tool_result` blocks of one user message.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from typing import Any

from citesynth.errors import ModelError
from citesynth.llm.base import ChatOptions, Message, Piece, ToolCall, Usage
from citesynth.llm.http import COMPLETE, ServerEvent
from citesynth.llm.provider import HTTPModel, tool_arguments

API_VERSION = "2023-06-01"
DEFAULT_BASE_URL = "https://api.anthropic.com"


class AnthropicModel(HTTPModel):
    """Claude models over the Messages API."""

    family = "anthropic"
    default_base_url = DEFAULT_BASE_URL

    def url(self) -> str:
        """`{base_url}/v1/messages`."""
        return f"{self.base_url}/v1/messages"

    def headers(self) -> dict[str, str]:
        """The key and the API version."""
        return {"x-api-key": self.api_key or "", "anthropic-version": API_VERSION}

    def request_body(self, messages: Sequence[Message], options: ChatOptions) -> dict[str, Any]:
        """The JSON body of one streaming Messages request."""
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": options.max_tokens,
            "temperature": options.temperature,
            "stream": True,
            "messages": _messages(messages),
        }
        if system:
            body["system"] = system
        if options.stop:
            body["stop_sequences"] = list(options.stop)
        if options.tools:
            body["tools"] = [
                {"name": t.name, "description": t.description, "input_schema": t.parameters}
                for t in options.tools
            ]
        return body

    async def decode(self, events: AsyncIterator[ServerEvent]) -> AsyncGenerator[Piece, None]:
        """Text deltas, each tool call when its block stops, then the usage.

        A whole Messages reply (a server that ignored `stream: true`) is read as well.
        """
        prompt_tokens: int | None = None
        cached: int | None = None
        calls: dict[int, tuple[str, str, list[str]]] = {}  # open tool_use blocks: id, name, json
        async for event in events:
            payload = event.json()
            kind = payload.get("type", event.event)
            whole = self._ending(kind, event, payload)
            if whole is not None:
                for piece in whole:
                    yield piece
                return
            if kind == "content_block_delta":
                delta = payload.get("delta") or {}
                if delta.get("type") == "text_delta" and delta.get("text"):
                    yield delta["text"]
                elif delta.get("type") == "input_json_delta" and payload.get("index") in calls:
                    calls[payload["index"]][2].append(delta.get("partial_json") or "")
            elif kind == "content_block_start":
                block = payload.get("content_block") or {}
                if block.get("type") == "tool_use":
                    calls[payload.get("index", 0)] = (
                        block.get("id", ""),
                        block.get("name", ""),
                        [],
                    )
            elif kind == "content_block_stop" and payload.get("index") in calls:
                id_, name, parts = calls.pop(payload["index"])
                yield ToolCall(id_, name, tool_arguments(self.name, name, "".join(parts)))
            elif kind == "message_start":
                usage = (payload.get("message") or {}).get("usage") or {}
                prompt_tokens = usage.get("input_tokens")
                cached = usage.get("cache_read_input_tokens")
            elif kind == "message_delta":
                usage = payload.get("usage") or {}
                yield Usage(prompt_tokens, usage.get("output_tokens"), cached)

    def _ending(self, kind: str, event: ServerEvent, payload: dict[str, Any]) -> list[Piece] | None:
        """What is left when `event` ends the reply (`message_stop`, a whole reply), else None.

        Raises:
            ModelError: the event reports an error.
        """
        if kind == "error":
            error = payload.get("error") or {}
            message = error.get("message", error)
            raise ModelError(f"{self.name} stopped with an error: {message}")
        if kind == "message" and event.event == COMPLETE:  # not streamed after all
            return self._whole(payload)
        return [] if kind == "message_stop" else None

    def _whole(self, message: dict[str, Any]) -> list[Piece]:
        """A whole Messages reply (a server that ignored `stream: true`) as pieces."""
        pieces: list[Piece] = []
        for block in message.get("content") or ():
            if block.get("type") == "text" and block.get("text"):
                pieces.append(block["text"])
            elif block.get("type") == "tool_use":
                name = block.get("name", "")
                arguments = tool_arguments(self.name, name, block.get("input"))
                pieces.append(ToolCall(block.get("id", ""), name, arguments))
        usage = message.get("usage") or {}
        if usage:
            pieces.append(
                Usage(
                    usage.get("input_tokens"),
                    usage.get("output_tokens"),
                    usage.get("cache_read_input_tokens"),
                )
            )
        return pieces


def _messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The conversation without system messages; consecutive tool results share a message."""
    wire: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "system":
            continue
        if m.role == "tool":
            result = {"type": "tool_result", "tool_use_id": m.tool_call_id, "content": m.content}
            previous = wire[-1] if wire else None
            if previous and previous["role"] == "user" and _all_results(previous["content"]):
                previous["content"].append(result)
            else:
                wire.append({"role": "user", "content": [result]})
        elif m.tool_calls:
            text = [{"type": "text", "text": m.content}] if m.content else []
            uses = [
                {"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments}
                for c in m.tool_calls
            ]
            wire.append({"role": m.role, "content": text + uses})
        else:
            wire.append({"role": m.role, "content": m.content})
    return wire


def _all_results(content: object) -> bool:
    """Whether a user message's content is a list of `tool_result` blocks only."""
    return isinstance(content, list) and all(b.get("type") == "tool_result" for b in content)
