"""A behaviour said to happen by default where the flag describing it defaults otherwise."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import Check, LexicalVerifier
from citesynth.verify.flag_defaults import flag_default_backs, flag_default_differs

PARAMETERS = """Signature: `FileServer(root=None, listing=False, check_root=True, follow=False)`

* `root` - The folder the files are served from.
* `check_root` - Make sure that the root folder exists on startup. Defaults to `True`.
* `follow_links` - A boolean telling whether symbolic links to files and folders
  are followed. Defaults to `False`.
* `listing` - Show a listing of a folder's files beside its index page.
  (default: ``False``)
"""


@pytest.mark.parametrize(
    ("claim", "found"),
    [
        (
            "FileServer follows symbolic links to files and folders by default.",
            (
                "FileServer follows symbolic links to files and folders by default",
                "Defaults to `False`",
            ),
        ),
        (
            "By default, FileServer does not make sure that the root folder exists on startup.",
            (
                "By default, FileServer does not make sure that the root folder exists on startup",
                "Defaults to `True`",
            ),
        ),
        (
            "By default FileServer shows a listing of a folder's files.",
            (
                "By default FileServer shows a listing of a folder's files",
                "default: ``False``",
            ),
        ),
        ("FileServer does not follow symbolic links to files and folders by default.", None),
        ("By default, FileServer makes sure that the root folder exists on startup.", None),
        # the claim gives the value itself: `defaults` and `codevalues` read it
        ("Following symbolic links to files and folders is disabled by default.", None),
        # nothing said of the default
        ("FileServer can follow symbolic links to files and folders.", None),
    ],
)
def test_a_behaviour_by_default_is_read_against_its_flag(
    claim: str, found: tuple[str, str] | None
) -> None:
    assert flag_default_differs(claim, [PARAMETERS]) == found


def test_a_flag_turning_something_off_is_not_read() -> None:
    source = "* `no_cache` - Set to True to disable caching of responses. Defaults to `False`."
    assert flag_default_differs("Responses are cached by default.", [source]) is None
    denied = "* `strict` - If set, unknown keys are not accepted. Defaults to `False`."
    assert flag_default_differs("Unknown keys are accepted by default.", [denied]) is None


def test_the_lexical_verifier_rejects_the_behaviour_and_says_why() -> None:
    lexical = LexicalVerifier()
    wrong, right = lexical.verify_now(
        [
            Check(
                "FileServer follows symbolic links to files and folders by default.", (PARAMETERS,)
            ),
            Check(
                "FileServer does not follow symbolic links to files and folders by default.",
                (PARAMETERS,),
            ),
        ]
    )
    assert not wrong.supported
    assert any("Defaults to `False`" in reason for reason in wrong.reasons), wrong.reasons
    assert not any("Defaults to" in reason for reason in right.reasons), right.reasons


def test_a_page_of_flags_is_read_in_bounded_time() -> None:
    page = "\n".join(
        f"* `flag{i}` - A boolean telling whether links to files are followed. Defaults to `False`."
        for i in range(5000)
    )
    started = time.perf_counter()
    found = flag_default_differs("Links to files are followed by default.", [page])
    assert found == ("Links to files are followed by default", "Defaults to `False`")
    assert time.perf_counter() - started < 5


def test_lines_of_many_defaults_are_read_in_bounded_time() -> None:
    page = "\n".join(["Links are followed. Defaults to True. " * 50] * 200)
    started = time.perf_counter()
    flag_default_differs("Links are followed by default.", [page])
    assert time.perf_counter() - started < 5
    claim = "By default it does not follow the links " * 20_000  # a few negations are read
    started = time.perf_counter()
    assert not flag_default_backs(claim, [page])  # the flag is on by default
    assert time.perf_counter() - started < 5


@pytest.mark.parametrize(
    ("claim", "backed"),
    [
        (  # what the negation denies is the flag's behaviour, off by default
            "By default FileServer checks that its root exists and doesn't follow symbolic "
            "links, and it shows listings beside index pages.",
            True,
        ),
        ("FileServer never shows a listing of a folder's files by default.", True),
        # the flag is on by default: the negation is stated by nothing
        ("By default FileServer does not make sure that the root folder exists.", False),
        ("FileServer doesn't follow symbolic links.", False),  # nothing said of a default
        ("FileServer doesn't follow symbolic links unless follow=True by default.", False),
        ("By default FileServer doesn't serve it.", False),  # too little to hold to a line
    ],
)
def test_a_flag_off_by_default_backs_a_negation(claim: str, *, backed: bool) -> None:
    assert flag_default_backs(claim, [PARAMETERS]) is backed


def test_a_negation_backed_by_a_flag_off_by_default_is_supported() -> None:
    claim = (
        "By default FileServer checks that its root folder exists on startup and doesn't "
        "follow symbolic links to files and folders."
    )
    [verdict] = LexicalVerifier().verify_now([Check(claim, (PARAMETERS,))])
    assert "negation differs from the source" not in verdict.reasons, verdict
    on = PARAMETERS.replace("are followed. Defaults to `False`", "are followed. Defaults to `True`")
    [verdict] = LexicalVerifier().verify_now([Check(claim, (on,))])
    assert not verdict.supported, verdict
