"""Anthropic and Gemini adapters, replaying recorded streams through the transport seam.

The cassettes in tests/cassettes are the providers' documented wire formats byte for byte
(Anthropic: `event:`/`data:` pairs separated by LF; Gemini `alt=sse`: `data:` lines separated
by CRLF). They replay through `httpx.MockTransport`, cut into odd-sized chunks so that lines
and CRLFs straddle reads, while the adapters run unchanged; each test also checks the request
the adapter sent against the provider's API.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import httpx
import pytest

from citesynth.errors import ModelError, ModelHTTPError
from citesynth.llm import AnthropicModel, ChatOptions, GeminiModel, Message, Piece, Usage
from citesynth.llm.http import Retry
from tests.llm.server import Stream, serve

CASSETTES = Path(__file__).resolve().parents[1] / "cassettes"
FAST = Retry(attempts=3, base_delay=0.001, max_delay=5.0)
CLAUDE = "claude-3-5-haiku-20241022"
GEMINI = "gemini-2.0-flash"
MESSAGES = [
    Message("system", "Answer from the numbered sources only; cite them as [n]."),
    Message("user", "[1] guide.md › Connect timeout\nIt defaults to five seconds.\n\nQ: default?"),
    Message("assistant", "Five seconds [1]."),
    Message("system", "Be brief."),
    Message("user", "Say it as one sentence."),
]
OPTIONS = ChatOptions(max_tokens=300, temperature=0.2, stop=("\n\nSources:",))


def cassette(name: str) -> bytes:
    return (CASSETTES / name).read_bytes()


async def _chunks(data: bytes, size: int = 17) -> AsyncIterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start : start + size]


def sse(data: bytes) -> Callable[[], httpx.Response]:
    return lambda: httpx.Response(
        200, headers={"content-type": "text/event-stream"}, content=_chunks(data)
    )


def status(code: int, body: object, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(code, json=body, headers=headers)


class Replay:
    """Answers the requests in order, records each one; the last answer repeats."""

    def __init__(self, *answers: httpx.Response | Callable[[], httpx.Response]) -> None:
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []
        self.transport = httpx.MockTransport(self.handle)

    async def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        return answer() if callable(answer) else answer

    def body(self, index: int = 0) -> object:
        return json.loads(self.requests[index].content)


async def drain(stream: AsyncIterator[Piece]) -> list[Piece]:
    return [piece async for piece in stream]


async def fill(stream: AsyncIterator[Piece], seen: list[Piece]) -> None:
    """Append each piece to `seen`, so the pieces before an error can be checked."""
    async for piece in stream:
        seen.append(piece)


def text_of(pieces: list[Piece]) -> str:
    return "".join(piece for piece in pieces if isinstance(piece, str))


def anthropic(replay: Replay, retry: Retry = FAST) -> AnthropicModel:
    return AnthropicModel(CLAUDE, api_key="sk-ant-test", transport=replay.transport, retry=retry)


def gemini(replay: Replay, retry: Retry = FAST) -> GeminiModel:
    return GeminiModel(GEMINI, api_key="AIza-test", transport=replay.transport, retry=retry)


# Anthropic


async def test_anthropic_streams_text_then_usage() -> None:
    replay = Replay(sse(cassette("anthropic_stream.sse")))
    pieces = await drain(anthropic(replay).stream(MESSAGES, OPTIONS))
    assert pieces == [
        "The connect timeout",
        " defaults to five",
        " seconds [1].",
        Usage(prompt_tokens=412, completion_tokens=13, cached_tokens=256),
    ]


async def test_anthropic_request_matches_the_messages_api() -> None:
    replay = Replay(sse(cassette("anthropic_stream.sse")))
    await drain(anthropic(replay).stream(MESSAGES, OPTIONS))
    (request,) = replay.requests
    assert request.method == "POST"
    assert str(request.url) == "https://api.anthropic.com/v1/messages"
    assert request.headers["x-api-key"] == "sk-ant-test"
    assert request.headers["anthropic-version"] == "2023-06-01"
    assert request.headers["content-type"] == "application/json"
    assert "authorization" not in request.headers
    assert replay.body() == {
        "model": CLAUDE,
        "max_tokens": 300,
        "temperature": 0.2,
        "stream": True,
        # every system message, in order, in the top-level field; none left in `messages`
        "system": "Answer from the numbered sources only; cite them as [n].\n\nBe brief.",
        "messages": [
            {"role": "user", "content": MESSAGES[1].content},
            {"role": "assistant", "content": "Five seconds [1]."},
            {"role": "user", "content": "Say it as one sentence."},
        ],
        "stop_sequences": ["\n\nSources:"],
    }


async def test_anthropic_leaves_out_empty_system_and_stops() -> None:
    replay = Replay(sse(cassette("anthropic_stream.sse")))
    model = AnthropicModel(
        CLAUDE,
        api_key="k",
        base_url="https://gateway.example/anthropic/",
        transport=replay.transport,
    )
    await drain(model.stream([Message("user", "hi")], ChatOptions()))
    assert str(replay.requests[0].url) == "https://gateway.example/anthropic/v1/messages"
    body = replay.body()
    assert isinstance(body, dict)
    assert "system" not in body and "stop_sequences" not in body
    assert body["messages"] == [{"role": "user", "content": "hi"}]


async def test_anthropic_error_event_mid_stream_raises() -> None:
    replay = Replay(sse(cassette("anthropic_overloaded.sse")))
    pieces: list[Piece] = []
    with pytest.raises(ModelError) as caught:
        await fill(anthropic(replay).stream(MESSAGES, OPTIONS), pieces)
    assert pieces == ["The connect"]
    assert str(caught.value) == f"anthropic:{CLAUDE} stopped with an error: Overloaded"
    assert not isinstance(caught.value, ModelHTTPError)
    assert len(replay.requests) == 1  # a reply that broke off is never silently retried


async def test_anthropic_401_is_clear_and_not_retried() -> None:
    error = {
        "type": "error",
        "error": {"type": "authentication_error", "message": "invalid x-api-key"},
    }
    replay = Replay(status(401, error), sse(cassette("anthropic_stream.sse")))
    with pytest.raises(ModelHTTPError) as caught:
        await drain(anthropic(replay).stream(MESSAGES, OPTIONS))
    assert caught.value.status == 401
    assert str(caught.value) == f"anthropic:{CLAUDE} answered HTTP 401: invalid x-api-key"
    assert len(replay.requests) == 1


async def test_anthropic_429_is_retried_after_retry_after() -> None:
    limited = {"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}
    replay = Replay(
        status(429, limited, {"retry-after": "1"}), sse(cassette("anthropic_stream.sse"))
    )
    started = time.monotonic()
    pieces = await drain(anthropic(replay).stream(MESSAGES, OPTIONS))
    waited = time.monotonic() - started
    assert len(replay.requests) == 2
    assert replay.body(0) == replay.body(1)
    assert text_of(pieces) == "The connect timeout defaults to five seconds [1]."
    assert pieces[-1] == Usage(412, 13, 256)
    assert waited >= 0.9  # Retry-After: 1, although the backoff alone would be ~1 ms


async def test_anthropic_retry_after_is_capped() -> None:
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    replay = Replay(
        status(529, overloaded, {"retry-after": "3600"}), sse(cassette("anthropic_stream.sse"))
    )
    capped = Retry(attempts=2, base_delay=0.001, max_delay=0.05)
    started = time.monotonic()
    pieces = await drain(anthropic(replay, capped).stream(MESSAGES, OPTIONS))
    assert time.monotonic() - started < 2.0
    assert len(replay.requests) == 2
    assert pieces[-1] == Usage(412, 13, 256)


async def test_anthropic_keeps_failing_gives_the_last_status() -> None:
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    replay = Replay(status(529, overloaded))
    with pytest.raises(ModelHTTPError, match="HTTP 529: Overloaded") as caught:
        await drain(anthropic(replay).stream(MESSAGES, OPTIONS))
    assert caught.value.status == 529
    assert len(replay.requests) == FAST.attempts


# Gemini


async def test_gemini_streams_text_then_usage() -> None:
    replay = Replay(sse(cassette("gemini_stream.sse")))
    pieces = await drain(gemini(replay).stream(MESSAGES, OPTIONS))
    assert pieces == [
        "The connect timeout",
        " defaults to five seconds",
        " [1].\n",
        Usage(prompt_tokens=398, completion_tokens=12, cached_tokens=256),
    ]


async def test_gemini_request_matches_the_generate_content_api() -> None:
    replay = Replay(sse(cassette("gemini_stream.sse")))
    await drain(gemini(replay).stream(MESSAGES, OPTIONS))
    (request,) = replay.requests
    assert request.method == "POST"
    assert request.url.host == "generativelanguage.googleapis.com"
    assert request.url.path == f"/v1beta/models/{GEMINI}:streamGenerateContent"
    assert dict(request.url.params) == {"alt": "sse"}  # the key is not in the URL
    assert request.headers["x-goog-api-key"] == "AIza-test"
    assert request.headers["content-type"] == "application/json"
    assert replay.body() == {
        "systemInstruction": {
            "parts": [
                {"text": "Answer from the numbered sources only; cite them as [n].\n\nBe brief."}
            ]
        },
        "contents": [
            {"role": "user", "parts": [{"text": MESSAGES[1].content}]},
            {"role": "model", "parts": [{"text": "Five seconds [1]."}]},
            {"role": "user", "parts": [{"text": "Say it as one sentence."}]},
        ],
        "generationConfig": {
            "maxOutputTokens": 300,
            "temperature": 0.2,
            "stopSequences": ["\n\nSources:"],
        },
    }


async def test_gemini_leaves_out_empty_system_and_stops() -> None:
    replay = Replay(sse(cassette("gemini_stream.sse")))
    await drain(gemini(replay).stream([Message("user", "hi")], ChatOptions(max_tokens=5)))
    body = replay.body()
    assert isinstance(body, dict)
    assert "systemInstruction" not in body
    assert body["generationConfig"] == {"maxOutputTokens": 5, "temperature": 0.3}


async def test_gemini_400_is_clear_and_not_retried() -> None:
    error = {
        "error": {
            "code": 400,
            "message": "API key not valid. Please pass a valid API key.",
            "status": "INVALID_ARGUMENT",
            "details": [
                {
                    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": "API_KEY_INVALID",
                    "domain": "googleapis.com",
                }
            ],
        }
    }
    replay = Replay(status(400, error), sse(cassette("gemini_stream.sse")))
    with pytest.raises(ModelHTTPError) as caught:
        await drain(gemini(replay).stream(MESSAGES, OPTIONS))
    assert caught.value.status == 400
    assert str(caught.value) == (
        f"gemini:{GEMINI} answered HTTP 400: API key not valid. Please pass a valid API key."
    )
    assert len(replay.requests) == 1


async def test_gemini_503_is_retried() -> None:
    busy = {"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}
    replay = Replay(status(503, busy), status(503, busy), sse(cassette("gemini_stream.sse")))
    pieces = await drain(gemini(replay).stream(MESSAGES, OPTIONS))
    assert len(replay.requests) == 3
    assert text_of(pieces) == "The connect timeout defaults to five seconds [1].\n"


async def test_gemini_safety_stop_raises() -> None:
    chunk = {
        "candidates": [
            {
                "content": {"parts": [{"text": "I"}], "role": "model"},
                "finishReason": "SAFETY",
                "index": 0,
                "safetyRatings": [
                    {"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH"}
                ],
            }
        ],
        "usageMetadata": {"promptTokenCount": 12, "totalTokenCount": 12},
    }
    replay = Replay(sse(f"data: {json.dumps(chunk)}\r\n\r\n".encode()))
    with pytest.raises(ModelError, match="safety filter"):
        await drain(gemini(replay).stream(MESSAGES, OPTIONS))


# The cassettes over a real socket: a loopback base URL is reached directly, never via a proxy


@pytest.mark.parametrize(
    ("make", "name"),
    [
        (lambda url: AnthropicModel(CLAUDE, api_key="k", base_url=url), "anthropic_stream.sse"),
        (lambda url: GeminiModel(GEMINI, api_key="k", base_url=url), "gemini_stream.sse"),
    ],
)
async def test_loopback_base_url_ignores_proxy_settings(
    monkeypatch: pytest.MonkeyPatch,
    make: Callable[[str], AnthropicModel | GeminiModel],
    name: str,
) -> None:
    for variable in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "all_proxy"):
        monkeypatch.setenv(variable, "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    with serve([Stream([cassette(name).decode()])]) as server:
        pieces = await drain(make(server.url).stream(MESSAGES, OPTIONS))
    assert text_of(pieces).startswith("The connect timeout defaults to five")
    assert isinstance(pieces[-1], Usage)
    (seen,) = server.requests
    assert seen.path.startswith(("/v1/messages", "/v1beta/models/"))


# Retry delays


def test_retry_delay_honours_and_caps_retry_after() -> None:
    retry = Retry(attempts=3, base_delay=0.5, max_delay=8.0)
    assert retry.delay(0, "2") == 2.0
    assert retry.delay(0, "1.5") == 1.5
    assert retry.delay(0, "120") == 8.0
    assert retry.delay(0, "-3") == 0.0
    for attempt in range(6):
        backoff = min(8.0, 0.5 * 2**attempt)
        for retry_after in (None, "", "Wed, 21 Oct 2015 07:28:00 GMT"):
            assert backoff / 2 <= retry.delay(attempt, retry_after) <= backoff
