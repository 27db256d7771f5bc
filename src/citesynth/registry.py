"""Named factories that plugins extend: models, writers, verifiers, embedders and stores.

A name is `prefix` or `prefix:rest` (`openai:gpt-4o-mini`, `judge:local`, `sqlite:.citesynth`).
Each kind keeps one `Registry`; the built-in parts register themselves through the same call a
plugin uses, so nothing distinguishes them:

    from citesynth import register_model
    register_model("mycloud", lambda rest, environ: MyCloudModel(rest))  # --model mycloud:big

An installed package can also declare an entry point in the group `citesynth.plugins`; the
object it names is imported on the first lookup of any kind and, when callable, called once
with no arguments (it registers what it brings). A plugin that fails to load is logged on
the `citesynth.plugins` logger and skipped, so one broken package cannot stop the others.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Generic, TypeVar

from citesynth.errors import ConfigError

F = TypeVar("F")

ENTRY_POINT_GROUP = "citesynth.plugins"

log = logging.getLogger("citesynth.plugins")


@dataclass(frozen=True, slots=True)
class Entry(Generic[F]):
    """One registered factory and the one line `--help` and error messages show for it."""

    prefix: str
    factory: F
    usage: str


class Registry(Generic[F]):
    """Factories of one kind (models, writers, ...) found by the prefix of a name."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[str, Entry[F]] = {}

    def register(self, prefix: str, factory: F, *, usage: str = "", replace: bool = False) -> None:
        """Make `factory` answer names that start with `prefix` (`prefix` or `prefix:...`).

        Raises:
            ConfigError: the prefix is taken (pass `replace=True` to override it on purpose).
        """
        key = prefix.strip().lower()
        if not key or ":" in key:
            raise ConfigError(f"a {self.kind} prefix is one word without ':', got {prefix!r}")
        if key in self._entries and not replace:
            raise ConfigError(
                f"the {self.kind} prefix {key!r} is already registered; "
                "pass replace=True to override it"
            )
        self._entries[key] = Entry(key, factory, usage or key)

    def unregister(self, prefix: str) -> None:
        """Forget `prefix` (for plugins that withdraw, and for tests)."""
        self._entries.pop(prefix.strip().lower(), None)

    def find(self, name: str) -> tuple[F, str] | None:
        """The factory for `name` and the rest of the name after `prefix:`, or None."""
        load_plugins()
        prefix, _, rest = name.strip().partition(":")
        entry = self._entries.get(prefix.lower())
        return None if entry is None else (entry.factory, rest)

    def __contains__(self, prefix: str) -> bool:
        load_plugins()
        return prefix.strip().lower() in self._entries

    def __iter__(self) -> Iterator[Entry[F]]:
        load_plugins()
        return iter(list(self._entries.values()))

    def usage(self) -> str:
        """Every accepted form, comma-separated, for error messages."""
        return ", ".join(entry.usage for entry in self)

    def unknown(self, name: str) -> ConfigError:
        """The error for a name no factory answers."""
        return ConfigError(f"unknown {self.kind} {name!r}: use {self.usage()}")


_loaded = False
_loading = threading.Lock()


def load_plugins() -> None:
    """Import the `citesynth.plugins` entry points once per process."""
    global _loaded
    if _loaded:
        return
    with _loading:
        if _loaded:
            return
        _loaded = True  # first, so that a plugin's own lookups do not recurse
        for point in entry_points(group=ENTRY_POINT_GROUP):
            try:
                loaded = point.load()
                if callable(loaded):
                    loaded()
            except Exception as error:  # one broken plugin must not stop citesynth
                log.warning("plugin %s (%s) failed to load: %s", point.name, point.value, error)


def reload_plugins() -> None:
    """Load the entry points again on the next lookup (after installing a plugin)."""
    global _loaded
    _loaded = False
