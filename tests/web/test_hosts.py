"""DNS rebinding: a request whose Host header is not an address the server was started on is refused with a
400 of one line before the app sees it (web/hosts.py), pages, static files and posts alike."""
from __future__ import annotations

import pytest

from paperrobot.web.hosts import allowed_hosts


@pytest.fixture
def guarded(counting, tmp_path):
    from fastapi.testclient import TestClient
    from paperrobot.web.app import create_app
    app = create_app(tmp_path / "web.sqlite", capacity=2, hosts=allowed_hosts("127.0.0.1", 8000))
    with TestClient(app, base_url="http://127.0.0.1:8000", raise_server_exceptions=False) as client:
        yield client


def test_the_addresses_of_the_server_and_its_host_option():
    assert allowed_hosts("127.0.0.1", 8000) == {"127.0.0.1:8000", "localhost:8000", "[::1]:8000"}
    assert "192.168.1.5:9000" in allowed_hosts("192.168.1.5", 9000)
    assert "[fe80::1]:8000" in allowed_hosts("fe80::1", 8000)
    assert "box.lan" in allowed_hosts("Box.lan", 80)  # browsers leave port 80 off


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "LOCALHOST:8000", "[::1]:8000"])
def test_the_servers_own_addresses_are_served(guarded, host):
    assert guarded.get("/", headers={"host": host}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example:8000", "evil.example", "127.0.0.1:8001", "127.0.0.1", "",
                                  "localhost.evil.example:8000"])
def test_another_name_pointing_here_is_refused_with_one_line(guarded, host):
    for method, path in (("get", "/"), ("get", "/static/style.css"), ("get", "/results?path=/tmp"),
                         ("post", "/games")):
        response = getattr(guarded, method)(path, headers={"host": host, "origin": f"http://{host}"})
        assert response.status_code == 400, (method, path, host)
        assert response.text.count("\n") == 1 and "another site's name pointing here" in response.text


def test_a_rebinding_post_changes_nothing(guarded):
    store = guarded.app.state.store
    before = store.list()
    response = guarded.post("/games", data={"game": "counting", "side.robot": "robot", "side.player": "person"},
                            headers={"host": "evil.example:8000", "origin": "http://evil.example:8000"})
    assert response.status_code == 400 and store.list() == before


def test_paperrobot_web_serves_only_its_addresses(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    import uvicorn
    from paperrobot.cli.main import app

    served = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, host, port, **kw: served.update(app=app, host=host, port=port))
    result = CliRunner().invoke(app, ["web", "--host", "box.lan", "--port", "8123", "--db", str(tmp_path / "w.sqlite")])
    assert result.exit_code == 0, result.output
    from fastapi.testclient import TestClient
    with TestClient(served["app"], raise_server_exceptions=False) as client:
        assert client.get("/", headers={"host": "box.lan:8123"}).status_code == 200
        assert client.get("/", headers={"host": "localhost:8123"}).status_code == 200
        assert client.get("/", headers={"host": "box.lan:8000"}).status_code == 400
        assert client.get("/", headers={"host": "testserver"}).status_code == 400
