"""Trimming: an unsupported claim keeps the leading part its sources support, nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.cli import print_answer
from citesynth.verify import LexicalVerifier
from citesynth.verify.base import Passage
from citesynth.verify.claims import split_claims
from citesynth.verify.trim import Trim, apply, leading_parts, trims
from tests.conftest import use, write

POOL = (
    "Connection pools\n\nA pool keeps idle connections open for reuse. The default pool size is "
    "10 connections, and the pool waits 5 seconds for a free connection before it raises "
    "PoolTimeout. Pools are not shared between processes."
)


@pytest.mark.parametrize(
    ("claim", "parts"),
    [
        (
            "Shelley Morrison played Rosario on Will & Grace and is still alive.",
            ["Shelley Morrison played Rosario on Will & Grace"],
        ),
        ("Timeouts default to 5 seconds; they can be disabled.", ["Timeouts default to 5 seconds"]),
        (
            "The pool holds 10 connections, which are shared, and it is never closed.",
            ["The pool holds 10 connections, which are shared", "The pool holds 10 connections"],
        ),
        ("The pool holds 10 connections — it is the default.", ["The pool holds 10 connections"]),
        # a tail that limits what comes before: the part alone would overstate
        ("The client retries twice, which happens only for GET requests.", []),
        ("The client retries twice; this applies to GET requests only.", []),
        ("The client retries twice, and never for POST requests.", []),
        # conditions, concessions, choices and ranges are not clauses that stand alone
        ("If the pool is full, and it is not closed, the client waits.", []),
        ("Although the pool holds 10 connections, which is plenty, it waits.", []),
        ("The request completes within 5 seconds or it raises PoolTimeout.", []),
        ("The client waits 5 seconds while the pool is full.", []),
        ("The pool holds 5 – 10 connections by default.", []),
        ("The client retries twice, but rarely.", []),
        # "between 5 and 10" is one value, not two clauses; too short; dangling words
        ("The default pool size is between 5 and 10 connections.", []),
        ("It works, which is nice.", []),
        ("The pool size is set in the; and so on.", []),
        # the last item of a list, and what a colon introduces, are not clauses of their own
        ("Insights cover active users, licensed users, and the most popular plugins.", []),
        ("Exports hold users, groups, and any custom roles.", []),
        ("To publish it, use one of these commands: podman push or docker push.", []),
        # a part with an open quote, bracket or emphasis would break the answer's markup
        ('"The pool holds 10 connections, which is plenty," the guide says.', []),
        ("**The pool holds 10 connections and is encrypted** hourly.", []),
        ("*The pool holds 10 connections, and it is shared widely.*", []),
        ("The pool (10 connections, which is plenty) is shared.", []),
        # a last phrase naming the module code is from (AnyIO's docs, the embedded model)
        (
            "To run a blocking function, use `to_thread.run_sync` from the `threading` module [1].",
            ["To run a blocking function, use `to_thread.run_sync`"],
        ),
        ("Use the `run` function from the `anyio` module to start the loop.", []),
    ],
)
def test_leading_parts_cut_where_a_new_clause_begins(claim: str, parts: list[str]) -> None:
    assert leading_parts(claim) == parts


async def test_the_longest_supported_part_is_kept_as_written_with_its_citation() -> None:
    answer = (
        "Pools keep idle connections open for reuse [1]. The default  pool size is 10 "
        "connections and is shared between processes [1]. Pools run on hamsters, and they "
        "are fed hourly [1]."
    )
    claims = split_claims(answer)
    passages = [Passage(1, POOL, "pools.md")]
    cuts = await trims(answer, claims[1:], passages, LexicalVerifier())
    assert [c.kept for c in cuts] == ["The default pool size is 10 connections."]
    assert apply(answer, cuts) == (
        "Pools keep idle connections open for reuse [1]. The default  pool size is 10 "
        "connections [1]. Pools run on hamsters, and they are fed hourly [1]."
    )
    assert "dropped 'and is shared between processes'" in cuts[0].describe(answer)


async def test_a_marker_inside_the_kept_part_is_its_citation() -> None:
    answer = "Pools [1] keep idle connections open for reuse and are encrypted hourly [1,2]."
    passages = [Passage(1, POOL, "pools.md"), Passage(2, "Keys rotate hourly.", "keys.md")]
    cuts = await trims(answer, split_claims(answer), passages, LexicalVerifier())
    assert [(c.kept, c.citations) for c in cuts] == [
        ("Pools keep idle connections open for reuse.", (1,))
    ]
    assert apply(answer, cuts) == "Pools [1] keep idle connections open for reuse."


def test_markers_written_after_the_full_stop_go_with_the_kept_part() -> None:
    answer = "The default pool size is 10 connections, and it is shared widely. [1]\nNext [2]."
    (claim,) = split_claims(answer)[:1]
    cut = Trim(
        claim,
        end=answer.index(", and"),
        kept="The default pool size is 10 connections.",
        citations=(1,),
    )
    assert apply(answer, [cut]) == "The default pool size is 10 connections [1].\nNext [2]."
    bare = Trim(claim, end=answer.index(", and"), kept="", citations=())
    assert apply(answer, [bare]) == "The default pool size is 10 connections [1].\nNext [2]."


async def test_uncited_claims_are_left_alone() -> None:
    answer = "The default pool size is 10 connections and is shared widely."
    passages = [Passage(1, POOL, "pools.md")]
    assert await trims(answer, split_claims(answer), passages, LexicalVerifier()) == []


async def test_the_answer_keeps_the_supported_part_and_lists_the_claim_as_written(
    engine: Engine, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path / "docs", "pools.md", f"# {POOL}\n")
    await engine.index([tmp_path / "docs"])
    written = (
        "The default pool size is 10 connections, and it is encrypted with a "
        "rotating key every hour [1]."
    )
    use(engine, written, written)
    answer = await engine.answer("What is the default pool size?", cache=False)
    assert answer.answer == "The default pool size is 10 connections [1]."
    assert [c.label for c in answer.claims] == ["supported"]
    assert [c.text for c in answer.removed_claims] == [
        "The default pool size is 10 connections, and it is encrypted with a "
        "rotating key every hour."
    ]
    assert answer.verification is not None and answer.verification.removed == 1
    assert any("dropped 'and it is encrypted" in w for w in answer.warnings)
    print_answer(answer)
    shown = " ".join(capsys.readouterr().out.split())
    assert "✗ removed The default pool size is 10 connections, and it is" in shown
    assert "the answer keeps only 'The default pool size is 10 connections.'" in shown
    kept = await engine.answer("What is the default pool size?", cache=False, keep_unsupported=True)
    assert kept.answer == written and kept.claims[0].label != "supported"


async def test_a_removed_closing_clause_leaves_a_whole_sentence(
    engine: Engine, tmp_path: Path
) -> None:
    write(tmp_path / "docs", "pools.md", f"# {POOL}\n")
    write(tmp_path / "docs", "keys.md", "# Keys\n\nTLS session keys rotate every hour.\n")
    await engine.index([tmp_path / "docs"])
    written = (
        "The default pool size is 10 connections [1], whereas hamsters power each pool "
        "with a treadmill [2]."
    )
    use(engine, written)
    answer = await engine.answer("What is the default pool size?", cache=False)
    assert answer.answer.startswith("The default pool size is 10 connections [")
    assert answer.answer.endswith("].") and "," not in answer.answer
    assert [c.text for c in answer.removed_claims] == [
        "whereas hamsters power each pool with a treadmill."
    ]
