"""The service over a PostgreSQL store whose server stops and starts again.

While the database is down, requests fail at once with 503, a `Retry-After` and a message
naming the database; once it is back, the same process answers again by itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from citesynth import Engine, HashingEmbedder
from citesynth.index.stores import get_store
from citesynth.indexing import IngestOptions
from citesynth.verify import LexicalVerifier
from tests.serving import running

pytest.importorskip("psycopg")


def test_a_database_restart_is_a_503_then_answers_again(
    own_postgres: Any, corpus: Path, tmp_path: Path
) -> None:
    server = own_postgres

    async def open_engine() -> Engine:
        engine = Engine(
            store=await get_store(server.get_uri()),
            embedder=HashingEmbedder(),
            root=tmp_path,
            ingest=IngestOptions(chunk_tokens=80, overlap_tokens=15),
            verifier=LexicalVerifier(),
        )
        await engine.index([corpus])
        return engine

    ask = {"question": "What happens when the read timeout expires?", "model": "extractive"}
    with running(open_engine) as service:
        assert httpx.post(f"{service.url}/api/chat", json=ask, timeout=30).status_code == 200
        server.stop()
        down = httpx.post(f"{service.url}/api/chat", json=ask, timeout=30)
        assert down.status_code == 503
        assert down.headers["retry-after"] == "5"
        assert "cannot be reached" in down.json()["detail"]
        assert httpx.get(f"{service.url}/readyz", timeout=30).status_code == 503
        server.start()
        assert httpx.get(f"{service.url}/readyz", timeout=30).json()["status"] == "ready"
        again = httpx.post(f"{service.url}/api/chat", json=ask, timeout=30)
        assert again.status_code == 200
        assert "ReadTimeout" in again.json()["answer"]
