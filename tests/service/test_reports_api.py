"""Reports over real loopback HTTP: JSON, the progress stream, and fetching by id."""

from __future__ import annotations

import httpx

from tests.service.conftest import Serve, sse_events

PLAN = (
    '["When did the harbour bridge open?", "When did the river tunnel open?", '
    '"How many lanes does the harbour bridge carry?"]'
)
BRIDGE = "The harbour bridge opened in 2009 and carries four lanes of traffic [1]."
TUNNEL = "The river tunnel opened in 2012 and carries two lanes in each direction [1]."
LANES = "The harbour bridge has four lanes [1]."
QUESTION = {"question": "How did the crossings of the river come about?", "max_words": 400}


def test_a_report_comes_back_as_json_and_can_be_fetched_again(serve: Serve) -> None:
    with serve([PLAN, BRIDGE, TUNNEL, LANES]) as server:
        response = httpx.post(f"{server.url}/api/reports", json=QUESTION, timeout=60)
        assert response.status_code == 200, response.text
        report = response.json()
        assert [s["origin"] for s in report["subtopics"]] == ["model", "model", "model"]
        assert "traffic [1]" in report["markdown"] and "direction [2]" in report["markdown"]
        assert [s["path"] for s in report["sources"]] == ["docs/bridge.md", "docs/tunnel.md"]
        assert report["words"] <= 400 and report["model"] == "fake"
        again = httpx.get(f"{server.url}/api/reports/{response.headers['x-request-id']}")
        assert again.status_code == 200 and again.json() == report


def test_the_stream_reports_progress_then_the_report(serve: Serve) -> None:
    with serve([PLAN, BRIDGE, TUNNEL, LANES]) as server:
        url = f"{server.url}/api/reports/stream"
        with httpx.stream("POST", url, json=QUESTION, timeout=60) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            request_id = response.headers["x-request-id"]
            events = sse_events(response)
        names = [name for name, _ in events]
        assert names[-1] == "report_done" and set(names[:-1]) == {"report_progress"}
        stages = [data["stage"] for name, data in events if name == "report_progress"]
        assert stages == ["plan", *["research", "write"] * 3, "check"]
        done = events[-1][1]["report"]
        assert isinstance(done, dict) and done["question"] == QUESTION["question"]
        assert httpx.get(f"{server.url}/api/reports/{request_id}").json() == done


def test_bad_report_requests_are_refused(serve: Serve) -> None:
    with serve([PLAN]) as server:
        short = httpx.post(f"{server.url}/api/reports", json={**QUESTION, "max_words": 5})
        assert short.status_code == 422
        unknown = httpx.get(f"{server.url}/api/reports/nope")
        assert unknown.status_code == 404
        web = httpx.post(f"{server.url}/api/reports", json={**QUESTION, "web": True})
        assert web.status_code == 400 and "web search" in web.json()["detail"]


def test_a_follow_up_report_continues_the_chat_conversation(serve: Serve) -> None:
    condensed = "When did the river tunnel open?"
    with serve([BRIDGE, condensed, PLAN, BRIDGE, TUNNEL]) as server:
        chat = {"question": "When did the harbour bridge open?", "conversation_id": "c-1"}
        assert httpx.post(f"{server.url}/api/chat", json=chat).status_code == 200
        follow = {"question": "And the tunnel?", "conversation_id": "c-1", "max_words": 400}
        response = httpx.post(f"{server.url}/api/reports", json=follow, timeout=60)
        assert response.status_code == 200, response.text
        assert response.json()["question"] == condensed
