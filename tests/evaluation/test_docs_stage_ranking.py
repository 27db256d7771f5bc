"""The docs stage's ranking loss (benchmarks/train_crossencoder.py --pairwise)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from benchmarks.train_crossencoder import averaged, docs_weights, grouped_batches, ranking_loss

from citesynth.verify.crossencoder import available


def pair(group: str, label: int, source: str = "docs-written") -> dict[str, object]:
    return {
        "claim": f"{group}-{label}",
        "evidence": "",
        "label": label,
        "source": source,
        "group": group,
    }


WRITTEN = [pair(f"g{n}", label) for n in range(40) for label in (1, 0)]
REPLAYED = [pair(f"r{n}", n % 2, "scifact") for n in range(70)]
ITEMS = WRITTEN + REPLAYED


def test_a_written_claims_two_versions_share_every_batch() -> None:
    plan = grouped_batches(ITEMS, 2, random.Random(1))
    seen = [index for batch in plan for index in batch]
    assert sorted(seen) == sorted(list(range(len(ITEMS))) * 2)  # each pair twice, in two epochs
    for batch in plan:
        groups = [ITEMS[i]["group"] for i in batch if ITEMS[i]["source"] == "docs-written"]
        assert all(groups.count(g) == 2 for g in groups)


def test_the_written_claims_labels_can_be_weighted_apart_from_the_replayed_pairs() -> None:
    full, none = docs_weights(ITEMS, 1.0), docs_weights(ITEMS, 0.0)
    assert all(w > 0 for w in full)
    assert [w for w, p in zip(none, ITEMS, strict=True) if p["source"] == "docs-written"] == [
        0.0
    ] * 80
    assert [w for w, p in zip(none, ITEMS, strict=True) if p["source"] != "docs-written"] == full[
        80:
    ]


@pytest.mark.skipif(not available(), reason="needs torch (citesynth[embed])")
def test_the_ranking_loss_falls_as_the_right_version_outscores_its_edit() -> None:
    import torch

    chosen = [0, 1, 2, 3, 80]  # two written pairs and a replayed pair
    right_first = torch.tensor([3.0, -3.0, 2.0, -2.0, 0.0])
    edit_first = torch.tensor([-3.0, 3.0, -2.0, 2.0, 0.0])
    low = float(ranking_loss(torch, right_first, ITEMS, chosen, 1.0))
    high = float(ranking_loss(torch, edit_first, ITEMS, chosen, 1.0))
    assert low < 0.02 < 4.0 < high
    assert ranking_loss(torch, edit_first, ITEMS, chosen, 0.0) == 0.0
    alone = ranking_loss(torch, torch.tensor([1.0]), ITEMS, [0], 1.0)  # its edit not in the batch
    assert float(alone) == 0.0


@pytest.mark.skipif(not available(), reason="needs torch (citesynth[embed])")
def test_finished_runs_are_averaged_parameter_by_parameter(tmp_path: Path) -> None:
    import torch

    def run(name: str, weights: list[float], step: int = 0) -> Path:
        work = tmp_path / name
        work.mkdir()
        state = {"model": {"head.weight": torch.tensor(weights)}, "stage": 4, "step": step}
        torch.save(state, work / "checkpoint.pt")
        return work

    first, second = run("seed-13", [1.0, 3.0]), run("seed-7", [3.0, 5.0])
    mean = averaged(torch, [first, second])
    assert torch.equal(mean["head.weight"], torch.tensor([2.0, 4.0]))
    with pytest.raises(SystemExit, match="mid-stage"):
        averaged(torch, [first, run("unfinished", [0.0, 0.0], step=40)])
    with pytest.raises(SystemExit, match="not found"):
        averaged(torch, [first, tmp_path / "never-trained"])
