"""The `citesynth` command: parse options, call the engine, render. No logic lives here."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Coroutine, Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape

from citesynth.answers import Answer, Claim, SourceRecord
from citesynth.cli_eval import eval_group
from citesynth.cli_options import (
    _friendly,
    _settings,
    _with,
    embed_options,
    errors,
    index_option,
    model_options,
    verify_options,
)
from citesynth.cli_report import report
from citesynth.cli_serve import mcp, serve
from citesynth.cli_store import migrate_command
from citesynth.engine import Engine, final_answer
from citesynth.errors import CitesynthError
from citesynth.events import DoneEvent, ErrorEvent, Event, TokenEvent
from citesynth.passages import passages
from citesynth.progress import IndexProgress, summary_line
from citesynth.render import printable, snippet
from citesynth.settings import Settings
from citesynth.synthesis.declined import answered_from_sources
from citesynth.synthesis.options import AskOverrides
from citesynth.synthesis.verifying import LEANS
from citesynth.types import Hit, IndexStats
from citesynth.verify.trim import KEEPS

console = Console(highlight=False)


def _run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    return asyncio.run(coroutine)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="citesynth")
def main() -> None:
    """Answers from your own documents, every sentence cited to file and lines."""


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@index_option
@_with(embed_options)
@click.option(
    "--max-file-mb", type=float, default=None, help="Skip files larger than this (default 64)."
)
@click.option("--exclude", multiple=True, help="Glob of paths to leave out (repeatable).")
@click.option(
    "--chunk-tokens", type=int, default=None, help="Target chunk size in tokens (default 200)."
)
@click.option("--quiet", "-q", is_flag=True, help="Only the summary line and skipped files.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@_friendly
def index(
    paths: tuple[Path, ...],
    index_dir: Path | None,
    no_embed: bool,
    embedder: str | None,
    max_file_mb: float | None,
    exclude: tuple[str, ...],
    chunk_tokens: int | None,
    quiet: bool,
    as_json: bool,
) -> None:
    """Index files and folders (incremental: unchanged files cost nothing)."""
    settings = _settings(
        index_dir,
        no_embed,
        embedder,
        max_file_mb=max_file_mb,
        exclude=exclude or None,
        chunk_tokens=chunk_tokens,
    )
    show = IndexProgress(errors, enabled=not (quiet or as_json) and errors.is_terminal)

    async def go() -> Any:
        async with await Engine.open(settings=settings, indexing=True) as engine:
            with show:
                async for event in engine.index_events(list(paths)):
                    show.update(event)
            return show.report

    report = _run(go())
    if as_json:
        console.print_json(json.dumps(_report_json(report)))
    else:
        errors.print(summary_line(report))


def _report_json(report: Any) -> dict[str, Any]:
    return {
        "indexed": report.indexed,
        "unchanged": report.unchanged,
        "removed": report.removed,
        "skipped": [{"path": s.path, "reason": s.reason} for s in report.skipped],
        "chunks_added": report.chunks_added,
        "chunks_removed": report.chunks_removed,
        "embedded": report.embedded,
        "bytes_read": report.bytes_read,
        "seconds": round(report.seconds, 3),
    }


@main.command()
@click.argument("query")
@click.option("-k", "k", type=int, default=5, show_default=True, help="How many hits.")
@index_option
@_with(embed_options)
@click.option("--json", "as_json", is_flag=True, help="Print hits as JSON (docs/search-json.md).")
@_friendly
def search(
    query: str, k: int, index_dir: Path | None, no_embed: bool, embedder: str | None, as_json: bool
) -> None:
    """Search the index: ranked chunks with file, lines or page, and confidence."""
    settings = _settings(index_dir, no_embed, embedder)

    async def go() -> list[Hit]:
        async with await Engine.open(settings=settings, create=False) as engine:
            return await engine.search(query, k)

    hits = _run(go())
    if as_json:
        rows = [item.model_dump(mode="json") for item in passages(hits)]
        console.print_json(json.dumps(rows, ensure_ascii=False))
        return
    print_hits(hits, query)


def print_hits(hits: list[Hit], query: str) -> None:
    """Hits as a person reads them: location, score, confidence, heading path, snippet."""
    if not hits:
        console.print("[yellow]No matching chunks.[/]")
        return
    for rank, hit in enumerate(hits, start=1):
        chunk = hit.chunk
        console.print(
            f"[bold]{rank}.[/] [cyan]{escape(printable(chunk.location))}[/]  "
            f"[dim]score[/] {hit.score:.3f}  [dim]confidence[/] {hit.confidence:.2f}"
        )
        if chunk.heading_path:
            console.print(f"   [dim]{escape(printable(' › '.join(chunk.heading_path)))}[/]")
        console.print(f"   {escape(printable(snippet(chunk.text, query)))}")


@main.command()
@index_option
@_with(embed_options)
@_friendly
def stats(index_dir: Path | None, no_embed: bool, embedder: str | None) -> None:
    """What the index holds."""
    settings = _settings(index_dir, no_embed, embedder)

    async def go() -> tuple[IndexStats, tuple[str, ...]]:
        async with await Engine.open(settings=settings) as engine:
            return await engine.stats(), await engine.subjects()

    numbers, subjects = _run(go())
    console.print(
        f"{numbers.files} files, {numbers.documents} documents, {numbers.chunks} chunks, "
        f"{numbers.vectors} vectors ({numbers.embedding_model or 'no embedder'}), "
        f"generation {numbers.generation}"
    )
    if subjects:
        console.print(
            f"what the corpus is about (named in most chunks; verifiers read every source "
            f"under it): {escape(printable(' '.join(subjects)))}"
        )


@main.command()
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    help="A citesynth checkout (holds docs/).",
)
@index_option
@_with(embed_options)
@_friendly
def demo(root: Path, index_dir: Path | None, no_embed: bool, embedder: str | None) -> None:
    """Index the demo corpus (this project's docs/ and a generated PDF), search it, ask it."""
    from citesynth.demo import DEMO_QUERIES, DEMO_QUESTION, build_demo_corpus

    corpus = build_demo_corpus(root)
    settings = _settings(index_dir, no_embed, embedder)
    show = IndexProgress(errors, enabled=errors.is_terminal)

    async def go() -> list[tuple[str, list[Hit]]]:
        async with await Engine.open(settings=settings, indexing=True) as engine:
            with show:
                async for event in engine.index_events(corpus):
                    show.update(event)
            errors.print(summary_line(show.report))
            results = [(query, await engine.search(query, 3)) for query in DEMO_QUERIES]
            for query, hits in results:
                console.rule(f"[bold]search: {escape(query)}")
                print_hits(hits, query)
            console.rule(f"[bold]ask ({engine.writer.name}): {escape(DEMO_QUESTION)}")
            await stream_answer(engine.ask(DEMO_QUESTION), stream=True)
            return results

    _run(go())


@main.command()
@click.argument("question")
@index_option
@_with(embed_options)
@_with(model_options)
@click.option(
    "--docs",
    multiple=True,
    type=click.Path(exists=True, path_type=Path),
    help="Index these files or folders (incrementally) before answering; repeatable.",
)
@click.option("-k", "k", type=int, default=None, help="How many chunks to retrieve.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.option("--no-stream", is_flag=True, help="Print the answer when it is finished.")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the answer cache.")
@click.option("--renumber", is_flag=True, help="Renumber citations in order of first use.")
@_with(verify_options)
@_friendly
def ask(
    question: str,
    index_dir: Path | None,
    no_embed: bool,
    embedder: str | None,
    model: str | None,
    mode: str | None,
    timeout: float | None,
    docs: tuple[Path, ...],
    k: int | None,
    as_json: bool,
    no_stream: bool,
    no_cache: bool,
    renumber: bool,
    verifier: str | None,
    keep_unsupported: bool,
    strict: bool,
    no_verify: bool,
) -> None:
    """Answer QUESTION from the indexed documents, every sentence cited (docs/answers.md)."""
    settings = _settings(
        index_dir,
        no_embed,
        embedder,
        model=model,
        mode=mode,
        timeout=timeout,
        verifier="none" if no_verify else verifier,
        strict=strict or None,
        keep_unsupported=keep_unsupported or None,
    )
    overrides = AskOverrides(renumber=renumber)
    if k is not None:
        overrides["k"] = k
    if no_cache:
        overrides["cache"] = False

    async def go() -> Answer:
        async with await Engine.open(settings=settings) as engine:
            if docs:
                await _index_quietly(engine, docs)
            _require_index(settings, await engine.stats(vectors=False))
            events = engine.ask(question, **overrides)
            if as_json:
                return await final_answer(events)
            return await stream_answer(events, stream=not no_stream)

    answer = _run(go())
    if as_json:
        sys.stdout.write(answer.model_dump_json(indent=2) + "\n")


@main.command()
@index_option
@_with(embed_options)
@_with(model_options)
@click.option("--history", type=int, default=6, show_default=True, help="Turns to remember.")
@_friendly
def chat(
    index_dir: Path | None,
    no_embed: bool,
    embedder: str | None,
    model: str | None,
    mode: str | None,
    timeout: float | None,
    history: int,
) -> None:
    """Ask questions in a row; follow-ups are rewritten to stand alone. Empty line or EOF ends."""
    settings = _settings(index_dir, no_embed, embedder, model=model, mode=mode, timeout=timeout)

    async def go() -> None:
        async with await Engine.open(settings=settings) as engine:
            _require_index(settings, await engine.stats(vectors=False))
            conversation = engine.chat(history=history)
            while True:
                try:
                    question = (await asyncio.to_thread(input, "you> ")).strip()
                except EOFError:
                    break
                if not question or question in {"/exit", "/quit"}:
                    break
                standalone = await conversation.standalone(question)
                if standalone != question:
                    errors.print(f"[dim](searching for: {escape(printable(standalone))})[/]")
                await stream_answer(conversation.ask_standalone(question, standalone), stream=True)

    _run(go())


def _require_index(settings: Settings, numbers: IndexStats) -> None:
    if numbers.chunks == 0:
        raise click.UsageError(
            f"the index at {settings.store_shown} is empty; run `citesynth index PATH` "
            "or pass --docs PATH"
        )


async def _index_quietly(engine: Engine, paths: Sequence[Path]) -> None:
    show = IndexProgress(errors, enabled=errors.is_terminal)
    with show:
        async for event in engine.index_events(list(paths)):
            show.update(event)
    errors.print(summary_line(show.report))


async def stream_answer(events: AsyncIterator[Event], *, stream: bool) -> Answer:
    """Print the answer as it is written (or at the end), then its sources and warnings."""
    shown = ""
    async for event in events:
        if isinstance(event, TokenEvent) and stream:
            shown += event.text
            sys.stdout.write(printable(event.text, keep="\n\t"))  # text copied from files
            sys.stdout.flush()
        elif isinstance(event, ErrorEvent):
            if shown:
                sys.stdout.write("\n")
            errors.print(f"[yellow]fallback:[/] {escape(printable(event.message))}")
            shown = ""
        elif isinstance(event, DoneEvent):
            print_answer(event.answer, already_shown=shown)
            return event.answer
    raise CitesynthError("the answer stream ended early")


_SUPPORT_MARKS = {
    "supported": "[green]✓ supported[/]",
    "partial": "[yellow]~ partly supported[/]",
    "unsupported": "[red]✗ unsupported[/]",
}


def _claim_text(claim: Claim) -> str:
    """A claim as the verdicts list shows it: a code block as its lines, indented below."""
    if claim.kind != "code":
        return escape(printable(claim.text))
    lines = [escape(printable(line, keep="\t")) for line in claim.text.split("\n")]
    return "code:\n" + "\n".join(f"      {line}" for line in lines) + "\n     "


def _nearby(source: SourceRecord, question: str) -> str:
    """A closest passage of a not-found: where, its section, its sentence nearest the question.

    The gate can withhold a question whose top passage does answer it, worded far from
    the question ("hidden prompts … for password input" for "prompt for a password
    without showing what the user types"): the reader sees what each passage is about.
    """
    section = source.heading_path[-1] if source.heading_path else source.title
    label = f" · {section}" if section and section not in source.location else ""
    nearest = snippet(source.text, question, width=120)
    return f"{source.location}{label}: {nearest}" if nearest.strip() else source.location + label


def print_verdicts(answer: Answer) -> None:
    """Flag the claims the sources do not (fully) support, and where the sources disagree."""
    weak = [c for c in answer.claims if c.label in {"unsupported", "partial"}]
    if weak or answer.removed_claims:
        console.print("\n[bold]Check these claims[/]")
    for claim in answer.removed_claims:
        cited = "".join(f"[{n}]" for n in claim.citations) or "no citation"
        said = (r for r in claim.reasons if r.startswith((KEEPS, LEANS)))
        why = next(said, "no source supports it")
        console.print(
            f"  [red]✗ removed[/] {_claim_text(claim)} [dim]({escape(cited)}: "
            f"{escape(printable(why))})[/]"
        )
    for claim in weak:
        mark = _SUPPORT_MARKS[claim.label]
        cited = "".join(f"[{n}]" for n in claim.citations) or "no citation"
        console.print(f"  {mark} {_claim_text(claim)} [dim]({escape(cited)})[/]")
        for reason in claim.reasons[:2]:
            console.print(f"      [dim]{escape(printable(reason))}[/]")
    numbers = {citation.number for citation in answer.citations}
    conflicts = [c for c in answer.conflicts if numbers & set(c.sources)]
    if conflicts:
        console.print("\n[bold]Sources disagree[/]")
    for conflict in conflicts:
        sides = "; ".join(
            f"[{n}] {v}" for n, v in zip(conflict.sources, conflict.values, strict=False)
        )
        console.print(
            f"  [magenta]≠[/] {escape(printable(conflict.topic))}: {escape(printable(sides))}"
        )
    summary = answer.verification
    if summary is not None and summary.claims:
        recall = f"{summary.citation_recall:.0%}" if summary.citation_recall is not None else "-"
        errors.print(
            f"[dim]verified by {summary.verifier}: {summary.supported}/{summary.claims} claims "
            f"supported · citation recall {recall}[/]"
        )


def _final_rule(answer: Answer) -> str:
    """What the rule between a streamed draft and the different final answer says."""
    if answer.not_found:
        return "final answer: the draft above does not answer the question"
    if answered_from_sources(answer):
        return "final answer: the sources' own sentences (the model found no answer)"
    return "final answer (citations cleaned)"


def print_answer(answer: Answer, *, already_shown: str = "") -> None:
    """The final text (unless streamed unchanged), cited sources with snippets, warnings.

    A streamed draft that finishing turned into a not-found is said to be withdrawn: the
    reader has just read it.
    """
    if " ".join(already_shown.split()) != " ".join(answer.answer.split()):
        if already_shown:
            sys.stdout.write("\n")
            console.rule(f"[dim]{_final_rule(answer)}[/]")
        console.print(escape(printable(answer.answer, keep="\n\t")))
    else:
        sys.stdout.write("\n")
    if answer.citations:
        console.print("\n[bold]Sources[/]")
    for citation in answer.citations:
        where = citation.location
        if citation.evidence is not None and citation.page is None:
            where += f" (supporting: L{citation.evidence.start_line}-L{citation.evidence.end_line})"
        mark = _SUPPORT_MARKS.get(citation.support, "")
        console.print(f"[bold][{citation.number}][/] [cyan]{escape(printable(where))}[/] {mark}")
        quote = citation.evidence.text if citation.evidence is not None else citation.snippet
        console.print(f"    [dim]{escape(printable(' '.join(quote.split())[:240]))}[/]")
    if answer.not_found and answer.sources:
        console.print("\n[dim]Closest passages (none was found to answer it; check them):[/]")
        for source in answer.sources[:3]:
            console.print(f"[dim]  {escape(printable(_nearby(source, answer.question)))}[/]")
    print_verdicts(answer)
    notes = [*answer.warnings, *([answer.disclaimer] if answer.disclaimer else [])]
    for note in notes:
        errors.print(f"[dim]note: {escape(printable(note))}[/]")
    flags = "cached · " if answer.cached else ""
    errors.print(
        f"[dim]{flags}{answer.model} · {answer.mode} · confidence {answer.confidence:.2f} · "
        f"{answer.usage.latency_ms.get('total', 0) / 1000:.1f} s[/]"
    )


main.add_command(eval_group)
main.add_command(report)
main.add_command(serve)
main.add_command(mcp)
main.add_command(migrate_command)
