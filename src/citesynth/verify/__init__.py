"""Verification: claim-level support, citation repair, conflicts and answer confidence.

Verifiers by name (`get_verifier`):

- `lexical` (default): lexical alignment weighed by a logistic model trained on the tuning
  splits of WiCE, SciFact and HaluEval; offline, thousands of claims a second.
- `judge:MODEL`: any chat model `citesynth.llm.get_model` knows (`judge:local`,
  `judge:openai:gpt-4o-mini`, ...) asked for a strict JSON verdict, with the lexical verdict
  as its fallback.
- `nli:PATH`: an NLI / cross-encoder model you installed in a local folder (`transformers`).
"""

from __future__ import annotations

from collections.abc import Mapping

from citesynth.errors import ConfigError
from citesynth.verify.base import Check, Label, Span, Verdict, Verifier
from citesynth.verify.judge import JudgeVerifier
from citesynth.verify.lexical import LexicalVerifier

__all__ = [
    "Check",
    "JudgeVerifier",
    "Label",
    "LexicalVerifier",
    "Span",
    "Verdict",
    "Verifier",
    "get_verifier",
]


def get_verifier(name: str = "lexical", environ: Mapping[str, str] | None = None) -> Verifier:
    """The verifier called `name` (see the module docstring).

    Raises:
        ConfigError: an unknown name, or a judge model that cannot be set up.
    """
    family, _, rest = name.strip().partition(":")
    if family in {"", "lexical", "default"}:
        return LexicalVerifier()
    if family == "judge":
        from citesynth.llm import get_model

        if not rest:
            raise ConfigError("say which model judges: judge:MODEL (for example judge:local)")
        return JudgeVerifier(get_model(rest, environ))
    if family == "nli":
        from citesynth.verify.nli import NLIVerifier

        if not rest:
            raise ConfigError("say where the model is: nli:PATH (a local folder)")
        return NLIVerifier(rest)
    raise ConfigError(f"unknown verifier {name!r}: use lexical, judge:MODEL or nli:PATH")
