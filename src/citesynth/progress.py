"""Index progress on a terminal: bars for reading (files, chunks, MB/s, ETA) and embedding.

Skipped files always get one line each, also when the bar is off (pipes, `--quiet`).
"""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from citesynth.events import (
    EmbeddingProgress,
    FileIndexed,
    FileSkipped,
    FileUnchanged,
    IndexEvent,
    IndexFinished,
    IndexPlanned,
)
from citesynth.render import printable
from citesynth.types import IndexReport


class _SpeedColumn(ProgressColumn):
    """MB/s while reading, chunks/s while embedding."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if speed is None:
            return Text("")
        shown = (
            f"{speed / 1e6:,.1f} MB/s"
            if task.description == "reading"
            else f"{speed:,.0f} chunks/s"
        )
        return Text(shown, style="progress.data.speed")


def summary_line(report: IndexReport) -> str:
    """One line: what was indexed, unchanged, removed, skipped, embedded; bytes and time."""
    parts = [f"Indexed {report.indexed} files ({report.chunks_added} chunks)"]
    parts.append(f"{report.unchanged} unchanged")
    if report.removed:
        parts.append(f"{report.removed} removed")
    if report.skipped:
        parts.append(f"[yellow]{len(report.skipped)} skipped[/]")
    if report.embedded:
        parts.append(f"{report.embedded} embedded")
    parts.append(f"{report.bytes_read / 2**20:.1f} MB read in {report.seconds:.1f} s")
    return " · ".join(parts)


class IndexProgress:
    """Renders `IndexEvent`s; use as a context manager around the event loop."""

    def __init__(self, console: Console, *, enabled: bool) -> None:
        self.console = console
        self.enabled = enabled
        self.report = IndexReport()
        self._progress = Progress(
            TextColumn("{task.description:<9}"),
            BarColumn(),
            TextColumn("{task.fields[detail]}"),
            _SpeedColumn(),
            TimeRemainingColumn(),
            console=console,
            disable=not enabled,
        )
        self._reading: TaskID | None = None
        self._embedding: TaskID | None = None
        self._files = 0
        self._total_files = 0
        self._chunks = 0

    def __enter__(self) -> IndexProgress:
        self._progress.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._progress.stop()

    def _say(self, message: str) -> None:
        self._progress.console.print(message)

    def _advance(self, size: int) -> None:
        self._files += 1
        if self._reading is not None:
            detail = f"{self._files}/{self._total_files} files · {self._chunks} chunks"
            self._progress.update(self._reading, advance=size, detail=detail)

    def update(self, event: IndexEvent) -> None:
        """Show one event."""
        if isinstance(event, IndexPlanned):
            self._total_files = event.to_read
            detail = f"0/{event.to_read} files"
            self._reading = self._progress.add_task(
                "reading", total=event.bytes_to_read or 1, detail=detail
            )
        elif isinstance(event, FileIndexed):
            self._chunks += event.chunks
            for note in event.notes:
                self._say(
                    f"[dim]note {escape(printable(event.path))}: {escape(printable(note))}[/]"
                )
            self._advance(event.bytes)
        elif isinstance(event, FileUnchanged):
            self._advance(event.bytes)
        elif isinstance(event, FileSkipped):
            path, reason = printable(event.path), printable(event.reason)
            self._say(f"[yellow]skipped[/] {escape(path)}: {escape(reason)}")
            if event.bytes:
                self._advance(event.bytes)
        elif isinstance(event, EmbeddingProgress):
            if self._embedding is None:
                self._embedding = self._progress.add_task("embedding", total=event.total, detail="")
            self._progress.update(
                self._embedding, completed=event.done, detail=f"{event.done}/{event.total} chunks"
            )
        elif isinstance(event, IndexFinished):
            self.report = event.report
