"""Models added from outside: `register_model`, and a package's `citesynth.plugins` entry point."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import AsyncGenerator, AsyncIterator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest

from citesynth.errors import ConfigError
from citesynth.llm import (
    MODELS,
    AnthropicModel,
    ChatModel,
    ChatOptions,
    HTTPModel,
    Message,
    Piece,
    ScriptedModel,
    ToolCall,
    get_model,
    register_model,
)
from citesynth.llm.http import ServerEvent
from citesynth.registry import reload_plugins


def mycloud(rest: str, environ: Mapping[str, str]) -> ChatModel:
    return ScriptedModel(
        [f"hello from {rest} in {environ.get('MYCLOUD_REGION', '?')}"], name=f"mycloud:{rest}"
    )


@pytest.fixture
def registered() -> Iterator[None]:
    register_model("MyCloud", mycloud, usage="mycloud:M")
    yield
    MODELS.unregister("mycloud")


@pytest.mark.usefixtures("registered")
async def test_a_registered_model_is_found_by_name() -> None:
    model = get_model("mycloud:big", {"MYCLOUD_REGION": "eu"})
    assert model.name == "mycloud:big"
    pieces = [p async for p in model.stream([Message("user", "hi")], ChatOptions())]
    assert "".join(p for p in pieces if isinstance(p, str)) == "hello from big in eu"
    assert "mycloud" in MODELS


@pytest.mark.usefixtures("registered")
def test_unknown_names_list_plugins_too() -> None:
    with pytest.raises(ConfigError) as caught:
        get_model("azure:gpt-4o", {})
    assert str(caught.value) == (
        "unknown model 'azure:gpt-4o': use local, openai:M, ollama:M, anthropic:M, gemini:M, "
        "fake, mycloud:M"
    )


@pytest.mark.usefixtures("registered")
def test_a_taken_prefix_needs_replace() -> None:
    with pytest.raises(ConfigError, match="'mycloud' is already registered; pass replace=True"):
        register_model("mycloud", mycloud)
    register_model("mycloud", lambda rest, environ: ScriptedModel(name="second"), replace=True)
    assert get_model("mycloud:x", {}).name == "second"


def test_a_plugin_can_replace_a_built_in() -> None:
    found = MODELS.find("anthropic:x")
    assert found is not None
    original = found[0]
    register_model("anthropic", lambda rest, environ: ScriptedModel(name="proxy"), replace=True)
    try:
        assert get_model("anthropic:claude", {}).name == "proxy"
    finally:
        register_model("anthropic", original, usage="anthropic:M", replace=True)
    assert isinstance(get_model("anthropic:c", {"ANTHROPIC_API_KEY": "k"}), AnthropicModel)


def test_an_http_model_without_its_key_says_so() -> None:
    with pytest.raises(ConfigError, match="no API key for 'anthropic': pass api_key"):
        AnthropicModel("claude")


PLUGIN = """
from citesynth.llm import ScriptedModel, register_model


def setup():
    register_model(
        "plugged",
        lambda rest, environ: ScriptedModel(["plugged in"], name=f"plugged:{rest}"),
        usage="plugged:M",
    )
"""


def test_an_entry_point_plugin_registers_its_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = tmp_path / "fakeplugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakeplugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[citesynth.plugins]\nplugged = fakeplugin_models:setup\n"
    )
    (tmp_path / "fakeplugin_models.py").write_text(textwrap.dedent(PLUGIN))
    monkeypatch.syspath_prepend(str(tmp_path))
    reload_plugins()
    try:
        model = get_model("plugged:mini", {})
        assert model.name == "plugged:mini"
        assert "plugged:M" in MODELS.usage()
    finally:
        MODELS.unregister("plugged")
        sys.modules.pop("fakeplugin_models", None)
        reload_plugins()


class EchoCloud(HTTPModel):
    """A made-up provider: only its wire format is written here, the rest is inherited."""

    family = "echocloud"
    default_base_url = "https://echo.example"

    def url(self) -> str:
        return f"{self.base_url}/v2/generate"

    def headers(self) -> dict[str, str]:
        return {"x-echo-key": self.api_key or ""}

    def request_body(self, messages: Sequence[Message], options: ChatOptions) -> dict[str, Any]:
        return {"model": self.model, "prompt": messages[-1].content, "limit": options.max_tokens}

    async def decode(self, events: AsyncIterator[ServerEvent]) -> AsyncGenerator[Piece, None]:
        async for event in events:
            payload = event.json()
            if event.event == "call":
                yield ToolCall(payload["id"], payload["tool"], payload["args"])
            else:
                yield payload["text"]


async def test_a_plugin_provider_only_states_its_wire_format() -> None:
    stream = (
        'data: {"text": "Searching"}\n\n'
        'event: call\ndata: {"id": "e1", "tool": "search", "args": {"query": "q"}}\n\n'
    )
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, text=stream)

    transport = httpx.MockTransport(answer)
    register_model(
        "echocloud",
        lambda rest, environ: EchoCloud(rest, api_key=environ["ECHO_KEY"], transport=transport),
    )
    try:
        model = get_model("echocloud:e-1", {"ECHO_KEY": "k"})
        pieces = [p async for p in model.stream([Message("user", "hi")], ChatOptions(max_tokens=9))]
    finally:
        MODELS.unregister("echocloud")
    assert pieces == ["Searching", ToolCall("e1", "search", {"query": "q"})]
    (request,) = seen
    assert str(request.url) == "https://echo.example/v2/generate"
    assert request.headers["x-echo-key"] == "k"
    assert json.loads(request.content) == {"model": "e-1", "prompt": "hi", "limit": 9}
