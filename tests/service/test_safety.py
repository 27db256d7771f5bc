"""Who may call the service, how much they may send, and where uploads may land."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from citesynth import ConfigError
from citesynth.service import ServiceConfig
from citesynth.service.uploads import candidates, safe_name
from tests.service.conftest import Serve, sse_events
from tests.serving import free_port

TOKEN = "s3cret-token-for-tests-0123456789"


def test_binding_beyond_loopback_needs_a_long_token() -> None:
    with pytest.raises(ConfigError, match="without a token"):
        ServiceConfig(host="0.0.0.0").checked()
    with pytest.raises(ConfigError, match="too short"):
        ServiceConfig(host="0.0.0.0", token="short").checked()
    assert ServiceConfig(host="0.0.0.0", token=TOKEN).checked().token == TOKEN
    assert ServiceConfig(host="::1").loopback and ServiceConfig(host="localhost").loopback


@pytest.mark.parametrize(
    ("token", "message"),
    [
        (" " * 16, "blank"),
        ("", "blank"),
        ("\t\n" * 10, "blank"),
        (f" {TOKEN}", "whitespace"),
        (f"{TOKEN}\n", "whitespace"),
        (f"{TOKEN}\x00", "control or non-ASCII"),
        (f"{TOKEN}é", "control or non-ASCII"),
    ],
)
def test_a_token_no_request_could_carry_is_refused(token: str, message: str) -> None:
    for host in ("127.0.0.1", "0.0.0.0"):
        with pytest.raises(ConfigError, match=message):
            ServiceConfig(host=host, token=token).checked()
    assert ServiceConfig(token=f"{TOKEN[:8]} {TOKEN[8:]}").checked().token  # inner space: fine


def test_serve_refuses_a_blank_token_at_start_up(tmp_path: Path) -> None:
    # A real process with a deadline: a token wrongly accepted means a server that never ends.
    command = [sys.executable, "-m", "citesynth", "serve", "--index", str(tmp_path / "index")]
    environ = {k: v for k, v in os.environ.items() if k != "CITESYNTH_TOKEN"}
    for token, message in ((" " * 16, "the token is blank"), ("", "the token is blank")):
        started = subprocess.run(
            [*command, "--port", str(free_port()), "--token", token],
            capture_output=True,
            text=True,
            timeout=30,
            env=environ,
            check=False,
        )
        assert started.returncode == 1 and message in started.stderr, started.stderr
    spaced = subprocess.run(
        [*command, "--port", str(free_port())],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        env={**environ, "CITESYNTH_TOKEN": f"{TOKEN}\n"},
    )
    assert spaced.returncode == 1 and "whitespace" in spaced.stderr, spaced.stderr


def test_the_api_needs_the_token_when_one_is_set(serve: Serve, tmp_path: Path) -> None:
    config = ServiceConfig(token=TOKEN, uploads_dir=tmp_path / "uploads")
    with serve(config=config) as server:
        search = {"query": "bridge"}
        missing = httpx.post(f"{server.url}/api/search", json=search)
        assert missing.status_code == 401 and missing.headers["www-authenticate"] == "Bearer"
        wrong = {"Authorization": f"Bearer {TOKEN[:-1]}x"}
        assert httpx.post(f"{server.url}/api/search", json=search, headers=wrong).status_code == 401
        basic = {"Authorization": f"Basic {TOKEN}"}
        assert httpx.post(f"{server.url}/api/search", json=search, headers=basic).status_code == 401
        right = {"Authorization": f"Bearer {TOKEN}"}
        assert httpx.post(f"{server.url}/api/search", json=search, headers=right).status_code == 200
        stream = httpx.post(f"{server.url}/api/chat/stream", json={"question": "bridge"})
        assert stream.status_code == 401
        # The page, its assets and the probes carry no data and stay open.
        assert httpx.get(f"{server.url}/").status_code == 200
        assert httpx.get(f"{server.url}/healthz").status_code == 200


def test_cors_is_off_unless_origins_are_configured(serve: Serve, tmp_path: Path) -> None:
    preflight = {
        "Origin": "https://app.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type",
    }
    with serve() as server:
        answer = httpx.options(f"{server.url}/api/chat", headers=preflight)
        assert "access-control-allow-origin" not in answer.headers
    config = ServiceConfig(
        cors_origins=("https://app.example",), token=TOKEN, uploads_dir=tmp_path / "u"
    )
    with serve(config=config) as server:
        answer = httpx.options(f"{server.url}/api/chat", headers=preflight)
        assert answer.status_code == 200
        assert answer.headers["access-control-allow-origin"] == "https://app.example"


def test_request_bodies_are_limited(serve: Serve, tmp_path: Path) -> None:
    config = ServiceConfig(
        max_body_bytes=4096, max_upload_bytes=10_000, uploads_dir=tmp_path / "uploads"
    )
    with serve(config=config) as server:
        big = {"query": "x" * 5000}
        assert httpx.post(f"{server.url}/api/search", json=big).status_code == 413

        def chunked() -> object:
            yield b'{"query": "'
            for _ in range(10):
                yield b"y" * 1000
            yield b'"}'

        streamed = httpx.post(
            f"{server.url}/api/search",
            content=chunked(),
            headers={"content-type": "application/json"},
        )
        assert streamed.status_code == 413
        upload = httpx.post(
            f"{server.url}/api/documents", files={"files": ("big.md", b"# Big\n" + b"z" * 20_000)}
        )
        assert upload.status_code == 413
        assert not list((tmp_path / "uploads").glob("*"))


def test_uploads_of_unknown_types_are_refused(serve: Serve) -> None:
    with serve() as server:
        refused = httpx.post(
            f"{server.url}/api/documents", files={"files": ("tool.exe", b"MZ\x90\x00")}
        )
        assert refused.status_code == 415 and "tool.exe" in refused.json()["detail"]


def test_upload_names_cannot_leave_the_uploads_folder(serve: Serve, tmp_path: Path) -> None:
    with serve() as server:
        for name in ("../../escape.md", "..\\..\\escape2.md", "/etc/cron.d/x.md", ".hidden.md"):
            response = httpx.post(
                f"{server.url}/api/documents", files={"files": (name, b"# Safe\n\nText here.\n")}
            )
            assert response.status_code == 202, name
        stored = sorted(p.name for p in (tmp_path / "uploads").iterdir())
        assert stored == ["escape.md", "escape2.md", "hidden.md", "x.md"]
        assert not (tmp_path / "escape.md").exists()
        assert httpx.get(f"{server.url}/static/../../../etc/passwd").status_code == 404


@given(st.text(max_size=300))
def test_any_name_is_placed_inside_the_root(name: str) -> None:
    root = Path("/tmp/citesynth-upload-root")
    path = next(candidates(root, name))
    assert path.parent == root.resolve()
    assert path.name == safe_name(name)
    assert not path.name.startswith(".") and "/" not in path.name and "\\" not in path.name
    assert 0 < len(path.name) <= 120


def test_a_slow_answer_is_cut_at_the_request_timeout(serve: Serve, tmp_path: Path) -> None:
    config = ServiceConfig(request_timeout=0.5, uploads_dir=tmp_path / "uploads")
    slow = "The harbour bridge opened in 2009 [1]. " * 30
    with serve([slow, slow], config=config, delay=0.05) as server:
        question = {"question": "When did the harbour bridge open?"}
        chat = httpx.post(f"{server.url}/api/chat", json=question)
        assert chat.status_code == 504 and "0.5 s" in chat.json()["detail"]
        with httpx.stream("POST", f"{server.url}/api/chat/stream", json=question) as response:
            events = sse_events(response)
        assert events[0][0] == "sources"
        assert events[-1][0] == "error" and "0.5 s" in str(events[-1][1]["message"])


SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}


def _secured(response: httpx.Response, page_policy: bool = True) -> None:
    where = f"{response.request.method} {response.request.url.path} ({response.status_code})"
    for name, value in SECURITY_HEADERS.items():
        assert response.headers.get(name) == value, f"{where}: {name}"
    policy = response.headers.get("content-security-policy", "")
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy, where
    if page_policy:
        assert "default-src 'self'" in policy and "script-src 'self';" in policy, where
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, where


def test_every_response_carries_the_security_headers(serve: Serve, tmp_path: Path) -> None:
    config = ServiceConfig(token=TOKEN, max_body_bytes=4096, uploads_dir=tmp_path / "uploads")
    auth = {"Authorization": f"Bearer {TOKEN}"}
    with serve(config=config) as server:
        url = server.url
        page = httpx.get(f"{url}/")
        assert page.status_code == 200
        meta = page.text.split('http-equiv="Content-Security-Policy"')[1].split('content="')[1]
        header = page.headers["content-security-policy"]
        # The header says everything the page's meta tag says, and more.
        assert set(meta.split('"')[0].split("; ")) <= set(header.split("; "))
        responses = [
            page,
            httpx.get(f"{url}/static/app.js"),
            httpx.get(f"{url}/static/app.css"),
            httpx.get(f"{url}/static/missing.js"),  # 404 from the static files
            httpx.get(f"{url}/healthz"),
            httpx.get(f"{url}/openapi.json"),
            httpx.post(f"{url}/api/search", json={"query": "bridge"}, headers=auth),
            httpx.post(f"{url}/api/search", json={"query": "bridge"}),  # 401 from the guard
            httpx.post(f"{url}/api/search", json={"query": "x" * 5000}, headers=auth),  # 413
            httpx.post(f"{url}/api/search", json={"k": 3}, headers=auth),  # 422
            httpx.get(f"{url}/api/jobs/nope", headers=auth),  # 404
            httpx.put(f"{url}/api/search", headers=auth),  # 405
            httpx.get(f"{url}/nowhere"),  # 404 from the router
        ]
        with httpx.stream(
            "POST", f"{url}/api/chat/stream", json={"question": "bridge?"}, headers=auth
        ) as stream:
            stream.read()
            responses.append(stream)
        assert {r.status_code for r in responses} >= {200, 401, 404, 405, 413, 422}
        for response in responses:
            _secured(response)
        for viewer in ("/docs", "/redoc"):  # the CDN-hosted API viewers have policies of their own
            docs = httpx.get(f"{url}{viewer}")
            assert docs.status_code == 200
            _secured(docs, page_policy=False)
        assert "'sha256-" in httpx.get(f"{url}/docs").headers["content-security-policy"]
        assert page.headers["content-type"].startswith("text/html")
        assert (
            httpx.get(f"{url}/static/app.js").headers["content-type"].startswith("text/javascript")
        )


def test_an_internal_error_carries_the_security_headers(serve: Serve) -> None:
    with serve() as server:
        server.call(server.engine.close())  # the index is gone from under the service
        response = httpx.post(f"{server.url}/api/search", json={"query": "bridge"})
        assert response.status_code == 500
        assert "Traceback" not in response.text
        _secured(response)
