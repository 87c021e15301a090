"""The measured even points (sim/even_points.toml) as the suggested difficulty: matched on the whole set-up."""
import math

import pytest

from paperrobot.sim import even_points

RECORD = '''
[[even]]
game = "fc"
opponent = "policy"
h50 = -44.7
low = -49.0
high = -40.8
unit = "points"
command = "paperrobot balance fc --set robot_ship=d7 --fresh-seeds --out reports/x"
setup = {robot_ship = "d7", player_ship = "federation-ca"}
'''


def test_the_even_point_of_the_same_set_up_is_suggested(tmp_path, monkeypatch):
    path = tmp_path / "even_points.toml"
    path.write_text(RECORD)
    monkeypatch.setattr(even_points, "FILE", path)
    monkeypatch.setattr(even_points, "LADDER_FILE", tmp_path / "none.toml")
    even_points.load.cache_clear()
    try:
        point = even_points.suggestion("fc", {"robot_ship": "d7", "map": "floating", "handicap": 0})
        assert point is not None and point.h50 == -44.7 and point.text() == "-45 points (95% -49 to -41) against the policy"
        assert even_points.suggestion("fc", {"robot_ship": "kzinti-bc"}) is None
        assert even_points.suggestion("fc", {"robot_ship": "d7"}, opponent="robot") is None
        assert even_points.suggestion("sfb", {}) is None
        assert "default set-up" not in even_points.listing("fc") and "-45 points" in even_points.listing("fc")
        assert even_points.listing("armada") == "none measured yet"
    finally:
        even_points.load.cache_clear()


LADDER = '''
[[rung]]
game = "fc"
rung = "policy"
rating = 640.5
rating_low = 560.0
rating_high = 720.0
h50 = -40.0
low = -50.0
high = -30.0
unit = "points"
command = "paperrobot ladder fc ..."
setup = {robot_ship = "d7", player_ship = "federation-ca"}

[[rung]]
game = "fc"
rung = "search:10"
rating = 910.0
rating_low = 800.0
rating_high = 1020.0
h50 = -12.0
low = -25.0
high = 1.0
unit = "points"
command = "paperrobot ladder fc ..."
setup = {robot_ship = "d7", player_ship = "federation-ca"}

[[rung]]
game = "fc"
rung = "random"
rating = 10.0
unit = "points"
command = "paperrobot ladder fc ..."
setup = {robot_ship = "d7", player_ship = "federation-ca"}
'''


def test_each_rung_is_named_with_its_ladder_rating(tmp_path, monkeypatch):
    """Issue 23: the suggested difficulty names the rung it is measured against and that rung's strength; a rung
    without a sweep gets the ladder fit's even point, and the curve over rungs is ordered by rating."""
    (tmp_path / "even.toml").write_text(RECORD)
    (tmp_path / "ladder.toml").write_text(LADDER)
    monkeypatch.setattr(even_points, "FILE", tmp_path / "even.toml")
    monkeypatch.setattr(even_points, "LADDER_FILE", tmp_path / "ladder.toml")
    even_points.load.cache_clear()
    try:
        setup = {"robot_ship": "d7", "player_ship": "federation-ca"}
        policy = even_points.suggestion("fc", setup)
        assert policy.how == "sweep" and policy.h50 == -44.7 and policy.rating == 640.5  # the sweep's own figure
        assert policy.text() == ("-45 points (95% -49 to -41) against the policy, rated 640 (95% 560 to 720) on the "
                                 "opponent ladder, where the robot is 1000")
        search = even_points.suggestion("fc", setup, opponent="search:10")
        assert search.how == "ladder fit" and search.h50 == -12.0 and search.rating == 910.0
        assert [p.opponent for p in even_points.curve("fc", setup)] == ["policy", "search:10"]
        assert even_points.suggestion("fc", setup, opponent="random") is None  # rated, but no even point
        assert even_points.curve("fc", {"robot_ship": "kzinti-bc"}) == []
    finally:
        even_points.load.cache_clear()


def test_the_shipped_file_reads():
    even_points.load.cache_clear()
    for point in even_points.load():
        assert point.game in ("fc", "sfb", "armada") and point.low <= point.h50 <= point.high and point.command
        assert point.rating is None or point.rating_low <= point.rating <= point.rating_high


def test_the_suggested_difficulty_line_names_whose_even_point_it_is(capsys):
    """Issue 23: the start-of-game line never presents the policy's even point as the person's."""
    from paperrobot.cli.common import show_handicap

    even_points.load.cache_clear()
    show_handicap("fc", {"robot_ship": "d7", "player_ship": "federation-ca"}, "policy")
    line = capsys.readouterr().out
    assert "even fight for PaperRobot's heuristic policy" in line
    assert "A stronger player should give the robot more" in line and "paperrobot rating" in line


def test_where_no_handicap_evens_the_planner_the_line_does_not_promise_that_more_will(capsys):
    """Armada (the shipped data): no squadron handicap up to +200 evens the AI against search:50, so "give the robot
    more" is said with its limit; FC's line, whose planner has an even point, has no such limit."""
    from paperrobot.cli.common import show_handicap

    even_points.load.cache_clear()
    show_handicap("armada", {}, "policy")
    line = capsys.readouterr().out.replace("\n", " ")
    assert "no handicap up to +200" in line
    assert "A stronger player should give the robot more, though against a player that plans" in line
    show_handicap("fc", {"robot_ship": "d7", "player_ship": "federation-ca"}, "policy")
    assert "though against a player that plans" not in capsys.readouterr().out


def test_the_search_players_sweep_is_named_beside_the_policys(tmp_path, monkeypatch, capsys):
    """Issue 22: where a balance sweep against search:50 is measured for the set-up, the line gives it too (the
    policy is weaker than the robot; the search player beats it clearly); a ladder fit alone is not enough."""
    from paperrobot.cli.common import show_handicap

    searched = RECORD.replace('opponent = "policy"', 'opponent = "search:50"').replace("h50 = -44.7", "h50 = 21.0") \
        .replace("low = -49.0", "low = 12.0").replace("high = -40.8", "high = 30.0")
    (tmp_path / "even.toml").write_text(RECORD + searched)
    monkeypatch.setattr(even_points, "FILE", tmp_path / "even.toml")
    monkeypatch.setattr(even_points, "LADDER_FILE", tmp_path / "none.toml")
    even_points.load.cache_clear()
    setup = {"robot_ship": "d7", "player_ship": "federation-ca"}
    try:
        show_handicap("fc", setup, "policy")
        line = capsys.readouterr().out.replace("\n", " ")
        assert "--handicap -45 makes an even fight for PaperRobot's heuristic policy" in line
        assert "against its search player (search:50" in line and "--handicap +21 points (95% +12 to +30)" in line
        (tmp_path / "even.toml").write_text(RECORD)
        monkeypatch.setattr(even_points, "LADDER_FILE", tmp_path / "ladder.toml")
        (tmp_path / "ladder.toml").write_text(LADDER.replace('rung = "search:10"', 'rung = "search:50"'))
        even_points.load.cache_clear()
        show_handicap("fc", setup, "policy")
        assert "search player" not in capsys.readouterr().out  # only the ladder's joint fit: not named
    finally:
        even_points.load.cache_clear()


def test_a_rung_is_named_with_its_rating_from_the_players_seat(tmp_path, monkeypatch):
    """Issue 23: where the ladder has the seat's rating (rating + side term), the line gives that one: it is what
    the rung's score against the robot reads; a sweep's row in ladder_points.toml says it is a sweep's."""
    seated = LADDER.replace('rating_high = 720.0\n', 'rating_high = 720.0\nseat = 520.0\nseat_low = 450.0\n'
                            'seat_high = 590.0\nhow = "sweep"\n', 1)
    (tmp_path / "ladder.toml").write_text(seated)
    monkeypatch.setattr(even_points, "FILE", tmp_path / "none.toml")
    (tmp_path / "none.toml").write_text("")
    monkeypatch.setattr(even_points, "LADDER_FILE", tmp_path / "ladder.toml")
    even_points.load.cache_clear()
    try:
        point = even_points.suggestion("fc", {"robot_ship": "d7"}, opponent="policy")
        assert point.how == "sweep"
        assert point.rated() == (", rated 520 from the player's seat (95% 450 to 590) on the opponent ladder, "
                                 "where the robot is 1000")
        other = even_points.suggestion("fc", {"robot_ship": "d7"}, opponent="search:10")
        assert other.how == "ladder fit" and other.rated().startswith(", rated 910 (95% 800 to 1020)")
    finally:
        even_points.load.cache_clear()


def published(tmp_path, monkeypatch, setup):
    """A published ladder of FC for ``setup`` (sim/ladder_fits/fc.json) and an empty results file."""
    import json

    from paperrobot.sim import person
    from tests.web.test_people import fit_json

    folder = tmp_path / "ladder_fits"
    folder.mkdir()
    (folder / "fc.json").write_text(json.dumps(fit_json("fc", setup, handicap=True)))
    monkeypatch.setattr(person, "PUBLISHED", folder)
    records = tmp_path / "results.sqlite"
    monkeypatch.setenv("PAPERROBOT_RECORDS", str(records))
    return records


def test_the_suggested_difficulty_is_the_persons_own_once_they_have_a_rating(tmp_path, monkeypatch, capsys):
    """Issue 23: with five or more recorded games of the set-up on the game's published ladder, the start of a
    game gives the person's own even handicap (the figure 'paperrobot rating' gives), not a program's."""
    from paperrobot.cli.common import show_handicap
    from paperrobot.sim.person import person_report, published_fit
    from paperrobot.sim.records import Records
    from tests.web.test_people import add_games

    setup = {"robot_ship": "d7", "player_ship": "federation-ca"}
    records = published(tmp_path, monkeypatch, setup)
    add_games(records, "fc", setup, [1, 0, 0, 1])
    show_handicap("fc", setup, "policy", person=True)
    assert "even fight for PaperRobot's heuristic policy" in capsys.readouterr().out  # four games: no rating yet
    add_games(records, "fc", setup, [0, 0, 1, 0, 0, 0], handicap=-10.0)
    show_handicap("fc", setup, "policy")  # a battle of programs: the person's figure is not theirs
    assert "for you" not in capsys.readouterr().out
    show_handicap("fc", setup, "policy", person=True)
    line = capsys.readouterr().out.replace("\n", " ")
    stored = Records(records, create=False)
    report = person_report("fc", stored.games("fc"), published_fit("fc"))
    stored.close()
    assert f"--handicap {round(report.even):+d} points" in line and "even for you" in line
    assert f"your rating {report.rating.rating:.0f}" in line and "policy" not in line
    show_handicap("fc", {"robot_ship": "d7", "player_ship": "kzinti-bc"}, "policy", person=True)  # not rated
    assert "for you" not in capsys.readouterr().out


def test_rating_reads_the_published_ladder_when_none_is_given(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from paperrobot.cli.main import app
    from tests.web.test_people import add_games

    setup = {"robot_ship": "d7", "player_ship": "federation-ca"}
    records = published(tmp_path, monkeypatch, setup)
    add_games(records, "fc", setup, [1, 0, 0, 1, 0, 0, 1])
    printed = CliRunner().invoke(app, ["rating", "fc"])
    assert printed.exit_code == 0 and "fc: your rating" in printed.output, printed.output
    rating = float(printed.output.split("your rating ")[1].split()[0])
    seat = float(printed.output.replace("\n", " ").split("from the player's seat ")[1].split(",")[0])
    assert seat == pytest.approx(rating + 0.3 * 400 / math.log(10), abs=1)  # the ladder's side term, 0.3 logit
    add_games(records, "sfb", {"scenario": "5"}, [1])
    (tmp_path / "ladder_fits" / "fc.json").unlink()
    refused = CliRunner().invoke(app, ["rating"])
    assert refused.exit_code != 0 and "no ladder of fc is published yet" in refused.output
    assert "give --ladder DIR" in refused.output and "Traceback" not in refused.output


def test_a_sweep_that_found_no_even_point_is_said_beside_the_policys(tmp_path, monkeypatch, capsys):
    """Issue 22/23: Armada's sweep against search:50 found no handicap within the limits that evens the fight; the
    first line says so rather than naming only the policy's figure (a row with ``none`` and no ``h50``)."""
    from paperrobot.cli.common import show_handicap

    none = ('\n[[even]]\ngame = "fc"\nopponent = "search:50"\nnone = "no handicap up to +300 points makes an even '
            'fight"\nunit = "points"\ncommand = "x"\nsetup = {robot_ship = "d7", player_ship = "federation-ca"}\n')
    (tmp_path / "even.toml").write_text(RECORD + none)
    monkeypatch.setattr(even_points, "FILE", tmp_path / "even.toml")
    monkeypatch.setattr(even_points, "LADDER_FILE", tmp_path / "none.toml")
    even_points.load.cache_clear()
    setup = {"robot_ship": "d7", "player_ship": "federation-ca"}
    try:
        assert [p.opponent for p in even_points.load()] == ["policy"]  # not an even point
        assert even_points.beyond("fc", setup, "search:50") == "no handicap up to +300 points makes an even fight"
        assert even_points.beyond("fc", {"robot_ship": "kzinti-bc"}, "search:50") is None
        show_handicap("fc", setup, "policy")
        line = capsys.readouterr().out.replace("\n", " ")
        assert "--handicap -45 makes an even fight for PaperRobot's heuristic policy" in line
        assert "against its search player (search:50) no handicap up to +300 points makes an even fight" in line
    finally:
        even_points.load.cache_clear()
