"""The HTTP service: the JSON API, the answer stream (SSE), and the page at `/`.

    app = create_app(engine, ServiceConfig(token="..."))   # any ASGI server runs it

Routes (OpenAPI at /docs and /openapi.json; docs/service.md has examples):

    POST   /api/chat                  the answer (DESIGN §5) with diagnostics
    POST   /api/chat/stream           the same as server-sent events (DESIGN §6)
    GET    /api/answers/{request_id}  a finished answer (after a lost stream or a reload)
    POST   /api/search                ranked chunks with provenance
    POST   /api/documents             upload files; ingested by a background job
    GET    /api/jobs/{job_id}         an ingestion job's progress
    GET    /api/documents             the indexed files
    DELETE /api/documents/{id}        drop a file from the index (and uploaded files from disk)
    GET    /api/sources/{chunk_id}    a chunk with the lines around it, for display
    GET    /api/debug/synthesis/stats figures aggregated from every answer's logged event
    GET    /healthz, /readyz
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.requests import Request

from citesynth.about import __version__
from citesynth.engine import Engine
from citesynth.errors import ConfigError, StoreLockedError, StoreUnavailableError
from citesynth.observe import ANSWER_LOGGER, SynthesisStats
from citesynth.service import telemetry
from citesynth.service.answering import Answering
from citesynth.service.config import ServiceConfig
from citesynth.service.documents import Jobs
from citesynth.service.guard import Guard
from citesynth.service.headers import (
    REDOC_POLICY,
    SecurityHeaders,
    security_headers,
    swagger_policy,
)
from citesynth.service.reporting import Reporting
from citesynth.service.routes import Service, router
from citesynth.service.schemas import Problem

STATIC = resources.files("citesynth.service") / "static"
_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem} for code in (400, 401, 404, 409, 413, 422)
}


def create_app(engine: Engine, config: ServiceConfig | None = None) -> FastAPI:
    """The ASGI app answering from `engine` (which the caller opens and closes)."""
    config = (config or ServiceConfig()).checked()
    answering = Answering(engine, config)
    service = Service(
        engine=engine,
        config=config,
        uploads=(config.uploads_dir or engine.root / "uploads").resolve(),
        answering=answering,
        reporting=Reporting(engine, config, answering.conversations),
        jobs=Jobs(engine),
        stats=SynthesisStats(),
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        logger = logging.getLogger(ANSWER_LOGGER)
        handlers: list[logging.Handler] = [service.stats]
        if telemetry.available():
            handlers.append(telemetry.AnswerSpans())
        for handler in handlers:
            logger.addHandler(handler)
        if logger.getEffectiveLevel() > logging.INFO:
            logger.setLevel(logging.INFO)
        try:
            yield
        finally:
            for handler in handlers:
                logger.removeHandler(handler)
            await service.jobs.close()

    app = FastAPI(
        title="citesynth",
        version=__version__,
        description="Answers from your documents; every sentence carries a checkable citation.",
        lifespan=lifespan,
        responses=_ERRORS,
        docs_url=None,  # served below, with a policy that allows its inline script by hash
    )
    app.state.service = service
    app.add_exception_handler(ConfigError, _bad_request)
    app.add_exception_handler(StoreLockedError, _locked)
    app.add_exception_handler(StoreUnavailableError, _unavailable)
    app.add_exception_handler(Exception, _internal_error)
    app.include_router(router)

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"), headers={"Cache-Control": "no-cache"})

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        swagger = get_swagger_ui_html(openapi_url="/openapi.json", title="citesynth API")
        swagger.headers["Content-Security-Policy"] = swagger_policy(bytes(swagger.body).decode())
        return swagger

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.add_middleware(
        Guard,
        token=config.token,
        max_body=config.max_body_bytes,
        max_upload_request=config.upload_request_bytes,
    )
    if config.cors_origins:  # outside the guard: a browser's preflight carries no token
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(config.cors_origins),
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["Authorization", "Content-Type"],
        )
    # Outermost, so the guard's refusals and CORS preflights carry the headers too.
    app.add_middleware(SecurityHeaders, policies={"/redoc": REDOC_POLICY})
    return app


async def _bad_request(_: Request, error: Exception) -> JSONResponse:
    return JSONResponse({"detail": str(error)}, status_code=400)


async def _locked(_: Request, error: Exception) -> JSONResponse:
    return JSONResponse({"detail": str(error)}, status_code=409)


async def _unavailable(_: Request, error: Exception) -> JSONResponse:
    # The database behind the index is down or restarting: worth retrying in a moment.
    headers = {**security_headers(), "Retry-After": "5"}
    return JSONResponse({"detail": str(error)}, status_code=503, headers=headers)


async def _internal_error(_: Request, error: Exception) -> JSONResponse:
    # Sent by Starlette's outermost error middleware, outside `SecurityHeaders`: set them here.
    detail = f"internal error ({type(error).__name__}): the server's log has the details"
    return JSONResponse({"detail": detail}, status_code=500, headers=security_headers())
