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
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from citesynth.errors import ConfigError
from citesynth.llm.anthropic import AnthropicModel
from citesynth.llm.base import ChatModel, ChatOptions, Message, Piece, TokenCounter, Usage
from citesynth.llm.fake import ScriptedModel
from citesynth.llm.gemini import GeminiModel
from citesynth.llm.local import MODELS as LOCAL_MODELS
from citesynth.llm.local import LocalModel
from citesynth.llm.local import installed as local_installed
from citesynth.llm.openai import OpenAIModel

__all__ = [
    "AnthropicModel",
    "ChatModel",
    "ChatOptions",
    "GeminiModel",
    "LocalModel",
    "Message",
    "OpenAIModel",
    "Piece",
    "ScriptedModel",
    "TokenCounter",
    "Usage",
    "get_model",
    "local_available",
]

OPENAI_URL = "https://api.openai.com/v1"


def _env(environ: Mapping[str, str], *names: str) -> str | None:
    for name in names:
        for key in (f"CITESYNTH_{name}", name):
            value = environ.get(key, "").strip()
            if value:
                return value
    return None


def local_available(size: str = "1.5b") -> bool:
    """Whether the embedded model of `size` is installed."""
    return local_installed(LOCAL_MODELS[size])


def get_model(name: str, environ: Mapping[str, str] | None = None) -> ChatModel:
    """The chat model called `name` (see the module docstring).

    Raises:
        ConfigError: unknown name, missing extra or missing key, with the fix.
    """
    env = os.environ if environ is None else environ
    family, _, model = name.strip().partition(":")
    family = family.lower()
    if family == "local":
        local = LocalModel(model or "1.5b")
        local.check()
        return local
    if family == "fake":
        return ScriptedModel()
    if family not in {"openai", "ollama", "anthropic", "gemini"}:
        raise ConfigError(
            f"unknown model {name!r}: use local, openai:M, ollama:M, anthropic:M, gemini:M, "
            "extractive or fake"
        )
    if not model:
        raise ConfigError(f"say which model: {family}:MODEL_NAME (for example openai:gpt-4o-mini)")
    if family == "openai":
        base = _env(env, "OPENAI_BASE_URL") or OPENAI_URL
        key = _env(env, "OPENAI_API_KEY")
        if base == OPENAI_URL and not key:
            raise ConfigError(
                "no API key for 'openai': set OPENAI_API_KEY "
                "(or OPENAI_BASE_URL for a local server)"
            )
        return OpenAIModel(model, base_url=base, api_key=key)
    if family == "ollama":
        host = _env(env, "OLLAMA_HOST") or "127.0.0.1:11434"
        base = host if host.startswith("http") else f"http://{host}"
        return OpenAIModel(model, base_url=f"{base.rstrip('/')}/v1", name=f"ollama:{model}")
    if family == "anthropic":
        key = _env(env, "ANTHROPIC_API_KEY")
        if not key:
            raise ConfigError("no API key for 'anthropic': set ANTHROPIC_API_KEY")
        base = _env(env, "ANTHROPIC_BASE_URL") or "https://api.anthropic.com"
        return AnthropicModel(model, api_key=key, base_url=base)
    key = _env(env, "GEMINI_API_KEY", "GOOGLE_API_KEY")  # the family is gemini
    if not key:
        raise ConfigError("no API key for 'gemini': set GEMINI_API_KEY")
    base = _env(env, "GEMINI_BASE_URL") or "https://generativelanguage.googleapis.com"
    return GeminiModel(model, api_key=key, base_url=base)
