"""The person's results in a real browser (Debian's Chromium, Playwright; skipped as tests/web/test_browser.py is):
a short toy game finished on the page is recorded, and the rating panel on the start page says so; with a ladder
added and five games recorded the panel shows the rating; the panel and its settings fit a phone."""
from __future__ import annotations

import json

import pytest

from paperrobot.sim.records import Record, Records

from tests.web.test_browser import PHONE, assert_usable_on_a_phone, browser, expect, server, shots  # noqa: F401


@pytest.fixture
def results(tmp_path, monkeypatch):
    path = tmp_path / "results.sqlite"
    monkeypatch.setenv("PAPERROBOT_RECORDS", str(path))  # read when a game ends: the server thread sees it
    return path


def play_to_the_end(page, server):
    page.goto(server + "/")
    page.locator("#start-counting input[name='o.target']").fill("4")
    page.click("#play-counting")
    page.select_option("#f-a", "2")
    page.click("#submit-form")
    while page.locator("#game-over").count() == 0:
        page.click("#option-3")
        page.wait_for_load_state()


def test_a_finished_game_updates_the_rating_panel(results, server, browser, shots, tmp_path):  # noqa: F811
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server + "/")
    expect(page.locator("#rating-none")).to_contain_text("No games recorded yet")
    play_to_the_end(page, server)
    expect(page.locator("#recorded")).to_contain_text("Recorded in your results")
    expect(page.locator("#your-results #rating-counting")).to_contain_text("1 game recorded: play a few more")
    page.click("#nav-start")
    expect(page.locator("#rating-counting")).to_contain_text("1 game recorded: play a few more for a rating")
    # a ladder of the toy game added on the page, four more games (won and lost, recorded as play records them):
    # a rating with its interval
    fit = tmp_path / "fit.json"
    fit.write_text(json.dumps({"game": "counting", "setup": {"target": 4}, "unit": "points", "rungs": [],
                               "model": {"params": ["side"], "coef": [0.0], "cov": [[0.0]]}}))
    page.set_input_files("#ladder-file", str(fit))
    page.click("#ladder-add")
    expect(page.locator("#ladder-remove-counting")).to_be_visible()
    records = Records(results)
    for seed, winner in enumerate(("player", "robot", "player", "robot")):
        records.add(Record("counting", {"target": 4}, 0.0, seed, "player", "robot", winner, float(winner == "player"),
                           "reached", 2, 1, 0.0))
    records.close()
    page.reload()
    expect(page.locator("#rating-counting")).to_contain_text("your rating")
    expect(page.locator("#rating-counting")).to_contain_text("from 5 games")
    page.screenshot(path=shots / "rating-panel.png", full_page=True)
    # turned off: the next game is not recorded, and the page says so
    page.uncheck("#record")
    page.click("#record-save")
    expect(page.locator("#recording-off")).to_be_visible()
    play_to_the_end(page, server)
    expect(page.locator("#recorded")).to_contain_text("recording is off")
    phone = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    phone.goto(server + "/")
    assert_usable_on_a_phone(phone, "the start page with the rating panel")
