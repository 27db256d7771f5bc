"""The HTTP API over real loopback HTTP: answers, the stream, search, sources, documents."""

from __future__ import annotations

import fcntl
import time
from pathlib import Path

import httpx

from citesynth import ModelError
from tests.service.conftest import Serve, sse_events

BRIDGE_REPLY = "The harbour bridge opened in 2009 and carries four lanes of traffic [1]."


def test_chat_returns_the_answer_contract_with_diagnostics(serve: Serve) -> None:
    with serve([BRIDGE_REPLY]) as server:
        response = httpx.post(
            f"{server.url}/api/chat", json={"question": "When did the harbour bridge open?"}
        )
        assert response.status_code == 200
        body = response.json()
        assert body["answer"] == BRIDGE_REPLY
        (citation,) = body["citations"]
        assert citation["path"] == "docs/bridge.md" and citation["support"] == "supported"
        assert citation["evidence"]["text"].startswith("The harbour bridge opened in 2009")
        diagnostics = body["diagnostics"]
        assert diagnostics["model"] == "fake" and diagnostics["cache_hit"] is False
        assert diagnostics["retrieval"][0]["location"].startswith("docs/bridge.md:L")
        assert {"retrieve", "total"} <= set(diagnostics["timings_ms"])
        assert len(diagnostics["prompt_version"]) == 12
        again = httpx.get(f"{server.url}/api/answers/{body['request_id']}")
        assert again.status_code == 200 and again.json() == body


def test_stream_sends_events_in_the_documented_order(serve: Serve) -> None:
    with serve([BRIDGE_REPLY]) as server:
        question = {"question": "When did the harbour bridge open?"}
        with httpx.stream("POST", f"{server.url}/api/chat/stream", json=question) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            request_id = response.headers["x-request-id"]
            events = sse_events(response)
        names = [name for name, _ in events]
        assert names[0] == "sources" and names[-1] == "done"
        assert names.index("citation") > names.index("token")
        assert names[-2] == "verification"
        assert set(names) == {"sources", "token", "citation", "verification", "done"}
        assert events[0][1]["request_id"] == request_id
        streamed = "".join(str(data["text"]) for name, data in events if name == "token")
        done = events[-1][1]
        assert streamed.replace(" [1]", "").startswith("The harbour bridge opened in 2009")
        assert done["answer"] == BRIDGE_REPLY and done["request_id"] == request_id
        assert done.pop("kind") == "done"  # every event's body names its kind
        assert httpx.get(f"{server.url}/api/answers/{request_id}").json() == done


def test_a_failing_model_streams_an_error_with_the_ranked_chunks(serve: Serve) -> None:
    with serve([ModelError("model unavailable")]) as server:
        question = {"question": "When did the harbour bridge open?"}
        with httpx.stream("POST", f"{server.url}/api/chat/stream", json=question) as response:
            events = sse_events(response)
        names = [name for name, _ in events]
        assert names == ["sources", "error", "done"]
        error = events[1][1]
        assert "model unavailable" in str(error["message"])
        assert error["fallback"] and error["fallback"][0]["path"] == "docs/bridge.md"
        done = events[2][1]
        assert done["fallback"]["reason"] == error["message"]
        assert done["confidence"] == 0


def test_closing_the_stream_cancels_the_model_call(serve: Serve) -> None:
    long_reply = "The harbour bridge opened in 2009 and carries four lanes of traffic [1]. " * 40
    with serve([long_reply], delay=0.05) as server:
        started = time.perf_counter()
        question = {"question": "When did the harbour bridge open?"}
        with httpx.stream("POST", f"{server.url}/api/chat/stream", json=question) as response:
            request_id = response.headers["x-request-id"]
            for line in response.iter_lines():
                if line.startswith("event: token"):
                    break
        deadline = time.monotonic() + 5
        status = httpx.get(f"{server.url}/api/answers/{request_id}")
        while status.status_code == 202 and time.monotonic() < deadline:
            time.sleep(0.05)
            status = httpx.get(f"{server.url}/api/answers/{request_id}")
        assert status.status_code == 410
        assert status.json()["status"] == "cancelled"
        # The whole reply would take 40 s at this pace; the call stopped long before.
        assert time.perf_counter() - started < 10


def test_search_returns_ranked_chunks_with_provenance(serve: Serve) -> None:
    with serve() as server:
        body = httpx.post(f"{server.url}/api/search", json={"query": "cyclists ferry", "k": 2})
        hits = body.json()["hits"]
        assert [hit["rank"] for hit in hits] == [1, 2]
        assert hits[0]["path"] == "docs/tunnel.md"
        assert hits[0]["location"].startswith("docs/tunnel.md:L")
        assert "Cyclists may not use the tunnel" in hits[0]["text"]


def test_a_source_is_shown_with_its_lines(serve: Serve) -> None:
    with serve() as server:
        hit = httpx.post(f"{server.url}/api/search", json={"query": "cyclists ferry"}).json()[
            "hits"
        ][0]
        view = httpx.get(f"{server.url}/api/sources/{hit['chunk_id']}").json()
        assert view["location"] == hit["location"]
        numbered = {line["number"]: line for line in view["lines"]}
        assert numbered[1]["text"] == "# River tunnel"
        cyclists = next(line for line in view["lines"] if line["text"].startswith("Cyclists"))
        assert cyclists["in_chunk"] and cyclists["number"] == 5
        document = (Path(server.engine.root) / "docs" / "tunnel.md").read_text()
        start = cyclists["char_start"]
        assert document[start : start + len(cyclists["text"])] == cyclists["text"]
        assert httpx.get(f"{server.url}/api/sources/c:nope").status_code == 404


def test_upload_ingests_in_the_background_then_answers_from_it(serve: Serve) -> None:
    with serve() as server:
        files = {"files": ("ferry.md", b"# Ferry\n\nThe night ferry leaves at 23:40 daily.\n")}
        job = httpx.post(f"{server.url}/api/documents", files=files)
        assert job.status_code == 202
        final = _wait(server.url, job.json()["id"])
        assert final["status"] == "done" and final["indexed"] == 1 and final["chunks_added"] >= 1
        listed = {doc["path"]: doc for doc in httpx.get(f"{server.url}/api/documents").json()}
        assert listed["uploads/ferry.md"]["uploaded"] is True
        assert listed["docs/bridge.md"]["uploaded"] is False
        answer = httpx.post(
            f"{server.url}/api/chat", json={"question": "When does the night ferry leave?"}
        ).json()
        assert answer["citations"][0]["path"] == "uploads/ferry.md"

        gone = httpx.delete(f"{server.url}/api/documents/{listed['uploads/ferry.md']['id']}")
        assert gone.status_code == 200
        assert not (Path(server.engine.root) / "uploads" / "ferry.md").exists()
        paths = {doc["path"] for doc in httpx.get(f"{server.url}/api/documents").json()}
        assert paths == {"docs/bridge.md", "docs/tunnel.md"}
        chunk = answer["citations"][0]["chunk_id"]
        assert httpx.get(f"{server.url}/api/sources/{chunk}").status_code == 404
        assert httpx.delete(f"{server.url}/api/documents/nope").status_code == 404


def test_deleting_an_indexed_file_leaves_it_on_disk(serve: Serve, docs: Path) -> None:
    with serve() as server:
        listed = {doc["path"]: doc for doc in httpx.get(f"{server.url}/api/documents").json()}
        httpx.delete(f"{server.url}/api/documents/{listed['docs/tunnel.md']['id']}")
        assert (docs / "tunnel.md").exists()
        paths = {doc["path"] for doc in httpx.get(f"{server.url}/api/documents").json()}
        assert paths == {"docs/bridge.md"}


def test_a_locked_index_is_reported_not_crashed(serve: Serve, tmp_path: Path) -> None:
    with serve() as server, (tmp_path / "index" / "write.lock").open("wb") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)  # as another process would
        listed = httpx.get(f"{server.url}/api/documents").json()
        refused = httpx.delete(f"{server.url}/api/documents/{listed[0]['id']}")
        assert refused.status_code == 409
        assert "another citesynth process is writing" in refused.json()["detail"]
        files = {"files": ("late.md", b"# Late\n\nArrives while the index is locked.\n")}
        job = _wait(server.url, httpx.post(f"{server.url}/api/documents", files=files).json()["id"])
        assert job["status"] == "failed" and "another citesynth process" in str(job["error"])
        fcntl.flock(lock.fileno(), fcntl.LOCK_UN)
        assert len(httpx.get(f"{server.url}/api/documents").json()) == len(listed)
        search = httpx.post(f"{server.url}/api/search", json={"query": "bridge"})
        assert search.status_code == 200 and search.json()["hits"]


def test_a_broken_upload_is_reported_on_its_job(serve: Serve) -> None:
    with serve() as server:
        files = {"files": ("broken.pdf", b"%PDF-1.7 this is not a real pdf")}
        final = _wait(
            server.url, httpx.post(f"{server.url}/api/documents", files=files).json()["id"]
        )
        assert final["status"] == "done" and final["indexed"] == 0
        (skip,) = final["skipped"]
        assert skip["path"] == "uploads/broken.pdf" and skip["reason"]
        assert httpx.get(f"{server.url}/readyz").status_code == 200


def test_conversations_rewrite_follow_ups(serve: Serve) -> None:
    replies = [BRIDGE_REPLY, "the harbour bridge length", "The bridge is 1.2 kilometres long [1]."]
    with serve(replies) as server:
        first = {"question": "When did the harbour bridge open?", "conversation_id": "c-1"}
        httpx.post(f"{server.url}/api/chat", json=first).raise_for_status()
        follow = {"question": "How long is it?", "conversation_id": "c-1"}
        body = httpx.post(f"{server.url}/api/chat", json=follow).json()
        assert body["diagnostics"]["conversation_id"] == "c-1"
        assert body["diagnostics"]["standalone_question"] == "the harbour bridge length"
        assert body["answer"] == "The bridge is 1.2 kilometres long [1]."


def test_synthesis_stats_aggregate_every_answer(serve: Serve) -> None:
    with serve([BRIDGE_REPLY, ModelError("down")]) as server:
        ask = {"question": "When did the harbour bridge open?"}
        httpx.post(f"{server.url}/api/chat", json=ask).raise_for_status()
        httpx.post(f"{server.url}/api/chat", json=ask).raise_for_status()  # cached
        httpx.post(f"{server.url}/api/chat", json={"question": "Who designed the bridge?"})
        httpx.post(f"{server.url}/api/chat", json={"question": "zebra quantum xylophone"})
        stats = httpx.get(f"{server.url}/api/debug/synthesis/stats").json()
        assert stats["answers"] == 4
        assert stats["cache_hit_rate"] == 0.25
        assert stats["fallback_rate"] == 0.25
        assert stats["not_found_rate"] == 0.25
        assert stats["synthesis_mode_rate"] == 0.0
        assert stats["mean_source_doc_count"] == 2.0
        assert stats["latency_ms"]["total"]["p95"] >= stats["latency_ms"]["total"]["p50"] > 0
        assert stats["models"] == ["fake"]


def test_bad_requests_say_what_is_wrong(serve: Serve) -> None:
    with serve() as server:
        unknown = httpx.post(f"{server.url}/api/chat", json={"question": "q", "model": "nope:x"})
        assert unknown.status_code == 400 and "unknown model" in unknown.json()["detail"]
        invalid = httpx.post(f"{server.url}/api/chat", json={"question": "q", "k": 0})
        assert invalid.status_code == 422
        extra = httpx.post(f"{server.url}/api/chat", json={"question": "q", "tempreature": 1})
        assert extra.status_code == 422
        assert httpx.get(f"{server.url}/api/answers/unknown").status_code == 404


def test_a_model_can_be_chosen_per_request(serve: Serve) -> None:
    with serve() as server:
        body = httpx.post(
            f"{server.url}/api/chat",
            json={"question": "When did the harbour bridge open?", "model": "extractive"},
        ).json()
        assert body["model"] == "extractive" and body["citations"]


def test_health_readiness_and_openapi(serve: Serve) -> None:
    with serve() as server:
        assert httpx.get(f"{server.url}/healthz").json() == {"status": "ok"}
        ready = httpx.get(f"{server.url}/readyz").json()
        assert ready["status"] == "ready" and ready["chunks"] >= 2
        spec = httpx.get(f"{server.url}/openapi.json").json()
        assert {
            "/api/chat",
            "/api/chat/stream",
            "/api/answers/{request_id}",
            "/api/search",
            "/api/documents",
            "/api/documents/{doc_id}",
            "/api/sources/{chunk_id}",
            "/api/debug/synthesis/stats",
        } <= set(spec["paths"])
        assert httpx.get(f"{server.url}/docs").status_code == 200
        page = httpx.get(f"{server.url}/")
        assert page.status_code == 200 and "citesynth" in page.text


def _wait(url: str, job_id: str) -> dict[str, object]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        job: dict[str, object] = httpx.get(f"{url}/api/jobs/{job_id}").json()
        if job["status"] in {"done", "failed"}:
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not finish")
