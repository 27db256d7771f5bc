"""Google's Gemini API, streamed (`models/{model}:streamGenerateContent?alt=sse`).

System messages become `systemInstruction`; the assistant role is called `model`; each SSE
event carries a `GenerateContentResponse` with text parts and, at the end, `usageMetadata`.

Tools go out as `tools: [{functionDeclarations: [{name, description, parameters}]}]`. A call
arrives whole, as a `functionCall` part `{name, args}`; Gemini gives calls no id, so each gets
a stable one from its place in the reply (`gemini-call-0-search`). A result goes back as a
`functionResponse` part `{name, response: {result}}`, its name found from the call it answers.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from typing import Any

from citesynth.errors import ModelError
from citesynth.llm.base import ChatOptions, Message, Piece, ToolCall, Usage
from citesynth.llm.http import ServerEvent
from citesynth.llm.provider import HTTPModel, tool_arguments

DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com"


class GeminiModel(HTTPModel):
    """Gemini models over the Generative Language API."""

    family = "gemini"
    default_base_url = DEFAULT_BASE_URL

    def url(self) -> str:
        """The streaming generateContent address of the model (the key is in a header)."""
        return f"{self.base_url}/v1beta/models/{self.model}:streamGenerateContent?alt=sse"

    def headers(self) -> dict[str, str]:
        """The key."""
        return {"x-goog-api-key": self.api_key or ""}

    def request_body(self, messages: Sequence[Message], options: ChatOptions) -> dict[str, Any]:
        """The JSON body of one streaming generateContent request."""
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        config: dict[str, Any] = {
            "temperature": options.temperature,
            "maxOutputTokens": options.max_tokens,
        }
        if options.stop:
            config["stopSequences"] = list(options.stop)
        body: dict[str, Any] = {"contents": _contents(messages), "generationConfig": config}
        if system:
            body["systemInstruction"] = {"parts": [{"text": system}]}
        if options.tools:
            declarations = [
                {"name": t.name, "description": t.description, "parameters": t.parameters}
                for t in options.tools
            ]
            body["tools"] = [{"functionDeclarations": declarations}]
        return body

    async def decode(self, events: AsyncIterator[ServerEvent]) -> AsyncGenerator[Piece, None]:
        """Text deltas and tool calls, then the last usage reported."""
        usage: dict[str, Any] = {}
        calls = 0
        async for event in events:
            payload = event.json()
            if "error" in payload:
                message = payload["error"].get("message")
                raise ModelError(f"{self.name} stopped with an error: {message}")
            for candidate in payload.get("candidates") or ():
                for part in (candidate.get("content") or {}).get("parts") or ():
                    if part.get("text") and not part.get("thought"):
                        yield part["text"]
                    elif isinstance(part.get("functionCall"), dict):
                        yield self._call(part["functionCall"], calls)
                        calls += 1
                if candidate.get("finishReason") == "SAFETY":
                    raise ModelError(f"{self.name} refused to answer (safety filter)")
            usage = payload.get("usageMetadata") or usage
        if usage:
            yield Usage(
                usage.get("promptTokenCount"),
                usage.get("candidatesTokenCount"),
                usage.get("cachedContentTokenCount"),
            )

    def _call(self, call: dict[str, Any], number: int) -> ToolCall:
        """A `functionCall` part as a `ToolCall` with a stable id."""
        name = str(call.get("name") or "")
        arguments = tool_arguments(self.name, name, call.get("args"))
        return ToolCall(str(call.get("id") or f"gemini-call-{number}-{name}"), name, arguments)


def _contents(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """The conversation without system messages; consecutive tool results share a turn."""
    names = {call.id: call.name for m in messages for call in m.tool_calls}
    contents: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "system":
            continue
        if m.role == "tool":
            part = {"functionResponse": _response(m, names)}
            previous = contents[-1] if contents else None
            if previous and all("functionResponse" in p for p in previous["parts"]):
                previous["parts"].append(part)
            else:
                contents.append({"role": "user", "parts": [part]})
            continue
        parts: list[dict[str, Any]] = [{"text": m.content}] if m.content or not m.tool_calls else []
        parts += [{"functionCall": {"name": c.name, "args": c.arguments}} for c in m.tool_calls]
        contents.append({"role": "model" if m.role == "assistant" else "user", "parts": parts})
    return contents


def _response(message: Message, names: dict[str, str]) -> dict[str, Any]:
    """A tool result as a `functionResponse`, named after the call it answers."""
    name = names.get(message.tool_call_id or "")
    if name is None:
        raise ModelError(
            f"the tool result for call {message.tool_call_id!r} answers no call in the "
            "conversation: keep the assistant message whose tool_calls made it"
        )
    return {"name": name, "response": {"result": message.content}}
