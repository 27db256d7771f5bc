"""`citesynth eval ...`: measurements on labelled data (the CLI side; logic in `evaluation`).

citesynth eval clapnq --limit 20 --json       # a question set: ours vs the naive baseline
citesynth eval verifier --dataset wice         # a verifier on labelled claims
"""

from __future__ import annotations

import asyncio
import datetime
import json
import sys
from pathlib import Path

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from citesynth.cli_options import _friendly, errors
from citesynth.evaluation.datafiles import data_dir
from citesynth.evaluation.verifier_data import DATASETS, SPLITS, load
from citesynth.evaluation.verifier_eval import run
from citesynth.verify import get_verifier


class _DatasetGroup(click.Group):
    """`eval DATASET ...` runs `eval run DATASET ...`; named subcommands run as usual."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        asks_for_help = args[:1] in (["--help"], ["-h"])
        if args and not asks_for_help and args[0] not in self.commands:
            args = ["run", *args]  # options may come before the data set
        return super().parse_args(ctx, args)


@click.group(name="eval", cls=_DatasetGroup)
def eval_group() -> None:
    """Measure citesynth on labelled data: `citesynth eval DATASET [OPTIONS]`.

    DATASET is clapnq, musique, hotpotqa, multihop-rag, scifact, docs-rhdh (read from
    ../shared/data, --data or CITESYNTH_DATA) or a question file in the generic JSONL schema
    (see docs/evaluation.md). `citesynth eval verifier --dataset ...` measures a verifier.
    """


@eval_group.command()
@click.option("--dataset", type=click.Choice(DATASETS), required=True)
@click.option(
    "--split",
    default=None,
    help="wice: dev|test; scifact: train|dev; halueval: dev|test (default: the reporting split).",
)
@click.option(
    "--verifier",
    "name",
    default="default",
    show_default=True,
    help="default (trained, or lexical without torch) | trained | lexical | judge:M | nli:PATH",
)
@click.option(
    "--limit", type=click.IntRange(min=1), default=None, help="Only the first N examples."
)
@click.option("--data", type=click.Path(file_okay=False, path_type=Path), default=None)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
def verifier(
    dataset: str, split: str | None, name: str, limit: int | None, data: Path | None, as_json: bool
) -> None:
    """Balanced accuracy, F1 and claims/s of a verifier on one data set's split."""

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


@eval_group.command(name="run")
@click.argument("dataset")
@click.option("--split", type=click.Choice(["dev", "test"]), default="test", show_default=True)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help="Only N questions (keeps the share of unanswerable ones).",
)
@click.option(
    "--model",
    default="extractive",
    show_default=True,
    help="The writer: extractive | local | openai:M | ... | fake",
)
@click.option(
    "--pipeline",
    type=click.Choice(["both", "ours", "naive"]),
    default="both",
    show_default=True,
    help="ours, the naive baseline, or both in the same run.",
)
@click.option(
    "-k",
    "--k",
    "k",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Depth for Recall@k.",
)
@click.option(
    "--verifier",
    default="default",
    show_default=True,
    help="Checks citations: default | trained | lexical | judge:M | nli:PATH",
)
@click.option(
    "--judge", default=None, help="Also check citations with this model (reported separately)."
)
@click.option("--embedder", default=None, help="auto | minilm | hashing | none (default: settings)")
@click.option(
    "--data",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The shared data folder.",
)
@click.option(
    "--corpus",
    type=click.Path(path_type=Path),
    default=None,
    help="The corpus of a JSONL question file.",
)
@click.option(
    "--cache",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where corpus indexes are kept (default ~/.cache/citesynth/eval).",
)
@click.option(
    "--store",
    default=None,
    metavar="LOCATION",
    help="Keep corpus indexes in this store instead (postgresql://...: a schema per corpus).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Run folder (default eval-runs/DATASET-SPLIT-TIME).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option(
    "--compare",
    type=click.Path(exists=True, path_type=Path),
    default=None,
    help="A previous run (folder or summary.json): print deltas, exit 1 on a regression.",
)
@click.option(
    "--tolerance",
    type=float,
    default=0.02,
    show_default=True,
    help="Allowed drop of a quality metric before --compare fails.",
)
def run_command(
    dataset: str,
    split: str,
    limit: int | None,
    model: str,
    pipeline: str,
    k: int,
    verifier: str,
    judge: str | None,
    embedder: str | None,
    data: Path | None,
    corpus: Path | None,
    cache: Path | None,
    store: str | None,
    out: Path | None,
    as_json: bool,
    compare: Path | None,
    tolerance: float,
) -> None:
    """Answer a question set with citesynth and the naive baseline; write metrics and plots."""
    from citesynth.evaluation.report import deltas_markdown, load_summary, markdown, write_run
    from citesynth.evaluation.runner import EvalRequest, Hooks, evaluate, prepare
    from citesynth.evaluation.summary import check_comparable
    from citesynth.evaluation.summary import compare as compare_runs
    from citesynth.progress import IndexProgress

    request = EvalRequest(
        dataset=dataset,
        split=split,
        limit=limit,
        model=model,
        pipelines=("ours", "naive") if pipeline == "both" else (pipeline,),
        k=k,
        verifier=verifier,
        judge=judge,
        embedder=embedder,
        data=data,
        corpus=corpus,
        cache=cache,
        store=store,
    )

    @_friendly
    def go() -> int:
        previous = load_summary(compare) if compare is not None else None
        eval_set = prepare(request)
        if not eval_set.items:
            raise click.UsageError(f"{dataset}/{split} has no questions")
        if previous is not None:
            check_comparable(previous, request.pipelines, eval_set.name)
        show = IndexProgress(errors, enabled=errors.is_terminal)
        bar = _bar(f"{eval_set.name}/{eval_set.split}")
        task = bar.add_task("questions", total=None)

        def start(total: int) -> None:
            show.__exit__(None, None, None)
            bar.start()
            bar.update(task, total=total)

        try:
            with show:
                hooks = Hooks(show.update, start, lambda n: bar.advance(task, n))
                summary, records = asyncio.run(evaluate(request, eval_set, hooks))
        finally:
            bar.stop()
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        folder = out or Path("eval-runs") / f"{eval_set.name}-{eval_set.split}-{stamp}"
        failed: list[str] = []
        if previous is not None:
            deltas = compare_runs(previous, summary, tolerance)
            failed = [f"{d.pipeline}.{d.metric}" for d in deltas if d.regression]
            summary |= {"compared_with": str(compare), "regressions": failed}
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "comparison.md").write_text(deltas_markdown(deltas, tolerance))
            if not as_json:
                click.echo(deltas_markdown(deltas, tolerance))
        written = write_run(folder, summary, records)
        if as_json:
            sys.stdout.write(json.dumps(summary, indent=2) + "\n")
        else:
            click.echo(markdown(summary))
        errors.print(f"wrote {', '.join(str(p) for p in written)}")
        if failed:
            errors.print(f"[red]regression[/] beyond {tolerance}: {', '.join(failed)}")
        return 1 if failed else 0

    sys.exit(go())


def _bar(label: str) -> Progress:
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=errors,
        disable=not errors.is_terminal,
    )
