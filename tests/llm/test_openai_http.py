"""OpenAIModel against a real HTTP server on loopback that speaks the chat-completions SSE."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing

import pytest

from citesynth.errors import ModelError, ModelHTTPError, ModelTimeout
from citesynth.llm import ChatOptions, Message, OpenAIModel, Piece, Usage
from citesynth.llm.http import Retry
from tests.llm.server import Sleep, Status, Step, Stream, openai_sse, serve

FAST = Retry(attempts=3, base_delay=0.01, max_delay=0.05)
MESSAGES = [
    Message("system", "Answer from the sources only and cite them as [n]."),
    Message("user", "[1] guide.md\nThe connect timeout defaults to five seconds.\n\nQ: default?"),
    Message("assistant", "The default is five seconds [1]."),
    Message("user", "And in milliseconds?"),
]
USAGE = {
    "prompt_tokens": 57,
    "completion_tokens": 9,
    "total_tokens": 66,
    "prompt_tokens_details": {"cached_tokens": 32, "audio_tokens": 0},
    "completion_tokens_details": {"reasoning_tokens": 0},
}
PIECES = ["Five", " seconds", " is", " 5000", " ms", " [1]."]


async def collect(stream: AsyncIterator[Piece]) -> tuple[str, list[Usage]]:
    text, usages = [], []
    async for piece in stream:
        if isinstance(piece, Usage):
            usages.append(piece)
        else:
            text.append(piece)
    return "".join(text), usages


async def fill(stream: AsyncIterator[Piece], seen: list[Piece]) -> None:
    """Append each piece to `seen`, so the pieces before an error can be checked."""
    async for piece in stream:
        seen.append(piece)


async def test_streams_text_then_usage() -> None:
    with serve([Stream(openai_sse(PIECES, USAGE))]) as server:
        model = OpenAIModel("gpt-4o-mini", base_url=f"{server.url}/v1", api_key="sk-test")
        pieces = [piece async for piece in model.stream(MESSAGES, ChatOptions())]
    assert pieces[:-1] == PIECES  # one piece per delta, in order, the empty role delta dropped
    assert pieces[-1] == Usage(prompt_tokens=57, completion_tokens=9, cached_tokens=32)
    assert len(server.requests) == 1


async def test_request_matches_the_chat_completions_api() -> None:
    options = ChatOptions(max_tokens=200, temperature=0.0, stop=("\n\nQ:", "</answer>"))
    with serve([Stream(openai_sse(["ok"], USAGE))]) as server:
        model = OpenAIModel("gpt-4o-mini", base_url=f"{server.url}/v1/", api_key="sk-test")
        await collect(model.stream(MESSAGES, options))
    (seen,) = server.requests
    assert seen.method == "POST"
    assert seen.path == "/v1/chat/completions"  # the trailing slash of base_url is dropped
    assert seen.headers["authorization"] == "Bearer sk-test"
    assert seen.headers["content-type"] == "application/json"
    assert seen.body == {
        "model": "gpt-4o-mini",
        "messages": [{"role": m.role, "content": m.content} for m in MESSAGES],
        "stream": True,
        "stream_options": {"include_usage": True},
        "max_tokens": 200,
        "temperature": 0.0,
        "stop": ["\n\nQ:", "</answer>"],
    }


async def test_no_key_no_authorization_header_and_extra_body_is_merged() -> None:
    with serve([Stream(openai_sse(["ok"]))]) as server:
        model = OpenAIModel(
            "qwen", base_url=server.url, extra_body={"cache_prompt": True, "temperature": 0.7}
        )
        text, usages = await collect(model.stream(MESSAGES[:2], ChatOptions(temperature=0.1)))
    (seen,) = server.requests
    assert "authorization" not in seen.headers
    assert "stop" not in seen.body  # no stop sequences: the field is left out
    assert seen.body["cache_prompt"] is True
    assert seen.body["temperature"] == 0.7  # extra_body wins over the options
    assert text == "ok"
    assert usages == []  # a server that reports no usage: no Usage piece


async def test_retries_500_and_429_then_succeeds() -> None:
    script: list[Step] = [
        Status(500, json.dumps({"error": {"message": "The server had an error"}})),
        Status(429, json.dumps({"error": {"message": "Rate limit"}}), {"retry-after": "0"}),
        Stream(openai_sse(PIECES, USAGE)),
    ]
    with serve(script) as server:
        model = OpenAIModel("m", base_url=server.url, retry=FAST)
        text, usages = await collect(model.stream(MESSAGES, ChatOptions()))
    assert len(server.requests) == 3
    assert [r.body for r in server.requests[1:]] == [server.requests[0].body] * 2
    assert text == "".join(PIECES)
    assert usages == [Usage(57, 9, 32)]


async def test_gives_up_after_the_last_attempt_with_the_status() -> None:
    busy = Status(503, json.dumps({"error": {"message": "Service Unavailable"}}))
    with serve([busy]) as server:
        model = OpenAIModel("m", base_url=server.url, retry=FAST, name="vllm:m")
        with pytest.raises(ModelHTTPError) as caught:
            await collect(model.stream(MESSAGES, ChatOptions()))
    assert len(server.requests) == FAST.attempts
    assert caught.value.status == 503
    assert str(caught.value) == "vllm:m answered HTTP 503: Service Unavailable"


async def test_400_is_not_retried_and_says_why() -> None:
    detail = {
        "error": {
            "message": "max_tokens is too large: 999999.",
            "type": "invalid_request_error",
            "param": "max_tokens",
            "code": None,
        }
    }
    with serve([Status(400, json.dumps(detail)), Stream(openai_sse(["never"]))]) as server:
        model = OpenAIModel("gpt-4o-mini", base_url=server.url, retry=FAST)
        with pytest.raises(ModelHTTPError) as caught:
            await collect(model.stream(MESSAGES, ChatOptions(max_tokens=999999)))
    assert len(server.requests) == 1
    assert caught.value.status == 400
    assert "HTTP 400" in str(caught.value)
    assert "max_tokens is too large" in caught.value.reason


async def test_read_timeout_raises_model_timeout_quickly() -> None:
    with serve([Sleep(10.0, Stream(openai_sse(["late"])))]) as server:
        model = OpenAIModel("m", base_url=server.url, retry=FAST)
        started = time.monotonic()
        with pytest.raises(ModelTimeout, match="did not answer in time"):
            await collect(model.stream(MESSAGES, ChatOptions(timeout=0.5)))
        elapsed = time.monotonic() - started
    assert elapsed < 5.0
    assert len(server.requests) == 1  # a timeout is not retried


async def test_a_stall_between_pieces_is_a_timeout_too() -> None:
    events = openai_sse(["first", " second"])[1:]  # no role delta: text comes first
    with serve([Stream(events, pause=3.0)]) as server:
        model = OpenAIModel("m", base_url=server.url, timeout=0.5)
        seen: list[Piece] = []
        with pytest.raises(ModelTimeout):
            await fill(model.stream(MESSAGES, ChatOptions()), seen)
    assert seen == ["first"]


async def test_a_reply_cut_off_midway_is_an_error_and_not_retried() -> None:
    events = openai_sse(["The default", " is five"])[:3]
    with serve([Stream(events, cut=True)]) as server:
        model = OpenAIModel("m", base_url=server.url, retry=FAST)
        seen: list[Piece] = []
        with pytest.raises(ModelError):
            await fill(model.stream(MESSAGES, ChatOptions()), seen)
    assert seen == ["The default", " is five"]
    assert len(server.requests) == 1


async def test_an_error_event_in_the_stream_raises() -> None:
    error = {"error": {"message": "Context size has been exceeded.", "type": "server_error"}}
    events = [*openai_sse(["partial"])[:2], f"data: {json.dumps(error)}\n\n", "data: [DONE]\n\n"]
    with serve([Stream(events)]) as server:
        model = OpenAIModel("m", base_url=server.url, name="local")
        seen: list[Piece] = []
        with pytest.raises(ModelError) as caught:
            await fill(model.stream(MESSAGES, ChatOptions()), seen)
    assert seen == ["partial"]  # no Usage: the reply did not finish
    assert str(caught.value) == "local stopped with an error: Context size has been exceeded."


async def test_unreachable_server_is_a_model_error_after_retries() -> None:
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    model = OpenAIModel("m", base_url=f"http://127.0.0.1:{port}/v1", retry=FAST)
    with pytest.raises(ModelError, match=rf"cannot reach openai:m at http://127.0.0.1:{port}/v1"):
        await collect(model.stream(MESSAGES, ChatOptions()))


async def test_aclose_after_a_break_closes_the_connection() -> None:
    forever = [*openai_sse(["tick"])[:2]]
    with serve([Stream(forever, pause=0.05, forever=True)]) as server:
        model = OpenAIModel("m", base_url=server.url)
        started = time.monotonic()
        pieces: list[Piece] = []
        stream = model.stream(MESSAGES, ChatOptions())
        assert isinstance(stream, AsyncGenerator)
        async with aclosing(stream):
            async for piece in stream:
                pieces.append(piece)
                if len(pieces) == 3:
                    break
        closed = time.monotonic() - started
        hung_up = await asyncio.to_thread(server.disconnected.wait, 10.0)
    assert pieces == ["tick"] * 3
    assert closed < 5.0
    assert hung_up  # the server saw the client go away: generation can stop


async def test_a_plain_break_closes_the_connection_too() -> None:
    forever = [*openai_sse(["tick"])[:2]]
    with serve([Stream(forever, pause=0.05, forever=True)]) as server:
        model = OpenAIModel("m", base_url=server.url)
        async for piece in model.stream(MESSAGES, ChatOptions()):
            assert piece == "tick"
            break  # the abandoned generator is closed by the event loop's finalizer
        hung_up = await asyncio.to_thread(server.disconnected.wait, 10.0)
    assert hung_up


async def test_cancelling_the_task_closes_the_connection() -> None:
    forever = [*openai_sse(["tick"])[:2]]
    with serve([Stream(forever, pause=0.05, forever=True)]) as server:
        model = OpenAIModel("m", base_url=server.url)
        first = asyncio.Event()

        async def consume() -> None:
            async for _ in model.stream(MESSAGES, ChatOptions()):
                first.set()

        task = asyncio.create_task(consume())
        await asyncio.wait_for(first.wait(), 10.0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 5.0)
        hung_up = await asyncio.to_thread(server.disconnected.wait, 10.0)
    assert hung_up
