"""The extractive writer's sentence ranker: its features, its choice, and the shipped weights."""

from __future__ import annotations

from citesynth.synthesis.sentence_rank import (
    FEATURES,
    Ranked,
    Weights,
    asked_sentence,
    features,
    ordered,
    shipped,
)
from citesynth.synthesis.sources import Source
from citesynth.types import Chunk, ChunkId, DocumentId, Hit

QUESTION = (
    "I'm cross-compiling Windows ARM64 wheels on an Intel runner and the extension comes "
    "out as x64. Which build backends does cibuildwheel support for this cross-compilation?"
)


def _source(number: int, path: str = "docs/platforms.md") -> Source:
    chunk = Chunk(
        id=ChunkId(f"c:{number}"),
        document_id=DocumentId(f"d:{path}"),
        path=path,
        title="Platforms",
        heading_path=(),
        text="",
        char_start=0,
        char_end=0,
        start_line=1,
        end_line=1,
    )
    return Source(number, Hit(chunk, 1.0, 0.9), "")


def _candidates() -> list[Ranked]:
    return [
        (0.76, _source(1), 0, "`cibuildwheel` supports cross-compiling `ARM64` wheels."),
        (0.65, _source(1), 60, "Supported backends use an environment variable."),
        (0.55, _source(2, "docs/changelog.md"), 0, "Adds support for Windows ARM64 wheels."),
        (
            0.47,
            _source(1),
            120,
            "Currently, `setuptools>=65.4.1` and `setuptools_rust` are the only supported "
            "build backends.",
        ),
        (0.20, _source(3), 0, "Windows builds need Visual Studio."),
    ]


def test_the_asked_sentence_is_the_questions_last() -> None:
    assert asked_sentence(QUESTION).startswith("Which build backends")
    assert asked_sentence("Which flag does it?") == "Which flag does it?"


def test_features_read_what_is_asked_the_source_code_and_change_logs() -> None:
    rows = features(QUESTION, _candidates())
    assert [len(row) for row in rows] == [len(FEATURES)] * 5
    column = {name: [row[i] for row in rows] for i, name in enumerate(FEATURES)}
    assert column["behind_best"][0] == 0 and column["behind_best"][3] < 0
    assert column["source_place"][:3] == [1.0, 1.0, 0.5]
    # the asked sentence's terms: the backends sentence holds more of them than the first
    assert column["asked_coverage"][3] > column["asked_coverage"][2]
    assert column["code"] == [1.0, 0.0, 0.0, 1.0, 0.0]
    assert column["change_log"] == [0.0, 0.0, 1.0, 0.0, 0.0]
    assert features(QUESTION, []) == []


def test_a_term_is_held_written_as_one_word_or_two() -> None:
    """build's "build will fallback to …" answers "Which backend does build fall back to?"."""
    question = "Which backend does build fall back to in that case?"
    written = [
        "If no backend is specified, build will fallback to the legacy backend.",
        "If no backend is specified, build will fall back to the legacy backend.",
        "If no backend is specified, build will use the legacy backend.",
    ]
    ranked: list[Ranked] = [(0.5, _source(1), i * 80, text) for i, text in enumerate(written)]
    asked = FEATURES.index("asked_coverage")
    closed, open_, neither = (row[asked] for row in features(question, ranked))
    assert closed == open_ > neither
    # and the other way round
    ranked = [(0.5, _source(1), 0, written[1]), (0.5, _source(1), 80, written[2])]
    opened, none = (row[asked] for row in features("Which is the fallback backend?", ranked))
    assert opened > none


def test_the_ranker_chooses_as_many_as_relevance_puts_in_reach() -> None:
    ranked = _candidates()
    asked = Weights(tuple(1.0 if name == "length" else 0.0 for name in FEATURES), 0.0)
    chosen = ordered(QUESTION, ranked, 0.5, asked)
    in_reach = [item for item in chosen if item[0] >= 0.5]
    assert len(in_reach) == 3  # relevance put three at or above the floor
    assert "setuptools_rust" in in_reach[0][3]  # the model's best (the longest) comes first
    assert [item[3] for item in chosen[3:]] == sorted(
        (item[3] for item in chosen[3:]), key=lambda s: -next(r[0] for r in ranked if r[3] == s)
    )
    assert all(item[0] < 0.5 for item in chosen[3:])
    assert sorted(item[3] for item in chosen) == sorted(item[3] for item in ranked)
    assert ordered(QUESTION, ranked, 0.9, asked) == ranked  # nothing in reach: as it was


def test_the_shipped_weights_fit_the_features() -> None:
    weights = shipped()
    assert weights is not None and len(weights.coefficients) == len(FEATURES)
    # relevance and the asked sentence's terms count for a sentence, a change log against
    coefficients = dict(zip(FEATURES, weights.coefficients, strict=True))
    assert coefficients["relevance"] > 0 and coefficients["asked_coverage"] > 0
    assert coefficients["change_log"] < 0


def test_a_candidate_far_below_the_best_is_chosen_only_when_the_scorer_brings_it() -> None:
    ranked = _candidates()
    long_first = Weights(tuple(1.0 if name == "length" else 0.0 for name in FEATURES), 0.0)
    # the backends sentence (0.47) is within 0.6 of the best (0.76); the last (0.20) is not
    far = [*ranked[:4], (0.20, _source(3), 0, "Windows builds need Visual Studio " * 9)]
    chosen = ordered(QUESTION, far, 0.5, long_first)
    assert all("Visual Studio" not in item[3] for item in chosen if item[0] >= 0.5)
    # a scorer finding it answering, better than all in reach, brings it in as well
    answering = [0.3, 0.2, 0.1, 0.2, 0.9]
    brought = ordered(QUESTION, far, 0.5, long_first, answering)
    in_reach = [item[3] for item in brought if item[0] >= 0.5]
    assert len(in_reach) == 4 and "Visual Studio" in in_reach[0]
