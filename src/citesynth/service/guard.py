"""ASGI middleware in front of every route: bearer token, body size limits, access log.

Pure ASGI (not `BaseHTTPMiddleware`) so that streamed responses pass through untouched and a
client's disconnect still reaches the route.
"""

from __future__ import annotations

import hmac
import json
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

access = logging.getLogger("citesynth.http")

_OPEN = ("/api/",)
"""Path prefixes that need the token; the page, its assets, health and OpenAPI do not."""


class Guard:
    """Checks the token on `/api/*`, caps request bodies, and logs each request as JSON."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        token: str | None,
        max_body: int,
        max_upload_request: int,
        upload_path: str = "/api/documents",
    ) -> None:
        self.app = app
        self.token = token.encode() if token else None
        self.max_body = max_body
        self.max_upload_request = max_upload_request
        """The whole upload body; each file's own limit is held by the upload route."""
        self.upload_path = upload_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the request through the checks, then the app."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status: list[int] = [0]

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        try:
            await self._checked(scope, receive, sending, status)
        finally:
            path = scope["path"]
            access.info(
                "%s %s %s",
                scope["method"],
                path,
                status[0],
                extra={
                    "http": {
                        "method": scope["method"],
                        "path": path,
                        "status": status[0],
                        "ms": round((time.perf_counter() - started) * 1000, 2),
                    }
                },
            )

    async def _checked(self, scope: Scope, receive: Receive, send: Send, status: list[int]) -> None:
        path: str = scope["path"]
        if self.token is not None and path.startswith(_OPEN) and not self._authorised(scope):
            challenge = {"www-authenticate": "Bearer"}
            await _problem(send, 401, "missing or wrong bearer token", challenge)
            return
        upload = path == self.upload_path
        limit = self.max_upload_request if upload else self.max_body
        too_large = f"request body larger than {limit} bytes" + (
            ": send fewer files per request, or start the service with a larger --max-request-mb"
            if upload
            else ""
        )
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _problem(send, 413, too_large)
            return
        seen = 0
        refused = False

        async def counting() -> Message:
            # Past the limit: answer 413 now and tell the app the client left, so whatever
            # the app makes of a truncated body is never sent.
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request" and not refused:
                seen += len(message.get("body", b""))
                if seen > limit:
                    refused = True
                    if not status[0]:
                        await _problem(send, 413, too_large)
                    return {"type": "http.disconnect"}
            return message

        async def unless_refused(message: Message) -> None:
            if not refused:
                await send(message)

        await self.app(scope, counting, unless_refused)

    def _authorised(self, scope: Scope) -> bool:
        given = _header(scope, b"authorization") or ""
        scheme, _, credential = given.partition(" ")
        assert self.token is not None
        # Compare in constant time whatever was sent, so timing does not reveal the token.
        matches = hmac.compare_digest(credential.strip().encode(), self.token)
        return scheme.lower() == "bearer" and matches


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


async def _problem(
    send: Send, status: int, detail: str, headers: dict[str, str] | None = None
) -> None:
    body = json.dumps({"detail": detail}).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw.extend((k.encode(), v.encode()) for k, v in (headers or {}).items())
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})
