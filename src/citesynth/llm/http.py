"""HTTP plumbing shared by the remote adapters: streaming POST, retries, SSE parsing.

One seam for tests: every adapter takes an `httpx.AsyncBaseTransport`, so recorded
exchanges replay through `httpx.MockTransport` while the adapter code runs unchanged.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import AsyncGenerator, Mapping
from contextlib import aclosing, nullcontext
from dataclasses import dataclass
from typing import Any

import httpx

from citesynth.errors import ModelError, ModelHTTPError, ModelTimeout

RETRY_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 529})


@dataclass(frozen=True, slots=True)
class Retry:
    """Retries with exponential backoff and jitter, honouring `Retry-After` (capped)."""

    attempts: int = 3
    base_delay: float = 0.5
    max_delay: float = 8.0

    def delay(self, attempt: int, retry_after: str | None) -> float:
        """Seconds to wait before retry number `attempt + 1`."""
        if retry_after:
            try:
                return min(self.max_delay, max(0.0, float(retry_after)))
            except ValueError:
                pass
        backoff: float = min(self.max_delay, self.base_delay * 2.0**attempt)
        return backoff * (0.5 + random.random() / 2)


@dataclass(frozen=True, slots=True)
class ServerEvent:
    """One server-sent event."""

    event: str
    data: str

    def json(self) -> Any:
        """The event's data parsed as JSON.

        Raises:
            ModelError: the data is not JSON (the server does not speak this API).
        """
        try:
            return json.loads(self.data)
        except json.JSONDecodeError as error:
            raise ModelError(
                f"the model server sent stream data that is not JSON ({error.msg}): "
                f"{self.data[:120]!r}"
            ) from None


LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})


def client(
    transport: httpx.AsyncBaseTransport | None, timeout: float, *, base_url: str = ""
) -> httpx.AsyncClient:
    """An HTTP client with sensible timeouts; `timeout` bounds each read, not the whole reply.

    Proxy settings from the environment apply to remote providers only: a model server on
    loopback is always reached directly.
    """
    limits = httpx.Timeout(connect=10.0, read=timeout, write=30.0, pool=10.0)
    loopback = httpx.URL(base_url).host in LOOPBACK if base_url else False
    trust_env = transport is None and not loopback
    return httpx.AsyncClient(transport=transport, timeout=limits, trust_env=trust_env)


async def stream_events(
    http: httpx.AsyncClient,
    url: str,
    *,
    body: Mapping[str, Any],
    headers: Mapping[str, str],
    provider: str,
    retry: Retry = Retry(),
) -> AsyncGenerator[ServerEvent, None]:
    """POST `body` and yield the server-sent events of the reply.

    Retries connection failures and retryable statuses until the first byte of a good reply;
    a reply that breaks off midway is an error, never silently retried. A server that ignores
    `stream: true` and answers one JSON document gives one event of kind `COMPLETE` holding
    it; an HTML page (a proxy's or a login page) is an error that says so.

    Raises:
        ModelError: the server is unreachable, answered an error status or HTML.
    """
    for attempt in range(retry.attempts):
        try:
            async with http.stream("POST", url, json=body, headers=dict(headers)) as response:
                if response.status_code >= 400:
                    detail = _error_detail(await response.aread())
                    if response.status_code in RETRY_STATUSES and attempt + 1 < retry.attempts:
                        await asyncio.sleep(
                            retry.delay(attempt, response.headers.get("retry-after"))
                        )
                        continue
                    raise ModelHTTPError(
                        f"{provider} answered HTTP {response.status_code}: {detail}",
                        response.status_code,
                    )
                kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
                if kind in {"text/html", "application/xhtml+xml"}:
                    page = (await response.aread()).decode("utf-8", "replace")
                    raise ModelError(
                        f"the model server answered HTML, not a stream ({provider}, HTTP "
                        f"{response.status_code}{_title(page)}): check the base URL"
                    )
                if kind == "application/json":  # the server ignored `stream: true`
                    yield ServerEvent(COMPLETE, (await response.aread()).decode("utf-8", "replace"))
                    return
                # Closed here, in order, by this task: left to the garbage collector, the
                # nested generators would be closed by finalizer tasks racing each other.
                async with aclosing(_sse(response)) as events:
                    async for event in events:
                        yield event
                return
        except httpx.TimeoutException as error:
            raise ModelTimeout(
                f"{provider} did not answer in time ({type(error).__name__})"
            ) from error
        except httpx.TransportError as error:
            if attempt + 1 < retry.attempts and isinstance(error, httpx.ConnectError):
                await asyncio.sleep(retry.delay(attempt, None))
                continue
            raise ModelError(f"cannot reach {provider} at {url}: {error}") from error
    raise ModelError(f"{provider} kept failing after {retry.attempts} attempts")


COMPLETE = "complete"
"""The kind of the one event that holds a whole, non-streamed JSON reply."""

_TITLE = re.compile(r"<title[^>]*>([^<]{1,120})", re.I)


def _title(page: str) -> str:
    """`, "Title"` of an HTML page, or nothing."""
    found = _TITLE.search(page)
    return f", {' '.join(found.group(1).split())!r}" if found else ""


async def _sse(response: httpx.Response) -> AsyncGenerator[ServerEvent, None]:
    event, data = "message", list[str]()
    lines = response.aiter_lines()
    async with aclosing(lines) if isinstance(lines, AsyncGenerator) else nullcontext(lines):
        async for line in lines:
            if not line:
                if data:
                    yield ServerEvent(event, "\n".join(data))
                event, data = "message", []
            elif line.startswith(":"):
                continue
            elif line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
    if data:
        yield ServerEvent(event, "\n".join(data))


def _error_detail(body: bytes) -> str:
    """The provider's error message, or the start of the body."""
    text = body.decode("utf-8", "replace")
    try:
        payload = json.loads(text)
    except json.JSONDecodeError:
        return text.strip()[:300] or "no details"
    error = payload.get("error", payload) if isinstance(payload, dict) else payload
    if isinstance(error, dict):
        return str(error.get("message") or error)[:300]
    return str(error)[:300]
