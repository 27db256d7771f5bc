"""Google's Gemini API, streamed (`models/{model}:streamGenerateContent?alt=sse`).

System messages become `systemInstruction`; the assistant role is called `model`; each SSE
event carries a `GenerateContentResponse` with text parts and, at the end, `usageMetadata`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

import httpx

from citesynth.errors import ModelError
from citesynth.llm.base import ChatOptions, Message, Piece, Usage
from citesynth.llm.http import Retry, client, stream_events

DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com"


class GeminiModel:
    """Gemini models over the Generative Language API."""

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
        self.name = f"gemini:{model}"
        self.api_key = api_key
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.transport = transport
        self.retry = retry

    def request_body(self, messages: Sequence[Message], options: ChatOptions) -> dict[str, Any]:
        """The JSON body of one streaming generateContent request."""
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        config: dict[str, Any] = {
            "temperature": options.temperature,
            "maxOutputTokens": options.max_tokens,
        }
        if options.stop:
            config["stopSequences"] = list(options.stop)
        body: dict[str, Any] = {
            "contents": [
                {
                    "role": "model" if m.role == "assistant" else "user",
                    "parts": [{"text": m.content}],
                }
                for m in messages
                if m.role != "system"
            ],
            "generationConfig": config,
        }
        if system:
            body["systemInstruction"] = {"parts": [{"text": system}]}
        return body

    async def stream(
        self, messages: Sequence[Message], options: ChatOptions
    ) -> AsyncIterator[Piece]:
        """Stream a reply: text deltas, then the usage."""
        url = f"{self.base_url}/v1beta/models/{self.model}:streamGenerateContent?alt=sse"
        usage: dict[str, Any] = {}
        async with client(
            self.transport, options.timeout or self.timeout, base_url=self.base_url
        ) as http:
            events = stream_events(
                http,
                url,
                body=self.request_body(messages, options),
                headers={"x-goog-api-key": self.api_key},
                provider=self.name,
                retry=self.retry,
            )
            async for event in events:
                payload = event.json()
                if "error" in payload:
                    message = payload["error"].get("message")
                    raise ModelError(f"{self.name} stopped with an error: {message}")
                for candidate in payload.get("candidates") or ():
                    for part in (candidate.get("content") or {}).get("parts") or ():
                        if part.get("text") and not part.get("thought"):
                            yield part["text"]
                    if candidate.get("finishReason") == "SAFETY":
                        raise ModelError(f"{self.name} refused to answer (safety filter)")
                usage = payload.get("usageMetadata") or usage
        if usage:
            yield Usage(
                usage.get("promptTokenCount"),
                usage.get("candidatesTokenCount"),
                usage.get("cachedContentTokenCount"),
            )
