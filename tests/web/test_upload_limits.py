"""Issue 21, item 4: an uploaded log is read with bounded memory (counted as it arrives, a 413 past the cap of
web/watch.py's MAX_LOG_BYTES, files spooled to disk) and replayed off the event loop, so one large upload neither
stops other clients nor grows the server."""
from __future__ import annotations

import asyncio
import re
import time
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paperrobot.cli.main import app as cli
from paperrobot.web import watch_pages as web_app
from paperrobot.web.watch import MAX_LOG_BYTES

from .server_process import Server

COUNTS = {"cases": 0, "500s": 0, "hangs": 0, "stored_when_refused": 0}
MB = 1_000_000


@pytest.fixture(scope="module")
def fc_log(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("log") / "fc.jsonl"
    result = CliRunner().invoke(cli, ["battle", "fc", "--seed", "3", "--log", str(path)])
    assert result.exit_code == 0, result.output
    return path.read_text()


def padded(log: str, size: int) -> bytes:
    """The log's set-up line, then its other lines over and over up to ``size`` bytes (a log no battle wrote)."""
    lines = log.splitlines(keepends=True)
    body = "".join(lines[1:]).encode()
    return lines[0].encode() + body * (size // len(body) + 1)


def watches(client) -> int:
    return client.app.state.store.db.execute("SELECT COUNT(*) FROM watches").fetchone()[0]


def note(response, refused: bool = False, before: int = 0, client=None):
    COUNTS["cases"] += 1
    COUNTS["500s"] += response.status_code >= 500
    if refused and client is not None:
        COUNTS["stored_when_refused"] += watches(client) != before


def test_a_log_over_the_cap_is_a_413_before_it_is_read(client, fc_log):
    before = watches(client)
    response = client.post("/watch/upload", files={"log": ("big.jsonl", padded(fc_log, MAX_LOG_BYTES + 1000))})
    note(response, True, before, client)
    assert response.status_code == 413 and "larger than 2 MB, the most this page takes" in response.text
    assert watches(client) == before


def test_a_body_without_a_length_is_counted_and_stopped_at_the_cap(client):
    """100 MB sent in 256 kB pieces with no Content-Length, straight to the ASGI app (as uvicorn passes it on; the
    TestClient would read the whole body first): refused with a 413 once the cap is passed, the rest dropped as it
    comes and never more than DRAIN read, and the server's Python memory stays far under the body's size."""
    from paperrobot.web.uploads import DRAIN, OVERHEAD
    boundary = "b0undary"
    head = f"--{boundary}\r\nContent-Disposition: form-data; name=\"log\"; filename=\"x.jsonl\"\r\n\r\n".encode()
    sent, messages = [0], []

    async def receive():
        if sent[0] >= 400:
            return {"type": "http.request", "body": b"", "more_body": False}
        sent[0] += 1
        return {"type": "http.request", "body": head if sent[0] == 1 else b"x" * 256_000, "more_body": True}

    async def send(message):
        messages.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/watch/upload", "raw_path": b"/watch/upload", "query_string": b"", "root_path": "",
             "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 5000),
             "headers": [(b"host", b"127.0.0.1:8000"),
                         (b"content-type", f"multipart/form-data; boundary={boundary}".encode())]}
    before = watches(client)
    tracemalloc.start()
    try:
        asyncio.run(client.app(scope, receive, send))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    status = next(m["status"] for m in messages if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body").decode()
    COUNTS["cases"] += 1
    COUNTS["500s"] += status >= 500
    COUNTS["stored_when_refused"] += watches(client) != before
    assert status == 413 and "larger than 2 MB" in body, body[:300]
    assert (sent[0] - 3) * 256_000 <= DRAIN + MAX_LOG_BYTES + OVERHEAD < 400 * 256_000, f"{sent[0]} pieces of 256 kB read"
    assert peak < 8 * MB, f"{peak / MB:.0f} MB of Python memory at the peak"


def test_the_replay_of_an_upload_runs_off_the_event_loop(client, fc_log, monkeypatch):
    where = []
    real = web_app.log_battle

    def spy(text, name):
        try:
            asyncio.get_running_loop()
            where.append("event loop")
        except RuntimeError:
            where.append("worker thread")
        return real(text, name)

    monkeypatch.setattr(web_app, "log_battle", spy)
    response = client.post("/watch/upload", files={"log": ("fc.jsonl", fc_log.encode())}, follow_redirects=False)
    note(response)
    assert response.status_code == 303 and where == ["worker thread"]
    client.app.state.battles.cache.clear()  # rebuilt from the database when shown: off the loop as well
    response = client.get(response.headers["location"] + "?step=3")
    note(response)
    assert response.status_code == 200 and where == ["worker thread", "worker thread"]


@pytest.mark.parametrize("case", ["no file", "not a form", "not utf-8", "empty", "urlencoded"])
def test_bad_uploads_are_one_line_refusals(client, case):
    before = watches(client)
    if case == "no file":
        response = client.post("/watch/upload", files={"other": ("a", b"x")})
    elif case == "not a form":
        response = client.post("/watch/upload", content=b"\x00" * 100, headers={"content-type": "application/json"})
    elif case == "not utf-8":
        response = client.post("/watch/upload", files={"log": ("a.jsonl", b"\xff\xfe" * 100)})
    elif case == "empty":
        response = client.post("/watch/upload", files={"log": ("a.jsonl", b"")})
    else:
        response = client.post("/watch/upload", data={"log": "x"})
    note(response, True, before, client)
    assert response.status_code == 400 and "Traceback" not in response.text
    assert watches(client) == before


def _memory_kb(pid: int, field: str) -> int:
    text = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(rf"^{field}:\s+(\d+) kB", text, re.M).group(1))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's memory from /proc")
def test_an_18_mb_upload_to_a_real_server_neither_grows_it_nor_stops_other_clients(tmp_path, fc_log):
    """The issue's reproducer on `paperrobot web` (127.0.0.1): an 18 MB log is refused with a 413 within seconds,
    the server's peak memory grows by less than 40 MB, and a page asked for meanwhile is served."""
    server = Server(tmp_path / "web.sqlite")
    try:
        server.get("/watch")
        peak = _memory_kb(server.proc.pid, "VmHWM")
        blob = padded(fc_log, 18 * MB)
        boundary = "b0undary"
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"log\"; filename=\"big.jsonl\"\r\n"
                f"Content-Type: application/octet-stream\r\n\r\n").encode() + blob + f"\r\n--{boundary}--\r\n".encode()
        started = time.monotonic()
        status, text, _ = server.request("/watch/upload", body,
                                         {"Content-Type": f"multipart/form-data; boundary={boundary}"}, timeout=60)
        took = time.monotonic() - started
        COUNTS["cases"] += 1
        COUNTS["500s"] += status >= 500
        grown = (_memory_kb(server.proc.pid, "VmHWM") - peak) / 1000
        other, _, _ = server.get("/rules/TEST", timeout=10)
        assert status == 413 and "larger than 2 MB" in text, (status, text[:300])
        assert took < 10 and grown < 40, f"{took:.1f} s, the peak memory grew by {grown:.0f} MB"
        assert other in (200, 404)
    finally:
        code, err = server.stop()
    COUNTS["hangs"] += code is None
    assert code is not None and "Traceback" not in err


def test_zz_counts():
    """The figures of this file for docs/robustness.md (issue 21)."""
    print(f"\nweb uploads: {COUNTS}")
    assert COUNTS["500s"] == 0 and COUNTS["hangs"] == 0 and COUNTS["stored_when_refused"] == 0
