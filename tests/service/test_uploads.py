"""Uploads under pressure: concurrent requests for one name, and the per-file size limit."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from citesynth import ConfigError
from citesynth.service import ServiceConfig
from citesynth.service.uploads import UploadRejected, candidates, claim
from tests.service.conftest import Serve


def _upload(url: str, files: list[tuple[str, bytes]]) -> httpx.Response:
    parts = [("files", (name, content)) for name, content in files]
    return httpx.post(f"{url}/api/documents", files=parts, timeout=60)


def test_concurrent_uploads_of_one_name_keep_every_upload_whole(
    serve: Serve, tmp_path: Path
) -> None:
    uploads = tmp_path / "uploads"
    # Large enough that writes interleave; each upload's bytes are distinct throughout.
    bodies = [f"# Race {n}\n\n".encode() + bytes([65 + n]) * 1_080_000 for n in range(24)]
    with serve() as server, ThreadPoolExecutor(len(bodies)) as pool:
        responses = list(pool.map(lambda body: _upload(server.url, [("race.md", body)]), bodies))
    assert [r.status_code for r in responses] == [202] * len(bodies), [
        r.text for r in responses if r.status_code != 202
    ]
    stored = sorted(uploads.iterdir())
    names = {path.name for path in stored}
    assert names == {"race.md", *(f"race-{n}.md" for n in range(2, len(bodies) + 1))}
    contents = sorted(path.read_bytes() for path in stored)
    assert contents == sorted(bodies)  # every upload stored once, byte for byte
    reported = sorted(name for r in responses for name in r.json()["files"])
    assert reported == sorted(names)


def test_the_upload_limit_holds_per_file_not_per_request(serve: Serve, tmp_path: Path) -> None:
    uploads = tmp_path / "uploads"
    config = ServiceConfig(max_upload_bytes=100_000, uploads_dir=uploads)
    small = [(f"part{n}.md", b"# Part\n\n" + b"p" * 80_000) for n in range(3)]
    with serve(config=config) as server:
        together = _upload(server.url, small)
        assert together.status_code == 202, together.text
        assert sorted(together.json()["files"]) == ["part0.md", "part1.md", "part2.md"]
        big = _upload(
            server.url, [("fine.md", b"# Fine\n"), ("huge.md", b"# Huge\n" + b"h" * 120_000)]
        )
        assert big.status_code == 413
        assert "huge.md" in big.json()["detail"] and "--max-upload-mb" in big.json()["detail"]
        assert sorted(p.name for p in uploads.iterdir()) == ["part0.md", "part1.md", "part2.md"]


def test_an_upload_request_has_its_own_cap(serve: Serve, tmp_path: Path) -> None:
    uploads = tmp_path / "uploads"
    config = ServiceConfig(max_upload_bytes=10_000, max_request_bytes=20_000, uploads_dir=uploads)
    files = [(f"part{n}.md", b"# Part\n\n" + b"p" * 8_000) for n in range(12)]
    with serve(config=config) as server:
        declared = _upload(server.url, files)
        assert declared.status_code == 413 and "--max-request-mb" in declared.json()["detail"]
        request = httpx.Request("POST", server.url, files=[("files", item) for item in files])
        body, content_type = request.read(), request.headers["content-type"]

        def chunked() -> object:
            for start in range(0, len(body), 4096):
                yield body[start : start + 4096]

        streamed = httpx.post(
            f"{server.url}/api/documents",
            content=chunked(),
            headers={"content-type": content_type},
        )
        assert streamed.status_code == 413
    assert not list(uploads.glob("*"))


def test_a_request_cap_below_the_file_limit_is_refused() -> None:
    with pytest.raises(ConfigError, match="raise --max-request-mb"):
        ServiceConfig(max_upload_bytes=2 * 2**20, max_request_bytes=2**20).checked()
    assert ServiceConfig(max_upload_bytes=2**20).checked().upload_request_bytes == 4 * 2**20 + 2**16


def test_a_name_taken_a_thousand_times_is_a_clear_409(tmp_path: Path) -> None:
    root = tmp_path / "uploads"
    root.mkdir()
    for path in candidates(root, "busy.md"):
        path.write_bytes(b"old")
    temporary = root / ".upload-x.part"
    temporary.write_bytes(b"new")
    with pytest.raises(UploadRejected, match=r"too many files called 'busy\.md'") as refused:
        claim(temporary, root, "busy.md")
    assert refused.value.status == 409
    assert {path.read_bytes() for path in candidates(root, "busy.md")} == {b"old"}
    (root / "busy-7.md").unlink()
    assert claim(temporary, root, "busy.md") == (root / "busy-7.md").resolve()
    assert (root / "busy-7.md").read_bytes() == b"new" and not temporary.exists()
