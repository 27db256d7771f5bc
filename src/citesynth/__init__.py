"""citesynth: answers and reports from your own documents, every sentence cited.

The public API is what this module exports; everything else is private and may change.
"""

from citesynth.embed import Embedder, HashingEmbedder, MiniLMEmbedder, get_embedder
from citesynth.engine import Engine, SyncEngine
from citesynth.errors import CitesynthError, ConfigError, LoadError, StoreError, StoreLockedError
from citesynth.events import (
    EmbeddingProgress,
    FileIndexed,
    FileRemoved,
    FileSkipped,
    FileUnchanged,
    IndexEvent,
    IndexFinished,
    IndexPlanned,
)
from citesynth.index.sqlite import SQLiteStore
from citesynth.index.store import Store
from citesynth.retrieve.hybrid import Reranker, RetrievalOptions
from citesynth.settings import Settings
from citesynth.types import (
    Anchor,
    Chunk,
    ChunkId,
    Document,
    DocumentId,
    DocumentKind,
    Hit,
    IndexReport,
    IndexStats,
    Signals,
    Skip,
)

__version__ = "0.1.0"

__all__ = [
    "Anchor",
    "Chunk",
    "ChunkId",
    "CitesynthError",
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
    "SyncEngine",
    "__version__",
    "get_embedder",
]
