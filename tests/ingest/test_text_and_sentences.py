from __future__ import annotations

import codecs
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citesynth.analysis import estimate_tokens
from citesynth.errors import LoadError
from citesynth.ingest.blocks import BlockKind
from citesynth.ingest.fences import fenced_blocks
from citesynth.ingest.markdown import markdown_blocks
from citesynth.ingest.rst import described_at, described_objects, rendered_roles, rst_blocks
from citesynth.ingest.sentences import prose_sentences, sentence_spans
from citesynth.ingest.text import content_hash, decode, looks_binary
from citesynth.ingest.titles import is_heading, is_title_or_rule
from citesynth.synthesis.layout import strip_layout
from citesynth.verify.evidence import unmarked
from tests.conftest import TORNADO_FAQ_ITEM


def prose_of(text: str, *, min_words: int = 5) -> list[str]:
    """The prose sentences of `text`, as text."""
    return [text[a:b] for a, b in prose_sentences(text, min_words=min_words)]


def sentences_of(text: str) -> list[str]:
    """The sentences of `text` (`sentence_spans`), as text."""
    return [text[a:b] for a, b in sentence_spans(text)]


def test_utf8_and_boms() -> None:
    assert decode("héllo".encode()).text == "héllo"
    assert decode(codecs.BOM_UTF8 + b"x").text == "x"
    utf16 = "ünïcode text".encode("utf-16")
    assert decode(utf16).text == "ünïcode text"
    assert not decode(utf16).fell_back


def test_legacy_encodings_fall_back_without_failing() -> None:
    cp1252 = decode("naïve “quotes” café".encode("cp1252"))
    assert cp1252.text == "naïve “quotes” café"
    assert cp1252.encoding == "cp1252" and cp1252.fell_back
    # 0x81 is undefined in cp1252: Latin-1 takes any byte.
    latin = decode(b"abc \x81 def")
    assert latin.encoding == "latin-1" and latin.text == "abc \x81 def"


def test_binary_is_refused() -> None:
    assert looks_binary(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert looks_binary(bytes(range(256)) * 4)
    assert not looks_binary(b"plain text\twith tabs\r\n")
    with pytest.raises(LoadError, match="binary"):
        decode(b"ELF\x00\x01\x02")


@given(st.text())
def test_decode_round_trips_any_utf8_text_without_nul(text: str) -> None:
    data = text.replace("\x00", "").encode("utf-8", "surrogatepass")
    try:
        decoded = decode(data)
    except LoadError:
        assert looks_binary(data)
        return
    if not decoded.fell_back:
        assert decoded.text == data.decode("utf-8", "surrogatepass")


def test_token_estimate_tracks_wordpieces() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("The cat sat.") == 4
    assert estimate_tokens("internationalisation") == 3  # long words count as several pieces
    assert estimate_tokens("a, b; c!") == 6


def test_content_hash_is_tagged_and_unambiguous() -> None:
    assert content_hash(b"ab", b"c") != content_hash(b"a", b"bc")
    assert content_hash("x") == content_hash(b"x")
    assert content_hash("x").startswith("b2:")


ABBREVIATIONS_NUMBERS_LISTS = (
    "Dr. Smith measured 3.5 mg at 10 a.m. on day two. The effect was large, e.g. twice the "
    "baseline! Was it real? See Fig. 2 for details.\n- First item\n- Second item",
    [
        "Dr. Smith measured 3.5 mg at 10 a.m. on day two.",
        "The effect was large, e.g. twice the baseline!",
        "Was it real?",
        "See Fig. 2 for details.",
        "- First item",
        "- Second item",
    ],
)
# A PDF or text heading (short line, no closing punctuation, starting a paragraph) and a
# Markdown heading never run into the sentence after them.
HEADINGS = (
    "The section before ends here.\n\nIngestion never stops on bad input\n"
    "Each file is skipped.\n## Ask\nSome text here.",
    [
        "The section before ends here.",
        "Ingestion never stops on bad input",
        "Each file is skipped.",
        "## Ask",
        "Some text here.",
    ],
)

# A bracketed fragment with no punctuation of its own that ends its line belongs to the
# sentence before it (list items in docs: "... for no limits.\n(Default 100)"); a bracketed
# sentence with its own full stop stays one.
ASIDES = (
    "- `max_connections`, allowable connections, or `None` for no limits.\n(Default 100)\n"
    "- `keepalive_expiry`, idle time in seconds. (Default 5)\nIt ends here. (See Fig. 3.)",
    [
        "- `max_connections`, allowable connections, or `None` for no limits.\n(Default 100)",
        "- `keepalive_expiry`, idle time in seconds. (Default 5)",
        "It ends here.",
        "(See Fig. 3.)",
    ],
)


# A citation marker closed by the sentence's own stop belongs to the sentence before it,
# even after an ellipsis, a bracket or "!"; a marker that opens a sentence starts it, as
# inline code does.
MARKERS_AND_CODE = (
    "It ends with the Commission (Pres. …) [1]. It is fast! [2, 3]. "
    "It waits … [4-5]. Next one [1]. Done. [2] The next one opens with its marker. "
    "It is set to ``{shell}_source``. ``{PROG_NAME}`` is the name. `httpx.get` sends it [1]. "
    "*historic* calls are incompatible [2]. pip installs it [3]. It is e.g. fine.",
    [
        "It ends with the Commission (Pres. …) [1].",
        "It is fast! [2, 3].",
        "It waits … [4-5].",
        "Next one [1].",
        "Done.",
        "[2] The next one opens with its marker.",
        "It is set to ``{shell}_source``.",
        "``{PROG_NAME}`` is the name.",
        "`httpx.get` sends it [1].",
        # after a citation marker, lower case opens a sentence: an answer joins those it copies
        "*historic* calls are incompatible [2].",
        "pip installs it [3].",
        "It is e.g. fine.",
    ],
)


# A sentence may open with bold or emphasis: a bold run of two sentences is two sentences
# (Flask's deployment page), and the run's closing asterisks end its last one. At a line
# break, emphasis on a lower-case word opens one too (attrs' docs, a sentence a line).
EMPHASIS = (
    "It applies to a single user. **Do not use the development server when deploying to "
    "production. It is intended for use only during local development.** Then *Note this.* "
    "It is 3 * 4. A line ends.\n*attrs* was always Python 3-first. It is *attrs*. *it* "
    "is not split. Use e.g.\n*foo* here.",
    [
        "It applies to a single user.",
        "**Do not use the development server when deploying to production.",
        "It is intended for use only during local development.**",
        "Then *Note this.*",
        "It is 3 * 4.",
        "A line ends.",
        "*attrs* was always Python 3-first.",  # emphasis on a lower-case word, after a break
        "It is *attrs*. *it* is not split.",
        "Use e.g.\n*foo* here.",
    ],
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [ABBREVIATIONS_NUMBERS_LISTS, HEADINGS, ASIDES, MARKERS_AND_CODE, EMPHASIS],
    ids=["abbreviations", "headings", "asides", "markers-and-code", "emphasis"],
)
def test_sentence_spans_split_where_sentences_end(text: str, expected: list[str]) -> None:
    assert sentences_of(text) == expected


def test_headings_are_recognised_among_spans() -> None:
    sentences = HEADINGS[1]
    assert [is_heading(sentence) for sentence in sentences] == [False, True, False, True, False]


def test_wrapped_prose_lines_are_not_headings() -> None:
    text = "A long wrapped line of prose that goes on and on and\nSQLite continues it."
    assert sentence_spans(text) == [(0, len(text))]
    assert not is_heading("The sentence ends here.")
    # HTTPX's environment variables page, wrapped at 60 columns: a short line above one as
    # long that goes on is no title.
    wrapped = (
        "If this environment variable is set then HTTPX will load\n"
        "CA certificate from the specified file instead of the default\nlocation."
    )
    assert sentence_spans(wrapped) == [(0, len(wrapped))]
    titled = (
        "Results of the second experiment run\n"
        "We ran the experiment twice with the new settings and found that\n"
    )
    assert next(titled[a:b] for a, b in sentence_spans(titled)) == (
        "Results of the second experiment run"
    )


@given(st.text(max_size=500), st.data())
def test_sentence_spans_cover_text_in_order(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    spans = sentence_spans(text, start, end)
    position = start
    for s, e in spans:
        assert position <= s < e <= end
        assert text[s:e] == text[s:e].strip()
        assert not text[position:s].strip()
        position = e
    assert not text[position:end].strip()


RST_GUIDE = """Prompting
---------

Options can ask for their value when it is not given on the command line.

.. click:example::

    @click.command()
    @click.option('--name', prompt=True)
    def hello(name):
        click.echo(f"Hello {name}!")

For instance, you can ask for a valid integer::

    value = click.prompt('Please enter a valid integer', type=int)

    print(value + 1)

.. versionchanged:: 7.1
    The resulting value will always be one of the originally passed choices.

.. note:: Prompts are skipped entirely when the standard input is not a terminal.

.. warning::

    Never pass a password as a command line argument to the program.

        Indented under the warning, this block quote is prose as well.

.. _label-target:
"""


def test_rst_code_is_not_prose_and_admonitions_are() -> None:
    found = prose_of(RST_GUIDE)
    assert found == [
        "Options can ask for their value when it is not given on the command line.",
        "For instance, you can ask for a valid integer::",
        # a version note's first sentence is read with its version (Sphinx's label)
        ".. versionchanged:: 7.1\n    The resulting value will always be one of the originally"
        " passed choices.",
        "Prompts are skipped entirely when the standard input is not a terminal.",
        "Never pass a password as a command line argument to the program.",
        "Indented under the warning, this block quote is prose as well.",
    ]


def test_rst_blocks_mark_only_literal_and_directive_bodies_as_code() -> None:
    kinds = {
        RST_GUIDE[block.start : block.end].split("\n")[0]: block.kind
        for block in rst_blocks(RST_GUIDE)
    }
    assert kinds["@click.command()"] is BlockKind.CODE
    assert kinds["value = click.prompt('Please enter a valid integer', type=int)"] is BlockKind.CODE
    # the paragraphs of one literal block are one block: a chunk never ends inside it
    assert "print(value + 1)" not in kinds
    [example] = [
        b for b in rst_blocks(RST_GUIDE) if "print(value + 1)" in RST_GUIDE[b.start : b.end]
    ]
    assert example.kind is BlockKind.CODE
    assert RST_GUIDE[example.start : example.end].startswith("value = click.prompt(")
    assert kinds["Never pass a password as a command line argument to the program."] is (
        BlockKind.PARAGRAPH
    )
    assert kinds["Indented under the warning, this block quote is prose as well."] is (
        BlockKind.PARAGRAPH
    )


def test_a_list_items_literal_block_ends_where_the_items_text_goes_on() -> None:
    # Tornado's FAQ: the item's text is indented three columns, its code four; the
    # paragraph after the code, back at three, is the item's prose, not more code
    faq = TORNADO_FAQ_ITEM + (
        "- Indented under a bullet::\n\n"
        "    code = 1\n\n"
        "  The bullet's text goes on here in prose.\n\n"
        "9. An item of a list without blank lines\n"
        "10. Whose tenth item opens a block::\n\n"
        "     code = 10\n\n"
        "    The tenth item's text goes on here in prose.\n"
    )
    found = [" ".join(sentence.split()) for sentence in prose_of(faq, min_words=3)]
    assert "When this option is available, it is usually the best approach." in found
    assert "The bullet's text goes on here in prose." in found
    assert "The tenth item's text goes on here in prose." in found
    assert not any("range(5)" in s or "code = 1" in s for s in found)
    kinds = {faq[b.start : b.end].split("\n")[0].strip(): b.kind for b in rst_blocks(faq)}
    assert kinds["class CoroutineSleepHandler(RequestHandler):"] is BlockKind.CODE
    assert kinds["When this option is available, it is usually the best approach."] is (
        BlockKind.PARAGRAPH
    )


def test_a_chunk_opening_at_a_literal_blocks_line_inside_an_item_reads_its_prose() -> None:
    # Invoke's docs: the chunk opens two columns into a list item, at a one-line paragraph
    # opening a literal block; the item goes on at two columns below the code
    chunk = (
        "and then perhaps add the following to the end of ``~/.zshrc``::\n\n"
        "    source ~/.invoke-completion.sh\n\n"
        "  But again, this is entirely up to you and your shell.\n\n"
        "  .. note::\n"
        "    If you're using ``fish``, you *must* use this tactic.\n"
    )
    found = [" ".join(sentence.split()) for sentence in prose_of(chunk, min_words=3)]
    assert "But again, this is entirely up to you and your shell." in found
    assert "If you're using ``fish``, you *must* use this tactic." in found
    assert not any("invoke-completion" in s for s in found)
    example = "Run it like this::\n\n    $ inv build\n\nThen read the log."
    assert prose_of(example, min_words=3) == ["Run it like this::", "Then read the log."]


def test_code_cut_from_its_marker_is_not_prose() -> None:
    # A chunk that starts inside a long code block: the `.. code-block::` is out of sight.
    chunk = (
        "def get_command(self, ctx, cmd_name):\n"
        "        if cmd_name in self.lazy_subcommands:\n"
        "            return self._lazy_load(cmd_name)\n"
        "        return super().get_command(ctx, cmd_name)\n\n"
        "With the lazy group defined, a group can load its subcommands on first use.\n"
        "- A list item that wraps onto\n  a second line of prose here.\n"
    )
    found = prose_of(chunk)
    assert found == [
        "With the lazy group defined, a group can load its subcommands on first use.",
        "- A list item that wraps onto\n  a second line of prose here.",
    ]


def test_prose_below_an_example_in_a_chunk_cut_inside_an_indented_paragraph_is_prose() -> None:
    # A chunk is cut out trimmed: its first line opened six columns into a field, and read
    # at column 0 it made every indented paragraph below its "e.g.::" part of the example.
    chunk = (
        "Note that URL joining follows RFC 3986. This means, in the most\n"
        "      common case the request URLs should have no leading slash, e.g.::\n\n"
        '        session = ClientSession(base_url="http://example.com/foo/")\n\n'
        "   The session closes its connector when it is closed itself.\n"
    )
    found = prose_of(chunk)
    assert found[-1] == "The session closes its connector when it is closed itself."
    assert not any("ClientSession(" in sentence for sentence in found)
    # a directive opening a chunk: its body is indented under it, not a paragraph run on
    table = ".. list-table::\n   :header-rows: 1\n\n   * - Name of the event\n     - Description\n"
    assert prose_of(table, min_words=1) == []
    # an unindented text is read as before: the paragraphs below its "::" are code
    assert prose_of("You can run the build like this::\n\n   python -m build --wheel now\n") == [
        "You can run the build like this::"
    ]


def test_a_console_line_alone_is_no_prose_and_inside_a_sentence_stays() -> None:
    # R's manual as a PDF gives it: the example inside the sentence, no mark around it
    inside = "The attach\n> attach(lentils)\nplaces the data frame in the search path."
    assert prose_of(inside, min_words=1) == [inside]  # cut out, it left two fragments
    alone = "Start the program.\n\n> accountants <- data.frame(home=statef)\n\nThen stop it."
    assert prose_of(alone, min_words=1) == ["Start the program.", "Then stop it."]
    quote = "> This is a quote that\n> wraps onto two lines.\n\n> Note (see below) that it wraps"
    assert prose_of(quote, min_words=1) == [
        "> This is a quote that\n> wraps onto two lines.",
        "> Note (see below) that it wraps",
    ]


def test_a_console_line_followed_by_a_new_sentence_ends_the_one_it_closes() -> None:
    # lme4's paper (a JSS article) shows its examples so; the next sentence had run on
    text = (
        "We may use double-bar notation to fit a model that excludes a correlation "
        "parameter:\n> fm2 <- lmer(Reaction ~ Days + (Days || Subject), sleepstudy)\n"
        "Although mixed models with independent slopes are common, they have a drawback."
    )
    assert prose_of(text, min_words=1) == [
        "We may use double-bar notation to fit a model that excludes a correlation "
        "parameter:\n> fm2 <- lmer(Reaction ~ Days + (Days || Subject), sleepstudy)",
        "Although mixed models with independent slopes are common, they have a drawback.",
    ]
    two = (
        'Use these:\nR> library("sandwich")\nR> library("lmtest")\n\u201cQuoted\u201d text goes on.'
    )
    assert prose_of(two, min_words=1) == [
        'Use these:\nR> library("sandwich")\nR> library("lmtest")',
        "\u201cQuoted\u201d text goes on.",
    ]


def test_a_sentence_cut_off_at_an_article_or_a_conjunction_is_no_prose() -> None:
    # a paper's page ends inside a sentence: its chunk ends "… distribution the"
    chunk = (
        "Experiment III uses more general response distributions. For the zero-truncated "
        "and zero-inflated Poisson distribution the"
    )
    assert prose_of(chunk, min_words=1) == [
        "Experiment III uses more general response distributions."
    ]
    for cut in ("values of", "apples and", "the size of their", "larger than"):
        assert prose_of(f"Compare the {cut}", min_words=1) == []
    # a stop ends a sentence whatever its last word; a title may end with a preposition
    assert prose_of("This is what it consists of.", min_words=1) == ["This is what it consists of."]
    assert prose_of("Where the data comes from", min_words=1) != []


def test_a_title_block_keywords_and_lines_of_labels_are_no_prose() -> None:
    # lme4's paper's first page: title, authors, universities; then the abstract
    block = (
        "Fitting Linear Mixed-Effects Models Using lme4\nDouglas Bates\n"
        "University of Wisconsin-Madison\nMartin Mächler\nETH Zurich"
    )
    assert prose_of(block, min_words=1) == []
    wrapped = "The Strucplot Framework:\nVisualizing Multi-way Tables\nDavid Meyer\nWU Wien"
    assert prose_of(wrapped, min_words=1) == []  # a title wraps at its colon
    # lme4's "PLSvGLS": a long title wraps anywhere, a third of the lines at most
    long_title = (
        "Penalized least squares versus generalized\nleast squares representations of "
        "linear mixed\nmodels\nDouglas Bates\nDepartment of Statistics\nUniversity of "
        "Wisconsin – Madison\nOctober 31, 2022"
    )
    assert prose_of(long_title, min_words=1) == []
    keywords = "Keywords: contingency tables, mosaic plots, association plots, grid, R."
    assert prose_of(keywords, min_words=1) == []
    typed = 'R> library("sandwich")\nR> library("lmtest")'
    assert prose_of(typed, min_words=1) == []
    # a sentence broken around a display, wrapped prose and a lead-in to code stay prose
    for text in (
        "To see the list of datasets\ncurrently available use\ndata()",
        "Returns value is ``'application/octet-stream'`` if no\nContent-Type header "
        "present\naccording to the RFC",
        "Consider the following assignments\n> Xplus <- qr(X)\n> b <- qr.coef(Xplus, y)",
        # R's admin manual: a lead-in wrapped in lower case above the lines it introduces
        "Use a file\nconfig.site containing\nCC=$LOCAL/llvm/bin/clang\nOBJC=$CC\nFC=gfortran",
        "The data is shown\nbelow:\nAge: 20 35 45 55 70\nNo. tested: 50 50 50 50 50",
    ):
        assert prose_of(text, min_words=1) == [text]


def test_mathematics_and_numbers_read_out_of_a_pdf_are_no_prose() -> None:
    # sandwich's paper: a display's symbols; a matrix's rows (lme4's)
    for junk in ("0 · · · É(r(yn, x¦ n ˆ¹)) X.", "0.5 1.0 0.0", "1 -1 [6,] . . . ."):
        assert prose_of(junk, min_words=1) == []
    # a setting's value counts beside words; so does a reference's year
    for kept in ("* Default: 10000 (10 seconds)", "* V8: Upgrade to 3.19.0", "东京是日本的首都。"):
        assert prose_of(kept, min_words=1) == [kept]
    for kept in ("``{{ 20 // 7 }}`` is ``2``.", "* `h11` - HTTP/1.1 support."):
        assert prose_of(kept, min_words=3) == [kept]
    for kept in ("* `.status_code` - **int**", "* 100% test coverage.", "It is off."):
        assert prose_of(kept, min_words=1) == [kept]
    assert prose_of("0 · · · É(r(yn, x¦ n ˆ¹)) X.", min_words=1) == []


def test_a_question_states_nothing_to_quote() -> None:
    # zoo's FAQ: "I know that duplicate times are not allowed but my data has them. What
    # do I do?" had been quoted, question and all, as the answer
    faq = "My data has duplicate times. What do I do? Aggregate them with aggregate.zoo."
    assert prose_of(faq, min_words=1) == [
        "My data has duplicate times.",
        "Aggregate them with aggregate.zoo.",
    ]
    assert prose_of('Then he asked "Who divorces?"', min_words=1) == []
    # the FAQ's answer opens its line in lower case with the package's name
    assert prose_of("What do I do?\nzoo objects should not hold duplicates.", min_words=1) == [
        "zoo objects should not hold duplicates."
    ]


def test_a_displays_equation_number_ends_it() -> None:
    # sandwich's paper: "X." read as an initial had run the display into the next sentence
    text = "0 · · · É(r(yn, x¦\nn\nˆ¹))\nX. (9)\nThe outer product estimator is the basic one."
    assert prose_of(text, min_words=1) == ["The outer product estimator is the basic one."]


def test_statements_cut_from_their_indentation_are_not_prose() -> None:
    # A chunk is trimmed: a cut inside an indented block loses its first line's indent.
    chunk = (
        's = URLSafeSerializer("secret-key")\n    decoded_payload = None\n\n'
        "    try:\n        decoded_payload = s.loads(data)\n    except BadSignature:\n"
        "        pass\n\n>>> s.dumps([1, 2, 3])\n\nimport itsdangerous\n\n"
        "The first item in the returned tuple is a boolean.\n\n"
        "Set x = 1 in the settings file to turn it on\n\n"
        "timeout = 5 seconds is the default.\n"
    )
    found = prose_of(chunk, min_words=1)
    assert found == [
        "The first item in the returned tuple is a boolean.",
        "Set x = 1 in the settings file to turn it on",
        "timeout = 5 seconds is the default.",
    ]


def test_a_comment_cut_from_its_block_is_not_prose() -> None:
    chunk = (
        "async def main():\n        # The [str] specifies the type of the objects passed through"
        "\n        # the stream. This is a bit of trick, as create_memory_object_stream\n"
        "        # is actually a class.\n        send, receive = create_stream()\n\n"
        "    run(main)\n\nMemory object streams can be closed synchronously.\n"
        "# A heading line\n\nText after the heading line here.\n"
    )
    found = prose_of(chunk, min_words=1)
    assert found == [
        "Memory object streams can be closed synchronously.",
        "Text after the heading line here.",
    ]


def test_a_diagram_cut_from_its_directive_is_not_prose() -> None:
    """tox's chunk opened inside a `.. mermaid::` block, its edges read as a sentence."""
    chunk = (
        "extend --> core_config[tox_add_core_config]\n"
        "        core_config --> env_config[tox_add_env_config]\n\n"
        "        env_config --> envloop\n\n"
        "Each hook fires once per run. Map the input -> output pairs when needed.\n"
    )
    assert prose_of(chunk, min_words=1) == [
        "Each hook fires once per run.",
        "Map the input -> output pairs when needed.",
    ]


def test_a_term_above_its_indented_definition_is_prose() -> None:
    text = "``str`` / :data:`click.STRING`:\n    The default parameter type for unicode strings."
    assert prose_of(text) == [text]


def test_underlined_titles_and_rules_are_spans_of_their_own() -> None:
    text = (
        "Variadic Arguments\n------------------\n\nAn unlimited number is accepted.\n\n"
        "=====\nOver\n=====\n\nLazy Group\n``````````\n\nText.\n\n```python\nx = 1\n```\n\n"
        "[NOTE]\n====\nThis note line is long.\n====\n"
    )
    spans = [(text[a:b], is_title_or_rule(text, a, b)) for a, b in sentence_spans(text)]
    assert spans == [
        ("Variadic Arguments", True),
        ("------------------", True),
        ("An unlimited number is accepted.", False),
        ("=====", True),
        ("Over", True),
        ("=====", True),
        ("Lazy Group", True),
        ("``````````", True),
        # a code fence is no adornment (sentence_spans itself never cuts at blank lines)
        ("Text.\n\n```python\nx = 1\n```\n\n[NOTE]", False),
        ("====", True),  # an AsciiDoc block's delimiters are rules, its text is no title
        ("This note line is long.", False),
        ("====", True),
    ]
    assert prose_of(text, min_words=2) == [
        "An unlimited number is accepted.",
        "This note line is long.",
    ]
    assert unmarked("Limits\n======\n\n# Pool\nThe pool holds ten.") == (
        "Limits\n\n\nPool\nThe pool holds ten."
    )
    # reStructuredText adorns with any punctuation mark (coverage.py's FAQ uses dots);
    # a run of dots or hashes is an adornment only under (or over) a title
    faq = "Q: How is the total calculated?\n...............................\n\nIt counts."
    assert [(faq[a:b], is_title_or_rule(faq, a, b)) for a, b in sentence_spans(faq)] == [
        ("Q: How is the total calculated?", True),
        ("...............................", True),
        ("It counts.", False),
    ]
    dots = "It counts.\n\n.....\n\nThen it stops."
    assert not is_title_or_rule(dots, dots.index("....."), dots.index(".....") + 5)


def test_a_title_of_two_sentences_is_a_title_in_each_of_them() -> None:
    # jsonschema's FAQ: the extractive writer had quoted "My schema specifies format
    # validation." as a sentence of its answer.
    title = "My schema specifies format validation. Why do invalid instances seem valid?"
    text = f"{title}\n{'-' * len(title)}\n\nThe format keyword is a stumbling block. It is off."
    spans = [(text[a:b], is_title_or_rule(text, a, b)) for a, b in sentence_spans(text)]
    assert [title for _, title in spans] == [True, True, True, False, False]
    assert prose_of(text, min_words=2) == [
        "The format keyword is a stumbling block.",
        "It is off.",
    ]
    prose = "It counts. Then it stops.\n\nMore text follows here."
    assert not any(is_title_or_rule(prose, a, b) for a, b in sentence_spans(prose))
    long = "A first sentence of a line far too long to be a title. " * 5 + "Is it one?"
    text = f"{long}\n{'-' * len(long)}\n\nText."
    assert [is_title_or_rule(text, a, b) for a, b in sentence_spans(text)][:6] == [False] * 6


def test_a_seealso_entry_a_link_and_its_description_ending_in_code_is_no_prose() -> None:
    # jsonschema's FAQ: the extractive writer quoted "Draft 2019-09's release notes on format
    # [8]. for upstream details on the behavior of format and how it has changed in …"
    text = (
        "Format validation is off by default in every draft.\n\n.. seealso::\n\n"
        "    `Draft 2019-09's release notes on format <https://json-schema.org/x.html#f>`_\n\n"
        "        for upstream details on the behavior of format and how it has changed\n"
        "        in ``draft2019-09``\n\n"
        "See [the changelog](changes.md) for details on older releases.\n\n"
        "[Installed analytics on the pip docs](https://github.com/pypa/pip/pull/9146).\n"
    )
    assert prose_of(text) == [
        "Format validation is off by default in every draft.",
        "See [the changelog](changes.md) for details on older releases.",  # a sentence
    ]


def test_a_link_description_that_opens_in_lower_case_without_a_stop_is_no_prose() -> None:
    # jsonschema's FAQ lists links in a `.. seealso::`, each described below it; the
    # extractive writer had quoted "for details on how to enable format validation [3]."
    text = (
        "Format validation is off by default in every draft.\n\n.. seealso::\n\n"
        "    `validating formats`\n\n"
        "        for details on how to enable format validation\n\n"
        "    `jsonschema.FormatChecker`\n\n"
        "        the object which implements format validation\n\n"
        "urllib3 will issue several different warnings about certificates.\n"
    )
    assert prose_of(text, min_words=5) == [
        "Format validation is off by default in every draft.",
        "urllib3 will issue several different warnings about certificates.",
    ]
    kept = (
        'The list below says it.\n\n- item one\n\n  this is what the docs call "the rule."\n\n'
        "  the timeout is in seconds. It defaults to five unless you set `timeout`\n"
    )
    assert prose_of(kept, min_words=2)[2:] == [
        'this is what the docs call "the rule."',  # a stop inside the closing quote
        "the timeout is in seconds.",  # more than one sentence: prose
        "It defaults to five unless you set `timeout`",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Run it:\n\n```\nls\n```\n\nThis sentence is plain prose after the code block.\n",
        "```bash\nif x; then\n  y\n\nfi\n```\n\n"
        "This sentence is plain prose after the code block.\n",
        "~~~~~~~~\nOptions\n~~~~~~~~\n\nThis sentence is plain prose after the code block.\n",
        "Section Title\n~~~~~~\n\nThis sentence is plain prose after the code block.\n",
        "Intro.\n\n~~~~\n>>> 1 + 1\n>>> client.close()\n~~~~\n\n"
        "This sentence is plain prose after the code block.\n",
        "Here is the config:\n~~~~\n{\n}\n~~~~\n\n"
        "This sentence is plain prose after the code block.\n",
        "# Timeouts\r\n\r\nThis sentence is plain prose after the code block.\r\n",
        ".. tabs::\n\n   .. code-tab:: python\n\n      import click\n"
        "      click.echo('Hello there')\n\n"
        "This sentence is plain prose after the code block.\n",
        '<p align="center">\n  <img src="x.png" alt=\'A picture\'>\n</p>\n\n'
        "This sentence is plain prose after the code block.\n",
    ],
)
def test_a_fence_or_tilde_title_never_hides_the_prose_after_it(text: str) -> None:
    assert prose_of(text) == ["This sentence is plain prose after the code block."]


def test_prose_is_kept_beside_rules_terms_and_containers() -> None:
    text = (
        "Timeouts default to five seconds in every client.\n" + "*" * 52 + "\n\n"
        "timeout (float):\n    Seconds to wait for the server to answer.\n\n"
        "The model was trained on the full\n corpus of documents and then\nevaluated there.\n\n"
        ".. deprecated:: 3.1 Use the spam function in every case instead.\n\n"
        ".. tabs::\n\n    .. group-tab:: Bash\n\n        Source the file in your shell startup.\n\n"
        "        .. code-block:: bash\n\n            eval one two three four five six\n"
    )
    assert prose_of(text) == [
        "Timeouts default to five seconds in every client.",
        "timeout (float):\n    Seconds to wait for the server to answer.",
        "The model was trained on the full\n corpus of documents and then\nevaluated there.",
        ".. deprecated:: 3.1 Use the spam function in every case instead.",  # with its version
        "Source the file in your shell startup.",
    ]


def test_titles_on_one_long_line_cost_linear_time() -> None:
    text = "This is a sentence of prose with several words. " * 20_000  # 1 MB, one line
    assert len(prose_sentences(text)) == 20_000
    # a line break after it: each sentence looks for its line's ends a title's length away
    assert len(prose_sentences(text + "\nThe end of the text is here.\n")) == 20_001


def test_rst_roles_are_written_as_a_reader_sees_them() -> None:
    text = (
        "Call :func:`confirm`; see :ref:`Prompting <option-prompting>` or :ref:`defaults`; "
        "a :class:`~click.core.ParameterSource` member; :py:meth:`Context.invoke` at 10:30."
    )
    assert rendered_roles(text) == (
        "Call `confirm`; see Prompting or `defaults`; a `click.core.ParameterSource` member; "
        "`Context.invoke` at 10:30."
    )
    assert rendered_roles("thanks to :pep:`538`; :math:`a<b>`; :func:`open <io.open>`") == (
        "thanks to PEP 538; `a<b>`; `open`"
    )
    # setuptools: a titled PEP shows its title, not "PEP in-tree backend <517#…>"
    assert rendered_roles(
        "using an :pep:`in-tree backend <517#in-tree-build-backends>`; see "
        ":pep:`PEP 508 <508#environment-markers>`"
    ) == ("using an in-tree backend (PEP 517); see PEP 508")
    # Django's: a role's text run onto the next line, and its own cross-reference roles
    django = "See :ref:`JSON serialization\n<formats-json>`; :setting:`TIMEOUT <CACHES-TIMEOUT>`."
    assert rendered_roles(django) == "See JSON serialization; `TIMEOUT`."
    assert rendered_roles(":func:`a\n\nb`") == ":func:`a\n\nb`"  # never past a blank line
    # another project's object (intersphinx) without that project's name; a label keeps it
    intersphinx = (
        ":func:`python:os._exit`, :class:`~psycopg:psycopg_pool.ConnectionPool`, "
        ":envvar:`python:PYTHONWARNINGS`, :ref:`sqla:naming`, :option:`--x=a:b`"
    )
    assert rendered_roles(intersphinx) == (
        "`os._exit`, `psycopg_pool.ConnectionPool`, `PYTHONWARNINGS`, `sqla:naming`, `--x=a:b`"
    )
    # an object looked up from the current module (Alembic's); a file keeps its dot
    relative = ":meth:`.Operations.add_column`, :paramref:`~.x.copy_from`, :file:`.coveragerc`"
    assert rendered_roles(relative) == "`Operations.add_column`, `x.copy_from`, `.coveragerc`"
    assert strip_layout("Use :func:`confirm` [1].\n\n```rst\n:func:`kept`\n```") == (
        "Use `confirm` [1].\n\n```rst\n:func:`kept`\n```"
    )


def test_change_log_roles_are_written_as_their_extensions_show_them() -> None:
    # Invoke's change log (the `releases` extension): "`742` Define …" had been quoted
    invoke = (
        "- :release:`3.0.3 <2026-04-07>`\n- :bug:`742` Define a custom ``__repr__``.\n"
        "- :feature:`-` Drop Python 3.8.\n- :bug:`1011 major`: fixed in :issue:`1040`."
    )
    assert rendered_roles(invoke) == (
        "- 3.0.3 (2026-04-07)\n- Bug #742: Define a custom ``__repr__``.\n"
        "- Feature: Drop Python 3.8.\n- Bug #1011: fixed in #1040."
    )
    # pytest's (sphinx-issues): users, pull requests, titled and foreign issues
    pytest = (
        "Thanks :user:`nicoddemus` for the PR (:pr:`12`); :issue:`file an issue <new>`; "
        ":issue:`python/cpython#61648`."
    )
    assert rendered_roles(pytest) == (
        "Thanks @nicoddemus for the PR (#12); file an issue; python/cpython#61648."
    )
    # inside a sentence a role takes no colon; titles, "@" and dates alone (review)
    assert rendered_roles("See :bug:`742` for details; fixed in :bug:`743`.") == (
        "See Bug #742 for details; fixed in Bug #743."
    )
    assert rendered_roles(":user:`@x`, :issue:`742 <https://x.org/742>`, :gh:`4365`") == (
        "@x, #742, #4365"
    )
    assert rendered_roles("- :release:`<2026-04-07>`\n- :bug:`1.2.3` Fixed.") == (
        "- 2026-04-07\n- Bug 1.2.3: Fixed."
    )


def test_a_line_of_many_change_log_roles_is_read_in_linear_time() -> None:
    started = time.perf_counter()
    assert rendered_roles(":bug:`1` " * 50_000).startswith("Bug #1: Bug #1 ")
    assert time.perf_counter() - started < 5.0


def test_myst_roles_are_written_as_a_reader_sees_them() -> None:
    text = (
        "Use {func}`attrs.evolve`, {term}`Slotted classes <slotted classes>` and "
        "{py:class}`~attrs.Attribute`; a set {like}, then `code`; {term}`dunder methods`."
    )
    assert rendered_roles(text) == (
        "Use `attrs.evolve`, Slotted classes and `attrs.Attribute`; a set {like}, then `code`; "
        "dunder methods."
    )


def test_myst_colon_fences_and_targets_are_no_prose() -> None:
    text = (
        "Embrace functions and classmethods.\n\n:::{important}\nWhile attrs is powerful, "
        "it is **not** a serialization system.\n\nWe want to help you.\n:::\n\n"
        "(private-attributes)=\n\n## Private Attributes\n"
    )
    assert prose_of(text, min_words=1) == [
        "Embrace functions and classmethods.",
        "While attrs is powerful, it is **not** a serialization system.",
        "We want to help you.",
    ]


def test_myst_directives_fenced_as_prose_are_prose_and_their_code_is_code() -> None:
    # cattrs' and pip's docs: a note in backtick fences had been read as a code block.
    text = (
        "Hooks cover most types.\n\n```{note}\n"
        "Attributes annotated with `typing.Self` are not supported by the BaseConverter.\n```\n\n"
        "````{tab} Linux\n```\n~/.cache/pip\n```\n\npip will also respect `XDG_CACHE_HOME`.\n"
        "````\n\n```{versionadded} 20.1\n\n```\n\n```{pip-cli}\n$ pip cache dir\n```\n\n"
        "```python\nconverter = Converter()\n```\n\nThe end of the page is prose again.\n"
    )
    assert prose_of(text, min_words=3) == [
        "Hooks cover most types.",
        "Attributes annotated with `typing.Self` are not supported by the BaseConverter.",
        "pip will also respect `XDG_CACHE_HOME`.",
        "The end of the page is prose again.",
    ]
    code = [text[a:b] for a, b in fenced_blocks(text)]
    assert code == [
        "```\n~/.cache/pip\n```",
        "```{pip-cli}\n$ pip cache dir\n```",
        "```python\nconverter = Converter()\n```",
    ]
    kinds = [(b.kind, text[b.start : b.end].split("\n")[0]) for b in markdown_blocks(text)]
    assert (BlockKind.PARAGRAPH, "```{note}") in kinds
    assert (BlockKind.PARAGRAPH, "````{tab} Linux") in kinds
    assert (BlockKind.CODE, "```{pip-cli}") in kinds  # an extension's directive: not read
    # an info string is read trimmed, by the fence reader as by the Markdown parser
    spaced = "Intro text here.\n\n``` {note}\nA note with words in it.\n```\n"
    assert fenced_blocks(spaced) == []
    assert prose_of(spaced, min_words=3) == ["Intro text here.", "A note with words in it."]
    assert [b.kind for b in markdown_blocks(spaced)] == [BlockKind.PARAGRAPH] * 2


def test_a_fence_opening_a_list_item_is_a_fence() -> None:
    # pip's configuration page: "- ```" went uncounted, the fences came out odd, and the
    # prose above them read as code ("`PIP_TIMEOUT=60` is the same as `--timeout=60`").
    text = (
        "Options can be set with environment variables using the format `PIP_<NAME>`.\n\n"
        "- `PIP_TIMEOUT=60` is the same as `--timeout=60`\n"
        '- ```\n  PIP_FIND_LINKS="http://a http://b"\n  ```\n\n'
        "  is the same as\n\n  ```\n  --find-links=http://a\n  ```\n\n"
        "Repeatable options are specified using the number of repetitions.\n"
    )
    assert prose_of(text) == [
        "Options can be set with environment variables using the format `PIP_<NAME>`.",
        "- `PIP_TIMEOUT=60` is the same as `--timeout=60`",
        "Repeatable options are specified using the number of repetitions.",
    ]
    assert [text[a:b].split("\n")[1].strip() for a, b in fenced_blocks(text)] == [
        'PIP_FIND_LINKS="http://a http://b"',
        "--find-links=http://a",
    ]


def test_mkdocs_containers_open_with_a_line_of_their_own() -> None:
    # Admonitions, collapsible blocks and content tabs of mkdocs' sites (Starlette's docs):
    # the opening line is neither a sentence nor the start of one; the body is prose.
    text = (
        'The cookie then expires at once.\n\n!!! warning "Partitioned cookies require Secure"\n'
        "    Pass `secure=True` when deleting a partitioned cookie.\n\n"
        '??? info "Compression of streaming responses"\n'
        "    On streaming responses, the middleware compresses every chunk.\n\n"
        '=== "Python"\n    Install the package from the index first.\n\n'
        "::: httpx.HTTPError\n    :docstring:\n"
    )
    assert prose_of(text) == [
        "The cookie then expires at once.",
        "Pass `secure=True` when deleting a partitioned cookie.",
        "On streaming responses, the middleware compresses every chunk.",
        "Install the package from the index first.",
    ]


def test_a_nested_mkdocs_container_opens_with_a_line_of_its_own() -> None:
    # Hatch's metadata page nests content tabs: the indented tab line and the sentence under
    # it were one span that reads as no prose, and what the tab says was never quoted
    text = (
        "The full description of the project.\n\n"
        '=== ":octicons-file-code-16: pyproject.toml"\n\n'
        '    === "Complex"\n'
        "        The `content-type` field must be set to `text/markdown` or `text/plain`.\n\n"
        '        === "File"\n'
        "            A `charset` field may also be set to instruct which encoding to\n"
        "            use for reading the file, defaulting to `utf-8`.\n\n"
        '    !!! note "Included"\n'
        "        A readme defined as a file is always included in source distributions.\n"
    )
    assert [" ".join(sentence.split()) for sentence in prose_of(text)] == [
        "The full description of the project.",
        "The `content-type` field must be set to `text/markdown` or `text/plain`.",
        "A `charset` field may also be set to instruct which encoding to use for reading the"
        " file, defaulting to `utf-8`.",
        "A readme defined as a file is always included in source distributions.",
    ]


def test_eg_and_ie_end_no_sentence() -> None:
    text = "A regex of origins to permit. eg. `'https://.*\\.org'`. Then (ie. you ran it) more."
    assert sentences_of(text) == [
        "A regex of origins to permit. eg. `'https://.*\\.org'`.",
        "Then (ie. you ran it) more.",
    ]


def test_a_documents_own_reference_after_the_stop_ends_the_sentence_with_it() -> None:
    text = "Paris is the capital of France.[3] It has 2,102,650 residents.[4][5] Since then, more."
    assert sentences_of(text) == [
        "Paris is the capital of France.[3]",
        "It has 2,102,650 residents.[4][5]",
        "Since then, more.",
    ]


def test_a_quotation_closed_after_a_space_ends_its_sentence() -> None:
    # the embedded model's quote of a source, then its next line
    text = 'It states: "The body is counted. "\nRouting.md also says so. He said. "Next one.'
    assert sentences_of(text) == [
        'It states: "The body is counted. "',
        "Routing.md also says so.",
        "He said.",
        '"Next one.',
    ]


def test_a_plural_after_code_ends_a_sentence_an_initial_does_not() -> None:
    text = (
        "It searches the class for instances of `attr.ib`s.\nInternally they are records. "
        "J. Smith wrote the book it was. Then more."
    )
    assert sentences_of(text) == [
        "It searches the class for instances of `attr.ib`s.",
        "Internally they are records.",
        "J. Smith wrote the book it was.",
        "Then more.",
    ]


def test_a_letter_before_a_word_that_names_nobody_ends_its_sentence() -> None:
    # lme4's paper: "… in R." and "… model matrix Z." had run on into the next sentence
    text = (
        "Models can be efficiently analyzed in R.\nWe have learned much. It is the model "
        "matrix Z. We group its columns. Written by J. Smith and by A. In Park."
    )
    assert sentences_of(text) == [
        "Models can be efficiently analyzed in R.",
        "We have learned much.",
        "It is the model matrix Z.",
        "We group its columns.",
        "Written by J. Smith and by A.",
        "In Park.",
    ]
    # wrapped before the letter, or after a word of a label inside a sentence, it ends one
    for ended in (
        "You can mitigate this limitation by using set palette with a reasonably small value of"
        "\nN. This option selects colors.",
        "Figure 5 shows the results from a supplementary experiment that is analogous to\n"
        "Experiment I. The two differences are small.",
        "It is included with R. However, the routines may differ.",
        "Suppose lentils has lentils$v,\nlentils$w. The attach places it.",
    ):
        assert len(sentence_spans(ended)) == 2, ended
    # a list's lettered items, labels, and names going on with "and" stay whole
    for whole in (
        "Steps:\na. The first item is here.\nb. The second item is here.",
        "See Appendix A. The data set is here.",
        "The method of H. An and J. Smith is used here.",
        "Proposed by X. To and Y. Li in 2019.",
    ):
        assert len(sentence_spans(whole)) == 1, whole


def test_prose_after_an_examples_output_opens_a_sentence() -> None:
    # zoo's paper: the sentence after an example's output had been one with the example
    text = (
        "The cbind method fills gaps by NAs.\nR> cbind(z1, z2)\nz1 z2\n"
        "2004-01-03 NA 0.94306673\nIn\nfact, the cbind method is synonymous with merge."
    )
    assert sentences_of(text)[-1] == ("In\nfact, the cbind method is synonymous with merge.")
    # Bash's manual: a term alone after a finished sentence opens the sentence it names
    text = (
        "If set, Readline attempts to ring the terminal's\nbell.\nbind-tty-special-chars\n"
        "If set to on, Readline binds the control keys.\ndisplay-shell-version (C-x C-v)\n"
        "Display version information."
    )
    assert sentences_of(text) == [
        "If set, Readline attempts to ring the terminal's\nbell.",
        "bind-tty-special-chars\nIf set to on, Readline binds the control keys.",
        "display-shell-version (C-x C-v)\nDisplay version information.",
    ]
    options = "It runs (see below).\n--no-environ\nDo not read any user file."
    assert sentences_of(options)[1].startswith("--no-environ")
    crlf = text.replace("\n", "\r\n")
    assert sentences_of(crlf)[1].startswith("bind-tty-special-chars")
    # a long key of hyphens above a sentence is read once (it had taken minutes to fail)
    key = "Paste the key:\n" + "ab-" * 2000 + "=\nThe server checks the key."
    assert sentences_of(key)[-1] == "The server checks the key."
    for goes_on in (
        # a citation wrapped after "see", a definition list's term, a line indented under it
        "The estimator is consistent under weak conditions and was studied before, see\n"
        "Zeileis and Hornik 2007 for the details of its proof.",
        "``int`` / :data:`click.INT`:\n    A parameter that only accepts integers.",
        "Its estimates 0.25 0.5 in\nSection two of the appendix are close.",
        "x = 1\n    The value of x is one.",
        "It holds for 3 > 2,\nThe rest of the proof follows.",
    ):
        assert len(sentence_spans(goes_on)) == 1, goes_on


@pytest.mark.parametrize(
    ("chunk", "expected"),
    [
        # A chunk of a long example: its fence closes the block the chunk opened inside.
        (
            '    """\n    Create a clean test database every time the tests are run.\n    """\n'
            "    url = settings.DATABASE_URL\n    yield client\n```\n\n"
            "The fixture runs once for the whole test session.\n",
            ["The fixture runs once for the whole test session."],
        ),
        # A bare fence under a line that introduces it opens a block, as CommonMark reads it.
        (
            "Will send debug level output to the console, or wherever it is directed:\n\n"
            "```\nDEBUG [2024-09-28] httpcore.connection - connect_tcp.started\n",
            ["Will send debug level output to the console, or wherever it is directed:"],
        ),
        (
            "Will send debug level output to the console, or wherever it is directed too...\n\n"
            "```\nDEBUG [2024-09-28] httpcore.connection - connect_tcp.started\n",
            ["Will send debug level output to the console, or wherever it is directed too..."],
        ),
        # An opening fence names its language: the chunk is cut inside the block below it.
        (
            "Here is a longer example of the settings module.\n\n```python\nx = 1\n",
            ["Here is a longer example of the settings module."],
        ),
    ],
    ids=["opens-inside", "introduced", "introduced-by-an-ellipsis", "language"],
)
def test_a_chunk_opening_inside_a_fenced_block_is_read_as_code(
    chunk: str, expected: list[str]
) -> None:
    assert prose_of(chunk) == expected


def test_an_autodoc_directives_body_is_prose_and_its_options_markup() -> None:
    # Scrapy describes Request's parameters and attributes under `.. autoclass::`; the body
    # had been one block of code, cut between its lines ("For" | "example, if you set …")
    text = (
        ".. autoclass:: scrapy.Request\n   :members:\n\n"
        "    A common use of request metadata is to define request-specific parameters.\n"
        "    For example, if you set ``dont_retry`` to ``True``, the request is never retried.\n"
        "\n.. autosummary::\n\n    scrapy.Request.replace\n"
    )
    assert [" ".join(s.split()) for s in prose_of(text)] == [
        "A common use of request metadata is to define request-specific parameters.",
        "For example, if you set ``dont_retry`` to ``True``, the request is never retried.",
    ]
    kinds = {text[b.start : b.end].split()[0]: b.kind for b in rst_blocks(text)}
    assert kinds["A"] is not BlockKind.CODE
    assert kinds["scrapy.Request.replace"] is BlockKind.CODE


def test_markup_lines_that_state_nothing_are_blanked_and_prose_stays() -> None:
    from citesynth.ingest.rst import markup_blanked

    text = (
        "Task groups\n-----------\n\n.. autofunction:: anyio.create_task_group\n"
        ".. autoclass:: anyio.abc.TaskGroup\n   :members:\n   :inherited-members:\n\n"
        ".. _Trio: https://trio.readthedocs.io/en/latest/\n   #cancellation\n\n"
        "::: httpx.Client\n\n.. note:: Prose in a note stays.\n\n"
        ".. versionchanged:: 4.0\n   So does a version note.\n\n"
        ".. code-block:: python\n\n   tg.start_soon(task)\n"
    )
    blanked = markup_blanked(text)
    assert blanked.split("\n") == [
        "Task groups", "-----------", "", "", "", "", "", "", "", "", "", "", "",
        ".. note:: Prose in a note stays.", "",
        ".. versionchanged:: 4.0", "   So does a version note.", "",
        "", "", "   tg.start_soon(task)", "",
    ]  # fmt: skip
    assert markup_blanked("Plain prose, no markup.") == "Plain prose, no markup."


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Use the faster uvloop_ event loop.", "Use the faster uvloop event loop."),
        ("See `Trio`_ and `the docs\n<https://x.org/a#b>`_.", "See Trio and the docs."),
        ("An anonymous `link <https://x.org>`__ here.", "An anonymous link here."),
        ("Adjust this limit like this::\n\n   x = 1", "Adjust this limit like this:\n\n   x = 1"),
        ("A block follows ::\n\n   x = 1", "A block follows\n\n   x = 1"),
        (":func:`confirm` asks, like Trio_.", "`confirm` asks, like Trio."),
        # code and what only looks like a reference stay
        ("``class_``, `type_`, __init__, a_b, a[::2], std::vector", None),
        ("mail user@host_ or http://x_ or x-_ alone", None),
        # Markdown's emphasis closes with an underscore too (HTTPX's, cattrs' docs)
        ("a new connection _for every single request_ (each)", None),
        ("These are called _predicate hooks_, and _one_ more.", None),
        ("See _this_ and Trio_ too.", "See _this_ and Trio too."),
        ("* __Middle-Word Emphasis__ and __strong__ runs", None),  # Python-Markdown's docs
        ("See __this__ and Trio__ too.", "See __this__ and Trio too."),
        # a directive's own marker is no literal block's (cattrs' API pages)
        ("cattrs.gen package … .. automodule:: cattrs.gen :members:", None),
        ("Log to [out](https://en.wikipedia.org/wiki/Standard_out#Standard_output_.28s.29).", None),
        # a titled reference in the default role (marshmallow's): a name as code, a phrase
        # as words
        ("It uses `utils.get_value <marshmallow.utils.get_value>`.", "It uses `utils.get_value`."),
        (
            "See `fields module documentation\n<marshmallow.fields>`.",
            "See fields module documentation.",
        ),
        ("C++ `vector <int>` and ``x <a.b>`` are code", None),
        # an auto-numbered item as a plain one (APScheduler's guide); not a "#." inside a line
        ("#. by calling ``remove_job``\n   #. nested", "- by calling ``remove_job``\n   - nested"),
        ("Tag it #. then push", None),
        # a footnote's or a citation's reference is a raised mark, not a citation "[1]"
        # (Celery's "concurrency slots [*]_ (processes/threads/green-threads)")
        ("the concurrency slots [*]_ (processes).", "the concurrency slots (processes)."),
        (
            "Set it to 4 [#]_. Geometries [#fnogc]_ are freed [CIT2002]_ [2]_.",
            "Set it to 4. Geometries are freed.",
        ),
        ("``x[1]_y``, a[1]_b and a[2]", None),
        # Tornado's default-role names Sphinx searches for and shortens ("~."); Markdown's
        # `~mask`, `~df.isna()` (a negation) and `.gitignore` stay
        (
            "`~.RequestHandler.get_user_locale` - returns `.Locale` object.",
            "`RequestHandler.get_user_locale` - returns `.Locale` object.",
        ),
        ("``~.x`` and `~` and `. a` and `.gitignore` and `~mask` and `~df.isna()`", None),
        # Invoke's dotted names Sphinx shortens ("~"), shown in full
        (
            "Return a dummy `~invoke.runners.Result` object; see `~invoke.run`.",
            "Return a dummy `invoke.runners.Result` object; see `invoke.run`.",
        ),
        ("``~invoke.run`` and `~mask.any()` and `~ x.y`", None),
        # a version note's directive as Sphinx labels it (Jinja's "versionadded:: 3.1")
        (
            ".. versionadded:: 3.1\n    A context can be passed.",
            "Added in version 3.1: \n    A context can be passed.",
        ),
        (
            ".. deprecated:: 2.0 Use ``x`` instead.",
            "Deprecated since version 2.0: Use ``x`` instead.",
        ),
        (".. versionchanged:: 1.4.2", "Changed in version 1.4.2: "),
        ("``.. versionadded:: 3.1`` and .. note:: text", None),
    ],
)
def test_rst_markup_is_rendered_as_a_reader_sees_it(text: str, read: str | None) -> None:
    from citesynth.ingest.rst import rendered_rst

    assert rendered_rst(text) == (text if read is None else read)


def test_a_version_notes_first_sentence_is_read_with_its_version() -> None:
    text = (
        "Pass a context as the first token.\n\n.. versionadded:: 3.1\n"
        "    A context can be passed to the ``trans`` tag. It then picks ``pgettext`` for you.\n\n"
        ".. note:: Notes keep their own text only.\n"
    )
    read = [text[a:b] for a, b in prose_sentences(text)]
    assert read == [
        "Pass a context as the first token.",
        ".. versionadded:: 3.1\n    A context can be passed to the ``trans`` tag.",
        "It then picks ``pgettext`` for you.",
        "Notes keep their own text only.",
    ]


def test_a_version_notes_body_below_its_directive_is_read_with_its_version() -> None:
    # jsonschema: "Since which release has cls_checks been deprecated?" (v4.14.0)
    text = (
        "    .. classmethod:: cls_checks(format, raises=())\n\n"
        "        Register a decorated function as globally validating a new format.\n\n"
        "        .. deprecated:: v4.14.0\n\n"
        "            Use `FormatChecker.checks` on an instance instead.\n\n"
        ".. versionadded:: 2.11\n\n"
        "The ``--json`` option can be used with the ``-L`` option.\n"
    )
    read = [text[a:b] for a, b in prose_sentences(text)]
    assert read == [
        "Register a decorated function as globally validating a new format.",
        ".. deprecated:: v4.14.0\n\n            Use `FormatChecker.checks` on an instance instead.",
        "The ``--json`` option can be used with the ``-L`` option.",  # not the note's body
    ]


def test_an_rst_auto_numbered_item_is_prose_and_a_heading_mark_is_not() -> None:
    text = "Two ways exist:\n\n#. Using the marker on each test\n#. Using the fixture in a test\n"
    found = prose_of(text, min_words=3)
    assert found == [
        "Two ways exist:",
        "Using the marker on each test",  # as the items of a numbered list read
        "Using the fixture in a test",
    ]
    assert prose_sentences("# A heading of a page\n", min_words=3) == []


def test_rendering_rst_reads_a_long_line_once() -> None:
    # Each reference, emphasis opener or marker is read within a bounded window: a line of
    # 100,000 of them costs one pass (scanning the line before each had made it quadratic).
    from citesynth.ingest.rst import rendered_rst

    assert rendered_rst("uvloop_ " * 100_000) == "uvloop " * 100_000
    assert rendered_rst("__a " * 100_000) == "__a " * 100_000
    assert rendered_rst("_a " * 100_000) == "_a " * 100_000  # openers never closed
    assert rendered_rst("see:: " * 100_000) == "see: " * 100_000
    assert rendered_rst("`a <b.c>` " * 100_000) == "`a` " * 100_000
    assert rendered_rst("`~.a` " * 100_000) == "`a` " * 100_000
    assert rendered_rst("`a\n" + " " * 100_000 + "x`_") == "a x"  # a reference's spaces
    assert rendered_rst("`a " * 100_000 + "<b.c>`") == "`a " * 99_999 + "`a`"


def test_front_matter_is_no_prose_but_a_rule_above_text_is_no_front_matter() -> None:
    # Python-Markdown's docs: "title: New Line to Break Extension" ran into the summary
    front = (
        "---\ntitle: New Line to Break Extension\n\ntags:\n  - markdown\n---\n\n"
        "New-Line-to-Break Extension\n===========================\n\n"
        "The extension will cause newlines to be treated as hard breaks.\n"
    )
    assert prose_of(front) == ["The extension will cause newlines to be treated as hard breaks."]
    ruled = "---\n\nA rule above this sentence is fine.\n\n---\n\nAnd more text after it.\n"
    assert prose_of(ruled) == ["A rule above this sentence is fine.", "And more text after it."]
    # a rule above a heading and a list opens no front matter (review)
    log = (
        "---\n\n## Changelog\n\n- Fixed a bug in the parser today.\n\n---\n\n"
        "More text is here now.\n"
    )
    assert prose_of(log) == ["- Fixed a bug in the parser today.", "More text is here now."]


def test_front_matter_that_never_closes_is_read_in_linear_time() -> None:
    # review: the first pattern took 17 s on 24 CRLF key lines of an unclosed front matter
    started = time.perf_counter()
    for text in (
        "---\r\ntitle: Guide\r\n" + "key: value\r\n" * 5_000 + "Last Modified: 2024\r\n",
        "---\r\n\r\n" + "- Item number of the list\r\n" * 5_000 + "\r\nSome prose here.",
        "---\n" + " \n" * 50_000 + "Prose here.",
    ):
        prose_sentences(text)
    assert time.perf_counter() - started < 2.0


def test_a_grid_table_is_no_prose() -> None:
    # Jinja's docs: "(1 indexed) | +----+ | `loop.index0` | The current …" was quoted
    text = (
        "Inside of a for-loop block, you can access some special variables:\n\n"
        "+-----------------+------------------------------------+\n"
        "| Variable        | Description                        |\n"
        "+=================+====================================+\n"
        "| `loop.index`    | The current iteration. (1 indexed) |\n"
        "+-----------------+------------------------------------+\n"
        "| `loop.index0`   | The current iteration. (0 indexed) |\n"
        "+-----------------+------------------------------------+\n\n"
        "Unlike in Python, it's not possible to break in a loop.\n"
    )
    assert prose_of(text) == [
        "Inside of a for-loop block, you can access some special variables:",
        "Unlike in Python, it's not possible to break in a loop.",
    ]
    # a sentence right above a table, no blank line between, is prose (review); a chunk
    # cut inside a row opens with none
    above = "The options below control how tables are read.\n| Option | Meaning |\n|---|---|\n"
    assert prose_of(above) == ["The options below control how tables are read."]
    cut = "(1 indexed)    |\n+------+------+\n| `loop.index0` | The iteration. |\n+------+------+\n"
    assert prose_of(cut) == []
    started = time.perf_counter()
    prose_sentences("Intro sentence here.\n" + " " * 100_000 + "x")
    prose_sentences("|---|---" + " " * 100_000 + "x")
    assert time.perf_counter() - started < 2.0


def test_a_markdown_link_definition_is_no_prose_but_a_footnote_is() -> None:
    # Python-Markdown's docs: "[bug tracker]: https://github.com/…" lines were quoted.
    text = (
        "Report bugs to the bug tracker of the project.\n\n"
        "[third party extension]: https://github.com/Python-Markdown/markdown/wiki\n"
        '[syntax rules]: <https://daringfireball.net/projects/markdown/syntax> "Syntax"\n\n'
        "[^1]: The first paragraph of the definition is a sentence.\n\n"
        "[Note]: the label of a paragraph followed by words is prose.\n"
    )
    assert prose_of(text) == [
        "Report bugs to the bug tracker of the project.",
        "[^1]: The first paragraph of the definition is a sentence.",
        "[Note]: the label of a paragraph followed by words is prose.",
    ]
    # prose below definitions in the same paragraph stays (review)
    below = "[docs]: https://x.org/docs\nSee the [docs] for more on configuring the parser.\n"
    assert prose_of(below) == ["See the [docs] for more on configuring the parser."]


def test_the_fields_of_a_field_list_are_no_prose() -> None:
    # tenacity's docs: a custom callback's fields were quoted as one sentence of an answer.
    text = (
        "It's also possible to define custom callbacks for other keyword arguments.\n\n"
        ".. function:: my_stop(retry_state)\n\n"
        "   :param RetryCallState retry_state: info about current retry invocation\n"
        "   :return: whether or not retrying should stop\n"
        "   :rtype: bool\n\n"
        ":func:`retry` is the entry point of the whole library.\n"
        "A sentence that wraps with no stop\n"
        ":param x: the value of x\n"
    )
    assert prose_of(text) == [
        "It's also possible to define custom callbacks for other keyword arguments.",
        ":func:`retry` is the entry point of the whole library.",  # a role, not a field
        "A sentence that wraps with no stop",
    ]


def test_a_literal_block_with_blank_lines_is_one_block() -> None:
    # urllib3's docs: cut after "import urllib3", an answer had quoted that as the example.
    text = (
        "Timeouts\n========\n\nSet it on the pool:\n\n.. code-block:: python\n\n"
        "    import urllib3\n\n    http = urllib3.PoolManager(timeout=3.0)\n    \n"
        "    http = urllib3.PoolManager(\n        timeout=urllib3.Timeout(connect=1.0)\n    )\n\n"
        "You still override it per request.\n"
    )
    code = [b for b in rst_blocks(text) if b.kind is BlockKind.CODE]
    assert len(code) == 1
    body = text[code[0].start : code[0].end]
    assert body.startswith("import urllib3") and body.rstrip().endswith(")")
    assert "You still" not in body


def test_rows_of_a_table_laid_out_in_columns_are_no_prose() -> None:
    # pytest's plugin list: rows ran together into "sentences" an answer quoted.
    text = (
        "This list contains 1487 plugins.\n\n"
        "   ==========================  ===========================================  ==========\n"
        "   name                        summary                                      status\n"
        "   ==========================  ===========================================  ==========\n"
        "   :pypi:`pytest-jobserver`    Limit parallel tests with posix jobserver.   5 - Stable\n"
        "   :pypi:`pytest-joke`         Test failures are better served with humor   N/A\n"
        "   :pypi:`pytest-timeout`      pytest plugin to abort hanging tests         5 - Stable\n"
        "   ==========================  ===========================================  ==========\n\n"
        "Each plugin is installed with pip like any other package.\n"
    )
    assert prose_of(text) == [
        "This list contains 1487 plugins.",
        "Each plugin is installed with pip like any other package.",
    ]
    # A chunk cut inside the table has no border left: the columns still say it.
    inside = text[text.index("   :pypi:`pytest-joke`") :]
    assert prose_of(inside) == ["Each plugin is installed with pip like any other package."]


@pytest.mark.parametrize(
    "text",
    [
        # a gap inside one line, as abstracts copied from PDFs hold
        "The software maps chromatin states.    AVAILABILITY The software is free to use.\n",
        "We                 identified four SNPs with association in the combined analysis.\n",
        # the Pallets projects' list items: the marker, then three spaces
        "-   It is easy to configure for most kinds of projects.\n"
        "-   It supports Windows directly and runs on WSL too.\n",
        "1.   you explicitly pass the request to the macro as parameter.\n"
        "2.   you import the macro with context from the template.\n",
        # enumerators a list marker is not: "(a)", "b)", a number or "Step 2" and a tab
        "(a)   The licensee may copy the software for backups.\n\n"
        "(b)   The licensee may not sell the software to anyone.\n",
        "1\tOpen the configuration file in an editor.\n2\tSet the timeout to a larger value.\n",
        "Step 1\tOpen the configuration file in an editor.\n"
        "Step 2\tSet the timeout to a larger value.\n",
    ],
)
def test_a_gap_on_one_line_or_after_a_list_marker_is_no_table(text: str) -> None:
    assert len(prose_of(text)) == text.count(".\n") + text.count(".    ")


def test_a_name_above_lines_of_fields_is_a_record_not_prose() -> None:
    text = (
        ":pypi:`pytest-timeout`\n"
        "   *last release*: Mar 07, 2024,\n"
        "   *status*: 5 - Production/Stable,\n"
        "   *requires*: pytest >=7.0.0\n\n"
        "   pytest plugin to abort hanging tests that run for too long.\n\n"
        "The timeout applies per test:\nit covers setup: call and teardown.\n"
    )
    assert prose_of(text) == [
        "pytest plugin to abort hanging tests that run for too long.",
        "The timeout applies per test:\nit covers setup: call and teardown.",
    ]
    # a sentence introducing its fields is no name: what it lists stays prose
    listed = (
        "These are the minimum requirements for the server\nPython: 3.9 or newer\n"
        "Memory: 4 GB of RAM\nDisk: 10 GB free space\n"
    )
    assert len(prose_of(listed)) == 1


def test_each_field_of_a_field_list_is_a_sentence_of_its_own() -> None:
    # Run together, "Exit code 4" and "No tests were collected" stood in one sentence, and a
    # claim pairing them read as stated.
    text = (
        "Running ``pytest`` can result in six different exit codes:\n\n"
        ":Exit code 4: pytest command line usage error\n"
        ":Exit code 5: No tests were collected\n\n"
        "The runner calls\n:func:`main` and returns the exit code as an integer.\n"
    )
    assert prose_of(text, min_words=3) == [
        "Running ``pytest`` can result in six different exit codes:",
        ":Exit code 4: pytest command line usage error",
        ":Exit code 5: No tests were collected",
        "The runner calls\n:func:`main` and returns the exit code as an integer.",  # a role
    ]


FLASK_CONFIG = (
    "Builtin Configuration Values\n----------------------------\n\n"
    ".. py:data:: TEMPLATES_AUTO_RELOAD\n\n"
    "    Reload templates when they are changed. If not set, it will be enabled in\n"
    "    debug mode.\n\n    Default: ``None``\n\n"
    ".. py:data:: EXPLAIN_TEMPLATE_LOADING\n\n    Log debugging information.\n\n"
    ".. class:: Flask(import_name)\n\n    The app object.\n\n"
    "    .. method:: run(host=None)\n\n        Runs the application.\n\n"
    "    It is central.\n\nOther text.\n"
)


def test_an_object_descriptions_body_is_named_by_its_directive() -> None:
    names = [name for _, _, name in described_objects(FLASK_CONFIG)]
    assert names == ["TEMPLATES_AUTO_RELOAD", "EXPLAIN_TEMPLATE_LOADING", "Flask", "run"]

    def at(phrase: str) -> str:
        return described_at(FLASK_CONFIG, FLASK_CONFIG.index(phrase))

    assert at("Reload templates") == "TEMPLATES_AUTO_RELOAD"
    assert at("Default: ``None``") == "TEMPLATES_AUTO_RELOAD"
    assert at("Log debugging") == "EXPLAIN_TEMPLATE_LOADING"
    assert at("Runs the application") == "run"  # the innermost
    assert at("It is central") == "Flask"
    assert at("Other text") == "" and at("Builtin Configuration") == ""
    # autodoc's directives too: their body adds to the docstring (WTForms' class Meta)
    meta = (
        ".. autoclass:: DefaultMeta\n\n    .. autoattribute:: csrf_field_name\n\n"
        "        The name of the automatically added CSRF token field.\n"
    )
    assert described_at(meta, meta.index("The name")) == "csrf_field_name"
    # A directive at the end of the text, with no body, describes nothing.
    assert described_objects(".. py:data:: LAST") == ()
    # One pass: 3,000 nested descriptions had been read in 27 s, each to the end.
    nested = "".join(" " * i + f".. py:data:: X{i}\n" for i in range(3_000))
    assert len(described_objects(nested)) == 2_999


def test_a_long_run_of_stops_is_read_once() -> None:
    # Each dot of a 20,000-dot run had started a match that read to the run's end: 14 s.
    assert sentence_spans("." * 60_000) == [(0, 60_000)]
    text = "Wait... Next one?! Yes."
    assert sentences_of(text) == ["Wait...", "Next one?!", "Yes."]


def test_no_sentence_ends_inside_inline_code() -> None:
    text = (
        "Inspect kernel logs. If you see messages similar to `Memory cgroup out of memory"
        " ... Killed process\n(gunicorn.md)`, raise memory limits. Use ``a. B`` now."
        " It's a `typo. Next one. And `x` here."
    )
    assert [text[a:b] for a, b in sentence_spans(text)] == [
        "Inspect kernel logs.",
        "If you see messages similar to `Memory cgroup out of memory ... Killed process\n"
        "(gunicorn.md)`, raise memory limits.",
        "Use ``a. B`` now.",
        "It's a `typo.",
        "Next one.",
        "And `x` here.",
    ]


def test_a_sentence_may_open_with_a_name_written_in_lower_case() -> None:
    text = (
        "It upgrades via the HTTP CONNECT method. aiohttp has a limited support. urllib3's"
        " way differs.\n\n"
        "It is the ASGI server spec.\ngevent provides a WSGI server. Use e.g. pip is"
        " fine, etc. it works.\n1. column is added.\nIt runs on 3.13.\nand is also"
        " supported on PyPy."
    )
    assert [text[a:b] for a, b in sentence_spans(text)] == [
        "It upgrades via the HTTP CONNECT method.",
        "aiohttp has a limited support.",
        "urllib3's way differs.",
        "It is the ASGI server spec.",
        "gevent provides a WSGI server.",
        "Use e.g. pip is fine, etc. it works.",
        "1. column is added.",
        "It runs on 3.13.\nand is also supported on PyPy.",
    ]


def test_many_inline_code_spans_are_read_in_linear_time() -> None:
    text = "Use `x` here. " * 20_000  # 20,000 cuts, each beside code
    started = time.perf_counter()
    assert len(sentence_spans(text)) == 20_000
    assert time.perf_counter() - started < 5.0  # a scan of every span per cut takes minutes
