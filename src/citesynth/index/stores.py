"""Stores found by location: `sqlite:PATH`, a plain folder path, or a plugin's scheme.

A location is `scheme:rest`, where a registered scheme names the backend and `rest` is
whatever that backend needs (a folder, a connection URL). A location without a registered
scheme (`.citesynth`, `/srv/index`) is a folder for the embedded SQLite store. The built-in
`sqlite` store registers itself here the way a plugin would:

    from citesynth.index.stores import register_store
    register_store("postgres", open_postgres, usage="postgres:URL")
    store = await get_store("postgres:postgresql://localhost/docs", create=False)

A factory takes `(rest, create)`. With `create=False` it must not create anything: a
location that holds no index raises `StoreError` saying how to make one.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from citesynth.errors import ConfigError
from citesynth.index.store import Store
from citesynth.registry import Registry

StoreFactory = Callable[[str, bool], Awaitable[Store]]
"""Opens a store from the rest of its location (after `scheme:`) and `create`."""

STORES: Registry[StoreFactory] = Registry("store")
"""Every store backend, by scheme."""


def register_store(
    prefix: str, factory: StoreFactory, *, usage: str = "", replace: bool = False
) -> None:
    """Make `get_store("prefix:...")` open stores with `factory`.

    Raises:
        ConfigError: the prefix is taken (pass `replace=True` to override it on purpose).
    """
    STORES.register(prefix, factory, usage=usage, replace=replace)


async def get_store(location: str, *, create: bool = True) -> Store:
    """Open the store at `location` (`scheme:rest`, or a folder for the SQLite store).

    Raises:
        StoreError: `create` is False and nothing is indexed at `location`, or the index
            there cannot be used.
    """
    scheme, colon, _ = location.partition(":")
    found = STORES.find(location) if colon and scheme.strip() in STORES else None
    if found is None:
        return await open_sqlite(location_folder(location) or location, create)
    factory, rest = found
    return await factory(rest, create)


def location_folder(location: str) -> str | None:
    """The folder `location` names for the embedded SQLite store; None for another backend.

    The one rule `get_store` and the settings (which show paths relative to the index
    folder's parent) both follow: a registered scheme names its backend (`sqlite:PATH` the
    folder PATH), anything else is a folder.

    Raises:
        ConfigError: a URL (`scheme://...`) whose scheme no store registered, which would
            otherwise become a folder of that name.
    """
    scheme, colon, rest = location.partition(":")
    if colon and scheme.strip() in STORES:
        return rest if scheme.strip().lower() == "sqlite" else None
    if colon and rest.startswith("//"):
        raise STORES.unknown(location)
    return location


def part_location(location: str, name: str) -> str:
    """A location beside `location` for one named part (an eval corpus).

    A sub-folder of a folder; a schema of its own in a database (`?schema=NAME`, after
    any schema given).
    """
    folder = location_folder(location)
    if folder is not None:
        return str(Path(folder) / name)
    safe = re.sub(r"\W", "_", name).lower()[:40]
    options = parse_qsl(urlsplit(location).query, keep_blank_values=True)
    given = dict(options).get("schema")
    kept = [(key, value) for key, value in options if key != "schema"]
    return with_query(location, [*kept, ("schema", f"{given}_{safe}" if given else safe)])


def with_query(url: str, options: list[tuple[str, str]]) -> str:
    """`url` with its query string made of `options` (spaces as %20: libpq reads + as +)."""
    query = urlencode(options, safe="/", quote_via=quote)
    return urlunsplit(urlsplit(url)._replace(query=query))


def shown_location(location: str) -> str:
    """`location` fit for messages and logs: a URL's password replaced by `***`."""
    parts = urlsplit(location)
    if "://" not in location or parts.password is None:
        return location
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))


async def open_sqlite(directory: str, create: bool) -> Store:
    """The embedded store in `directory` (SQLite, tantivy and vectors in one folder).

    Raises:
        ConfigError: `directory` is empty (`sqlite:` alone).
    """
    if not directory.strip():
        raise ConfigError("the sqlite store needs a folder: use sqlite:PATH")
    from citesynth.index.sqlite import SQLiteStore  # the backend loads when first used

    return await SQLiteStore.open(directory, create=create)


async def open_postgres(url: str, create: bool) -> Store:
    """The team store in the PostgreSQL database at `url` (pgvector, full-text search).

    Raises:
        ConfigError: the `postgres` extra (psycopg, pgvector) is not installed.
    """
    try:
        from citesynth.index.postgres import PostgresStore
    except ImportError as error:
        raise ConfigError(
            f"the PostgreSQL store needs the postgres extra ({error}); "
            "install it with: pip install 'citesynth[postgres]'"
        ) from error
    return await PostgresStore.open(url, create=create)


def _postgres(scheme: str) -> StoreFactory:
    async def factory(rest: str, create: bool) -> Store:
        return await open_postgres(f"{scheme}:{rest}", create)

    return factory


register_store("sqlite", open_sqlite, usage="sqlite:PATH (or a folder path)")
for _scheme in ("postgresql", "postgres"):
    register_store(
        _scheme, _postgres(_scheme), usage=f"{_scheme}://USER@HOST/DB[?schema=NAME&pool=N]"
    )
