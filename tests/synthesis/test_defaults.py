"""Where a reference page's item states its default (`synthesis.defaults`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from citesynth.ingest.sentences import prose_sentences
from citesynth.synthesis.defaults import body_defaults, item_defaults, titled_defaults, with_stop

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


def test_an_item_opening_with_its_type_is_found_by_its_second_sentence_too() -> None:
    text = (
        ".. attribute:: Task.retry_backoff_max\n\n"
        "    A number. If ``retry_backoff`` is enabled, this option will set a maximum\n"
        "    delay in seconds between task autoretries. By default, this option is set to\n"
        "    ``600``, which is 10 minutes.\n"
    )
    found = _found(text, item_defaults)
    assert found["A numb"].startswith("If ``retry_backoff``")
    assert found["If ``r"] == "By default, this option is set to\n    ``600``, which is 10 minutes."
    # a first sentence that says more than a type stands for its item alone
    said = "    Maximum number of retries. It can be None. By default, it is set to ``3``.\n"
    assert list(_found(said, item_defaults)) == ["Maximu"]


def test_an_object_descriptions_default_is_found_paragraphs_down() -> None:
    text = (
        ".. py:data:: TEMPLATES_AUTO_RELOAD\n\n    Reload templates when they are changed.\n"
        "    If not set, it is on in debug mode.\n\n    Default: ``None``\n\n"
        ".. py:data:: EXPLAIN\n\n    Log how a template was loaded.\n\nDefault: ``False``\n"
    )
    # The last default is outside its description's body.
    assert _found(text, body_defaults) == {"Reload": "Default: ``None``"}


def test_a_default_stated_under_a_title_is_of_the_sentence_after_it() -> None:
    # Django's settings reference: the default first, then what the setting is.
    text = (
        "``SESSION_COOKIE_AGE``\n----------------------\n\n"
        "Default: ``1209600`` (2 weeks, in seconds)\n\n"
        "The age of session cookies, in seconds.\n\n"
        "A paragraph on something else.\n\nDefault: ``None`` is said mid-section.\n\n"
        "So it is of no sentence after it.\n"
    )
    titles = [text.index("\n\nDefault") + 1]

    def under_titles(
        text: str, spans: Sequence[tuple[int, int]]
    ) -> dict[int, tuple[int, int, int]]:
        return titled_defaults(text, spans, titles)

    assert _found(text, under_titles) == {"The ag": "Default: ``1209600`` (2 weeks, in seconds)"}
    # a chunk opening in a section's text, its title in the heading path
    opening = text[text.index("Default") :]
    assert _found(opening, lambda t, s: titled_defaults(t, s, [0])) == {
        "The ag": "Default: ``1209600`` (2 weeks, in seconds)"
    }


def test_a_default_over_a_list_or_in_windows_lines() -> None:
    listed = "## retries\n\nDefault: 3\n\n- on connect errors\n- on read errors\n"
    assert _found(listed, lambda t, s: titled_defaults(t, s, [listed.index("\n")])) == {}
    crlf = "Default: ``10``\r\n\r\nThe number of connections kept open.\r\n"
    assert _found(crlf, lambda t, s: titled_defaults(t, s, [0])) == {"The nu": "Default: ``10``"}


def test_a_default_gets_a_stop_only_when_it_has_none() -> None:
    assert with_stop("Default: ``None``") == "Default: ``None``."
    assert with_stop("Default: ``10`` (ten, in seconds) ") == "Default: ``10`` (ten, in seconds)."
    assert with_stop("Defaults to 5.") == "Defaults to 5."
    assert with_stop("Default: ``4`` (or ``None``.)") == "Default: ``4`` (or ``None``.)"
