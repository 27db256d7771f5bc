"""The command line on real files and a real index (click's runner, no mocks)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from citesynth import passages
from citesynth.cli import main
from citesynth.render import printable

SEARCH_FIELDS = {
    "chunk_id",
    "doc_id",
    "path",
    "title",
    "page",
    "start_line",
    "end_line",
    "char_start",
    "char_end",
    "text",
    "score",
    "confidence",
}


def test_index_then_search_json(run: CliRunner, corpus: Path) -> None:
    result = run.invoke(main, ["index", str(corpus), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["indexed"] == 4 and report["skipped"] == []
    assert "Indexed" not in result.stdout  # the summary goes to stderr, JSON alone to stdout

    result = run.invoke(main, ["search", "read timeout expires", "-k", "2", "--json"])
    assert result.exit_code == 0, result.output
    hits = json.loads(result.stdout)
    assert len(hits) == 2
    assert set(hits[0]) >= SEARCH_FIELDS
    top = hits[0]
    assert top["path"] == "corpus/guide.md" and top["page"] is None
    source = (corpus / "guide.md").read_text()
    assert source[top["char_start"] : top["char_end"]] == top["text"]
    assert source.count("\n", 0, top["char_start"]) + 1 == top["start_line"]
    assert 0 <= top["confidence"] <= 1


def test_search_text_output_shows_location_and_snippet(run: CliRunner, corpus: Path) -> None:
    run.invoke(main, ["index", str(corpus), "-q"])
    result = run.invoke(main, ["search", "connection pool keeps at most ten connections"])
    assert result.exit_code == 0
    first = result.stdout.splitlines()[0]
    assert first.startswith("1. corpus/page.html:L") and "confidence" in first
    assert "connection pool keeps at most" in result.stdout


def test_index_reports_skips_one_line_each(run: CliRunner, corpus: Path) -> None:
    (corpus / "broken.pdf").write_bytes(b"%PDF-1.4 nonsense")
    (corpus / "empty.md").write_text("")
    result = run.invoke(main, ["index", str(corpus)])
    assert result.exit_code == 0
    assert "skipped corpus/broken.pdf: corrupt PDF (data format error)" in result.stderr
    assert "skipped corpus/empty.md: empty file" in result.stderr
    assert "Indexed 4 files" in result.stderr and "2 skipped" in result.stderr


def test_search_without_an_index_says_what_to_do(run: CliRunner) -> None:
    result = run.invoke(main, ["search", "anything"])
    assert result.exit_code == 2
    assert "run `citesynth index PATH` first" in result.stderr


def test_bad_settings_are_one_red_line(
    run: CliRunner, corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITESYNTH_CHUNK_TOKENS", "many")
    result = run.invoke(main, ["index", str(corpus)])
    assert result.exit_code == 1
    assert result.stderr.strip() == "error: CITESYNTH_CHUNK_TOKENS must be a number, got 'many'"
    assert "Traceback" not in result.output


def test_unknown_embedder_is_a_config_error(run: CliRunner, corpus: Path) -> None:
    result = run.invoke(main, ["index", str(corpus), "--embedder", "word2vec"])
    assert result.exit_code == 1
    assert "unknown embedder 'word2vec'" in result.stderr


def test_stats(run: CliRunner, corpus: Path) -> None:
    run.invoke(main, ["index", str(corpus), "--no-embed", "-q"])
    result = run.invoke(main, ["stats", "--no-embed"])
    assert result.stdout.startswith("4 files, 4 documents, ")
    assert "what the corpus is about" not in result.stdout  # four files: too few to tell


def test_stats_names_what_the_corpus_is_about(run: CliRunner, tmp_path: Path) -> None:
    corpus = tmp_path / "acme"
    corpus.mkdir()
    for i in range(24):
        (corpus / f"page{i}.md").write_text(f"# Page {i}\n\nWith Acme you set {i} retries.\n")
    run.invoke(main, ["index", str(corpus), "--no-embed", "-q"])
    result = run.invoke(main, ["stats", "--no-embed"])
    assert result.exit_code == 0, result.output
    assert " ".join(result.stdout.split()).endswith("read every source under it): Acme")


def test_demo_indexes_docs_and_generated_pdf(run: CliRunner, tmp_path: Path) -> None:
    checkout = Path(__file__).resolve().parents[1]
    result = run.invoke(
        main, ["demo", "--root", str(checkout), "--index", str(tmp_path / "demo-index")]
    )
    assert result.exit_code == 0, result.output
    assert "How does citesynth keep every citation exact" in result.stdout
    assert "skipped" not in result.stderr
    assert "README.md" not in result.stdout  # it shows the demo's own output: never indexed
    assert (checkout / "build" / "demo" / "citesynth-architecture.pdf").is_file()


def test_hit_json_is_the_documented_schema(run: CliRunner, corpus: Path) -> None:
    documented = (Path(__file__).resolve().parents[1] / "docs" / "search-json.md").read_text()
    run.invoke(main, ["index", str(corpus), "-q"])
    result = run.invoke(main, ["search", "backoff", "--json", "-k", "1"])
    (hit,) = json.loads(result.stdout)
    for field in hit:
        assert f"`{field}`" in documented, f"{field} is not documented in docs/search-json.md"
    assert passages.__doc__ and "docs/search-json.md" in passages.__doc__


def test_control_characters_in_file_names_are_escaped_on_the_terminal(
    run: CliRunner, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "evil\n\x1b[2Jname.md").write_text("# Walruses\n\nWalruses haul out on the ice.\n")
    (docs / "empty\x1b[31m.md").write_text("")
    index = run.invoke(main, ["index", str(docs)])
    assert index.exit_code == 0, index.output
    search = run.invoke(main, ["search", "walruses"])
    ask = run.invoke(main, ["ask", "where do walruses haul out?", "--model", "extractive"])
    for result in (index, search, ask):
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.output
    assert "skipped docs/empty\\x1b[31m.md: empty file" in index.output
    assert "1. docs/evil\\n\\x1b[2Jname.md:L1-L3" in search.stdout
    assert "docs/evil\\n\\x1b[2Jname.md:L" in ask.stdout


def test_printable_escapes_only_what_drives_a_terminal() -> None:
    assert printable("docs/naïve café.md") == "docs/naïve café.md"
    assert printable("a\tb\x85c\u2028d\u202ee\udcff") == "a\\tb\\x85c\\u2028d\\u202ee\\udcff"
