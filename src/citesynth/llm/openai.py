"""Any OpenAI-compatible chat endpoint: OpenAI, vLLM, Ollama, llama.cpp server, LM Studio.

Streams `POST {base_url}/chat/completions` with `stream: true` and asks for the usage in the
last chunk. The embedded model runs llama.cpp's own server on loopback and is reached through
this same adapter.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

import httpx

from citesynth.errors import ModelError
from citesynth.llm.base import ChatOptions, Message, Piece, Usage
from citesynth.llm.http import Retry, client, stream_events

DEFAULT_TIMEOUT = 120.0


class OpenAIModel:
    """Chat completions over the OpenAI wire format."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str,
        api_key: str | None = None,
        name: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        extra_body: dict[str, Any] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        retry: Retry = Retry(),
    ) -> None:
        self.model = model
        self.name = name or f"openai:{model}"
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.extra_body = extra_body or {}
        self.transport = transport
        self.retry = retry

    def request_body(self, messages: Sequence[Message], options: ChatOptions) -> dict[str, Any]:
        """The JSON body of one streaming chat completion request."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "stream": True,
            "stream_options": {"include_usage": True},
            "max_tokens": options.max_tokens,
            "temperature": options.temperature,
        }
        if options.stop:
            body["stop"] = list(options.stop)
        return {**body, **self.extra_body}

    async def stream(
        self, messages: Sequence[Message], options: ChatOptions
    ) -> AsyncIterator[Piece]:
        """Stream a chat completion; text deltas, then the usage when the server reports it."""
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        async with client(
            self.transport, options.timeout or self.timeout, base_url=self.base_url
        ) as http:
            events = stream_events(
                http,
                f"{self.base_url}/chat/completions",
                body=self.request_body(messages, options),
                headers=headers,
                provider=self.name,
                retry=self.retry,
            )
            async for event in events:
                if event.data.strip() == "[DONE]":
                    return
                payload = event.json()
                if payload.get("error"):  # a mid-stream error (OpenAI, vLLM, llama.cpp)
                    error = payload["error"]
                    message = error.get("message", error) if isinstance(error, dict) else error
                    raise ModelError(f"{self.name} stopped with an error: {message}")
                for choice in payload.get("choices") or ():
                    text = (choice.get("delta") or {}).get("content")
                    if text:
                        yield text
                usage = payload.get("usage")
                if usage:
                    details = usage.get("prompt_tokens_details") or {}
                    yield Usage(
                        usage.get("prompt_tokens"),
                        usage.get("completion_tokens"),
                        details.get("cached_tokens"),
                    )
