"""How the service runs: where it listens, who may call it, and its limits."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path

from citesynth.errors import ConfigError

TOKEN_VARIABLE = "CITESYNTH_TOKEN"
MULTIPART_FRAMING = 2**16
"""Bytes an upload request may carry beyond its files: part headers and boundaries."""
_MB = 2**20


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    """The service's settings; `checked()` refuses unsafe combinations."""

    host: str = "127.0.0.1"
    port: int = 8000
    token: str | None = None
    """Bearer token every `/api/*` call must carry; required when not on loopback."""
    cors_origins: tuple[str, ...] = ()
    """Origins allowed to call the API from a browser (none: CORS off)."""
    uploads_dir: Path | None = None
    """Where uploaded documents are stored (default: `uploads/` next to the index)."""
    max_upload_bytes: int = 25 * 2**20
    """Largest uploaded file; each file of a request is held to it while it streams."""
    max_request_bytes: int | None = None
    """Largest upload request, all its files together (default: 4 × `max_upload_bytes`);
    64 KiB more are allowed for the multipart framing."""
    max_body_bytes: int = 1 * 2**20
    """Limit for every request body except uploads."""
    request_timeout: float = 300.0
    """Seconds a chat request (or stream) may take in all."""
    report_timeout: float = 3600.0
    """Seconds a report request (or stream) may take in all (the embedded model is slow)."""
    history_turns: int = 6
    """Turns a conversation remembers."""
    conversations_kept: int = 1000
    answers_kept: int = 1000
    """Finished answers kept for `GET /api/answers/{request_id}`."""

    @property
    def upload_request_bytes(self) -> int:
        """The cap on an upload request's whole body, multipart framing included."""
        files = self.max_request_bytes or 4 * self.max_upload_bytes
        return files + MULTIPART_FRAMING

    @property
    def loopback(self) -> bool:
        """Whether the service only listens on this machine."""
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False

    def checked(self) -> ServiceConfig:
        """These settings, or a `ConfigError` saying what is unsafe or wrong."""
        if self.token is not None:
            _check_token(self.token)
        if not self.loopback and not self.token:
            raise ConfigError(
                f"refusing to listen on {self.host} without a token: anyone who can reach it "
                f"could read your documents. Pass --token (or set {TOKEN_VARIABLE}), or keep "
                "the default --host 127.0.0.1"
            )
        if not 0 < self.port < 65536:
            raise ConfigError(f"--port must be between 1 and 65535, not {self.port}")
        if self.max_upload_bytes <= 0 or self.max_body_bytes <= 0:
            raise ConfigError("size limits must be positive")
        if self.max_request_bytes is not None and self.max_request_bytes < self.max_upload_bytes:
            raise ConfigError(
                f"--max-request-mb ({self.max_request_bytes / _MB:g}) is below --max-upload-mb "
                f"({self.max_upload_bytes / _MB:g}), so the largest file allowed could never "
                "be sent: raise --max-request-mb or leave it out"
            )
        if self.history_turns < 0:
            raise ConfigError("--history cannot be negative")
        return self


def _check_token(token: str) -> None:
    """Refuse a token that no `Authorization` header could match, or that is too weak.

    Whitespace around the token is refused rather than stripped: the secret is exactly what
    the operator typed, and a header value cannot carry leading or trailing spaces.
    """
    if not token.strip():
        raise ConfigError(
            "the token is blank: pass --token (or set "
            f"{TOKEN_VARIABLE}) to at least 16 random characters, or leave it out on loopback"
        )
    if token != token.strip():
        raise ConfigError(
            "the token starts or ends with whitespace, which no Authorization header can "
            "carry: remove the spaces (or newline) around it"
        )
    if not all(" " <= char <= "~" for char in token):
        raise ConfigError(
            "the token holds characters a browser cannot send in a header (control or "
            "non-ASCII): use printable ASCII, e.g. `python -c 'import secrets; "
            "print(secrets.token_urlsafe(32))'`"
        )
    if len(token) < 16:
        raise ConfigError("the token is too short: use at least 16 random characters")
