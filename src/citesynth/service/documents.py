"""Indexed documents as the API shows them, and background ingestion jobs."""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from citesynth.engine import Engine
from citesynth.events import (
    EmbeddingProgress,
    FileIndexed,
    FileSkipped,
    IndexEvent,
    IndexFinished,
    IndexPlanned,
)
from citesynth.ingest.lines import LineMap, newline_offsets
from citesynth.passages import chunk_fields
from citesynth.service.schemas import DocumentInfo, JobInfo, SourceLine, SourceView
from citesynth.service.state import Bounded
from citesynth.types import Chunk, Document, IndexedFile


def document_id(path: str) -> str:
    """A stable id for an indexed file (from its absolute path)."""
    return hashlib.sha256(path.encode()).hexdigest()[:16]


def inside(root: Path, path: str | Path) -> bool:
    """Whether `path` is a file the service stored under `root`."""
    return Path(path).resolve().is_relative_to(root.resolve())


@dataclass
class Job:
    """An ingestion job's progress (mutated by its task; read as `info()`)."""

    id: str
    files: list[str]
    status: str = "queued"
    stage: str = "queued"
    done: int = 0
    total: int = 0
    indexed: int = 0
    chunks_added: int = 0
    skipped: list[dict[str, str]] = field(default_factory=list)
    error: str | None = None

    def info(self) -> JobInfo:
        """A snapshot for the API."""
        return JobInfo(
            id=self.id,
            status=self.status,  # type: ignore[arg-type]
            files=list(self.files),
            stage=self.stage,
            done=self.done,
            total=self.total,
            indexed=self.indexed,
            chunks_added=self.chunks_added,
            skipped=list(self.skipped),
            error=self.error,
        )


class Jobs:
    """Runs ingestion jobs one at a time (the index has one writer) in the background."""

    def __init__(self, engine: Engine, limit: int = 200) -> None:
        self.engine = engine
        self._jobs: Bounded[str, Job] = Bounded(limit)
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    def submit(self, paths: list[Path], names: list[str]) -> Job:
        """Start ingesting `paths` (shown as `names`); returns at once."""
        job = Job(uuid.uuid4().hex[:12], names, total=len(paths))
        self._jobs.put(job.id, job)
        task = asyncio.create_task(self._run(job, paths), name=f"ingest-{job.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return job

    def get(self, job_id: str) -> Job | None:
        """The job, or None when unknown."""
        return self._jobs.get(job_id)

    async def _run(self, job: Job, paths: list[Path]) -> None:
        try:
            async with self._lock:
                job.status, job.stage = "running", "reading"
                async for event in self.engine.index_events(paths):
                    _progress(job, event)
            job.status, job.stage = "done", "done"
        except Exception as error:  # reported on the job, never lost in a task
            job.status, job.stage = "failed", "failed"
            job.error = str(error) or type(error).__name__

    async def close(self) -> None:
        """Cancel running jobs (the index stays consistent: writes are atomic per batch)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


def _progress(job: Job, event: IndexEvent) -> None:
    if isinstance(event, IndexPlanned):
        job.total = event.to_read + event.up_to_date
        job.done = event.up_to_date
    elif isinstance(event, FileIndexed):
        job.done += 1
        job.indexed += 1
        job.chunks_added += event.chunks
    elif isinstance(event, FileSkipped):
        job.done += 1
        job.skipped.append({"path": event.path, "reason": event.reason})
    elif isinstance(event, EmbeddingProgress):
        job.stage, job.done, job.total = "embedding", event.done, event.total
    elif isinstance(event, IndexFinished):
        job.chunks_added = event.report.chunks_added


def listing(file: IndexedFile, uploads: Path) -> DocumentInfo:
    """An indexed file as the API lists it."""
    return DocumentInfo(
        id=document_id(file.path),
        path=file.display_path,
        title=file.title,
        size=file.size,
        indexed_at=file.indexed_at,
        documents=file.documents,
        chunks=file.chunks,
        uploaded=inside(uploads, file.path),
    )


def source_view(chunk: Chunk, document: Document, context_lines: int = 6) -> SourceView:
    """The chunk with `context_lines` lines of its document before and after."""
    text = document.text
    starts = [0, *(offset + 1 for offset in newline_offsets(text))]
    first = text.count("\n", 0, chunk.char_start)
    last = text.count("\n", 0, max(chunk.char_start, chunk.char_end - 1))
    lines_map = LineMap(text, document.anchors)
    shown: list[SourceLine] = []
    for index in range(max(0, first - context_lines), min(len(starts), last + context_lines + 1)):
        start = starts[index]
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(text)
        number, page = lines_map.locate(start)
        shown.append(
            SourceLine(
                number=number,
                page=page,
                char_start=start,
                text=text[start:end],
                in_chunk=first <= index <= last,
            )
        )
    return SourceView(
        **dict(chunk_fields(chunk)),
        char_start=chunk.char_start,
        char_end=chunk.char_end,
        lines=shown,
    )
