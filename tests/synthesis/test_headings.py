"""A source's heading copied into an answer heads a part of it and is never a claim."""

from __future__ import annotations

from pathlib import Path

from citesynth import Engine
from citesynth.synthesis.headings import copied_headings
from tests.conftest import answered
from tests.synthesis.test_source_headers import source

NOTES = source(
    2,
    "release-notes.md",
    "Added `max_part_size` to `MultiPartParser`.",
    title="Release Notes",
    headings=("0.40.0 (October 15, 2024)", "Fixed"),
)
FILES = source(1, "requests.md", "Uploaded files are not limited.", headings=("Request Files",))


def test_a_line_copying_a_heading_path_becomes_a_heading() -> None:
    text = (
        "Request Files [1]\nUploaded files are not limited [1].\n\n"
        "0.40.0 (October 15, 2024) › Fixed [2]\nIt was added in 0.40.0 [2]."
    )
    assert copied_headings(text, [FILES, NOTES]) == (
        "**Request Files**\nUploaded files are not limited [1].\n\n"
        "**0.40.0 (October 15, 2024) › Fixed**\nIt was added in 0.40.0 [2].",
        2,
    )


def test_a_heading_copied_without_its_ellipsis_is_a_heading() -> None:
    # structlog's "Why …" page heads a part "… structlog?"; the model dropped the ellipsis
    why = source(
        1, "why.md", "It is tested.", headings=("Why …", "… structlog?", "Highly testable")
    )
    text = "structlog? › Highly testable [1]\nIt is thoroughly tested [1]."
    assert copied_headings(text, [why]) == (
        "**structlog? › Highly testable**\nIt is thoroughly tested [1].",
        1,
    )


def test_a_copied_heading_with_nothing_under_it_goes() -> None:
    text = "Uploaded files are not limited [1].\n\n**Fixed** [2]\n\n## Release Notes [2]"
    assert copied_headings(text, [FILES, NOTES]) == ("Uploaded files are not limited [1].", 4)


def test_an_answer_opening_with_an_empty_copied_heading_opens_with_the_next() -> None:
    text = "Request Files [1]\n\nFixed [2]\nIt was added in 0.40.0 [2]."
    assert copied_headings(text, [FILES, NOTES]) == ("**Fixed**\nIt was added in 0.40.0 [2].", 3)


def test_sentences_and_other_lines_stay() -> None:
    text = (
        "Fixed.\n"  # a stop: a sentence, whatever its words
        "Request Files are spooled [1]\n"  # more than the heading
        "**Limits**\nUploaded files are not limited [1].\n"  # a heading of the answer's own
        "```\n# Request Files\n**Fixed**\n```"  # code is quoted as written
    )
    assert copied_headings(text, [FILES, NOTES]) == (text, 0)


def test_a_heading_leading_into_code_stays_the_cited_lead_in() -> None:
    # the extractive writer quotes an example opening its section under the heading
    text = "Request Files: [1]\n\n```python\nrequest.files['upload']\n```"
    assert copied_headings(text, [FILES, NOTES]) == (text, 0)
    plain = "Request Files [1]\n\nUploaded files are not limited [1]."  # no code below
    assert copied_headings(plain, [FILES, NOTES])[0].startswith("**Request Files**")


async def test_a_copied_heading_is_no_claim_of_the_answer(engine: Engine, tmp_path: Path) -> None:
    source = (
        "# Release Notes\n\n"
        "Uploaded files are spooled to temporary storage and never limited by max_part_size.\n"
    )
    reply = (  # the source's header, as the prompt shows it, heads the answer and ends it
        "Release Notes [1]\n"
        "Uploaded files are spooled to temporary storage and never limited by "
        "max_part_size [1].\n\n## Release notes [1]"
    )
    question = "Are uploaded files limited by max_part_size?"
    answer = await answered(engine, tmp_path / "d", source, reply, question)
    assert answer.answer == (
        "**Release Notes**\nUploaded files are spooled to temporary storage and never "
        "limited by max_part_size [1]."
    )
    assert [claim.text for claim in answer.claims] == [
        "Uploaded files are spooled to temporary storage and never limited by max_part_size."
    ]


async def test_a_heading_whose_claims_went_goes(engine: Engine, tmp_path: Path) -> None:
    source = "# Uploads\n\nUploaded files are spooled to temporary storage.\n"
    reply = (  # the repeat goes, and with it all that stood under its heading
        "Uploaded files are spooled to temporary storage [1].\n\n"
        "**Storage**\nUploaded files are spooled to temporary storage [1]."
    )
    answer = await answered(engine, tmp_path / "d", source, reply, "Where do uploads go?")
    assert answer.answer == "Uploaded files are spooled to temporary storage [1]."
