"""Text analysis shared by every layer."""

from __future__ import annotations

from citesynth.analysis import ADMONITIONS, without_asides


def test_asides_go_from_the_inside_out() -> None:
    assert without_asides("Milli Vanilli (band)") == "Milli Vanilli"
    assert without_asides("Foo (bar (baz)) Qux") == "Foo Qux"
    assert without_asides("no aside") == "no aside"


def test_admonition_labels_are_upper_case_words() -> None:
    assert all(label.isupper() and label.isalpha() for label in ADMONITIONS)
