"""The conflict test corpus: pairs of documents that disagree on a number, date, yes/no or name.

Each case (`tests/fixtures/conflicts.jsonl`, or any JSONL with the same fields) is a
question and two short documents that answer it differently. `judge` says whether an
answer handles the disagreement: it cites both documents, states both sides (for yes/no,
both documents are cited in one statement of the disagreement), and claims no agreement.
The benchmark (`benchmarks/conflict_answers.py`) and the CI test run every case through
each writer.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from citesynth.answers import Answer

_AGREEMENT = re.compile(
    r"\b(?:multiple|several|both|all(?: the)?) sources (?:report|agree|say|state|confirm)"
    r"|\bsources agree\b|\bconsistently report",
    re.I,
)


@dataclass(frozen=True, slots=True)
class ConflictCase:
    """One question, two disagreeing documents, and the value each gives."""

    id: str
    kind: str
    question: str
    values: tuple[str, str]
    first: str
    second: str


@dataclass(frozen=True, slots=True)
class Handling:
    """How an answer dealt with a case's disagreement."""

    cites_both: bool
    states_both: bool
    claims_agreement: bool

    @property
    def correct(self) -> bool:
        """Both sides cited and stated, and no agreement claimed."""
        return self.cites_both and self.states_both and not self.claims_agreement


def load_cases(path: Path) -> list[ConflictCase]:
    """The cases of a JSONL file (fields: id, kind, question, values, a, b)."""
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            cases.append(
                ConflictCase(
                    row["id"],
                    row["kind"],
                    row["question"],
                    tuple(row["values"]),
                    row["a"],
                    row["b"],
                )
            )
    return cases


def judge(
    case: ConflictCase, answer: Answer, documents: tuple[str, str] = ("a.md", "b.md")
) -> Handling:
    """Whether `answer` cites and states both sides of `case` and claims no agreement.

    `documents` name the case's two files (the end of their paths).
    """
    numbers = {s.number: s.path for s in answer.sources}
    cited = {numbers[n] for c in answer.claims for n in c.citations if n in numbers}
    text = answer.answer.lower()
    if case.kind == "negation":
        states = any(len(c.citations) >= 2 or "disagree" in c.text.lower() for c in answer.claims)
    else:
        states = all(value.lower() in text for value in case.values)
    return Handling(
        cites_both=all(any(path.endswith(name) for path in cited) for name in documents),
        states_both=states,
        claims_agreement=bool(_AGREEMENT.search(answer.answer)),
    )
