"""The service on a real loopback port, for tests: uvicorn in a thread, its own event loop.

    with running(lambda: build_engine(...), ServiceConfig()) as server:
        httpx.get(f"{server.url}/healthz")

The engine is opened inside the server's loop (its store's worker thread belongs there) and
closed when the server stops.
"""

from __future__ import annotations

import asyncio
import socket
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import uvicorn

from citesynth import ChatModel, Engine, HashingEmbedder, LLMWriter, SQLiteStore
from citesynth.indexing import IngestOptions
from citesynth.service import ServiceConfig, create_app
from citesynth.synthesis.prompts import BUILT_IN
from citesynth.verify import LexicalVerifier


@dataclass(frozen=True)
class Running:
    """A server that is up: where it listens and the engine behind it."""

    url: str
    engine: Engine
    loop: asyncio.AbstractEventLoop

    def call(self, coroutine: Awaitable[object]) -> object:
        """Run `coroutine` on the server's loop (to touch the engine from a test)."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(60)  # type: ignore[arg-type]


def scripted_engine(root: Path, docs: Path, model: ChatModel) -> Callable[[], Awaitable[Engine]]:
    """Opens an engine over `docs` (indexed into `root/index`, hashing embedder) answering
    with `model`: the engine the service tests serve."""

    async def open_engine() -> Engine:
        store = await SQLiteStore.open(root / "index")
        engine = Engine(
            store=store,
            embedder=HashingEmbedder(),
            root=root,
            ingest=IngestOptions(chunk_tokens=80, overlap_tokens=15),
            writer=LLMWriter(model, BUILT_IN, timeout=5.0),
            verifier=LexicalVerifier(),  # deterministic and instant
        )
        await engine.index([docs])
        return engine

    return open_engine


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def running(
    open_engine: Callable[[], Awaitable[Engine]], config: ServiceConfig | None = None
) -> Iterator[Running]:
    """Serve `create_app(engine, config)` on 127.0.0.1 until the block ends."""
    port = free_port()
    chosen = config or ServiceConfig()
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    state: dict[str, object] = {}

    async def main() -> None:
        engine = await open_engine()
        state["engine"] = engine
        app = create_app(engine, chosen)
        server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
        )
        state["server"] = server
        task = asyncio.create_task(server.serve())
        while not server.started and not task.done():  # noqa: ASYNC110 - uvicorn has no event
            await asyncio.sleep(0.01)
        ready.set()
        try:
            await task
        finally:
            await engine.close()

    def run() -> None:
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(main())
        except BaseException as error:  # surfaced to the test below
            state["error"] = error
            ready.set()

    thread = threading.Thread(target=run, name="citesynth-test-server", daemon=True)
    thread.start()
    if not ready.wait(60) or "error" in state:
        raise RuntimeError(f"server did not start: {state.get('error')!r}")
    try:
        yield Running(f"http://127.0.0.1:{port}", state["engine"], loop)  # type: ignore[arg-type]
    finally:
        server = state["server"]
        server.should_exit = True  # type: ignore[attr-defined]
        deadline = time.monotonic() + 30
        thread.join(max(0.0, deadline - time.monotonic()))
        loop.close()


def wait_for(url: str, process: subprocess.Popen[str]) -> None:
    """Return once `serve` at `url` answers its health check (fail if it exits first)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"serve exited: {process.stderr.read() if process.stderr else ''}")
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError("serve did not start within 60 s")
