"""A class made the subclass of its own subclass, against the passages' code."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import Check, LexicalVerifier
from citesynth.verify.subclasses import parent_reversed

ORJSON = (
    "class OrjsonResponse(JSONResponse):\n"
    "    def render(self, content: Any) -> bytes:\n"
    "        return orjson.dumps(content)\n"
)


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        (  # Starlette's docs, a written tuning claim
            "In the orjson example, JSONResponse is defined as a subclass of OrjsonResponse "
            "that overrides its render method.",
            ("JSONResponse", "OrjsonResponse"),
        ),
        ("`JSONResponse` inherits from `OrjsonResponse`.", ("JSONResponse", "OrjsonResponse")),
        (
            "starlette.responses.JSONResponse extends OrjsonResponse.",
            (
                "starlette.responses.JSONResponse",
                "OrjsonResponse",
            ),
        ),
        # the code's own way round
        ("OrjsonResponse subclasses JSONResponse and overrides render.", None),
        ("OrjsonResponse is a subclass of `JSONResponse`.", None),
        # classes the code never defines
        ("Response is a subclass of JSONResponse.", None),
        # no claim about subclassing
        ("OrjsonResponse renders with orjson.", None),
    ],
)
def test_a_subclass_reversed_is_found(claim: str, found: tuple[str, str] | None) -> None:
    assert parent_reversed(claim, [ORJSON]) == found


def test_a_class_both_ways_round_is_not_read() -> None:
    both = ORJSON + "class JSONResponse(OrjsonResponse): ...\n"
    assert parent_reversed("JSONResponse is a subclass of OrjsonResponse.", [both]) is None


def test_the_lexical_verifier_rejects_a_reversed_subclass() -> None:
    claim = "JSONResponse is a subclass of OrjsonResponse that overrides its render method."
    [verdict] = LexicalVerifier().verify_now([Check(claim, (ORJSON,))])
    assert not verdict.supported
    assert any("other way round" in reason for reason in verdict.reasons)


def test_many_class_statements_are_read_in_bounded_time() -> None:
    code = "".join(f"class C{i}(B{i}, M{i}):\n    pass\n" for i in range(20_000))
    claim = " ".join(f"B{i} extends C{i}." for i in range(2_000))
    started = time.perf_counter()
    assert parent_reversed(claim, [code]) == ("B0", "C0")
    assert parent_reversed("x " * 50_000, ["class (" * 50_000]) is None
    assert time.perf_counter() - started < 5
