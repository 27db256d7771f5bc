"""Each loader: structure, titles, heading paths and line numbers on realistic files."""

from __future__ import annotations

import json
import time
from itertools import pairwise

import pytest

from citesynth.analysis import estimate_tokens
from citesynth.errors import LoadError
from citesynth.ingest.blocks import BlockKind
from citesynth.ingest.chunking import split
from citesynth.ingest.lines import LineMap
from citesynth.ingest.loaders import (
    load_code,
    load_html,
    load_jsonl,
    load_markdown,
    load_rst,
    load_text,
    loader_for,
)
from citesynth.ingest.markdown import heading_text, rendered_markdown
from citesynth.types import Chunk, DocumentKind
from tests.conftest import CLIENT_PY, GUIDE_MD, PAGE_HTML


def chunks_of(loaded_parsed: object, target: int = 60, overlap: int = 0) -> list[Chunk]:
    return split(loaded_parsed, target_tokens=target, overlap_tokens=overlap)  # type: ignore[arg-type]


def find(chunks: list[Chunk], needle: str) -> Chunk:
    return next(chunk for chunk in chunks if needle in chunk.text)


def test_markdown_sections_titles_and_lines() -> None:
    (parsed,) = load_markdown("guide.md", GUIDE_MD.encode()).parsed
    assert parsed.document.title == "Timeouts guide"
    assert parsed.document.kind is DocumentKind.MARKDOWN
    chunks = chunks_of(parsed)
    read = find(chunks, "The read timeout limits")
    assert read.heading_path == ("Timeouts guide", "Read timeout")
    assert read.text.startswith("## Read timeout")
    lines = GUIDE_MD.splitlines()
    assert lines[read.start_line - 1] == "## Read timeout"
    assert "ReadTimeout" in lines[read.start_line + 1]  # the paragraph follows the heading
    # The one-line intro is too small for a chunk of its own: it shares one with the next
    # section, and that chunk's heading path is what both have in common.
    connect = find(chunks, "connect timeout is")
    assert "Intro paragraph" in connect.text
    assert connect.heading_path == ("Timeouts guide",)


def test_heading_text_drops_markup_but_keeps_identifiers() -> None:
    assert heading_text("`HTTP_PROXY`, **bold** and _emphasis_") == "HTTP_PROXY, bold and emphasis"
    assert heading_text("See [the guide](docs/guide.md#top)") == "See the guide"


def test_a_headings_attribute_list_is_no_part_of_its_title() -> None:
    # Python-Markdown's docs: "### Output Format {: #output_format }" (attr_list), Pandoc's
    assert heading_text("Output Format {: #output_format }") == "Output Format"
    assert heading_text("Tab Length { #tab_length }") == "Tab Length"
    assert heading_text('Intro {#intro .unnumbered data-x="a b"}') == "Intro"
    assert heading_text("Sets {a, b} and {x}") == "Sets {a, b} and {x}"  # words in braces stay
    # Hatch's history: the closing "##" before the list, whose id holds a release's dots
    assert heading_text("[1.32.0](https://x/hatchling-v1.32.0) - 2026-08-11 ## {: #v1.32.0 }") == (
        "1.32.0 - 2026-08-11"
    )
    assert heading_text("Using C#") == "Using C#"


def test_reference_links_and_inline_attribute_lists_read_as_rendered() -> None:
    # Python-Markdown's pages: labels defined at the page's foot, attr_list on option names
    assert rendered_markdown("the [`codehilite`][codehilite] extension") == (
        "the `codehilite` extension"
    )
    assert rendered_markdown("adds support for [WikiLinks][] [10].") == (
        "adds support for WikiLinks [10]."
    )
    assert rendered_markdown("[Nested [x] text][label]") == "Nested [x] text"
    assert rendered_markdown("**`linenums`**{ #linenums }: An alias") == "**`linenums`**: An alias"
    assert rendered_markdown("A paragraph. {: .note #n }") == "A paragraph."
    # an inline link is its text too: a relative target leads nowhere from an answer
    assert rendered_markdown("If the [tables](./tables.md) extension is enabled") == (
        "If the tables extension is enabled"
    )
    assert rendered_markdown('values: [`"1"`](#markdown1) or [docs](<a b.md> "Docs").') == (
        'values: `"1"` or [docs](<a b.md> "Docs").'
    )
    assert rendered_markdown('Built on [HTMLParser](https://x.org/p.html "The parser").') == (
        "Built on HTMLParser."
    )
    # citations, code, images, indexing and braces in prose stay as written
    for kept in (
        "as said [2][3] and [see it][1]",
        "`[a][b]` and `x{ #y }`",
        "![logo][img]",
        "![logo](logo.png)",
        "a[i][j]",
        "f[0](x) and [](empty.md) and [2](#cite)",
        "Sets {a, b} and { #spaced } stay",
    ):
        assert rendered_markdown(kept) == kept


def test_reference_links_and_attribute_lists_are_read_in_linear_time() -> None:
    # an attribute list in the colon form had been sought from every space of a run
    started = time.process_time()
    for hostile in (
        " " * 200_000 + "{",
        "[a" * 100_000,
        "[[a]" * 50_000,
        " {: #a" * 30_000,
        "[a](" * 50_000,
        "[a](b " * 40_000,
    ):
        rendered_markdown(hostile)
    assert time.process_time() - started < 2.0


def test_markdown_front_matter_is_not_a_heading() -> None:
    source = "---\ntitle: Release notes\ntags: [a]\n---\n# Version 2\n\nFaster imports.\n"
    (parsed,) = load_markdown("notes.md", source.encode()).parsed
    assert parsed.document.title == "Version 2"
    chunk = find(chunks_of(parsed), "Faster imports")
    assert chunk.heading_path == ("Version 2",)
    assert chunk.start_line == 5


def test_markdown_code_fence_splits_by_lines_not_sentences() -> None:
    code = "\n".join(f"value_{i} = compute({i})  # step {i}" for i in range(60))
    source = f"# Script\n\n```python\n{code}\n```\n"
    (parsed,) = load_markdown("script.md", source.encode()).parsed
    chunks = chunks_of(parsed, target=60)
    assert len(chunks) > 3
    for chunk in chunks[1:]:
        # Every chunk after the first starts at the beginning of a source line.
        assert source[chunk.char_start - 1] == "\n"


def test_small_sections_share_a_chunk_and_keep_the_common_heading_path() -> None:
    source = "# API\n\n## get\n\nFetch one.\n\n## put\n\nStore one.\n\n## delete\n\nRemove one.\n"
    (parsed,) = load_markdown("api.md", source.encode()).parsed
    chunks = chunks_of(parsed, target=200)
    assert len(chunks) == 1
    assert chunks[0].heading_path == ("API",)


def test_a_chunk_inside_an_object_description_has_the_objects_in_its_heading_path() -> None:
    # aiohttp's client reference: the fields of `ws_connect` are chunks of their own,
    # far below ".. method:: ws_connect(…)", which their text never names.
    fields = "".join(
        f"      :param str p{n}: parameter number {n} of the call.\n\n" for n in range(30)
    )
    source = (
        "Client\n======\n\n.. class:: ClientSession(url)\n\n   The session.\n\n"
        f"   .. method:: ws_connect(url)\n\n      Connect.\n\n{fields}"
        "Other\n=====\n\nPlain prose after the reference.\n"
    )
    (parsed,) = load_rst("client.rst", source.encode()).parsed
    chunks = chunks_of(parsed, target=60)
    assert find(chunks, "p29").heading_path == ("Client", "ClientSession", "ws_connect")
    assert chunks[0].heading_path == ("Client",)  # it holds the directives themselves
    assert find(chunks, "Plain prose").heading_path == ("Other",)
    (markdown,) = load_markdown("client.md", source.encode()).parsed
    assert all(len(c.heading_path) <= 1 for c in chunks_of(markdown, target=60))


def test_long_section_is_cut_between_sentences_with_overlap() -> None:
    sentences = [
        f"Sentence number {i} explains one more detail of the retry policy." for i in range(40)
    ]
    source = "# Retries\n\n" + " ".join(sentences) + "\n"
    (parsed,) = load_markdown("retries.md", source.encode()).parsed
    chunks = chunks_of(parsed, target=60, overlap=15)
    assert len(chunks) > 4
    for chunk in chunks:
        assert chunk.text.endswith(".")  # never cut inside a sentence
        assert chunk.heading_path == ("Retries",)
    for first, second in pairwise(chunks[1:]):
        assert second.char_start < first.char_end  # consecutive chunks overlap


def test_a_run_on_paragraph_of_prose_and_an_example_is_cut_between_its_lines() -> None:
    # lme4's paper sets an example in the paragraph explaining it, with no stop between
    # them: the "sentence" ran on for 221 tokens and had been cut between words, opening
    # a chunk in the middle of a statement and of the sentence before it
    source = (
        "Computing the fitted values of this additive model requires some custom code, and "
        "illustrates\nthe general principle that methods for objects constructed from modular "
        "fits should\nonly be used if the user knows what she is doing,\n"
        + "".join(f"> y{i} <- predict(model{i}, newdata = frame{i}, at = {i})\n" for i in range(9))
    )
    (parsed,) = load_text("paper.txt", source.encode()).parsed
    chunks = chunks_of(parsed, target=60)
    assert len(chunks) > 2
    assert chunks[0].text.startswith("Computing") and chunks[0].text.count("\n") >= 2
    for chunk in chunks[1:]:
        assert chunk.text.startswith("> y")  # a console line opens each later chunk
    assert {line for chunk in chunks for line in chunk.text.splitlines()} == set(
        source.splitlines()
    )


def test_rst_sections_follow_adornment_order() -> None:
    filler = "This paragraph has enough words to be a section of its own in any chunk. "
    source = (
        f"=========\nUser guide\n=========\n\nWelcome text. {filler}\n\n"
        f"Install\n-------\n\nRun pip install. {filler}\n\n"
        f"From source\n~~~~~~~~~~~\n\nClone the repository:: {filler}\n\n    git clone repo\n\n"
        f"Usage\n-----\n\nImport the module. {filler}\n"
    )
    (parsed,) = load_rst("guide.rst", source.encode()).parsed
    assert parsed.document.title == "User guide"
    chunks = chunks_of(parsed, target=40)
    assert find(chunks, "git clone").heading_path == ("User guide", "Install", "From source")
    assert find(chunks, "Import the module").heading_path == ("User guide", "Usage")


def test_an_overlined_rst_title_may_be_inset() -> None:
    filler = "This paragraph has enough words to be a section of its own in any chunk. "
    source = (
        "=========================================\n"
        " What's new in Celery 5.3 (Emerald Rush)\n"
        "=========================================\n\n"
        f"Celery is a task queue. {filler}\n\n"
        f"Preface\n=======\n\nFrom now on we only support Python 3.8 and above. {filler}\n\n"
        # an indented line over a rule, with no overline, is a block quote's, not a title
        f"Notes\n-----\n\n    quoted line\n    -----------\n\nMore prose. {filler}\n"
    )
    (parsed,) = load_rst("whatsnew-5.3.rst", source.encode()).parsed
    assert parsed.document.title == "What's new in Celery 5.3 (Emerald Rush)"
    chunks = chunks_of(parsed, target=40)
    assert find(chunks, "Python 3.8").heading_path == (
        "What's new in Celery 5.3 (Emerald Rush)",
        "Preface",
    )
    assert find(chunks, "More prose").heading_path[-1] == "Notes"


def test_python_definitions_open_sections_with_exact_lines() -> None:
    (parsed,) = load_code("src/client.py", CLIENT_PY.encode()).parsed
    assert parsed.document.language == "python"
    chunks = chunks_of(parsed, target=24)
    backoff = find(chunks, "def backoff")
    assert backoff.heading_path == ("def backoff",)
    assert CLIENT_PY.splitlines()[backoff.start_line - 1] == "def backoff(attempt: int) -> float:"
    retries = find(chunks, "def retries")
    assert retries.heading_path == ("class Client", "def retries")
    assert CLIENT_PY.splitlines()[retries.start_line - 1].strip() == "@property"


@pytest.mark.parametrize(
    ("name", "source", "heading"),
    [
        (
            "app.js",
            "const a = 1;\n\nexport async function load(url) {\n  return fetch(url);\n}\n",
            "export async function load(url)",
        ),
        ("app.ts", "interface Options {\n  timeout: number;\n}\n", "interface Options"),
        (
            "main.go",
            "package main\n\nfunc Serve(port int) error {\n\treturn nil\n}\n",
            "func Serve(port int) error",
        ),
        (
            "lib.rs",
            "use std::io;\n\npub fn parse(input: &str) -> u32 {\n    0\n}\n",
            "pub fn parse(input: &str) -> u32",
        ),
        (
            "App.java",
            "package x;\n\npublic class App {\n    public void run() {\n    }\n}\n",
            "public class App",
        ),
        (
            "util.c",
            "#include <stdio.h>\n\nint add(int a, int b)\n{\n    return a + b;\n}\n",
            "int add(int a, int b)",
        ),
        ("run.sh", "#!/bin/sh\nset -e\n\ndeploy() {\n  echo go\n}\n", "deploy()"),
        ("config.yaml", "server:\n  port: 8080\n\ndatabase:\n  url: sqlite://\n", "database"),
        (
            "pyproject.toml",
            "[project]\nname = 'x'\n\n[tool.ruff]\nline-length = 100\n",
            "[tool.ruff]",
        ),
    ],
)
def test_code_definitions_by_language(name: str, source: str, heading: str) -> None:
    (parsed,) = load_code(name, source.encode()).parsed
    openers = [
        (block.heading, source[block.start : block.end]) for block in parsed.blocks if block.heading
    ]
    assert openers, parsed.blocks
    assert heading in [title for title, _ in openers]
    text = next(text for title, text in openers if title == heading)
    assert text.startswith(heading.split("(")[0].split(" ")[0])


def test_json_is_code_without_sections() -> None:
    source = json.dumps({"name": "x", "items": list(range(50))}, indent=2)
    (parsed,) = load_code("data.json", source.encode()).parsed
    chunks = chunks_of(parsed)
    assert parsed.document.language == "json"
    assert all(chunk.heading_path == () for chunk in chunks)


def test_html_main_text_without_boilerplate_and_with_source_lines() -> None:
    (parsed,) = load_html("page.html", PAGE_HTML.encode()).parsed
    text = parsed.document.text
    assert parsed.document.title == "Pool limits"
    for boilerplate in ("Home", "Copyright", "tracking", "color: red"):
        assert boilerplate not in text
    chunk = find(chunks_of(parsed), "at most")
    lines = PAGE_HTML.splitlines()
    assert chunk.text.startswith("Pool limits")  # the heading leads its section's chunk
    assert "<h1>Pool limits</h1>" in lines[chunk.start_line - 1]
    assert "five seconds" in lines[chunk.end_line - 1]
    where = LineMap(text, parsed.document.anchors)
    assert where.locate(text.index("The connection pool"))[0] == 8
    assert where.locate(text.index("ten connections"))[0] == 9
    assert where.locate(text.index("Idle"))[0] == 10


def test_html_without_main_keeps_body_text_and_skips_hidden() -> None:
    source = (
        "<html><body><header>Site header</header><div class='sidebar'>Related links</div>"
        "<div hidden>Secret</div><p>Real &amp; useful content.</p><table><tr><td>a</td>"
        "<td>1</td></tr><tr><td>b</td><td>2</td></tr></table></body></html>"
    )
    (parsed,) = load_html("page.htm", source.encode()).parsed
    text = parsed.document.text
    assert "Real & useful content." in text
    assert "a | 1\nb | 2" in text
    for hidden in ("Site header", "Related links", "Secret"):
        assert hidden not in text


@pytest.mark.parametrize(
    ("html", "text"),
    [
        # SQLite's limits page: "231-1" would be a number the page never states
        ("<p>up to 2<sup>31</sup>-1 or 2147483647</p>", "up to 2^31-1 or 2147483647"),
        ("<p>about 10<sup>-6</sup> s</p>", "about 10^-6 s"),
        ("<p>A fact<sup>1</sup> here.</p>", "A fact1 here."),  # a footnote mark
        ("<p>the 1<sup>st</sup> row</p>", "the 1st row"),
        ("<p>in 2015<sup><a href='#n3'>[3]</a></sup></p>", "in 2015[3]"),  # a footnote's link
        # inline code is written in backticks, as Markdown and reStructuredText write it
        # Sphinx: a role is <code> around <span class="pre">, a link may hold it
        (
            '<p>Use <code class="xref py"><span class="pre">search()</span></code> (see '
            "<a href='#s'><code><span class='pre'>search()</span></code> vs. "
            "<code><span class='pre'>match()</span></code></a>).</p>",
            "Use `search()` (see `search()` vs. `match()`).",
        ),
        ("<p><code><span>ls</span> <span>-l</span></code> lists</p>", "`ls -l` lists"),
        ("<ul><li><code>first</code> opens the item</li></ul>", "`first` opens the item"),
        ("<pre><code>x = 1\nprint(x)</code></pre>", "x = 1\nprint(x)"),  # a block: no backticks
        ("<p><code></code>nothing in it</p>", "nothing in it"),
        ("<p>old <tt>markup</tt></p>", "old `markup`"),
        # never closed: it ends with its paragraph, the next one is prose
        ("<p>open <code>x = 1</p><p>Then prose.</p>", "open `x = 1`\n\nThen prose."),
    ],
)
def test_html_text_reads_as_its_source_writes_it(html: str, text: str) -> None:
    (parsed,) = load_html("page.html", html.encode()).parsed
    assert parsed.document.text == text


def test_html_leaves_out_the_permalink_marks_of_headings_and_signatures() -> None:
    # Sphinx (and MkDocs) put a "¶" link after every heading and API signature
    source = (
        '<html><body><div role="main"><h1>json<a class="headerlink" href="#json">¶</a></h1>'
        '<dl class="py function"><dt class="sig sig-object py" id="json.dumps">json.dumps(obj)'
        '<a class="headerlink" href="#json.dumps" title="Permalink">¶</a></dt>'
        "<dd><p>Serialize obj to a JSON formatted str.</p></dd></dl></div></body></html>"
    )
    (parsed,) = load_html("json.html", source.encode()).parsed
    assert "¶" not in parsed.document.text
    assert "json.dumps(obj)" in parsed.document.text


def test_html_with_only_scripts_is_refused() -> None:
    with pytest.raises(LoadError, match="no text"):
        load_html("empty.html", b"<html><script>var a = 1;</script></html>")


def test_jsonl_records_become_documents_and_bad_lines_are_reported() -> None:
    lines = [
        json.dumps(
            {
                "_id": "4983",
                "title": "White matter",
                "text": "Diffusion tensor imaging of newborns.",
            }
        ),
        "{not json",
        json.dumps({"doc_id": "p2", "title": "", "text": "Second record."}),
        json.dumps({"doc_id": "p3", "title": "No text"}),
        json.dumps({"doc_id": "p2", "text": "Duplicate id."}),
    ]
    loaded = load_jsonl("corpus.jsonl", "\n".join(lines).encode())
    documents = [item.document for item in loaded.parsed]
    assert [d.record_id for d in documents] == ["4983", "p2"]
    assert documents[0].title == "White matter" and documents[1].title == "p2"
    assert all(d.kind is DocumentKind.RECORD for d in documents)
    (note,) = loaded.notes
    assert "3 bad line(s)" in note and "line 2 invalid JSON" in note
    chunk = chunks_of(loaded.parsed[0])[0]
    assert chunk.record_id == "4983" and chunk.location == "corpus.jsonl#4983"


def test_jsonl_without_any_record_is_refused() -> None:
    with pytest.raises(LoadError, match="no usable records"):
        load_jsonl("bad.jsonl", b'{"title": "x"}\n')


def test_identical_content_has_the_same_document_id() -> None:
    first = load_text("a.txt", b"Same words.").parsed[0].document
    second = load_text("b/a.txt", b"Same words.").parsed[0].document
    assert first.id == second.id and first.id.startswith("b2:")
    assert load_text("a.txt", b"Other words.").parsed[0].document.id != first.id


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("x.md", "load_markdown"),
        ("x.MD", "load_markdown"),
        ("x.rst", "load_rst"),
        ("x.txt", "load_text"),
        ("x.html", "load_html"),
        ("x.pdf", "load_pdf"),
        ("x.jsonl", "load_jsonl"),
        ("x.py", "load_code"),
        ("Makefile", "load_code"),
        ("x.tsx", "load_code"),
        ("CMakeLists.txt", "load_code"),
    ],
)
def test_loader_for_names(name: str, expected: str) -> None:
    loader = loader_for(name)
    assert loader is not None and loader.__name__ == expected


def test_unknown_types_have_no_loader() -> None:
    assert loader_for("photo.png") is None
    assert loader_for("archive.tar.gz") is None


def test_a_paragraph_introducing_an_example_stays_with_it_when_the_chunk_is_full() -> None:
    def filler(count: int) -> str:
        return " ".join(
            f"Sentence number {n} says something about the theme." for n in range(count)
        )

    text = (
        f"# Theme\n\n{filler(6)}\n\nSet the font as shown in the following example:\n\n"
        "```yaml\napp:\n  branding:\n    fontFamily: Times New Roman\n```\n"
    )
    (parsed,) = load_markdown("theme.md", text.encode()).parsed
    chunks = chunks_of(parsed, target=90)
    example = find(chunks, "fontFamily")
    assert "Set the font as shown in the following example:\n\n```yaml" in example.text
    assert not any(c.text.endswith("following example:") for c in chunks)
    rst = (
        "Theme\n=====\n\n" + filler(6) + "\n\nAnd it can then be used like this:\n\n"
        ".. code-block:: python\n\n    set_font('Times New Roman')\n"
    )
    for count in (6, 14):  # the full chunk would end at the directive, or at the sentence
        source = rst.replace(filler(6), filler(count))
        (parsed,) = load_rst("theme.rst", source.encode()).parsed
        example = find(chunks_of(parsed, target=90), "set_font")
        assert "And it can then be used like this:\n\n.. code-block::" in example.text


def test_an_overlap_never_opens_with_a_directive_body_left_without_its_first_line() -> None:
    # nox's usage page: the chunk after "Re-using virtualenvs" opened with the body of
    # `.. code-block:: console` (its three commands fit the overlap, the directive did not),
    # and the extractive writer quoted "nox -r nox --reuse-existing-virtualenvs ..." as prose
    source = (
        "Re-using virtualenvs\n--------------------\n\n"
        + " ".join(f"Sentence {n} says more about reusing environments." for n in range(9))
        + " Use ``-r`` or ``--reuse-venv=yes``:\n\n"
        ".. code-block:: console\n\n"
        "    nox -r\n    nox --reuse-existing-virtualenvs\n    nox --reuse-venv=yes\n\n"
        "If the Noxfile sets ``nox.options.reuse_existing_virtualenvs``, you can override it "
        "from the command line by using ``--no-reuse-existing-virtualenvs`` in every run.\n"
    )
    (parsed,) = load_rst("usage.rst", source.encode()).parsed
    chunks = chunks_of(parsed, target=90, overlap=25)
    assert len(chunks) > 1
    for chunk in chunks:
        assert not chunk.text.startswith("nox -r")
    assert ".. code-block:: console\n\n    nox -r" in find(chunks, "nox -r").text
    last = find(chunks, "If the Noxfile sets")
    assert last.text.startswith("If the Noxfile sets")
    # an overlap with room for the directive's first line keeps it with its body
    wider = chunks_of(parsed, target=90, overlap=30)
    assert wider[-1].text.startswith(".. code-block:: console\n\n    nox -r")


def test_an_overlap_never_opens_inside_a_code_block_cut_for_size() -> None:
    # cibuildwheel's options page: the chunk after a long example opened with its closing
    # fence, so everything after it read as code and its notes were never quoted
    source = (
        "# Options\n\nSet the environment like this:\n\n```yaml\n"
        + "".join(f"CIBW_ENVIRONMENT: FLAG_{n}=value{n}\n" for n in range(30))
        + "```\n\nSeparate multiple values with a space.\n\n"
        "cibuildwheel also sets `CIBUILDWHEEL_BUILD_IDENTIFIER` to the current build.\n"
    )
    (parsed,) = load_markdown("options.md", source.encode()).parsed
    chunks = chunks_of(parsed, target=60, overlap=20)
    assert len(chunks) > 2
    for chunk in chunks:
        assert not chunk.text.startswith("```\n")
    assert find(chunks, "CIBUILDWHEEL_BUILD_IDENTIFIER").text.startswith("Separate multiple")


def test_a_code_block_cut_for_size_keeps_a_comment_with_the_code_below_it() -> None:
    # packaging's specifiers page: a doctest cut for size ended a chunk on its comment and
    # opened the next with the calls the comment says what they are for
    call = '    >>> SpecifierSet(">={n}.0").contains("{n}.1")\n    True\n'
    calls = "".join(call.format(n=n) for n in range(12))
    source = (
        "Specifiers\n==========\n\n.. doctest::\n\n"
        + calls
        + "    >>> # We can check if a specifier set can never be satisfied\n"
        + '    >>> SpecifierSet(">=2.0,<1.0").is_unsatisfiable()\n    True\n'
        + '    >>> SpecifierSet(">=1.0,<2.0").is_unsatisfiable()\n    False\n'
        + "    >>> # Compound sets may also become unsatisfiable\n"
        + '    >>> (SpecifierSet(">=3.9") & SpecifierSet("<3")).is_unsatisfiable()\n    True\n'
    )
    (parsed,) = load_rst("specifiers.rst", source.encode()).parsed
    for target in range(60, 200, 9):
        chunks = chunks_of(parsed, target=target, overlap=10)
        assert len(chunks) > 1
        for chunk in chunks:
            assert not chunk.text.rstrip().endswith("never be satisfied")
        captioned = find(chunks, "never be satisfied")
        assert 'SpecifierSet(">=2.0,<1.0").is_unsatisfiable()\n    True' in captioned.text
        # as many lines below it as the target has room for (the comment and both: 69)
        second = 'SpecifierSet(">=1.0,<2.0").is_unsatisfiable()\n    False' in captioned.text
        assert second == (target >= 69)
        # the next comment is not pulled in with it, nor are its lines
        later = find(chunks, "Compound sets")
        assert "(SpecifierSet(" in later.text


def test_an_introduction_stays_with_its_example_up_to_a_quarter_past_the_target() -> None:
    intro = (
        "If you do want the generality, then you should update an existing `TypeChecker` "
        "or create a new one. You may then create a new validator via `extend`."
    )
    code = "\n".join(f"    line_{n} = checker.redefine('number', is_my_int_{n})" for n in range(7))
    prose = "Validating With Additional Types\n================================\n\n"
    source = f"{prose}Some text before it.\n\n{intro}\n\n.. testcode::\n\n{code}\n"
    (parsed,) = load_rst("validate.rst", source.encode()).parsed
    example_tokens = estimate_tokens(f".. testcode::\n\n{code}")
    intro_tokens = estimate_tokens(intro)
    target = example_tokens + intro_tokens - 10  # the two together are just past the target
    example = find(chunks_of(parsed, target=target), "line_6")
    assert example.text.startswith(intro)
    assert estimate_tokens(example.text) <= target + target // 4
    apart = find(chunks_of(parsed, target=(example_tokens + intro_tokens) * 3 // 4), "line_6")
    assert apart.text.startswith(".. testcode::")  # a quarter more is not room enough


def test_the_heading_above_an_introduction_moves_on_with_it() -> None:
    # An introduction may take a quarter more than the target; a heading held to the
    # target was left behind, a chunk of its own.
    intro = " ".join(f"This paragraph explains step {n} of the usage." for n in range(4))
    code = "\n".join(f"value_{n} = compute(step={n})" for n in range(6))
    top = "Words about the top section of this page, long enough to be a small chunk of text."
    usage = f"## Usage details\n\n{intro} Use it as below:\n\n```python\n{code}\n```\n"
    text = f"# Top\n\n{top}\n\n{usage}"
    (parsed,) = load_markdown("usage.md", text.encode()).parsed
    for target in range(90, 110):
        chunks = chunks_of(parsed, target=target)
        assert not any(c.text == "## Usage details" for c in chunks), target
        assert find(chunks, "value_5").text.startswith("## Usage details\n\nThis paragraph")


@pytest.mark.parametrize(
    ("source", "title"),
    [
        ("# Guide\n\nText.\n\n## Usage\n\nMore.\n\n# Appendix\n\nEnd.\n", "Guide"),
        # Sections only: the navigation of a documentation site titles the page.
        ("### Response\n\nText.\n\n## Third party responses\n\nMore.\n", "responses.md"),
        ("## Users\n\nText.\n\n## Permissions\n\nMore.\n", "responses.md"),
        # One heading above every other one is the title, whatever its level.
        ("## Lifespan\n\nText.\n\n### In tests\n\nMore.\n", "Lifespan"),
        ("Schemas are generated.\n\n### Third party packages\n\nMore.\n", "responses.md"),
        ("Text without a heading.\n", "responses.md"),
    ],
)
def test_a_markdown_title_is_the_heading_above_all_others(source: str, title: str) -> None:
    (parsed,) = load_markdown("docs/responses.md", source.encode()).parsed
    assert parsed.document.title == title


def test_markdown_admonition_bodies_are_prose_not_indented_code() -> None:
    source = (
        "# Config\n\n!!! tip\n\n    You can use `DatabaseURL` to keep secrets out of logs.\n\n"
        "    ```python\n    url = DatabaseURL(value)\n    ```\n\n"
        "Outside again.\n\n    An indented code block stays code.\n"
    )
    (parsed,) = load_markdown("config.md", source.encode()).parsed
    kinds = {source[b.start : b.end]: b.kind for b in parsed.blocks}
    assert kinds["You can use `DatabaseURL` to keep secrets out of logs."] is BlockKind.PARAGRAPH
    assert kinds["```python\n    url = DatabaseURL(value)\n    ```"] is BlockKind.CODE
    assert kinds["An indented code block stays code."] is BlockKind.CODE
    assert kinds["!!! tip"] is BlockKind.PARAGRAPH


def test_a_minified_data_file_is_skipped_with_its_reason() -> None:
    # griffe ships its API as docs/griffe.json, megabytes on one line: its chunks could
    # only be cited "L1-L1", and answers quoted runs of `"is_public": true, …`.
    dump = "{" + ", ".join(f'"name{i}": {{"is_public": true}}' for i in range(2_000)) + "}"
    with pytest.raises(LoadError, match=r"minified or generated: .* on 1 line"):
        load_code("docs/griffe.json", dump.encode())
    pretty = "{\n" + ",\n".join(f'  "name{i}": {{"is_public": true}}' for i in range(2_000))
    loaded = load_code("docs/griffe.json", (pretty + "\n}\n").encode())
    assert loaded.parsed[0].blocks
