"""The assistant pages (/assist, web/assist_pages.py) with FastAPI's TestClient on the real games: what the page
shows is what the engine's robot does, every entry is stored before the next question, roll / fix / undo,
resume after a restart, Armada's assistant on the same footing."""
from __future__ import annotations

import re

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install -e '.[web]'")

from paperrobot.core import registry  # noqa: E402
from paperrobot.core.events import EventLog  # noqa: E402
from paperrobot.web.store import GameStore  # noqa: E402


def _client(path):
    from fastapi.testclient import TestClient
    from paperrobot.web.app import create_app
    return TestClient(create_app(path), raise_server_exceptions=False)


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'").replace("&gt;", ">")


def _part(html: str, ident: str) -> str:
    """The inside of the element with this id (up to its tag's first closing tag: none of them nest)."""
    found = re.search(rf'<(\w+)[^>]*\bid="{ident}"[^>]*>(.*?)</\1>', html, re.S)
    assert found, f"no #{ident} on the page"
    return found.group(2)


def _seq(client, url) -> str:
    return re.search(r'name="seq" value="(\d+)"', client.get(url).text).group(1)


def _answer(client, url, text="", action="answer", **more):
    data = {"seq": _seq(client, url), "action": action, action if action != "answer" else "answer": text, **more}
    return client.post(url + "/answer", data=data, follow_redirects=True)


def engine_since(db, session_id: int):
    """What the engine's own robot did since the person's last answer, found apart from the page: the session's
    stored answers replayed on a fresh match (robot side flown by the robot), events counted before and after the
    last answer the person gave."""
    store = GameStore(db)
    row, stored = store.get(session_id), store.answers_with_labels(session_id)
    store.close()
    person = [i for i, a in enumerate(stored) if not a[4].startswith("auto: ") and not a[1].startswith("@")]
    cut = person[-1] if person else 0

    def events(answers):
        log = EventLog()
        match = registry.new_match(row.game, row.seed, log, dice=row.dice, **row.setup)
        match.replay([a[:4] for a in answers], {s: (None if w == "person" else w) for s, w in row.controllers.items()})
        return log.events
    before, after = events(stored[:cut]), events(stored)
    return after[len(before):]


def assert_page_shows_the_robot(html, events, assistant):
    """Every robot decision the assistant tells, by rule ID (linked) and dice; every move of its counter."""
    shown = _part(html, "instructions")
    told = 0
    for event in events:
        if assistant.instruction(event) is None or event.side != "robot":
            continue
        d = event.data
        if event.kind == "decision":
            assert f'href="/rules/{d["rule"]}"' in shown, f"{d['rule']} not shown"
            for sides, value, purpose, *_ in d.get("rolls") or []:
                assert f"{'coin' if sides == 2 else 'd' + str(sides)}={value} ({purpose})" in _text(shown)
            told += 1
        elif event.kind == "moved":
            line = assistant.instruction(event).split(" ", 1)[1]
            assert line in _text(shown), line
            told += 1
    return told


def test_an_sfb_session_shows_the_robots_moves_rules_and_dice_as_the_engine_plays_them(tmp_path):
    db = tmp_path / "web.sqlite"
    client = _client(db)
    start = client.get("/assist/sfb")
    assert start.status_code == 200 and 'name="dice"' in start.text and "side.klingon" not in start.text
    made = client.post("/assist/sfb", data={"game": "sfb", "o.scenario": "5", "seed": "3", "dice": "program"},
                       follow_redirects=False)
    url = made.headers["location"]
    assert url == "/assist/sfb/1"
    page = client.get(url).text
    assert "speed this turn" in _text(_part(page, "prompt")) and "Enter = 13" in _text(_part(page, "format"))
    assert "klingon (robot): 0216 B" in _text(page)  # the robot's status: hex, facing
    sheet = _text(_part(page, "robot-sheet"))
    assert "robot: klingon's sheet" in sheet and "internal 0" in sheet and "shields 1:16" in sheet
    told = 0
    for typed in ("12", "", "", "left", "", ""):
        response = _answer(client, url, typed)
        assert response.status_code == 200
        told += assert_page_shows_the_robot(response.text, engine_since(db, 1), registry.info("sfb").assistant())
    assert told >= 3  # SFB.R2 pursuit and MOVE lines at least


def test_roll_fix_and_undo_are_entries_of_the_log(tmp_path):
    db = tmp_path / "web.sqlite"
    client = _client(db)
    url = client.post("/assist/sfb", data={"game": "sfb", "o.scenario": "5", "seed": "3"}).url.path
    bad = _answer(client, url, "hex=9999", action="fix")
    assert bad.status_code == 422 and "SFB.FIX" in _text(_part(bad.text, "fix-error"))
    assert client.app.state.store.answers(1) == []  # a refused correction changes nothing
    fixed = _answer(client, url, "hex=0814 facing=B", action="fix")
    assert "Corrected: hex=0814, facing=B" in fixed.text and "klingon (robot): 0814 B" in _text(fixed.text)
    rolled = _answer(client, url, "4", action="roll")
    assert "Next dice: 4" in rolled.text
    refused = _answer(client, url, "20")
    assert refused.status_code == 422 and "speed 20 is not possible" in _text(_part(refused.text, "answer-error"))
    _answer(client, url, "12")
    _answer(client, url, "")
    kinds = [a[1] for a in client.app.state.store.answers(1)]
    assert kinds[:3] == ["@fix", "@roll", "energy"]
    log = _text(_part(client.get(url).text, "log"))
    assert "#1 fix: fix hex=0814 facing=B" in log and "#2 roll: roll 4" in log and "#3 energy: 12" in log
    # undo the last answer of the person, then back to entry 2 (the roll): entry 2's question is open again
    client.post(url + "/undo", data={"seq": _seq(client, url)})
    assert len(client.app.state.store.answers(1)) < len(kinds)
    client.post(url + "/undo", data={"seq": _seq(client, url), "keep": "1"})
    assert [a[1] for a in client.app.state.store.answers(1)] == ["@fix"]
    page = client.get(url).text
    assert "speed this turn" in _text(_part(page, "prompt")) and "klingon (robot): 0814 B" in _text(page)


def test_table_dice_ask_each_die_and_a_session_resumes_after_a_restart(tmp_path):
    db = tmp_path / "web.sqlite"
    client = _client(db)
    url = client.post("/assist/fc", data={"game": "fc", "seed": "5", "dice": "table"}).url.path
    _answer(client, url, "16")
    page = client.get(url).text
    assert "Roll a d6" in _text(_part(page, "prompt")) and "1-6 as rolled" in _text(_part(page, "format"))
    _answer(client, url, "6")
    _answer(client, url, "")
    before = client.get(url).text
    stored = client.app.state.store.answers(1)
    assert [a[1] for a in stored[:3]] == ["allocate", "roll", "roll"] and stored[1][3] == "6"
    client.close()
    again = _client(db)  # a new server on the same file
    listed = again.get("/assist").text
    assert f'href="{url}"' in listed and "in progress" in listed
    after = again.get(url).text
    assert _part(after, "prompt") == _part(before, "prompt") and _seq(again, url) == re.search(
        r'name="seq" value="(\d+)"', before).group(1)
    assert _part(after, "instructions") == _part(before, "instructions")
    assert "/assist/fc/1" in again.get("/").text  # the games list on the start page resumes it too


def test_the_play_page_and_the_assistant_page_keep_to_their_own_games(tmp_path):
    client = _client(tmp_path / "web.sqlite")
    client.post("/assist/sfb", data={"game": "sfb", "seed": "3"})
    refused = client.get("/games/1")
    assert refused.status_code == 404 and "/assist/sfb/1" in refused.text
    assert client.get("/assist/fc/1").status_code == 404
    assert client.post("/assist/sfb/1/answer", data={"seq": "1", "action": "answer", "answer": "12"},
                       headers={"Origin": "http://evil.test"}).status_code == 403


def test_armada_on_the_same_footing_questions_rules_dice_undo_and_resume(tmp_path):
    db = tmp_path / "web.sqlite"
    client = _client(db)
    url = client.post("/assist/armada", data={"fleet": "victory-ii,gladiator-i,tie-fighter*2", "seed": "4"}).url.path
    page = client.get(url).text
    assert '<option value="style" selected>' in page and "ARM.CMDR.STYLE" in _part(page, "question")

    def ask(line):
        verb, _, args = line.partition(" ")
        count = re.search(r'name="count" value="(\d+)"', client.get(url).text).group(1)
        return client.post(url + "/answer", data={"count": count, "verb": verb, "args": args})
    style = ask("style")
    shown = _part(style.text, "instructions")
    assert 'href="/rules/ARM.CMDR.STYLE"' in shown and "dice: blue" in _text(shown)
    # the page says what armada's own assistant says for the same questions and seed
    from paperrobot.armada import Assistant
    from paperrobot.armada.assist import State
    own = Assistant(State(4), None)
    own.new_fleet("victory-ii,gladiator-i,tie-fighter*2")
    assert own.ask_line("style")[0].split(": ", 1)[1].split(" [")[0] in _text(shown)
    for line in ("focal 500 900", "deploy", "round", "command victory-ii-1 in"):
        assert ask(line).status_code == 200
        expected = own.ask_line(line)
    assert expected[-1] in _text(_part(client.get(url).text, "instructions"))
    refused = ask("attack victory-ii-1 sideways")
    assert refused.status_code == 422 and len(client.app.state.store.answers(1)) == 5
    client.post(url + "/undo", data={"count": "5", "keep": "2"})
    assert [a[3] for a in client.app.state.store.answers(1)] == ["style", "focal 500 900"]
    before = client.get(url).text
    client.close()
    again = _client(db)
    after = again.get(url).text
    assert _part(after, "log") == _part(before, "log") and "Round 0" in _text(_part(after, "robot-status"))


def test_armada_at_the_table_with_an_uploaded_robot_rules_variant(tmp_path):
    """Issue 27 on the web assistant: the start form takes a variant of the AI's procedure as an upload; the
    session's answers follow its tables, the page names what it changes, and the session resumes with it."""
    from paperrobot.armada import procedure
    published = procedure.PROCEDURE.export()
    cautious = published.replace('{ rolls = "hit", result = "normal" },\n  { rolls = "crit", result = "aggressive" },',
                                 '{ rolls = "hit", result = "cautious" },\n  { rolls = "crit", result = "cautious" },', 1)
    assert cautious != published  # ARM.CMDR.STYLE: every blue face makes the commander cautious
    db = tmp_path / "web.sqlite"
    client = _client(db)
    urls = {}
    for name, text in (("published", published), ("variant", cautious)):
        started = client.post("/assist/armada", data={"fleet": "victory-ii", "seed": "5"},
                              files={"u.robot_rules": (f"{name}.toml", text.encode())})
        assert started.status_code == 200, started.text[:500]
        urls[name] = started.url.path
    styles = {}
    for name, url in urls.items():
        page = client.get(url).text
        assert ("commander_style (ARM.CMDR.STYLE)" in page) == (name == "variant")
        count = re.search(r'name="count" value="(\d+)"', page).group(1)
        answer = client.post(url + "/answer", data={"count": count, "verb": "style", "args": ""})
        styles[name] = _text(_part(answer.text, "instructions"))
    assert "the Imperial commander is cautious" in styles["variant"]
    assert "variant commander_style" in styles["variant"] and "variant" not in styles["published"]
    client.close()
    again = _client(db)  # rebuilt from the database: the same variant flies the resumed session
    assert _text(_part(again.get(urls["variant"]).text, "log")).count("cautious") >= 1
    broken = again.post("/assist/armada", data={"fleet": "victory-ii", "seed": "5"},
                        files={"u.robot_rules": ("broken.toml", cautious.replace(
                            '{ rolls = "acc", result = "cautious" },', "", 1).encode())})
    assert broken.status_code == 400 and "commander_style" in broken.text and "Traceback" not in broken.text
