"""`nli:PATH` with a real (tiny, untrained) sequence-classification model saved locally."""

from __future__ import annotations

from pathlib import Path

import pytest

from citesynth.errors import ConfigError
from citesynth.verify import Check, get_verifier

transformers = pytest.importorskip("transformers")

WORDS = "the connect timeout defaults to five seconds pools keep ten connections per host".split()


def tiny_model(folder: Path, labels: dict[int, str]) -> Path:
    """A one-layer BERT classifier and its tokenizer, written to `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS, "."]
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n")
    transformers.BertTokenizer(str(folder / "vocab.txt")).save_pretrained(folder)
    config = transformers.BertConfig(
        vocab_size=len(vocab),
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        num_labels=len(labels),
        id2label=labels,
        label2id={v: k for k, v in labels.items()},
    )
    transformers.BertForSequenceClassification(config).save_pretrained(folder)
    return folder


async def test_an_installed_nli_model_gives_verdicts_with_lexical_spans(tmp_path: Path) -> None:
    folder = tiny_model(tmp_path / "mnli", {0: "ENTAILMENT", 1: "neutral", 2: "contradiction"})
    verifier = get_verifier(f"nli:{folder}")
    assert verifier.name == "nli:mnli"
    source = "The connect timeout defaults to five seconds. Pools keep ten connections per host."
    checks = [Check("Pools keep ten connections per host.", (source,)), Check("", (source,))]
    verdicts = await verifier.verify(checks)
    assert 0.0 <= verdicts[0].score <= 1.0
    assert verdicts[0].label in {"supported", "partial", "unsupported"}
    span = verdicts[0].spans[0]
    assert source[span.start : span.end] == "Pools keep ten connections per host."
    assert verdicts[1].label == "unsupported"


def test_a_model_without_an_entailment_label_or_folder_is_a_clear_error(tmp_path: Path) -> None:
    folder = tiny_model(tmp_path / "sentiment", {0: "negative", 1: "positive"})
    with pytest.raises(ConfigError, match="no 'entailment' label"):
        get_verifier(f"nli:{folder}")
    with pytest.raises(ConfigError, match="not a folder"):
        get_verifier(f"nli:{tmp_path / 'missing'}")
