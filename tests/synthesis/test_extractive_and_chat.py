"""The extractive writer (no model) and multi-turn chat, on a real index."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Unpack

import pytest

from citesynth import Answer, AskOverrides, Engine
from citesynth.cli import print_answer
from citesynth.ingest.sentences import prose_sentences
from citesynth.llm.fake import ScriptedModel
from citesynth.synthesis import ExtractiveWriter, LLMWriter
from citesynth.synthesis.candidates import (
    _COMPLEMENT,
    REFERS_BACK,
    _symbolic,
    candidate_sentences,
    names_again,
)
from citesynth.synthesis.changelogs import asks_about_changes, change_log
from citesynth.synthesis.chat import Turn, by_rule, condense, needs_context
from citesynth.synthesis.extractive import _corroborated, _details, _fielded, _listed_already, _Pick
from citesynth.synthesis.introduced import Introduced
from citesynth.synthesis.prompts import BUILT_IN
from citesynth.synthesis.quoted import _cited, clean
from citesynth.synthesis.section_titles import section_of, unnamed_identifier
from citesynth.synthesis.sources import Source
from citesynth.synthesis.verifying import INTRODUCED, LEANS_ON_CODE
from citesynth.types import Chunk, ChunkId, DocumentId, Hit
from tests.conftest import answered, answered_extractively, write

_MARKER = re.compile(r" \[[\d,\-]+\]")


async def test_every_extractive_sentence_is_copied_from_the_source_it_cites(
    engine: Engine, corpus: Path
) -> None:
    await engine.index([corpus])
    engine.writer = ExtractiveWriter(engine.embedder)
    answer = await engine.answer("What is the connect timeout default?")
    assert not answer.not_found and answer.fallback is None and answer.citations
    assert not answer.uncited_claims
    texts = {source.number: " ".join(source.text.split()) for source in answer.sources}
    for claim in answer.claims:
        plain = _MARKER.sub("", claim.text).rstrip(".")
        assert any(plain in texts[n] for n in claim.citations), claim.text


async def test_extractive_marks_consensus_across_documents(engine: Engine, tmp_path: Path) -> None:
    same = "The bridge opened to traffic in the spring of 2009 after six years of work."
    write(tmp_path / "c", "one.md", f"# One\n\n{same}\n\nUnrelated text about apples here.\n")
    write(tmp_path / "c", "two.txt", f"Town history.\n\n{same}\n")
    await engine.index([tmp_path / "c"])
    engine.writer = ExtractiveWriter(engine.embedder)
    answer = await engine.answer("When did the bridge open to traffic?")
    assert answer.answer.startswith("Multiple sources report that the bridge opened")
    assert answer.citations and all(c.multi_source for c in answer.citations)
    assert {c.path for c in answer.citations} == {"c/one.md", "c/two.txt"}


async def test_sentences_alike_but_for_their_subject_or_option_are_not_one_consensus(
    engine: Engine, tmp_path: Path
) -> None:
    # Flask's deployment pages: two servers, one sentence each, one word or option apart.
    write(
        tmp_path / "d",
        "eventlet.md",
        "# eventlet\n\neventlet provides a WSGI server that can handle many connections "
        "at once instead of one per worker process.\n",
    )
    write(
        tmp_path / "d",
        "gevent.md",
        "# gevent\n\ngevent provides a WSGI server that can handle many connections "
        "at once instead of one per worker process.\n",
    )
    await engine.index([tmp_path / "d"])
    engine.writer = ExtractiveWriter(engine.embedder)
    answer = await engine.answer("Which WSGI server can handle many connections at once?")
    assert "Multiple sources report" not in answer.answer
    assert "eventlet provides" in answer.answer and "gevent provides" in answer.answer
    assert all(not c.multi_source for c in answer.citations)


async def test_a_sentence_repeated_with_a_name_written_apart_is_quoted_once(
    engine: Engine, tmp_path: Path
) -> None:
    # pluggy's docs say it twice, "hookwrapper" in one section and "hook wrapper" in another.
    write(
        tmp_path / "p",
        "index.md",
        "# Wrappers\n\nA *hookwrapper* can thus execute some code ahead and after the "
        "execution of all corresponding non-wrapper *hookimpls*.\n\n"
        + "Plugins register hooks with the plugin manager, which calls them in order.\n\n"
        * 30
        + "## New-style wrappers\n\nA *hook wrapper* can thus execute some code ahead and "
        "after the execution of all corresponding non-wrapper *hookimpls*.\n",
    )
    await engine.index([tmp_path / "p"])
    engine.writer = ExtractiveWriter(engine.embedder)
    answer = await engine.answer("What executes code ahead and after the hookimpls?")
    assert answer.answer.count("can thus execute some code") == 1


@pytest.mark.parametrize(
    ("sentence", "shown"),
    [
        ("**Do not use the server in production.", "Do not use the server in production."),
        ("It is meant for development only.**", "It is meant for development only."),
        ("*Emphasis on the whole sentence.*", "Emphasis on the whole sentence."),
        ("**Warning:** do *not* run it.", "Warning: do *not* run it."),
        ("Call it with *args.", "Call it with *args."),
    ],
)
def test_a_sentence_of_a_bold_run_shows_no_stray_asterisks(sentence: str, shown: str) -> None:
    assert clean(sentence) == shown


@pytest.mark.parametrize(
    ("sentence", "shown"),
    [
        (
            "It is called at the end of the generated `__init__` method.",
            "It is called at the end of the generated `__init__` method.",
        ),
        ("Instances have no `object.__dict__`.", "Instances have no `object.__dict__`."),
        ("It is __really__ fast, says ``__slots__``.", "It is really fast, says ``__slots__``."),
        ("Name it snake__case__name.", "Name it snake__case__name."),
    ],
)
def test_code_keeps_its_underscores(sentence: str, shown: str) -> None:
    assert clean(sentence) == shown


def test_a_log_or_code_line_reads_as_no_prose_sentence() -> None:
    # A chunk cut from a long fenced log (the HTTPX logging page) has no fence to say so.
    log = (
        "b'Thu, 17 Oct 2019 07:18:26 GMT'), (b'Server', b'ECAcc (dcd/7D43)'), "
        "(b'X-Cache', b'HIT'), (b'Content-Length', b'648')])\n"
        "INFO [2024-09-28 17:27:41] httpx - HTTP Request: GET https://www.example.com\n"
        "DEBUG [2024-09-28 17:27:41] httpcore.http11 - receive_response_body.complete"
    )
    assert _symbolic(log)
    assert not _symbolic("The default is only 1 worker, which is probably not what you want.")
    assert not _symbolic("Set ``max_connections=100`` on the pool (see https://x.org/a/b/c).")


def test_a_term_in_bold_above_its_definition_is_prose_and_reads_with_a_colon() -> None:
    """tox's man page: the term's line alone had read as a fourth of symbols."""
    defined = (
        "**TOX_PARALLEL_NO_SPINNER**\n    When set, disables the progress spinner during "
        "parallel execution."
    )
    assert not _symbolic(defined)
    assert clean(defined) == (
        "TOX_PARALLEL_NO_SPINNER: When set, disables the progress spinner during parallel "
        "execution."
    )
    assert clean("**Note** this is bold inline.") == "Note this is bold inline."


def test_a_sentence_with_another_option_or_number_restates_nothing() -> None:
    assert _details("The ``-w`` option sets the number of processes.") != _details(
        "The ``--processes`` option sets the number of processes."
    )
    assert _details("The pool holds 10 connections.") != _details("The pool holds 100 connections.")
    assert _details("It holds ``10`` connections.") == _details("It holds `10` connections.")


async def test_a_question_asking_for_a_number_is_answered_by_the_sentence_stating_one(
    engine: Engine, tmp_path: Path
) -> None:
    # Flask's configuration page gives a value in a sentence too short to be a candidate,
    # and its Gunicorn page states the default below sentences about workers that fill
    # the answer.
    write(
        tmp_path / "f",
        "config.rst",
        "Configuration\n=============\n\n.. py:data:: MAX_COOKIE_SIZE\n\n"
        "    Warn if cookie headers are larger than this many bytes. Defaults to\n"
        "    ``4093``. Larger cookies may be silently ignored by browsers.\n",
    )
    workers = " ".join(
        f"Worker option {n} changes how each Gunicorn worker process handles requests."
        for n in "abcdef"
    )
    write(
        tmp_path / "f",
        "gunicorn.md",
        f"# Gunicorn workers\n\n{workers} By default Gunicorn runs only 1 worker process, "
        "which is probably not what you want.\n",
    )
    await engine.index([tmp_path / "f"])
    engine.writer = ExtractiveWriter(engine.embedder)
    cookie = await engine.answer("How many bytes may cookie headers hold before a warning?")
    assert "Defaults to ``4093`` [1]." in cookie.answer, cookie.answer
    workers_answer = await engine.answer("How many Gunicorn worker processes run by default?")
    assert "runs only 1 worker process" in workers_answer.answer, workers_answer.answer


async def test_an_option_is_read_with_its_value_and_a_log_line_is_never_quoted(
    engine: Engine, tmp_path: Path
) -> None:
    # Starlette's middleware page: the unit is named in one sentence, the value given in the
    # next. A log cut from its fence (HTTPX's logging page) states numbers too, and is never
    # a candidate sentence.
    answer = await answered_extractively(
        engine,
        tmp_path / "s",
        "middleware.md",
        "# Sessions\n\n* `session_cookie` - The name of the session cookie. Defaults to "
        '"session".\n* `max_age` - Session expiry time in seconds. Defaults to 2 weeks. If set '
        "to `None` then the cookie will last as long as the browser session.\n",
        "How long is the session expiry time by default?",
    )
    assert "Session expiry time in seconds [1]. Defaults to 2 weeks [1]." in answer.answer, (
        answer.answer
    )
    log = (
        "Session lasts: b'Thu, 17 Oct 2019 07:18:26 GMT'), (b'Server', b'ECAcc (dcd/7D43)'), "
        "(b'X-Cache', b'HIT'), (b'Content-Length', b'648')])\n\nThe session lasts two weeks."
    )
    chunk = Chunk(
        ChunkId("c1"), DocumentId("d1"), "logging.md", "Logging", (), log, 0, len(log), 1, 3
    )
    candidates, _, _, _ = candidate_sentences([Source(1, Hit(chunk, 1.0, 0.9), log)])
    assert [sentence for _, _, sentence in candidates] == ["The session lasts two weeks."]


def test_a_sentence_is_read_with_the_heading_of_its_section() -> None:
    text = (
        "`define` sets `slots=True` by default.\n\n## Immutability\n\nSometimes instances "
        "should not change.\nIf you'd like to enforce it, attrs will try to help:"
    )
    chunk = Chunk(
        ChunkId("c1"),
        DocumentId("d1"),
        "examples.md",
        "attrs by Example",
        ("attrs by Example",),
        text,
        0,
        len(text),
        1,
        7,
    )
    assert section_of(chunk, text.index("If you'd")) == "Immutability: "
    assert section_of(chunk, 0) == ""  # under the document's title: nothing to add
    slots = replace(chunk, heading_path=("attrs by Example", "Slots"))
    assert section_of(slots, 0) == "Slots: "
    commented = "## Timeouts\n\n```python\n# Use a default 5s timeout.\n```\n\nSet it once."
    example = replace(chunk, text=commented, char_end=len(commented))
    assert section_of(example, commented.index("Set it")) == "Timeouts: "
    # an indented comment is code too (a reStructuredText literal block, APScheduler's guide)
    literal = "## Configuring\n\nLike so::\n\n    # Initialize the rest here\n\nThis will get you"
    indented = replace(chunk, text=literal, char_end=len(literal))
    assert section_of(indented, literal.index("This will")) == "Configuring: "


def test_a_sentence_is_read_under_the_underlined_title_of_its_section() -> None:
    # Django's settings reference: small sections packed into one chunk, each titled by an
    # underline; the chunk's heading path is their common parent ("Sessions").
    text = (
        "``SESSION_COOKIE_AGE``\n----------------------\n\nDefault: ``1209600`` (2 weeks, "
        "in seconds)\n\nThe age of session cookies, in seconds.\n\n.. setting:: "
        "SESSION_COOKIE_DOMAIN\n\n``SESSION_COOKIE_DOMAIN``\n-------------------------\n\n"
        "Default: ``None``\n\nThe domain to use for session cookies.\n\nA rule under a "
        "longer line of prose is no title.\n---\n\nIt names nothing."
    )
    chunk = Chunk(
        ChunkId("c1"),
        DocumentId("d1"),
        "ref/settings.txt",
        "Settings",
        ("Settings", "Sessions"),
        text,
        0,
        len(text),
        1,
        20,
    )
    assert section_of(chunk, text.index("Default: ``1209")) == "``SESSION_COOKIE_AGE``: "
    assert section_of(chunk, text.index("The domain")) == "``SESSION_COOKIE_DOMAIN``: "
    assert section_of(chunk, text.index("It names")) == "``SESSION_COOKIE_DOMAIN``: "
    windows = replace(chunk, text=text.replace("\n", "\r\n"), char_end=len(text) + 99)
    assert section_of(windows, windows.text.index("The domain")) == "``SESSION_COOKIE_DOMAIN``: "
    boxed = "*" * 20 + "\n" + "*" * 20 + "\n\nA clause."
    assert section_of(replace(chunk, text=boxed, char_end=len(boxed)), boxed.index("A")) == (
        "Sessions: "
    )
    # a heading's attribute list names no section (Python-Markdown's docs)
    attributed = "### Output Format {: #output_format }\n\nThe supported formats are two."
    formats = replace(chunk, text=attributed, char_end=len(attributed))
    assert section_of(formats, attributed.index("The supported")) == "Output Format: "


async def test_a_reference_link_or_attribute_list_is_quoted_as_a_reader_sees_it(
    engine: Engine, tmp_path: Path
) -> None:
    # Python-Markdown's CodeHilite page: the answer showed "[`pygments`][pygments]" and
    # "**`linenums`**{ #linenums }:" as written
    answer = await answered_extractively(
        engine,
        tmp_path / "a",
        "codehilite.md",
        "# CodeHilite\n\n## Usage\n\nThe CodeHilite extension highlights code with "
        "[`pygments`][pygments], which must be installed.\n\n"
        "* **`linenums`**{ #linenums }: An alias to the `linenos` option of "
        "[Pygments][]. Defaults to `None`.\n\n"
        "[pygments]: https://pygments.org/\n[Pygments]: https://pygments.org/\n",
        "Which library does CodeHilite highlight code with, and what does linenums default to?",
    )
    assert "with `pygments`, which must be installed" in answer.answer, answer.answer
    assert "`linenums`" in answer.answer and "Defaults to `None`" in answer.answer
    assert "][" not in answer.answer and "{ #" not in answer.answer, answer.answer
    assert answer.claims and all(c.label == "supported" for c in answer.claims), answer.claims


async def test_a_version_note_is_quoted_with_its_version(engine: Engine, tmp_path: Path) -> None:
    # Jinja's i18n section: the note's sentence had been quoted without its 3.1, and the
    # answer to a question asking which release was withheld as stating no number
    answer = await answered_extractively(
        engine,
        tmp_path / "a",
        "templates.rst",
        "Templates\n=========\n\ni18n\n----\n\nTo specify a context with the ``trans`` tag, "
        "provide a string as the first token after ``trans``.\n\n.. versionadded:: 3.1\n"
        "    A context can be passed to the ``trans`` tag to use ``pgettext`` and\n"
        "    ``npgettext``.\n\nIt's possible to translate strings in expressions too.\n",
        "Which release first allowed passing a context to the trans tag?",
    )
    assert not answer.not_found, answer.warnings
    assert "Added in version 3.1: A context can be passed to the ``trans`` tag" in answer.answer
    note = next(c for c in answer.claims if c.text.startswith("Added in version 3.1"))
    assert note.label == "supported", note
    assert note.evidence and note.evidence[0].text.startswith(".. versionadded:: 3.1")


async def test_an_answer_is_found_under_the_heading_that_names_it(
    engine: Engine, tmp_path: Path
) -> None:
    # "it" is immutability, which only the heading names: read alone, the sentence that
    # answers ranked below one about making classes.
    answer = await answered_extractively(
        engine,
        tmp_path / "a",
        "examples.md",
        "# attrs by Example\n\n## Immutability\n\nSometimes you have instances that should "
        "not be changed after instantiation.\nIf you'd like to enforce it, *attrs* will try to "
        "help: use the `frozen` decorator.\n\n## Other Goodies\n\nSometimes you may want to "
        "create a class programmatically.\n*attrs* gives you `make_class` for that.\n",
        "How do I make an attrs class immutable?",
    )
    assert "If you'd like to enforce it" in answer.answer, answer.answer


async def test_a_sentence_under_an_api_heading_is_shown_under_its_name(
    engine: Engine, tmp_path: Path
) -> None:
    # A reference page describes the class its heading names without naming it: quoted
    # alone, the sentence does not say which class to use.
    source = (
        "# Responses\n\n### StreamingResponse\n\nTakes an async generator or a normal "
        "generator and streams the response body.\n\n### FileResponse\n\nAsynchronously "
        "streams a file as the response.\n"
    )
    question = "How do I send a response in chunks from an async generator?"
    writer = ExtractiveWriter(engine.embedder, max_sentences=1)
    answer = await _extracted(engine, tmp_path, source, question, writer)
    assert answer.answer.startswith("**StreamingResponse**\nTakes an async generator"), (
        answer.answer
    )
    assert [claim.text for claim in answer.claims] == [
        "Takes an async generator or a normal generator and streams the response body."
    ]


def test_only_an_identifier_heading_the_sentence_does_not_name_heads_it() -> None:
    def headed(heading: str, sentence: str) -> str:
        text = f"## {heading}\n\n{sentence}"
        chunk = Chunk(
            ChunkId("c"), DocumentId("d"), "api.md", "API", ("API",), text, 0, len(text), 1, 3
        )
        return unnamed_identifier(chunk, text.index(sentence), sentence)

    takes = "Takes an async generator and streams it."
    for name in ("GZipMiddleware", "HTMLResponse", "Request.url_for", "load_default", "dump()"):
        assert headed(name, takes) == name
        assert headed(f"`{name}`", takes) == headed(f"``{name}``", takes) == name
    assert headed("Request.url_for", "Call `url_for` with the route name.") == ""
    assert headed("GZipMiddleware", "The GZipMiddleware compresses responses.") == ""
    for prose in ("Cookies", "Delete Cookie", "HTTPX", "Installation and setup"):
        assert headed(prose, takes) == "", prose


def test_an_object_descriptions_name_heads_its_sentences_however_written() -> None:
    # Pillow's quantization methods: constants in capitals, never named in their bodies.
    text = (
        "Quantization methods\n====================\n\n.. py:class:: Quantize\n\n"
        "    .. py:attribute:: FASTOCTREE\n\n      Fast octree. Default method for RGBA "
        "images.\n\nFASTOCTREE\n----------\n\nDefault method for RGBA images.\n"
    )
    chunk = Chunk(ChunkId("c"), DocumentId("d"), "Image.rst", "Image", (), text, 0, len(text), 1, 9)
    said = "Default method for RGBA images."
    assert unnamed_identifier(chunk, text.index(said), said) == "FASTOCTREE"
    assert unnamed_identifier(chunk, text.rindex(said), said) == ""  # a heading in capitals


async def test_a_statement_comes_with_its_example_in_the_next_paragraph(
    engine: Engine, tmp_path: Path
) -> None:
    source = (
        "# Requests\n\nQuery parameters are exposed as an immutable multi-dict.\n\n"
        "For example: `request.query_params['search']`\n\n## Path Parameters\n\nRouter "
        "path parameters are exposed as a dictionary interface.\n\nFor example: "
        "`request.path_params['username']`\n"
    )
    writer = ExtractiveWriter(engine.embedder, max_sentences=1)
    question = "How do I read query string parameters in an endpoint?"
    answer = await _extracted(engine, tmp_path, source, question, writer)
    assert "multi-dict [1]. For example: `request.query_params['search']` [1]." in (
        answer.answer
    ), answer.answer
    assert "path_params" not in answer.answer


@pytest.mark.parametrize(
    ("source", "question", "shown"),
    [
        # Gunicorn's settings: the verdict ranked below sentences on reloading and
        # preloading, and comes first
        (
            "# Settings\n\n## reload\n\nRestart workers when code changes. This setting is "
            "intended for development. It will cause workers to be restarted whenever "
            "application code changes.\n\nThe reloader is incompatible with preloading "
            "the application.\n\n## Signals\n\nHUP reloads the configuration. This also "
            "reloads preloaded applications. If the app is not preloaded, the application "
            "code is reloaded too.\n",
            "Can I use reload during development while also keeping preload turned on?",
            "The reloader is incompatible with preloading the application [",
        ),
        # a sentence stating what is asked is not put behind a verdict
        (
            "# Workers\n\nThe gthread worker supports keep-alive connections.\n\n"
            "Keep-alive connections are not supported by the sync worker.\n",
            "Does the gthread worker support keep-alive connections?",
            "The gthread worker supports keep-alive connections [1].",
        ),
    ],
)
async def test_asked_yes_or_no_a_sentence_saying_it_cannot_be_done_comes_first(
    engine: Engine, tmp_path: Path, source: str, question: str, shown: str
) -> None:
    writer = ExtractiveWriter(engine.embedder, max_sentences=1)
    answer = await _extracted(engine, tmp_path, source, question, writer)
    assert shown in answer.answer, answer.answer


async def test_asked_how_a_statement_comes_with_the_code_right_after_it(
    engine: Engine, tmp_path: Path
) -> None:
    source = (
        "Envelopes\n=========\n\nOne common use case is to wrap data in an envelope "
        "upon serialization.\n\n.. code-block:: python\n\n    class BaseSchema(Schema):\n"
        "        @post_dump\n        def wrap(self, data, **kwargs):\n"
        "            return {'data': data}\n\nSchemas may also be nested in other schemas.\n"
    )
    write(tmp_path / "d", "envelopes.rst", source)
    await engine.index([tmp_path / "d"])
    engine.writer = ExtractiveWriter(engine.embedder, max_sentences=1)
    answer = await engine.answer("How do I wrap data in an envelope upon serialization?")
    assert "serialization [1].\n\n```python\nclass BaseSchema(Schema):" in answer.answer, (
        answer.answer
    )
    assert "@post_dump" in answer.answer and not answer.removed_claims
    asked = await engine.answer("Why wrap data in an envelope upon serialization?")
    assert "envelope upon serialization [1]." in asked.answer and "```" not in asked.answer


def test_a_piece_of_a_sentence_run_over_list_items_is_no_candidate() -> None:
    items = (
        "1. the *instance* that's being validated (aka `self`),\n"
        "2. the *attribute* that it's validating, and finally\n"
        "3. the *value* that is passed for it."
    )
    text = (
        f"The method has to accept three arguments:\n\n{items}\n\n"
        "If the value does not pass the validator, it raises an appropriate exception."
    )
    # the sentence run over the list is one candidate, whole; no item alone is one
    assert _candidate_sentences(text) == [
        f"The method has to accept three arguments:\n\n{items}",
        "If the value does not pass the validator, it raises an appropriate exception.",
    ]


async def test_a_sentence_run_over_a_list_is_quoted_whole(engine: Engine, tmp_path: Path) -> None:
    source = (
        "# The basics\n\n## --check\n\nDon't write the files back, just return the status. "
        "_Black_ will exit with:\n\n- code 0 if nothing would change;\n- code 1 if some files "
        "would be reformatted; or\n- code 123 if there was an internal error\n\nIf used in "
        "combination with `--quiet` then only the exit code will be returned.\n"
    )
    writer = ExtractiveWriter(engine.embedder, max_sentences=1)
    answer = await _extracted(engine, tmp_path, source, "What does exit status 123 mean?", writer)
    assert (
        "will exit with: code 0 if nothing would change; code 1 if some files would be "
        "reformatted; or code 123 if there was an internal error [1]."
    ) in answer.answer, answer.answer
    assert answer.claims[0].label == "supported"


def test_an_item_saying_what_its_code_is_is_a_candidate_an_item_going_on_is_not() -> None:
    # attrs' "On The Core API Names": one sentence run over four items; a chunk may open
    # at the last one.
    text = (
        "We recommend our modern APIs for new code:\n\n"
        "- {func}`attrs.define` to define a new class,\n"
        "- [`attrs.mutable()`](attrs.mutable) is an alias for {func}`attrs.define`,\n"
        "- [`attrs.frozen()`](attrs.frozen) is an alias for `define(frozen=True)`\n"
        "- and {func}`attrs.field()` to define an attribute.\n"
    )
    assert _candidate_sentences(text) == [
        "We recommend our modern APIs for new code:",
        "- [`attrs.mutable()`](attrs.mutable) is an alias for {func}`attrs.define`,",
        "- [`attrs.frozen()`](attrs.frozen) is an alias for `define(frozen=True)`",
    ]
    assert clean(_candidate_sentences(text)[1]) == (  # a link reads as its text
        "`attrs.mutable()` is an alias for `attrs.define`."
    )
    half = (
        "The client takes these options:\n\n- `timeout` is the read timeout in seconds, and\n"
        "- `retries` is how often the client retries.\n"
    )
    assert _candidate_sentences(half) == [  # the first item is half of a sentence
        "The client takes these options:",
        "- `retries` is how often the client retries.",
    ]
    cut = "- and {func}`attrs.field()` to define an attribute.\n\nThey were added in 20.1.0."
    assert _candidate_sentences(cut) == ["They were added in 20.1.0."]


def test_a_pdf_page_opening_with_the_end_of_a_sentence_is_no_candidate() -> None:
    # R-FAQ's page 27 opens with the end of a sentence begun on page 26
    text = (
        "at the shell prompt to install to the library tree rooted at the first directory.\n"
        "To install to another tree, use R CMD INSTALL -l lib path/pkg_version.tar.gz.\n"
    )

    def candidates(start_line: int, page: int | None, body: str = text) -> list[str]:
        chunk = Chunk(ChunkId("c"), DocumentId("d"), "R-FAQ.pdf", "R FAQ", (), body, 0,
                      len(body), start_line, start_line + 1, page)  # fmt: skip
        return [
            s.strip() for _, _, s in candidate_sentences([Source(1, Hit(chunk, 1.0, 0.9), body)])[0]
        ]

    assert candidates(1, 27) == [text.split("\n")[1]]
    assert len(candidates(4, 27)) == 2  # within the page: a sentence as any other
    assert len(candidates(1, None)) == 2  # not a PDF: a chunk opens at a sentence
    code = "install.packages can install a source package from a local file.\n"
    assert candidates(1, 27, code) == [code.strip()]  # a page opening with code


def test_a_question_the_source_asks_is_no_candidate() -> None:
    text = (
        "Want to create your own field type? Subclass `Field` and implement `_serialize`.\n\n"
        "How about dropping only entries from a certain peer (for example, monitoring)?\n\n"
        "A definition list explains the level:\n\n: Checks the log entry's log level first."
    )
    assert _candidate_sentences(text) == [
        "Subclass `Field` and implement `_serialize`.",
        "A definition list explains the level:",
        ": Checks the log entry's log level first.",
    ]
    assert clean(": Checks the log entry's log level first.") == (
        "Checks the log entry's log level first."
    )
    assert clean("where <chart_file_name>:: Specifies the chart file.") == (
        "where ‹chart_file_name›: Specifies the chart file."
    )
    # a reStructuredText field as Sphinx shows it; a role is left to `rendered_rst`
    assert clean(":Exit code 5: No tests were collected") == "Exit code 5: No tests were collected."
    assert clean(":func:`main` runs the tests.") == "`main` runs the tests."


async def test_a_change_logs_sentence_ranks_below_the_guides_unless_a_change_is_asked(
    engine: Engine, tmp_path: Path
) -> None:
    guide = "# Templates\n\nJinja2Templates renders a Jinja2 template as the response.\n"
    # the note says more than the question ("in views"): one only restating it answers nothing
    notes = "# Release Notes\n\n## 2.0\n\nRender a Jinja2 template as the response body in views.\n"
    write(tmp_path / "d", "templates.md", guide)
    write(tmp_path / "d", "release-notes.md", notes)
    await engine.index([tmp_path / "d"])
    engine.writer = ExtractiveWriter(engine.embedder, max_sentences=1)
    answer = await engine.answer("How do I render a Jinja2 template as the response body?")
    cited = answer.sources[answer.claims[0].citations[0] - 1]
    assert cited.path.endswith("templates.md"), answer.answer
    asked = await engine.answer("How do I render a Jinja2 template as the response body in 2.0?")
    assert asked.sources[asked.claims[0].citations[0] - 1].path.endswith("release-notes.md")


@pytest.mark.parametrize(
    ("document", "title"),
    [
        ("CHANGES.rst", "Changes"),
        ("docs/changelog.md", "Changelog"),
        ("docs/release-notes.md", "Release Notes"),
        ("upgrading.rst", "Upgrading to newer releases"),
        ("corpus.jsonl#upgrade-rhdh", "Upgrading Red Hat Developer Hub"),
        ("docs/whats_new.md", "Notes"),
        ("docs/v2.md", "What's new in 2.0"),
        ("docs/change_log/release-2.6.md", "Python-Markdown 2.6 Release Notes"),
        ("docs/change_log/index.md", "Release Notes for Python-Markdown"),
        ("docs/releases/4.2.rst", "Django 4.2"),
        ("docs/v3.md", "Python-Markdown 3.0 release notes"),
        # Hatch's: a name's history, and a release's post titled by its version
        ("docs/history/hatch.md", "Hatch history"),
        ("docs/history/hatchling.md", "Hatchling history"),
        ("docs/blog/posts/release-hatch-1180.md", "Hatch v1.18.0"),
        ("docs/topics/index.rst", "Scrapy 2.19.0 (2026-09-10)"),
    ],
)
def test_a_change_log_is_known_by_its_name_or_title(document: str, title: str) -> None:
    assert change_log(document, title)


@pytest.mark.parametrize(
    ("document", "title"),
    [
        ("docs/templates.md", "Templates"),
        ("corpus.jsonl#4983", "History of Rome"),
        ("news-2023-10-01.md", "Changes to the tax code"),
        ("docs/migrations.md", "Database migrations"),
        ("docs/history/rome.md", "The fall of Rome"),
        ("news/2023/budget.md", "The new budget"),
        ("docs/release/process.md", "How a release is made"),
        ("git-changelog/docs/usage.md", "Usage"),  # a folder's whole name counts, not a word
        ("docs/howto/release-notes-tool/install.md", "Install"),
        ("docs/writing.md", "Writing Release Notes"),
        ("docs/python.md", "Using Python 3.11"),
        ("docs/git.md", "Rewriting history"),
        ("docs/config/metadata.md", "Python support"),
        # a version of what a guide is about, and a history that is a feature's
        ("docs/auth.md", "OAuth 2.0"),
        ("docs/install.md", "Ubuntu 22.04"),
        ("docs/cli/shell.md", "Command history"),
        ("docs/guide/x.md", "Schema changes"),
    ],
)
def test_a_guide_is_no_change_log(document: str, title: str) -> None:
    assert not change_log(document, title)


def test_a_question_about_a_change_names_a_version_upgrade_or_removal() -> None:
    for question in (
        "What changed in 3.0?",
        "How do I upgrade from marshmallow 2.x?",
        "Which parameters were removed?",
        "Is `context` deprecated?",
        "Why does this no longer work?",
        "What specific fixes were made to address these installation issues?",  # Developer Hub
        "Which bug was fixed?",
    ):
        assert asks_about_changes(question), question
    for question in (
        "How do I remove a cookie?",
        "How do I change the thread count?",
        "How do I fix a pod that keeps crashing?",
        "How do I wait a fixed amount of time between retries?",
        # what the asker did to their own project (Hatch's sdist question)
        "I added hatch_build.py to the exclude list, but the file still ends up. Why?",
        "We've just renamed our package; how do I update the wheel target?",
    ):
        assert not asks_about_changes(question), question
    for question in (
        "Have you removed the `--no-color` flag?",  # the project's authors
        "Since you removed `Foo.bar`, what should I use instead?",
    ):
        assert asks_about_changes(question), question


def test_a_list_item_that_is_a_clause_is_no_candidate() -> None:
    text = (
        "Starlette uses a thread pool in several scenarios to avoid blocking:\n\n"
        "- When you create a synchronous endpoint using `def` instead of `async def`\n"
        "- When serving files with the `FileResponse` class of the responses\n"
        "- When a sync task runs, the pool lends it one of its forty threads.\n"
        "- If set, requests are served from the pool of worker threads\n"
    )
    assert _candidate_sentences(text) == [
        "Starlette uses a thread pool in several scenarios to avoid blocking:",
        "- When a sync task runs, the pool lends it one of its forty threads.",
        "- If set, requests are served from the pool of worker threads",
    ]


def test_a_list_item_that_is_a_means_or_a_noun_phrase_is_no_candidate() -> None:
    # APScheduler's user guide: items that go on with their lead-in state nothing alone
    # ("How many worker threads does the default ThreadPoolExecutor have?" was answered
    # with the 20 of a configured example).
    text = (
        "There are two ways to make this happen:\n\n"
        "#. by calling `remove_job` with the job's ID and job store alias\n"
        "#. by calling `Job.remove` on the Job instance you got from `add_job`\n\n"
        "The following three examples are completely equivalent, and will get you:\n\n"
        '* a ThreadPoolExecutor named "default", with a worker count of 20\n'
        "* the target callable must be importable\n"
        "* the issue couldn't be reproduced\n"
        "* coalescing turned off for new jobs by default\n"
        "* a ProcessPoolExecutor named processpool.\n"
        "* the scheduler runs each job in a thread pool\n"
        "* By default the pool holds ten connections\n"
        "* With `--reload` the server restarts when a file changes\n"
    )
    assert _candidate_sentences(text) == [
        "There are two ways to make this happen:",
        "The following three examples are completely equivalent, and will get you:",
        "* the target callable must be importable",
        "* the issue couldn't be reproduced",
        "* coalescing turned off for new jobs by default",
        "* a ProcessPoolExecutor named processpool.",
        "* the scheduler runs each job in a thread pool",
        "* By default the pool holds ten connections",
        "* With `--reload` the server restarts when a file changes",
    ]


async def test_the_ways_a_sentence_points_to_come_with_it_as_a_list(
    engine: Engine, tmp_path: Path
) -> None:
    page = (
        "Removing jobs\n-------------\n\nWhen you remove a job from the scheduler, it is "
        "removed from its associated job store and will not\nbe executed anymore. There are "
        "two ways to make this happen:\n\n"
        "#. by calling ``remove_job`` with the job's ID and\n   job store alias\n"
        "#. by calling ``Job.remove`` on the Job instance you got from\n   ``add_job``\n\n"
        "The latter method is probably more convenient.\n"
    )
    question = "How do I remove a job from the scheduler?"
    answer = await answered_extractively(engine, tmp_path / "r", "guide.rst", page, question)
    assert "There are two ways to make this happen: [1]\n\n- by calling ``remove_job``" in (
        answer.answer
    ), answer.answer
    assert not answer.removed_claims and not answer.not_found
    assert REFERS_BACK.search("There are two ways to make this happen:")


async def test_a_sentence_naming_the_one_before_with_that_after_a_comma_follows_it(
    engine: Engine, tmp_path: Path
) -> None:
    # Trio's contributing guide states its license in the sentence after the one naming it.
    page = (
        "# Contributing\n\n* License: by submitting a PR to a Trio project, you're offering "
        "your changes under that project's license. For most projects, that's dual "
        "MIT/Apache 2, except for cookiecutter-trio, which is CC0.\n\n* Tests: every change "
        "comes with a test of its own.\n"
    )
    question = "What license is Trio distributed under?"
    answer = await answered_extractively(engine, tmp_path / "l", "guide.md", page, question)
    assert "For most projects, that's dual MIT/Apache 2" in answer.answer, answer.answer
    assert REFERS_BACK.search("For most projects, that's dual MIT/Apache 2.")
    assert not REFERS_BACK.search("The first argument, that is, the name, comes first.")
    assert not REFERS_BACK.search("Use the option that is set by default.")


LINKED_BACK = [
    pytest.param(
        # setuptools: the feature asked for, interpolation, is in the sentence before the link
        "config.rst",
        "Interpolation\n=============\n\nConfig files are parsed using configparser with "
        "interpolation enabled. As a result, one config value may reference another. This "
        "feature may be used, for example, in defining extras.\n\nOther options\n"
        "=============\n\nComplex values can be written comma-separated or placed one per "
        "line in dangling config values.\n",
        "Which feature of the config parser makes one config value able to reference another "
        "value?",
        "with interpolation enabled [1]. As a result, one config value may reference",
        id="what follows from it",
    ),
    pytest.param(
        # Babel: what happens to the default mapping is said of "this default mapping"
        "messages.rst",
        "Extraction Method Mapping\n=========================\n\nThe ``python`` extractor is "
        "by default mapped to the glob pattern ``**.py``, meaning it'll be applied to all "
        "files with the ``.py`` extension in any directory. If you specify your own mapping "
        "configuration, this default mapping is discarded, so you need to explicitly add it "
        "to your mapping.\n\nOther extractors\n================\n\nThe ``ignore`` "
        "extractor extracts nothing from the files it is mapped to.\n",
        "I wrote my own mapping config for my templates. What happens to the built-in "
        "mapping of the python extractor to **.py files?",
        "in any directory [1]. If you specify your own mapping configuration, this default",
        id="its thing named with this",
    ),
    pytest.param(
        # Pygments: the license asked for is named in the sentence before "under that license"
        "contributing.rst",
        "Licensing\n=========\n\nThe code is distributed under the BSD 2-clause license. "
        "Contributors making pull requests must agree that they are able and willing to put "
        "their contributions under that license.\n\nReviews\n=======\n\nEvery pull request "
        "is reviewed by one of the maintainers before it is merged.\n",
        "If I send a pull request with a new lexer, under what license do I have to agree to "
        "put my code?",
        "BSD 2-clause license [1]. Contributors making pull requests must agree",
        id="its thing named with that",
    ),
    pytest.param(
        # jsonschema: how the version is decided is said of "Calling it"
        "referencing.rst",
        "Resources\n=========\n\nThe `Resource.from_contents` function converts a piece of "
        "opaque JSON into an object which indicates what version of JSON Schema the schema is "
        "meant to be interpreted under. Calling it will inspect a ``$schema`` keyword present "
        "in the given schema and use that to associate the JSON with an appropriate specification."
        "\n\nRegistries\n==========\n\nA registry is immutable: adding a resource returns "
        "a new registry.\n",
        "When I wrap a schema dict with Resource.from_contents, how does it decide which JSON "
        "Schema version to interpret it under?",
        "under [1]. Calling it will inspect a ``$schema`` keyword",
        id="doing something to it",
    ),
    pytest.param(
        # jsonschema: where the error is, concluded ("So …") after the reason for it
        "errors.rst",
        "ErrorTrees\n==========\n\nFinally, you'll notice that we haven't seen our "
        "``minItems`` error appear anywhere yet. This is because ``minItems`` is an error "
        "that applies globally to the instance itself. So it appears in the root node of the "
        "tree.\n\nPaths\n=====\n\nEach child tree is reached by indexing the tree.\n",
        "I built an ErrorTree for an array that was too short, but I can't find the minItems "
        "error under any of the indexed children. Where is it?",
        "instance itself [1]. So it appears in the root node of the tree",
        id="what it concludes",
    ),
]


@pytest.mark.parametrize(("name", "page", "question", "shown"), LINKED_BACK)
async def test_a_sentence_linked_back_to_the_one_before_comes_with_it(
    engine: Engine, tmp_path: Path, name: str, page: str, question: str, shown: str
) -> None:
    answer = await answered_extractively(engine, tmp_path / "c", name, page, question)
    assert shown in answer.answer, answer.answer


def test_that_names_a_thing_after_a_preposition_or_opening_a_sentence_only() -> None:
    before = "The code is distributed under the BSD 2-clause license."
    assert names_again("They put their work under that license.", before)
    assert names_again("That license applies to every file.", before)
    assert not names_again("Contributors agree that the license is fine.", before)
    assert not names_again("Tests run so that code stays correct.", before)


def test_a_sentence_trailing_off_is_cited_once_with_one_full_stop() -> None:
    assert _cited("Install the optional HTTP/2 dependencies...", "1") == (
        "Install the optional HTTP/2 dependencies [1]."
    )
    assert _cited("Then wait…", "2") == "Then wait [2]."
    assert _cited("It is done.", "3") == "It is done [3]."
    assert _cited("format `PIP_<NAME>` .", "4") == "format `PIP_<NAME>` [4]."  # pip
    assert _cited("Renamed (NOTE: the function was renamed too!)", "7") == (
        "Renamed (NOTE: the function was renamed too!) [7]"
    )
    assert _cited("Set the limit (default 100.)", "2") == "Set the limit (default 100) [2]."


def test_a_quoted_sentence_cites_our_source_not_its_own_references() -> None:
    assert (
        _cited("Paris is the capital of France.[3]", "8") == "Paris is the capital of France [8]."
    )
    assert _cited("BM25 [12] is a strong baseline.", "2") == "BM25 is a strong baseline [2]."
    assert _cited("Read `items[3]` first.", "1") == "Read `items[3]` first [1]."


async def test_a_quoted_sentence_end_gets_one_citation_after_the_quote(
    engine: Engine, tmp_path: Path
) -> None:
    fact = 'The institute groups Morocco, Algeria and Tunisia under the name "North Africa."'
    write(tmp_path / "q", "regions.md", f"# Regions\n\n{fact}\n")
    await engine.index([tmp_path / "q"])
    engine.writer = ExtractiveWriter(engine.embedder)
    answer = await engine.answer("Which name groups Morocco, Algeria and Tunisia?")
    assert 'under the name "North Africa" [1].' in answer.answer
    assert answer.answer.count("[1]") == 1, answer.answer


async def test_a_block_introduced_by_the_sentence_a_pick_brings_along_is_shown(
    engine: Engine, tmp_path: Path
) -> None:
    page = (
        "Thread limits\n=============\n\nThe default worker thread limiter has a value of 40, "
        "so at most 40 worker threads are spawned. You can adjust this limit like this::\n\n"
        "    limiter = current_default_thread_limiter()\n    limiter.total_tokens = 60\n\n"
        "The limiter does not affect the default thread pool executor.\n"
    )
    question = "What is the default number of worker threads?"
    answer = await answered_extractively(engine, tmp_path / "t", "threads.rst", page, question)
    assert "You can adjust this limit like this: [1]\n\n```" in answer.answer, answer.answer
    assert "    limiter.total_tokens = 60" not in answer.answer  # shown as the block's code
    assert "limiter.total_tokens = 60\n```" in answer.answer


async def test_a_default_on_the_line_after_its_list_item_is_part_of_the_answer(
    engine: Engine, tmp_path: Path
) -> None:
    limits = (
        "# Limits\n\nThe client takes instances of `Limits` which define:\n\n"
        "- `max_keepalive`, number of allowable keep-alive connections.\n(Defaults 20)\n"
        "- `max_connections`, maximum number of allowable connections.\n(Default 100)\n"
    )
    question = "What is the default maximum number of allowable connections?"
    answer = await answered_extractively(engine, tmp_path / "l", "limits.md", limits, question)
    assert "maximum number of allowable connections (Default 100) [1]." in answer.answer
    assert not answer.uncited_claims


async def test_a_default_stated_without_saying_of_what_comes_with_its_option(
    engine: Engine, tmp_path: Path
) -> None:
    # Python-Markdown's footnotes page: the writer quoted the next option's default.
    options = (
        "# Footnotes\n\nThe following options are provided to configure the output:\n\n"
        "* **`BACKLINK_TEXT`**:\n    The text string that links from the footnote definition "
        "back to the position in the document. Defaults to `&#8617;`.\n\n"
        "* **`BACKLINK_TITLE`**:\n    The text string for the `title` HTML attribute of the "
        "footnote definition link. Defaults to\n    `Jump back to footnote {} in the text`.\n"
    )
    question = "What text is used for the footnote backlink by default?"
    answer = await answered_extractively(engine, tmp_path / "f", "notes.md", options, question)
    stated = r"back to the position in the document \[(\d)\]\. Defaults to `&#8617;` \[\1\]"
    assert re.search(stated, answer.answer), answer.answer
    # The other default is never quoted without the option it is of.
    assert "Jump back" not in answer.answer or "**`BACKLINK_TITLE`**" in answer.answer


async def test_a_default_stated_later_in_its_item_comes_with_the_item(
    engine: Engine, tmp_path: Path
) -> None:
    # Werkzeug's request data limits: the default is the item's third sentence, or says
    # there is none; the writer had quoted the first two and not the value.
    limits = (
        "# Limiting Request Data\n\n"
        "-   `max_content_length` - Stop reading data after this many\n"
        "    bytes. This amount of memory could be used during one request. It's better\n"
        "    to configure this in the WSGI server, which is why it's not set by default.\n"
        "    Not setting it anywhere would be an issue with that application.\n"
        "-   `max_form_parts` - Stop parsing `multipart/form-data` if more than this\n"
        "    number of parts are received. This is useful to stop a very large number of\n"
        "    very small fields, especially files. The default is 1000. This is an\n"
        "    additional check, it does not replace `max_content_length`.\n"
    )
    question = "What is the default limit on the number of multipart form parts?"
    answer = await answered_extractively(engine, tmp_path / "p", "limits.md", limits, question)
    assert re.search(r"especially files \[(\d)\]\. The default is 1000 \[\1\]", answer.answer), (
        answer.answer
    )
    question = "What is the default value of max_content_length?"
    answer = await answered_extractively(engine, tmp_path / "c", "limits.md", limits, question)
    assert re.search(r"which is why it's not set by default \[\d\]", answer.answer), answer.answer
    # A sentence is never shown with one it does not follow: "The default is 1000." stands
    # between "… especially files." and "This is an additional check …".
    assert "especially files [1]. This is an additional" not in answer.answer, answer.answer


async def test_a_setting_described_under_its_directive_is_named_and_read_with_its_default(
    engine: Engine, tmp_path: Path
) -> None:
    # Flask's configuration page: ".. py:data:: NAME" over a body that never names it,
    # its default a paragraph of its own.
    page = (
        "Configuration Handling\n======================\n\n"
        ".. py:data:: SESSION_COOKIE_SAMESITE\n\n"
        "    Restrict how cookies are sent with requests from external sites. Can\n"
        "    be set to ``'Lax'`` (recommended) or ``'Strict'``.\n\n    Default: ``None``\n\n"
        ".. py:data:: TEMPLATES_AUTO_RELOAD\n\n"
        "    Reload templates when they are changed. If not set, it will be enabled in\n"
        "    debug mode.\n\n    Default: ``None``\n\n"
        ".. py:data:: EXPLAIN_TEMPLATE_LOADING\n\n"
        "    Log debugging information tracing how a template file was loaded.\n\n"
        "    Default: ``False``\n"
    )
    question = "What is the default value of TEMPLATES_AUTO_RELOAD?"
    answer = await answered_extractively(engine, tmp_path / "t", "config.rst", page, question)
    assert answer.answer.startswith("**TEMPLATES_AUTO_RELOAD**"), answer.answer
    assert re.search(r"when they are changed \[1\]\. Default: ``None`` \[1\]", answer.answer)
    question = "Which values can SESSION_COOKIE_SAMESITE be set to?"
    answer = await answered_extractively(engine, tmp_path / "s", "config.rst", page, question)
    assert "**SESSION_COOKIE_SAMESITE" in answer.answer, answer.answer
    assert "or ``'Strict'`` [1]" in answer.answer


async def test_a_number_asked_is_read_with_the_default_under_the_settings_title(
    engine: Engine, tmp_path: Path
) -> None:
    # Scrapy's settings reference: "If I leave the settings alone" asks for the default
    # without the word; the description was quoted without its "Default: ``180``"
    page = (
        "Settings\n========\n\n.. setting:: DOWNLOAD_TIMEOUT\n\n"
        "DOWNLOAD_TIMEOUT\n----------------\n\nDefault: ``180``\n\n"
        "The amount of time (in secs) that the downloader will wait before timing out.\n"
    )
    question = (
        "If I leave the settings alone, how many seconds will the downloader wait before "
        "timing out?"
    )
    answer = await answered_extractively(engine, tmp_path / "t", "settings.rst", page, question)
    assert "Default: ``180`` [1]. The amount of time (in secs)" in answer.answer, answer.answer


async def test_a_question_a_table_row_answers_is_answered_with_the_row(
    engine: Engine, tmp_path: Path
) -> None:
    # Jinja's loop variables: a reStructuredText grid table, the only place they are given
    page = (
        "Loops\n=====\n\nInside of a for-loop block, you can access some special variables:\n\n"
        "+--------------+---------------------------+\n"
        "| Variable     | Description               |\n"
        "+==============+===========================+\n"
        "| `loop.index` | The current iteration of  |\n"
        "|              | the loop. (1 indexed)     |\n"
        "+--------------+---------------------------+\n"
        "| `loop.first` | True if first iteration.  |\n"
        "+--------------+---------------------------+\n"
    )
    question = "Which loop variable gives the current iteration of the loop, 1 indexed?"
    answer = await answered_extractively(engine, tmp_path / "t", "loops.rst", page, question)
    assert "`loop.index`: The current iteration of the loop (1 indexed) [1]." in answer.answer, (
        answer.warnings
    )
    assert "+---" not in answer.answer and "|" not in answer.answer
    row = next(c for c in answer.claims if c.text.startswith("`loop.index`:"))
    assert row.support is not None and row.support >= 0.5, answer.claims


async def test_a_question_an_info_field_answers_is_answered_with_the_field(
    engine: Engine, tmp_path: Path
) -> None:
    # aiohttp's client reference: what `enable_cleanup_closed` does is said in its field
    # only, which had never been a candidate ("not found", or sentences about connectors).
    page = (
        "Connectors\n==========\n\n.. class:: BaseConnector(*, enable_cleanup_closed=False)\n\n"
        "   Base class for all connectors.\n\n"
        "   :param bool enable_cleanup_closed: some SSL servers do not properly complete\n"
        "      SSL shutdown process, in that case asyncio leaks SSL connections.\n"
        "      If this parameter is set to True, aiohttp additionally aborts underlining\n"
        "      transport after 2 seconds. It is off by default.\n"
    )
    question = "What does the enable_cleanup_closed parameter do?"
    answer = await answered_extractively(engine, tmp_path / "f", "connectors.rst", page, question)
    assert (
        "`enable_cleanup_closed` (bool): some SSL servers do not properly complete SSL "
        "shutdown process, in that case asyncio leaks SSL connections [" in answer.answer
    ), answer.answer
    assert "aborts underlining transport after 2 seconds [" in answer.answer
    assert ":param" not in answer.answer
    field = next(c for c in answer.claims if c.text.startswith("`enable_cleanup_closed`"))
    assert field.label == "supported", answer.claims


async def test_a_question_about_a_parameter_is_answered_from_the_docstring_of_the_source(
    engine: Engine, tmp_path: Path
) -> None:
    # A project's own source: no docstring sentence had ever been a candidate ("Not found").
    source = (
        "class Client:\n    def __init__(self, retries: int = 3) -> None:\n"
        '        """Create a client.\n\n'
        "        :param retries: how many times a failed request is sent again. Set it\n"
        '            to 0 to never retry.\n        """\n        self.retries = retries\n'
    )
    question = "What does the retries parameter of Client do?"
    answer = await answered_extractively(engine, tmp_path / "p", "client.py", source, question)
    assert (
        "`retries`: how many times a failed request is sent again [1]. Set it to 0 to never "
        "retry [1]." in answer.answer
    ), answer.answer
    assert all(claim.label == "supported" for claim in answer.claims), answer.claims


async def test_a_javascript_source_is_quoted_from_its_doc_comments_only(
    engine: Engine, tmp_path: Path
) -> None:
    # The comment had run into the code below it: "… between requests. */ export class
    # Client { /** [1]."
    source = (
        "/**\n * A tiny HTTP client that keeps connections open between requests.\n */\n"
        "export class Client {\n  /**\n   * Create a client.\n   *\n"
        "   * @param {number} [retries=3] - How many times a failed request is sent again.\n"
        "   */\n  constructor(retries = 3) {\n    this.retries = retries;\n  }\n}\n"
    )
    question = "What does the retries parameter of Client control about a failed request?"
    answer = await answered_extractively(engine, tmp_path / "j", "client.js", source, question)
    assert "`retries` (number): How many times a failed request is sent again [1]." in (
        answer.answer
    ), (answer.answer, answer.warnings)
    assert "*/" not in answer.answer and "{" not in answer.answer.replace("`", "")


def test_the_fields_of_parameters_not_asked_about_are_left_out() -> None:
    # Werkzeug's ProxyFix: asked about `x_host`, the writer had quoted `x_port` beside it.
    source = (
        "class ProxyFix:\n"
        '    """Adjust the WSGI environ based on headers that proxies set.\n\n'
        "    :param x_host: Number of values to trust for ``X-Forwarded-Host``.\n"
        "    :param x_port: Number of values to trust for ``X-Forwarded-Port``.\n"
        "    :returns: nothing.\n"
        '    """\n'
    )
    chunk = Chunk(
        ChunkId("c1"), DocumentId("d1"), "proxy_fix.py", "", (), source, 0, len(source), 1, 8
    )
    sources = [Source(1, Hit(chunk, 1.0, 0.9), source)]

    def read(question: str) -> list[str]:
        candidates: list[tuple[Source, int, str]] = []
        _fielded(question, sources, candidates)
        return [said for _, _, said in candidates]

    every = read("What do the parameters of ProxyFix do?")
    assert every == [
        "Adjust the WSGI environ based on headers that proxies set.",
        "`x_host`: Number of values to trust for ``X-Forwarded-Host``.",
        "`x_port`: Number of values to trust for ``X-Forwarded-Port``.",
        "Returns: nothing.",
    ]
    assert read("What does the x_host parameter do?") == [every[0], every[1], every[3]]


async def test_a_default_stated_in_a_paragraph_of_its_own_is_shown_with_the_one_before(
    engine: Engine, tmp_path: Path
) -> None:
    # aiohttp's advanced usage page states the default in a paragraph of four words.
    page = (
        "Limiting connection pool size\n=============================\n\n"
        "To limit amount of simultaneously opened connections you can pass *limit*\n"
        "parameter to *connector*::\n\n    conn = aiohttp.TCPConnector(limit=30)\n\n"
        "The example limits total amount of parallel connections to `30`.\n\n"
        "The default is `100`.\n\nIf you explicitly want not to have limits, pass `0`.\n"
    )
    question = "What is the default limit of parallel connections?"
    answer = await answered_extractively(engine, tmp_path / "d", "advanced.rst", page, question)
    assert "connections to `30` [1]. The default is `100` [1]." in answer.answer, answer.answer
    # pytest's output page: "It defaults to …" of the flag the paragraph above describes
    summary = (
        "Producing a detailed summary report\n-----------------------------------\n\n"
        "The ``-r`` flag can be used to display a short test summary info at the end of the "
        "test session, making it easy to get a clear picture of all failures, skips, etc.\n\n"
        "It defaults to ``fE`` to list failures and errors.\n\n.. regendoc:wipe\n"
    )
    question = "Which outcomes does the short test summary info list by default?"
    answer = await answered_extractively(engine, tmp_path / "e", "output.rst", summary, question)
    assert "skips, etc. It defaults to ``fE`` to list failures and errors [1]." in answer.answer


async def test_a_lead_in_ending_in_no_stop_is_shown_with_its_command(
    engine: Engine, tmp_path: Path
) -> None:
    page = (
        "# Command line\n\nTo use `markdown_py` from the command line, run it as\n\n"
        "``` shell\nmarkdown_py input_file.txt\n```\n"
    )
    question = "How do I run markdown_py from the command line?"
    answer = await answered_extractively(engine, tmp_path / "c", "cli.md", page, question)
    assert "run it as: [1]\n\n```shell\nmarkdown_py input_file.txt\n```" in answer.answer


async def test_a_sentence_brought_along_by_its_predecessor_is_not_shown_twice(
    engine: Engine, tmp_path: Path
) -> None:
    pool = (
        "# Pools\n\nYou can control the connection pool size with the limits argument. "
        "It takes instances of the pool limits class which define:\n\n"
        "- `max_connections`, the pool size limit.\n"
    )
    write(tmp_path / "p", "pools.md", pool)
    await engine.index([tmp_path / "p"])
    engine.writer = ExtractiveWriter(engine.embedder, keep_ratio=0.0, min_score=0.0)
    answer = await engine.answer("How do I control the connection pool size limits?")
    assert answer.answer.count("It takes instances") == 1, answer.answer


async def test_a_sentence_that_names_the_previous_one_with_this_comes_with_it(
    engine: Engine, tmp_path: Path
) -> None:
    # The first sentence restates the question; the answer is the one that refers back
    # to it ("find this out"), which shares few words with the question.
    source = (
        "# Advanced Patterns\n\nIn some situations it's helpful to understand whether or not "
        "an option or parameter came from the command line, the environment, or the default "
        "value. The `Context.get_parameter_source` method can be used to find this out. "
        "Decorators are applied from the bottom up in this case.\n"
    )
    question = (
        "How can I tell whether a parameter's value came from the command line, an "
        "environment variable, or its default?"
    )
    writer = ExtractiveWriter(engine.embedder, max_sentences=1)
    answer = await _extracted(engine, tmp_path, source, question, writer)
    assert "`Context.get_parameter_source` method can be used to find this out [1]." in (
        answer.answer
    ), answer.answer
    for refers in ("You can do this by passing `err=True`.", "For this, use `echo`."):
        assert REFERS_BACK.search(refers), refers
    for determiner in ("Decorators run bottom up in this case.", "This option is new."):
        assert not REFERS_BACK.search(determiner), determiner


async def test_the_other_cases_come_with_the_sentence_stating_one(
    engine: Engine, tmp_path: Path
) -> None:
    # Hatch's configuration page: asked about Linux, the answer had quoted what Windows does
    # and stopped there
    source = (
        "# Shell\n\nIf the shell cannot be determined, then on Windows systems Hatch "
        "will use the `COMSPEC` environment variable, defaulting to `cmd`. On all other "
        "platforms only `SHELL` will be used, defaulting to `bash`.\n"
    )
    question = "Not on Windows, where the shell cannot be determined, what does Hatch fall back to?"
    writer = ExtractiveWriter(engine.embedder, max_sentences=2, keep_ratio=0.9)
    answer = await _extracted(engine, tmp_path, source, question, writer)
    assert "defaulting to `cmd` [1]. On all other platforms only `SHELL`" in answer.answer, (
        answer.answer
    )
    for other in ("Otherwise, the default is used.", "In all other cases it is `None`."):
        assert _COMPLEMENT.match(other), other
    for said in (
        "On the other hand, pools are faster.",
        "Other platforms are listed below.",
        "In the other tab, the code is shown.",
        "In other news, the release is out.",
        "Elsewhere in this guide we describe pools.",
        "If not installed, pip will fetch it.",
    ):
        assert not _COMPLEMENT.match(said), said


async def test_a_sentence_that_refers_back_comes_after_the_one_it_names(
    engine: Engine, tmp_path: Path
) -> None:
    # coverage.py's FAQ: the best sentences open with "This" and "It"; alone, the answer
    # began "This is the number of executable statements …", naming nothing.
    source = (
        "# FAQ\n\nQ: How is the total percentage calculated?\n"
        "..........................................\n\n"
        "Coverage.py counts the total number of possible executions. This is the number of "
        "executable statements minus the number of excluded statements. It then counts the "
        "number of those possibilities that were actually executed. Reports are written "
        "as text.\n"
    )
    writer = ExtractiveWriter(engine.embedder, max_sentences=1)
    answer = await _extracted(
        engine, tmp_path, source, "What does the total subtract excluded statements from?", writer
    )
    assert answer.answer.startswith(
        "**FAQ**\nCoverage.py counts the total number of possible executions [1]. This is the"
    ), answer.answer
    assert answer.answer.count("This is the number") == 1 and "Q:" not in answer.answer


def test_a_writers_note_and_a_title_adorned_with_dots_are_no_candidates() -> None:
    text = (
        "Q: How is the total percentage calculated?\n"
        "..........................................\n\n"
        "TODO: give an example using `fail_after`.\n\n"
        "Coverage.py counts the total number of possible executions."
    )
    assert _candidate_sentences(text) == [
        "Coverage.py counts the total number of possible executions."
    ]


def test_items_going_on_from_a_lead_in_with_a_pronoun_are_no_candidates() -> None:
    # aiohttp's request lifecycle page: each item is a case of "It arises when …:"
    text = (
        "It arises when you want more granularity with your resources management:\n\n"
        "- you need several threads and want to avoid sharing a mutable object between them.\n"
        "- you want several connection pools to benefit from different queues.\n\n"
        "Sessions are cheap to keep. Tips:\n\n- You can reuse one session for every request.\n"
    )
    assert _candidate_sentences(text) == [
        "It arises when you want more granularity with your resources management:",
        "Sessions are cheap to keep.",
        "- You can reuse one session for every request.",
    ]


def test_numbered_steps_going_on_from_a_lead_in_in_lower_case_are_no_candidates() -> None:
    # peewee's `add_column`: each step is a piece of "the following occurs:"
    text = (
        "For non-null columns, the following occurs:\n\n"
        "1. column is added as allowing NULLs\n"
        "2. default value is written to every row\n"
        "3. column is changed to NOT NULL\n\n"
        "To upgrade, follow these steps:\n\n1. Stop the server before you migrate it.\n"
        "2. back up the database file first.\n\nThe migration runs these steps:\n\n"
        "1. the ``ALTER TABLE`` statement adds the column, which is written to every row\n"
    )
    assert _candidate_sentences(text) == [
        "For non-null columns, the following occurs:",
        "To upgrade, follow these steps:",
        "Stop the server before you migrate it.",
        "2. back up the database file first.",
        "The migration runs these steps:",
        "1. the ``ALTER TABLE`` statement adds the column, which is written to every row",
    ]


def test_a_sentence_sending_the_reader_elsewhere_is_no_candidate() -> None:
    # aiohttp's client pages and pluggy's index: a cross-reference shows as its label
    text = (
        "Timeout settings are stored in `ClientTimeout` data structure. See "
        "`aiohttp-client-timeouts` for usage examples.\n\n"
        "More details about ceiling absolute timeout values is available here "
        "`aiohttp-client-timeouts`.\n\nFor more info see `call_historic`.\n\n"
        "For more complex cases, see the timeouts a session sets for all its requests.\n"
    )
    assert _candidate_sentences(text) == [
        "Timeout settings are stored in `ClientTimeout` data structure.",
        "For more complex cases, see the timeouts a session sets for all its requests.",
    ]
    # peewee's "see also" boxes: a reference and what it is for
    text = (
        ".. seealso::\n   * :meth:`Model.insert_many` for syntax and examples.\n"
        "   * :ref:`upsert` for additional discussion.\n\n"
        "``replace_many`` may delete and re-insert rows, which changes the primary key.\n"
    )
    assert _candidate_sentences(text) == [
        "``replace_many`` may delete and re-insert rows, which changes the primary key."
    ]


def test_a_statement_whose_subject_is_the_code_above_is_no_candidate() -> None:
    # Python-Markdown's WikiLinks page
    text = (
        "The option is also provided to change or remove the class attribute.\n\n"
        "```pycon\n>>> html = markdown.markdown(text, extensions=[WikiLinkExtension("
        "html_class='myclass')])\n```\n\n"
        "Would cause all WikiLinks to be assigned to the class `myclass`.\n\n"
        "Will the extension keep the class when none is given?\n\n"
        "Should you need another class, pass it as `html_class`.\n\n"
        "Should any request fail, the client retries it three times.\n"
    )
    assert _candidate_sentences(text) == [
        "The option is also provided to change or remove the class attribute.",
        "Should you need another class, pass it as `html_class`.",
        "Should any request fail, the client retries it three times.",  # review
    ]


def test_an_asciidoc_admonition_label_is_not_part_of_the_sentence() -> None:
    assert clean("[TIP] ---- On OpenShift you can skip this step.") == (
        "On OpenShift you can skip this step."
    )
    assert clean("[NOTE] The flag is optional.") == "The flag is optional."


async def test_extractive_says_not_found_when_nothing_answers(engine: Engine, corpus: Path) -> None:
    await engine.index([corpus])
    engine.writer = ExtractiveWriter(engine.embedder, min_score=0.9)
    answer = await engine.answer("What is the connect timeout default?")
    assert answer.not_found and answer.answer == "Not found in the sources."


def test_prose_sentences_skip_headings_code_and_tables() -> None:
    text = (
        "# Title\n\nThe first real sentence is here. Short.\n\n```python\nx = call(a, b, c, d)\n```"
        "\n\n| a | b | c | d | e |\n\n- A list item that says something useful.\n"
    )
    found = [text[a:b] for a, b in prose_sentences(text)]
    assert found == [
        "The first real sentence is here.",
        "- A list item that says something useful.",
    ]
    assert clean(found[1]) == "A list item that says something useful."
    assert clean("See **bold** claim [3] here") == "See bold claim here."


def test_follow_ups_are_joined_with_the_previous_question_by_rule() -> None:
    history = [Turn("How are retries done?", "How are retries done?", "With backoff [1].")]
    assert needs_context("and how many of them?") and needs_context("why?")
    assert not needs_context("What does the connection pool limit per host?")
    assert by_rule("what is its default?", history) == (
        "what is its default? (context: How are retries done?)"
    )
    assert by_rule("What is the read timeout?", history) == "What is the read timeout?"


async def test_condense_uses_the_model_and_falls_back_to_the_rule() -> None:
    history = [Turn("How are retries done?", "How are retries done?", "With backoff [1].")]
    model = ScriptedModel(['"What is the default number of retries?"'])
    rewritten = await condense("and their default number?", history, model, BUILT_IN)
    assert rewritten == "What is the default number of retries?"
    assert "Follow-up question: and their default number?" in model.calls[0][0].content
    failing = ScriptedModel([RuntimeError("down")])
    fallback = await condense("and their default number?", history, failing, BUILT_IN)
    assert fallback.endswith("(context: How are retries done?)")


async def test_conversation_remembers_turns_within_the_limit(engine: Engine, corpus: Path) -> None:
    await engine.index([corpus])
    script = [
        "Retries use exponential backoff [1].",  # turn 1
        "What is the default limit of retries?",  # turn 2: the condensed question
        "The limit is five retries [1].",  # turn 2: the answer
    ]
    model = ScriptedModel(script)
    engine.writer = LLMWriter(model, BUILT_IN)
    chat = engine.chat(history=2, not_found_below=0.0)
    await chat.answer("How are retries done?")
    second = await chat.answer("and what is their limit?")
    assert second.question == "What is the default limit of retries?"
    assert second.answer == "The limit is five retries [1]."
    await chat.answer("How are retries done?")  # replayed from the answer cache
    assert len(chat.turns) == 2 and chat.turns[0].question == "and what is their limit?"
    assert len(model.calls) == 3


async def test_every_sentence_the_extractive_writer_copies_is_cited(
    engine: Engine, tmp_path: Path
) -> None:
    root = tmp_path / "rivers"
    write(
        root,
        "salzbode.md",
        "Salzböde is a river of Hesse, Germany. It is a right tributary of the river Lahn, "
        "which it joins near Lollar.\n",
    )
    await engine.index([root])
    answer = await engine.answer(
        "Which river is the Salzböde a tributary of?", repair=False, attribute=False
    )
    assert answer.uncited_claims == []
    assert all(claim.citations for claim in answer.claims) and len(answer.claims) >= 2


async def test_a_single_documents_answer_names_its_subject(engine: Engine, tmp_path: Path) -> None:
    """Sentences that never name their subject are shown under their record's title."""
    records = [
        {
            "id": "p1",
            "title": "Milli Vanilli",
            "text": "The first public sign that the group was lip-synching came on 21 July 1989. "
            "The recording jammed during a live performance on MTV.",
        },
        {"id": "p2", "title": "Apples", "text": "Apples grow on trees in orchards."},
    ]
    await _extractive_over(engine, tmp_path, records)
    answer = await engine.answer("Which group was lip-synching on MTV?")
    assert answer.answer.startswith("**Milli Vanilli**\n"), answer.answer
    assert "lip-synching" in answer.answer
    assert all("Milli Vanilli" not in claim.text for claim in answer.claims)


async def test_no_title_when_the_answer_or_location_names_it(
    engine: Engine, tmp_path: Path
) -> None:
    record = {"id": "p1", "title": "Milli Vanilli", "text": "Milli Vanilli was lip-synching."}
    write(tmp_path / "r", "timeouts.md", "# Timeouts\n\nThe connect timeout defaults to 5 s.\n")
    await _extractive_over(engine, tmp_path, [record])
    for question in ("Who was lip-synching?", "What does the connect timeout default to?"):
        answer = await engine.answer(question)
        assert not answer.answer.startswith("**"), answer.answer


async def test_a_title_never_cites_and_an_aside_does_not_hide_the_name(
    engine: Engine, tmp_path: Path
) -> None:
    records = [
        {
            "id": "p1",
            "title": "Milli Vanilli [2] *duo*",
            "text": "The first public sign that the group was lip-synching came on 21 July 1989.",
        },
        {"id": "p2", "title": "Apples", "text": "Apples grow on trees in orchards."},
        {"id": "p3", "title": "Boney M. (band)", "text": "Boney M. was lip-synching on stage."},
    ]
    await _extractive_over(engine, tmp_path, records)
    answer = await engine.answer("Which group was lip-synching on 21 July 1989?")
    assert answer.answer.startswith("**Milli Vanilli \\*duo\\***\n"), answer.answer
    assert {c.number for c in answer.citations} == {1}
    named = await engine.answer("Was Boney M. lip-synching on stage?")
    assert not named.answer.startswith("**"), named.answer


async def _extractive_over(engine: Engine, tmp_path: Path, records: list[dict[str, str]]) -> None:
    """Index `records` as a JSONL file in `tmp_path / "r"` and answer with the extractive writer."""
    write(tmp_path / "r", "bands.jsonl", "\n".join(json.dumps(r) for r in records) + "\n")
    await engine.index([tmp_path / "r"])
    engine.writer = ExtractiveWriter(engine.embedder)


def test_corroborated_instructions_are_quoted_not_made_a_that_clause() -> None:
    """ "Multiple sources report that To use …" is not a sentence; a colon keeps it one."""
    assert _corroborated("To use the Operator, create a custom resource.") == (
        "Multiple sources report: To use the Operator, create a custom resource."
    )
    assert _corroborated("Click Save to keep the changes.").startswith("Multiple sources report: ")
    assert _corroborated("Do not use the development server in production.") == (
        "Multiple sources report: Do not use the development server in production."
    )
    assert _corroborated("The bridge opened in 1932.") == (
        "Multiple sources report that the bridge opened in 1932."
    )
    assert _corroborated("`max_msg_size` (int): maximum size, 4 MB by default.") == (
        "Multiple sources report: `max_msg_size` (int): maximum size, 4 MB by default."
    )  # a field's statement is no clause
    assert (
        _corroborated("Google paid the fee.") == "Multiple sources report that Google paid the fee."
    )
    assert _corroborated("We don't think your model and format should be coupled.") == (
        "Multiple sources report: We don't think your model and format should be coupled."
    )  # the authors' "we" is no that-clause's subject
    assert _corroborated("Therefore add your pull-secret in your namespace.") == (
        "Multiple sources report: Therefore add your pull-secret in your namespace."
    )
    assert _corroborated("Therefore, the secret is not managed globally.") == (
        "Multiple sources report: Therefore, the secret is not managed globally."
    )
    # an API reference's description opens with its verb (Click's HTML docs)
    assert _corroborated("Restrict an `click.INT` value to a range.") == (
        "Multiple sources report: Restrict an `click.INT` value to a range."
    )
    assert _corroborated("Returns the config folder.").startswith("Multiple sources report: ")


_THEME = """# Customizing the theme

You can configure the typography section of the app-config.yaml file to change the default
font family of the page text, as shown in the following example:

```yaml
app:
  branding:
    typography:
      fontFamily: Times New Roman
```
"""

_CARDS = """# Adoption Insights

The Adoption Insights dashboard in the developer portal includes the following cards:

* Active users of the developer portal
* Total number of registered users
* Top catalog entities
"""


async def test_an_extractive_sentence_that_introduces_code_or_a_list_shows_it(
    engine: Engine, tmp_path: Path
) -> None:
    write(tmp_path / "d", "theme.md", _THEME)
    write(tmp_path / "d", "cards.md", _CARDS)
    await engine.index([tmp_path / "d"])
    engine.writer = ExtractiveWriter(engine.embedder)
    font = await engine.answer(
        "How do I configure the font family of the page text in app-config.yaml?",
        not_found_below=0.0,
    )
    assert "as shown in the following example: [1]\n\n```yaml\napp:\n" in font.answer
    assert font.answer.rstrip().endswith("fontFamily: Times New Roman\n```")
    code = [c for c in font.claims if c.kind == "code"]
    assert len(code) == 1 and code[0].label == "supported" and code[0].citations == [1]
    assert code[0].evidence[0].text.endswith("fontFamily: Times New Roman")
    assert code[0].evidence[0].number == 1 and code[0].evidence[0].start_line == 7
    cards = await engine.answer(
        "Which cards does the Adoption Insights dashboard include?", not_found_below=0.0
    )
    assert "cards: [1]\n\n- Active users of the developer portal [1].\n" in cards.answer
    assert "\n- Total number of registered users [1].\n- Top catalog entities [1]." in cards.answer
    assert not cards.uncited_claims and not cards.removed_claims


async def test_an_rst_auto_numbered_list_a_sentence_introduces_is_shown(
    engine: Engine, tmp_path: Path
) -> None:
    """AnyIO's docs number a list with `#.`, which read as a heading mark and was left out."""
    testing = (
        "Testing with AnyIO\n==================\n\n"
        "Pytest does not natively support running asynchronous test functions, so they have "
        "to be marked for the AnyIO pytest plugin to pick them up. This can be done in one of "
        "two ways:\n\n#. Using the ``pytest.mark.anyio`` marker\n"
        "#. Using the ``anyio_backend`` fixture, either directly or via another fixture\n"
    )
    answer = await answered_extractively(
        engine, tmp_path, "testing.rst", testing, "How do I mark async tests for pytest?"
    )
    assert "one of two ways: [1]\n\n- Using the ``pytest.mark.anyio`` marker [1].\n" in (
        answer.answer
    )
    assert "- Using the ``anyio_backend`` fixture" in answer.answer


async def test_code_a_model_invents_goes_with_its_sentence_and_quoted_code_stays(
    engine: Engine, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path / "d", "theme.md", _THEME)
    await engine.index([tmp_path / "d"])
    quoted = (
        "You configure the typography section of the app-config.yaml file as follows [1]:\n\n"
        "```yaml\ntypography:\n  fontFamily: Times New Roman\n```"
    )
    invented = (
        "You configure the typography section of the app-config.yaml file as follows [1]:"
        "\n\n```yaml\ntypography:\n  fontFamily: Comic Sans\n```"
    )
    engine.writer = LLMWriter(ScriptedModel([quoted, invented]), BUILT_IN)
    question = "How do I set the font family in app-config.yaml?"
    kept = await engine.answer(question, not_found_below=0.0, answerability=False)
    assert kept.answer.endswith("fontFamily: Times New Roman\n```")
    assert [c.label for c in kept.claims if c.kind == "code"] == ["supported"]
    removed = await engine.answer(question, not_found_below=0.0, answerability=False, cache=False)
    # The sentence holds up, the code does not: the sentence ends where the code was.
    assert removed.answer == (
        "You configure the typography section of the app-config.yaml file as follows [1]."
    )
    assert [c.kind for c in removed.removed_claims] == ["code"]
    assert "fontFamily: Comic Sans" in removed.removed_claims[0].text
    print_answer(removed)
    shown = capsys.readouterr().out
    assert "✗ removed code:\n      typography:\n        fontFamily: Comic Sans\n" in shown


def _candidate_sentences(text: str) -> list[str]:
    """The extractive writer's candidate sentences of one chunk holding `text`."""
    chunk = Chunk(ChunkId("c1"), DocumentId("d1"), "d.md", "Doc", (), text, 0, len(text), 1, 9)
    candidates, _, _, _ = candidate_sentences([Source(1, Hit(chunk, 1.0, 0.9), text)])
    return [sentence.strip() for _, _, sentence in candidates]


async def _extracted(
    engine: Engine,
    tmp_path: Path,
    source: str,
    question: str,
    writer: ExtractiveWriter | None = None,
    **options: Unpack[AskOverrides],
) -> Answer:
    """The extractive writer's answer to `question` over one document, `source`."""
    write(tmp_path / "d", "doc.md", source)
    await engine.index([tmp_path / "d"])
    engine.writer = writer or ExtractiveWriter(engine.embedder)
    return await engine.answer(question, **options)


async def _answered(
    engine: Engine, tmp_path: Path, source: str, reply: str, question: str
) -> Answer:
    """The answer to `question` over one document, `source`, when the model writes `reply`."""
    return await answered(engine, tmp_path / "d", source, reply, question)


async def test_quoted_code_goes_with_the_unsupported_sentence_that_introduces_it(
    engine: Engine, tmp_path: Path
) -> None:
    answer = (
        "The typography section of the app-config.yaml file changes the default font family "
        "of the page text [1]. Hamsters in the data centre power the typography engine, as in "
        "this example: [1]\n\n```yaml\ntypography:\n  fontFamily: Times New Roman\n```"
    )
    found = await _answered(engine, tmp_path, _THEME, answer, "How do I set the font?")
    assert found.answer == (
        "The typography section of the app-config.yaml file changes the default font family "
        "of the page text [1]."
    )
    assert [c.kind for c in found.removed_claims] == ["sentence", "code"]


async def test_what_points_back_at_removed_code_and_a_bare_lead_in_go_with_it(
    engine: Engine, tmp_path: Path
) -> None:
    # The embedded model's arrow answer kept "1. Here's an example." and "This will output:
    # `2 hours` [4]" once the example of a library the sources never name was removed.
    first = (
        "You can configure the typography section of the app-config.yaml file to change the "
        "default font family of the page text [1]."
    )
    answer = (
        f"Follow these steps:\n\n1. {first}\n\n2. Here's an example:\n\n"
        "```python\nfrom fonts import comic\ncomic.apply()\n```\n\n"
        "This will change the default font family of the page text [1].\n\n"
        "3. The example sets the font family to Times New Roman [1]."
    )
    found = await _answered(engine, tmp_path, _THEME, answer, "How do I set the font?")
    assert found.answer == (
        f"Follow these steps:\n\n1. {first}\n\n"
        "2. The example sets the font family to Times New Roman [1]."
    )
    removed = [(c.kind, c.reasons[-1]) for c in found.removed_claims]
    assert removed[-1] == ("sentence", LEANS_ON_CODE)
    # twine: "After setting this …," below removed code names what the code set
    after = (
        f"{first}\n\n```sh\nexport FONT_HAMSTER=comic\n```\n\n"
        "After setting this environment variable, the default font family of the page text "
        "changes [1]."
    )
    found = await _answered(engine, tmp_path, _THEME, after, "How do I change the font?")
    assert found.answer == first
    assert [(c.kind, c.reasons[-1]) for c in found.removed_claims][-1] == (
        "sentence",
        LEANS_ON_CODE,
    )


@pytest.mark.parametrize(
    ("lead_in", "kept"),
    [
        # says nothing without the code: it goes with it
        ("For the font family of the page text, you can use [1]:", False),
        # no colon: it does not introduce the block, whatever it ends on
        ("For the font family of the page text, you can use [1].", True),
        # says something of its own: it stays, ending in a full stop
        ("You change the default font family in the typography section, as shown here [1]:", True),
    ],
)
async def test_a_lead_in_that_needs_its_removed_code_goes_with_it(
    engine: Engine, tmp_path: Path, lead_in: str, kept: bool
) -> None:
    first = (
        "You can configure the typography section of the app-config.yaml file to change the "
        "default font family of the page text [1]."
    )
    invented = "```yaml\ntypography:\n  fontFamily: Comic Sans\n```"
    answer = f"{first} {lead_in}\n\n{invented}"
    found = await _answered(engine, tmp_path, _THEME, answer, "How do I set the font?")
    shown = lead_in.replace(" [1]:", " [1].")
    assert found.answer == (f"{first} {shown}" if kept else first)
    removed = [(c.kind, c.reasons[-1]) for c in found.removed_claims]
    assert removed[-1][0] == "code"
    assert (("sentence", INTRODUCED) in removed) is not kept


async def test_the_code_an_answer_shows_is_never_rewritten_as_sentences(
    engine: Engine, tmp_path: Path
) -> None:
    code = (
        "# the default font family of the page text\n"
        "headings: Times New Roman Bold Italic\n"
        "headings: Times New Roman Bold Italic\n"
        "See the section above for details."
    )
    source = f"# Fonts\n\nSet the fonts as follows:\n\n```\n{code}\n```\n"
    answer = f"Set the fonts of the page text as follows [1]:\n\n```\n{code}\n```"
    found = await _answered(engine, tmp_path, source, answer, "How do I set the fonts?")
    assert found.answer == answer  # no citation added, no line dropped as a repeat or pointer
    assert [(c.kind, c.label) for c in found.claims] == [
        ("sentence", "supported"),
        ("code", "supported"),
    ]


_INSTALL = (
    "# Installation\n\nInstall with pip:\n\n```shell\n$ pip install httpx\n```\n\n"
    "Or, to include the optional HTTP/2 support, use:\n\n"
    "```shell\n$ pip install httpx[http2]\n```\n\n"
    "To include the optional brotli and zstandard decoders support, use:\n\n"
    "```shell\n$ pip install httpx[brotli,zstd]\n```\n"
)


@pytest.mark.parametrize(
    "reply",
    [
        "HTTPX requires Python 3.9+ [1].\nTo include the optional HTTP/2 support, use: [1]",
        "To include the optional HTTP/2 support, use [1]:",
        "To include the optional HTTP/2 support, use:",  # cited by attribution
    ],
)
async def test_a_sentence_promising_code_it_never_saw_shows_its_sources_block(
    engine: Engine, tmp_path: Path, reply: str
) -> None:
    # The model reads prose only: it quotes the sentence and stops at its colon. The block
    # the cited source shows after that sentence (not the one after the brotli sentence,
    # which reads alike) follows it, and is checked like any code an answer shows.
    found = await _answered(engine, tmp_path, _INSTALL, reply, "How do I enable HTTP/2?")
    assert found.answer.endswith(
        "optional HTTP/2 support, use: [1]\n\n```shell\n$ pip install httpx[http2]\n```"
    ) or found.answer.endswith(
        "optional HTTP/2 support, use [1]:\n\n```shell\n$ pip install httpx[http2]\n```"
    ), found.answer
    assert [c.label for c in found.claims if c.kind == "code"] == ["supported"]


async def test_promises_run_together_in_a_paragraph_each_show_their_block(
    engine: Engine, tmp_path: Path
) -> None:
    # The embedded model ran HTTPX's install lines together, their commands left out of its
    # evidence: each promise inside the paragraph is followed by its block, and the text
    # after it goes on in a paragraph of its own.
    source = _INSTALL + "\nHTTPX requires Python 3.9+.\n"
    reply = (
        "Install with pip: Or, to include the optional HTTP/2 support, use: To include the "
        "optional brotli and zstandard decoders support, use: HTTPX requires Python 3.9+ [1]."
    )
    found = await _answered(engine, tmp_path, source, reply, "Do I need anything for HTTP/2?")
    assert found.answer == (
        "Install with pip: [1]\n\n```shell\n$ pip install httpx\n```\n\n"
        "Or, to include the optional HTTP/2 support, use: [1]\n\n"
        "```shell\n$ pip install httpx[http2]\n```\n\n"
        "To include the optional brotli and zstandard decoders support, use: [1]\n\n"
        "```shell\n$ pip install httpx[brotli,zstd]\n```\n\n"
        "HTTPX requires Python 3.9+ [2]."  # repair cites the chunk after the install lines
    ), found.answer
    assert [c.label for c in found.claims if c.kind == "code"] == ["supported"] * 3
    # a colon heading what follows in a few words, or before lowercase, promises nothing
    for reply, question in (
        ("Note: The default pool holds ten connections [1].", "How big is the pool?"),
        ("HTTP/2 is optional: the default client speaks HTTP/1.1 only [1].", "Is HTTP/2 on?"),
    ):
        kept = await _answered(engine, tmp_path, source, reply, question)
        assert "```" not in kept.answer, kept.answer


async def test_a_lead_in_run_over_a_label_into_the_list_below_it_promises_nothing(
    engine: Engine, tmp_path: Path
) -> None:
    # The Developer Hub's installers: an AsciiDoc description list's term after the lead-in.
    # The list follows the paragraph: the colon inside it leads into that list, and the
    # label had gone once the list was lent to it.
    source = (
        "# Installing\n\nYou can install Developer Hub by using one of the following "
        "installers:\nThe Developer Hub Operator::\n* Ready for immediate use after an "
        "administrator installs it\n* Uses Operator Lifecycle Management\n"
    )
    reply = (
        "You can install Developer Hub by using one of the following installers: The "
        "Developer Hub Operator: [1]\n\n- Ready for immediate use after an administrator "
        "installs it [1].\n- Uses Operator Lifecycle Management [1]."
    )
    found = await _answered(engine, tmp_path, source, reply, "How do I install Developer Hub?")
    assert "installers: The Developer Hub Operator: [1]\n\n- Ready" in found.answer, found.answer
    assert found.answer.count("Operator Lifecycle Management") == 1, found.answer


async def test_a_lead_in_run_into_its_items_shows_the_list_and_says_them_once(
    engine: Engine, tmp_path: Path
) -> None:
    # Invoke's --dry: the extractive writer quotes a lead-in and its items as one sentence;
    # the list shown below the colon states the items, which are not said again after it.
    source = (
        "# Options\n\nEcho commands instead of actually running them; specifically, causes"
        " any ``run`` calls to:\n\n- Act as if the ``echo`` option has been turned on;\n"
        "- Skip actual subprocess invocation;\n- Return a dummy result object.\n\n"
        "The pool holds ten connections.\n"
    )
    reply = (
        "Echo commands instead of actually running them; specifically, causes any ``run``"
        " calls to: Act as if the ``echo`` option has been turned on; Skip actual subprocess"
        " invocation; Return a dummy result object [1]."
    )
    found = await _answered(engine, tmp_path, source, reply, "What does --dry do?")
    assert found.answer.endswith("- Return a dummy result object [1]."), found.answer
    assert found.answer.count("Skip actual subprocess invocation") == 1, found.answer


async def test_a_promise_repeated_gets_its_block_once_and_goes(
    engine: Engine, tmp_path: Path
) -> None:
    # Django dj19: the embedded model wrote each sentence twice, once as "According to [1],
    # …"; the promise's block was shown after each copy, and the copies stayed.
    said = "To include the optional HTTP/2 support, use: HTTPX requires Python 3.9+."
    reply = f"{said}\n\nAccording to [1], {said[0].lower()}{said[1:]}"
    source = _INSTALL + "\nHTTPX requires Python 3.9+.\n"
    found = await _answered(engine, tmp_path, source, reply, "How do I get HTTP/2?")
    assert found.answer.count("```shell") == 1, found.answer
    assert found.answer.count("HTTPX requires Python 3.9+") == 1, found.answer


async def test_a_promising_sentence_cited_to_the_wrong_source_cites_the_one_it_quotes(
    engine: Engine, tmp_path: Path
) -> None:
    write(tmp_path / "d", "deps.md", "# Dependencies\n\n`h2` gives HTTP/2 support, optional.\n")
    reply = "To include the optional HTTP/2 support, use: [1]"
    found = await _answered(engine, tmp_path, _INSTALL, reply, "How do I enable HTTP/2?")
    numbers = {s.path: s.number for s in found.sources}
    assert numbers == {"d/deps.md": 1, "d/doc.md": 2}  # the reply cites the other page
    assert found.answer.startswith("To include the optional HTTP/2 support, use: [1,2]")
    assert found.answer.endswith("```shell\n$ pip install httpx[http2]\n```"), found.answer
    [code] = [c for c in found.claims if c.kind == "code"]
    assert code.label == "supported" and 2 in code.citations


async def test_a_promise_is_kept_only_from_a_cited_source_that_says_it(
    engine: Engine, tmp_path: Path
) -> None:
    reply = "To enable the optional HTTP/3 transport, use: [1]"  # no such sentence
    found = await _answered(engine, tmp_path, _INSTALL, reply, "How do I enable HTTP/3?")
    assert "```" not in found.answer
    shown = (
        "Or, to include the optional HTTP/2 support, use: [1]\n\n"
        "```shell\n$ pip install httpx[http2]\n```"
    )
    kept = await _answered(engine, tmp_path, _INSTALL, shown, "How do I enable HTTP/2?")
    assert kept.answer.count("```") == 2  # a block already shown is not shown twice


async def test_an_answer_of_quoted_code_stands_and_its_code_is_kept_as_written(
    engine: Engine, tmp_path: Path
) -> None:
    code = "# Install\npip install tool  \n\n\n# Check\ntool --version :func:`version` [1]"
    source = f"# Install\n\nInstall it as follows:\n\n```bash\n{code}\n```\n"
    shown = f"As shown here [1]:\n\n```bash\n{code}\n```"
    answer = f"Pools are powered by hamsters in the basement [1]. {shown}"
    found = await _answered(engine, tmp_path, source, answer, "How do I install it?")
    assert not found.not_found
    assert found.answer == shown  # the pointer-like introduction stays; the code is untouched
    assert [c.kind for c in found.removed_claims] == ["sentence"]
    assert [(c.kind, c.label) for c in found.claims] == [("code", "supported")]


async def test_an_extractive_procedure_shows_each_steps_code(
    engine: Engine, tmp_path: Path
) -> None:
    procedure = (
        "# Checking the scraping\n\n"
        "To verify that Prometheus scrapes the metrics, complete the following steps:\n\n"
        "1. Forward the Prometheus console port to your machine as follows:\n\n"
        "```bash\nkubectl --namespace=prometheus port-forward deploy/prometheus-server 9090\n"
        "```\n\n2. Open http://localhost:9090 in your web browser.\n"
    )
    question = "How do I verify that Prometheus scrapes the metrics?"
    found = await _extracted(engine, tmp_path, procedure, question, not_found_below=0.0)
    assert (
        "complete the following steps: [1]\n\n"
        "- Forward the Prometheus console port to your machine as follows: [1]\n\n"
        "  ```bash\n  kubectl --namespace=prometheus port-forward deploy/prometheus-server 9090\n"
        "  ```\n\n- Open http://localhost:9090 in your web browser [1]."
    ) in found.answer
    code = [c for c in found.claims if c.kind == "code"]
    assert [(c.label, c.citations) for c in code] == [("supported", [1])]
    assert not found.removed_claims and not found.uncited_claims


async def test_examples_of_crlf_markdown_and_restructuredtext_are_shown_and_checked(
    engine: Engine, tmp_path: Path
) -> None:
    write(tmp_path / "d", "theme.md", _THEME.replace("\n", "\r\n").encode())
    rst = (
        "Installation\n============\n\nYou can get the library directly from PyPI::\n\n"
        "    pip install click\n\nThe installation into a virtualenv is heavily recommended.\n"
    )
    write(tmp_path / "d", "install.rst", rst)
    await engine.index([tmp_path / "d"])
    engine.writer = ExtractiveWriter(engine.embedder)
    font = await engine.answer(
        "How do I configure the font family of the page text in app-config.yaml?",
        not_found_below=0.0,
    )
    assert font.answer.endswith(
        "\n\n```yaml\napp:\n  branding:\n    typography:\n      fontFamily: Times New Roman\n```"
    )
    pypi = await engine.answer("How do I get the library from PyPI?", not_found_below=0.0)
    assert "directly from PyPI: [" in pypi.answer  # rST shows "PyPI::" as "PyPI:"
    assert pypi.answer.endswith("\n\n```\npip install click\n```")
    for answer in (font, pypi):
        assert [(c.kind, c.label) for c in answer.claims] == [
            ("sentence", "supported"),
            ("code", "supported"),
        ]


def test_a_hyperlink_reference_wrapped_over_two_lines_reads_as_its_text() -> None:
    # tenacity's docs; the address had been shown as a broken tag: "retrying ‹https://…>".
    sentence = (
        "It originates from `a fork of retrying\n<https://github.com/rholder/retrying/"
        "issues/65>`_ which is sadly no longer\n`maintained <https://julien.danjou.info/>`_."
    )
    assert (
        clean(sentence)
        == "It originates from a fork of retrying which is sadly no longer maintained."
    )
    # Tornado's docs: the reference's text itself runs over two lines
    wrapped = (
        "For a more advanced asynchronous example, take a look at the `chat\nexample "
        "application\n<https://github.com/tornadoweb/tornado/tree/stable/demos/chat>`_, which\n"
        "implements an AJAX chat room."
    )
    assert clean(wrapped) == (
        "For a more advanced asynchronous example, take a look at the chat example "
        "application, which implements an AJAX chat room."
    )


def test_an_item_a_shown_list_holds_is_not_shown_again_from_an_overlapping_chunk() -> None:
    # jsonschema's FAQ: the list of what is not public API came under its lead-in from one
    # chunk, and its last item again as a sentence of the next chunk of the same page.
    def source(number: int, document: str) -> Source:
        chunk = Chunk(
            ChunkId(f"c{number}"),
            DocumentId(document),
            f"{document}.rst",
            "FAQ",
            (),
            "text",
            0,
            4,
            1,
            1,
        )
        return Source(number, Hit(chunk, 1.0, 0.9), "text")

    items = (
        "the exact wording and contents of error messages",
        "the specific non-zero error codes presented by the command line interface",
    )
    lead = _Pick(
        "The following are not considered public API:",
        0.9,
        source(1, "faq"),
        0,
        frozenset(),
        block=Introduced("list", 0, 200, items),
    )
    again = _Pick(
        "the specific non-zero error codes presented by the command line\n interface.",
        0.8,
        source(2, "faq"),
        0,
        frozenset(),
    )
    elsewhere = _Pick(again.text, 0.8, source(3, "other"), 0, frozenset())
    new = _Pick(
        "the exact representation of errors on the console.", 0.7, source(2, "faq"), 9, frozenset()
    )
    assert _listed_already([lead, again], again)
    marked = _Pick(
        "The following are not considered public API:",
        0.9,
        source(1, "faq"),
        0,
        frozenset(),
        block=Introduced("list", 0, 200, ("the specific codes returned by :func:`main` today",)),
    )
    cleaned = _Pick(
        "the specific codes returned by `main` today.", 0.8, source(2, "faq"), 0, frozenset()
    )
    assert _listed_already([marked, cleaned], cleaned)  # the item as it is shown
    leading = _Pick(
        again.text, 0.8, source(2, "faq"), 0, frozenset(), block=Introduced("list", 0, 9, ("x",))
    )
    assert not _listed_already([lead, leading], leading)  # it shows a list of its own
    assert not _listed_already([lead, elsewhere], elsewhere)  # another document's says it too
    assert not _listed_already([lead, new], new)
    assert not _listed_already([lead], lead)
    # In another pick's text, as whole words: "… is 10" is not said by "… is 100 seconds".
    said = _Pick(
        "The default upload timeout is 100 seconds for large files.",
        0.9,
        source(2, "faq"),
        0,
        frozenset(),
    )
    ten = _Pick("The default upload timeout is 10.", 0.8, source(3, "faq"), 9, frozenset())
    hundred = _Pick("The default upload timeout is 100.", 0.8, source(3, "faq"), 9, frozenset())
    assert not _listed_already([said, ten], ten)
    assert _listed_already([said, hundred], hundred)


def _page_chunk(number: int, document: str, text: str) -> Source:
    chunk = Chunk(
        ChunkId(f"c{number}"),
        DocumentId(document),
        f"{document}.rst",
        "Fixtures",
        (),
        text,
        0,
        len(text),
        1,
        text.count("\n") + 1,
    )
    return Source(number, Hit(chunk, 1.0, 0.9), text)


async def test_a_sentence_is_quoted_once_though_two_chunks_of_its_page_hold_it() -> None:
    # pytest's fixture reference repeats one sentence under `tmp_path` and under
    # `tmp_path_factory`; the answer had said it twice: shown with the sentence after it,
    # the first pick's inline code differed from the second's, so they were not alike.
    kept = (
        "By default, a new base temporary directory is created each test session, "
        "and old bases are removed after 3 sessions."
    )
    after = "This behavior can be configured with `tmp_path_retention_count`."
    sources = [
        _page_chunk(
            1, "builtin", f"Return a temporary directory unique to each test.\n{kept}\n{after}\n"
        ),
        _page_chunk(2, "builtin", f"Make session-scoped temporary directories.\n{kept}\n"),
    ]
    question = "After how many sessions are old base temporary directories removed by default?"
    picks = await ExtractiveWriter(None).picks(question, sources)
    shown = " ".join(pick.text for pick in picks)
    assert shown.count("old bases are removed after 3 sessions") == 1, shown
    assert after.rstrip(".") in shown  # shown with it, once


async def test_a_sentence_alike_on_another_page_is_no_consensus_for_what_is_shown_with_it() -> None:
    # Starlette: the requests page and the WebSocket page say the same of query parameters,
    # each with its own example; folded together, `request.query_params` would cite both.
    said = "Query parameters are exposed as an immutable multi-dict."
    sources = [
        _page_chunk(1, "requests", f"{said}\nFor example: `request.query_params['search']`\n"),
        _page_chunk(2, "websockets", f"{said}\nFor example: `websocket.query_params['search']`\n"),
    ]
    picks = await ExtractiveWriter(None).picks("How do I read query parameters?", sources)
    shown = [pick for pick in picks if "request.query_params" in pick.text]
    assert shown and all(pick.also == [] for pick in shown), picks


async def test_a_sentence_going_on_from_the_text_above_it_is_not_quoted_alone(
    engine: Engine, tmp_path: Path
) -> None:
    # coverage.py's FAQ sets a configuration block inside its sentence; pip's research notes
    # list the searches users made. Neither goes on with a sentence of its own.
    text = (
        "# Contexts\n\nTo see which tests ran each line, record dynamic contexts in the "
        "HTML report settings:\n\n```ini\n[run]\ndynamic_context = test_function\n```\n\n"
        "and then use the ``--contexts`` option when generating an HTML report.\n\n"
        "# Searches\n\nUsers searched for:\n\n- how to use the HTML report contexts option\n"
        "- how to uninstall the HTML report\n"
    )
    answer = await answered_extractively(
        engine, tmp_path / "d", "faq.md", text, "How do I use contexts in the HTML report?"
    )
    claims = [claim.text for claim in answer.claims]
    assert not any(c.startswith(("and then", "how to")) for c in claims), answer.answer


async def test_a_short_reply_to_a_question_title_is_shown_before_its_reason(
    engine: Engine, tmp_path: Path
) -> None:
    """WTForms' FAQ: "This is because …" had been quoted without the reply it explains."""
    faq = (
        "FAQ\n===\n\nDoes WTForms handle file uploads?\n"
        "---------------------------------\n\n"
        "Currently, it does not. This is because WTForms strives to be framework-agnostic, "
        "and every web framework handles file uploads somewhat differently. WTForms has a "
        "FileField which will let you render a file input widget, but the rest is up to "
        "you.\n\nDoes WTForms support unicode?\n-----------------------------\n\n"
        "Simple answer: Yes. Longer answer: all strings are unicode throughout.\n"
    )
    answer = await answered_extractively(
        engine, tmp_path, "faq.rst", faq, "Will WTForms save and handle uploaded files for me?"
    )
    shown = answer.answer
    assert "Currently, it does not [" in shown and "]. This is because WTForms" in shown, shown
    assert shown.index("Currently") < shown.index("This is because")
    assert all(claim.label == "supported" for claim in answer.claims), answer.claims


async def test_a_short_statement_answering_its_question_title_is_a_candidate(
    engine: Engine, tmp_path: Path
) -> None:
    """WTForms' FAQ answers "What versions of Python are supported?" in four words."""
    faq = (
        "FAQ\n===\n\nWhat versions of Python are supported?\n"
        "--------------------------------------\n\nWTForms supports Python 3.10+\n\n\n"
        "How can I contribute to WTForms?\n--------------------------------\n\n"
        "Work on all versions of Python that WTForms currently supports. Write tests for "
        "every change you make to the code.\n"
    )
    answer = await answered_extractively(
        engine, tmp_path, "faq.rst", faq, "What is the oldest Python version WTForms supports?"
    )
    assert "WTForms supports Python 3.10+ [1]" in answer.answer, answer.answer
