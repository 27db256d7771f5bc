"""A web search API as a research tool: off unless configured, the same one-method interface.

    tool = WebSearch.from_env()           # CITESYNTH_WEB_SEARCH_URL / _KEY; None when unset
    await engine.write_report(question, tools=[tool])   # or: citesynth report ... --web

It speaks the Tavily-style search API: `POST URL` with `{"query", "max_results"}` and the
key as a bearer token, answered by `{"results": [{"title", "url", "content", "score"}]}`.
Each result becomes a hit whose chunk is the page's returned content, its path the page's
address (cited as `[n] Title. URL. Accessed DATE.`). Web pages are data like documents:
their text goes through the same inert rendering and verification, never instructions.
A failing or slow API leaves research with what the other tools found; the observation
says why.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from typing import Any

import httpx

from citesynth.errors import ConfigError
from citesynth.llm.http import client
from citesynth.synthesis.steps import Retrieved
from citesynth.types import Chunk, ChunkId, DocumentId, Hit

DEFAULT_URL = "https://api.tavily.com/search"
MAX_CONTENT = 4000


class WebSearch:
    """A Tavily-style search API (see the module docstring)."""

    name = "web_search"

    def __init__(
        self,
        url: str = DEFAULT_URL,
        key: str | None = None,
        *,
        results: int = 5,
        timeout: float = 20.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if not url.startswith(("https://", "http://")):
            raise ConfigError(f"the web search URL must be http(s): {url!r}")
        self.url = url
        self.key = key
        self.results = results
        self.timeout = timeout
        self.transport = transport

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> WebSearch | None:
        """The tool `CITESYNTH_WEB_SEARCH_URL` / `CITESYNTH_WEB_SEARCH_KEY` configure, if any.

        A key alone means Tavily's own address.

        Raises:
            ConfigError: the address is not http(s).
        """
        env = os.environ if environ is None else environ
        url = env.get("CITESYNTH_WEB_SEARCH_URL", "").strip()
        key = env.get("CITESYNTH_WEB_SEARCH_KEY", "").strip() or None
        if not url and not key:
            return None
        return cls(url or DEFAULT_URL, key)

    async def run(self, query: str) -> Retrieved:
        """The API's results for `query`, as hits (raises on an HTTP or format error)."""
        headers = {"Authorization": f"Bearer {self.key}"} if self.key else {}
        body = {"query": query, "max_results": self.results}
        async with client(self.transport, self.timeout, base_url=self.url) as http:
            response = await http.post(self.url, json=body, headers=headers)
        if response.status_code != 200:
            raise RuntimeError(f"web search answered HTTP {response.status_code}")
        try:
            found = response.json()["results"]
        except (ValueError, KeyError, TypeError) as error:
            raise RuntimeError(f"web search sent no results list ({error})") from None
        hits = [hit for rank, item in enumerate(found) if (hit := _hit(item, rank)) is not None]
        return Retrieved(tuple(hits[: self.results]))


def _hit(item: Any, rank: int) -> Hit | None:
    if not isinstance(item, dict):
        return None
    url = str(item.get("url") or "")
    text = " ".join(str(item.get("content") or "").split())[:MAX_CONTENT]
    if not url.startswith(("https://", "http://")) or not text:
        return None
    digest = hashlib.sha256(url.encode()).hexdigest()[:24]
    chunk = Chunk(
        id=ChunkId(f"web:{digest}"),
        document_id=DocumentId(f"web:{digest}"),
        path=url,
        title=str(item.get("title") or url),
        heading_path=(),
        text=text,
        char_start=0,
        char_end=len(text),
        start_line=1,
        end_line=1,
    )
    try:
        score = float(item.get("score", 0.0))
    except (TypeError, ValueError):
        score = 0.0
    score = min(1.0, max(0.0, score)) or 1.0 / (rank + 2)
    return Hit(chunk=chunk, score=score, confidence=score)
