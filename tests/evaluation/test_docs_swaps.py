"""Hard negatives from documentation prose (benchmarks/docs_swaps.py)."""

from __future__ import annotations

import random

from benchmarks.docs_swaps import exchanged, names, prose_windows, replaced

SENTENCE = "Once `request.user` is installed the `AuthenticationMiddleware` interface is available."


def test_names_are_what_documentation_marks_as_code_or_capitalises_inside_a_sentence() -> None:
    assert names(SENTENCE) == ["`request.user`", "`AuthenticationMiddleware`"]
    assert names("Use post_load and JSONResponse with Starlette here.") == [
        "post_load",
        "JSONResponse",
        "Starlette",
    ]
    assert names("The first word is no name.") == []


def test_two_names_are_exchanged_and_one_is_replaced_by_another_of_the_window() -> None:
    swapped = exchanged(SENTENCE, random.Random(1))
    assert swapped == (
        "Once `AuthenticationMiddleware` is installed the `request.user` interface is available."
    )
    assert exchanged("Only `request.user` is named here.", random.Random(1)) is None
    window = ["Only `request.user` is named here.", "Call `Request.form` for forms."]
    assert replaced(window[0], window, random.Random(1)) == "Only `Request.form` is named here."


def test_prose_windows_leave_code_and_headings_out() -> None:
    text = (
        "# Title\n\nThe first sentence of prose is here. The second one follows it closely.\n\n"
        "```python\nx = compute(a, b)\n```\n\nA third sentence of prose ends the page.\n"
    )
    (window,) = prose_windows(text, budget=90)
    assert window == [
        "The first sentence of prose is here.",
        "The second one follows it closely.",
        "A third sentence of prose ends the page.",
    ]
