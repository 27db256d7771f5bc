"""Two lists a source pairs item by item ("respectively"), paired otherwise by a claim."""

from __future__ import annotations

import time

import pytest

from citesynth.verify import Check, LexicalVerifier
from citesynth.verify.respectively import paired_otherwise

HANDLERS = (
    "By default, the framework installs :class:`falcon.media.JSONHandler`,\n"
    ":class:`falcon.media.URLEncodedFormHandler`, and\n"
    ":class:`falcon.media.MultipartFormHandler` for the ``application/json``,\n"
    "``application/x-www-form-urlencoded``, and ``multipart/form-data`` media types,\n"
    "respectively."
)
ONLY = (
    "In the context of a web API, the ``dump_only`` and ``load_only`` parameters are "
    'conceptually equivalent to "read-only" and "write-only" fields, respectively.'
)


@pytest.mark.parametrize(
    ("claim", "source", "found"),
    [
        (  # Falcon's docs, a written tuning claim
            "By default, Falcon installs MultipartFormHandler for "
            "application/x-www-form-urlencoded and URLEncodedFormHandler for "
            "multipart/form-data, alongside JSONHandler for application/json.",
            HANDLERS,
            ("URLEncodedFormHandler", "multipart/form-data"),
        ),
        (  # marshmallow's docs, a written tuning claim
            "For a web API, dump_only fields like password behave as write-only and load_only "
            "fields like created_at as read-only.",
            ONLY,
            ("dump_only", "write-only"),
        ),
    ],
)
def test_items_paired_otherwise_are_found(claim: str, source: str, found: tuple[str, str]) -> None:
    assert paired_otherwise(claim, [source]) == found


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (  # paired as the source pairs them
            "Falcon installs URLEncodedFormHandler for application/x-www-form-urlencoded and "
            "MultipartFormHandler for multipart/form-data, alongside JSONHandler for "
            "application/json.",
            HANDLERS,
        ),
        (  # the claim lists them in order too: no clause pairs two items
            "`dump_only` and `load_only` are read-only and write-only, respectively.",
            ONLY,
        ),
        (  # one pair only: nothing to pair it against
            "dump_only fields behave as write-only.",
            ONLY,
        ),
        (  # the source pairs nothing
            "dump_only fields behave as write-only and load_only fields as read-only.",
            ONLY.replace(", respectively", ""),
        ),
    ],
)
def test_items_paired_as_the_source_pairs_them_are_not_read_as_crossed(
    claim: str, source: str
) -> None:
    assert paired_otherwise(claim, [source]) is None


def test_the_lexical_verifier_says_the_source_pairs_them_the_other_way_round() -> None:
    wrong, right = LexicalVerifier().verify_now(
        [
            Check(
                "For a web API, dump_only fields behave as write-only and load_only fields as "
                "read-only.",
                (ONLY,),
            ),
            Check(
                "For a web API, dump_only fields behave as read-only and load_only fields as "
                "write-only.",
                (ONLY,),
            ),
        ]
    )
    assert not wrong.supported
    assert "the source pairs 'dump_only' and 'write-only' the other way round" in wrong.reasons
    assert right.supported


def test_hostile_lists_are_read_in_bounded_time() -> None:
    items = ", ".join(f"`item_{i}`" for i in range(5_000))
    sentence = f"{items} and `last` map to {items} and `end`, respectively."
    claim = " and ".join(f"item_{i} for item_{i + 1}" for i in range(2_000))
    started = time.perf_counter()
    paired_otherwise(claim, [sentence * 3])
    paired_otherwise("`a`, " * 20_000 + "respectively", ["`a`, " * 20_000 + "respectively"])
    # within the longest sentence read: lists of hundreds of items, a claim of 100,000 words
    short = ", ".join(f"`{i}`" for i in range(150))
    source = f"{short} and `x` for {short} and `y`, respectively. " * 50
    paired_otherwise("`1` for `2`, and `3` for `4`. " * 25_000, [source])
    paired_otherwise("`a`, " * 20_000, ["`a`, " * 300 + "respectively"])
    assert time.perf_counter() - started < 5
