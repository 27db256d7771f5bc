"""`citesynth mcp`: the index as Model Context Protocol tools over stdio.

Tools:
    search(query, k)          ranked chunks with file, lines and page
    ask(question, mode, k)    an answer whose sentences carry verified citations

Agent clients (Claude Desktop, IDEs, the MCP SDK's `Client`) start the command and call the
tools; stdout carries only the protocol, so logs go to stderr.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from citesynth.answers import Answer
from citesynth.engine import Engine

try:
    from mcp.server import MCPServer
except ImportError as missing:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "`citesynth mcp` needs the MCP SDK: pip install 'citesynth[mcp]'"
    ) from missing


class Passage(BaseModel):
    """A chunk of a document with its provenance."""

    rank: int
    location: str = Field(description="path:Lstart-Lend, or path p. N for PDFs")
    path: str
    title: str
    start_line: int
    end_line: int
    page: int | None
    text: str
    confidence: float = Field(description="How likely the passage is relevant, 0..1")


class SearchResult(BaseModel):
    """What `search` returns."""

    query: str
    passages: list[Passage]


class CitedSource(BaseModel):
    """A source the answer cites, with the span that supports it."""

    number: int
    location: str
    title: str
    support: str = Field(description="supported | partial | unsupported | unchecked")
    evidence: str | None = Field(description="The exact supporting text, when found")


class AskResult(BaseModel):
    """What `ask` returns: the answer with [n] markers and the sources they name."""

    answer: str
    citations: list[CitedSource]
    confidence: float
    not_found: bool
    fallback: str | None = Field(description="Why raw passages are returned instead")
    unsupported_claims: list[str]
    conflicts: list[str]
    warnings: list[str]


def build_server(engine: Engine) -> MCPServer:
    """An MCP server whose tools answer from `engine`."""
    server = MCPServer(
        "citesynth",
        instructions=(
            "Search and answer from the user's indexed documents. Every sentence of an `ask` "
            "answer carries [n] markers naming the cited file and lines; quote them as given."
        ),
    )

    @server.tool(description="Find the passages of the indexed documents that match a query.")
    async def search(query: str, k: int = 5) -> SearchResult:
        hits = await engine.search(query, k=max(1, min(k, 50)))
        passages = [
            Passage(
                rank=rank,
                location=hit.chunk.location,
                path=hit.chunk.path,
                title=hit.chunk.title,
                start_line=hit.chunk.start_line,
                end_line=hit.chunk.end_line,
                page=hit.chunk.page,
                text=hit.chunk.text,
                confidence=hit.confidence,
            )
            for rank, hit in enumerate(hits, 1)
        ]
        return SearchResult(query=query, passages=passages)

    @server.tool(
        description=(
            "Answer a question from the indexed documents. Each sentence cites its sources as "
            "[n]; citations give file, lines and the supporting text. Says so when the "
            "documents do not contain the answer."
        )
    )
    async def ask(
        question: str, mode: Literal["simple", "detailed", "deep"] = "simple", k: int | None = None
    ) -> AskResult:
        options: dict[str, Any] = {"mode": mode}
        if k is not None:
            options["k"] = max(1, min(k, 50))
        return summarise(await engine.answer(question, **options))

    return server


def summarise(answer: Answer) -> AskResult:
    """The parts of an answer an agent needs."""
    return AskResult(
        answer=answer.answer,
        citations=[
            CitedSource(
                number=c.number,
                location=c.location,
                title=c.title,
                support=c.support,
                evidence=c.evidence.text if c.evidence else None,
            )
            for c in answer.citations
        ],
        confidence=answer.confidence,
        not_found=answer.not_found,
        fallback=answer.fallback.reason if answer.fallback else None,
        unsupported_claims=[c.text for c in answer.claims if c.label == "unsupported"],
        conflicts=[
            f"{conflict.topic}: "
            + "; ".join(
                f"{v} [{n}]" for v, n in zip(conflict.values, conflict.sources, strict=False)
            )
            for conflict in answer.conflicts
        ],
        warnings=list(answer.warnings),
    )


async def serve_stdio(engine: Engine) -> None:
    """Serve the tools on stdin/stdout until the client closes the pipe."""
    await build_server(engine).run_stdio_async()
