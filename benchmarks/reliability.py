"""Reliability under hostile input, faults and races: the figures issue 18 asks for.

    python -m benchmarks.reliability                 # everything; writes results/reliability.json
    python -m benchmarks.reliability --kills 3       # fewer kill -9 trials (the CI test does this)

Five parts, each counted, none allowed to stop the others:

- corpus: the generated hostile corpus of `tests/hostile.py` (60+ entries) indexed through the
  command line: crashes, the slowest file (limit 10 s), expectations met (valid files found by
  a word of their text, skips named with their cause), raw control characters printed, and a
  second run that must find nothing to do;
- kills: `kill -9` at a random moment of `citesynth index`, then the index must pass SQLite's
  integrity check, every chunk must equal its document slice, and a resumed run must end with
  exactly the chunks of a clean run;
- providers: an OpenAI-compatible server on loopback that fails in every way seen so far (500,
  429, a hang, a cut stream, garbage, an HTML page, a non-streamed reply, no `[DONE]`, out of
  range and malformed markers, a 3 MB answer): every answer must be valid or a fallback within
  its time limit, with no traceback and no invalid marker left;
- injection: documents and file names that try to forge source headers or chat roles must not
  add a single header line to the prompt;
- uploads: concurrent uploads of one file name must give no errors but a clear 409 and no
  corrupted file.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import logging
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr
from pathlib import Path
from typing import Any

import httpx
from tests.hostile import ENTRIES, SPECIAL, write_corpus
from tests.llm.server import Sleep, Status, Stream, openai_sse, serve
from tests.serving import running, scripted_engine

from benchmarks.common import ROOT, write_result
from citesynth import Engine, Settings
from citesynth.answers import Answer
from citesynth.llm.fake import ScriptedModel
from citesynth.synthesis import LLMWriter

FILE_LIMIT_S = 10.0
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # printed raw, these reach the terminal
MARKER = re.compile(r"\[([^\[\]\n]{0,40})\]")
VALID_MARKER = re.compile(r"^\d+(?:\s*[,-–]\s*\d+)*$")


def _run(command: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "CITESYNTH_EMBEDDER": "hashing", "TERM": "dumb", "COLUMNS": "200"}
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, timeout=timeout)


def _citesynth(*args: str) -> list[str]:
    return [sys.executable, "-m", "citesynth", *args]


# -- corpus ---------------------------------------------------------------------------------


def _shown(name: bytes) -> str:
    """The path the index shows for a corpus file: undecodable bytes as `\\xNN` escapes."""
    try:
        return f"corpus/{name.decode('utf-8')}"
    except UnicodeDecodeError:
        return f"corpus/{name.decode('utf-8', 'backslashreplace')}"


async def corpus_part(work: Path) -> dict[str, Any]:
    """Index the hostile corpus once through the CLI and once through the engine."""
    corpus = work / "corpus"
    written = write_corpus(corpus)
    index = work / "corpus-index"
    started = time.perf_counter()
    first = _run(
        _citesynth("index", str(corpus), "--index", str(index), "--max-file-mb", "8"), work
    )
    cli_seconds = time.perf_counter() - started
    printed = first.stdout + first.stderr
    crashed = first.returncode != 0 or b"Traceback" in printed
    again = _run(
        _citesynth("index", str(corpus), "--index", str(index), "--max-file-mb", "8", "--json"),
        work,
    )
    rerun = json.loads(again.stdout) if again.returncode == 0 and again.stdout else {}

    # Per-file times and outcomes from the engine's own events, in a fresh index.
    settings = Settings(index_dir=work / "engine-index", embedder="hashing", model="extractive",
                        max_file_mb=8)  # fmt: skip
    outcomes: dict[str, str] = {}
    slowest, slowest_file = 0.0, ""
    async with await Engine.open(settings=settings) as engine:
        last = time.perf_counter()
        async for event in engine.index_events([corpus]):
            now = time.perf_counter()
            path = getattr(event, "path", None)
            if path is not None and event.kind in {"indexed", "skipped", "unchanged"}:
                if now - last > slowest:
                    slowest, slowest_file = now - last, path
                outcomes[path] = (
                    "indexed"
                    if event.kind == "indexed"
                    else (f"skipped: {getattr(event, 'reason', '')}")
                )
            last = now
        found = {
            entry.marker: any(
                entry.marker in hit.chunk.text for hit in await engine.search(entry.marker, k=10)
            )
            for entry, _ in written
            if entry.marker
        }
    failures: list[str] = []
    for entry, _ in written:
        seen = [outcomes[_shown(entry.name)]] if _shown(entry.name) in outcomes else []
        if entry.expect == "indexed" and not (
            seen and seen[0] == "indexed" and found.get(entry.marker)
        ):
            failures.append(f"{entry.kind}: expected indexed, got {seen or 'nothing'}")
        elif entry.expect == "skipped" and not (
            seen and seen[0].startswith("skipped") and entry.cause.lower() in seen[0].lower()
        ):
            failures.append(
                f"{entry.kind}: expected skipped ({entry.cause}), got {seen or 'nothing'}"
            )
        elif entry.expect == "either" and not seen:
            failures.append(f"{entry.kind}: neither indexed nor named as skipped")
    raw = sorted({m.group() for m in CONTROL.finditer(printed.decode("utf-8", "replace"))})
    return {
        "entries": len(ENTRIES) + SPECIAL,
        "crashed": crashed,
        "exit_code": first.returncode,
        "cli_seconds": round(cli_seconds, 1),
        "slowest_file_s": round(slowest, 2),
        "slowest_file": slowest_file,
        "within_file_limit": slowest <= FILE_LIMIT_S,
        "expectations_failed": failures,
        "raw_control_characters_printed": [repr(c) for c in raw],
        "rerun_did_nothing": bool(rerun)
        and rerun.get("indexed") == 0
        and rerun.get("removed") == 0,
        "outcomes": {path: outcome for path, outcome in sorted(outcomes.items())},
    }


# -- kill -9 ----------------------------------------------------------------------------------


def _kill_corpus(root: Path, files: int = 400) -> None:
    root.mkdir(parents=True, exist_ok=True)
    rng = random.Random(7)
    words = "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega".split()
    for i in range(files):
        body = "\n\n".join(" ".join(rng.choices(words, k=60)) + "." for _ in range(8))
        (root / f"doc{i:04d}.md").write_text(f"# Document {i}\n\n{body}\n")


def _consistent(index: Path) -> tuple[bool, str]:
    """SQLite's integrity check, and every chunk equal to its document slice."""
    db = sqlite3.connect(index / "index.sqlite3")
    try:
        (verdict,) = db.execute("PRAGMA integrity_check").fetchone()
        if verdict != "ok":
            return False, f"integrity_check: {verdict}"
        rows = db.execute(
            "SELECT c.char_start, c.char_end, c.text, d.text FROM chunks c "
            "JOIN documents d ON d.id = c.document"
        )
        for start, end, text, document in rows:
            if document[start:end] != text:
                return False, "a chunk differs from its document slice"
        return True, ""
    finally:
        db.close()


def _chunk_ids(index: Path) -> set[str]:
    db = sqlite3.connect(index / "index.sqlite3")
    try:
        return {row[0] for row in db.execute("SELECT chunk_id FROM chunks")}
    finally:
        db.close()


def kill_part(work: Path, trials: int) -> dict[str, Any]:
    """`kill -9` during indexing, `trials` times; then check and resume."""
    corpus = work / "kill-corpus"
    _kill_corpus(corpus)
    clean = work / "kill-clean"
    started = time.perf_counter()
    _run(_citesynth("index", str(corpus), "--index", str(clean), "-q"), work)
    full = time.perf_counter() - started
    reference = _chunk_ids(clean)
    rng = random.Random(18)
    results = []
    for trial in range(trials):
        index = work / f"kill-{trial}"
        env = {**os.environ, "CITESYNTH_EMBEDDER": "hashing"}
        process = subprocess.Popen(
            _citesynth("index", str(corpus), "--index", str(index), "-q"),
            cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        time.sleep(rng.uniform(0.05, max(0.1, full * 0.9)))
        process.send_signal(signal.SIGKILL)
        process.wait()
        ok, why = _consistent(index) if (index / "index.sqlite3").exists() else (True, "")
        resumed = _run(_citesynth("index", str(corpus), "--index", str(index), "-q"), work)
        same = resumed.returncode == 0 and _chunk_ids(index) == reference
        results.append({"consistent": ok, "why": why, "resumed_equals_clean": same})
    return {
        "trials": trials,
        "consistent": sum(r["consistent"] and r["resumed_equals_clean"] for r in results),
        "full_run_s": round(full, 2),
        "failures": [r for r in results if not (r["consistent"] and r["resumed_equals_clean"])],
    }


# -- providers --------------------------------------------------------------------------------

QUESTION = "What does the read timeout limit?"
DOCS = {
    "timeouts.md": "# Timeouts\n\nThe read timeout limits how long the client waits for data.\n",
    "pool.md": "# Pool\n\nThe connection pool keeps at most ten connections per host.\n",
}


def _completion(text: str) -> str:
    return json.dumps({
        "id": "chatcmpl-1", "object": "chat.completion", "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5},
    })  # fmt: skip


EXPECT = {
    "500": "fallback",
    "429_then_ok": "answer",
    "hang": "fallback",
    "cut_mid_stream": "fallback",
    "garbage": "fallback",
    "html_page": "fallback",
    "non_streamed_json": "answer",
    "no_done": "fallback",
    "out_of_range_markers": "either",
    "malformed_markers": "answer",
    "3mb_answer": "answer",
}
"""What a correct client makes of each fault: the answer, a fallback, or either."""


def _faults() -> dict[str, list[Any]]:
    good = openai_sse(["The read timeout limits how long ", "the client waits for data [1]."])
    no_done = [e for e in good if "[DONE]" not in e and '"finish_reason": "stop"' not in e]
    big = "The read timeout limits how long the client waits for data [1]. " * 48_000
    return {
        "500": [Status(500, '{"error": {"message": "internal"}}')],
        "429_then_ok": [Status(429, '{"error": {"message": "slow down"}}', {"Retry-After": "0"}),
                        Stream(good)],
        "hang": [Sleep(60, Stream(good))],
        "cut_mid_stream": [Stream(good[:2], cut=True)],
        "garbage": [Stream(["data: {not json\n\n", "data: \x00\x01\x02\n\n"])],
        "html_page": [Status(200, "<html><body><h1>502 Bad Gateway</h1></body></html>",
                             content_type="text/html")],
        "non_streamed_json": [Status(200, _completion("The read timeout limits waiting [1]."),
                                     content_type="application/json")],
        "no_done": [Stream(no_done)],
        "out_of_range_markers": [Stream(openai_sse(["The read timeout limits waiting [1-40][99]."]))],
        "malformed_markers": [Stream(openai_sse(
            ["The read timeout [-1] limits waiting (17) [timeouts.md, Page 99] \uff3b9\uff3d [1]."]))],
        "3mb_answer": [Stream(openai_sse([big[i : i + 65536] for i in range(0, len(big), 65536)]))],
    }  # fmt: skip


def _bad_markers(answer: Answer) -> list[str]:
    count = len(answer.sources)
    bad = []
    for match in MARKER.finditer(answer.answer):
        inner = match.group(1)
        if not VALID_MARKER.match(inner.strip()):
            if re.search(r"\d", inner) or "page" in inner.lower():
                bad.append(match.group())
            continue
        numbers = [int(n) for n in re.findall(r"\d+", inner)]
        if any(n < 1 or n > count for n in numbers):
            bad.append(match.group())
    return bad + ["［9］"] * answer.answer.count("\uff3b9\uff3d")


@contextmanager
def _captured() -> Iterator[list[str]]:
    """Tracebacks and unraisable errors printed while the block runs."""
    seen: list[str] = []
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setLevel(logging.WARNING)
    logging.getLogger().addHandler(handler)
    previous = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: seen.append(repr(unraisable.exc_value))
    try:
        with redirect_stderr(stream):
            yield seen
    finally:
        sys.unraisablehook = previous
        logging.getLogger().removeHandler(handler)
        if "Traceback" in stream.getvalue() or "Error" in stream.getvalue():
            seen.append(stream.getvalue()[-500:])


async def provider_part(work: Path, limit: float = 5.0) -> dict[str, Any]:
    """Ask through a misbehaving OpenAI-compatible server, once per fault."""
    docs = work / "provider-docs"
    docs.mkdir(parents=True, exist_ok=True)
    for name, text in DOCS.items():
        (docs / name).write_text(text)
    results: dict[str, Any] = {}
    for name, script in _faults().items():
        with serve(script) as server:
            os.environ["OPENAI_BASE_URL"] = f"{server.url}/v1"
            os.environ["OPENAI_API_KEY"] = "test-key"
            settings = Settings(index_dir=work / "provider-index", embedder="hashing",
                                model="openai:test", timeout=limit, cache_ttl=0)  # fmt: skip
            with _captured() as printed:
                started = time.perf_counter()
                try:
                    async with await Engine.open(settings=settings) as engine:
                        await engine.index([docs])
                        answer: Answer | None = await asyncio.wait_for(
                            engine.answer(QUESTION, not_found_below=0.0), limit + 10
                        )
                    error = ""
                except Exception as failure:  # counted: a fault must never escape
                    answer, error = None, f"{type(failure).__name__}: {failure}"
                seconds = time.perf_counter() - started
                await asyncio.sleep(0.05)  # let late unraisable errors surface
        outcome = "fallback" if answer is not None and answer.fallback else "answer"
        results[name] = {
            "valid": answer is not None,
            "expected": EXPECT[name],
            "as_expected": answer is not None and EXPECT[name] in {outcome, "either"},
            "fallback": answer.fallback.reason if answer and answer.fallback else None,
            "seconds": round(seconds, 2),
            "within_timeout": seconds <= limit + 5,
            "invalid_markers_left": _bad_markers(answer) if answer else [],
            "printed": printed,
            "error": error,
            "answer_chars": len(answer.answer) if answer else 0,
        }
    ok = [
        r["as_expected"]
        and r["within_timeout"]
        and not r["invalid_markers_left"]
        and not r["printed"]
        for r in results.values()
    ]
    return {"cases": len(ok), "passed": sum(ok), "results": results}


# -- injection ------------------------------------------------------------------------------

HEADER = re.compile(r"^\[(\d+)(?:\]|: [^\]\n]*\])|^={3} .* ={3}$", re.M)


async def injection_part(work: Path) -> dict[str, Any]:
    """Forged headers and roles in documents and names: count header lines in the prompt."""
    docs = work / "injection-docs"
    names = [e for e in ENTRIES if e.kind in {
        "forged source headers", "chat role tokens", "look-alike headers",
        "instructions in a document", "bracketed name", "forged header in a file name",
        "newline in name", "escape sequence in name",
    }]  # fmt: skip
    docs.mkdir(parents=True, exist_ok=True)
    for entry in names:
        entry.make(Path(os.fsdecode(os.fsencode(docs) + b"/" + entry.name)))
    question = "forgedmarker rolesmarker lookalikemarker injectmarker turnstone stint puffin plover"
    results = []
    for grouped_k in (8, 12):
        model = ScriptedModel()
        settings = Settings(index_dir=work / "injection-index", embedder="hashing",
                            model="extractive", cache_ttl=0)  # fmt: skip
        async with await Engine.open(settings=settings) as engine:
            await engine.index([docs])
            scripted = engine.with_writer(LLMWriter(model, engine.prompts, timeout=5.0))
            answer = await scripted.answer(  # marker words: no gate, the prompt is the point
                question, k=grouped_k, not_found_below=0.0, answerability=False
            )
        prompt = "\n".join(m.content for m in model.calls[0] if m.role == "user")
        headers = HEADER.findall(prompt)
        groups = len(re.findall(r"^={3} .* ={3}$", prompt, re.M))
        sources = len(answer.sources)
        results.append({
            "sources": sources,
            "header_lines": len(headers) - groups,
            "forged": max(0, len(headers) - groups - sources),
            "role_tokens": prompt.count("<|im_start|>") + prompt.count("<|im_end|>"),
            "cites_99": "[99]" in answer.answer,
        })  # fmt: skip
    return {
        "documents": len(names),
        "forged_headers_reaching_prompt": sum(r["forged"] for r in results),
        "role_tokens_reaching_prompt": sum(r["role_tokens"] for r in results),
        "runs": results,
    }


# -- uploads ----------------------------------------------------------------------------------


def upload_part(work: Path, clients: int = 20) -> dict[str, Any]:
    """`clients` concurrent uploads of `race.md`, each with different bytes."""
    docs = work / "upload-docs"
    docs.mkdir(parents=True, exist_ok=True)
    (docs / "seed.md").write_text("# Seed\n\nThe seed document.\n")
    bodies = [
        f"# Race {i}\n\n".encode() + bytes([65 + i % 26]) * (40_000 + i) for i in range(clients)
    ]
    statuses: list[int] = []
    from citesynth.service import ServiceConfig

    config = ServiceConfig(uploads_dir=work / "uploads")
    with running(scripted_engine(work / "upload", docs, ScriptedModel()), config) as server:

        def send(body: bytes) -> None:
            files = {"files": ("race.md", body, "text/markdown")}
            statuses.append(
                httpx.post(f"{server.url}/api/documents", files=files, timeout=60).status_code
            )

        threads = [threading.Thread(target=send, args=(body,)) for body in bodies]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        time.sleep(1.0)
    stored = [p for p in (work / "uploads").iterdir() if p.is_file() and not p.name.startswith(".")]
    corrupted = [p.name for p in stored if p.read_bytes() not in bodies]
    return {
        "clients": clients,
        "statuses": {str(code): statuses.count(code) for code in sorted(set(statuses))},
        "errors_other_than_409": sum(1 for s in statuses if s not in {202, 409}),
        "stored": len(stored),
        "corrupted": corrupted,
    }


async def main(kills: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="citesynth-reliability-") as folder:
        work = Path(folder)
        parts: dict[str, Any] = {}
        for name, run in (
            ("corpus", lambda: corpus_part(work)),
            ("providers", lambda: provider_part(work)),
            ("injection", lambda: injection_part(work)),
        ):
            try:
                parts[name] = await run()
            except Exception as error:  # one part failing must not hide the others
                parts[name] = {"error": f"{type(error).__name__}: {error}"}
        for name, sync in (
            ("kills", lambda: kill_part(work, kills)),
            ("uploads", lambda: upload_part(work)),
        ):
            try:
                parts[name] = await asyncio.to_thread(sync)
            except Exception as error:
                parts[name] = {"error": f"{type(error).__name__}: {error}"}
    return parts


def summary(parts: dict[str, Any]) -> dict[str, Any]:
    """The pass/fail line of each part."""
    corpus, kills = parts.get("corpus", {}), parts.get("kills", {})
    providers, injection = parts.get("providers", {}), parts.get("injection", {})
    uploads = parts.get("uploads", {})
    return {
        "corpus": not corpus.get("crashed", True)
        and corpus.get("within_file_limit", False)
        and not corpus.get("expectations_failed", [1])
        and not corpus.get("raw_control_characters_printed", [1])
        and corpus.get("rerun_did_nothing", False),
        "kills": kills.get("consistent") == kills.get("trials"),
        "providers": providers.get("passed") == providers.get("cases"),
        "injection": injection.get("forged_headers_reaching_prompt", 1) == 0
        and injection.get("role_tokens_reaching_prompt", 1) == 0,
        "uploads": uploads.get("errors_other_than_409", 1) == 0
        and not uploads.get("corrupted", [1]),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    args = parser.parse_args()
    os.chdir(ROOT)
    figures = asyncio.run(main(args.kills))
    figures["passed"] = summary(figures)
    write_result("reliability", figures)
    print(json.dumps(figures["passed"], indent=2))
