"""Verification in the answer pipeline: verdicts in the answer, the stream and the terminal;
repair, strict mode, conflicts in the prompt, confidence from verified support."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.cli import print_answer
from citesynth.events import VerificationEvent
from citesynth.synthesis.verifying import UNCITED
from tests.conftest import use, write

CONNECT = "What is the connect timeout default?"
GOOD = "The connect timeout defaults to five seconds [1]."
INVENTED = "Connections are encrypted with a rotating key every hour [1]."


@pytest.fixture
async def indexed(engine: Engine, corpus: Path) -> Engine:
    await engine.index([corpus])
    return engine


async def test_claims_citations_and_the_stream_carry_verdicts(indexed: Engine) -> None:
    use(indexed, f"{GOOD} {INVENTED}")
    events = [event async for event in indexed.ask(CONNECT, keep_unsupported=True)]
    verification = next(e for e in events if isinstance(e, VerificationEvent))
    answer = events[-1].answer  # type: ignore[union-attr]
    assert [c.label for c in answer.claims] == ["supported", "unsupported"]
    assert verification.summary == answer.verification
    assert answer.verification is not None and answer.verification.verifier == "lexical"
    assert answer.verification.citation_recall == 0.5
    evidence = answer.claims[0].evidence[0]
    assert "defaults to five seconds" in evidence.text and evidence.number == 1
    assert answer.citations[0].support == "supported"
    assert any("not supported" in warning for warning in answer.warnings)


async def test_confidence_rises_with_verified_support(indexed: Engine) -> None:
    use(indexed, GOOD, f"{GOOD} {INVENTED}")
    good = await indexed.answer(CONNECT, cache=False)
    mixed = await indexed.answer(CONNECT, cache=False, keep_unsupported=True)
    assert good.confidence > mixed.confidence


async def test_an_answer_stating_what_was_asked_is_surer(indexed: Engine) -> None:
    # Both sentences are supported by the same source; only one says what the default is.
    aside = "The connect timeout is the time allowed to establish a connection [1]."
    use(indexed, GOOD, aside)
    good = await indexed.answer(CONNECT, cache=False)
    other = await indexed.answer(CONNECT, cache=False)
    assert [c.label for c in (*good.claims, *other.claims)] == ["supported", "supported"]
    assert good.verification is not None and other.verification is not None
    assert good.verification.signals["coverage"] == 1.0
    assert other.verification.signals["coverage"] == pytest.approx(2 / 3, abs=1e-3)
    assert good.confidence > other.confidence


async def test_a_claim_no_source_supports_is_removed_and_listed(
    indexed: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    use(indexed, f"{GOOD} {INVENTED}")
    answer = await indexed.answer(CONNECT)
    assert answer.answer == GOOD
    assert [c.text for c in answer.removed_claims] == [INVENTED.replace(" [1]", "")]
    assert answer.removed_claims[0].label != "supported"
    assert answer.verification is not None and answer.verification.removed == 1
    assert [c.label for c in answer.claims] == ["supported"]
    assert any("no source supports" in warning for warning in answer.warnings)
    print_answer(answer)
    shown = capsys.readouterr()
    assert "Check these claims" in shown.out and "rotating key" in shown.out
    assert "removed" in shown.out


async def test_markers_after_a_closing_emphasis_are_the_emphasised_sentence_s(
    indexed: Engine,
) -> None:
    # The extractive writer cites Tornado's list item "*Find a coroutine-friendly
    # equivalent.*" after its closing emphasis; the split had given the marker to the
    # sentence after it, and removing the item, uncited, left "- [3] For `time.sleep` …".
    invented = INVENTED.replace(" [1].", ".")
    emphasised = "*The connect timeout is the time allowed to establish a connection.* [1]"
    use(indexed, f"- *{invented}* [1] {GOOD}\n- {emphasised}")
    answer = await indexed.answer(CONNECT)
    assert answer.answer == f"- {GOOD}\n- {emphasised}"
    assert [(c.text, c.citations) for c in answer.removed_claims] == [(f"*{invented}*", [1])]
    assert [c.citations for c in answer.claims] == [[1], [1]]


async def test_a_section_whose_claims_all_go_loses_its_heading_too(indexed: Engine) -> None:
    use(indexed, f"**Timeouts**\n{GOOD}\n\n**Keys**\n{INVENTED}\n\n**Also**\n{GOOD}")
    answer = await indexed.answer(CONNECT)
    assert "**Keys**" not in answer.answer and "rotating key" not in answer.answer
    assert "**Timeouts**" in answer.answer and "\n\n\n" not in answer.answer
    assert len(answer.removed_claims) == 1


async def test_inline_code_in_a_short_line_is_checked_and_goes_with_its_label(
    indexed: Engine,
) -> None:
    # The embedded model wrote made-up steps with "- Example: `…`" lines under them, the
    # code in no source; too short to be claims, they had been kept unchecked.
    shown = "Example: `client = Client(timeout=10.0)`"
    invented = "Example: `rotate_keys(every=3600)`"
    use(
        indexed,
        f"### 1. Timeouts\n- **Connect**:\n  - {GOOD}\n  - {shown}\n  - {invented}\n\n"
        f"### 2. Keys\n- **Rotation**:\n  - Example: `rotate_keys()`\n\n### 3. Also\n{GOOD}",
    )
    answer = await indexed.answer(CONNECT)
    assert answer.answer == (
        f"### 1. Timeouts\n- **Connect**:\n  - {GOOD}\n  - {shown} [4]"
    )  # the heading above the label that lost its item went too; the repeat went
    code = [c for c in answer.claims if c.kind == "code"]
    assert [(c.text, c.label, c.citations) for c in code] == [
        ("client = Client(timeout=10.0)", "supported", [4])
    ]
    removed = [(c.text, c.reasons) for c in answer.removed_claims]
    assert removed == [
        ("rotate_keys(every=3600)", ["the code is not in the cited source(s) as shown"]),
        ("rotate_keys()", [UNCITED]),
    ]


def test_only_headings_with_nothing_under_them_are_dropped() -> None:
    from citesynth.synthesis.verifying import without_empty_sections

    text = "## Pools\n\n\n## Timeouts\nFive seconds [1].\n\n**Keys**\n\n"
    assert without_empty_sections(text) == "## Timeouts\nFive seconds [1]."
    kept = "**Note:** the default is five seconds [1]."
    assert without_empty_sections(kept) == kept


def test_list_items_left_empty_by_removed_claims_are_dropped() -> None:
    from citesynth.synthesis.verifying import without_empty_sections

    # An embedded-model answer on ClapNQ kept the numbers of the items verification removed.
    text = "1.\n2. **Control**: it controls what goes in [1].\n3.\n4.\n\n## Other\n- \n* "
    assert without_empty_sections(text) == "1. **Control**: it controls what goes in [1]."
    code = "Run it:\n\n```\n1.\n```"
    assert without_empty_sections(code) == code
    # a line that only introduced the code removed below it goes: a step before the next
    # step, or a line before a heading or the end
    bare = "Do this:\n\n1. Here's an example.\n\n2. For example:\n3. Set it [1]."
    assert without_empty_sections(bare) == "Do this:\n\n1. Set it [1]."
    assert without_empty_sections("Intro [1].\n\nFor example:\n\n## Next") == "Intro [1]."
    for kept in (  # code, a table, a list, an indented block below: the example itself
        "Here's an example:\n\n```\nx = 1\n```",
        "Here is an example:\n\n| a | b |",
        "For example:\n\n- `--lf` reruns the failures [1].",
        "Example:\n\n    pip install foo\n\nThis installs it [1].",
        "Here's how:\n\n1. Open the settings page [1].",
    ):
        assert without_empty_sections(kept) == kept


def test_an_item_label_left_above_a_heading_or_the_end_is_dropped() -> None:
    from citesynth.synthesis.verifying import without_empty_sections

    text = "### 1. A\n- **v1**:\n  - Set it [1].\n- **v2**:\n\n### 2. B\n- **Mid**:\n\n- **End**:"
    assert without_empty_sections(text) == "### 1. A\n- **v1**:\n  - Set it [1]."
    # a label above its items, or above a sibling (a list written flat), stays
    for kept in ("- **v1**:\n  - Set it [1].", "- **v1**:\n- Set it [1]."):
        assert without_empty_sections(kept) == kept


def test_numbered_items_left_are_numbered_again() -> None:
    from citesynth.synthesis.verifying import items_renumbered

    # An embedded-model answer on the cattrs docs kept "2." and "4." of four steps.
    text = (
        "Follow these steps:\n\n2. Use `lambda: 1` [1].\n\n   ```python\n   3. not an item\n"
        "   ```\n\n   - a sub-point [1]\n4. **Use the defaultdict** [1].\n\nThen:\n\n"
        "3. again [1].\n"
        "0. zero first [1].\n7. then [1]."
    )
    assert items_renumbered(text) == (
        "Follow these steps:\n\n1. Use `lambda: 1` [1].\n\n   ```python\n   3. not an item\n"
        "   ```\n\n   - a sub-point [1]\n2. **Use the defaultdict** [1].\n\nThen:\n\n"
        "1. again [1].\n"  # a lead-in opens a list of its own
        "2. zero first [1].\n3. then [1]."
    )
    # a paragraph that broke a list off: the items after it go on from it (an arrow answer)
    broken = "1. one [1].\n2. two [1].\n\nThis will output 2 [1].\n\n4. four [1]."
    assert items_renumbered(broken).endswith("\n\n3. four [1].")
    # ... but not across a heading, nor into another item's sub-list
    headed = "## Install\n\n1. Run it [1].\n\n## Configure\n\n2. Edit it [2].\n3. Restart [2]."
    assert items_renumbered(headed).endswith("## Configure\n\n1. Edit it [2].\n2. Restart [2].")
    parents = "1. Outer A\n   1. a1\n   2. a2\n2. Outer B\n   2. b2\n   3. b3"
    assert (
        items_renumbered(parents)
        == "1. Outer A\n   1. a1\n   2. a2\n2. Outer B\n   1. b2\n   2. b3"
    )
    assert items_renumbered("0. zero\n5. five") == "0. zero\n1. five"
    nested = "1. Outer [1].\n   3. inner [1].\n   5. inner [1].\n2. Outer [1]."
    assert (
        items_renumbered(nested)
        == "1. Outer [1].\n   1. inner [1].\n   2. inner [1].\n2. Outer [1]."
    )


async def test_an_answer_whose_claims_are_all_unsupported_is_not_found(indexed: Engine) -> None:
    use(indexed, INVENTED)
    answer = await indexed.answer(CONNECT)
    assert answer.not_found and answer.answer == "Not found in the sources."
    assert answer.confidence == 0.0 and not answer.claims
    assert [c.citations for c in answer.removed_claims] == [[1]]
    assert answer.sources, "the passages found nearby are still listed"


async def test_the_terminal_flags_unsupported_claims(
    indexed: Engine, capsys: pytest.CaptureFixture[str]
) -> None:
    use(indexed, f"{GOOD} {INVENTED}")
    print_answer(await indexed.answer(CONNECT, keep_unsupported=True))
    shown = capsys.readouterr()
    assert "✗ unsupported" in shown.out and "rotating key" in shown.out
    assert "✓ supported" in shown.out
    assert "1/2 claims supported" in shown.err


async def test_strict_mode_rewrites_with_feedback_and_removes_what_stays_unsupported(
    indexed: Engine,
) -> None:
    model = use(indexed, f"{GOOD} {INVENTED}", f"{GOOD} Requests are signed with HMAC keys [1].")
    answer = await indexed.answer(CONNECT, strict=True)
    retry = model.calls[1][-1].content
    assert "rotating key" in retry and "do not support" in retry
    assert answer.answer == GOOD
    assert answer.verification is not None
    assert answer.verification.regenerated and answer.verification.removed == 1
    assert [c.label for c in answer.claims] == ["supported"]


async def test_conflicting_sources_reach_the_prompt_and_the_answer(
    engine: Engine, tmp_path: Path
) -> None:
    root = tmp_path / "docs"
    write(
        root,
        "old.md",
        "# Limits\n\nThe upload size limit for one file is 10 MB on the free plan.\n",
    )
    write(
        root,
        "new.md",
        "# Limits\n\nThe upload size limit for one file is 25 MB on the free plan.\n",
    )
    await engine.index([root])
    model = use(engine, "The upload limit is 10 MB [1] or 25 MB [2].")
    answer = await engine.answer("What is the upload size limit for one file?")
    assert [(c.kind, sorted(c.values)) for c in answer.conflicts] == [
        ("number", ["10 MB", "25 MB"])
    ]
    prompt = model.calls[0][-1].content
    assert "these sources disagree" in prompt and "10 MB" in prompt and "25 MB" in prompt
    assert re.search(r"\[\d\] says (10|25) MB; \[\d\] says (10|25) MB\.", answer.answer)
    assert answer.low_confidence and answer.confidence < 0.5
    assert answer.disclaimer is not None and "disagree" in answer.disclaimer


@pytest.mark.parametrize(
    "reply",
    [
        "Multiple sources report that the upload size limit for one file is 10 MB [1,2].",
        "The upload limit is 10 MB [1].\n\nNote: these sources disagree. Present both values, "
        "each with its own citation:\n- upload size limit for one file: [1] says 10 MB, "
        "[2] says 25 MB",
    ],
    ids=["false-consensus", "echoed-note"],
)
async def test_no_false_consensus_and_no_echo_of_the_prompt_note(
    engine: Engine, tmp_path: Path, reply: str
) -> None:
    root = tmp_path / "docs"
    write(root, "old.md", "# Limits\n\nThe upload size limit for one file is 10 MB.\n")
    write(root, "new.md", "# Limits\n\nThe upload size limit for one file is 25 MB.\n")
    await engine.index([root])
    use(engine, reply)
    answer = await engine.answer("What is the upload size limit for one file?", cache=False)
    text = answer.answer
    assert "Multiple sources" not in text and "Note:" not in text and "Present both" not in text
    said = re.search(r"disagree on the upload size limit for one file: (.*)$", text)
    assert said is not None
    assert re.fullmatch(r"\[(\d)\] says (10|25) MB; \[(\d)\] says (10|25) MB\.", said[1])
    assert answer.low_confidence and "disagree" in (answer.disclaimer or "")


async def test_the_extractive_writer_states_both_sides(engine: Engine, tmp_path: Path) -> None:
    root = tmp_path / "docs"
    write(root, "a.md", "# Pools\n\nThe default connection pool size is 100 connections.\n")
    write(root, "b.md", "# Pools\n\nThe default connection pool size is 10 connections.\n")
    await engine.index([root])
    answer = await engine.answer("What is the default connection pool size?", cache=False)
    assert "Multiple sources" not in answer.answer
    assert "says 100 connections" in answer.answer and "says 10 connections" in answer.answer
    assert answer.low_confidence


async def test_verification_can_be_turned_off(indexed: Engine) -> None:
    use(indexed, GOOD)
    answer = await indexed.answer(CONNECT, verify=False)
    assert answer.verification is None
    assert {c.label for c in answer.claims} == {"unchecked"}


async def test_the_disclaimer_names_the_cause_of_low_confidence(indexed: Engine) -> None:
    use(indexed, f"{GOOD} {INVENTED}", GOOD)
    mixed = await indexed.answer(
        CONNECT, low_confidence_below=1.0, cache=False, keep_unsupported=True
    )
    good = await indexed.answer(CONNECT, low_confidence_below=1.0, cache=False)
    assert mixed.disclaimer is not None and "partly support" in mixed.disclaimer
    assert good.disclaimer is not None and "match the question only weakly" in good.disclaimer


async def test_the_disclaimer_says_when_the_answer_states_little_of_the_question(
    indexed: Engine,
) -> None:
    use(indexed, "A connection is established within the time allowed [1].")
    answer = await indexed.answer(CONNECT, low_confidence_below=1.0, cache=False)
    assert [c.label for c in answer.claims] == ["supported"]
    assert answer.verification is not None and answer.verification.signals["coverage"] < 0.5
    assert answer.disclaimer is not None and "states little of what was asked" in answer.disclaimer
