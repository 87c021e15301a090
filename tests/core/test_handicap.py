"""The handicap set-up option of every game: points turned into shield boxes (FC, SFB) or squadrons (Armada),
the price tables (built-in and a person's own), and the command line's --handicap (docs/balance.md)."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

import paperrobot
from paperrobot.cli.main import app
from paperrobot.core import handicap as hc
from paperrobot.core.errors import PaperRobotError

runner = CliRunner()


def test_boxes_spread_round_the_shields_from_number_one():
    assert hc.spread_boxes((30, 22, 22, 22, 22, 22), 0) == (30, 22, 22, 22, 22, 22)
    assert hc.spread_boxes((30, 22, 22, 22, 22, 22), 8) == (32, 24, 23, 23, 23, 23)
    assert hc.units_for(30, 0.6) == 50 and hc.units_for(-30, 0.6) == 50 and hc.units_for(4, 8) == 1
    assert hc.units_for(3, 8) == 0


def test_every_game_has_a_bounded_whole_number_handicap_defaulting_to_zero():
    for name in ("fc", "sfb", "armada"):
        option = paperrobot.game_info(name).option("handicap")
        assert option.kind == "int" and option.default == 0 and option.low < 0 < option.high
        with pytest.raises(PaperRobotError, match="handicap must be from"):
            paperrobot.game_info(name).check_setup({"handicap": option.high + 1})
    assert paperrobot.game_info("sfb").handicap_unit == "BPV"
    assert paperrobot.game_info("armada").handicap_unit == "fleet points"


def test_fc_points_buy_shield_boxes_for_the_robot_or_for_the_player():
    plain = paperrobot.new_game("fc", seed=1).engine.ships
    more = paperrobot.new_game("fc", seed=1, handicap=30).engine.ships  # 30 / 0.6 = 50 boxes
    assert sum(more["robot"].shield_max) == sum(plain["robot"].shield_max) + 50
    assert more["player"].shield_max == plain["player"].shield_max
    assert list(more["robot"].shields) == list(more["robot"].shield_max)  # a ship starts with its shields up
    less = paperrobot.new_game("fc", seed=1, handicap=-30).engine.ships
    assert sum(less["player"].shield_max) == sum(plain["player"].shield_max) + 50
    assert less["robot"].shield_max == plain["robot"].shield_max


def test_sfb_bpv_buy_shield_boxes_split_over_the_robot_ships():
    ships = paperrobot.new_game("sfb", seed=1, scenario="4", robots=3, handicap=23).engine.ships  # 20 boxes
    robots = [s for s in ships if s.side == "robot"]
    assert [sum(s.shields) for s in robots] == [64 + 7, 64 + 7, 64 + 6]
    player = [s for s in ships if s.side == "player"][0]
    assert sum(player.shields) == 70
    ships = paperrobot.new_game("sfb", seed=1, scenario="5", handicap=-23).engine.ships
    assert [sum(s.shields) for s in ships] == [70 + 20, 64]


def test_armada_points_buy_squadrons_for_the_imperials_or_the_rebels():
    plain = paperrobot.new_game("armada", seed=1).engine.setup
    more = paperrobot.new_game("armada", seed=1, handicap=20).engine.setup  # 20 / 8 = 2.5 -> 3 TIE fighters
    assert more.imperial == plain.imperial + ["tie-fighter"] * 3 and more.rebel == plain.rebel
    less = paperrobot.new_game("armada", seed=1, handicap=-14).engine.setup  # 14 / 7 = 2 Z-95s
    assert less.rebel == plain.rebel + ["z-95"] * 2 and less.imperial == plain.imperial


def test_a_persons_own_price_table(tmp_path):
    cheap = tmp_path / "cheap.toml"
    cheap.write_text('mechanism = "shield-boxes"\npoints_per_box = 1.5\nsource = "my table"\n')
    ships = paperrobot.new_game("fc", seed=1, handicap=30, handicap_prices=str(cheap)).engine.ships
    assert sum(ships["robot"].shield_max) == 140 + 20
    mine = tmp_path / "bombers.toml"
    mine.write_text('mechanism = "squadrons"\nrobot_unit = "tie-bomber"\nplayer_unit = "y-wing"\n')
    setup = paperrobot.new_game("armada", seed=1, handicap=18, handicap_prices=str(mine)).engine.setup
    assert setup.imperial.count("tie-bomber") == 2


@pytest.mark.parametrize("text, words", [
    ('mechanism = "shield-boxes"\npoints_per_box = 0\n', "points_per_box"),
    ('mechanism = "shield-boxes"\npoints_per_box = 1\nprice = 2\n', "price"),
    ('mechanism = "boxes"\npoints_per_box = 1\n', "mechanism"),
    ('mechanism = "shield-boxes"\npoints_per_box = \n', "not valid TOML"),
])
def test_a_bad_price_table_is_one_line_naming_file_and_field(tmp_path, text, words):
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    with pytest.raises(PaperRobotError) as error:
        paperrobot.new_game("sfb", seed=1, handicap=10, handicap_prices=str(bad))
    assert str(bad) in str(error.value) and words in str(error.value) and "\n" not in str(error.value)


def test_an_armada_price_table_must_name_a_squadron_of_the_side(tmp_path):
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('mechanism = "squadrons"\nrobot_unit = "x-wing"\nplayer_unit = "z-95"\n')
    with pytest.raises(PaperRobotError, match="give a imperial squadron|imperial"):
        paperrobot.new_game("armada", seed=1, handicap=16, handicap_prices=str(wrong))


def test_handicap_zero_gives_the_same_game():
    for name, setup, sides in (("fc", {}, {"robot": "robot", "player": "policy"}),
                               ("sfb", {"scenario": "5"}, {"robot": "robot", "player": "policy"})):
        a = paperrobot.new_game(name, seed=5, **setup)
        b = paperrobot.new_game(name, seed=5, handicap=0, **setup)
        from paperrobot.core.contract import drive_all
        assert drive_all(a, sides) == drive_all(b, sides)


def test_battle_says_what_the_handicap_gives_and_refuses_a_bad_one(tmp_path):
    result = runner.invoke(app, ["battle", "fc", "--decisions", "--seed", "2", "--handicap", "30"])
    assert result.exit_code == 0, result.output
    assert "Handicap +30 points: the robot gets 50 extra shield boxes" in result.output and "provisional" in result.output
    result = runner.invoke(app, ["battle", "sfb", "--no-maps", "--decisions", "--handicap", "-23"])
    assert result.exit_code == 0 and "Handicap -23 BPV: your side gets 20 extra shield boxes" in result.output
    result = runner.invoke(app, ["battle", "armada", "--quiet", "--handicap", "16"])
    assert result.exit_code == 0
    for game in ("fc", "sfb", "armada"):
        bad = runner.invoke(app, ["battle", game, "--handicap", "9999"])
        assert bad.exit_code == 2 and "handicap must be from" in bad.output and len(bad.output.strip().splitlines()) == 1
    missing = runner.invoke(app, ["simulate", "fc", "--games", "2", "--handicap", "5", "--handicap-prices",
                                  str(tmp_path / "none.toml")])
    assert missing.exit_code == 2 and "no such file" in missing.output
