from __future__ import annotations

import asyncio
from pathlib import Path

import citesynth
from citesynth import Settings, SyncEngine


def test_public_names_are_pinned() -> None:
    assert citesynth.__all__ == sorted(
        citesynth.__all__, key=str.casefold
    ) or citesynth.__all__ == sorted(citesynth.__all__)
    assert set(citesynth.__all__) == {
        "Answer",
        "Observation",
        "QualityCheck",
        "Report",
        "ReportDone",
        "ReportOptions",
        "ReportProgress",
        "ReportSource",
        "Section",
        "Subtopic",
        "AnswerEvent",
        "AskOptions",
        "AskOverrides",
        "Event",
        "Passage",
        "Prompt",
        "register_embedder",
        "IndexNotFoundError",
        "get_store",
        "migrate",
        "copy_store",
        "CopyFinished",
        "CopyProgress",
        "register_store",
        "register_model",
        "ToolCall",
        "ToolSpec",
        "register_prompt",
        "register_verifier",
        "register_writer",
        "ChatModel",
        "ChatOptions",
        "Citation",
        "CitationEvent",
        "Claim",
        "Conversation",
        "DoneEvent",
        "ErrorEvent",
        "ExtractiveWriter",
        "Fallback",
        "LLMWriter",
        "Message",
        "ModelError",
        "ModelTimeout",
        "ScriptedModel",
        "SourceRecord",
        "SourcesEvent",
        "TokenEvent",
        "VerificationEvent",
        "Writer",
        "get_model",
        "get_writer",
        "Anchor",
        "CitesynthError",
        "Chunk",
        "ChunkId",
        "ConfigError",
        "Document",
        "DocumentId",
        "DocumentKind",
        "Embedder",
        "EmbeddingProgress",
        "Engine",
        "FileIndexed",
        "FileRemoved",
        "FileSkipped",
        "FileUnchanged",
        "HashingEmbedder",
        "Hit",
        "IndexEvent",
        "IndexFinished",
        "IndexPlanned",
        "IndexReport",
        "IndexedFile",
        "IndexStats",
        "LoadError",
        "MiniLMEmbedder",
        "Reranker",
        "RetrievalOptions",
        "SQLiteStore",
        "Settings",
        "Signals",
        "Skip",
        "Store",
        "StoreError",
        "StoreLockedError",
        "StoreUnavailableError",
        "SyncEngine",
        "__version__",
        "get_embedder",
        "Check",
        "Conflict",
        "JudgeVerifier",
        "LexicalVerifier",
        "Verdict",
        "Verification",
        "Verifier",
        "get_verifier",
    }
    for name in citesynth.__all__:
        assert getattr(citesynth, name) is not None


def test_error_tree() -> None:
    assert issubclass(citesynth.StoreLockedError, citesynth.StoreError)
    for error in (citesynth.ConfigError, citesynth.StoreError, citesynth.LoadError):
        assert issubclass(error, citesynth.CitesynthError)


def test_sync_engine(tmp_path: Path, corpus: Path) -> None:
    settings = Settings(index_dir=tmp_path / "index", embedder="hashing", model="fake")
    with SyncEngine(settings=settings) as engine:
        assert engine.index([corpus]).indexed == 4
        assert engine.search("backoff in seconds", k=1)[0].chunk.path.endswith("client.py")
        assert engine.stats().chunks > 0
        answer = engine.answer("How is the backoff in seconds computed?", not_found_below=0.0)
        assert answer.citations and answer.citations[0].path.startswith("corpus/")
        report = engine.report("Connect and read timeouts", max_words=200, not_found_below=0.0)
        assert "## Key Findings" in report.markdown and report.words <= 200


async def test_sync_engine_works_inside_a_running_loop(tmp_path: Path, corpus: Path) -> None:
    # As in a notebook: asyncio.run() would fail here, the sync engine must not.
    assert asyncio.get_running_loop()
    engine = SyncEngine(settings=Settings(index_dir=tmp_path / "index", embedder="none"))
    try:
        assert engine.index([corpus]).indexed == 4
    finally:
        engine.close()


def test_settings_from_environment(tmp_path: Path) -> None:
    env = {
        "CITESYNTH_INDEX": str(tmp_path / "x"),
        "CITESYNTH_CHUNK_TOKENS": "120",
        "CITESYNTH_EXCLUDE": "drafts/*, *.log",
        "CITESYNTH_FUSION": "rrf",
    }
    settings = Settings.from_env(env, chunk_tokens=None, alpha=0.7)
    assert settings.index_dir == tmp_path / "x"
    assert settings.chunk_tokens == 120 and settings.alpha == 0.7 and settings.fusion == "rrf"
    assert settings.exclude == ("drafts/*", "*.log")
    loose = Settings(index_dir="relative/index", exclude=["a/*"])  # type: ignore[arg-type]
    assert loose.index_dir == Path("relative/index") and loose.exclude == ("a/*",)
