"""Tool calls on every adapter: the tools and tool results sent, the `ToolCall` pieces parsed.

The `*_tool_call.sse` cassettes follow each vendor's documented stream format for a call
(OpenAI: `delta.tool_calls[i]` fragments; Anthropic: a `tool_use` block filled by
`input_json_delta`; Gemini: whole `functionCall` parts) and replay through
`httpx.MockTransport`, cut into odd-sized chunks, as in test_recorded_providers.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from citesynth.errors import ModelError
from citesynth.llm import (
    ChatOptions,
    Message,
    OpenAIModel,
    ScriptedModel,
    ToolCall,
    ToolSpec,
    Usage,
)
from tests.llm.server import Stream, openai_tool_sse, serve
from tests.llm.test_recorded_providers import (
    CLAUDE,
    FAST,
    Replay,
    anthropic,
    cassette,
    drain,
    fill,
    gemini,
    sse,
)

SEARCH = ToolSpec(
    "search",
    "Search the user's documents; returns numbered passages.",
    {
        "type": "object",
        "properties": {"query": {"type": "string", "description": "what to look for"}},
        "required": ["query"],
    },
)
OPEN = ToolSpec(
    "open_source",
    "Show one numbered source in full.",
    {"type": "object", "properties": {"number": {"type": "integer"}}, "required": ["number"]},
)
TOOLS = ChatOptions(max_tokens=300, temperature=0.0, tools=(SEARCH, OPEN))
CALLS = (
    ToolCall("call_1", "search", {"query": "connect timeout"}),
    ToolCall("call_2", "open_source", {"number": 2}),
)
ROUND_TRIP = [  # the second turn of an agent loop: the model called two tools, here are results
    Message("system", "Answer from the sources; cite them as [n]."),
    Message("user", "What is the default connect timeout?"),
    Message("assistant", "Let me look.", tool_calls=CALLS),
    Message(
        "tool", "[1] guide.md: The connect timeout defaults to five seconds.", tool_call_id="call_1"
    ),
    Message("tool", "[2] api.md: timeout=5.0", tool_call_id="call_2"),
]


def openai(replay: Replay) -> OpenAIModel:
    return OpenAIModel("gpt-4o-mini", api_key="sk-test", transport=replay.transport, retry=FAST)


# OpenAI


async def test_openai_parses_streamed_tool_calls() -> None:
    replay = Replay(sse(cassette("openai_tool_call.sse")))
    pieces = await drain(openai(replay).stream(ROUND_TRIP[:2], TOOLS))
    assert pieces == [
        ToolCall("call_DdmO9pD3xa9XTPNJ32zg2hcA", "search", {"query": "connect timeout default"}),
        ToolCall("call_Kx2bV9YqL1mR4tN7sP0wE3fH", "open_source", {"number": 1}),
        Usage(prompt_tokens=182, completion_tokens=41, cached_tokens=0),
    ]


async def test_openai_sends_tools_and_tool_results() -> None:
    replay = Replay(sse(cassette("openai_tool_call.sse")))
    await drain(openai(replay).stream(ROUND_TRIP, TOOLS))
    (request,) = replay.requests
    assert str(request.url) == "https://api.openai.com/v1/chat/completions"
    assert replay.body() == {
        "model": "gpt-4o-mini",
        "messages": [
            {"role": "system", "content": ROUND_TRIP[0].content},
            {"role": "user", "content": ROUND_TRIP[1].content},
            {
                "role": "assistant",
                "content": "Let me look.",
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "search", "arguments": '{"query": "connect timeout"}'},
                    },
                    {
                        "id": "call_2",
                        "type": "function",
                        "function": {"name": "open_source", "arguments": '{"number": 2}'},
                    },
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": ROUND_TRIP[3].content},
            {"role": "tool", "tool_call_id": "call_2", "content": ROUND_TRIP[4].content},
        ],
        "stream": True,
        "stream_options": {"include_usage": True},
        "max_tokens": 300,
        "temperature": 0.0,
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "search",
                    "description": SEARCH.description,
                    "parameters": SEARCH.parameters,
                },
            },
            {
                "type": "function",
                "function": {
                    "name": "open_source",
                    "description": OPEN.description,
                    "parameters": OPEN.parameters,
                },
            },
        ],
    }


async def test_openai_assistant_calls_without_text_send_null_content() -> None:
    replay = Replay(sse(cassette("openai_tool_call.sse")))
    messages = [Message("user", "q"), Message("assistant", "", tool_calls=CALLS[:1])]
    await drain(openai(replay).stream(messages, ChatOptions()))
    body = replay.body()
    assert isinstance(body, dict)
    assert body["messages"][1]["content"] is None
    assert "tools" not in body  # no tools offered: the field is left out


async def test_openai_tool_call_over_a_real_loopback_server() -> None:
    usage = {"prompt_tokens": 90, "completion_tokens": 12, "total_tokens": 102}
    arguments = json.dumps({"query": "connect timeout", "k": 3})
    with serve([Stream(openai_tool_sse([("call_9", "search", arguments)], usage))]) as server:
        model = OpenAIModel("m", base_url=f"{server.url}/v1")
        pieces = await drain(model.stream(ROUND_TRIP[:2], TOOLS))
    assert pieces == [
        ToolCall("call_9", "search", {"query": "connect timeout", "k": 3}),
        Usage(prompt_tokens=90, completion_tokens=12),
    ]
    (seen,) = server.requests
    assert [tool["function"]["name"] for tool in seen.body["tools"]] == ["search", "open_source"]


# Anthropic


async def test_anthropic_parses_a_tool_use_block() -> None:
    replay = Replay(sse(cassette("anthropic_tool_call.sse")))
    pieces = await drain(anthropic(replay).stream(ROUND_TRIP[:2], TOOLS))
    assert pieces == [
        "Let me search",
        " the guide.",
        ToolCall("toolu_01T1x1fJ34qAmk2tNTrN7Up6", "search", {"query": "connect timeout default"}),
        Usage(prompt_tokens=472, completion_tokens=89, cached_tokens=0),
    ]


async def test_anthropic_sends_tools_tool_use_and_tool_result_blocks() -> None:
    replay = Replay(sse(cassette("anthropic_tool_call.sse")))
    await drain(anthropic(replay).stream([*ROUND_TRIP, Message("user", "Thanks.")], TOOLS))
    assert replay.body() == {
        "model": CLAUDE,
        "max_tokens": 300,
        "temperature": 0.0,
        "stream": True,
        "system": ROUND_TRIP[0].content,
        "messages": [
            {"role": "user", "content": ROUND_TRIP[1].content},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Let me look."},
                    {
                        "type": "tool_use",
                        "id": "call_1",
                        "name": "search",
                        "input": {"query": "connect timeout"},
                    },
                    {
                        "type": "tool_use",
                        "id": "call_2",
                        "name": "open_source",
                        "input": {"number": 2},
                    },
                ],
            },
            {  # both results in one user message, as the API requires
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "call_1",
                        "content": ROUND_TRIP[3].content,
                    },
                    {
                        "type": "tool_result",
                        "tool_use_id": "call_2",
                        "content": ROUND_TRIP[4].content,
                    },
                ],
            },
            {"role": "user", "content": "Thanks."},
        ],
        "tools": [
            {
                "name": "search",
                "description": SEARCH.description,
                "input_schema": SEARCH.parameters,
            },
            {
                "name": "open_source",
                "description": OPEN.description,
                "input_schema": OPEN.parameters,
            },
        ],
    }


# Gemini


async def test_gemini_parses_function_calls_with_stable_ids() -> None:
    replay = Replay(sse(cassette("gemini_tool_call.sse")))
    first = await drain(gemini(replay).stream(ROUND_TRIP[:2], TOOLS))
    again = await drain(gemini(replay).stream(ROUND_TRIP[:2], TOOLS))
    assert first == [
        ToolCall("gemini-call-0-search", "search", {"query": "connect timeout default"}),
        ToolCall("gemini-call-1-open_source", "open_source", {"number": 1}),
        Usage(prompt_tokens=164, completion_tokens=18),
    ]
    assert again == first  # the same reply gives the same ids


async def test_gemini_sends_function_declarations_calls_and_responses() -> None:
    replay = Replay(sse(cassette("gemini_tool_call.sse")))
    await drain(gemini(replay).stream(ROUND_TRIP, TOOLS))
    assert replay.body() == {
        "systemInstruction": {"parts": [{"text": ROUND_TRIP[0].content}]},
        "contents": [
            {"role": "user", "parts": [{"text": ROUND_TRIP[1].content}]},
            {
                "role": "model",
                "parts": [
                    {"text": "Let me look."},
                    {"functionCall": {"name": "search", "args": {"query": "connect timeout"}}},
                    {"functionCall": {"name": "open_source", "args": {"number": 2}}},
                ],
            },
            {  # both responses in one turn, named after the calls they answer
                "role": "user",
                "parts": [
                    {
                        "functionResponse": {
                            "name": "search",
                            "response": {"result": ROUND_TRIP[3].content},
                        }
                    },
                    {
                        "functionResponse": {
                            "name": "open_source",
                            "response": {"result": ROUND_TRIP[4].content},
                        }
                    },
                ],
            },
        ],
        "generationConfig": {"maxOutputTokens": 300, "temperature": 0.0},
        "tools": [
            {
                "functionDeclarations": [
                    {
                        "name": "search",
                        "description": SEARCH.description,
                        "parameters": SEARCH.parameters,
                    },
                    {
                        "name": "open_source",
                        "description": OPEN.description,
                        "parameters": OPEN.parameters,
                    },
                ]
            }
        ],
    }


async def test_gemini_tool_result_without_its_call_says_what_to_keep() -> None:
    replay = Replay(sse(cassette("gemini_tool_call.sse")))
    orphan = [Message("user", "q"), Message("tool", "result", tool_call_id="call_7")]
    with pytest.raises(ModelError, match="'call_7' answers no call in the conversation"):
        await drain(gemini(replay).stream(orphan, TOOLS))
    assert replay.requests == []  # nothing was sent


# Malformed arguments: a ModelError that names the tool, never a traceback


def _openai_broken() -> bytes:
    events = openai_tool_sse([("call_1", "search", '{"query": "connect')])
    return "".join(events).encode()


def _anthropic_broken() -> bytes:
    text = cassette("anthropic_tool_call.sse").decode()
    return text.replace('default\\"}', "default").encode()


def _gemini_broken() -> bytes:
    chunk = {
        "candidates": [
            {"content": {"parts": [{"functionCall": {"name": "search", "args": ["x"]}}]}}
        ]
    }
    return f"data: {json.dumps(chunk)}\r\n\r\n".encode()


@pytest.mark.parametrize(
    ("make", "data", "problem"),
    [
        (lambda r: openai(r), _openai_broken(), "not valid JSON"),
        (lambda r: anthropic(r), _anthropic_broken(), "not valid JSON"),
        (lambda r: gemini(r), _gemini_broken(), "not a JSON object"),
    ],
    ids=["openai", "anthropic", "gemini"],
)
async def test_malformed_arguments_are_a_model_error(make: Any, data: bytes, problem: str) -> None:
    replay = Replay(sse(data))
    seen: list[Any] = []
    with pytest.raises(
        ModelError, match=f"called the tool 'search' with arguments that are {problem}"
    ):
        await fill(make(replay).stream(ROUND_TRIP[:2], TOOLS), seen)
    assert not any(isinstance(piece, ToolCall) for piece in seen)
    assert len(replay.requests) == 1  # a broken reply is not retried


async def test_calls_without_arguments_get_an_empty_dict() -> None:
    with serve([Stream(openai_tool_sse([("call_1", "list_sources", "")]))]) as server:
        model = OpenAIModel("m", base_url=server.url)
        pieces = await drain(model.stream(ROUND_TRIP[:2], TOOLS))
    assert pieces == [ToolCall("call_1", "list_sources", {})]


# ScriptedModel


async def test_scripted_model_scripts_tool_calls() -> None:
    call = ToolCall("call_1", "search", {"query": "connect timeout"})

    def answer(messages: Any) -> str:
        return f"It is {messages[-1].content} [1]."

    model = ScriptedModel([["Let me look.", call], answer, call], piece_chars=100)
    first = await drain(model.stream([Message("user", "timeout?")], TOOLS))
    assert first[:2] == ["Let me look.", call]
    assert isinstance(first[-1], Usage) and len(first) == 3
    result = [
        Message("user", "timeout?"),
        Message("assistant", "Let me look.", tool_calls=(call,)),
        Message("tool", "five seconds", tool_call_id="call_1"),
    ]
    second = await drain(model.stream(result, TOOLS))
    assert second[0] == "It is five seconds [1]."
    third = await drain(model.stream(result, TOOLS))
    assert third[0] == call  # a ToolCall alone is a reply too
    assert model.calls[1] == result
