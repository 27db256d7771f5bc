"""Verification: claim-level support, citation repair, conflicts and answer confidence.

Verifiers by name (`get_verifier`; plugins add more with `register_verifier`):

- `default`: `trained` when `citesynth[embed]` (torch and the packaged MiniLM) is
  installed, else `lexical`.
- `trained`: a MiniLM cross-encoder fine-tuned here on tuning splits and generated hard
  negatives (`trained.py`); the lexical verifier picks the evidence it reads. Also scores
  question–passage answerability, with an all-mpnet-base-v2 cross-encoder trained the same
  way when `citesynth[gate]` is installed (`mpnet.py`). `trained:DIR` reads the weights
  `python -m benchmarks.train_crossencoder --out DIR` wrote there instead of the shipped ones.
- `lexical`: lexical alignment weighed by a logistic model trained on the tuning splits of
  WiCE, SciFact and HaluEval; offline, no torch, thousands of claims a second.
- `judge:MODEL`: any chat model `citesynth.llm.get_model` knows (`judge:local`,
  `judge:openai:gpt-4o-mini`, ...) asked for a strict JSON verdict, with the lexical verdict
  as its fallback.
- `nli:PATH`: an NLI / cross-encoder model you installed in a local folder (`transformers`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

from citesynth.errors import ConfigError
from citesynth.registry import Registry
from citesynth.verify.base import Check, Label, Span, Verdict, Verifier
from citesynth.verify.judge import JudgeVerifier
from citesynth.verify.lexical import LexicalVerifier

__all__ = [
    "VERIFIERS",
    "Check",
    "JudgeVerifier",
    "Label",
    "LexicalVerifier",
    "Span",
    "Verdict",
    "Verifier",
    "VerifierFactory",
    "get_verifier",
    "register_verifier",
]

VerifierFactory = Callable[[str, Mapping[str, str]], Verifier]
"""Makes a verifier from the rest of its name (after `prefix:`) and the environment."""

VERIFIERS: Registry[VerifierFactory] = Registry("verifier")


def register_verifier(
    prefix: str, factory: VerifierFactory, *, usage: str = "", replace: bool = False
) -> None:
    """Make `factory` answer the verifier names `prefix` and `prefix:...`."""
    VERIFIERS.register(prefix, factory, usage=usage, replace=replace)


def get_verifier(name: str = "default", environ: Mapping[str, str] | None = None) -> Verifier:
    """The verifier called `name` (see the module docstring).

    Raises:
        ConfigError: an unknown name, or a judge model that cannot be set up.
    """
    found = VERIFIERS.find(name.strip() or "default")
    if found is None:
        raise VERIFIERS.unknown(name)
    factory, rest = found
    return factory(rest, os.environ if environ is None else environ)


def _lexical(rest: str, environ: Mapping[str, str]) -> Verifier:
    return LexicalVerifier()


def _default(rest: str, environ: Mapping[str, str]) -> Verifier:
    from citesynth.verify.crossencoder import available

    return _trained(rest, environ) if available() else LexicalVerifier()


def _trained(rest: str, environ: Mapping[str, str]) -> Verifier:
    from citesynth.verify.trained import TrainedVerifier  # needs torch: imported on demand

    return TrainedVerifier.load(Path(rest).expanduser() if rest else None)


def _judge(rest: str, environ: Mapping[str, str]) -> Verifier:
    from citesynth.llm import get_model

    if not rest:
        raise ConfigError("say which model judges: judge:MODEL (for example judge:local)")
    return JudgeVerifier(get_model(rest, environ))


def _nli(rest: str, environ: Mapping[str, str]) -> Verifier:
    from citesynth.verify.nli import NLIVerifier  # needs transformers: imported on demand

    if not rest:
        raise ConfigError("say where the model is: nli:PATH (a local folder)")
    return NLIVerifier(rest)


register_verifier("lexical", _lexical, usage="lexical")
register_verifier("default", _default, usage="default")
register_verifier("trained", _trained, usage="trained[:DIR]")
register_verifier("judge", _judge, usage="judge:MODEL")
register_verifier("nli", _nli, usage="nli:PATH")
