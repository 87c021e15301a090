"""The assistant pages in Debian's Chromium (Playwright), on a phone-sized window (390x844): for SFB, FC and
Armada a short session typed as at a table (answers, a roll of one's own dice, a correction, undo), the robot's
instructions checked against what the engine's robot does; and a session resumed after the server restarts.
Skipped like tests/web/test_browser.py where Chromium or Playwright is missing (under CI=true they fail)."""
from __future__ import annotations

import socket
import threading
import time

import pytest

from tests.web.test_browser import ARGS, CHROMIUM, PHONE, assert_usable_on_a_phone, shots  # noqa: F401 (skips as it does)
from tests.web.test_assist_pages import assert_page_shows_the_robot, engine_since

from playwright.sync_api import expect, sync_playwright  # noqa: E402
import uvicorn  # noqa: E402

from paperrobot.core import registry  # noqa: E402
from paperrobot.web.app import create_app  # noqa: E402


class Server:
    """The web app on a free port in this process; stop() and start() again on the same database file."""

    def __init__(self, db):
        self.db, self.instance, self.thread = db, None, None
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self):
        self.instance = uvicorn.Server(uvicorn.Config(create_app(self.db), host="127.0.0.1", port=self.port,
                                                      log_level="warning"))
        self.thread = threading.Thread(target=self.instance.run, daemon=True)
        self.thread.start()
        for _ in range(250):
            if self.instance.started:
                return self
            time.sleep(0.02)
        raise RuntimeError("the server did not start")

    def stop(self):
        self.instance.should_exit = True
        self.thread.join(5)


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "web.sqlite").start()
    yield running
    running.stop()


@pytest.fixture
def phone():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True)
        chromium.close()


def answer(page, text=""):
    page.fill("#answer", text)
    page.press("#answer", "Enter")  # as typed on a phone's keyboard
    page.wait_for_load_state()


def shows_the_engines_robot(page, server, game, session=1):
    return assert_page_shows_the_robot(page.content(), engine_since(server.db, session), registry.info(game).assistant())


def test_an_sfb_session_on_a_phone(server, phone, shots):
    page = phone
    page.goto(server.url + "/")
    page.click("#nav-assist")
    assert_usable_on_a_phone(page, "the assistants' start page")
    page.locator("#assist-start-sfb [name='o.scenario']").select_option("5")
    page.locator("#assist-start-sfb input[name=seed]").fill("3")
    page.click("#assist-sfb")
    expect(page.locator("#prompt")).to_contain_text("speed this turn")
    expect(page.locator("#format")).to_contain_text("Enter = 13")
    assert_usable_on_a_phone(page, "the SFB assistant's first question")
    page.fill("#fix", "hex=0814 facing=B")
    page.click("#submit-fix")
    expect(page.locator("#notice")).to_contain_text("Corrected")
    expect(page.locator("#robot-status")).to_contain_text("klingon (robot): 0814 B")
    page.fill("#roll", "4")
    page.click("#submit-roll")
    expect(page.locator("#notice")).to_contain_text("Next dice: 4")
    answer(page, "12")
    told = shows_the_engines_robot(page, server, "sfb")
    for typed in ("", "left", "", ""):
        answer(page, typed)
        told += shows_the_engines_robot(page, server, "sfb")
    assert told >= 3
    expect(page.locator("#instructions a.rule").first).to_be_visible()
    expect(page.locator("#instructions")).to_contain_text("MOVE the klingon counter")
    assert_usable_on_a_phone(page, "the SFB assistant with the robot's instructions")
    page.screenshot(path=shots / "assist-sfb-phone.png", full_page=False)
    entries = page.locator("#log li.answer").count()
    page.click("#undo")
    expect(page.locator("#log li.answer")).to_have_count(entries - 1)
    page.click("#back-2")  # back to the roll: the fix stays, the speed question is open again
    expect(page.locator("#log li.answer")).to_have_count(1)
    expect(page.locator("#prompt")).to_contain_text("speed this turn")


def test_an_fc_session_with_table_dice_on_a_phone(server, phone):
    page = phone
    page.goto(server.url + "/assist/fc")
    page.locator("#assist-start-fc input[name=seed]").fill("5")
    page.select_option("#dice-fc", "table")
    page.click("#assist-fc")
    expect(page.locator("#prompt")).to_contain_text("baseline speed")
    answer(page, "16")
    expect(page.locator("#prompt")).to_contain_text("Roll a d6")
    expect(page.locator("#format")).to_contain_text("1-6 as rolled")
    assert_usable_on_a_phone(page, "the FC assistant asking a die")
    answer(page, "9")  # not a d6: refused in one line, asked again
    expect(page.locator("#answer-error")).to_contain_text("not a roll of a d6")
    while "Roll a d6" in page.locator("#prompt").inner_text():
        expect(page.locator("#fix")).to_have_count(0)  # the contract takes a correction at a question, not a die
        answer(page, "6")
    page.fill("#fix", "facing=B")
    page.click("#submit-fix")
    expect(page.locator("#notice")).to_contain_text("Corrected")
    told = 0
    for _ in range(8):
        answer(page, "")
        told += shows_the_engines_robot(page, server, "fc")
    assert told >= 1
    assert_usable_on_a_phone(page, "the FC assistant")
    entries = page.locator("#log li.answer").count()
    page.click("#undo")
    expect(page.locator("#log li.answer")).to_have_count(entries - 1)


def test_armadas_assistant_on_a_phone(server, phone):
    page = phone
    page.goto(server.url + "/assist/armada")
    page.fill("#fleet", "victory-ii,tie-fighter*2")
    page.locator("#assist-start-armada input[name=seed]").fill("4")
    page.click("#assist-armada")
    expect(page.locator("#verb")).to_have_value("style")
    page.click("#submit-answer")
    expect(page.locator("#instructions a.rule").first).to_have_text("ARM.CMDR.STYLE")
    expect(page.locator("#instructions")).to_contain_text("dice: blue")
    page.select_option("#verb", "focal")
    answer(page, "500 900")
    expect(page.locator("#instructions")).to_contain_text("Place the focal point")
    page.select_option("#verb", "defend")
    answer(page, "nosuch front medium R hit")
    expect(page.locator("#answer-error")).to_contain_text("no AI ship")
    assert_usable_on_a_phone(page, "Armada's assistant")
    page.click("#undo")
    expect(page.locator("#log li.answer")).to_have_count(1)
    expect(page.locator("#entry-1")).to_contain_text("style")


def test_a_session_resumes_after_the_server_restarts(server, phone):
    page = phone
    page.goto(server.url + "/assist/sfb")
    page.locator("#assist-start-sfb input[name=seed]").fill("7")
    page.click("#assist-sfb")
    answer(page, "10")
    answer(page, "")
    prompt, log = page.locator("#prompt").inner_text(), page.locator("#log").inner_text()
    server.stop()
    server.start()  # a new app on the same database: nothing in memory
    page.goto(server.url + "/assist")
    assert_usable_on_a_phone(page, "the assistants' start page with a session in its list")
    page.click("#resume-1")
    expect(page.locator("#prompt")).to_have_text(prompt)
    assert page.locator("#log").inner_text() == log
    answer(page, "")
    expect(page.locator("#log li.answer")).to_have_count(3)
