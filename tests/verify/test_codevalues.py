"""Code a claim writes otherwise than its source (`verify.codevalues`)."""

from __future__ import annotations

import pytest

from citesynth.verify.codevalues import differing_code, sets_otherwise
from citesynth.verify.negation import negation_cues

ECHO = (
    "You can also easily print to standard error by passing ``err=True``::\n\n"
    "    click.echo('Hello World!', err=True)\n"
)
YAML = (
    "Set the plugin up in `app-config.yaml`:\n\n"
    "    catalog:\n      enabled: true\n      timeout: 30\n"
)
SEPARATOR = "The parser accepts the string `--` as a separator between options and arguments."
TASK_GROUP = (
    "* Tasks spawned via ``create_task`` can only be cancelled individually (there is no\n"
    "  ``cancel()`` method or similar in the task group)"
)

NAMING = (
    "convention = {\n"
    '    "ix": "ix_%(column_0_label)s",\n'
    '    "uq": "uq_%(table_name)s_%(column_0_name)s",\n'
    "}\n\n"
    "metadata = MetaData(naming_convention=convention)\n\n"
    "If we define our models using a MetaData as above, the given naming convention\n"
    "dictionary will be used to provide names for all constraints and indexes.\n"
)


def _negates(claim: str) -> bool:
    """Whether the claim negates anything, as the aligner reads it before calling."""
    return bool(negation_cues(claim))


@pytest.mark.parametrize(
    ("claim", "passages", "expected"),
    [
        ("Pass `err=False` to print to standard error.", [ECHO], (("err=False", "err=True"),)),
        ("Pass err=False to print to standard error.", [ECHO], (("err=False", "err=True"),)),
        ("Set `enabled: false` under `catalog`.", [YAML], (("enabled: false", "enabled: true"),)),
        ("Set `timeout: 60` for the catalog.", [YAML], (("timeout: 60", "timeout: 30"),)),
        ("Use the `++` marker as a separator.", [SEPARATOR], (("++", ""),)),
        # code the source only ever denies
        (
            "To cancel a task group, use the `cancel()` method on the task group object.",
            [TASK_GROUP],
            (("cancel()", "no ``cancel()``"),),
        ),
        # the variable passed to a keyword, called the parameter (Alembic's docs)
        (
            "Pass a dictionary of naming conventions to the `convention` parameter.",
            [NAMING],
            (("`convention` parameter", "naming_convention=convention"),),
        ),
        (
            "MetaData takes the convention argument.",
            [NAMING],
            (("`convention` parameter", "naming_convention=convention"),),
        ),
    ],
)
def test_a_setting_or_operator_written_otherwise_differs(
    claim: str, passages: list[str], expected: tuple[tuple[str, str], ...]
) -> None:
    assert differing_code(claim, passages, negated=_negates(claim)) == expected


@pytest.mark.parametrize(
    ("claim", "passages"),
    [
        ("Pass `err=True` to print to standard error.", [ECHO]),
        ('Pass `err = True` to `click.echo("Hi")`.', [ECHO]),  # spacing and quotes
        ("Set `enabled: True` under `catalog`.", [YAML]),  # YAML's true, Python's True
        ("Set `timeout: 30.0` for the catalog.", [YAML]),  # numbers as numbers
        ("Use the `--` marker as a separator.", [SEPARATOR]),
        ("Pass `color=False` to strip styles.", [ECHO]),  # a setting the source never sets
        # The source says the other value in words, next to the name.
        ("Pass `err=False` to print to standard output.", ["`err` defaults to `False`."]),
        # A nested YAML block is no value of its key.
        ("Add `catalog: rules` to the config.", ["catalog:\n  rules:\n    - allow: [Component]"]),
        # a denied name the claim denies too, or one the source also writes plainly
        ("A task group has no `cancel()` method.", [TASK_GROUP]),
        ("Call `cancel()` on the scope.", [TASK_GROUP + " Call ``cancel()`` on its scope."]),
        # a parameter the source writes as one somewhere: a keyword, a signature's name,
        # a call's own argument, or said to be a parameter
        ("Pass the dictionary to the `naming_convention` parameter.", [NAMING]),
        ("The `convention` parameter names constraints.", [NAMING + "f(convention=x)"]),
        ("The `convention` argument names constraints.", [NAMING + "def f(a, convention):"]),
        ("The `convention` argument names constraints.", [NAMING + "build(convention)"]),
        ("Use the `convention` parameter.", [NAMING + "The ``convention`` parameter is a dict."]),
        # prose saying which parameter, not naming one (the source passes `default`)
        ("It falls back to the default argument.", [NAMING + "f(k=default)"]),
        # a name the source never gives to a keyword
        ("The `uq` parameter is unused.", [NAMING]),
    ],
)
def test_code_as_the_source_writes_it_or_never_sets_it_does_not(
    claim: str, passages: list[str]
) -> None:
    assert differing_code(claim, passages, negated=_negates(claim)) == ()


def test_a_claim_setting_one_name_thousands_of_times_reads_the_source_once() -> None:
    # The values near a name's mentions are read once per name and source (it took minutes
    # when each setting of the claim rescanned every mention).
    claim = " ".join(f"x=v{i}" for i in range(2000)) + " `--` `--`"
    source = "x=1 " + " ".join(["x is set"] * 2000)
    found = differing_code(claim, [source], negated=_negates(claim))
    assert len(found) == 2001
    assert found[0] == ("x=v0", "x=1") and found[-1] == ("--", "")


def test_a_claim_calling_thousands_of_names_parameters_reads_a_few() -> None:
    claim = " ".join(f"the `name{i}` parameter" for i in range(20_000))
    source = "f(k=name3) " + "g(k=name50) " + "prose words " * 10_000
    assert differing_code(claim, [source], negated=_negates(claim)) == (
        ("`name3` parameter", "k=name3"),
    )


def test_a_name_mentioned_thousands_of_times_on_one_line_is_read_in_linear_time() -> None:
    # Each mention reads a window around it, never back to its line's start (scanning back
    # would read this 280 kB line 20,000 times).
    source = "k=convention, " * 20_000
    claim = "Pass it to the `convention` parameter."
    found = differing_code(claim, [source], negated=_negates(claim))
    assert found == (("`convention` parameter", "k=convention"),)


def test_a_claim_naming_thousands_of_pieces_of_code_reads_the_source_once() -> None:
    # The source's denials are read once (each piece of code rescanned it: 3,000 pieces
    # against 50 kB took 2 s).
    claim = " ".join(f"`name{i}()`" for i in range(3000))
    source = "there is no ``name5()`` here, and some prose words " * 1000
    assert differing_code(claim, [source], negated=_negates(claim)) == (
        ("name5()", "no ``name5()``"),
    )


@pytest.mark.parametrize(
    ("sentence", "other_case"),
    [
        ("With ``preload_content=True`` (the default) the body is read at once.", True),
        ("With ``preload_content = 'true'`` the body is read at once.", True),
        ("With ``preload_content=False`` you release the connection yourself.", False),
        ("Either ``preload_content=True`` or ``preload_content=False`` works here.", False),
        ("The body is read at once unless you stream it.", False),
        ("With ``decode_content=True`` the body is decoded.", False),
    ],
)
def test_a_sentence_setting_the_claims_setting_otherwise_is_another_case(
    sentence: str, other_case: bool
) -> None:
    claim = "With `preload_content=False`, release the connection by calling `release_conn()`."
    assert sets_otherwise(claim, sentence) is other_case
    assert sets_otherwise("Release the connection by calling `release_conn()`.", sentence) is False
