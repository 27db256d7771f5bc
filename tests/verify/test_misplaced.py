"""Code put where the sentence stating the claim names other code (`verify.misplaced`)."""

from __future__ import annotations

import asyncio

import pytest

from citesynth.verify import get_verifier
from citesynth.verify.base import Check
from citesynth.verify.misplaced import code_elsewhere

ASSETS = (
    "Setting ``pyramid.reload_assets`` to ``True`` affects performance\n"
    "*dramatically*, slowing things down by an order of magnitude for each template\n"
    "rendering."
)
PAGE = (
    "Templates are reloaded when ``pyramid.reload_templates`` is true.\n\n"
    "However, when ``pyramid.reload_assets`` is true, Pyramid will not cache the\n"
    "template filename.\n" + ASSETS
)
RANGES = (
    "When no single ``SpecifierSet`` can express the range, ``to_specifier_set()``\n"
    "returns ``None``; see ``SpecifierSet.to_range`` for the other way."
)


@pytest.mark.parametrize(
    ("claim", "stating", "passages", "expected"),
    [
        # the embedded model's answer on Pyramid's docs: the other setting of the page
        (
            "Setting `pyramid.reload_templates` to `True` affects performance dramatically,"
            " slowing things down by an order of magnitude for each template rendering.",
            ASSETS,
            [PAGE],
            ("pyramid.reload_templates", "pyramid.reload_assets"),
        ),
        # the setting the sentence names
        (
            "Setting `pyramid.reload_assets` to `True` slows template rendering down"
            " dramatically, by an order of magnitude.",
            ASSETS,
            [PAGE],
            None,
        ),
        # a dotted name by its last part, a call by its name
        (
            "When no single `SpecifierSet` can express the range,"
            " `VersionRange.to_specifier_set()` returns `None`.",
            RANGES,
            [RANGES],
            None,
        ),
        # a literal is no name
        ("Pass `false` to this option to disable the host mount.", ASSETS, [PAGE], None),
        # a name the passages never write is another check's (`identifiers_missing`)
        (
            "Setting `pyramid.reload_all` to `True` affects performance dramatically,"
            " slowing rendering down by an order of magnitude.",
            ASSETS,
            [PAGE],
            None,
        ),
        # the claim says more than the sentence: another sentence may state it
        (
            "Use `pyramid.reload_templates` in development so edited templates show up"
            " without restarting the server.",
            ASSETS,
            [PAGE],
            None,
        ),
        # too little prose to say what the sentence says
        ("`pyramid.reload_templates` affects performance.", ASSETS, [PAGE], None),
    ],
)
def test_code_the_stating_sentence_gives_other_code(
    claim: str, stating: str, passages: list[str], expected: tuple[str, str] | None
) -> None:
    assert code_elsewhere(claim, stating, passages) == expected


def test_the_verifier_says_which_code_the_source_says_it_of() -> None:
    claims = [
        "Setting `pyramid.reload_templates` to `True` affects performance dramatically,"
        " slowing things down by an order of magnitude for each template rendering.",
        "Setting `pyramid.reload_assets` to `True` affects performance dramatically,"
        " slowing things down by an order of magnitude for each template rendering.",
    ]
    verifier = get_verifier("lexical")
    wrong, right = asyncio.run(verifier.verify([Check(c, (PAGE,)) for c in claims]))
    assert wrong.label != "supported"
    assert "the source says this of pyramid.reload_assets, not of pyramid.reload_templates" in (
        wrong.reasons
    )
    assert right.label == "supported"
