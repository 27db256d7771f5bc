"""The API's routes; each takes the running `Service` as a dependency."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.requests import ClientDisconnect

from citesynth.engine import Engine
from citesynth.errors import CitesynthError
from citesynth.observe import SynthesisStats
from citesynth.passages import passages
from citesynth.report import Report
from citesynth.service.answering import Answering
from citesynth.service.config import ServiceConfig
from citesynth.service.documents import Jobs, document_id, inside, listing, source_view
from citesynth.service.reporting import Reporting, ReportRequest
from citesynth.service.schemas import (
    AnswerStatus,
    ChatRequest,
    ChatResponse,
    DocumentInfo,
    JobInfo,
    Problem,
    SearchRequest,
    SearchResponse,
    SourceView,
)
from citesynth.service.state import Book
from citesynth.service.uploads import FIELD, UploadRejected, receive

_MULTIPART_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": [FIELD],
                    "properties": {
                        FIELD: {
                            "type": "array",
                            "items": {"type": "string", "format": "binary"},
                            "description": "Documents to add (each within --max-upload-mb)",
                        }
                    },
                }
            }
        },
    }
}


@dataclass(frozen=True, slots=True)
class Service:
    """Everything the routes share: the engine and what the service keeps beside it."""

    engine: Engine
    config: ServiceConfig
    uploads: Path
    answering: Answering
    reporting: Reporting
    jobs: Jobs
    stats: SynthesisStats


def _service(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


Svc = Annotated[Service, Depends(_service)]
router = APIRouter()


@router.post("/api/chat", response_model=ChatResponse, tags=["answers"])
async def chat(body: ChatRequest, service: Svc) -> ChatResponse:
    """Answer a question: the answer contract plus `request_id` and `diagnostics`."""
    request = service.answering.request(body, _request_id())
    try:
        return await service.answering.answer(request)
    except TimeoutError as error:
        raise HTTPException(504, str(error)) from None


@router.post(
    "/api/chat/stream",
    tags=["answers"],
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}, "description": "DESIGN §6"}},
)
async def chat_stream(body: ChatRequest, service: Svc) -> StreamingResponse:
    """Answer as server-sent events: sources, token*, citation*, verification, done."""
    request = service.answering.request(body, _request_id())
    return _event_stream(service.answering.stream(request), request.request_id)


@router.get(
    "/api/answers/{request_id}",
    response_model=ChatResponse,
    tags=["answers"],
    responses={202: {"model": AnswerStatus}, 410: {"model": AnswerStatus}},
)
async def answer_by_id(request_id: str, service: Svc) -> Any:
    """A finished answer; 202 while it is being written, 410 if it failed or was cancelled."""
    return _kept(service.answering.book, request_id, "answer")


@router.post("/api/reports", response_model=Report, tags=["reports"])
async def report(body: ReportRequest, service: Svc, response: Response) -> Report:
    """Write a research report (docs/reports.md): the `Report` JSON; `X-Request-Id` names it."""
    request_id = _request_id()
    response.headers["X-Request-Id"] = request_id
    try:
        return await service.reporting.report(body, request_id)
    except TimeoutError as error:
        raise HTTPException(504, str(error)) from None


@router.post(
    "/api/reports/stream",
    tags=["reports"],
    response_class=StreamingResponse,
    responses={
        200: {"content": {"text/event-stream": {}}, "description": "report_progress*, report_done"}
    },
)
async def report_stream(body: ReportRequest, service: Svc) -> StreamingResponse:
    """Write a report as server-sent events: report_progress* (stage, ETA), then report_done."""
    request_id = _request_id()
    return _event_stream(service.reporting.stream(body, request_id), request_id)


@router.get(
    "/api/reports/{request_id}",
    response_model=Report,
    tags=["reports"],
    responses={202: {"model": AnswerStatus}, 410: {"model": AnswerStatus}},
)
async def report_by_id(request_id: str, service: Svc) -> Any:
    """A finished report; 202 while it is being written, 410 if it failed or was cancelled."""
    return _kept(service.reporting.book, request_id, "report")


@router.post("/api/search", response_model=SearchResponse, tags=["search"])
async def search(body: SearchRequest, service: Svc) -> SearchResponse:
    """The `k` best chunks for a query, with provenance."""
    started = time.perf_counter()
    hits = await service.engine.search(body.query, k=body.k)
    return SearchResponse(
        query=body.query,
        hits=passages(hits),
        latency_ms=round((time.perf_counter() - started) * 1000, 2),
    )


@router.post(
    "/api/documents",
    response_model=JobInfo,
    status_code=202,
    tags=["documents"],
    responses={413: {"model": Problem}, 415: {"model": Problem}},
    openapi_extra=_MULTIPART_BODY,
)
async def upload(request: Request, service: Svc) -> JobInfo:
    """Store the files under the uploads folder and ingest them in the background."""
    try:
        stored = await receive(
            request.stream(),
            request.headers.get("content-type"),
            service.uploads,
            limit=service.config.max_upload_bytes,
            accept=service.engine.indexable,
        )
    except UploadRejected as error:
        raise HTTPException(error.status, str(error)) from None
    except ClientDisconnect:  # gone (or cut off by the guard, which has answered already)
        raise HTTPException(400, "the upload was interrupted: send it again") from None
    job = service.jobs.submit(stored, [path.name for path in stored])
    return job.info()


@router.get("/api/jobs/{job_id}", response_model=JobInfo, tags=["documents"])
async def job_status(job_id: str, service: Svc) -> JobInfo:
    """An ingestion job's progress."""
    job = service.jobs.get(job_id)
    if job is None:
        raise HTTPException(404, f"no job {job_id!r}")
    return job.info()


@router.get("/api/documents", response_model=list[DocumentInfo], tags=["documents"])
async def documents(service: Svc) -> list[DocumentInfo]:
    """Every indexed file."""
    files = await service.engine.files()
    return [listing(file, service.uploads) for file in files]


@router.delete("/api/documents/{doc_id}", response_model=DocumentInfo, tags=["documents"])
async def delete(doc_id: str, service: Svc) -> DocumentInfo:
    """Drop a file from the index; a file the service stored is deleted from disk too."""
    for file in await service.engine.files():
        if document_id(file.path) == doc_id:
            info = listing(file, service.uploads)
            await service.engine.forget([file.path])
            if inside(service.uploads, file.path):
                await asyncio.to_thread(Path(file.path).unlink, missing_ok=True)
            return info
    raise HTTPException(404, f"no indexed document {doc_id!r}")


@router.get("/api/sources/{chunk_id}", response_model=SourceView, tags=["search"])
async def source(chunk_id: str, service: Svc, context: int = 6) -> SourceView:
    """A chunk with `context` lines before and after it (at most 50)."""
    found = await service.engine.source(chunk_id)
    if found is None:
        raise HTTPException(404, f"no chunk {chunk_id!r} (the document may have changed)")
    return source_view(*found, context_lines=max(0, min(context, 50)))


@router.get("/api/debug/synthesis/stats", tags=["operations"])
async def synthesis_stats(service: Svc) -> dict[str, Any]:
    """Multi-source synthesis activation, fallback and not-found rates, latency by stage."""
    return service.stats.summary()


@router.get("/healthz", tags=["operations"])
async def healthz() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


@router.get("/readyz", tags=["operations"], responses={503: {"model": Problem}})
async def readyz(service: Svc) -> JSONResponse:
    """The index can be read and holds something to answer from."""
    try:
        numbers = await asyncio.wait_for(service.engine.stats(vectors=False), 5.0)
    except (TimeoutError, CitesynthError) as error:
        return JSONResponse({"status": "unavailable", "detail": str(error)}, status_code=503)
    body = {"status": "ready", "chunks": numbers.chunks, "files": numbers.files}
    return JSONResponse(body, status_code=200 if numbers.chunks else 503)


def _event_stream(stream: AsyncIterator[bytes], request_id: str) -> StreamingResponse:
    """Server-sent events, unbuffered, named by `X-Request-Id`."""
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no", "X-Request-Id": request_id}
    return StreamingResponse(stream, media_type="text/event-stream", headers=headers)


def _kept(book: Book[Any], request_id: str, kind: str) -> Any:
    """A finished result; 202 while it is being written, 410 if it failed or was cancelled."""
    entry = book.get(request_id)
    if entry is None:
        raise HTTPException(404, f"no {kind} with request id {request_id!r} (or forgotten)")
    if entry.status == "done" and entry.result is not None:
        return entry.result
    status = AnswerStatus(
        request_id=request_id,
        status=entry.status,  # type: ignore[arg-type]
        message=entry.message,
    )
    code = 202 if entry.status == "running" else 410
    return JSONResponse(status.model_dump(), status_code=code)


def _request_id() -> str:
    return uuid.uuid4().hex[:16]
