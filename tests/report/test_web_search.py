"""The web search tool against a recorded Tavily-style exchange (no network)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from citesynth import Engine
from citesynth.cli import main
from citesynth.errors import ConfigError
from citesynth.report import WebSearch
from tests.report.test_report import _corpus

RECORDED = (Path(__file__).resolve().parents[1] / "cassettes" / "tavily_search.json").read_bytes()


def _replay(seen: list[httpx.Request], status: int = 200) -> httpx.MockTransport:
    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(status, content=RECORDED if status == 200 else b"{}")

    return httpx.MockTransport(answer)


async def test_results_become_cited_web_sources(engine: Engine, tmp_path: Path) -> None:
    await _corpus(engine, tmp_path / "docs")
    seen: list[httpx.Request] = []
    web = WebSearch("https://search.example.com/search", "k-123", transport=_replay(seen))
    report = await engine.write_report(
        "When did the harbour bridge open?", tools=[web], outline="- Harbour bridge opening"
    )
    assert json.loads(seen[0].content) == {
        "query": "Harbour bridge opening: When did the harbour bridge open?",
        "max_results": 5,
    }
    assert seen[0].headers["authorization"] == "Bearer k-123"
    (section,) = report.sections
    assert [o.tool for o in section.observations] == ["corpus_search", "web_search"]
    web_seen = section.observations[1]
    assert web_seen.found == [
        "https://transport.example.org/history/harbour-bridge",
        "https://spam.example.net/page",
    ]  # the ftp result is not a web page
    assert "opened in 2009" in section.text
    (source,) = [s for s in report.sources if s.path.startswith("https://")]
    assert source.entry.startswith("[1] Harbour bridge - City transport history. https://")
    assert source.url == "https://transport.example.org/history/harbour-bridge"
    assert "[9]" not in report.markdown  # a page's instructions are data


async def test_a_failing_search_is_recorded_and_the_report_goes_on(
    engine: Engine, tmp_path: Path
) -> None:
    await _corpus(engine, tmp_path / "docs")
    web = WebSearch("https://search.example.com/search", transport=_replay([], status=503))
    report = await engine.write_report("What is the connection pool size?", tools=[web])
    failed = [o for s in report.sections for o in s.observations if o.tool == "web_search"]
    assert failed and all(o.error == "RuntimeError: web search answered HTTP 503" for o in failed)
    assert "100 connections" in report.markdown


def test_the_tool_is_off_unless_configured() -> None:
    assert WebSearch.from_env({}) is None
    assert WebSearch.from_env({"CITESYNTH_WEB_SEARCH_KEY": "k"}).url == (  # type: ignore[union-attr]
        "https://api.tavily.com/search"
    )
    with pytest.raises(ConfigError, match="must be http"):
        WebSearch.from_env({"CITESYNTH_WEB_SEARCH_URL": "file:///etc/passwd"})


def test_the_command_says_how_to_configure_web_search(
    run: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CITESYNTH_WEB_SEARCH_KEY", raising=False)
    monkeypatch.delenv("CITESYNTH_WEB_SEARCH_URL", raising=False)
    result = run.invoke(main, ["report", "Anything?", "--web"])
    assert result.exit_code == 2 and "CITESYNTH_WEB_SEARCH_KEY" in result.output
