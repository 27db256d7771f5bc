"""`citesynth mcp` driven by the MCP Python SDK's own client over stdio."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from citesynth.cli import main

mcp = pytest.importorskip("mcp", reason="the mcp extra is not installed")


@pytest.fixture
def indexed(tmp_path: Path, docs: Path) -> Path:
    index = tmp_path / "index"
    result = CliRunner().invoke(
        main, ["index", str(docs), "--index", str(index), "--embedder", "hashing", "-q"]
    )
    assert result.exit_code == 0, result.output
    return index


def _server(index: Path, cwd: Path) -> object:
    return mcp.StdioServerParameters(
        command=sys.executable,
        args=["-m", "citesynth", "mcp", "--index", str(index), "--embedder", "hashing"],
        env={"CITESYNTH_MODEL": "extractive"},
        cwd=str(cwd),
    )


async def test_mcp_tools_search_and_answer_with_citations(indexed: Path, tmp_path: Path) -> None:
    async with mcp.Client(_server(indexed, tmp_path), read_timeout_seconds=60) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(tools) == {"search", "ask", "report"}
        assert "question" in tools["ask"].input_schema["properties"]

        found = await client.call_tool("search", {"query": "cyclists ferry", "k": 2})
        assert not found.is_error
        passages = found.structured_content["passages"]
        assert passages[0]["path"] == "docs/tunnel.md"
        assert passages[0]["location"].startswith("docs/tunnel.md:L")

        asked = await client.call_tool("ask", {"question": "When did the harbour bridge open?"})
        assert not asked.is_error
        answer = asked.structured_content
        assert "2009" in answer["answer"] and "[1]" in answer["answer"]
        cited = answer["citations"][0]
        assert cited["location"].startswith("docs/bridge.md:L")
        assert cited["support"] == "supported" and "2009" in cited["evidence"]
        assert answer["not_found"] is False and answer["fallback"] is None

        missing = await client.call_tool("ask", {"question": "zebra quantum xylophone"})
        assert missing.structured_content["not_found"] is True

        outline = "When did the harbour bridge open?\nWhen did the river tunnel open?"
        wrote = await client.call_tool(
            "report", {"question": "River crossings", "max_words": 300, "outline": outline}
        )
        assert not wrote.is_error
        report = wrote.structured_content
        assert "## Key Findings" in report["markdown"] and report["words"] <= 300
        assert [s.split(". ")[1].split(":")[0] for s in report["sources"]] == [
            "docs/bridge.md",
            "docs/tunnel.md",
        ]
