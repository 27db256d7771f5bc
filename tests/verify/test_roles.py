"""Two names of a claim, each said with what the source says of the other."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import Check, LexicalVerifier
from citesynth.verify.roles import crossed_names, partners_exchanged

DEFAULTS = (
    "Specifying defaults\n-------------------\n\n"
    "`load_default` specifies the default deserialization value for a field.\n"
    "Likewise, `dump_default` specifies the default serialization value.\n\n"
    ".. code-block:: python\n\n"
    "    id = fields.UUID(load_default=uuid.uuid1)\n"
    "    birthdate = fields.DateTime(dump_default=dt.datetime(2017, 9, 29))\n"
)
DUMPING = (
    "Serialize objects by passing them to your schema's `dump <Schema.dump>` method, which "
    "returns the formatted result as a dictionary. You can also serialize to a "
    "JSON-encoded string using `dumps <Schema.dumps>`."
)
WRAPPERS = (
    "The :class:`Request` class wraps the `environ` for easier access to request variables "
    "(form data, request headers etc.). The :class:`Response` on the other hand is a "
    "standard WSGI application that you can create."
)
WHITESPACE = (
    "If an application is configured with `trim_blocks`, the first newline after a template "
    "tag is removed automatically, like in PHP. The `lstrip_blocks` option can also be set to "
    "strip tabs and spaces from the beginning of a line to the start of a block."
)

RECREATING = (
    "- Recreate itself with (optional) *additional* context data: `bind` and `new`.\n"
    "- Recreate itself with *less* context data: `unbind` and `try_unbind`.\n"
)

RECAPTCHA = """This comes with a number of configuration variables.

======================= ==============================================
RECAPTCHA_PUBLIC_KEY    **required** A public key.
RECAPTCHA_PRIVATE_KEY   **required** A private key.
RECAPTCHA_PARAMETERS    **optional** A dict of JavaScript (api.js) parameters.
RECAPTCHA_DATA_ATTRS    **optional** A dict of data attributes options.
======================= ==============================================
"""


@pytest.mark.parametrize(
    ("claim", "source", "found"),
    [
        (
            "dump_default gives a field's default value for deserialization, while "
            "load_default gives its default value for serialization.",
            DEFAULTS,
            ("dump_default", "load_default"),
        ),
        (  # names the claim writes plainly, which the source writes as code
            "Passing objects to a schema's dumps method gives a dictionary, while dump gives "
            "a JSON-encoded string.",
            DUMPING,
            ("dumps", "dump"),
        ),
        (
            "The `lstrip_blocks` option removes the first newline after a template tag, while "
            "`trim_blocks` strips tabs and spaces from the start of a line.",
            WHITESPACE,
            ("lstrip_blocks", "trim_blocks"),
        ),
        (  # what each pair's half of the claim says, before its names' own clause
            "To recreate itself with less context, a logger offers `bind()` and `new()`, "
            "whereas `unbind()` and `try_unbind()` recreate it with additional context.",
            RECREATING,
            ("bind", "unbind"),
        ),
        (  # two names of three (Werkzeug's docs, a written tuning claim)
            "In Werkzeug, the Response class wraps the environ for easier access to form data "
            "and request headers, while the Request class is a standard WSGI application.",
            WRAPPERS,
            ("response", "request"),
        ),
        (  # rows of a table (Flask-WTF's docs, a tuning probe)
            "RECAPTCHA_PARAMETERS is an optional dict of data attributes options, whereas "
            "RECAPTCHA_DATA_ATTRS is an optional dict of JavaScript (api.js) parameters.",
            RECAPTCHA,
            ("recaptcha_parameters", "recaptcha_data_attrs"),
        ),
    ],
)
def test_two_names_said_with_each_others_roles_are_found(
    claim: str, source: str, found: tuple[str, str]
) -> None:
    assert crossed_names(claim, [source]) == found


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (  # bound as the source binds them
            "load_default gives a field's default value for deserialization, while "
            "dump_default gives its default value for serialization.",
            DEFAULTS,
        ),
        (  # both in one clause: coordinated
            "`load_default` and `dump_default` give the deserialization and serialization "
            "defaults, respectively.",
            DEFAULTS,
        ),
        (  # one name is a part of the other
            "A `LocalProxy` forwards to the object the proxy wraps, while each proxy is a "
            "default deserialization value.",
            "A `LocalProxy` forwards every operation to the bound object. A `proxy` holds the "
            "default deserialization value for a field.",
        ),
        (  # an option is read by `codevalues`, not here
            "A group without a subcommand behaves as if --help was passed, unless "
            "invoke_without_command=True makes it run its callback.",
            "If `invoke_without_command` is set, the group callback runs. Otherwise the group "
            "shows its `--help` page.",
        ),
        (  # each half as the source says it
            "To recreate itself with additional context, a logger offers `bind()` and "
            "`new()`, whereas `unbind()` and `try_unbind()` recreate it with less context.",
            RECREATING,
        ),
        (  # one name only
            "`load_default` gives the default deserialization value.",
            DEFAULTS,
        ),
        (  # no sentence says anything of the second name alone
            "dump_default gives the deserialization default, while load_default is for "
            "serialization.",
            "`load_default` and `dump_default` set a field's defaults.",
        ),
    ],
)
def test_no_crossing_when_nothing_binds_them_apart(claim: str, source: str) -> None:
    assert crossed_names(claim, [source]) is None


def test_three_names_bound_as_the_source_binds_them_are_not_crossed() -> None:
    claim = (
        "In Werkzeug, the Request class wraps the environ for easier access to form data "
        "and request headers, while the Response class is a standard WSGI application."
    )
    assert crossed_names(claim, [WRAPPERS]) is None


SMARTY = (
    "Option | Default value | Description\n"
    "------ | ------------- | -----------\n"
    "`smart_dashes` | `True` | whether to convert dashes\n"
    "`smart_angled_quotes` | `False` | whether to convert angled quotes\n"
    "`smart_ellipses` | `True` | whether to convert ellipses\n"
)
EXTRAS = (
    "Starlette only requires `anyio`, but some features need extra packages:\n\n"
    "* [`itsdangerous`][itsdangerous] - Required for `SessionMiddleware` support.\n"
    "* [`pyyaml`][pyyaml] - Required for `SchemaGenerator` support.\n"
)
DECORATORS = (
    "Some decorators are available to tell Jinja to pass extra information to the filter.\n\n"
    "- :func:`pass_context` passes the current :class:`~jinja2.runtime.Context`.\n"
    "- :func:`pass_environment` passes the :class:`Environment`.\n"
)


@pytest.mark.parametrize(
    ("claim", "source", "found"),
    [
        (  # a table's rows
            "The smart_angled_quotes option defaults to True, while the smart_ellipses option "
            "defaults to False.",
            SMARTY,
            ("true", "false"),
        ),
        (  # a list's items
            "itsdangerous is needed for SchemaGenerator support, while pyyaml is required for "
            "SessionMiddleware.",
            EXTRAS,
            ("schemagenerator", "sessionmiddleware"),
        ),
        (  # "Context" is no part of "pass_context"
            "The pass_context decorator passes the Environment to the filter, while "
            "pass_environment passes the current Context.",
            DECORATORS,
            ("environment", "context"),
        ),
    ],
)
def test_names_given_each_others_partners_are_found(
    claim: str, source: str, found: tuple[str, str]
) -> None:
    assert partners_exchanged(claim, [source]) == found


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "The smart_angled_quotes option defaults to False, while the smart_ellipses option "
            "defaults to True.",
            SMARTY,
        ),
        (
            "itsdangerous is needed for SessionMiddleware support, while pyyaml is required "
            "for SchemaGenerator.",
            EXTRAS,
        ),
        (  # a pair the source also writes together is no exchange
            "`itsdangerous` and `pyyaml` are needed for `SessionMiddleware`, while "
            "`SchemaGenerator` needs `anyio`.",
            EXTRAS + "All of `itsdangerous`, `pyyaml`, `SessionMiddleware` and `anyio`.",
        ),
        (  # one name in each clause: no pairs
            "The pass_context decorator passes more, while pass_environment passes less.",
            DECORATORS,
        ),
    ],
)
def test_partners_as_the_source_pairs_them_are_not_exchanged(claim: str, source: str) -> None:
    assert partners_exchanged(claim, [source]) is None


def test_the_lexical_verifier_says_the_source_pairs_them_the_other_way_round() -> None:
    wrong, right = LexicalVerifier().verify_now(
        [
            Check(
                "dump_default gives a field's default value for deserialization, while "
                "load_default gives its default value for serialization.",
                (DEFAULTS,),
            ),
            Check(
                "load_default gives a field's default value for deserialization, while "
                "dump_default gives its default value for serialization.",
                (DEFAULTS,),
            ),
        ]
    )
    assert not wrong.supported
    assert "the source pairs 'dump_default' and 'load_default' the other way round" in (
        wrong.reasons
    )
    assert right.supported


def test_hostile_claims_and_sources_are_read_in_linear_time() -> None:
    # Thousands of names in a claim are a list (never read); thousands of code spans in a
    # source are read once.
    many = ", ".join(f"name_{i}" for i in range(20_000))
    assert crossed_names(f"{many} differ.", [DEFAULTS]) is None
    spans = " ".join(f"`span_{i}`" for i in range(20_000))
    claim = "span_1 reads the first, while span_2 writes the second."
    assert crossed_names(claim, [spans + ". span_1 writes. span_2 reads."]) is None
    assert crossed_names("`" * 100_000, ["`" * 100_000]) is None
    assert partners_exchanged(f"{many} differ.", [SMARTY]) is None
    # every row of a table of 20,000 is read once for the names of the claim
    names = "`smart_dashes` is `False`, while `smart_ellipses` is `True`."
    rows = "\n".join(f"`smart_dashes` | `True` | row {i}" for i in range(20_000))
    table = f"Option | Default | Row\n--- | --- | ---\n{rows}"
    started = time.perf_counter()
    assert partners_exchanged(names, [table + "\n`smart_ellipses` | `False`"]) == (
        "false",
        "true",
    )
    assert time.perf_counter() - started < 5
