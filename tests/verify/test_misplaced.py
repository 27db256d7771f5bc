"""Code put where the sentence stating the claim names other code (`verify.misplaced`)."""

from __future__ import annotations

import asyncio

import pytest

from citesynth.verify import get_verifier
from citesynth.verify.base import Check
from citesynth.verify.misplaced import _marked, code_elsewhere

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
POOLS = (
    "A ``PoolManager`` keeps pools for you.\n\n"
    "By default, it will keep a maximum of 10\n``ConnectionPool`` instances."
)
PROXY = (
    "``flask.ctx.AppContext`` holds the application context.\n\n"
    "If an app context is not active, accessing attributes on this proxy will raise a\n"
    "``RuntimeError``."
)
MOVED = (
    "``Image.Image.get_child_images()`` has been moved to\n"
    "``ImageFile.ImageFile.get_child_images()``.\n\n"
    "``ExifTags.IFD.Makernote`` has been added."
)
FENCED = (
    "List `apiFactories` in the app config.\n\n"
    "The configuration then lists each factory in the section: ```yaml frontend:"
    " my-plugin: # the `AnyApiFactory` type ``` and see the `createApp` API."
)
LOADS = (
    "Most applications will create one ``Environment`` object on application\n"
    "initialization and use that to load templates."
)
LOADING = LOADS + " A ``Template`` is compiled once."
ROLES = (
    "You can create a schema from a dictionary of fields using the\n"
    "`from_dict <marshmallow.Schema.from_dict>` method."
)
LIMITS = (
    "You can control the connection pool size with ``httpx.Limits``.\n\n"
    "``max_keepalive_connections``, number of allowable keep-alive connections, or\n"
    "``None`` to always allow. (Defaults 20)"
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
        # written where the sentence writes other code: "it" before it excuses nothing
        (
            "By default, it will keep a maximum of 10 `PoolManager` instances.",
            POOLS.split("\n\n")[1],
            [POOLS],
            ("PoolManager", "ConnectionPool"),
        ),
        # what "it" means, said right
        (
            "By default, a `PoolManager` keeps a maximum of 10 `ConnectionPool` instances.",
            POOLS.split("\n\n")[1],
            [POOLS],
            None,
        ),
        # the aligner's best sentence writes the claim's code, another says its prose
        (
            "If an app context is not active, accessing attributes on this proxy will raise"
            " a `flask.ctx.AppContext`.",
            PROXY.split("\n\n")[0],
            [PROXY],
            ("flask.ctx.AppContext", "RuntimeError"),
        ),
        # little prose, but the name put in another's place
        (
            "`ExifTags.IFD.Makernote` has been moved to `ImageFile.ImageFile.get_child_images()`.",
            MOVED.split("\n\n")[0],
            [MOVED],
            ("ExifTags.IFD.Makernote", "Image.Image.get_child_images()"),
        ),
        # put where the sentence writes other code, a name is not the word in its prose
        (
            "Most applications will create one `Template` object on application"
            " initialization and use that to load templates.",
            LOADS,
            [LOADING],
            ("Template", "Environment"),
        ),
        # a role's target is the code it names
        (
            "You can create a schema from a dictionary of fields using the `from_dict` method.",
            ROLES,
            [ROLES],
            None,
        ),
        # an identifier written without backticks, where the sentence writes other code
        (
            "By default, it will keep a maximum of 10 PoolManager instances.",
            POOLS.split("\n\n")[1],
            [POOLS],
            ("PoolManager", "ConnectionPool"),
        ),
        # written plain, only code in its place tells: the sentence's other code is not
        (
            "httpx.Limits allows by default 20 keep-alive connections.",
            LIMITS.split("\n\n")[1],
            [LIMITS],
            None,
        ),
        # a fenced block run into the prose of a flattened page says nothing
        (
            "The configuration then lists each factory in the `apiFactories` section.",
            FENCED.split("\n\n")[0],
            [FENCED],
            None,
        ),
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


def test_a_run_on_claim_is_read_once() -> None:
    # "aB_" thirty thousand times had taken 53 s to find its identifiers (a regular
    # expression backtracking into the run), and ten thousand code spans 31 s to place
    run_on = "aB_" * 30_000 + "x-"
    spans = "Foo.bar_baz " * 10_000 + "end."
    page = "``Foo.bar_baz`` and ``aB_x`` say the sentence. " * 50
    assert code_elsewhere(run_on, "the sentence", [page]) is None
    assert code_elsewhere(spans, "the sentence", [page]) is None


def test_an_identifier_written_plain_keeps_what_follows_it() -> None:
    passages = ("``Schema.load`` and ``PoolManager`` and ``reload_templates``.",)
    claim = "Use Schema.load() and PoolManager. Then e.g. reload_templates, not Foo."
    assert _marked(claim, passages) == (
        "Use `Schema.load()` and `PoolManager`. Then e.g. `reload_templates`, not Foo.",
        True,
    )
    assert _marked("Use `Schema.load` and PoolManager.", passages) == (
        "Use `Schema.load` and PoolManager.",
        False,
    )
