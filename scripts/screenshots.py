"""The README's pictures of the web page: each game's play page, a watched battle, a phone-sized play page and
the SFB table assistant on a phone.

    .venv/bin/python scripts/screenshots.py [--out docs/img] [--only sfb,watch]

Starts the web page on a free port of 127.0.0.1 with a throw-away database, drives Debian's Chromium
(/usr/bin/chromium, through Playwright: browsers are not downloaded) as a person would (the start form,
then the suggested answer to a few questions) and writes docs/img/web-<name>.png. The set-ups and seeds
are fixed, so the pictures change only when the page or a game does. Needs the web extra
(pip install -e '.[web]'); one line and exit code 2 when something is missing.
"""
from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
DESKTOP = {"width": 1280, "height": 960}
PHONE = {"width": 390, "height": 844}

# name -> (game, set-up fields of the start form, seed, (at least this many suggested answers, then up to the
# first question of this kind): a moment with both sides in view and a question worth showing
PLAYS = {
    "sfb": ("sfb", {"o.scenario": "6"}, "4", (50, "fire")),
    "fc": ("fc", {"o.map": "42x30"}, "2", (10, "fire")),
    "armada": ("armada", {}, "2", (20, "attack")),
}

# issue 26's map pictures, desktop and phone: docs/img/map-<game>-*.png (the moves or courses to choose on the map)
# and docs/img/targets-<game>-*.png (a fire or attack question: its targets ringed, the first weapon's arc and range
# bands or the first hull zone's range ruler shown, the first target hovered)
MAPS = {
    "sfb": ("sfb", {"o.scenario": "6"}, "4", (60, "move")),
    "fc": ("fc", {"o.map": "42x30"}, "2", (8, "move")),
    "armada": ("armada", {}, "2", (0, "maneuver")),
}
TARGETS = {
    "sfb": ("sfb", {"o.scenario": "5"}, "3", (0, "fire")),
    "fc": ("fc", {"o.map": "42x30"}, "2", (10, "fire")),
    "armada": ("armada", {}, "2", (20, "attack")),
}
NAMES = [*PLAYS, "watch", "phone", "assist", "maps", "targets"]


def fail(message: str) -> None:
    print(f"screenshots: {message}", file=sys.stderr)
    sys.exit(2)


def shoot(page, path: Path) -> None:
    """A screenshot of the window, stored with a palette of 256 colours where Pillow is installed (a third of the
    size; a page's flat colours survive it), else as Chromium writes it."""
    page.screenshot(path=path)
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    small.save(path, optimize=True)
    print(path)


def start_server(db: Path):
    import uvicorn

    from paperrobot.web.app import create_app
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(db), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            return server, thread, f"http://127.0.0.1:{port}"
        time.sleep(0.02)
    fail("the web page did not start within 10 s")


def answer_suggested(page, count: int, kind: str = "") -> None:
    """Give the suggested answer (the default option, the list's selected course, or a form's first preset)
    ``count`` times, then until the question is of ``kind``."""
    for answered in range(count + 200):
        if page.locator("#game-over").count():
            return
        if answered >= count and (not kind or f": {kind} " in page.locator("#question h2").inner_text() + " "):
            return
        button = ("#answer-choice" if page.locator("#answer-choice").count() else
                  "#options button.default" if page.locator("#options button.default").count() else "#options button")
        page.locator(button).first.click()
        page.wait_for_load_state()


def play(page, base: str, game: str, fields: dict, seed: str, answers: tuple[int, str]) -> None:
    page.goto(base + "/")
    for name, value in fields.items():
        field = page.locator(f"#start-{game} [name='{name}']")
        field.select_option(value) if field.evaluate("e => e.tagName") == "SELECT" else field.fill(value)
    page.locator(f"#start-{game} input[name=seed]").fill(seed)
    page.click(f"#play-{game}")
    answer_suggested(page, *answers)
    page.evaluate("window.scrollTo(0, 0)")


def show_targets(page) -> None:
    """The first arc (a weapon's, or a hull zone's ruler) shown, the first target hovered."""
    if page.locator("#arc-pick option").count() > 1:
        page.select_option("#arc-pick", page.locator("#arc-pick option").nth(1).get_attribute("value"))
    target = page.locator("#map .counter.target, #map .attack-from.shown .zone-target")
    if target.count():
        target.first.hover()


def assist_on_a_phone(page, base: str) -> None:
    """The SFB assistant (#5, seed 3): speed 12, then Enter (the suggested answer) until the robot's instructions
    since the last answer hold a die it rolled and a counter to move (or 60 answers)."""
    page.goto(base + "/assist/sfb")
    page.locator("#assist-start-sfb [name='o.scenario']").select_option("5")
    page.locator("#assist-start-sfb input[name=seed]").fill("3")
    page.click("#assist-sfb")
    page.fill("#answer", "12")
    page.press("#answer", "Enter")
    for _ in range(60):
        page.wait_for_load_state()
        shown = page.locator("#instructions")
        if page.locator("#game-over").count() or (shown.locator(".dice").count() and "MOVE" in shown.inner_text()):
            break
        page.press("#answer", "Enter")
    page.evaluate("window.scrollTo(0, 0)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="docs/img", help="folder for the PNG files (default docs/img)")
    parser.add_argument("--only", default="", help=f"comma-separated names: {', '.join(NAMES)}")
    options = parser.parse_args()
    wanted = set(filter(None, options.only.split(","))) or set(NAMES)
    unknown = wanted - set(NAMES)
    if unknown:
        fail(f"unknown picture {sorted(unknown)[0]!r}; choose from: {', '.join(NAMES)}")
    if not Path(CHROMIUM).exists():
        fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
        import uvicorn  # noqa: F401  (start_server needs it: say so before anything starts)
    except ImportError as exc:
        fail(f"{exc.name} is not installed: pip install -e '.[web]'")
    out = Path(options.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        server, thread, base = start_server(Path(folder) / "web.sqlite")
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_page(viewport=DESKTOP)
                for name, (game, fields, seed, answers) in PLAYS.items():
                    if name in wanted:
                        play(page, base, game, fields, seed, answers)
                        shoot(page, out / f"web-{name}.png")
                if "watch" in wanted:
                    page.goto(base + "/watch")
                    page.locator("#watch-sfb [name='o.scenario']").select_option("6")
                    page.locator("#watch-sfb input[name=seed]").fill("3")
                    page.click("#watch-start-sfb")
                    page.fill("#turn", "2")
                    page.click("#jump")
                    page.locator("#where").filter(has_text="turn 2").wait_for()
                    shoot(page, out / "web-watch.png")
                if "phone" in wanted:
                    phone = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True)
                    play(phone, base, "sfb", {"o.scenario": "5"}, "1", (3, ""))
                    shoot(phone, out / "web-phone.png")
                for kind, plays in (("maps", MAPS), ("targets", TARGETS)):
                    if kind not in wanted:
                        continue
                    phone = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True)
                    for name, (game, fields, seed, answers) in plays.items():
                        for size, screen in (("desktop", page), ("phone", phone)):
                            play(screen, base, game, fields, seed, answers)
                            if kind == "targets":
                                show_targets(screen)
                            shoot(screen, out / f"{kind[:-1] if kind == 'maps' else kind}-{name}-{size}.png")
                if "assist" in wanted:
                    phone = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True)
                    assist_on_a_phone(phone, base)
                    shoot(phone, out / "web-assist-phone.png")
                browser.close()
        finally:
            server.should_exit = True
            thread.join(5)


if __name__ == "__main__":
    main()
