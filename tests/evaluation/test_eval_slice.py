"""The CI gate: 20 ClapNQ questions (half unanswerable) must not regress against the baseline
committed in benchmarks/results/eval/ (refresh it with `python -m benchmarks.eval_suite
--ci-baseline` when a change is meant to move the figures, and say so in the commit)."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from citesynth.cli import main

BASELINES = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "eval"


@pytest.mark.data
@pytest.mark.parametrize("model", ["extractive", "fake"])
def test_the_clapnq_slice_does_not_regress(
    model: str, shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    baseline = BASELINES / f"ci-slice-clapnq-{model}" / "summary.json"
    args = ["eval", "clapnq", "--limit", "20", "--model", model, "--embedder", "hashing"]
    where = ["--data", str(shared_data), "--cache", "cache", "--out", "run"]
    result = CliRunner().invoke(main, [*args, *where, "--json", "--compare", str(baseline)])
    assert result.exit_code in {0, 1}, result.output
    summary = json.loads(result.stdout)
    assert summary["regressions"] == [], (tmp_path / "run" / "comparison.md").read_text()
    assert result.exit_code == 0
    ours, naive = (summary["runs"][p]["metrics"] for p in ("ours", "naive"))
    # What the project promises over the naive baseline on this slice:
    assert ours["abstention_f1"] > naive["abstention_f1"]
    assert ours["accuracy"] > naive["accuracy"]
    assert ours["citation_recall"] >= naive["citation_recall"]
