"""What a model server sends besides a clean stream: each reaches the user as a clear outcome.

A real loopback server plays each reply; the answer pipeline turns it into an answer or a
fallback whose reason names the cause.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import sys
from collections.abc import AsyncGenerator, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from citesynth import Answer, Engine
from citesynth.errors import ModelError
from citesynth.llm import ChatOptions, Message, OpenAIModel, Usage
from citesynth.llm.anthropic import AnthropicModel
from citesynth.llm.gemini import GeminiModel
from citesynth.llm.http import Retry
from citesynth.synthesis import LLMWriter
from citesynth.synthesis.prompts import BUILT_IN
from tests.llm.server import Status, Step, Stream, openai_sse, serve

QUESTION = "What is the connect timeout default?"
ONCE = Retry(attempts=1)
COMPLETION = {
    "id": "chatcmpl-B1",
    "object": "chat.completion",
    "model": "m",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "The connect timeout is 5 s [1]."},
            "finish_reason": "stop",
        }
    ],
    "usage": {"prompt_tokens": 40, "completion_tokens": 9, "total_tokens": 49},
}
HTML = "<!doctype html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"


@pytest.fixture
async def indexed(engine: Engine, corpus: Path) -> Engine:
    await engine.index([corpus])
    return engine


async def _answer(engine: Engine, step: Step) -> Answer:
    with serve([step]) as server:
        model = OpenAIModel("m", base_url=f"{server.url}/v1", retry=ONCE)
        engine.writer = LLMWriter(model, BUILT_IN, timeout=5.0)
        return await engine.answer(QUESTION, cache=False)


@contextmanager
def unclosed() -> Iterator[list[str]]:
    """Names of our async generators left to the garbage collector to close (enter in the loop).

    The loop's finalizer closes each such generator in its own task; for nested generators
    those tasks race, which prints "aclose(): asynchronous generator is already running".
    """
    left: list[str] = []
    first, final = sys.get_asyncgen_hooks()

    def finalizer(generator: AsyncGenerator[object, None]) -> None:
        if "citesynth" in generator.ag_code.co_filename:  # httpx's own are closed with the response
            left.append(generator.__qualname__)
        if final is not None:
            final(generator)

    sys.set_asyncgen_hooks(first, finalizer)
    try:
        yield left
    finally:
        sys.set_asyncgen_hooks(first, final)


@pytest.mark.parametrize(
    "events",
    [["data: not json at all\n\n"], openai_sse(["Five seconds [1]."]), openai_sse(["x"])[:2]],
    ids=["not-json", "complete", "broken-off"],
)
async def test_no_stream_generator_is_left_for_the_garbage_collector(events: list[str]) -> None:
    with unclosed() as left, serve([Stream(events)]) as server:
        model = OpenAIModel("m", base_url=f"{server.url}/v1", retry=ONCE)
        with contextlib.suppress(ModelError):  # the outcome is tested below; cleanup here
            async for _ in model.stream([Message("user", "hi")], ChatOptions()):
                pass
        gc.collect()
        await asyncio.sleep(0.05)
    assert left == []


async def test_non_json_stream_data_falls_back_with_the_cause(indexed: Engine) -> None:
    answer = await _answer(indexed, Stream(["data: <b>not json</b>\n\n"]))
    assert answer.fallback is not None
    assert "stream data that is not JSON" in answer.fallback.reason


async def test_an_html_page_is_named_as_html(indexed: Engine) -> None:
    answer = await _answer(indexed, Status(200, HTML, content_type="text/html; charset=utf-8"))
    assert answer.fallback is not None
    reason = answer.fallback.reason
    assert "answered HTML, not a stream" in reason and "502 Bad Gateway" in reason
    assert "returned no text" not in reason


async def test_a_whole_json_completion_is_accepted(indexed: Engine) -> None:
    answer = await _answer(indexed, Status(200, json.dumps(COMPLETION)))
    assert answer.fallback is None
    assert answer.answer == "The connect timeout is 5 s [1]."
    assert answer.usage.prompt_tokens == 40 and answer.usage.completion_tokens == 9


async def test_a_stream_without_done_or_finish_reason_broke_off(indexed: Engine) -> None:
    events = openai_sse(["The connect timeout is 5 s", " [1]."])[:3]  # no finish, no [DONE]
    answer = await _answer(indexed, Stream(events))
    assert answer.fallback is not None
    assert "stream broke off" in answer.fallback.reason


async def test_a_finish_reason_without_done_is_complete(indexed: Engine) -> None:
    events = openai_sse(["The connect timeout is 5 s", " [1]."])[:-1]  # all but [DONE]
    answer = await _answer(indexed, Stream(events))
    assert answer.fallback is None and answer.answer == "The connect timeout is 5 s [1]."


async def test_anthropic_and_gemini_accept_a_whole_json_reply() -> None:
    whole = {
        "/v1/messages": {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "text", "text": "Five seconds [1]."}],
            "stop_reason": "end_turn",
            "usage": {"input_tokens": 12, "output_tokens": 5},
        },
        "/v1beta/models/g:streamGenerateContent": {
            "candidates": [{"content": {"parts": [{"text": "Five seconds [1]."}]}}],
            "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 5},
        },
    }

    def reply(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=whole[request.url.path])

    transport = httpx.MockTransport(reply)
    for model in (
        AnthropicModel("a", api_key="k", transport=transport, retry=ONCE),
        GeminiModel("g", api_key="k", transport=transport, retry=ONCE),
    ):
        pieces = [p async for p in model.stream([Message("user", "hi")], ChatOptions())]
        assert pieces == ["Five seconds [1].", Usage(12, 5, None)], model.name


async def test_a_capped_answer_closes_the_model_stream_at_once(indexed: Engine) -> None:
    endless = openai_sse(["The connect timeout defaults to five seconds [1]. " * 40])[:2]
    with unclosed() as left, serve([Stream(endless, forever=True)]) as server:
        model = OpenAIModel("m", base_url=f"{server.url}/v1", retry=ONCE)
        indexed.writer = LLMWriter(model, BUILT_IN, timeout=30.0)
        answer = await indexed.answer(QUESTION, cache=False)
        assert await asyncio.to_thread(server.disconnected.wait, 5)  # before any collection
        gc.collect()
        await asyncio.sleep(0.05)
    assert any("cut at" in warning for warning in answer.warnings), (
        answer.fallback,
        answer.warnings,
    )
    assert left == []
