"""Evidence selection (what a small model sees of each source) and repeated-sentence removal."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.citations.resolve import factual_sentences
from citesynth.synthesis.evidence import select
from citesynth.synthesis.layout import strip_layout, without_refusal
from citesynth.synthesis.sources import numbered
from citesynth.synthesis.tidying import (
    close_lead_ins,
    drop_pointers,
    drop_repeats,
    drop_stubs,
    drop_unfinished,
)
from citesynth.types import Chunk, ChunkId, DocumentId, Hit
from citesynth.verify.claims import split_claims
from tests.conftest import answered, use, write

PDF_PAGE = (
    "Citesynth indexes many formats from one folder.\n\n"
    "Ingestion never stops on bad input\n"
    "Each file that cannot be indexed is skipped with one line naming it. "
    "A corrupt PDF is reported as corrupt PDF with the reason. "
    "Weather in the mountains changes quickly in spring."
)


def hit(text: str, number: int = 0) -> Hit:
    chunk = Chunk(
        id=ChunkId(f"c{number}"),
        document_id=DocumentId(f"d{number}"),
        path=f"doc{number}.pdf",
        title="Doc",
        heading_path=(),
        text=text,
        char_start=0,
        char_end=len(text),
        start_line=1,
        end_line=text.count("\n") + 1,
        page=2,
    )
    return Hit(chunk=chunk, score=1.0, confidence=0.5)


async def test_selection_keeps_relevant_sentences_in_order_without_headings() -> None:
    sources = numbered([hit(PDF_PAGE), hit("Unrelated text about cooking pasta well.", 1)])
    chosen = await select("What happens to a corrupt PDF file?", sources, budget=30, embedder=None)
    shown = chosen[0].shown
    assert "Ingestion never stops" not in shown  # a heading would run into the next sentence
    assert "A corrupt PDF is reported" in shown and "Weather" not in shown
    assert shown.startswith("… ") and shown.endswith(" …")  # text left out on both sides
    assert chosen[1].shown == "Unrelated text about cooking pasta well."  # best one, always


async def test_selection_shows_a_tables_rows_as_statements() -> None:
    # Python-Markdown's SmartyPants options: the model had been shown the prose alone
    page = (
        "The following options are provided to configure the output:\n\n"
        "Option | Default value | Description\n------ | ------------- | -----------\n"
        "`smart_dashes` | `True` | whether to convert dashes\n"
        "`smart_angled_quotes` | `False` | whether to convert angled quotes\n\n"
        "A trivial example follows below this table.\n"
    )
    chosen = await select(
        "Are angled quotes converted by default?", numbered([hit(page)]), budget=200, embedder=None
    )
    assert chosen[0].shown == (
        "The following options are provided to configure the output: `smart_dashes`: Default "
        "value: `True`; Description: whether to convert dashes. `smart_angled_quotes`: Default "
        "value: `False`; Description: whether to convert angled quotes. A trivial example "
        "follows below this table."
    )


async def test_selection_names_a_described_setting_and_keeps_its_default() -> None:
    # Flask's configuration page: the model was shown "Reload templates when they are
    # changed." without the setting's name, and never its two-word "Default: ``None``".
    page = (
        ".. py:data:: TEMPLATES_AUTO_RELOAD\n\n"
        "    Reload templates when they are changed. If not set, it will be enabled in\n"
        "    debug mode.\n\n    Default: ``None``\n\n"
        ".. py:data:: EXPLAIN_TEMPLATE_LOADING\n\n"
        "    Log debugging information tracing how a template file was loaded.\n"
    )
    chosen = await select(
        "What is the default of TEMPLATES_AUTO_RELOAD?",
        numbered([hit(page)]),
        budget=200,
        embedder=None,
    )
    assert chosen[0].shown == (
        "TEMPLATES_AUTO_RELOAD: Reload templates when they are changed. If not set, it will "
        "be enabled in debug mode. Default: ``None``. EXPLAIN_TEMPLATE_LOADING: Log debugging "
        "information tracing how a template file was loaded."
    )


async def test_selection_keeps_a_heading_when_it_is_all_a_source_has() -> None:
    chosen = await select(
        "corrupt PDF", numbered([hit("Corrupt PDF handling")]), budget=5, embedder=None
    )
    assert chosen[0].shown == "Corrupt PDF handling"


def test_a_repeated_sentence_is_dropped_once_its_sources_are_cited_before() -> None:
    text = (
        "A corrupt PDF is reported with the reason [1,2]. Each bad file is skipped [3].\n\n"
        "A corrupt PDF is reported with the reason [2]."
    )
    assert drop_repeats(text) == (
        "A corrupt PDF is reported with the reason [1,2]. Each bad file is skipped [3].",
        1,
    )


def test_a_heading_whose_words_an_earlier_sentence_holds_is_no_repeat() -> None:
    text = (
        "**ssl.md**\n`httpx` does respect the `SSL_CERT_FILE` and `SSL_CERT_DIR` environment "
        "variables by default [1].\n\n**SSL_CERT_DIR (Environment Variables)**\nIf this "
        "environment variable is set, certificates load from the directory [2].\n\n"
        "## SSL cert dir environment variables\nThe directory is read once [2]."
    )
    assert drop_repeats(text) == (text, 0)


def test_a_repeat_citing_more_than_the_first_copy_replaces_it() -> None:
    # The embedded model wrote a line twice; attribution cited only the second copy.
    text = (
        "httpx.Limits allows by default 20 keep-alive connections.\n"
        "httpx.Limits allows by default 20 keep-alive connections [1]."
    )
    assert drop_repeats(text) == (
        "httpx.Limits allows by default 20 keep-alive connections [1].",
        1,
    )
    between = (
        "The pool holds twenty keep-alive connections. Another sentence stands here [2]. "
        "The pool holds twenty keep-alive connections [1]."
    )
    assert drop_repeats(between) == (
        "Another sentence stands here [2]. The pool holds twenty keep-alive connections [1].",
        1,
    )


def test_a_repeat_saying_several_sources_report_it_is_still_a_repeat() -> None:
    # The embedded model's HTTPX answer once repair cited [1] for each copy.
    text = (
        "httpx.Limits allows by default 20 keep-alive connections [1].\n"
        "Multiple sources report that httpx.Limits allows by default 20 keep-alive "
        "connections [1].\n"
        "Multiple sources report that httpx.Limits allows by default 20 keep-alive "
        "connections [1]."
    )
    assert drop_repeats(text) == (
        "httpx.Limits allows by default 20 keep-alive connections [1].",
        2,
    )
    corroborated = text.replace("connections [1].\nMultiple", "connections [2].\nMultiple", 1)
    assert drop_repeats(corroborated) == (  # another source's copy is cited once
        "httpx.Limits allows by default 20 keep-alive connections [1,2].",
        2,
    )


def test_the_same_statement_from_another_source_is_said_once_citing_both() -> None:
    # attrs' docs, the embedded model: the same sentence twice, "[3]." then "[2].".
    text = "A corrupt PDF is reported with a cause [1]. A corrupt PDF is reported with a cause [4]."
    assert drop_repeats(text) == ("A corrupt PDF is reported with a cause [1,4].", 1)
    apart = (
        "A corrupt PDF is reported with a cause [3]!\nIt is skipped [2].\n"
        "A corrupt PDF is reported with a cause [1]."
    )
    assert drop_repeats(apart) == (
        "A corrupt PDF is reported with a cause [1,3]!\nIt is skipped [2].",
        1,
    )
    # Alike, not the same: both stay, each with its source.
    alike = (
        "A corrupt PDF is reported with a cause [1]. "
        "A corrupt PDF is reported with its cause and page [4]."
    )
    assert drop_repeats(alike) == (alike, 0)


def test_short_sentences_and_distinct_ones_stay() -> None:
    text = "It is fast [1]. It is fast [1]. Chunks follow headings and paragraphs [2]."
    assert drop_repeats(text) == (text, 0)


@pytest.mark.parametrize(
    ("text", "kept", "dropped"),
    [
        ("A fact here [1]. This is described in [3].", "A fact here [1].", 1),
        ("A fact [1]. See [2]. Another fact [2].", "A fact [1]. Another fact [2].", 1),
        ("See the retrieval docs for the fusion formula [2].", None, 0),
        (
            "The IT industry employs the most people [1]. This is stated in [1] and [2].",
            "The IT industry employs the most people [1].",
            1,
        ),
        ("Pools hold ten connections [1]. According to [2].", "Pools hold ten connections [1].", 1),
        ("This information can be found in the documentation [1] and [3].", "", 1),
        ("For more details, see [4].", "", 1),
        ("A fact [1]. This is explicitly stated in the [1] and [2] sources.", "A fact [1].", 1),
        ("A fact [1]. This is clearly stated in sources [1] and [3].", "A fact [1].", 1),
        ("A fact [1]. This is stated in [1] on L90-113 and [2] on p. 5 L3.", "A fact [1].", 1),
        ("A fact [1]. It is stated in [1], specifically in lines 18-27.", "A fact [1].", 1),
        ("Set L2 cache size to 4 MB [1].", None, 0),
        # a marker left on a line of its own after the answer
        (
            "The best gymnast is Simone Biles [1].\n\n[1]",
            "The best gymnast is Simone Biles [1].",
            1,
        ),
    ],
)
def test_sentences_that_only_point_at_a_source_are_dropped(
    text: str, kept: str | None, dropped: int
) -> None:
    assert drop_pointers(text) == (text if kept is None else kept, dropped)


def test_a_pointer_is_not_a_claim() -> None:
    text = "Pools hold ten connections [1]. This is stated in [1] and [2]. See [3]."
    assert factual_sentences(text) == [("Pools hold ten connections [1].", [1])]


def test_layout_echoes_and_runs_of_blank_lines_are_stripped() -> None:
    text = (
        "=== Document 1 ===\nThe wall has signal towers, including:\n\n \n\nTowers on hills [1].\n"
    )
    assert strip_layout(text) == "The wall has signal towers, including:\n\nTowers on hills [1].\n"


def test_a_listed_source_header_or_its_subject_is_layout() -> None:
    """cibuildwheel's docs: the embedded model listed its sources' subjects as the answer."""
    headings = {"platforms.md L156-158 — Windows › Windows ARM64 builds"}
    text = (
        "It supports these backends:\n- [1] — Windows › Windows ARM64 builds\n"
        "* [1] platforms.md L156-158 — Windows › Windows ARM64 builds\n"
        "- [1] — Windows is supported.\nThey set a variable [1]."
    )
    assert strip_layout(text, headings) == (
        "It supports these backends:\n- [1] — Windows is supported.\nThey set a variable [1]."
    )


def test_no_line_ends_in_spaces_outside_code() -> None:
    left = "The method sets the folder [1]. \nFor basic tools it helps [1].\n\n```\nx = 1  \n```\n"
    assert strip_layout(left) == (
        "The method sets the folder [1].\nFor basic tools it helps [1].\n\n```\nx = 1  \n```\n"
    )


def test_a_character_reference_is_written_as_its_character_outside_code() -> None:
    # Gunicorn's signal list: "`TTIN` &mdash; increase worker count by one"
    text = "`TTIN` &mdash; more [4]. Use ``a &lt; b`` &lt;here&gt; &x; &amp; &#8212; [1].\n"
    assert (
        strip_layout(text) == "`TTIN` — more [4]. Use ``a &lt; b`` &lt;here&gt; &x; &amp; — [1].\n"
    )
    block = "```\nprint('&mdash;')\n```\n"
    assert strip_layout(block) == block


def test_a_line_naming_only_a_document_is_layout() -> None:
    text = (
        "Index.rst\nGiven a key only you know, you can sign your data [5].\n### docs/a.md\nX [1]."
    )
    assert strip_layout(text) == "Given a key only you know, you can sign your data [5].\nX [1]."
    kept = "**docs/index.rst**\nA title stays [1].\nSee setup.py for more [2]."
    assert strip_layout(kept) == kept


def test_rst_a_model_copies_is_written_as_a_reader_sees_it() -> None:
    """AnyIO's docs: the embedded model copied a link reference and a literal marker."""
    text = (
        "Using uvloop_ as an example, code like the following should be converted into:: "
        "Make sure not to call it [1]! See `Trio <https://trio.rtfd.io>`_ and ``class_`` [2].\n"
        "```python\nrun(main, backend_options={'loop_factory': uvloop_})  # x::\n```\n"
    )
    assert strip_layout(text) == (
        "Using uvloop as an example, code like the following should be converted into: "
        "Make sure not to call it [1]! See Trio and ``class_`` [2].\n"
        "```python\nrun(main, backend_options={'loop_factory': uvloop_})  # x::\n```\n"
    )


def test_echoed_headers_with_their_subject_are_stripped() -> None:
    text = "=== wall.md — Great Wall ===\n[2: L4-9] — Towers\nTowers stand on hills [2].\n"
    assert strip_layout(text) == "Towers stand on hills [2].\n"
    echoed = "[1] corpus.jsonl#p0162 — Milli Vanilli\n[3] docs/a.md L4-9\nThey lip-synched [1].\n"
    headings = {"corpus.jsonl#p0162 — Milli Vanilli", "docs/a.md L4-9"}
    assert strip_layout(echoed, headings) == "They lip-synched [1].\n"
    said = "[1] httpx/_config.py — sets the default timeout to 5 seconds."
    assert (
        strip_layout(said, headings)
        == "httpx/_config.py — sets the default timeout to 5 seconds [1]."
    )


def test_a_marker_opening_a_line_closes_its_first_sentence() -> None:
    """The context opens each source with "[1] …", and a small model copies the form."""
    assert strip_layout("[1] Cavies graze on plains. They are social [1].") == (
        "Cavies graze on plains [1]. They are social [1]."
    )
    assert strip_layout("Intro:\n[2] The default is 5 s") == "Intro:\nThe default is 5 s [2]"
    assert strip_layout("[1] Cleanups are postponed [2]. Sandra sold it [2].") == (
        "Cleanups are postponed [2] [1]. Sandra sold it [2]."  # no cited source is dropped
    )
    assert strip_layout("[1] [3] The toll is 4 euros [1].") == "The toll is 4 euros [1] [3]."
    assert strip_layout("[1] Dr. Smith founded the U.S. lab in 1990.") == (
        "Dr. Smith founded the U.S. lab in 1990 [1]."
    )
    # the header's dash copied too: the line was one "sentence" ending in ":", no claim
    echoed = "[1] — HTTPX requires Python 3.9+\n[3] — To include HTTP/2 support, use:"
    assert strip_layout(echoed) == (
        "HTTPX requires Python 3.9+ [1]\nTo include HTTP/2 support, use: [3]"
    )
    assert [c.text for c in split_claims(strip_layout(echoed))] == [
        "HTTPX requires Python 3.9+",
        "To include HTTP/2 support, use:",
    ]


def test_an_opening_marker_before_code_or_emphasis_moves_too() -> None:
    # cattrs c08: the embedded model opened a line with a marker and inline code
    said = "[2] `defaultdicts` with default factories can be structured.\n[5] *Hooks* run."
    assert strip_layout(said) == (
        "`defaultdicts` with default factories can be structured [2].\n*Hooks* run [5]."
    )


def test_a_definition_copied_without_its_term_loses_the_mark() -> None:
    # structlog's MyST definition lists (": Checks the log entry's log level …")
    said = ": Checks the log entry's level [6]. Entries below it go.\n:\n  : Its name [4].\n"
    assert (
        strip_layout(said)
        == "Checks the log entry's level [6]. Entries below it go.\n\n  Its name [4].\n"
    )
    ran_on = "Entries below it go [6]. : Adds the level [6]. (default). : The name [4]."
    assert (
        strip_layout(ran_on)
        == "Entries below it go [6]. Adds the level [6]. (default). The name [4]."
    )
    for kept in ("```yaml\n: a\n```", "Set it: now [1].", "`flag`: on [1].", "Ratio 2 : 1."):
        assert ":" in strip_layout(kept)


def test_a_run_of_opening_markers_moves_or_goes_whole() -> None:
    assert strip_layout("[1] [2] Cavies graze on plains.") == "Cavies graze on plains [1,2]."
    assert strip_layout(" [1] [1] HTTPX does not follow redirects [1].") == (
        " HTTPX does not follow redirects [1]."
    )


def test_gap_marks_copied_from_the_evidence_go() -> None:
    """Evidence marks text it left out with "…"; a small model copies the mark.

    Left in, "the file. … [2]" split into a claim "…" that cited nothing and went with its
    neighbours' markers left behind ("[2] [2] What this means …").
    """
    copied = (
        "The type has one problem, deciding when to open a file. … What this means is that "
        "it opens files for reading at once. It wraps the file in a special wrapper. … [2]"
    )
    assert strip_layout(copied) == (
        "The type has one problem, deciding when to open a file. What this means is that "
        "it opens files for reading at once. It wraps the file in a special wrapper. [2]"
    )
    assert strip_layout("… The pool holds ten [1].\n…\nRetries back off [2]. …") == (
        "The pool holds ten [1].\nRetries back off [2]."
    )


def test_an_ellipsis_that_is_text_stays() -> None:
    """A list shown cut short ends with "- …"; code, tables and headings keep their "…"."""
    for text in (
        "The steps:\n- Install it [1].\n- …",
        "1. Install it [1].\n2. …",
        "Use it explicitly... or wait… then go [1].",
        "| Range | Step |\n|---|---|\n| 1 … 10 | … |",
        "# Setup …",
        "- a\n    - b\n        - …\n- c",  # a nested list cut short
        "1. a\n    1. b\n        1. …",
        "Run:\n\n```python\nclient.get(url)\n…\n```",
    ):
        assert strip_layout(text) == text


def test_a_line_of_markers_cites_the_line_above_or_opens_the_one_below() -> None:
    """ "… using pip:" then "[1]": the model put the citation of the line above on its own."""
    assert strip_layout("It installs with pip:\n[1]\nIt needs Python 3.9+.\n[3]") == (
        "It installs with pip: [1]\nIt needs Python 3.9+. [3]"
    )
    # the line above is cited already, or a heading: the markers open the line below
    assert strip_layout("The pool holds ten [1].\n[2]\nRetries back off.") == (
        "The pool holds ten [1].\nRetries back off [2]."
    )
    assert strip_layout("## Install\n[1]\nRun pip.") == "## Install\nRun pip [1]."
    assert strip_layout("[1]\nUnlike requests, it does not redirect [1].") == (
        "Unlike requests, it does not redirect [1]."
    )
    assert strip_layout("**Install**\n[1]\nRun pip now.") == "**Install**\nRun pip now [1]."
    # a run of marker lines reads as one: "[2]" never cites a line "[1]" cites not
    assert strip_layout("Text here\n[1]\n[2]\nMore text.") == "Text here [1] [2]\nMore text."
    assert strip_layout("[1]\n[2]\nText here.") == "Text here [1,2]."
    # the marker stands where the model left out the block a sentence introduces
    assert strip_layout("Add the annotation as follows:\n\n[4]\n\nThen restart.") == (
        "Add the annotation as follows: [4]\n\nThen restart."
    )
    # nothing to join: left for pointer removal
    assert strip_layout("The pool holds ten [1].\n[2]") == "The pool holds ten [1].\n[2]"
    assert strip_layout("Text here.\n\n[1]\n\nMore text.") == "Text here.\n\n[1]\n\nMore text."
    assert strip_layout("Cited already: [3]\n\n[1]") == "Cited already: [3]\n\n[1]"
    # a source header the model was copying when its tokens ran out goes; code stays
    assert strip_layout("The pool holds ten [1].\n[5: L") == "The pool holds ten [1]."
    assert strip_layout("Code:\n```\nx = [5") == "Code:\n```\nx = [5"
    assert strip_layout("Pip installs packages [2].\n[3]\n[5: L") == (
        "Pip installs packages [2].\n[3]"  # the cut header goes before markers could join it
    )


@pytest.mark.parametrize(
    "text",
    [
        "## Steps\n[1]\n1. Install the package.\n2. Run it.",  # a list below
        "Intro sentence [1].\n[2]\n## Next section\nBody.",  # a heading below
        "## Options\n[1]\n- `--verbose`: more output",
        "## Setup\n[1]\n| Option | Default |\n|---|---|",  # a table, above or below
        "| a | b |\n[1]\nText.",
        "Intro [1].\n[2]\n  indented text.",
        "Install with pip:\n\n```\npip install x\n```\n[1]\nThen run it.",  # code above
        "Code:\n```\n[1]\n```\nDone [1].",  # code is never read
        "Text.\n\n---\n[1]\nMore.",  # a thematic break is no prose, above or below
        "# T\n[1]\n---",
        "**Setup**\n[1]\n$ pip install x",  # nor a shell line outside a fence
    ],
)
def test_a_line_of_markers_never_breaks_what_is_around_it(text: str) -> None:
    assert strip_layout(text) == text


def test_an_opening_refusal_before_a_cited_answer_goes() -> None:
    """ "Not found in the sources." then an answer contradicts itself; a short caveat stays."""
    answer = (
        "Not found in the sources.\n\nHTTPX does not follow redirects by default [1]. It "
        "differs from requests here, since redirects can hide network calls [1]. Enable "
        "them with the follow_redirects parameter on the client or per request [2]."
    )
    assert without_refusal(answer).startswith("HTTPX does not follow redirects")
    short = "Not found in the sources. The pool holds ten [1]."
    assert without_refusal(short) == short
    assert without_refusal("Not found in the sources.") == "Not found in the sources."
    # a refusal that opens a longer sentence is a caveat, not a refusal
    partial = "Not found in the sources for trucks, but " + answer.split("\n\n", 1)[1]
    assert without_refusal(partial) == partial
    # nor may cutting it leave a text that reads as a refusal
    caveat = (
        "Not found in the sources. The harbour bridge toll is 4 euros for cars [1]. The "
        "sources do not say whether trucks pay a different toll at the gate."
    )
    assert without_refusal(caveat) == caveat
    # the shape of an embedded HTTPX answer, after resolution: finishing looks again
    resolved = "Not found in the sources.\n\n [1] [1] " + answer.split("\n\n", 1)[1]
    assert without_refusal(strip_layout(resolved)).startswith("HTTPX does not follow")


def test_a_closing_refusal_after_a_cited_answer_goes() -> None:
    """The embedded model sometimes ends a cited answer with "Not found in the sources."."""
    answer = (
        "HTTPX does not follow redirects by default [1]. It differs from requests here, since "
        "redirects can hide network calls [1]. Enable them with the follow_redirects "
        "parameter on the client or per request [2]."
    )
    assert without_refusal(answer + " Not found in the sources.") == answer
    assert without_refusal(answer + "\n\nNot found in the sources. [2]") == answer
    short = "The pool holds ten [1]. Not found in the sources."
    assert without_refusal(short) == short  # a short caveat: says_not_found decides
    partial = answer + " Not found in the sources for trucks."
    assert without_refusal(partial) == partial


def test_code_blocks_keep_their_lines() -> None:
    """R and shell print "[1] 3.5": output inside a code block is never layout."""
    text = "Run it:\n```r\n[1] 3.5\n[1] 42\n```\nIt prints the mean [1]."
    assert strip_layout(text, {"3.5"}) == text


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # the budget ran out mid-sentence; repair may even have cited the fragment
        (
            "HTTPX can build explicit `Request` instances [4].\n\nIf you [6]",
            "HTTPX can build explicit `Request` instances [4].",
        ),
        (
            "Streams load nothing up front [1]. You can also use the",
            "Streams load nothing up front [1].",
        ),
        # a heading copied without its text, left last once the broken sentence goes
        (
            "Non-permanent sessions are not affected [4].\nSession Interface [1-3]\n"
            "If neither option is set, the",
            "Non-permanent sessions are not affected [4].",
        ),
        # a lead-in whose block never came
        (
            "Use the `--` marker to separate options from arguments [3]. "
            "This is how you can do it:",
            "Use the `--` marker to separate options from arguments [3].",
        ),
        # one promising a block that says little before the promise (the embedded model,
        # Python-Markdown's docs)
        (
            "You need the library installed [1]. You can install it by typing the following "
            "command from the command line: [1]",
            "You need the library installed [1].",
        ),
        # one that says nothing at all, whatever its last word (Click's docs)
        (
            "Click finds the folder with `get_app_dir` [5]. And what it does: [3]",
            "Click finds the folder with `get_app_dir` [5].",
        ),
        # finished sentences, list items, code and a one-sentence answer stay; a lead-in
        # that says something without its block too
        ("Sign it [1]. The `Signer` class attaches a signature to a string [2]:", None),
        (
            "Use either [4]. The default bound logger also has async cousins of its log "
            "methods, that simply prefix the name with an a: [5]",
            None,
        ),
        ("Streams load nothing up front [1]. Use it [2].", None),
        ("Streams load nothing up front [1]. A useful pattern is custom transport [5]", None),
        ("Benefits [1]:\n\n- Reduced latency\n- Reduced CPU usage", None),
        ("Use this [1]:\n\n```python\nclient.stream('GET', url)\n```", None),
        ("Yes [1]", None),
        ("Limits [1]:\n\n| name | default |\n|---|---|\n| pool | 10 |", None),
    ],
)
def test_a_sentence_broken_off_at_the_end_is_dropped(text: str, kept: str | None) -> None:
    assert drop_unfinished(text) == (text if kept is None else kept, kept is not None)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # a lead-in the answer goes on from in prose ends with a full stop instead
        (
            "Use `|` [1]. We can also combine several conditions: [3]\n\nStop after 10 s [4].",
            "Use `|` [1]. We can also combine several conditions [3].\n\nStop after 10 s [4].",
        ),
        # one that promises a block (the embedded model on tenacity's docs), or that says
        # nothing without it (Click's), goes
        (
            "Use `|` [1]. You can use the following code: [2]\n\nStop after 10 s [4].",
            "Use `|` [1].\n\nStop after 10 s [4].",
        ),
        (
            "Mount points extend pages [1]. The available mount points include the "
            "following: [3]\n\n**Customizing the page**",
            "Mount points extend pages [1].\n\n**Customizing the page**",
        ),
        # one that says something before its promise keeps it (Developer Hub's)
        (
            "The Dynamic Plugin Factory streamlines the dynamic plugin build process, "
            "offering the following capabilities: [3,4]\n\n**Installing it**",
            "The Dynamic Plugin Factory streamlines the dynamic plugin build process, "
            "offering the following capabilities [3,4].\n\n**Installing it**",
        ),
        (
            "It finds the folder [5]. And what it does: [3]\nLike options, arguments take "
            "values [4].",
            "It finds the folder [5].\nLike options, arguments take values [4].",
        ),
        (
            "Arguments take values [4]. And from the command line:\n\nClick finds it [5].",
            "Arguments take values [4].\n\nClick finds it [5].",
        ),
        # a lead-in before code, a list, a table, a quotation or an indented block stays
        ("Use this [1]:\n\n```python\nclient.stream('GET', url)\n```\n\nDone [2].", None),
        ("Benefits [1]:\n\n- Reduced latency\n- Reduced CPU usage\n\nSo [2].", None),
        ("Limits [1]:\n\n| name | default |\n|---|---|\n\nSee [2].", None),
        ("Run it like this: [1]\n\n    pip install httpx\n\nThen go [2].", None),
        ("- Forward the port as follows: [1]\n\n  ```bash\nkubectl\n  ```\n\n- Open it [1].", None),
        # the last statement is `drop_unfinished`'s
        ("It holds ten [1]. This is how you can do it:", None),
    ],
)
def test_a_lead_in_that_introduces_nothing_is_closed_or_dropped(
    text: str, kept: str | None
) -> None:
    assert close_lead_ins(text) == (text if kept is None else kept, int(kept is not None))


def test_many_broken_off_fragments_are_read_once() -> None:
    # Bad input: 30,000 fragments after the last sentence. Re-reading the whole text for
    # each dropped one took 7 minutes.
    assert drop_unfinished("It holds ten [1].\n" + "x\n" * 30_000) == ("It holds ten [1].", True)


async def test_a_sentence_repair_makes_a_repeat_is_dropped(engine: Engine, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    write(
        folder, "pool.md", "# Pool\n\nThe connection pool holds ten open connections by default.\n"
    )
    write(
        folder, "retries.md", "# Retries\n\nFailed requests are retried with exponential backoff.\n"
    )
    await engine.index([folder])
    said = "The connection pool holds ten open connections by default"
    again = "The connection pool holds ten connections by default"  # its words all said before
    use(engine, f"{said} [1]. Failed requests back off exponentially [2]. {again} [2].")
    answer = await engine.answer(
        "How many connections does the pool hold, and how are failed requests retried?",
        not_found_below=0.0,
        answerability=False,
    )
    assert answer.answer.count("holds ten") == 1, answer.answer
    assert [c.text for c in answer.claims].count(f"{said}.") == 1
    assert any("repeated an earlier one once repaired" in w for w in answer.warnings)


async def test_a_gap_the_writer_admits_stays_in_the_answer(engine: Engine, tmp_path: Path) -> None:
    """ "X is not stated in the provided sources." is no claim to verify and remove: a caveat
    in a longer answer, a not-found when little else is said."""
    source = (
        "# Clients\n\nPass `headers` to the client to send them with every request. "
        "Headers set on a request are merged with the client's headers.\n"
    )
    gap = "The default User-Agent is not explicitly stated in the provided sources."
    said = (
        "You can pass `headers` to the client to send them with every request [1]. Headers "
        "set on a request are merged with the client's headers [1]."
    )
    answer = await answered(engine, tmp_path / "d", source, f"{gap} {said}", "Which User-Agent?")
    assert answer.answer.startswith(gap)
    assert not answer.not_found and not answer.removed_claims
    assert len(answer.claims) == 2 and gap not in [c.text for c in answer.claims]
    short = f"{gap} {said.split(' [1]')[0]} [1]."
    answer = await answered(engine, tmp_path / "e", source, short, "Which User-Agent?")
    assert answer.not_found
    # A refusal that cites nothing reads as one: what the model "can infer" goes with it.
    guessed = f"{gap} However, it can be inferred that it depends on the configuration."
    answer = await answered(engine, tmp_path / "f", source, guessed, "Which User-Agent?")
    assert answer.not_found and answer.answer == "Not found in the sources."


def test_many_lead_ins_are_read_once() -> None:
    # Bad input: 20,000 lead-ins, each closed with a full stop.
    text = "We can combine several conditions: [1]\n\n" * 20_000 + "Done [1]."
    closed, count = close_lead_ins(text)
    assert count == 20_000 and closed.endswith("conditions [1].\n\nDone [1].")


def test_a_sentence_with_a_long_run_of_markers_is_read_once() -> None:
    # Bad input: 3,000 markers mid-sentence, twice, the copies citing different sources at
    # their end. The trailing markers were found by a pattern tried at every marker of the
    # run (quadratic); markers mid-sentence keep the copies from being merged.
    run = " ".join(f"[{n}]" for n in range(1, 3_001))
    first = f"The pool holds ten {run} connections per host [1]."
    again = f"The pool holds ten {run} connections per host [3001]."
    kept, dropped = drop_repeats(f"{first}\n{again}")
    assert (kept, dropped) == (again, 1)  # the copy citing more replaces the first


def test_a_statement_stopping_at_its_lead_ins_comma_goes() -> None:
    # the embedded model over zoo's docs wrote "For example, [1]." four times
    text = (
        "For example, [1].\n\nFill the NA values using na.approx [4]. For example, [4].\n\n"
        "The default is 5, [1]. For instance, [3]. Use na.aggregate [6]."
    )
    assert drop_stubs(text) == (
        "Fill the NA values using na.approx [4].\n\nThe default is 5, [1]. Use na.aggregate [6].",
        3,
    )
    assert drop_stubs("The default is 5 [1].") == ("The default is 5 [1].", 0)


def test_a_long_run_of_spaces_is_tidied_in_linear_time() -> None:
    # trailing spaces were sought from every space of a run not ending its line: 21 s
    started = time.process_time()
    assert strip_layout("Pools hold ten [1]." + " " * 50_000 + "x").startswith("Pools hold ten")
    assert strip_layout("Pools hold ten [1].  \nThey block [1]. \t") == (
        "Pools hold ten [1].\nThey block [1]."
    )
    assert time.process_time() - started < 2.0
