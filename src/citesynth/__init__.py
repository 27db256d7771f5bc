"""citesynth: answers and reports from your own documents, every sentence cited.

The public API is what this module exports; everything else is private and may change.
"""

from citesynth.answers import (
    Answer,
    Citation,
    Claim,
    Conflict,
    Fallback,
    SourceRecord,
    Verification,
)
from citesynth.embed import Embedder, HashingEmbedder, MiniLMEmbedder, get_embedder
from citesynth.engine import Conversation, Engine, SyncEngine
from citesynth.errors import (
    CitesynthError,
    ConfigError,
    LoadError,
    ModelError,
    ModelTimeout,
    StoreError,
    StoreLockedError,
)
from citesynth.events import (
    AnswerEvent,
    CitationEvent,
    DoneEvent,
    EmbeddingProgress,
    ErrorEvent,
    FileIndexed,
    FileRemoved,
    FileSkipped,
    FileUnchanged,
    IndexEvent,
    IndexFinished,
    IndexPlanned,
    SourcesEvent,
    TokenEvent,
    VerificationEvent,
)
from citesynth.index.sqlite import SQLiteStore
from citesynth.index.store import Store
from citesynth.llm import ChatModel, ChatOptions, Message, ScriptedModel, get_model
from citesynth.retrieve.hybrid import Reranker, RetrievalOptions
from citesynth.settings import Settings
from citesynth.synthesis import ExtractiveWriter, LLMWriter, Writer, get_writer
from citesynth.synthesis.pipeline import AskOptions
from citesynth.types import (
    Anchor,
    Chunk,
    ChunkId,
    Document,
    DocumentId,
    DocumentKind,
    Hit,
    IndexedFile,
    IndexReport,
    IndexStats,
    Signals,
    Skip,
)
from citesynth.verify import (
    Check,
    JudgeVerifier,
    LexicalVerifier,
    Verdict,
    Verifier,
    get_verifier,
)

__version__ = "0.1.0"

__all__ = [
    "Anchor",
    "Answer",
    "AnswerEvent",
    "AskOptions",
    "ChatModel",
    "ChatOptions",
    "Check",
    "Chunk",
    "ChunkId",
    "Citation",
    "CitationEvent",
    "CitesynthError",
    "Claim",
    "ConfigError",
    "Conflict",
    "Conversation",
    "Document",
    "DocumentId",
    "DocumentKind",
    "DoneEvent",
    "Embedder",
    "EmbeddingProgress",
    "Engine",
    "ErrorEvent",
    "ExtractiveWriter",
    "Fallback",
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
    "IndexStats",
    "IndexedFile",
    "JudgeVerifier",
    "LLMWriter",
    "LexicalVerifier",
    "LoadError",
    "Message",
    "MiniLMEmbedder",
    "ModelError",
    "ModelTimeout",
    "Reranker",
    "RetrievalOptions",
    "SQLiteStore",
    "ScriptedModel",
    "Settings",
    "Signals",
    "Skip",
    "SourceRecord",
    "SourcesEvent",
    "Store",
    "StoreError",
    "StoreLockedError",
    "SyncEngine",
    "TokenEvent",
    "Verdict",
    "Verification",
    "VerificationEvent",
    "Verifier",
    "Writer",
    "__version__",
    "get_embedder",
    "get_model",
    "get_verifier",
    "get_writer",
]
