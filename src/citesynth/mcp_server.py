"""`citesynth mcp`: the index as Model Context Protocol tools over stdio.

Tools:
    search(query, k)                     ranked chunks with file, lines and page
    ask(question, mode, k)               an answer whose sentences carry verified citations
    report(question, max_words, outline) a research report with one citation index

Agent clients (Claude Desktop, IDEs, the MCP SDK's `Client`) start the command and call the
tools; stdout carries only the protocol, so logs go to stderr.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from citesynth.answers import Answer
from citesynth.engine import Engine
from citesynth.passages import Passage, passages
from citesynth.report import DEFAULT_WORDS
from citesynth.synthesis.modes import ModeName
from citesynth.synthesis.options import AskOverrides

try:
    from mcp.server import MCPServer
except ImportError as missing:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "`citesynth mcp` needs the MCP SDK: pip install 'citesynth[mcp]'"
    ) from missing


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


class ReportResult(BaseModel):
    """What `report` returns: the Markdown report, its sources and its checks."""

    title: str
    markdown: str = Field(description="The report; its Sources section lists every [n]")
    sources: list[str] = Field(description="[n] Title. path:Lx-Ly. Accessed DATE.")
    words: int
    supported_share: float | None
    failed_checks: list[str]
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
        return SearchResult(query=query, passages=passages(hits))

    @server.tool(
        description=(
            "Answer a question from the indexed documents. Each sentence cites its sources as "
            "[n]; citations give file, lines and the supporting text. Says so when the "
            "documents do not contain the answer."
        )
    )
    async def ask(question: str, mode: ModeName = "simple", k: int | None = None) -> AskResult:
        overrides = AskOverrides(mode=mode)
        if k is not None:
            overrides["k"] = max(1, min(k, 50))
        return summarise(await engine.answer(question, **overrides))

    @server.tool(
        description=(
            "Write a structured research report (executive summary, findings per subtopic, "
            "conclusions, sources) from the indexed documents, every sentence cited. "
            "`outline`: optional subtopics, one per line."
        )
    )
    async def report(
        question: str, max_words: int = DEFAULT_WORDS, outline: str | None = None
    ) -> ReportResult:
        written = await engine.write_report(
            question, max_words=max(50, min(max_words, 20_000)), outline=outline
        )
        return ReportResult(
            title=written.title,
            markdown=written.markdown,
            sources=[source.entry for source in written.sources],
            words=written.words,
            supported_share=written.supported_share,
            failed_checks=[f"{c.name}: {c.detail}" for c in written.checks if not c.passed],
            warnings=list(written.warnings),
        )

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
