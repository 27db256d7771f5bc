"""An NLI / cross-encoder model you install, as the verifier: `nli:PATH`.

    verifier = NLIVerifier("/models/deberta-v3-base-mnli")      # a local folder, never a download

Any sequence-classification model whose labels include `entailment` (MNLI-style, any case)
works, through `transformers` (`citesynth[embed]`). The lexical verifier picks the evidence
(whole short sources, or the best-aligned sentences with their neighbours), the model reads
(evidence, claim) pairs in batches, and the entailment probability is the score:
`supported` from 0.5, `partial` from 0.25 (or when the lexical verifier finds support but
the model is unsure), `unsupported` below. The supporting spans are the lexical ones.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from citesynth.errors import ConfigError
from citesynth.verify.base import Check, Label, Verdict
from citesynth.verify.judge import evidence_for
from citesynth.verify.lexical import LexicalVerifier

BATCH = 16


class NLIVerifier:
    """An entailment model from a local folder; the lexical verifier picks its evidence."""

    def __init__(self, path: str | Path, *, lexical: LexicalVerifier | None = None) -> None:
        folder = Path(path).expanduser()
        if not folder.is_dir():
            raise ConfigError(f"nli: {folder} is not a folder holding a model")
        try:
            import torch
            from transformers import AutoModelForSequenceClassification, AutoTokenizer
        except ImportError:
            raise ConfigError(
                "nli: needs transformers and torch: pip install 'citesynth[embed]'"
            ) from None
        self.name = f"nli:{folder.name}"
        self._torch: Any = torch
        try:
            self._tokenizer: Any = AutoTokenizer.from_pretrained(folder, local_files_only=True)
            self._model: Any = AutoModelForSequenceClassification.from_pretrained(
                folder, local_files_only=True
            ).eval()
        except (OSError, ValueError) as error:
            raise ConfigError(f"nli: cannot load a model from {folder}: {error}") from None
        labels = {str(v).lower(): int(k) for k, v in self._model.config.id2label.items()}
        entail = next((i for name, i in labels.items() if name.startswith("entail")), None)
        if entail is None:
            raise ConfigError(f"nli: {folder} has no 'entailment' label (labels: {sorted(labels)})")
        self._entail = entail
        self.lexical = lexical or LexicalVerifier()

    async def verify(self, checks: Sequence[Check]) -> list[Verdict]:
        """One verdict per check (see the module docstring)."""
        backups = self.lexical.verify_now(checks)
        pairs = [
            (evidence_for(check, backup), check.claim)
            for check, backup in zip(checks, backups, strict=True)
        ]
        scores = await asyncio.to_thread(self._entailment, pairs)
        verdicts = []
        for check, backup, score in zip(checks, backups, scores, strict=True):
            if not check.claim.strip() or not any(p.strip() for p in check.passages):
                verdicts.append(backup)
                continue
            label: Label
            if score >= 0.5:
                label = "supported"
            elif score >= 0.25 or backup.supported:
                label = "partial"
            else:
                label = "unsupported"
            reasons = () if label == "supported" else backup.reasons
            verdicts.append(Verdict(round(score, 4), label, backup.spans, reasons))
        return verdicts

    def _entailment(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        torch = self._torch
        scores: list[float] = []
        with torch.inference_mode():
            for first in range(0, len(pairs), BATCH):
                batch = pairs[first : first + BATCH]
                encoded = self._tokenizer(
                    [premise for premise, _ in batch],
                    [claim for _, claim in batch],
                    truncation=True,
                    max_length=512,
                    padding=True,
                    return_tensors="pt",
                )
                logits = self._model(**encoded).logits
                probabilities = torch.softmax(logits, dim=-1)[:, self._entail]
                scores.extend(float(p) for p in probabilities)
        return scores
