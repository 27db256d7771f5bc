"""Two `serve` processes on one PostgreSQL database: load, a writer, and the server failing.

The SciFact abstracts (hashing embedder, 120-token chunks, as `service_load`) are indexed
into a fresh schema; two servers (`service_load.serve`: the app with the scripted model,
0.8 s of generation per answer) run over it on two ports.

1. Load: 50 concurrent streams, half to each server, while an indexer process writes new
   files into the same database (`citesynth index --store`, 20 files a run, one run after
   another). Errors, p95 of the `sources` event, the indexer's runs; the same load on the
   SQLite store first (two servers and the indexer on one index folder) as the baseline.
2. Consistency: every file the indexer wrote is there with exactly the chunks a fresh
   SQLite index of the same folder holds (no chunk lost, none twice), and the BM25
   statistics match a recount (`PostgresStore.consistency_problems`).
3. Faults while serving: PostgreSQL stopped for 3 s under a stream of requests, then
   started: what the requests got meanwhile (status, message), how long until answers
   came back, with no process restarted.
4. Faults while indexing: PostgreSQL stopped in the middle of an index run of 2,000 files,
   started again; the run's exit code and message, then the same command again, and the
   consistency check.

    python -m benchmarks.postgres_load        # ≈ 5 min
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from benchmarks.common import CACHE, DATA, ROOT, percentiles, require, write_result
from benchmarks.pg import start, with_schema
from benchmarks.service_load import first_event
from citesynth.index.postgres import PostgresStore
from citesynth.index.stores import get_store

WORK = CACHE / "pg-load"
PORTS = (8811, 8812)
ENV = {**os.environ, "CITESYNTH_EMBEDDER": "hashing", "CITESYNTH_CHUNK_TOKENS": "120",
       "CITESYNTH_OVERLAP_TOKENS": "15", "CITESYNTH_VERIFIER": "lexical"}  # fmt: skip


def citesynth(*arguments: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "citesynth", *arguments]
    return subprocess.run(command, env=ENV, cwd=WORK, capture_output=True, text=True, check=check)


def new_files(folder: Path, start: int, count: int, rng: random.Random) -> None:
    """`count` Markdown files of a few sections each, numbered from `start`."""
    words = "pool retry timeout proxy cache stream header cookie redirect limit".split()
    for number in range(start, start + count):
        sections = []
        for section in range(rng.randint(2, 6)):
            body = " ".join(rng.choice(words) for _ in range(rng.randint(60, 200)))
            sections.append(f"## Part {section}\n\nFile {number} part {section}: {body}.")
        (folder / f"note{number:05d}.md").write_text(f"# Note {number}\n\n" + "\n\n".join(sections))


async def wait_ready(port: int) -> None:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
        for _ in range(600):
            try:
                if (await client.get("/readyz")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.2)
    raise RuntimeError(f"the server on port {port} did not become ready")


async def stream(port: int, question: str) -> tuple[float, float, bool]:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:
        return await first_event(client, question)


def indexer(folder: Path, location: str, stop: Path, rng: random.Random) -> subprocess.Popen[str]:
    """A process that adds 20 files and indexes the folder, again and again, until `stop`."""
    script = (
        "import random, subprocess, sys, pathlib\n"
        "from benchmarks.postgres_load import new_files\n"
        f"folder, stop, rng = pathlib.Path({str(folder)!r}), pathlib.Path({str(stop)!r}), "
        f"random.Random({rng.randint(0, 10**6)})\n"
        "runs = 0\n"
        "while not stop.exists():\n"
        "    new_files(folder, 20 * runs, 20, rng)\n"
        "    done = subprocess.run([sys.executable, '-m', 'citesynth', 'index', str(folder),"
        f" '--store', {location!r}, '--json'], capture_output=True, text=True, "
        f"cwd={str(WORK)!r})\n"
        "    print(done.returncode, done.stdout.replace(chr(10), ' '), done.stderr[-300:].replace(chr(10), ' '), flush=True)\n"
        "    runs += 1\n"
    )
    return subprocess.Popen(
        [sys.executable, "-c", script], env=ENV, cwd=ROOT, stdout=subprocess.PIPE, text=True
    )


async def chunk_sets_match(folder: Path, location: str) -> dict[str, Any]:
    """The folder's chunks in PostgreSQL against a fresh SQLite index of the same folder."""
    reference = WORK / "reference-index"
    shutil.rmtree(reference, ignore_errors=True)
    citesynth("index", str(folder), "--index", str(reference), "-q")
    sqlite = await get_store(str(reference), create=False)
    pg = await PostgresStore.open(location, create=False)
    try:
        wanted = await sqlite.file_states()
        held = {path for path in await pg.file_states() if path.startswith(str(folder))}
        theirs = await sqlite.file_versions(sorted(wanted))
        ours = await pg.file_versions(sorted(wanted))
        expected = {r.chunk.id for v in theirs for chunks in v.chunks for r in chunks}
        found = [r.chunk.id for v in ours for chunks in v.chunks for r in chunks]
        return {
            "files_expected": len(wanted),
            "files_held": len(held),
            "chunks_expected": len(expected),
            "chunks_held": len(found),
            "chunks_lost": len(expected - set(found)),
            "chunks_extra": len(set(found) - expected),
            "chunks_twice": len(found) - len(set(found)),
            "statistics_problems": await pg.consistency_problems(),
        }
    finally:
        await sqlite.close()
        await pg.close()


async def load(questions: list[str], folder: Path, location: str) -> dict[str, Any]:
    stop = WORK / "stop-indexer"
    stop.unlink(missing_ok=True)
    writer = indexer(folder, location, stop, random.Random(1))
    await asyncio.sleep(3)  # the indexer is writing
    started = time.perf_counter()
    results = await asyncio.gather(
        *(stream(PORTS[i % 2], f"{q} load {i}") for i, q in enumerate(questions[:50])),
        return_exceptions=True,
    )
    seconds = time.perf_counter() - started
    stop.touch()
    out, _ = writer.communicate(timeout=600)
    runs = [line.split(" ", 1) for line in out.splitlines() if line.strip()]
    ok = [r for r in results if isinstance(r, tuple) and r[2]]
    return {
        "streams": 50,
        "servers": 2,
        "errors": len(results) - len(ok),
        "error_examples": [repr(r) for r in results if not (isinstance(r, tuple) and r[2])][:3],
        "sources_event_ms": percentiles([s * 1000 for s, _, _ in ok]),
        "seconds": round(seconds, 1),
        "indexer_runs": len(runs),
        "indexer_failed_runs": sum(1 for code, _ in runs if code != "0"),
    }


async def outage_while_serving(server: Any, questions: list[str]) -> dict[str, Any]:
    """Requests every 100 ms to both servers; the database down for 3 s in the middle."""
    log: list[tuple[float, int, str]] = []
    began = time.perf_counter()

    async def ask(i: int) -> None:
        port = PORTS[i % 2]
        body = {"query": f"{questions[i % len(questions)]} outage {i}", "k": 5}
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as c:
            try:
                reply = await c.post("/api/search", json=body)
                log.append((time.perf_counter() - began, reply.status_code, reply.text[:160]))
            except httpx.HTTPError as error:
                log.append((time.perf_counter() - began, 0, repr(error)))

    tasks = []
    stopped_at = started_at = 0.0
    for i in range(90):
        tasks.append(asyncio.create_task(ask(i)))
        await asyncio.sleep(0.1)
        if i == 20:
            await asyncio.to_thread(server.stop)
            stopped_at = time.perf_counter() - began
        if i == 50:
            await asyncio.to_thread(server.start)
            started_at = time.perf_counter() - began
    await asyncio.gather(*tasks)
    failed = [entry for entry in log if entry[1] != 200]
    after = [entry for entry in log if entry[0] > started_at]
    first_ok = min((t for t, status, _ in after if status == 200), default=None)
    return {
        "requests": len(log),
        "down_seconds": round(started_at - stopped_at, 1),
        "failed": len(failed),
        "failed_statuses": sorted({status for _, status, _ in failed}),
        "failure_example": failed[0][2] if failed else None,
        "failed_after_restart": sum(1 for t, s, _ in after if s != 200),
        "first_answer_after_restart_s": None
        if first_ok is None
        else round(first_ok - started_at, 2),
    }


async def outage_while_indexing(server: Any, folder: Path, location: str) -> dict[str, Any]:
    new_files(folder, 100_000, 2_000, random.Random(2))
    command = [sys.executable, "-m", "citesynth", "index", str(folder), "--store", location]
    run = subprocess.Popen(  # noqa: ASYNC220 - it runs while this task stops the server
        command, env=ENV, cwd=WORK, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    await asyncio.sleep(2.5)  # reading and writing the new files
    await asyncio.to_thread(server.stop)
    _, err = await asyncio.to_thread(run.communicate)
    await asyncio.to_thread(server.start)
    again = citesynth("index", str(folder), "--store", location, "--json", check=False)
    return {
        "interrupted_exit_code": run.returncode,
        "interrupted_message": " ".join(err.split())[-400:],
        "rerun_exit_code": again.returncode,
        "rerun_report": json.loads(again.stdout) if again.returncode == 0 else again.stderr[-300:],
        "consistency": await chunk_sets_match(folder, location),
    }


async def warm(questions: list[str]) -> None:
    for port in PORTS:
        await wait_ready(port)
    for i, question in enumerate(questions[:6]):
        await stream(PORTS[i % 2], question + " warm")


async def baseline(questions: list[str], folder: Path, location: str) -> dict[str, Any]:
    """The same load on the SQLite store (two servers and the indexer on one folder)."""
    await warm(questions)
    return await load(questions[10:], folder, location)


async def client_side(server: Any, location: str, folder: Path) -> dict[str, Any]:
    rows = [json.loads(line) for line in (DATA / "scifact" / "queries.jsonl").open()]
    questions = [row["text"] for row in rows]
    await warm(questions)
    figures: dict[str, Any] = {"load": await load(questions[10:], folder, location)}
    print("load", figures["load"], flush=True)
    figures["consistency_after_load"] = await chunk_sets_match(folder, location)
    print("consistency", figures["consistency_after_load"], flush=True)
    figures["outage_while_serving"] = await outage_while_serving(server, questions)
    print("serving outage", figures["outage_while_serving"], flush=True)
    figures["outage_while_indexing"] = await outage_while_indexing(server, folder, location)
    print("indexing outage", figures["outage_while_indexing"], flush=True)
    return figures


def servers(location: str) -> list[subprocess.Popen[bytes]]:
    """The two `serve` processes over `location`."""
    command = [sys.executable, "-m", "benchmarks.service_load", "--serve", location]
    options = ["--embedder", "hashing"]
    return [
        subprocess.Popen([*command, "--port", str(port), *options], cwd=ROOT, env=ENV)
        for port in PORTS
    ]


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        process.terminate()
        process.wait(30)


def main() -> None:
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    link = WORK / "scifact.jsonl"
    link.symlink_to(require(DATA / "scifact" / "corpus.jsonl"))
    rows = [json.loads(line) for line in (DATA / "scifact" / "queries.jsonl").open()]
    questions = [row["text"] for row in rows]
    figures: dict[str, Any] = {}

    lite, notes = str(WORK / "sqlite-index"), WORK / "sqlite-notes"
    notes.mkdir()
    citesynth("index", str(link), "--index", lite, "-q")
    running = servers(lite)
    try:
        figures["sqlite_baseline_load"] = asyncio.run(baseline(questions, notes, lite))
        print("sqlite load", figures["sqlite_baseline_load"], flush=True)
    finally:
        stop(running)

    folder = WORK / "notes"
    folder.mkdir()
    server = start(WORK / "pg")
    try:
        location = with_schema(server.get_uri(), "load")
        started = time.perf_counter()
        citesynth("index", str(link), "--store", location, "-q")
        index_seconds = time.perf_counter() - started
        running = servers(location)
        try:
            figures.update(asyncio.run(client_side(server, location, folder)))
        finally:
            stop(running)
        stats = citesynth("stats", "--store", location).stdout.strip()
        figures["index"] = {"stats": stats, "seconds": round(index_seconds, 1)}
        ours, theirs = figures["load"], figures["sqlite_baseline_load"]
        figures["sources_p95_postgres_over_sqlite"] = round(
            ours["sources_event_ms"]["p95"] / theirs["sources_event_ms"]["p95"], 2
        )
        write_result("postgres_load", figures)
    finally:
        server.cleanup()
        shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()
