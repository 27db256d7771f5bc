"""`citesynth eval ...`: measurements on labelled data (the CLI side; logic in `evaluation`)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from citesynth.evaluation.verifier_data import DATASETS, SPLITS, data_dir, load
from citesynth.evaluation.verifier_eval import run
from citesynth.verify import get_verifier

errors = Console(stderr=True, highlight=False)


@click.group(name="eval")
def eval_group() -> None:
    """Measure citesynth on labelled data (the shared data sets)."""


@eval_group.command()
@click.option("--dataset", type=click.Choice(DATASETS), required=True)
@click.option(
    "--split",
    default=None,
    help="wice: dev|test; scifact: train|dev; halueval: dev|test (default: the reporting split).",
)
@click.option("--verifier", "name", default="lexical", show_default=True, help="lexical | judge:M")
@click.option("--limit", type=int, default=None, help="Only the first N examples.")
@click.option("--data", type=click.Path(file_okay=False, path_type=Path), default=None)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
def verifier(
    dataset: str, split: str | None, name: str, limit: int | None, data: Path | None, as_json: bool
) -> None:
    """Balanced accuracy, F1 and claims/s of a verifier on one data set's split."""
    from citesynth.cli import _friendly

    @_friendly
    def go() -> None:
        chosen = split or SPLITS[dataset][1]
        examples = load(dataset, chosen, data)[:limit]
        checker = get_verifier(name)
        bar = Progress(
            TextColumn(f"{dataset}/{chosen}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=errors,
            disable=not errors.is_terminal,
        )
        with bar:
            task = bar.add_task("verify", total=len(examples))
            result = asyncio.run(run(checker, examples, progress=lambda n: bar.advance(task, n)))
        summary = {
            "dataset": dataset,
            "split": chosen,
            "verifier": checker.name,
            "data": str(data_dir(data)),
            "metrics": result.metrics(),
        }
        if as_json:
            sys.stdout.write(json.dumps(summary, indent=2) + "\n")
            return
        metrics = summary["metrics"]
        assert isinstance(metrics, dict)
        click.echo(
            f"{dataset}/{chosen} · {checker.name} · {metrics['examples']} claims: "
            f"balanced accuracy {metrics['balanced_accuracy']} · F1 {metrics['f1']} · "
            f"{metrics['claims_per_second']} claims/s"
        )

    go()
