"""Security headers on every response: no sniffing, no framing, no referrer, and a CSP.

The page's policy is the one its `<meta>` tag states plus `frame-ancestors 'none'` (which only
a header can carry). The API documentation pages load FastAPI's Swagger UI and ReDoc from their
CDN, so they get policies of their own that allow exactly that.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable, Mapping

from citesynth.service.guard import ASGIApp, Message, Receive, Scope, Send

PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)
"""For `/`, its assets and every API answer (a JSON body needs no more)."""
_CDN = "https://cdn.jsdelivr.net"
_SHARED = "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
REDOC_POLICY = (
    f"default-src 'none'; script-src {_CDN}; style-src 'unsafe-inline' "
    "https://fonts.googleapis.com; font-src https://fonts.gstatic.com; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
    f"connect-src 'self'; worker-src blob:; {_SHARED}"
)
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


def swagger_policy(html: str) -> str:
    """The policy for the Swagger UI page `html`: its CDN, and its inline script by hash."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"
        for script in _INLINE_SCRIPT.findall(html)
    )
    return (
        f"default-src 'none'; script-src {_CDN} {hashes}; style-src {_CDN} 'unsafe-inline'; "
        f"img-src 'self' data: https://fastapi.tiangolo.com; connect-src 'self'; {_SHARED}"
    )


def security_headers(policy: str = PAGE_POLICY) -> dict[str, str]:
    """The headers every response carries, with `policy` as its Content-Security-Policy."""
    return {
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
        "Content-Security-Policy": policy,
    }


class SecurityHeaders:
    """Adds `security_headers` to every HTTP response that does not set its own policy.

    Pure ASGI, outermost, so that the guard's 401/413 and CORS preflights carry them too (an
    unhandled error's 500 comes from Starlette's outer error middleware: see `app.py`).
    """

    def __init__(self, app: ASGIApp, *, policies: Mapping[str, str] | None = None) -> None:
        self.app = app
        self.policies = dict(policies or {})
        """A policy by exact path, for pages that need another than `PAGE_POLICY`."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; add the headers to the response's start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = self.policies.get(scope["path"], PAGE_POLICY)

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = _with_headers(message.get("headers", []), policy)
            await send(message)

        await self.app(scope, receive, sending)


def _with_headers(headers: Iterable[tuple[bytes, bytes]], policy: str) -> list[tuple[bytes, bytes]]:
    raw = list(headers)
    present = {bytes(name).lower() for name, _ in raw}
    for name, value in security_headers(policy).items():
        key = name.lower().encode()
        if key not in present:  # a route that set its own (the docs page) keeps it
            raw.append((key, value.encode("latin-1")))
    return raw
