"""PNG plots of a run (matplotlib, headless): metric bars, reliability curve, latency."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

from citesynth.evaluation.summary import HIGHER_IS_BETTER, LOWER_IS_BETTER

COLOURS = {"ours": "#1f6feb", "naive": "#9a9a9a"}


def draw(
    folder: Path, summary: Mapping[str, Any], records: Sequence[Mapping[str, Any]]
) -> list[Path]:
    """Draw the plots that have data; the paths written."""
    written = [metric_bars(folder / "metrics.png", summary)]
    if any(run.get("reliability") for run in summary["runs"].values()):
        written.append(reliability(folder / "reliability.png", summary))
    if any("total" in r.get("latency_ms", {}) for r in records):
        written.append(latency(folder / "latency.png", records))
    return written


def metric_bars(path: Path, summary: Mapping[str, Any]) -> Path:
    """Grouped horizontal bars of every 0–1 metric, one bar per pipeline."""
    runs: Mapping[str, Any] = summary["runs"]
    names = [
        m
        for m in (*HIGHER_IS_BETTER, *LOWER_IS_BETTER)
        if any(run["metrics"].get(m) is not None for run in runs.values())
    ]
    figure, axes = plt.subplots(figsize=(8, 0.45 * len(names) * len(runs) + 1.2))
    height = 0.8 / max(1, len(runs))
    for index, (pipeline, run) in enumerate(runs.items()):
        values = [run["metrics"].get(m) or 0.0 for m in names]
        rows = [i + index * height for i in range(len(names))]
        bars = axes.barh(
            rows, values, height, label=f"{pipeline} ({run['writer']})", color=_colour(pipeline)
        )
        axes.bar_label(bars, fmt="%.2f", fontsize=7, padding=2)
    axes.set_yticks([i + height * (len(runs) - 1) / 2 for i in range(len(names))], names)
    axes.invert_yaxis()
    axes.set_xlim(0, 1.1)
    axes.set_title(f"{summary['dataset']} ({summary['split']}, {summary['questions']} questions)")
    axes.legend(loc="lower right", fontsize=8)
    return _save(figure, path)


def reliability(path: Path, summary: Mapping[str, Any]) -> Path:
    """Mean confidence against the share correct, per confidence bin and pipeline."""
    figure, axes = plt.subplots(figsize=(5, 5))
    axes.plot([0, 1], [0, 1], linestyle="--", color="#cccccc", label="calibrated")
    for pipeline, run in summary["runs"].items():
        curve = (run.get("reliability") or {}).get("curve") or []
        if curve:
            axes.plot(
                [b["mean_confidence"] for b in curve],
                [b["accuracy"] for b in curve],
                marker="o",
                color=_colour(pipeline),
                label=f"{pipeline} (ECE {run['reliability']['ece']})",
            )
    axes.set_xlabel("confidence")
    axes.set_ylabel("share of answers correct")
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.legend(fontsize=8)
    return _save(figure, path)


def latency(path: Path, records: Sequence[Mapping[str, Any]]) -> Path:
    """The distribution of total latency per pipeline."""
    by_pipeline: dict[str, list[float]] = {}
    for record in records:
        if "total" in record.get("latency_ms", {}):
            by_pipeline.setdefault(record["pipeline"], []).append(record["latency_ms"]["total"])
    figure, axes = plt.subplots(figsize=(7, 3.5))
    for pipeline, values in by_pipeline.items():
        axes.hist(values, bins=30, alpha=0.6, color=_colour(pipeline), label=pipeline)
    axes.set_xlabel("latency per question (ms)")
    axes.set_ylabel("questions")
    axes.legend(fontsize=8)
    return _save(figure, path)


def _colour(pipeline: str) -> str:
    return COLOURS.get(pipeline, "#e36209")


def _save(figure: Any, path: Path) -> Path:
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path
