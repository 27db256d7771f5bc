"""`citesynth serve` (HTTP API and web page) and `citesynth mcp` (MCP tools over stdio)."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path
from typing import Any

import click

from citesynth.cli_options import (
    _friendly,
    _settings,
    _with,
    embed_options,
    errors,
    index_option,
    model_options,
)
from citesynth.engine import Engine
from citesynth.errors import ConfigError
from citesynth.observe import JSONFormatter


def _log_to_stderr(*, as_json: bool, level: int = logging.INFO) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JSONFormatter() if as_json else logging.Formatter("%(message)s"))
    logger = logging.getLogger("citesynth")
    logger.handlers[:] = [handler]
    logger.setLevel(level)
    logger.propagate = False


@click.command()
@index_option
@_with(embed_options)
@_with(model_options)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=int, default=8000, show_default=True)
@click.option(
    "--token",
    envvar="CITESYNTH_TOKEN",
    default=None,
    help="Bearer token for /api/* (required off loopback; or $CITESYNTH_TOKEN).",
)
@click.option(
    "--cors-origin", "cors", multiple=True, help="Allow browser calls from this origin (repeat)."
)
@click.option(
    "--uploads",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for uploaded documents (default: uploads/ beside the index).",
)
@click.option(
    "--max-upload-mb", type=float, default=25.0, show_default=True, help="Largest file uploaded."
)
@click.option(
    "--max-request-mb",
    type=float,
    default=None,
    help="Largest upload request, its files together (default: 4 × --max-upload-mb).",
)
@click.option("--history", type=int, default=6, show_default=True, help="Turns per conversation.")
@click.option(
    "--request-timeout", type=float, default=300.0, show_default=True, help="Seconds per answer."
)
@click.option("--log-json/--log-text", default=True, show_default=True, help="Log format.")
@_friendly
def serve(
    index_dir: Path | None,
    no_embed: bool,
    embedder: str | None,
    model: str | None,
    mode: str | None,
    timeout: float | None,
    host: str,
    port: int,
    token: str | None,
    cors: tuple[str, ...],
    uploads: Path | None,
    max_upload_mb: float,
    max_request_mb: float | None,
    history: int,
    request_timeout: float,
    log_json: bool,
) -> None:
    """Serve the HTTP API, the answer stream and the web page (docs/service.md)."""
    try:
        import uvicorn

        from citesynth.service import ServiceConfig, create_app
    except ImportError as missing:
        raise ConfigError(
            f"`citesynth serve` needs the service extra ({missing.name} is missing): "
            "pip install 'citesynth[serve]'"
        ) from None
    config = ServiceConfig(
        host=host,
        port=port,
        token=token,  # as given: checked() refuses a blank one rather than serving without
        cors_origins=cors,
        uploads_dir=uploads,
        max_upload_bytes=int(max_upload_mb * 2**20),
        max_request_bytes=None if max_request_mb is None else int(max_request_mb * 2**20),
        history_turns=history,
        request_timeout=request_timeout,
    ).checked()
    settings = _settings(index_dir, no_embed, embedder, model=model, mode=mode, timeout=timeout)
    _log_to_stderr(as_json=log_json)

    async def go() -> None:
        async with await Engine.open(settings=settings) as engine:
            numbers = await engine.stats(vectors=False)
            app = create_app(engine, config)
            where = f"http://{host}:{port}"
            note = " · token required" if config.token else ""
            errors.print(
                f"citesynth: {numbers.chunks} chunks from {numbers.files} files, "
                f"model {engine.writer.name} — open {where}/ (API docs {where}/docs){note}"
            )
            server = uvicorn.Server(
                uvicorn.Config(
                    app, host=host, port=port, log_config=None, access_log=False, lifespan="on"
                )
            )
            await server.serve()

    try:
        asyncio.run(go())
    except KeyboardInterrupt:  # Ctrl-C is how a server is stopped: not an error
        errors.print("citesynth: stopped")


@click.command()
@index_option
@_with(embed_options)
@_with(model_options)
@_friendly
def mcp(
    index_dir: Path | None,
    no_embed: bool,
    embedder: str | None,
    model: str | None,
    mode: str | None,
    timeout: float | None,
) -> None:
    """Serve `search` and `ask` as MCP tools on stdin/stdout (docs/service.md#mcp)."""
    try:
        from citesynth.mcp_server import serve_stdio
    except ImportError as missing:
        raise ConfigError(str(missing)) from None
    settings = _settings(index_dir, no_embed, embedder, model=model, mode=mode, timeout=timeout)
    _log_to_stderr(as_json=True, level=logging.WARNING)

    async def go() -> Any:
        async with await Engine.open(settings=settings) as engine:
            await serve_stdio(engine)

    asyncio.run(go())
