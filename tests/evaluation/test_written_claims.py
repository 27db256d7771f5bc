"""The written documentation claims a docs stage trains on (benchmarks/verifier_pairs.py)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from benchmarks.calibrate_lexical_sure import docs_stage_probes, written_tuning
from benchmarks.verifier_pairs import PROBES, WRITTEN_CLAIMS, holdout, written_claims
from benchmarks.verifier_variants import unseen_probes


def test_a_named_probe_joins_the_written_claims_under_its_own_subject() -> None:
    alone = list(written_claims())
    with_probe = list(written_claims(["h11"]))
    added = with_probe[len(alone) :]
    assert [check.claim for check, _, _ in with_probe[: len(alone)]] == [
        check.claim for check, _, _ in alone
    ]
    assert len(added) == 40
    assert all(check.about.startswith(PROBES["h11"][0]) for check, _, _ in added)
    assert Counter(supported for _, supported, _ in added) == {True: 20, False: 20}
    assert all(group.startswith("docs-written:h11:") for _, _, group in added)


def test_a_passages_two_claims_are_held_out_together() -> None:
    groups = Counter(group for _, _, group in written_claims(sorted(PROBES)))
    assert set(groups.values()) == {2}
    held = [group for group in groups if holdout(group)]
    assert 0.1 < len(held) / len(groups) < 0.3


def test_unseen_probes_are_measured_one_by_one_and_together() -> None:
    sets = unseen_probes(["h11", "cachetools"])
    assert set(sets) == {"probe:h11", "probe:cachetools", "probes-unseen"}
    checks, labels = sets["probes-unseen"]
    assert len(checks) == len(labels) == 80
    assert sum(labels) == 40


def test_the_five_written_projects_are_no_probes() -> None:
    assert not set(WRITTEN_CLAIMS) & set(PROBES)


def test_weights_that_learnt_written_claims_are_calibrated_on_those_they_held_out(
    tmp_path: Path,
) -> None:
    (tmp_path / "crossencoder.json").write_text(json.dumps({"docs_stage": {"probes": ["h11"]}}))
    probes = docs_stage_probes(tmp_path)
    assert probes == ["h11"]
    held = written_tuning(probes)
    every = written_tuning(None)
    assert len(every) == 600  # weights that never read one: all five projects' claims
    assert 0 < len(held) < len(every) // 3
    learnt = {check.claim for check, _, group in written_claims(probes) if not holdout(group)}
    assert not learnt & {claim for claim, _, _ in held}
    (tmp_path / "crossencoder.json").write_text(json.dumps({"threshold": 0.5}))
    assert docs_stage_probes(tmp_path) is None
