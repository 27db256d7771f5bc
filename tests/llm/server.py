"""A real HTTP server on 127.0.0.1 that plays a script of replies, one per request.

Each request is recorded (method, path, headers, JSON body) and answered by the next step
of the script: a status with a body, an SSE stream sent with chunked transfer encoding, a
stream that breaks off midway, a stream that never ends (until the client goes away), or a
pause before any of these. When the script runs out, the last step repeats.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Status:
    """Answer with `code`, a JSON (or text) body and extra headers."""

    code: int
    body: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/json"


@dataclass(frozen=True)
class Stream:
    """Answer 200 with `events` (raw SSE text, each sent as one chunk), `pause` s apart.

    `cut` breaks the connection after the events instead of ending the chunked body.
    `forever` keeps sending `events[-1]` until the client disconnects.
    """

    events: Sequence[str]
    pause: float = 0.0
    cut: bool = False
    forever: bool = False


@dataclass(frozen=True)
class Sleep:
    """Wait `seconds` before answering with `then`."""

    seconds: float
    then: Status | Stream


Step = Status | Stream | Sleep


@dataclass
class Seen:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


class ScriptServer(ThreadingHTTPServer):
    """The server; `requests` lists what it received, `disconnected` is set on a hang-up."""

    daemon_threads = True

    def __init__(self, script: Sequence[Step]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.script = list(script)
        self.requests: list[Seen] = []
        self.disconnected = threading.Event()
        self.stopping = threading.Event()
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"

    def next_step(self, seen: Seen) -> Step:
        with self.lock:
            self.requests.append(seen)
            return self.script.pop(0) if len(self.script) > 1 else self.script[0]

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Client hang-ups are part of the tests; nothing to print."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: ScriptServer

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        body = json.loads(raw) if raw else None
        headers = {key.lower(): value for key, value in self.headers.items()}
        step = self.server.next_step(Seen("POST", self.path, headers, body))
        if isinstance(step, Sleep):
            if self.server.stopping.wait(step.seconds):
                return
            step = step.then
        try:
            if isinstance(step, Status):
                self._status(step)
            else:
                self._stream(step)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            self.server.disconnected.set()
            self.close_connection = True

    def _status(self, step: Status) -> None:
        data = step.body.encode()
        self.send_response(step.code)
        self.send_header("content-type", step.content_type)
        self.send_header("content-length", str(len(data)))
        for key, value in step.headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _stream(self, step: Stream) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        self.wfile.flush()
        for event in _events(step):
            self._chunk(event.encode())
            if step.pause and self.server.stopping.wait(step.pause):
                return
        if step.cut:
            self.close_connection = True
            return
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()


def _events(step: Stream) -> Iterator[str]:
    yield from step.events
    while step.forever:
        yield step.events[-1]


@contextmanager
def serve(script: Sequence[Step]) -> Iterator[ScriptServer]:
    """Run a `ScriptServer` in a background thread for the duration of the block."""
    server = ScriptServer(script)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield server
    finally:
        server.stopping.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def openai_sse(pieces: Sequence[str], usage: dict[str, Any] | None = None) -> list[str]:
    """OpenAI chat-completions stream events: one delta per piece, usage, then [DONE]."""
    base = {
        "id": "chatcmpl-AZx1",
        "object": "chat.completion.chunk",
        "created": 1733000000,
        "model": "gpt-4o-mini-2024-07-18",
        "system_fingerprint": "fp_0ba0d124f1",
    }
    first = {"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}
    events = [{**base, "choices": [first], "usage": None}]
    for piece in pieces:
        choice = {"index": 0, "delta": {"content": piece}, "finish_reason": None}
        events.append({**base, "choices": [choice], "usage": None})
    events.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    if usage is not None:
        events.append({**base, "choices": [], "usage": usage})
    return [f"data: {json.dumps(event)}\n\n" for event in events] + ["data: [DONE]\n\n"]


def openai_tool_sse(
    calls: Sequence[tuple[str, str, str]], usage: dict[str, Any] | None = None, *, size: int = 5
) -> list[str]:
    """OpenAI stream events calling tools: for each (id, name, JSON arguments), a delta with
    the id and name, then the arguments in fragments of `size` characters; then the
    `tool_calls` finish, usage and [DONE]."""
    base = {"id": "chatcmpl-AZx2", "object": "chat.completion.chunk", "model": "gpt-4o-mini"}
    events: list[dict[str, Any]] = []
    for index, (call_id, name, arguments) in enumerate(calls):
        head = {"index": index, "id": call_id, "type": "function"}
        fragments = [{**head, "function": {"name": name, "arguments": ""}}]
        fragments += [
            {"index": index, "function": {"arguments": arguments[start : start + size]}}
            for start in range(0, len(arguments), size)
        ]
        for fragment in fragments:
            delta = {"tool_calls": [fragment]}
            events.append({**base, "choices": [{"index": 0, "delta": delta}]})
    events.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    if usage is not None:
        events.append({**base, "choices": [], "usage": usage})
    return [f"data: {json.dumps(event)}\n\n" for event in events] + ["data: [DONE]\n\n"]
