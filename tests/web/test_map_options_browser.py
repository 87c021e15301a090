"""Issue 26 in a real browser (Debian's Chromium, Playwright): every option with a place on the table is drawn on
the map and answers when clicked (SFB and FC moves as ghost counters at their destination hex and facing, FC's
HETs included; Armada's courses as the tool's path and the base where it ends); the stored answer is the option
clicked. Skipped like tests/web/test_browser.py where Chromium or Playwright is missing."""
from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"browser tests skipped: {CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)
playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[web]')")
import uvicorn  # noqa: E402

from paperrobot.web.app import create_app  # noqa: E402
from paperrobot.web.store import GameStore  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = tmp_path_factory.mktemp("web") / "web.sqlite"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(db), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(250):
        if server.started:
            break
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}", db
    server.should_exit = True
    thread.join(5)


@pytest.fixture(scope="module")
def page_of():
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield lambda width=1280, height=800: browser.new_page(viewport={"width": width, "height": height})
        browser.close()


def start(page, url: str, game: str, seed: int) -> None:
    page.goto(url + "/")
    page.locator(f"#start-{game} input[name=seed]").fill(str(seed))
    page.click(f"#play-{game}")


def until(page, kind: str, limit: int = 300) -> None:
    """Answer with the suggestions until a question of ``kind``."""
    for _ in range(limit):
        title = page.locator("#question h2").inner_text()
        if f": {kind} " in title + " ":
            return
        if page.locator("#options .option.default").count():
            page.locator("#options .option.default").first.click()
        elif page.locator("#answer-choice").count():
            page.click("#answer-choice")
        else:
            page.click("#submit-form")
    raise AssertionError(f"no {kind} question in {limit} answers")


def stored_answer(db: Path, page, seq: int) -> tuple:
    """(kind, side, answer) stored for question ``seq``."""
    game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    return next(tuple(a[1:]) for a in GameStore(db).answers(game_id) if a[0] == seq)


@pytest.mark.parametrize("game,kind,pick", [
    ("sfb", "move", "left"),
    ("fc", "move", "het-D"),
    ("armada", "maneuver", None),  # a course other than the suggested one
])
def test_an_option_clicked_on_the_map_is_the_answer_stored(served, page_of, game, kind, pick):
    url, db = served
    page = page_of()
    start(page, url, game, 2)
    until(page, kind)
    drawn = page.locator("#map [data-key]")
    buttons = page.locator("#options [data-key]")
    # every element on the map is an option of the question, and every option with a place is drawn
    keys = sorted(set(drawn.evaluate_all("els => els.map(e => e.dataset.key)")))
    offered = set(buttons.evaluate_all("els => els.map(e => e.dataset.key)"))
    assert keys and set(keys) <= offered
    if game != "sfb":
        assert set(keys) == offered, offered - set(keys)
    if pick is None:
        default = page.locator("#options [selected], #options .option.default").first.get_attribute("data-key")
        pick = next(k for k in keys if k != default)
    element = page.locator(f'#map [data-key="{pick}"]')
    if game == "armada":  # a course is set by where its tool ends: the pointer on that end picks it
        box = element.locator(".handle").bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
    else:
        element.hover()  # the preview: the element and its button
    assert "preview" in element.get_attribute("class")
    assert "preview" in page.locator(f'#options [data-key="{pick}"]').get_attribute("class")
    seq = page.locator("#options input[name=seq]").get_attribute("value")
    if game == "armada":
        page.mouse.click(x, y)
    else:
        element.click()
    page.wait_for_function(f"document.querySelector('#options input[name=seq]') === null || "
                           f"document.querySelector('#options input[name=seq]').value !== '{seq}'")
    stored = stored_answer(db, page, int(seq))
    assert stored[0] == kind and stored[2] == pick, stored


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_fc_counters_at_range_20_are_at_least_24_px_and_the_map_pans_to_them(served, page_of, width, height):
    url, _ = served
    page = page_of(width, height)
    start(page, url, "fc", 2)  # the floating map; the ships start 20 hexes or more apart
    until(page, "move")
    distance = int(page.locator("#status-situation tr", has_text="range").locator("td").inner_text())
    assert distance >= 20
    sizes = page.locator("#map .counter.ship circle").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().width)")
    assert len(sizes) == 2 and min(sizes) >= 24, sizes
    labels = page.locator("#map .counter.ship .counterlabel").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().height)")
    assert min(labels) >= 7, labels
    # the view follows the moving ship: its options are inside the visible part of the map's box
    box = page.locator(".mapbox").bounding_box()
    ghost = page.locator("#map .counter.ghost").first.bounding_box()
    assert box["x"] <= ghost["x"] and ghost["x"] + ghost["width"] <= box["x"] + box["width"]
    assert box["y"] <= ghost["y"] and ghost["y"] + ghost["height"] <= box["y"] + box["height"]


def answered(page, seq: str) -> None:
    page.wait_for_function(f"document.querySelector('#options input[name=seq]') === null || "
                           f"document.querySelector('#options input[name=seq]').value !== '{seq}'")


@pytest.mark.parametrize("game", ["sfb", "fc"])
def test_a_target_clicked_on_the_map_fills_the_fire_form_and_is_the_answer_stored(served, page_of, game):
    """A fire question is a form (several weapons at once): a click on a target sets every weapon that bears on it
    to fire there (its weapon's field chosen first: that weapon only); the form as answered is what is stored."""
    url, db = served
    page = page_of()
    start(page, url, game, 3)
    until(page, "fire")
    targets = page.locator("#map .counter.target")
    assert targets.count() >= 1
    target = targets.first
    name = target.get_attribute("data-target")
    fill = json.loads(target.get_attribute("data-fill"))
    assert name and fill and all(v == name or v.startswith(f"{w}@") for w, v in fill.items())  # sfb: w=name; fc: w@ship
    seq = page.locator("#options input[name=seq]").get_attribute("value")
    for field in page.locator("#form select[name^='f.']").all():  # start from holding every weapon
        field.select_option("none")
    page.wait_for_timeout(400)
    target.hover()  # the preview: the form's fields a click would set
    assert page.locator("#form .field.preview").count() == len(fill)
    target.click()
    page.wait_for_function("document.querySelector('#verdict') && document.querySelector('#verdict').innerText "
                           "!== ''")
    values = page.locator("#form [name^='f.']").evaluate_all("els => els.map(e => e.value)")
    assert sorted(v for v in values if v in fill.values()) == sorted(fill.values()), (values, fill)
    page.click("#submit-form")
    answered(page, seq)
    kind, _, answer = stored_answer(db, page, int(seq))
    assert kind == "fire"
    assert sorted(v for v in answer.values() if v not in ("none", None)) == sorted(fill.values()), answer


def test_the_enemy_ship_clicked_at_an_fc_launch_question_sends_every_ready_rack_at_it(served, page_of):
    """FC.6 on the map: at a drone launch the enemy ship (and each drone seeking the launcher) is a target; a click
    on the ship puts every ready rack's field on it, and the form as answered is what is stored."""
    url, db = served
    page = page_of()
    start(page, url, "fc", 1)
    until(page, "launch")
    ship = page.locator("#map .counter.target[data-target='robot']")
    assert ship.count() == 1
    fill = json.loads(ship.get_attribute("data-fill"))
    assert fill and set(fill.values()) == {"ship"} and all(name.startswith("launch") for name in fill)
    seq = page.locator("#options input[name=seq]").get_attribute("value")
    for field in page.locator("#form select[name^='f.']").all():
        field.select_option("none")
    ship.click()
    page.wait_for_function("document.querySelector('#verdict') && document.querySelector('#verdict').innerText "
                           "!== ''")
    assert page.locator("#form [name^='f.']").evaluate_all("els => els.map(e => e.value)") == ["ship"] * len(fill)
    page.click("#submit-form")
    answered(page, seq)
    kind, _, answer = stored_answer(db, page, int(seq))
    assert kind == "launch" and answer == fill, answer


def test_an_armada_target_hull_zone_clicked_on_the_map_is_the_attack_stored(served, page_of):
    url, db = served
    page = page_of()
    start(page, url, "armada", 2)
    until(page, "attack")
    zones = page.locator("#map .attack-from.shown [data-key]")
    assert zones.count() >= 1
    offered = set(page.locator("#options [data-key]").evaluate_all("els => els.map(e => e.dataset.key)"))
    drawn = set(page.locator("#map [data-key]").evaluate_all("els => els.map(e => e.dataset.key)"))
    assert drawn and drawn <= offered
    element = zones.last
    key = element.get_attribute("data-key")
    element.hover()
    assert "preview" in element.get_attribute("class")
    assert "preview" in page.locator(f'#options [data-key="{key}"]').get_attribute("class")
    seq = page.locator("#options input[name=seq]").get_attribute("value")
    element.click()
    answered(page, seq)
    assert stored_answer(db, page, int(seq)) [::2] == ("attack", key)


@pytest.mark.parametrize("game,kind", [("sfb", "fire"), ("armada", "attack")])
def test_arcs_and_range_bands_appear_when_asked(served, page_of, game, kind):
    url, _ = served
    page = page_of()
    start(page, url, game, 3 if game == "sfb" else 2)
    until(page, kind)
    shades = page.locator("#map .arcshade, #map .ruler")
    assert shades.count() >= 1 and page.locator("#map .arcshade.shown, #map .ruler.shown").count() == 0  # on demand
    name = page.locator("#arc-pick option").nth(1).get_attribute("value")
    page.select_option("#arc-pick", name)
    shown = page.locator("#map .shown[data-arc]")
    assert shown.count() == 1 and shown.first.get_attribute("data-arc") == name
    box = shown.first.bounding_box()
    assert box and box["width"] > 50 and box["height"] > 50  # drawn, not an empty group
    if game == "sfb":  # choosing a weapon's field in the form shows that weapon's arc
        other = page.locator("#arc-pick option").nth(2).get_attribute("value")
        page.locator(f'#form [name="f.{other}"]').focus()
        assert page.locator("#map .shown[data-arc]").first.get_attribute("data-arc") == other
    else:  # clicking a hull zone of the attacking ship shows its range ruler
        pick = page.locator("#map .zone-pick").last
        zone = pick.get_attribute("data-arc")
        pick.click(force=True)
        assert page.locator("#map .ruler.shown").first.get_attribute("data-arc") == zone
    page.select_option("#arc-pick", "")
    assert page.locator("#map .shown[data-arc]").count() == 0
