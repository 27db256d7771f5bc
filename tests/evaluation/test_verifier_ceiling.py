"""What limits the trained verifier: its readings with marked evidence and by clause."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from benchmarks.verifier_ceiling import (
    clause_verdicts,
    clauses,
    gold_evidence,
    readings,
    with_gold_evidence,
)

from citesynth.evaluation.verifier_data import Example
from citesynth.evaluation.verifier_eval import VerifierRun
from citesynth.verify import LexicalVerifier
from citesynth.verify.base import Verdict


def test_a_compound_claim_is_cut_at_semicolons_and_linking_words_and_a_simple_one_is_not() -> None:
    claim = (
        "The couple married in New York in December 2012, and their son was born the next "
        "year; he later moved to Boston, which is in Massachusetts."
    )
    assert clauses(claim) == [
        "The couple married in New York in December 2012",
        "their son was born the next year",
        "he later moved to Boston",
        "is in Massachusetts",
    ]
    assert clauses("Arnold is the publisher of Media Play News.") == []
    assert clauses("He sings, and dances.") == []  # one clause of three words or more


def _wice_row(claim_id: str, label: str, supporting: list[list[int]]) -> dict[str, object]:
    return {
        "id": claim_id,
        "claim": "The library holds over 260,000 volumes.",
        "label": label,
        "evidence": ["Welcome.", "The library holds 260,000 volumes.", "It opened in 1866."],
        "supporting_sentences": supporting,
    }


def _write_wice(data: Path, rows: list[dict[str, object]]) -> None:
    (data / "wice").mkdir(parents=True)
    lines = "\n".join(json.dumps(row) for row in rows) + "\n"
    (data / "wice" / "claim_test.jsonl").write_text(lines)


def test_marked_sentences_replace_the_page_and_unmarked_pairs_keep_it(tmp_path: Path) -> None:
    _write_wice(
        tmp_path,
        [
            _wice_row("t1", "supported", [[1], [1, 2]]),
            _wice_row("t2", "not_supported", []),
        ],
    )
    marked = gold_evidence("wice", "test", tmp_path)
    assert marked == {"t1": "The library holds 260,000 volumes. It opened in 1866."}
    page = Example("t2", "claim", ("the whole page",), supported=False)
    first = Example("t1", "claim", ("the whole page",), supported=True)
    assert [e.passages for e in with_gold_evidence([first, page], marked)] == [
        ("The library holds 260,000 volumes. It opened in 1866.",),
        ("the whole page",),
    ]


def test_scifact_rationales_are_keyed_by_claim_and_document(tmp_path: Path) -> None:
    (tmp_path / "scifact").mkdir()
    rows = [
        {"claim_id": 3, "doc_id": "14", "rationale_sentences": [" A. ", "B."]},
        {"claim_id": 4, "doc_id": "15", "rationale_sentences": []},
    ]
    path = tmp_path / "scifact" / "claim_doc_pairs_dev.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    assert gold_evidence("scifact", "dev", tmp_path) == {"3:14": "A. B."}
    assert gold_evidence("halueval", "test", tmp_path) == {}


def test_a_claim_is_supported_by_clause_only_when_it_and_every_clause_are() -> None:
    compound = "It opened in 1866, and it holds 260,000 volumes."
    examples = (
        Example("a", compound, ("p",), supported=True),
        Example("b", "It opened in 1866.", ("p",), supported=True),
        Example("c", compound, ("p",), supported=False),
    )
    split = [clauses(e.claim) for e in examples]
    assert [len(s) for s in split] == [2, 0, 2]
    yes, no = Verdict(0.9, "supported"), Verdict(0.1, "unsupported")
    whole = [yes, yes, yes]
    parts = [yes, yes, yes, no]  # a's two clauses, then c's
    read = clause_verdicts(split, whole, parts)
    assert [v.supported for v in read] == [True, True, False]
    assert read[2] is no  # the clause that failed gives the claim its verdict
    metrics = VerifierRun(examples, tuple(read), 1.0).metrics()
    assert metrics["balanced_accuracy"] == 1.0
    unsplit = VerifierRun(examples, tuple(whole), 1.0).metrics()
    assert unsplit["balanced_accuracy"] == 0.5


def test_readings_of_a_report_split_with_the_lexical_verifier(tmp_path: Path) -> None:
    _write_wice(
        tmp_path,
        [
            _wice_row("t1", "supported", [[1]]),
            {**_wice_row("t2", "partially_supported", [[1]]), "claim": "It opened in 1900."},
        ],
    )
    result = asyncio.run(readings(LexicalVerifier(), "wice", "test", tuning=False, data=tmp_path))
    assert result["role"] == "report"
    assert (result["examples"], result["supported"], result["compound_claims"]) == (2, 1, 0)
    assert result["gold_evidence_examples"] == 2
    assert result["own"] == result["clauses"] == 1.0
    assert result["gold_evidence"] == 1.0
