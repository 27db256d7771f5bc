"""`citesynth migrate`: copy an index into another store (SQLite to PostgreSQL, or back)."""

from __future__ import annotations

import asyncio

import click
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)

from citesynth.cli_options import _friendly, errors
from citesynth.copying import CopyFinished, CopyProgress, migrate


@click.command(name="migrate")
@click.option(
    "--from",
    "source",
    required=True,
    metavar="LOCATION",
    help="The index to copy: a folder (e.g. .citesynth), sqlite:PATH or postgresql://...",
)
@click.option(
    "--to",
    "target",
    required=True,
    metavar="LOCATION",
    help="Where to copy it: postgresql://USER@HOST/DB[?schema=NAME], sqlite:PATH or a folder.",
)
@_friendly
def migrate_command(source: str, target: str) -> None:
    """Copy an index into another store: documents, chunks, vectors, with verified counts.

    Run it again to resume a copy that stopped: files already copied are skipped.
    """
    progress = Progress(
        TextColumn("{task.description:<8}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=errors,
        disable=not errors.is_terminal,
    )

    async def go() -> CopyFinished:
        tasks: dict[str, TaskID] = {}
        async for event in migrate(source, target):
            if isinstance(event, CopyProgress):
                if event.stage not in tasks:
                    tasks[event.stage] = progress.add_task(event.stage, total=event.total)
                progress.update(tasks[event.stage], completed=event.done, total=event.total)
            else:
                return event
        raise AssertionError("a copy always finishes with CopyFinished")

    with progress:
        finished = asyncio.run(go())
    numbers = finished.target
    vectors = f", {numbers.vectors} vectors ({finished.model})" if finished.model else ""
    errors.print(
        f"copied {finished.files_copied} files ({finished.files_up_to_date} already there, "
        f"{finished.files_removed} removed, {finished.vectors_copied} vectors) to "
        f"{finished.location}: it holds {numbers.files} files, {numbers.documents} "
        f"documents, {numbers.chunks} chunks{vectors}, the same counts as the source"
    )
