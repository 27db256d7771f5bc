"""Options and error handling shared by the `citesynth` commands."""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.markup import escape

from citesynth.errors import CitesynthError, IndexNotFoundError
from citesynth.render import printable
from citesynth.settings import Settings
from citesynth.synthesis.modes import MODE_NAMES

F = TypeVar("F", bound=Callable[..., Any])
errors = Console(stderr=True, highlight=False)


def _friendly(function: F) -> F:
    """Turn expected errors into one red line and exit code 1; Ctrl-C into exit code 130."""

    @wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except IndexNotFoundError as error:  # a usage problem: exit code 2, as click's are
            errors.print(f"[red]error:[/] {escape(printable(str(error)))}")
            sys.exit(2)
        except CitesynthError as error:
            errors.print(f"[red]error:[/] {escape(printable(str(error)))}")
            sys.exit(1)
        except KeyboardInterrupt:
            errors.print("[yellow]interrupted[/]")
            sys.exit(130)

    return wrapper  # type: ignore[return-value]  # same signature as the wrapped command


_STORE = "citesynth.store"


def _remember_store(context: click.Context, _: click.Parameter, value: str | None) -> None:
    if value:
        context.meta[_STORE] = value


def index_option(function: F) -> F:
    """`--index DIR` (the SQLite store's folder) and `--store LOCATION` (any store)."""
    function = click.option(
        "--store",
        default=None,
        expose_value=False,
        callback=_remember_store,
        metavar="LOCATION",
        help="Where the index lives, instead of --index: postgresql://USER@HOST/DB "
        "[?schema=NAME], sqlite:PATH or a folder (default: $CITESYNTH_STORE).",
    )(function)
    return click.option(
        "--index",
        "index_dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="Index folder (default: ./.citesynth or $CITESYNTH_INDEX).",
    )(function)


embed_options = [
    click.option("--no-embed", is_flag=True, help="BM25 only: no dense vectors."),
    click.option(
        "--embedder", default=None, help="auto | minilm[:bf16|:fp32] | hashing[:DIM] | none."
    ),
]


def _with(options: list[Callable[[F], F]]) -> Callable[[F], F]:
    def apply(function: F) -> F:
        for option in reversed(options):
            function = option(function)
        return function

    return apply


def _settings(
    index_dir: Path | None, no_embed: bool, embedder: str | None, **overrides: Any
) -> Settings:
    context = click.get_current_context(silent=True)
    store = context.meta.get(_STORE) if context is not None else None
    if store is not None and index_dir is not None:
        raise click.UsageError("give --index DIR or --store LOCATION, not both")
    if index_dir is not None:
        store = ""  # an explicit folder wins over $CITESYNTH_STORE and the settings file
    return Settings.from_env(
        index_dir=index_dir, store=store, embedder="none" if no_embed else embedder, **overrides
    )


model_options = [
    click.option(
        "--model",
        default=None,
        help="auto | local | local:0.5b | extractive | openai:M | ollama:M | anthropic:M | "
        "gemini:M | fake (default: auto = local if installed, else extractive).",
    ),
    click.option(
        "--mode",
        type=click.Choice(MODE_NAMES),
        default=None,
        help="Context and output budgets (default simple).",
    ),
    click.option("--timeout", type=float, default=None, help="Seconds before falling back."),
]


verify_options = [
    click.option(
        "--verifier",
        default=None,
        help="default (trained; lexical without torch) | lexical | judge:MODEL | nli:PATH.",
    ),
    click.option(
        "--keep-unsupported",
        is_flag=True,
        help="Keep claims no source supports in the answer (flagged) instead of removing them.",
    ),
    click.option(
        "--strict",
        is_flag=True,
        help="Rewrite once when claims are unsupported, then remove what still is.",
    ),
    click.option("--no-verify", is_flag=True, help="Do not check claims against sources."),
]
