"""With OpenTelemetry installed, every answer becomes a span carrying its figures."""

from __future__ import annotations

import httpx
import pytest

from tests.service.conftest import Serve

sdk = pytest.importorskip("opentelemetry.sdk.trace", reason="opentelemetry-sdk not installed")
from opentelemetry import trace  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (  # noqa: E402
    InMemorySpanExporter,
)

EXPORTER = InMemorySpanExporter()


@pytest.fixture(scope="module", autouse=True)
def _provider() -> None:
    provider = sdk.TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(EXPORTER))
    trace.set_tracer_provider(provider)


def test_each_answer_is_exported_as_a_span(serve: Serve) -> None:
    EXPORTER.clear()
    with serve() as server:
        body = httpx.post(f"{server.url}/api/chat", json={"question": "When did the bridge open?"})
    spans = [span for span in EXPORTER.get_finished_spans() if span.name == "citesynth.answer"]
    assert len(spans) == 1
    attributes = spans[0].attributes or {}
    assert attributes["citesynth.request_id"] == body.json()["request_id"]
    assert attributes["citesynth.model"] == "fake"
    assert attributes["citesynth.citations"] == 1
    assert attributes["citesynth.latency_ms.total"] > 0
    assert spans[0].end_time > spans[0].start_time
