"""Every exception citesynth raises, in one tree.

```
CitesynthError                 base class; catch this to catch everything below
├── ConfigError                a setting is wrong or an optional extra is missing; says the fix
├── StoreError                 the index on disk cannot be used (corrupt, newer schema, locked)
│   ├── StoreLockedError       another process is writing to the same index
│   └── IndexNotFoundError     nothing is indexed there yet; says how to make an index
├── LoadError                  one input could not be read; the run skips it and goes on
└── ModelError                 a model call failed (the answer falls back to ranked chunks)
    ├── ModelTimeout           no answer within the time allowed
    └── ModelHTTPError         the provider answered with an HTTP error (status kept)
```

Expected outcomes are data, not exceptions: a file that cannot be ingested becomes a
`Skip` in the `IndexReport`, and a search with no match returns an empty list.
`LoadError` only travels from a loader to the ingest loop, which turns it into a `Skip`;
`ModelError` only travels from a model adapter to the synthesis pipeline, which turns it into
an answer with `fallback.reason` and the ranked chunks.
"""

from __future__ import annotations


class CitesynthError(Exception):
    """Base class for every error citesynth raises on purpose."""


class ConfigError(CitesynthError):
    """A setting is invalid or an optional dependency is missing; the message says the fix."""


class StoreError(CitesynthError):
    """The index on disk cannot be used as it is."""


class StoreLockedError(StoreError):
    """Another process holds the index's write lock."""


class StoreUnavailableError(StoreError):
    """The database server behind the index cannot be reached now; a later call may succeed."""


class IndexNotFoundError(StoreError):
    """A store opened without creating holds no index; the message says how to make one."""


class LoadError(CitesynthError):
    """One input could not be turned into a document; `reason` is shown to the user."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ModelError(CitesynthError):
    """A model call failed; `reason` is one line for the user."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ModelTimeout(ModelError):
    """The model did not answer (or stopped answering) within the time allowed."""


class ModelHTTPError(ModelError):
    """The provider answered with an HTTP error."""

    def __init__(self, reason: str, status: int) -> None:
        super().__init__(reason)
        self.status = status
