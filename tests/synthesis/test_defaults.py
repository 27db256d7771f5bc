"""Where a reference page's item states its default (`synthesis.defaults`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from citesynth.ingest.sentences import prose_sentences
from citesynth.synthesis.defaults import body_defaults, item_defaults

Finder = Callable[[str, Sequence[tuple[int, int]]], dict[int, tuple[int, int, int]]]


def _found(text: str, finder: Finder) -> dict[str, str]:
    """What `finder` says each item states, by the item's first six characters."""
    spans = prose_sentences(text, min_words=1)
    return {
        text[head : head + 6]: text[first:end]
        for head, (first, _, end) in finder(text, spans).items()
    }


def test_an_items_default_is_found_within_the_item() -> None:
    text = (
        "- `a` - Does one thing. It is quick. Defaults to 3.\n"
        "- `b` - Does another thing.\n"
        "  Off by default.\n\n"
        "A paragraph here. Then another. And more. Still more. Set by default.\n"
        "- `c` - Has none.\n"
        "- `d` - Total connections. The default limit size is 100.\n"
    )
    assert _found(text, item_defaults) == {
        "- `a` ": "It is quick. Defaults to 3.",
        "- `b` ": "Off by default.",
        "- `d` ": "The default limit size is 100.",  # naming what (aiohttp's `limit`)
    }  # "Set by default." is five sentences on: said of something else, maybe


def test_an_object_descriptions_default_is_found_paragraphs_down() -> None:
    text = (
        ".. py:data:: TEMPLATES_AUTO_RELOAD\n\n    Reload templates when they are changed.\n"
        "    If not set, it is on in debug mode.\n\n    Default: ``None``\n\n"
        ".. py:data:: EXPLAIN\n\n    Log how a template was loaded.\n\nDefault: ``False``\n"
    )
    # The last default is outside its description's body.
    assert _found(text, body_defaults) == {"Reload": "Default: ``None``"}
