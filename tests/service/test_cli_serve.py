"""`citesynth serve` as a user starts it: a real process, JSON logs, a clean stop."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
from click.testing import CliRunner

from citesynth.cli import main
from tests.serving import free_port, wait_for


def test_serve_refuses_to_listen_off_loopback_without_a_token(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0", "--index", str(tmp_path)])
    assert result.exit_code == 1
    assert "refusing to listen on 0.0.0.0 without a token" in result.output


def test_serve_answers_and_logs_each_answer_as_json(tmp_path: Path, docs: Path) -> None:
    index = tmp_path / "index"
    indexed = CliRunner().invoke(
        main, ["index", str(docs), "--index", str(index), "--embedder", "hashing", "-q"]
    )
    assert indexed.exit_code == 0, indexed.output
    port = free_port()
    env = {**os.environ, "CITESYNTH_EMBEDDER": "hashing", "CITESYNTH_MODEL": "fake"}
    env.pop("CITESYNTH_TOKEN", None)
    command = [sys.executable, "-m", "citesynth", "serve", "--index", str(index), "--port"]
    process = subprocess.Popen(
        [*command, str(port)], env=env, stderr=subprocess.PIPE, text=True, cwd=tmp_path
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(url, process)
        # The first answer loads the trained verifier and its gate (seconds on a busy machine):
        # httpx's default five-second timeout failed this once in CI on 2026-11-27.
        question = {"question": "When did the bridge open?"}
        body = httpx.post(f"{url}/api/chat", json=question, timeout=120)
        assert body.status_code == 200 and body.json()["citations"]
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr
    assert f"open {url}/" in stderr
    logged = [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]
    events = [line["answer_event"] for line in logged if "answer_event" in line]
    assert len(events) == 1 and events[0]["request_id"] == body.json()["request_id"]
    access = [line["http"] for line in logged if "http" in line]
    assert {"method": "POST", "path": "/api/chat", "status": 200}.items() <= access[-1].items()
