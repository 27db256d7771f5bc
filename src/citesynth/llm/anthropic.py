"""Anthropic's Messages API, streamed (`POST /v1/messages` with `stream: true`).

System messages go in the top-level `system` field; text arrives in `content_block_delta`
events; token counts in `message_start` (input) and `message_delta` (output).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

import httpx

from citesynth.errors import ModelError
from citesynth.llm.base import ChatOptions, Message, Piece, Usage
from citesynth.llm.http import Retry, client, stream_events

API_VERSION = "2023-06-01"
DEFAULT_BASE_URL = "https://api.anthropic.com"


class AnthropicModel:
    """Claude models over the Messages API."""

    def __init__(
        self,
        model: str,
        *,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = 120.0,
        transport: httpx.AsyncBaseTransport | None = None,
        retry: Retry = Retry(),
    ) -> None:
        self.model = model
        self.name = f"anthropic:{model}"
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.transport = transport
        self.retry = retry

    def request_body(self, messages: Sequence[Message], options: ChatOptions) -> dict[str, Any]:
        """The JSON body of one streaming Messages request."""
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": options.max_tokens,
            "temperature": options.temperature,
            "stream": True,
            "messages": [
                {"role": m.role, "content": m.content} for m in messages if m.role != "system"
            ],
        }
        if system:
            body["system"] = system
        if options.stop:
            body["stop_sequences"] = list(options.stop)
        return body

    async def stream(
        self, messages: Sequence[Message], options: ChatOptions
    ) -> AsyncIterator[Piece]:
        """Stream a reply: text deltas, then the usage."""
        headers = {"x-api-key": self.api_key, "anthropic-version": API_VERSION}
        prompt_tokens: int | None = None
        cached: int | None = None
        async with client(
            self.transport, options.timeout or self.timeout, base_url=self.base_url
        ) as http:
            events = stream_events(
                http,
                f"{self.base_url}/v1/messages",
                body=self.request_body(messages, options),
                headers=headers,
                provider=self.name,
                retry=self.retry,
            )
            async for event in events:
                payload = event.json()
                kind = payload.get("type", event.event)
                if kind == "content_block_delta":
                    delta = payload.get("delta") or {}
                    if delta.get("type") == "text_delta" and delta.get("text"):
                        yield delta["text"]
                elif kind == "message_start":
                    usage = (payload.get("message") or {}).get("usage") or {}
                    prompt_tokens = usage.get("input_tokens")
                    cached = usage.get("cache_read_input_tokens")
                elif kind == "message_delta":
                    usage = payload.get("usage") or {}
                    yield Usage(prompt_tokens, usage.get("output_tokens"), cached)
                elif kind == "error":
                    error = payload.get("error") or {}
                    message = error.get("message", error)
                    raise ModelError(f"{self.name} stopped with an error: {message}")
                elif kind == "message_stop":
                    return
