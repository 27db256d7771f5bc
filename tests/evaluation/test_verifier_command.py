import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from citesynth.cli import main
from citesynth.verify.crossencoder import available


@pytest.mark.data
@pytest.mark.parametrize("dataset", ["wice", "scifact", "halueval"])
def test_eval_verifier_prints_the_named_metrics(dataset: str, shared_data: Path) -> None:
    args = ["eval", "verifier", "--dataset", dataset, "--limit", "30", "--data", str(shared_data)]
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    default = "trained" if available() else "lexical"
    assert summary["verifier"] == default and summary["metrics"]["examples"] == 30
    assert 0.0 <= summary["metrics"]["balanced_accuracy"] <= 1.0
    assert summary["metrics"]["f1"] is not None and summary["metrics"]["claims_per_second"] > 0
    text = CliRunner().invoke(main, args)
    assert "balanced accuracy" in text.output


def test_eval_verifier_without_data_says_where_it_looked(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["eval", "verifier", "--dataset", "wice", "--data", str(tmp_path / "none")]
    )
    assert result.exit_code == 1
    assert "none" in result.output
