"""A finished evaluation run: its summary object, Markdown table, files and plots.

A run folder holds `summary.json` (the `--json` object), `records.jsonl` (one line per
question and pipeline), `summary.md` and, when matplotlib is installed, `metrics.png`
(ours vs baseline), `reliability.png` (confidence against correctness) and `latency.png`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from citesynth.errors import ConfigError
from citesynth.evaluation import metrics
from citesynth.evaluation.summary import (
    HIGHER_IS_BETTER,
    LOWER_IS_BETTER,
    TIMING,
    Delta,
    calibration_pairs,
    stage_latency,
    summarise,
)

SHOWN = (
    *HIGHER_IS_BETTER,
    *LOWER_IS_BETTER,
    *TIMING,
    "prompt_tokens_mean",
    "completion_tokens_mean",
)


def build_summary(
    header: Mapping[str, Any], records: Sequence[Mapping[str, Any]], writers: Mapping[str, str]
) -> dict[str, Any]:
    """The run's summary: `header` facts, `metrics` of the first pipeline, and every run."""
    runs: dict[str, Any] = {}
    for pipeline, writer in writers.items():
        mine = [r for r in records if r["pipeline"] == pipeline]
        scored = calibration_pairs(mine)
        runs[pipeline] = {
            "writer": writer,
            "metrics": summarise(mine),
            "latency_by_stage": stage_latency(mine),
            "reliability": metrics.reliability(scored) if scored else None,
        }
    first = next(iter(runs))
    return {**header, "pipeline": first, "metrics": runs[first]["metrics"], "runs": runs}


def markdown(summary: Mapping[str, Any]) -> str:
    """A Markdown table of every reported metric, one column per pipeline."""
    runs: Mapping[str, Any] = summary["runs"]
    names = list(runs)
    title = (
        f"## {summary['dataset']} ({summary['split']}, {summary['questions']} questions) · "
        f"{summary.get('model', '')} · {summary.get('date', '')}"
    )
    head = "| metric | " + " | ".join(f"{n} ({runs[n]['writer']})" for n in names) + " |"
    if "ours" in runs and "naive" in runs:
        head += " ours − naive |"
    lines = [title, "", head, "|---" * (head.count("|") - 1) + "|"]
    for metric in SHOWN:
        values = [runs[n]["metrics"].get(metric) for n in names]
        if all(v is None for v in values):
            continue
        row = f"| {metric} | " + " | ".join(_cell(v) for v in values) + " |"
        if "ours" in runs and "naive" in runs:
            ours, naive = runs["ours"]["metrics"].get(metric), runs["naive"]["metrics"].get(metric)
            row += f" {_signed(ours - naive) if ours is not None and naive is not None else '–'} |"
        lines.append(row)
    notes = summary.get("notes") or []
    return "\n".join([*lines, "", *_stages(runs), *(f"- {note}" for note in notes)]).rstrip() + "\n"


def _stages(runs: Mapping[str, Any]) -> list[str]:
    """Latency per stage, p50 / p95 in ms, one column per pipeline."""
    stages = list(dict.fromkeys(s for run in runs.values() for s in run["latency_by_stage"]))
    if not stages:
        return []
    lines = [
        "| stage (ms, p50 / p95) | " + " | ".join(runs) + " |",
        "|---" * (len(runs) + 1) + "|",
    ]
    for stage in stages:
        cells = []
        for run in runs.values():
            found = run["latency_by_stage"].get(stage)
            cells.append(f"{_cell(found['p50'])} / {_cell(found['p95'])}" if found else "–")
        lines.append(f"| {stage} | " + " | ".join(cells) + " |")
    return [*lines, ""]


def deltas_markdown(deltas: Sequence[Delta], tolerance: float) -> str:
    """The comparison with a previous run, regressions marked."""
    lines = [
        f"| pipeline | metric | before | after | change | (tolerance {tolerance}) |",
        "|---|---|---|---|---|---|",
    ]
    for delta in deltas:
        mark = "**regression**" if delta.regression else ""
        change = _signed(delta.change) if delta.change is not None else "–"
        lines.append(
            f"| {delta.pipeline} | {delta.metric} | {_cell(delta.before)} | "
            f"{_cell(delta.after)} | {change} | {mark} |"
        )
    return "\n".join(lines) + "\n"


def _cell(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.1f}" if abs(value) >= 10 else f"{value:.3f}"


def _signed(value: float) -> str:
    return f"{value:+.1f}" if abs(value) >= 10 else f"{value:+.3f}"


def load_summary(path: Path) -> dict[str, Any]:
    """A run's summary from its folder or its `summary.json`.

    Raises:
        ConfigError: missing or unreadable.
    """
    target = path / "summary.json" if path.is_dir() else path
    try:
        summary = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ConfigError(f"cannot read the previous run {target}: {error}") from error
    if not isinstance(summary, dict):
        raise ConfigError(f"{target} is not a run summary")
    return summary


def write_run(
    folder: Path, summary: Mapping[str, Any], records: Sequence[Mapping[str, Any]]
) -> list[Path]:
    """Write the run's files (and plots when matplotlib is there); the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / "summary.json", folder / "records.jsonl", folder / "summary.md"]
    written[0].write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    written[1].write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    written[2].write_text(markdown(summary), encoding="utf-8")
    try:
        from citesynth.evaluation.plots import draw
    except ImportError:  # matplotlib is optional (`pip install citesynth[eval]`)
        return written
    return written + draw(folder, summary, records)
