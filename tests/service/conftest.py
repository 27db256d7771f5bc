"""A real service on loopback over a small corpus, answered by the shipped scripted model."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import httpx
import pytest

from citesynth import ScriptedModel
from citesynth.llm.fake import Reply
from citesynth.service import ServiceConfig
from tests.conftest import write
from tests.serving import Running, running, scripted_engine

BRIDGE = """\
# Harbour bridge

The harbour bridge opened in 2009 and carries four lanes of traffic.

The bridge is 1.2 kilometres long and was designed by Lund Partners.
"""

TUNNEL = """\
# River tunnel

The river tunnel opened in 2012 and carries two lanes in each direction.

Cyclists may not use the tunnel; they take the ferry instead.
"""

Serve = Callable[..., AbstractContextManager[Running]]


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    write(root, "bridge.md", BRIDGE)
    write(root, "tunnel.md", TUNNEL)
    return root


@pytest.fixture
def serve(tmp_path: Path, docs: Path) -> Serve:
    """`with serve(replies, config=..., delay=...) as server:` a service over `docs`."""

    @contextmanager
    def start(
        replies: Sequence[Reply] = (),
        *,
        config: ServiceConfig | None = None,
        delay: float = 0.0,
        model: ScriptedModel | None = None,
    ) -> Iterator[Running]:
        scripted = model or ScriptedModel(replies, delay=delay)
        open_engine = scripted_engine(tmp_path, docs, scripted)
        with running(open_engine, config or ServiceConfig(uploads_dir=tmp_path / "uploads")) as up:
            yield up

    return start


def sse_events(response: httpx.Response) -> list[tuple[str, dict[str, object]]]:
    """The (event, data) pairs of a server-sent event stream, in order."""
    import json

    events: list[tuple[str, dict[str, object]]] = []
    name = ""
    for line in response.iter_lines():
        if line.startswith("event: "):
            name = line[len("event: ") :]
        elif line.startswith("data: "):
            events.append((name, json.loads(line[len("data: ") :])))
    return events
