"""The person's results on the web page (web/people.py, web/people_pages.py; docs/web.md "Your results and your
rating"): a finished game against the robot recorded once in the results file ``paperrobot play`` uses, the setting
that turns it off (remembered), a results file that cannot be used (one line, the game goes on, nothing lost), the
rating shown as ``paperrobot rating`` prints it, the start form's suggested difficulty, and the table assistants."""
from __future__ import annotations

import json
import re

import pytest

from paperrobot.sim.records import Record, Records
from paperrobot.web.app import create_app
from tests.web.test_app import new_game, seq_of, split


@pytest.fixture
def results(tmp_path, monkeypatch):
    path = tmp_path / "results.sqlite"
    monkeypatch.setenv("PAPERROBOT_RECORDS", str(path))
    return path


def finish(client, url, choice="3"):
    """Play the toy game to its end (the split, then the same addition each turn)."""
    split(client, url)
    page = client.get(url).text
    for _ in range(30):
        if 'id="game-over"' in page:
            return page
        client.post(url + "/answer", data={"seq": str(seq_of(page)), "choice": choice})
        page = client.get(url).text
    raise AssertionError("the game did not end")


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


def rows(path):
    records = Records(path, create=False)
    try:
        return records.games()
    finally:
        records.close()


def test_a_game_finished_on_the_page_is_recorded_once(client, results):
    assert "No games recorded yet" in text(client.get("/").text)
    url = new_game(client, target=7, seed=3)
    page = finish(client, url)
    assert "Recorded in your results" in text(page)
    [row] = rows(results)
    live = client.app_state.games.live(int(url.rsplit("/", 1)[1]))
    outcome = live.match.outcome
    assert (row.game, row.setup, row.seed, row.person_side, row.opponent) == ("counting", {"target": 7}, 3, "player",
                                                                              "robot")
    assert row.winner == outcome.winner and row.score == float(outcome.winner == "player")
    assert row.source.startswith("web:") and row.source.endswith(":1") and row.handicap == 0
    # the start page and the game's end say how many and that a rating needs more
    assert "1 game recorded: play a few more for a rating" in text(client.get("/").text)
    assert "1 game recorded: play a few more" in text(page)
    # taken back after the end and finished again: still one game (the first ending counts)
    client.post(url + "/undo", data={"seq": "", "keep": "last"})
    assert 'id="game-over"' not in client.get(url).text
    page = client.get(url).text
    client.post(url + "/answer", data={"seq": str(seq_of(page)), "choice": "1"})
    finish_page = client.get(url).text
    while 'id="game-over"' not in finish_page:
        client.post(url + "/answer", data={"seq": str(seq_of(finish_page)), "choice": "1"})
        finish_page = client.get(url).text
    assert len(rows(results)) == 1 and "already" in text(finish_page)


def test_the_setting_off_records_nothing_and_is_remembered(client, results, tmp_path):
    assert 'id="record" checked' in client.get("/").text
    assert client.post("/settings/record", data={}, follow_redirects=False).status_code == 303
    start = client.get("/").text
    assert 'id="record" checked' not in start and "Recording is off" in text(start)
    page = finish(client, new_game(client))
    assert "Not recorded: recording is off" in text(page) and not results.exists()
    # remembered: a new server on the same database keeps it off
    from fastapi.testclient import TestClient
    with TestClient(create_app(tmp_path / "web.sqlite")) as again:
        assert 'id="record" checked' not in again.get("/").text
        assert again.post("/settings/record", data={"record": "on"}).status_code == 200
        assert 'id="record" checked' in again.get("/").text


def test_a_game_against_the_policy_is_not_recorded(client, results):
    page = finish(client, new_game(client, **{"side.robot": "policy"}))
    assert 'id="recorded"' not in page and not results.exists()


@pytest.mark.parametrize("damage", ["corrupt", "unwritable"])
def test_a_results_file_that_cannot_be_used_costs_one_line_and_nothing_else(client, tmp_path, monkeypatch, damage):
    if damage == "corrupt":
        path = tmp_path / "results.sqlite"
        path.write_bytes(b"this is not a database" * 100)
    else:
        (tmp_path / "blocker").write_text("a file where a folder should be")
        path = tmp_path / "blocker" / "results.sqlite"
    monkeypatch.setenv("PAPERROBOT_RECORDS", str(path))
    before = path.read_bytes() if path.exists() else None
    url = new_game(client)
    page = finish(client, url)  # the game plays to its end all the same
    said = re.search(r'<p class="note" id="recorded">(.*?)</p>', page, re.S).group(1)
    assert said.startswith("Not recorded: ") and str(path) in said and "\n" not in said
    assert "cannot use the results file" in said and 'id="record-again"' in page
    game = client.app_state.store.get(int(url.rsplit("/", 1)[1]))
    assert game.status == "finished" and game.answers >= 2  # nothing lost
    assert (path.read_bytes() if path.exists() else None) == before  # the file left as it was
    start = client.get("/")
    assert start.status_code == 200 and (damage == "unwritable" or 'id="results-error"' in start.text)
    # fixed (the file moved away): "Record it now" records the game
    monkeypatch.setenv("PAPERROBOT_RECORDS", str(tmp_path / "fixed.sqlite"))
    again = client.post(url + "/record")
    assert again.status_code == 200 and "Recorded in your results" in text(again.text)
    assert len(rows(tmp_path / "fixed.sqlite")) == 1


# ------------------------------------------------------------------------------------------ the rating
def fit_json(game="counting", setup=None, handicap=False, rungs=()):
    params, coef, cov = ["side"], [0.3], [[0.01]]
    if handicap:
        params, coef, cov = ["side", "handicap"], [0.3, -0.04], [[0.01, 0.0], [0.0, 0.0001]]
    return {"game": game, "setup": setup if setup is not None else {"target": 7}, "unit": "points",
            "rungs": list(rungs), "model": {"params": params, "coef": coef, "cov": cov}}


def add_games(path, game, setup, scores, handicap=0.0):
    records = Records(path)
    for i, score in enumerate(scores):
        records.add(Record(game, dict(setup), handicap, i, "player", "robot", "player" if score == 1 else "robot",
                           score, "reached", 3, 1, 0.0))
    records.close()


def upload(client, data: dict | bytes, name="fit.json"):
    body = data if isinstance(data, bytes) else json.dumps(data).encode()
    return client.post("/settings/ladder", files={"fit": (name, body, "application/json")}, follow_redirects=False)


def test_the_rating_is_what_paperrobot_rating_prints(client, results, tmp_path):
    from typer.testing import CliRunner

    from paperrobot.cli.main import app
    from paperrobot.sim.person import person_report

    data = fit_json(rungs=[{"name": "policy", "rating": 958.0}, {"name": "robot", "rating": 1000.0}])
    add_games(results, "counting", {"target": 7}, [1, 0, 0, 1, 0, 0.5, 0, 1])
    add_games(results, "counting", {"target": 9}, [1])  # another set-up: counted and left out
    assert upload(client, data).status_code == 303
    panel = text(client.get("/").text)
    report = person_report("counting", rows(results), data)
    assert report.rated and len(report.lines) >= 3
    for line in report.lines:
        assert line.strip() in panel
    (tmp_path / "fit.json").write_text(json.dumps(data))
    printed = CliRunner().invoke(app, ["rating", "counting", "--ladder", str(tmp_path / "fit.json"),
                                       "--records", str(results)])
    assert printed.exit_code == 0, printed.output
    assert [line for line in printed.output.splitlines() if line.strip()] == report.lines  # the same sentences
    assert "your rating" in panel and "W-D-L 3-1-4" in panel and "nearest rung" in panel


def test_few_games_say_so_plainly(client, results):
    add_games(results, "counting", {"target": 7}, [1, 0, 0])
    assert upload(client, fit_json()).status_code == 303
    assert "counting: 3 games recorded: play a few more for a rating" in text(client.get("/").text)


def test_a_ladder_that_is_not_one_is_refused_and_changes_nothing(client):
    for body in (b"not json", json.dumps({"game": "counting"}).encode(),
                 json.dumps(fit_json(game="no-such-game")).encode()):
        refused = upload(client, body)
        assert refused.status_code == 400 and "nothing was changed" in refused.text
    assert client.app_state.store.settings("ladder:") == {}
    assert client.post("/settings/ladder", data={}).status_code == 400
    assert upload(client, fit_json()).status_code == 303
    assert client.post("/settings/ladder", data={"remove": "counting"}, follow_redirects=False).status_code == 303
    assert client.app_state.store.settings("ladder:") == {}


def test_the_start_forms_suggested_difficulty_is_the_persons_own_or_names_its_rung(client, results):
    setup = {"robot_ship": "d7", "player_ship": "federation-ca"}
    note = re.compile(r'id="suggested-play-fc">(.*?)</small>', re.S)
    before = text(note.search(client.get("/").text).group(1))
    assert "against the policy rung" in before and "not a person" in before and "for you" not in before.lower()
    add_games(results, "fc", setup, [1, 0, 0, 1, 0, 0, 1, 0, 0, 0], handicap=-10.0)
    assert upload(client, fit_json("fc", setup, handicap=True)).status_code == 303
    after = text(note.search(client.get("/").text).group(1))
    from paperrobot.sim.person import person_report
    report = person_report("fc", rows(results), fit_json("fc", setup, handicap=True))
    assert after.startswith(f"Suggested for you: {round(report.even):+d} points") and "policy" not in after
    assert f"your rating {report.rating.rating:.0f}" in after and "robot_ship=d7" in after


# ------------------------------------------------------------------------------------------ the assistants
def test_an_armada_table_session_is_recorded_when_the_person_says_who_won(client, results):
    url = client.post("/assist/armada", data={"fleet": "victory-ii,tie-fighter*2", "seed": "4"}).url.path
    page = client.get(url).text
    assert 'id="end-rebel"' in page
    ended = client.post(url + "/end", data={"count": "0", "winner": "rebel"})
    assert ended.status_code == 200 and 'id="game-over"' in ended.text and "Recorded in your results" in ended.text
    [row] = rows(results)
    assert (row.game, row.person_side, row.winner, row.score, row.setup) == ("armada", "rebel", "rebel", 1.0,
                                                                               {"fleet": "victory-ii,tie-fighter*2"})
    asked = client.post(url + "/answer", data={"count": "0", "verb": "style", "args": ""})
    assert asked.status_code == 409 and len(rows(results)) == 1
    assert client.post(url + "/end", data={"count": "0", "winner": "x"}).status_code == 400


def test_an_sfb_table_session_the_program_sees_to_its_end_is_recorded(client, results):
    url = client.post("/assist/sfb", data={"game": "sfb", "o.scenario": "5", "seed": "3", "dice": "program"}).url.path
    page = client.get(url).text
    for _ in range(400):
        if 'id="game-over"' in page:
            break
        seq = re.search(r'name="seq" value="(\d+)"', page).group(1)
        page = client.post(url + "/answer", data={"seq": seq, "action": "answer", "answer": ""}).text
    assert 'id="game-over"' in page and "Recorded in your results" in text(page)
    [row] = rows(results)
    assert row.game == "sfb" and row.person_side != "robot" and row.source.endswith(":" + url.rsplit("/", 1)[1])


def test_an_armada_session_not_recorded_is_recorded_again_once_the_file_is_fixed(client, tmp_path, monkeypatch):
    (tmp_path / "blocker").write_text("a file where a folder should be")
    monkeypatch.setenv("PAPERROBOT_RECORDS", str(tmp_path / "blocker" / "results.sqlite"))
    url = client.post("/assist/armada", data={"fleet": "victory-ii", "seed": "2"}).url.path
    record = "/games/" + url.rsplit("/", 1)[1] + "/record"
    assert client.post(record).status_code == 409  # not ended yet: nothing to record
    ended = client.post(url + "/end", data={"count": "0", "winner": "imperial"})
    assert 'id="game-over"' in ended.text and "Not recorded: " in ended.text and 'id="record-again"' in ended.text
    monkeypatch.setenv("PAPERROBOT_RECORDS", str(tmp_path / "fixed.sqlite"))
    again = client.post(record)
    assert again.status_code == 200 and "Recorded in your results" in again.text
    [row] = rows(tmp_path / "fixed.sqlite")
    assert (row.winner, row.score) == ("imperial", 0.0)


def test_the_game_over_page_shows_the_rating_only_for_a_rated_game(client, results):
    rated = finish(client, new_game(client))
    assert 'id="your-results"' in rated and 'id="record-form"' not in rated  # the settings are on the start page
    unrated = finish(client, new_game(client, **{"side.robot": "policy"}))
    assert 'id="your-results"' not in unrated
