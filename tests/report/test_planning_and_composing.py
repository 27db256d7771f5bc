"""Choosing a report's subtopics (outline, the question's parts, the model) and composing it."""

from __future__ import annotations

import pytest

from citesynth.answers import SourceRecord
from citesynth.report.citing import _in_report_terms, _known_only
from citesynth.report.compose import fit, without_bare_markers, without_repeats
from citesynth.report.planning import file_title, from_outline, from_question, parse_plan
from citesynth.report.values import Section


@pytest.mark.parametrize(
    ("question", "queries"),
    [
        (
            "How does HTTPX handle timeouts, connection limits and retries?",
            [
                "How does HTTPX handle timeouts?",
                "How does HTTPX handle connection limits?",
                "How does HTTPX handle retries?",
            ],
        ),
        (
            "What are the causes, symptoms, and treatment of scurvy?",
            [
                "What are the causes of scurvy?",
                "What are the symptoms of scurvy?",
                "What are the treatment of scurvy?",
            ],
        ),
        (
            "What are the defaults of connection pools, timeouts and retries?",
            [
                "What are the defaults of connection pools?",
                "What are the defaults of timeouts?",
                "What are the defaults of retries?",
            ],
        ),
        (
            "How does citesynth verify claims, handle PDFs and combine BM25 with dense retrieval?",
            [
                "How does citesynth verify claims?",
                "How does citesynth handle PDFs?",
                "How does citesynth combine BM25 with dense retrieval?",
            ],
        ),
        (
            "How to chunk PDFs, rank passages and cite sources in answers?",
            [
                "How to chunk PDFs?",
                "How to rank passages?",
                "How to cite sources in answers?",
            ],
        ),
        ("What is the default timeout?", []),
        ("Which of A, B and a part far too long to be a list item go?", []),
    ],
)
def test_a_question_that_lists_its_parts_is_planned_by_them(
    question: str, queries: list[str]
) -> None:
    assert [s.query for s in from_question(question)] == queries


def test_an_outline_gives_the_title_and_the_subtopics_in_order() -> None:
    title, subtopics = from_outline(
        "# Pool report\n\n## Sizes\n- Idle connections:\n1. Why pools?\nLimits\n", "Pools"
    )
    assert title == "Pool report"
    assert [s.title for s in subtopics] == ["Sizes", "Idle connections", "Why pools?", "Limits"]
    assert [s.query for s in subtopics][:1] == ["Sizes: Pools"]
    assert subtopics[2].query == "Why pools?"  # a question is researched as asked


def test_the_models_plan_is_read_from_json_or_from_a_list() -> None:
    assert parse_plan('Sure! ["What is A?", "What is B?"] Hope it helps.') == [
        "What is A?",
        "What is B?",
    ]
    assert parse_plan("1. What is A?\n2. What is B?\n") == ["What is A?", "What is B?"]
    assert parse_plan("no plan here") == []
    cut = '```json\n[\n  "What is A?",\n  "What is B?",\n  "What is'
    assert parse_plan(cut) == ["What is A?", "What is B?"]


def test_file_names_read_as_titles() -> None:
    assert file_title("advanced/resource-limits.md") == "Resource limits"


def test_a_sentence_two_sections_share_is_said_once() -> None:
    first = Section(title="Pools", text="**pools.md**\nPools hold 100 connections [1].")
    second = Section(
        title="Limits",
        text="**pools.md**\nPools hold 100 connections [1].\n\n"
        "**limits.md**\nLimits apply per host [2].",
    )
    third = Section(title="Size", text="Pools hold 100 connections [1].")
    kept = without_repeats([first, second, third])
    assert kept[0] == first
    assert kept[1].text == "**limits.md**\nLimits apply per host [2]."
    assert kept[2].text == "What the sources say on this is given under “Pools” above."


def test_a_repeat_is_found_inside_a_run_the_sentence_splitter_keeps_whole() -> None:
    said = "An installed package can register itself with an entry point [3]."
    first = Section(title="Extending", text=f"Plugins are found by name [1]. {said}")
    # "[3]. `Engine…" opens with a code quote: the splitter keeps both as one sentence.
    second = Section(title="Answers", text=f"{said} `Engine.ask` composes public steps [2].")
    kept = without_repeats([first, second])
    assert kept[1].text == "`Engine.ask` composes public steps [2]."


def test_a_sentence_of_markers_alone_is_dropped() -> None:
    text = "It gives the support probability [48]. [50] [50].\n\nNext part [2]. Ranges [1-3] stay."
    assert without_bare_markers(text) == (
        "It gives the support probability [48].\n\nNext part [2]. Ranges [1-3] stay."
    )


def test_a_marker_naming_no_indexed_source_leaves_the_section() -> None:
    text = "Pools hold 100 connections [1]. Use `items[0]` in code [2,7]. Limits [7]."
    assert _known_only(text, {1, 2}) == (
        "Pools hold 100 connections [1]. Use `items[0]` in code. Limits.",
        ["[2,7]", "[7]"],
    )


def test_a_sections_warnings_speak_of_report_numbers_or_locations() -> None:
    records = {n: _record(n) for n in (1, 2, 5)}
    mapping = {1: 4, 2: 9}
    assert _in_report_terms("citation [2] moved to [1]", mapping, records) == (
        "citation [9] moved to [4]"
    )
    assert _in_report_terms("source(s) [5] were not cited", mapping, records) == (
        "source(s) (docs/five.md:L5-L6) were not cited"
    )
    assert _in_report_terms("1 sentence(s) cite no source", mapping, records) == (
        "1 sentence(s) cite no source"
    )


def _record(number: int) -> SourceRecord:
    name = {1: "one", 2: "two", 5: "five"}[number]
    return SourceRecord(
        number=number,
        chunk_id=f"c:{number}",
        doc_id=f"d:{number}",
        path=f"docs/{name}.md",
        title=name,
        page=None,
        start_line=number,
        end_line=number + 1,
        heading_path=[],
        location=f"docs/{name}.md:L{number}-L{number + 1}",
        url=f"file://docs/{name}.md#L{number}",
        text=f"Source {name}.",
        shown=f"Source {name}.",
        score=1.0,
        confidence=1.0,
    )


def test_a_section_cut_to_length_never_ends_inside_code() -> None:
    code = "\n".join(f"value_{n} = compute(item_{n}). Then more." for n in range(12))
    text = (
        "The first sentence states a fact about the tool [1]. "
        f"Run it as follows [1]:\n\n```python\n{code}\n```\n\nThe last sentence says more [1]."
    )
    (cut,) = fit([Section(title="Running", text=text)], 40)
    assert cut.text == "The first sentence states a fact about the tool [1]."
    (whole,) = fit([Section(title="Running", text=text)], 76)
    assert whole.text.endswith("```") and whole.text.count("```") == 2


def test_a_cut_keeps_a_sections_first_sentence_even_when_code_follows_it() -> None:
    code = "\n".join(f"line_{n} = {n}" for n in range(30))
    intro = "Granite forms slowly under heat and pressure [1]:"
    text = f"{intro}\n\n```py\n{code}\n```\n\nIt is hard [1]."
    for share in (3, 8, 15):
        (cut,) = fit([Section(title="T", text=text)], share)
        assert cut.text == intro
    two = "Granite forms slowly [1].\n\n```\na b c\n```\n\n```\nd e f\n```\n\nMore [1]."
    (cut,) = fit([Section(title="T", text=two)], 9)
    assert cut.text == "Granite forms slowly [1].\n\n```\na b c\n```"


def test_a_cut_keeps_what_a_label_or_heading_heads() -> None:
    code = "```\nx = 1\ny = 2\n```"
    cases = [
        ("**Doc B**\n\n- item one [1]\n- item two [1]", "**Doc B**\n\n- item one [1]"),
        (f"**Doc B**\n\n{code}\n\nMore text here [1].", f"**Doc B**\n\n{code}"),
        (
            "## Setup\n\nGranite forms slowly [1]. It is hard [2].",
            "## Setup\n\nGranite forms slowly [1].",
        ),
        ("```\nunclosed code a b\n\n**Doc B**", "```\nunclosed code a b\n\n**Doc B**"),
    ]
    for text, kept in cases:
        (cut,) = fit([Section(title="T", text=text)], 1)
        assert cut.text == kept
