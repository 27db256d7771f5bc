"""Reports on a real index: plan, research, write, one citation index, checks, files."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from citesynth import Engine
from citesynth.cli import main
from citesynth.llm.fake import ScriptedModel
from citesynth.report import Report, ReportDone, ReportProgress, render
from citesynth.report.checks import markers
from citesynth.report.compose import body, words
from citesynth.report.sections import sized
from citesynth.synthesis import ExtractiveWriter, LLMWriter
from citesynth.synthesis.prompts import BUILT_IN
from tests.conftest import write

POOLS = """\
# Connection pools

The client keeps a connection pool for every host it talks to.
The default connection pool size is 100 connections for each client.
Idle connections in the pool are closed after five minutes.
"""
TIMEOUTS = """\
# Timeouts

The default request timeout is 30 seconds for every call.
A request that times out raises a TimeoutError naming the request.
Timeouts can be set per client with the timeout argument.
"""
RETRIES = """\
# Retries

Failed requests are retried three times with exponential backoff.
Retries only happen for idempotent methods such as GET and HEAD.
The backoff between retries starts at half a second.
"""
POOLS_OLD = """\
# Pool settings (old release)

The default connection pool size is 10 connections for each client.
You can raise the connection pool size with the max_connections option.
"""
QUESTION = "What are the connection pool size, the request timeout and the retry backoff?"
_SOURCE_LINE = re.compile(r"^\[(\d+)\] .+\. .+:L\d+-L\d+\. Accessed \d{4}-\d\d-\d\d\.$")


async def _corpus(engine: Engine, root: Path, *, conflicting: bool = False) -> None:
    write(root, "pools.md", POOLS)
    write(root, "timeouts.md", TIMEOUTS)
    write(root, "retries.md", RETRIES)
    if conflicting:
        write(root, "pools-old.md", POOLS_OLD)
    await engine.index([root])
    engine.writer = ExtractiveWriter(engine.embedder)


async def _events(engine: Engine, question: str, **options: object) -> list[object]:
    return [event async for event in engine.report(question, **options)]  # type: ignore[arg-type]


async def test_an_extractive_report_is_complete_cited_and_checked(
    engine: Engine, tmp_path: Path
) -> None:
    await _corpus(engine, tmp_path / "docs")
    events = await _events(engine, QUESTION)
    progress = [e for e in events if isinstance(e, ReportProgress)]
    assert isinstance(events[-1], ReportDone)
    report = events[-1].report
    assert progress[0].stage == "plan" and progress[-1].stage == "check"
    titles = ["Connection pool size", "Request timeout", "Retry backoff"]
    assert [p.message for p in progress if p.stage == "write"] == titles
    assert [s.origin for s in report.subtopics] == ["question"] * 3
    assert [s.title for s in report.sections] == titles
    text = report.markdown
    for heading in ("# ", "## Executive Summary", "## Key Findings", "## Conclusions"):
        assert heading in text
    assert "100 connections" in text and "30 seconds" in text and "three times" in text
    assert all(check.passed for check in report.checks), report.checks
    listed = {s.number for s in report.sources}
    cited = {int(n) for marker in markers(body(text)) for n in re.findall(r"\d+", marker)}
    assert cited == listed == set(range(1, len(listed) + 1))
    entries = text.split("## Sources\n\n", 1)[1].strip().splitlines()
    assert all(_SOURCE_LINE.match(line) for line in entries), entries
    assert report.supported_share == 1.0 and report.verifier == "lexical"
    assert not report.judged and "not judged: no judge model was given (--judge)" in report.warnings
    assert all(section.observations[0].tool == "corpus_search" for section in report.sections)


async def test_a_chunk_cited_by_two_sections_has_one_number(engine: Engine, tmp_path: Path) -> None:
    await _corpus(engine, tmp_path / "docs")
    outline = "# Pools\n\n- Connection pool size\n- Idle connections in the pool\n"
    report = await engine.write_report("Connection pools", outline=outline)
    assert report.title == "Pools"
    assert [s.origin for s in report.subtopics] == ["outline", "outline"]
    by_chunk = {s.chunk_id for s in report.sources}
    assert len(by_chunk) == len(report.sources)
    first, second = ({int(n) for n in re.findall(r"\d+", s.text)} for s in report.sections)
    assert first & second, "both sections cite the pools chunk, under one number"


async def test_the_word_limit_cuts_at_sentence_ends_and_keeps_citations_valid(
    engine: Engine, tmp_path: Path
) -> None:
    await _corpus(engine, tmp_path / "docs")
    long = await engine.write_report(QUESTION)
    limit = long.words - 15
    short = await engine.write_report(QUESTION, max_words=limit)
    assert short.words <= limit < long.words
    assert words(body(short.markdown)) == short.words
    assert all(c.passed for c in short.checks if c.name in {"citations", "length", "structure"})
    assert all(section.text.rstrip().endswith((".", "]")) for section in short.sections)


async def test_disagreeing_sources_are_stated_with_both_citations(
    engine: Engine, tmp_path: Path
) -> None:
    await _corpus(engine, tmp_path / "docs", conflicting=True)
    report = await engine.write_report("What is the default connection pool size?")
    conclusions = report.markdown.split("## Conclusions", 1)[1].split("## Sources", 1)[0]
    statement = re.search(
        r"The sources disagree on [^:]+: \[(\d+)\] says ([^;]+); \[(\d+)\]", conclusions
    )
    assert statement, conclusions
    sides = {int(statement.group(1)), int(statement.group(3))}
    paths = {s.path for s in report.sources if s.number in sides}
    assert paths == {"docs/pools.md", "docs/pools-old.md"}
    assert "Multiple sources report" not in report.markdown


async def test_a_subtopic_nothing_answers_says_so_and_fails_coverage(
    engine: Engine, tmp_path: Path
) -> None:
    await _corpus(engine, tmp_path / "docs")
    outline = (
        "- Connection pool size\n- Default request timeout\n- Quantum entanglement of kittens\n"
    )
    report = await engine.write_report("The client", outline=outline)
    missing = [s for s in report.sections if s.not_found]
    assert [s.title for s in missing] == ["Quantum entanglement of kittens"]
    assert missing[0].text.startswith("Not found in the sources.")
    coverage = next(c for c in report.checks if c.name == "coverage")
    assert not coverage.passed and "67%" in coverage.detail
    assert 'nothing was found on "Quantum entanglement of kittens"' in report.markdown


async def test_the_model_plans_and_a_failing_writer_leaves_the_research_output(
    engine: Engine, tmp_path: Path
) -> None:
    await _corpus(engine, tmp_path / "docs")
    plan = '["What is the default connection pool size?", "How are failed requests retried?"]'
    model = ScriptedModel(
        [plan, "The default connection pool size is 100 connections [1].", RuntimeError("down")]
    )
    engine.writer = LLMWriter(model, BUILT_IN, timeout=5.0)
    report = await engine.write_report("Tell me about the client.", cache=False)
    # A plan of two is filled up to three with a cluster of what retrieval finds.
    assert [s.origin for s in report.subtopics] == ["model", "model", "clusters"]
    pools, retries = report.sections[:2]
    assert "100 connections" in pools.text and pools.fallback is None
    assert retries.fallback and "retried three times" in retries.text
    assert re.search(r"\[\d+\]", retries.text)
    assert any("written from research output" in w for w in report.warnings)
    assert report.tokens["write_prompt"] > 0 and report.tokens["write_completion"] > 0
    assert report.tokens["plan_prompt"] > 0 and report.tokens["plan_completion"] > 0
    assert {"plan", "research", "write", "check", "total"} <= set(report.timings_ms)
    assert report.prompt_versions["report.section.user"] == "2"
    assert set(report.prompt_versions) == {
        "report.plan",
        "report.section.system",
        "report.section.user",
        "report.judge",
    }


async def test_an_unusable_plan_falls_back_to_clusters(engine: Engine, tmp_path: Path) -> None:
    await _corpus(engine, tmp_path / "docs")
    model = ScriptedModel(["I would rather not."], default="Not found in the sources.")
    engine.writer = LLMWriter(model, BUILT_IN, timeout=5.0)
    report = await engine.write_report("Tell me about the client.", cache=False)
    assert report.subtopics and {s.origin for s in report.subtopics} == {"clusters"}
    assert {s.title for s in report.subtopics} <= {"Connection pools", "Timeouts", "Retries"}


async def test_html_is_self_contained_and_every_citation_links_to_its_source(
    engine: Engine, tmp_path: Path
) -> None:
    await _corpus(engine, tmp_path / "docs")
    report = await engine.write_report(QUESTION)
    page = render(report, "html")
    assert "<script" not in page and not re.search(r"""(?:src|href)=["']?https?:""", page)
    targets = set(re.findall(r'href="#source-(\d+)"', page))
    anchors = set(re.findall(r'id="source-(\d+)"', page))
    assert targets and targets == anchors == {str(s.number) for s in report.sources}
    assert Report.model_validate_json(render(report, "json")) == report


def test_the_command_writes_the_report_and_its_metadata(run: CliRunner, tmp_path: Path) -> None:
    for name, text in (("pools.md", POOLS), ("timeouts.md", TIMEOUTS), ("retries.md", RETRIES)):
        write(tmp_path / "docs", name, text)
    assert run.invoke(main, ["index", "docs", "-q"]).exit_code == 0
    out = tmp_path / "out" / "report.md"
    result = run.invoke(
        main, ["report", QUESTION, "--model", "extractive", "--max-words", "300", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("# What are the connection pool size, the request")
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["words"] <= 300 and meta["max_words"] == 300
    assert {c["name"] for c in meta["checks"]} >= {"structure", "coverage", "citations", "length"}
    assert "write: 3/3 Retry backoff" in result.output


async def test_a_follow_up_report_is_understood_from_the_conversation(
    engine: Engine, tmp_path: Path
) -> None:
    await _corpus(engine, tmp_path / "docs")
    conversation = engine.chat()
    await conversation.answer("How are failed requests retried?")
    events = [event async for event in conversation.report("And the backoff?")]
    report = events[-1].report  # type: ignore[attr-defined]
    assert report.question == "And the backoff? (context: How are failed requests retried?)"
    assert [s.path for s in report.sources] == ["docs/retries.md"]
    assert conversation.turns[-1].question == "And the backoff?"
    assert "exponential backoff" in conversation.turns[-1].answer


async def test_each_section_sees_the_outline_and_what_earlier_sections_said(
    engine: Engine, tmp_path: Path
) -> None:
    await _corpus(engine, tmp_path / "docs")
    plan = '["What is the default connection pool size?", "How are failed requests retried?"]'
    pools = "The default connection pool size is 100 connections for each client [1]."
    retries = "Failed requests are retried three times with exponential backoff [1]."
    model = ScriptedModel([plan, pools, retries])
    engine.writer = LLMWriter(model, BUILT_IN, timeout=5.0)
    await engine.write_report("Tell me about the client.", cache=False)
    second = next(m.content for m in model.calls[2] if m.role == "user")
    assert "Report: Tell me about the client." in second
    assert (
        "- What is the default connection pool size?\n- How are failed requests retried?" in second
    )
    assert "- What is the default connection pool size?: The default connection pool" in second
    assert "Section: How are failed requests retried?" in second
    system = next(m.content for m in model.calls[2] if m.role == "system")
    assert "one section of a longer report" in system


def test_an_unreadable_outline_is_refused_with_the_reason(run: CliRunner, tmp_path: Path) -> None:
    binary = tmp_path / "outline.bin"
    binary.write_bytes(b"\xff\xfe\x00 not text \x80")
    result = run.invoke(main, ["report", "Anything?", "--outline", str(binary)])
    assert result.exit_code == 2 and "cannot read" in result.output


async def test_a_sentence_citing_nothing_is_left_out_of_the_report(
    engine: Engine, tmp_path: Path
) -> None:
    await _corpus(engine, tmp_path / "docs")
    reply = (
        "Connection pools are a staple of every modern networking stack. "
        "The default connection pool size is 100 connections for each client [1]."
    )
    engine.writer = LLMWriter(ScriptedModel([reply], default=reply), BUILT_IN, timeout=5.0)
    report = await engine.write_report(
        "Pools", outline="- What is the default connection pool size?", cache=False
    )
    (section,) = report.sections
    assert section.uncited == ["Connection pools are a staple of every modern networking stack."]
    assert "staple" not in report.markdown and "100 connections" in section.text
    assert any("1 sentence(s) citing no source left out" in w for w in report.warnings)


async def test_the_configured_length_is_the_default(engine: Engine, tmp_path: Path) -> None:
    await _corpus(engine, tmp_path / "docs")
    engine.report_words = 120
    report = await engine.write_report(QUESTION)
    assert report.max_words == 120 and report.words <= 120


async def test_an_outline_longer_than_twenty_subtopics_is_cut_with_a_warning(
    engine: Engine, tmp_path: Path
) -> None:
    await _corpus(engine, tmp_path / "docs")
    outline = "\n".join(f"- Connection pool size, part {n}" for n in range(1, 31))
    report = await engine.write_report("Pools", outline=outline, max_words=3000)
    assert len(report.subtopics) == 20
    assert report.warnings[0] == "the outline has 30 subtopics: the first 20 are written"


def test_a_sections_model_budget_follows_its_share_of_the_words(engine: Engine) -> None:
    model = ScriptedModel([])
    parts = engine.with_writer(LLMWriter(model, BUILT_IN, max_output_tokens=320)).parts()
    options = engine.options()
    short, same = sized(parts, options, max_words=600, sections=4)  # 120 words a section
    assert isinstance(short.writer, LLMWriter) and short.writer.max_output_tokens == 220
    assert same == options
    tiny, _ = sized(parts, options, max_words=200, sections=8)
    assert isinstance(tiny.writer, LLMWriter) and tiny.writer.max_output_tokens == 200
    long, deeper = sized(parts, options, max_words=10_000, sections=16)  # 500 words a section
    assert isinstance(long.writer, LLMWriter) and long.writer.max_output_tokens == 714
    assert (deeper.k or 0) >= 12
    assert isinstance(parts.writer, LLMWriter) and parts.writer.max_output_tokens == 320


def test_a_sections_extractive_writer_never_titles_it(engine: Engine) -> None:
    """A section has a heading of its own; its sentences come without their title's line."""
    parts = engine.with_writer(ExtractiveWriter(engine.embedder)).parts()
    options = engine.options()
    short, _ = sized(parts, options, max_words=600, sections=4)
    long, _ = sized(parts, options, max_words=10_000, sections=16)
    for sized_parts in (short, long):
        assert isinstance(sized_parts.writer, ExtractiveWriter)
        assert not sized_parts.writer.titled
    assert isinstance(long.writer, ExtractiveWriter) and long.writer.max_sentences == 22
    assert isinstance(parts.writer, ExtractiveWriter) and parts.writer.titled


async def test_file_citations_a_model_writes_become_report_numbers(
    engine: Engine, tmp_path: Path
) -> None:
    await _corpus(engine, tmp_path / "docs")
    model = ScriptedModel(
        [
            "The default connection pool size is 100 connections [pools.md].",
            "The default request timeout is 30 seconds [timeouts.md, line 3].",
        ]
    )
    engine.writer = LLMWriter(model, BUILT_IN, timeout=5.0)
    outline = "- Connection pool size\n- Request timeout\n"
    report = await engine.write_report(QUESTION, outline=outline, cache=False)
    pools, timeouts = (section.text for section in report.sections)
    assert pools == "The default connection pool size is 100 connections [1]."
    assert timeouts == "The default request timeout is 30 seconds [2]."
    assert [s.path for s in report.sources] == ["docs/pools.md", "docs/timeouts.md"]
    assert all(check.passed for check in report.checks if check.name == "citations")
