"""The person's results file (sim/records.py): a game recorded once per source, an older file upgraded in place with
its rows kept, a file that is not one refused with one line and left as it was; sim/person.py's rating lines."""
from __future__ import annotations

import sqlite3

import pytest

from paperrobot.core.errors import PaperRobotError
from paperrobot.sim.records import SCHEMA_VERSION, Record, Records, record_result

V1 = """
CREATE TABLE person_games (
    id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, setup TEXT NOT NULL, handicap REAL NOT NULL,
    seed INTEGER NOT NULL, person_side TEXT NOT NULL, opponent TEXT NOT NULL, winner TEXT, score REAL NOT NULL,
    result TEXT NOT NULL, turns INTEGER NOT NULL, engine_version INTEGER NOT NULL, finished REAL NOT NULL);
INSERT INTO person_games (game, setup, handicap, seed, person_side, opponent, winner, score, result, turns,
    engine_version, finished) VALUES ('sfb', '{"scenario": "5"}', 0, 7, 'federation', 'robot', 'klingon', 0,
    'destroyed', 4, 1, 0);
PRAGMA user_version = 1;
"""


def result(path, source, winner="rebel"):
    return record_result("armada", {"fleet": "victory-ii"}, 4, "rebel", winner, "reported", 3, 0, path, source)


def test_a_source_is_recorded_once_and_terminal_games_every_time(tmp_path):
    path = tmp_path / "r.sqlite"
    first = result(path, "web:abc:1")
    assert first is not None and first.score == 1.0 and first.source == "web:abc:1"
    assert result(path, "web:abc:1", winner="imperial") is None  # the first ending stands
    assert result(path, "web:abc:2", winner=None).score == 0.5
    assert result(path, None) is not None and result(path, None) is not None
    records = Records(path, create=False)
    games = records.games("armada")
    assert [g.source for g in games] == ["web:abc:1", "web:abc:2", None, None]
    assert games[0].winner == "rebel" and records.has("web:abc:2") and not records.has("web:abc:3")
    records.close()


def test_a_version_1_file_gains_the_source_column_and_keeps_its_games(tmp_path):
    path = tmp_path / "old.sqlite"
    old = sqlite3.connect(path)
    old.executescript(V1)
    old.close()
    records = Records(path)
    [game] = records.games()
    assert (game.game, game.seed, game.source) == ("sfb", 7, None)
    assert records.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    records.close()
    assert result(path, "web:x:1") is not None and result(path, "web:x:1") is None


def test_a_file_that_is_not_a_results_file_is_refused_and_left_as_it_was(tmp_path):
    path = tmp_path / "r.sqlite"
    path.write_bytes(b"not a database at all" * 50)
    with pytest.raises(PaperRobotError, match="cannot use the results file"):
        result(path, "web:x:1")
    assert path.read_bytes() == b"not a database at all" * 50


def test_the_rating_lines_say_plainly_when_there_are_too_few_games():
    from paperrobot.sim.person import MIN_GAMES, person_report

    fit = {"game": "sfb", "setup": {"scenario": "5"}, "unit": "BPV",
           "model": {"params": ["side"], "coef": [0.0], "cov": [[0.0]]}}

    def games(scores, setup=None):
        return [Record("sfb", setup or {"scenario": "5"}, 0.0, i, "federation", "robot", None, s, "x", 1, 1, 0.0)
                for i, s in enumerate(scores)]
    few = person_report("sfb", games([1, 0, 0]), fit)
    assert not few.rated
    assert few.lines == [f"sfb: 3 games recorded: play a few more for a rating (it takes {MIN_GAMES})"]
    other = person_report("sfb", games([1, 0, 0, 1, 0]) + games([1], {"scenario": "6"}), fit)
    assert other.rated and other.used == 5 and other.recorded == 6
    assert other.lines[0] == "sfb: 1 of your 6 games were of another set-up than the ladder's; they are left out"
    none = person_report("sfb", games([1], {"scenario": "6"}), fit)
    assert not none.rated and "none of your sfb games is of the ladder's set-up" in none.lines[-1]


def test_a_real_ladders_fit_gives_the_sentences_rating_prints(tmp_path):
    pytest.importorskip("statsmodels")
    from typer.testing import CliRunner

    from paperrobot.cli.main import app
    from paperrobot.sim.person import person_report, read_fit
    from tests.sim import ladder_game

    ladder_game.register()
    try:
        out = tmp_path / "lad"
        made = CliRunner().invoke(app, ["ladder", ladder_game.NAME, "--out", str(out), "--batch", "40", "--games", "80",
                                        "--precision", "80", "--jobs", "1", "--quiet"])
        assert made.exit_code == 0, made.output
        path = tmp_path / "r.sqlite"
        fit = read_fit(out)
        records = Records(path)
        for i in range(12):
            records.add(Record(ladder_game.NAME, dict(fit["setup"]), 0.0, i, "player", "robot", None,
                               1.0 if i % 3 == 0 else 0.0, "destroyed", 3, 1, 0.0))
        played = records.games()
        records.close()
        printed = CliRunner().invoke(app, ["rating", ladder_game.NAME, "--ladder", str(out), "--records", str(path)])
        assert printed.exit_code == 0, printed.output
        report = person_report(ladder_game.NAME, played, fit)
        assert report.rated and [line for line in printed.output.splitlines() if line.strip()] == report.lines
    finally:
        ladder_game.unregister()
    with pytest.raises(PaperRobotError, match="not a ladder's fit.json"):
        read_fit(out / "ladder.json")
