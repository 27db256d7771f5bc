"""The written documentation claims a docs stage trains on (benchmarks/verifier_pairs.py)."""

from __future__ import annotations

from collections import Counter

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
