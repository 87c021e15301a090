"""Cross-site posts (CSRF): every state-changing request sent from a page of another site is refused with a
403 page of one line, and the game is left as it was (web/origin.py)."""
from __future__ import annotations

import pytest

from paperrobot.web.origin import cross_site

from .test_app import new_game, split, stored_answers

HERE = "testserver"  # the Host header of FastAPI's TestClient


@pytest.mark.parametrize("headers, refused", [
    ({"origin": "http://testserver"}, False),                        # this page
    ({"origin": "http://evil.example"}, True),                       # another site
    ({"origin": "http://testserver:8001"}, True),                    # another port of this host: another origin
    ({"origin": "null"}, True),                                      # a sandboxed frame or a file:// page
    ({"origin": "not a url"}, True),
    ({"sec-fetch-site": "cross-site"}, True),                        # no Origin: the browser's own verdict
    ({"sec-fetch-site": "same-site"}, True),                         # another port of the same host
    ({"sec-fetch-site": "same-origin"}, False),
    ({"referer": "http://evil.example/page"}, True),                 # an older browser: only the Referer
    ({"referer": "http://testserver/games/1"}, False),
    ({}, False),                                                     # not from a browser page: cannot be forged
])
def test_which_requests_count_as_sent_from_another_site(headers, refused):
    assert (cross_site("POST", {"host": HERE, **headers}) is not None) == refused
    assert cross_site("GET", {"host": HERE, **headers}) is None      # reading a page changes nothing


def test_origins_compare_host_and_port_as_a_browser_does():
    assert cross_site("POST", {"host": "127.0.0.1:8000", "origin": "http://127.0.0.1:8000"}) is None
    assert cross_site("POST", {"host": "[::1]:8000", "origin": "http://[::1]:8000"}) is None
    assert cross_site("POST", {"host": "example.org:80", "origin": "http://example.org"}) is None
    assert cross_site("POST", {"host": "127.0.0.1:8000", "origin": "http://localhost:8000"}) is not None
    assert cross_site("DELETE", {"host": "127.0.0.1:8000", "origin": "http://evil.example"}) is not None


@pytest.mark.parametrize("path, data, from_here", [
    ("/answer", {"seq": "2", "choice": "1"}, 303),
    ("/undo", {"seq": "2", "keep": "0"}, 303),
    ("/check", {"seq": "2", "f.a": "1"}, 400),  # question 2 is answered by options: no form to check
])
def test_every_state_changing_post_from_another_site_is_refused_and_changes_nothing(client, path, data, from_here):
    url = new_game(client)
    split(client, url)
    before = client.get(url).text
    response = client.post(url + path, data=data, headers={"Origin": "http://evil.example"}, follow_redirects=False)
    assert response.status_code == 403
    assert "another site" in response.text and "nothing was changed" in response.text
    assert 'href="http://evil.example' not in response.text  # no link back to the forging page
    assert len(stored_answers(client, url)) == 1 and client.get(url).text == before
    fragment = client.post(url + path, data=data, headers={"Origin": "http://evil.example", "HX-Request": "true"})
    assert fragment.status_code == 403 and "<html" not in fragment.text and "another site" in fragment.text
    same = client.post(url + path, data=data, headers={"Origin": "http://testserver"}, follow_redirects=False)
    assert same.status_code == from_here


def test_new_games_battles_and_uploads_from_another_site_are_refused(client):
    games = client.app_state.store.list()
    evil = {"Origin": "http://evil.example"}
    assert client.post("/games", data={"game": "counting", "side.player": "person"}, headers=evil).status_code == 403
    assert client.post("/watch", data={"game": "counting"}, headers=evil).status_code == 403
    upload = client.post("/watch/upload", files={"log": ("b.jsonl", b'{"kind":"setup"}\n')}, headers=evil)
    assert upload.status_code == 403
    assert client.app_state.store.list() == games
