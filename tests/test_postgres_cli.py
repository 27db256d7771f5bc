"""The PostgreSQL store through the command line and the engine: index, search, ask, migrate.

A real PostgreSQL 18 with pgvector (the session's throwaway server), click's runner, no
mocks. The same corpus and questions give the same answers as the SQLite store.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from citesynth import Engine, Settings, StoreError, StoreLockedError, get_store, migrate
from citesynth.cli import main
from citesynth.copying import CopyFinished
from tests.serving import free_port, wait_for

psycopg = pytest.importorskip("psycopg")


def _hits(run: CliRunner, *options: str) -> list[tuple[str, int, int]]:
    result = run.invoke(main, ["search", "read timeout expires", "-k", "3", "--json", *options])
    assert result.exit_code == 0, result.output
    return [(hit["path"], hit["start_line"], hit["end_line"]) for hit in json.loads(result.stdout)]


def test_index_search_ask_with_store_match_the_sqlite_store(
    run: CliRunner, corpus: Path, postgres_url: str
) -> None:
    store = ["--store", postgres_url]
    result = run.invoke(main, ["index", str(corpus), "--json", *store])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["indexed"] == 4
    again = run.invoke(main, ["index", str(corpus), "--json", *store])
    assert json.loads(again.stdout)["unchanged"] == 4  # incremental, as with SQLite

    assert run.invoke(main, ["index", str(corpus), "-q"]).exit_code == 0  # ./.citesynth
    assert _hits(run, *store) == _hits(run)

    ask = ["ask", "What happens when the read timeout expires?", "--model", "extractive"]
    ours = run.invoke(main, [*ask, "--json", *store])
    theirs = run.invoke(main, [*ask, "--json"])
    assert ours.exit_code == 0, ours.output
    assert json.loads(ours.stdout)["answer"] == json.loads(theirs.stdout)["answer"]
    assert "ReadTimeout" in json.loads(ours.stdout)["answer"]

    stats = run.invoke(main, ["stats", *store])
    assert stats.stdout.startswith("4 files, 4 documents")


def test_the_store_comes_from_the_environment_too(
    run: CliRunner, corpus: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITESYNTH_STORE", postgres_url)
    assert run.invoke(main, ["index", str(corpus), "-q"]).exit_code == 0
    assert not Path(".citesynth").exists()
    assert _hits(run)[0][0] == "corpus/guide.md"


def test_an_empty_database_says_how_to_index_it(run: CliRunner, postgres_url: str) -> None:
    result = run.invoke(main, ["search", "anything", "--store", postgres_url])
    assert result.exit_code == 2
    assert "run `citesynth index PATH` first" in result.output
    assert "postgresql://postgres:" in result.output


def test_migrate_copies_verifies_and_resumes(
    run: CliRunner, corpus: Path, postgres_url: str
) -> None:
    assert run.invoke(main, ["index", str(corpus), "-q"]).exit_code == 0
    result = run.invoke(main, ["migrate", "--from", ".citesynth", "--to", postgres_url])
    assert result.exit_code == 0, result.output
    assert "copied 4 files (0 already there, 0 removed" in result.output
    assert "the same counts as the source" in result.output
    assert _hits(run, "--store", postgres_url) == _hits(run)

    (corpus / "notes.txt").unlink()
    (corpus / "extra.md").write_text("# Extra\n\nA page added after the first copy.\n")
    assert run.invoke(main, ["index", str(corpus), "-q"]).exit_code == 0
    again = run.invoke(main, ["migrate", "--from", ".citesynth", "--to", postgres_url])
    assert "copied 1 files (3 already there, 1 removed" in again.output, again.output

    back = run.invoke(main, ["migrate", "--from", postgres_url, "--to", "sqlite:copy"])
    assert back.exit_code == 0, back.output
    assert _hits(run, "--store", "sqlite:copy") == _hits(run)


async def test_migrate_refuses_a_missing_source_or_one_target_for_both(
    tmp_path: Path, postgres_url: str
) -> None:
    with pytest.raises(StoreError, match="no index at"):
        async for _ in migrate(str(tmp_path / "none"), postgres_url):
            pass
    with pytest.raises(StoreError, match="name the same index"):
        async for _ in migrate(postgres_url, postgres_url):
            pass


async def test_a_copy_keeps_vectors_without_embedding_again(
    corpus: Path, postgres_url: str, tmp_path: Path
) -> None:
    settings = Settings(index_dir=tmp_path / "index", embedder="hashing", verifier="lexical")
    async with await Engine.open(settings=settings, indexing=True) as engine:
        await engine.index([corpus])
        before = await engine.search("read timeout expires", 3)
    events = [event async for event in migrate(str(tmp_path / "index"), postgres_url)]
    finished = events[-1]
    assert isinstance(finished, CopyFinished)
    assert finished.vectors_copied == finished.target.vectors == finished.source.vectors > 0
    async with await Engine.open(settings=Settings(store=postgres_url, verifier="lexical")) as pg:
        assert pg.embedder is not None and pg.embedder.name == "hashing-256"
        after = await pg.search("read timeout expires", 3)
    # Same order; fused scores differ a little, as tantivy keeps lengths in one byte.
    assert [hit.chunk.id for hit in after] == [hit.chunk.id for hit in before]


def test_eval_keeps_each_corpus_in_a_schema_of_its_own(
    run: CliRunner, corpus: Path, tmp_path: Path, postgres_url: str
) -> None:
    questions = tmp_path / "questions.jsonl"
    rows = [
        {"question": "What happens when the read timeout expires?", "answers": ["ReadTimeout"]},
        {"question": "How long is the connect timeout by default?", "answers": ["five seconds"]},
    ]
    questions.write_text("".join(json.dumps(row) + "\n" for row in rows))
    args = ["eval", str(questions), "--corpus", str(corpus), "--model", "fake", "--json"]
    result = run.invoke(main, [*args, "--store", postgres_url, "--out", "run"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["questions"] == 2 and set(summary["runs"]) == {"ours", "naive"}
    assert not Path("cache").exists()
    base, schema = postgres_url.rsplit("&schema=", 1)
    with psycopg.connect(base) as connection:
        names = connection.execute(
            "SELECT nspname FROM pg_namespace WHERE nspname LIKE %s", (f"{schema}_questions%",)
        ).fetchall()
    assert len(names) == 1  # this corpus's schema, named after the store's and the set's
    stats = run.invoke(main, ["stats", "--store", f"{base}&schema={names[0][0]}"])
    assert stats.stdout.startswith("4 files")


async def test_engine_open_takes_a_store_location(corpus: Path, postgres_url: str) -> None:
    async with await Engine.open(postgres_url, settings=Settings(embedder="hashing")) as engine:
        await engine.index([corpus])
        assert (await engine.stats()).files == 4
    async with await Engine.open(postgres_url, create=False) as engine:
        assert engine.embedder is not None and engine.embedder.name == "hashing-256"


def test_eval_under_a_store_setting_never_writes_into_that_index(
    run: CliRunner,
    corpus: Path,
    tmp_path: Path,
    postgres_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    team = tmp_path / "team"
    team.mkdir()
    (team / "handbook.md").write_text("# Team\n\nDeploys happen on Tuesdays.\n")
    monkeypatch.setenv("CITESYNTH_STORE", postgres_url)
    assert run.invoke(main, ["index", str(team), "-q"]).exit_code == 0
    questions = tmp_path / "questions.jsonl"
    questions.write_text(json.dumps({"question": "What is the read timeout?"}) + "\n")
    args = ["eval", str(questions), "--corpus", str(corpus), "--model", "fake", "--out", "run"]
    result = run.invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    assert run.invoke(main, ["stats"]).stdout.startswith("1 files")  # the team's index only
    base, schema = postgres_url.rsplit("&schema=", 1)
    with psycopg.connect(base) as connection:
        names = connection.execute(
            "SELECT nspname FROM pg_namespace WHERE nspname LIKE %s", (f"{schema}_questions%",)
        ).fetchall()
    assert len(names) == 1  # the corpus went to a schema of its own beside it


def test_index_and_store_together_are_refused(run: CliRunner, postgres_url: str) -> None:
    result = run.invoke(main, ["stats", "--index", "here", "--store", postgres_url])
    assert result.exit_code == 2 and "not both" in result.output


def test_an_explicit_index_folder_wins_over_the_store_setting(
    run: CliRunner, corpus: Path, monkeypatch: pytest.MonkeyPatch, postgres_url: str
) -> None:
    monkeypatch.setenv("CITESYNTH_STORE", postgres_url)
    assert run.invoke(main, ["index", str(corpus), "--index", "local", "-q"]).exit_code == 0
    assert Path("local/index.sqlite3").is_file()
    assert run.invoke(main, ["stats"]).stdout.startswith("0 files")  # the database: nothing


def test_another_embedder_than_the_index_was_built_with_is_refused(
    run: CliRunner, corpus: Path, postgres_url: str
) -> None:
    assert run.invoke(main, ["index", str(corpus), "-q", "--store", postgres_url]).exit_code == 0
    result = run.invoke(
        main, ["search", "timeout", "--store", postgres_url, "--embedder", "hashing:64"]
    )
    assert result.exit_code == 1
    assert "built with the embedder 'hashing-256' (256 dimensions)" in result.output
    assert "postgresql://postgres:" in result.output


async def test_a_copy_into_an_index_another_process_writes_is_refused(
    corpus: Path, postgres_url: str, tmp_path: Path
) -> None:
    async with await Engine.open(postgres_url, settings=Settings(embedder="hashing")) as engine:
        await engine.index([corpus])
    busy = await get_store(f"sqlite:{tmp_path / 'busy'}")
    try:
        async with busy.writing():
            with pytest.raises(StoreLockedError, match="another citesynth process is writing"):
                async for _ in migrate(postgres_url, f"sqlite:{tmp_path / 'busy'}"):
                    pass
    finally:
        await busy.close()


def test_report_and_serve_read_the_index_in_the_database(
    run: CliRunner, corpus: Path, postgres_url: str, tmp_path: Path
) -> None:
    store = ["--store", postgres_url]
    assert run.invoke(main, ["index", str(corpus), "-q", *store]).exit_code == 0
    question = "What happens when the read timeout expires?"
    result = run.invoke(
        main, ["report", question, "--model", "extractive", "--format", "json", *store]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["sources"] and report["sources"][0]["path"].startswith("corpus/")
    assert "read timeout limits" in report["markdown"]

    port = free_port()
    env = {**os.environ, "CITESYNTH_EMBEDDER": "hashing", "CITESYNTH_VERIFIER": "lexical"}
    env.pop("CITESYNTH_TOKEN", None)
    command = [sys.executable, "-m", "citesynth", "serve", *store, "--model", "extractive"]
    process = subprocess.Popen(
        [*command, "--port", str(port)], env=env, stderr=subprocess.PIPE, text=True, cwd=tmp_path
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(url, process)
        answer = httpx.post(f"{url}/api/chat", json={"question": question}, timeout=30)
        assert answer.status_code == 200, answer.text
        assert "ReadTimeout" in answer.json()["answer"]
        assert answer.json()["citations"][0]["path"] == "corpus/guide.md"
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr
