"""Sources a model names by their file become citations (`synthesis.mentions`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.synthesis.leads import plain_attributions
from citesynth.synthesis.mentions import cited_by_name
from citesynth.synthesis.sources import Source
from citesynth.types import Chunk, ChunkId, DocumentId, Hit
from tests.conftest import use, write


def _source(
    number: int, path: str, text: str = "Some text of the page.", headings: tuple[str, ...] = ()
) -> Source:
    chunk = Chunk(
        ChunkId(f"c{number}"), DocumentId(path), path, "", headings, text, 0, len(text), 1, 1
    )
    return Source(number, Hit(chunk=chunk, score=1.0, confidence=0.5), text)


SOURCES = [
    _source(1, "docs/requests.md"),
    _source(2, "docs/middleware.md"),
    _source(3, "docs/requests.md", "The hostname or IP address: `request.client.host`."),
    _source(4, "settings.yaml"),
]


@pytest.mark.parametrize(
    ("sentence", "cited"),
    [
        (
            "You can use the `request.client.host` attribute from the `requests.md` file.",
            "You can use the `request.client.host` attribute [3].",  # the chunk saying it
        ),
        (
            "Use the GZipMiddleware provided in the middleware.md document to compress them.",
            "Use the GZipMiddleware [2] to compress them.",
        ),
        (
            "Use the `url_for` method provided in the `docs/middleware.md` file, which is "
            "located at line 238-253.",
            "Use the `url_for` method [2].",
        ),
        # named between the subject and its verb: the citation ends the sentence
        (
            "The `request.client.host` attribute in the `requests.md` file is the address.",
            "The `request.client.host` attribute is the address [3].",
        ),
        (
            "Middleware from middleware.md can compress responses!",
            "Middleware can compress responses [2]!",
        ),
    ],
)
def test_a_file_the_model_names_becomes_its_citation(sentence: str, cited: str) -> None:
    assert cited_by_name(sentence, SOURCES) == (cited, 1)


def test_a_cited_sentence_loses_a_mention_of_the_file_its_source_is() -> None:
    django = [
        _source(1, "docs/ref/settings.txt", "Default: ``259200`` (3 days)", ("Settings",)),
        _source(2, "requirements.txt", "sphinx>=4"),  # a list, no titles: not a document
    ]
    said = (
        "The link keeps working for 3 days, as specified in the `PASSWORD_RESET_TIMEOUT` "
        "setting in the `settings.txt` file [1]."
    )
    assert cited_by_name(said, django) == (
        "The link keeps working for 3 days, as specified in the `PASSWORD_RESET_TIMEOUT` "
        "setting [1].",
        0,  # no citation added: it cited already
    )
    unchanged = [
        "The link expires in 3 days, as stated in the `urls.txt` file [1].",  # another file
        "Dependencies are listed in the requirements.txt file [2].",  # a list: what it says
        "Addresses are read from the requests.md page [2].",  # [2] is not that file
    ]
    for text in unchanged:
        assert cited_by_name(text, [*django, *SOURCES[:1]]) == (text, 0)
    quoted = _source(3, "docs/requests.md", "Addresses are read as shown in requests.md.")
    text = "Addresses are read as shown in requests.md [3]."  # the source names itself
    assert cited_by_name(text, [quoted]) == (text, 0)


def test_only_a_prose_document_among_the_sources_is_read_as_a_citation() -> None:
    unchanged = [
        "Dependencies are listed in the requirements.md file of the template.",  # no source
        "Set the port in the settings.yaml file.",  # configuration: what the answer says
        "```\nSee the notes in requests.md for details.\n```",  # code stays as written
        "Addresses are read from the requests.md page [2].",  # it cites: as written
        "From the `cookies.md` file, a cookie is set.",  # no such source
        "The key in the `cookies.md` file is set to 10.",  # no such source, before a verb
    ]
    for text in unchanged:
        assert cited_by_name(text, SOURCES) == (text, 0)


def test_a_lead_naming_a_file_becomes_a_plain_citation() -> None:
    text, changed = cited_by_name(
        "As described in docs/middleware.md, middleware runs in order.", SOURCES
    )
    assert (text, changed) == ("As described in [2], middleware runs in order.", 1)
    assert plain_attributions(text)[0] == "Middleware runs in order [2]."
    opening, changed = cited_by_name(
        "From the `middleware.md` file, middleware runs in order.", SOURCES
    )
    assert (opening, changed) == ("According to [2], middleware runs in order.", 1)
    assert plain_attributions(opening)[0] == "Middleware runs in order [2]."


async def test_an_uncited_sentence_naming_its_file_is_checked_against_it(
    engine: Engine, tmp_path: Path
) -> None:
    # Cited by nothing, the sentence with "from the `requests.md` file" was checked against
    # every source, and no source holds "requests.md" or "file": it was removed.
    write(
        tmp_path / "docs",
        "requests.md",
        "# Requests\n\n## Client Address\n\nThe client's remote address is exposed as a "
        "named two-tuple `request.client`. The hostname or IP address: "
        "`request.client.host`.\n",
    )
    write(tmp_path / "docs", "cooking.md", "# Cooking\n\nBoil the pasta for ten minutes.\n")
    await engine.index([tmp_path / "docs"])
    use(
        engine,
        "To get the IP address of the client, you can use the `request.client.host` "
        "attribute from the `requests.md` file.",
    )
    answer = await engine.answer("How do I get the IP address of the client?")
    assert not answer.not_found, answer.warnings
    assert answer.answer == (
        "To get the IP address of the client, you can use the `request.client.host` attribute [1]."
    ), answer.answer
