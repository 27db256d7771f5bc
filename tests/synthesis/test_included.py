"""Code a sentence shows by including another file (`.. literalinclude::`)."""

from __future__ import annotations

import re
from pathlib import Path

from citesynth import Engine
from citesynth.ingest.references import included_paths, references
from citesynth.llm.fake import ScriptedModel
from citesynth.synthesis import ExtractiveWriter, LLMWriter
from citesynth.synthesis.included_code import included_block, included_files
from citesynth.synthesis.introduced import Included, included, line_ranges
from citesynth.synthesis.prompts import BUILT_IN
from citesynth.synthesis.sources import Source
from citesynth.types import Chunk, ChunkId, DocumentId, Hit
from tests.conftest import write

FILEIO = (
    "Asynchronous file I/O\n=====================\n\n"
    "AnyIO provides asynchronous wrappers for blocking file operations in worker threads.\n\n"
    "To wrap an existing open file object as an asynchronous file, you can use\n"
    ":func:`.wrap_file`:\n\n"
    ".. literalinclude:: snippets/wrap_file.py\n"
    "   :language: python\n\n"
    "Closing the wrapper also closes the underlying file object.\n"
)
SNIPPET = (
    "from anyio import run, wrap_file\n\n\n"
    "async def main() -> None:\n"
    '    with open("/some/path") as f:\n'
    "        async for line in wrap_file(f):\n"
    '            print(line, end="")\n\n\n'
    "run(main)\n"
)
QUESTION = "How do I wrap an existing open file object as an asynchronous file?"


def test_a_sentence_ending_in_a_colon_above_a_literalinclude_includes_it() -> None:
    sentence = ":func:`.wrap_file`:"
    start = FILEIO.index("To wrap")
    end = FILEIO.index(sentence) + len(sentence)
    found = included(FILEIO, start, end)
    assert found == Included(
        "snippets/wrap_file.py",
        FILEIO.index(".. literalinclude"),
        FILEIO.index("   :language: python") + len("   :language: python"),
    )
    myst = "Run it like this:\n\n```{literalinclude} ../examples/app.py\n:language: python\n```\n"
    assert included(myst, 0, len("Run it like this:")) == Included(
        "../examples/app.py", myst.index("```{"), myst.index("python") + len("python")
    )
    part = FILEIO.replace(":language: python", ":lines: 4-7")
    found = included(part, start, part.index(sentence) + len(sentence))
    assert found is not None and found.lines == ((4, 7),)
    named = FILEIO.replace(":language: python", ":pyobject: main")
    by_name = included(named, start, named.index(sentence) + len(sentence))
    assert by_name is not None and by_name.pyobject == "main"
    marked = FILEIO.replace(":language: python", ":start-after: # begin")
    assert included(marked, start, marked.index(sentence) + len(sentence)) is None
    prose = "It is read in full.\n\n.. literalinclude:: x.py\n"
    assert included(prose, 0, len("It is read in full.")) is None
    yaml = "Run it:\n\n```{literalinclude} app.py\n---\nlines: 2-5\n---\n```\n"
    yaml_part = included(yaml, 0, len("Run it:"))  # a part of the file, as MyST's YAML
    assert yaml_part is not None and yaml_part.lines == ((2, 5),)
    whole = yaml.replace("lines: 2-5", "language: python")
    assert included(whole, 0, len("Run it:")) == Included(
        "app.py", whole.index("```{"), whole.index("---\n```") + 3
    )


def test_line_ranges_read_as_sphinx_reads_them() -> None:
    assert line_ranges("2-5,8, 10-") == ((2, 5), (8, 8), (10, None))
    assert line_ranges("-3") == ((1, 3),)
    assert line_ranges("5-2") is None and line_ranges("0") is None and line_ranges("2,,3") is None


def test_an_included_path_is_looked_for_from_every_folder_above_and_never_in_code() -> None:
    assert included_paths("/examples/app.py", "docs/source/guide/io.rst") == [
        "docs/source/guide/examples/app.py",
        "docs/source/examples/app.py",
        "docs/examples/app.py",
        "examples/app.py",
    ]
    assert included_paths("snippets\\read.py", "docs/io.rst") == ["docs/snippets/read.py"]
    shown = "How Sphinx writes it:\n\n```rst\n.. literalinclude:: x.py\n```\n"
    assert references(shown, "docs/a.md") == []


def _write(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    write(root, "fileio.rst", FILEIO)
    write(root, "snippets/wrap_file.py", SNIPPET)
    return root


async def test_the_extractive_writer_shows_the_included_code_and_cites_its_file(
    engine: Engine, tmp_path: Path
) -> None:
    await engine.index([_write(tmp_path)])
    engine.writer = ExtractiveWriter(engine.embedder)
    answer = await engine.answer(QUESTION, cache=False)
    paths = {s.number: s.path for s in answer.sources}
    [lead] = [c for c in answer.claims if "wrap_file" in c.text and c.kind != "code"]
    assert lead.text.startswith("To wrap an existing open file object")
    # the snippet's citation stays though it says nothing of the sentence: the code needs it
    assert {paths[n] for n in lead.citations} == {"docs/fileio.rst", "docs/snippets/wrap_file.py"}
    assert "`wrap_file`: [" in answer.answer  # ":func:`.wrap_file`" as Sphinx shows it
    assert "```python\nfrom anyio import run, wrap_file\n" in answer.answer
    [code] = [c for c in answer.claims if c.kind == "code"]
    assert code.label == "supported"
    assert "docs/snippets/wrap_file.py" in {paths[n] for n in code.citations}


async def test_a_longer_file_is_shown_from_its_beginning_and_cut(
    engine: Engine, tmp_path: Path
) -> None:
    root = _write(tmp_path)
    steps = "".join(
        f"    x{n} = await f.read({n})  # step {n} of reading the file\n" for n in range(40)
    )
    write(root, "snippets/wrap_file.py", f"{SNIPPET}\n\nasync def helper(f) -> None:\n{steps}")
    await engine.index([root])
    engine.writer = ExtractiveWriter(engine.embedder)
    answer = await engine.answer(QUESTION, cache=False)
    assert "```python\nfrom anyio import run, wrap_file\n" in answer.answer, answer.answer
    assert "\n…\n```" in answer.answer  # the rest is in the file
    [code] = [c for c in answer.claims if c.kind == "code"]
    assert code.label == "supported"


async def test_a_model_sentence_stopping_at_its_colon_gets_the_included_code(
    engine: Engine, tmp_path: Path
) -> None:
    await engine.index([_write(tmp_path)])
    sources = {s.path: s.number for s in (await engine.answer(QUESTION)).sources}
    rst = sources["docs/fileio.rst"]
    reply = (
        "To wrap an existing open file object as an asynchronous file, you can use "
        f"`wrap_file`: [{rst}]"
    )
    engine.writer = LLMWriter(ScriptedModel([reply]), BUILT_IN)
    answer = await engine.answer(QUESTION, not_found_below=0.0, answerability=False, cache=False)
    assert "```python\nfrom anyio import run, wrap_file\n" in answer.answer, answer.answer
    [code] = [c for c in answer.claims if c.kind == "code"]
    assert code.label == "supported"
    assert sources["docs/snippets/wrap_file.py"] in code.citations
    paths = {s.number: s.path for s in answer.sources}
    [lead] = [c for c in answer.claims if c.kind != "code"]
    assert {paths[n] for n in lead.citations} == {"docs/fileio.rst", "docs/snippets/wrap_file.py"}
    assert re.search(r"`wrap_file`: \[\d+,\d+\]\n\n```python\n", answer.answer)


async def test_the_lines_an_include_names_are_the_lines_shown(
    engine: Engine, tmp_path: Path
) -> None:
    root = tmp_path / "docs"
    write(root, "fileio.rst", FILEIO.replace(":language: python", ":lines: 4-7"))
    write(root, "snippets/wrap_file.py", SNIPPET)
    await engine.index([root])
    engine.writer = ExtractiveWriter(engine.embedder)
    answer = await engine.answer(QUESTION, cache=False)
    assert "```python\nasync def main() -> None:\n" in answer.answer, answer.answer
    assert "from anyio import" not in answer.answer and "run(main)" not in answer.answer
    [code] = [c for c in answer.claims if c.kind == "code"]
    assert code.label == "supported"


def _source(number: int, path: str, text: str, first_line: int, char_start: int) -> Source:
    chunk = Chunk(
        id=ChunkId(f"c{number}"),
        document_id=DocumentId(path),
        path=path,
        title="",
        heading_path=(),
        text=text,
        char_start=char_start,
        char_end=char_start + len(text),
        start_line=first_line,
        end_line=first_line + text.count("\n"),
    )
    return Source(number, Hit(chunk, 1.0, 0.9), text)


def test_an_include_opening_the_next_chunk_is_the_sentences() -> None:
    # chunking cut after "…node classes:" because the block did not fit beside it
    intro = _source(
        1, "docs/todo.rst", "Write the extension.\n\nLet's start with the node classes:", 1, 0
    )
    directive = ".. literalinclude:: examples/todo.py\n   :lines: 2-3\n\nNode classes inherit."
    below = _source(2, "docs/todo.rst", directive, 5, 60)
    code = _source(3, "docs/examples/todo.py", "import x\nclass todo:\n    pass\nrest = 1\n", 1, 0)
    files = included_files([intro, below, code])
    assert files.following(intro) is below and files.following(below) is None
    text = intro.chunk.text
    block, lender = included_block(text, text.index("Let's"), len(text), intro, files)
    assert lender is code and block is not None
    assert block.lines == ("class todo:", "    pass") and block.complete
    far = _source(4, "docs/examples/todo.py", "import x\n", 1, 0)
    far_files = included_files([intro, below, far])
    assert included_block(text, text.index("Let's"), len(text), intro, far_files) == (None, None)


def test_a_pyobject_include_shows_the_named_definition() -> None:
    module = (
        "class A:\n    x = 1\n\n\nclass B(A):\n    def run(self):\n        return 1\n\n\n"
        "def setup(app):\n    pass\n"
    )
    code = _source(2, "docs/b.py", module, 1, 0)
    for name, lines in [
        ("B", ("class B(A):", "    def run(self):", "        return 1")),
        ("B.run", ("def run(self):", "    return 1")),
        ("missing", None),
    ]:
        page = f"Here is the class:\n\n.. literalinclude:: b.py\n   :pyobject: {name}\n"
        intro = _source(1, "docs/page.rst", page, 1, 0)
        found = included(page, 0, len("Here is the class:"))
        assert found is not None and found.pyobject == name
        block, lender = included_block(
            page, 0, len("Here is the class:"), intro, included_files([intro, code])
        )
        if lines is None:
            assert (block, lender) == (None, None)
        else:
            assert lender is code and block is not None and block.lines == lines and block.complete
