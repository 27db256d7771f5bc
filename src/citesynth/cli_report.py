"""`citesynth report`: a research report on a question, written to a file or printed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import click
from rich.markup import escape

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
from citesynth.render import printable
from citesynth.report import DEFAULT_WORDS, FORMATS, Format, Report, ReportDone, render
from citesynth.report.web import WebSearch

MAX_OUTLINE_CHARS = 20_000


@click.command()
@click.argument("question")
@index_option
@_with(embed_options)
@_with(model_options)
@click.option(
    "--max-words",
    type=click.IntRange(min=50),
    default=None,
    help=f"Length limit of the report body, in words (default {DEFAULT_WORDS}, or "
    "CITESYNTH_REPORT_WORDS).",
)
@click.option(
    "--outline",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A file with one subtopic per heading, list item or line.",
)
@click.option("--title", help="The report's title (default: from the outline or the question).")
@click.option(
    "--judge",
    metavar="MODEL",
    help="A chat model that scores the report and has it revised (e.g. local, openai:NAME).",
)
@click.option(
    "--web",
    is_flag=True,
    help="Also search the web (CITESYNTH_WEB_SEARCH_KEY, and _URL for a non-Tavily server).",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the report here (its metadata JSON beside it); default: print it.",
)
@click.option(
    "--format",
    "form",
    type=click.Choice(FORMATS),
    help="md, html or json (default: from the --out suffix, else md).",
)
@_friendly
def report(
    question: str,
    index_dir: Path | None,
    no_embed: bool,
    embedder: str | None,
    model: str | None,
    mode: str | None,
    timeout: float | None,
    max_words: int | None,
    outline: Path | None,
    title: str | None,
    judge: str | None,
    web: bool,
    out: Path | None,
    form: Format | None,
) -> None:
    """Write a cited research report on QUESTION from the indexed documents (docs/reports.md)."""
    settings = _settings(index_dir, no_embed, embedder, model=model, mode=mode, timeout=timeout)
    chosen: Format = form or _format_of(out)
    plan = _outline(outline) if outline else None
    searcher = WebSearch.from_env() if web else None
    if web and searcher is None:
        raise click.UsageError(
            "--web needs a search API: set CITESYNTH_WEB_SEARCH_KEY (Tavily) and, for "
            "another Tavily-style server, CITESYNTH_WEB_SEARCH_URL"
        )

    async def go() -> Report:
        async with await Engine.open(settings=settings) as engine:
            if (await engine.stats(vectors=False)).chunks == 0:
                raise click.UsageError(
                    f"the index at {settings.store_shown} is empty; run `citesynth index PATH`"
                )
            events = engine.report(
                question,
                max_words=max_words,
                outline=plan,
                title=title,
                judge=judge,
                tools=[searcher] if searcher else [],
            )
            async for event in events:
                if isinstance(event, ReportDone):
                    return event.report
                eta = f" · about {event.eta_seconds:.0f} s left" if event.eta_seconds else ""
                step = (
                    f"{event.done + 1}/{event.total} "
                    if event.stage in {"research", "write"}
                    else ""
                )
                errors.print(
                    f"[dim]{event.stage}: {step}{escape(printable(event.message))}{eta}[/]"
                )
        raise RuntimeError("the report stream ended without its report")

    finished = asyncio.run(go())
    text = render(finished, chosen)
    if out is None:
        click.echo(text, nl=False)
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
        written = [out]
        if chosen != "json":
            meta = (
                out.with_name(out.name + ".json")
                if out.suffix == ".json"
                else out.with_suffix(".json")
            )
            meta.write_text(render(finished, "json"), encoding="utf-8")
            written.append(meta)
        errors.print(f"wrote {', '.join(map(str, written))}")
    failed = [c.name for c in finished.checks if not c.passed]
    summary = (
        f"{finished.words} words · {len(finished.sources)} sources · {finished.citations} citations"
    )
    if finished.supported_share is not None:
        summary += f" · {finished.supported_share:.0%} of claims supported"
    if finished.judgements:
        summary += f" · judged {finished.judgements[-1].overall:.2f}/5"
        summary += f" after {finished.revisions} revision(s)" if finished.revisions else ""
    errors.print(f"[dim]{summary}{' · checks failed: ' + ', '.join(failed) if failed else ''}[/]")


def _outline(path: Path) -> str:
    """The outline file's text (UTF-8, at most 20,000 characters)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise click.BadParameter(f"cannot read {path} as UTF-8 text ({error})") from None
    if len(text) > MAX_OUTLINE_CHARS:
        raise click.BadParameter(f"{path} is longer than {MAX_OUTLINE_CHARS:,} characters")
    return text


def _format_of(out: Path | None) -> Format:
    suffix = out.suffix.lower().lstrip(".") if out else ""
    if suffix in {"htm", "html"}:
        return "html"
    if suffix == "json":
        return "json"
    return "md"
