"""The handicap's line before a game comes from the game's front-end hook (core/frontend.py) found through the
registry: cli/ holds no wording of its own, a game with no hook gets core's bare figure, and SFB's and FC's shared
hooks (shield boxes at a price, ships from a folder) live once in core/ship_frontend.py."""
import pytest
from typer.testing import CliRunner

import paperrobot
from paperrobot.cli.common import handicap_line
from paperrobot.cli.main import app
from paperrobot.core.frontend import Frontend
from paperrobot.core.ship_frontend import ShipFrontend
from tests.cli.test_front_door import TOY, toy  # noqa: F401 (the fixture)


def test_a_game_without_hooks_gets_the_bare_figure_from_core():
    assert Frontend().handicap_line({"handicap": 3}) == "Handicap +3 for the robot"
    assert Frontend().handicap_line({"handicap": 0}) == Frontend().handicap_line({}) == ""


def test_the_toy_game_says_its_handicap_through_the_hook(toy):  # noqa: F811
    assert handicap_line(TOY, {"handicap": -4}) == "Handicap -4 for the robot"
    result = CliRunner().invoke(app, ["battle", TOY, "--handicap", "5", "--seed", "1", "--opponent", "robot"])
    assert result.exit_code == 0 and "Handicap +5 for the robot" in result.output, result.output


def test_cli_says_what_the_games_hook_says(toy, monkeypatch):  # noqa: F811
    monkeypatch.setattr(Frontend, "handicap_line", lambda self, setup: f"the hook's own line ({setup['handicap']})")
    assert handicap_line(TOY, {"handicap": 2}) == "the hook's own line (2)"


@pytest.mark.parametrize("game,line", [
    ("sfb", "Handicap +6 BPV: the robot gets 5 extra shield boxes, spread over the six shields from #1 (1.15 BPV a box) "
            "(a provisional price; see docs/balance.md)"),
    ("fc", "Handicap -3 points: your side gets 5 extra shield boxes, spread over the six shields from #1 (0.6 points "
           "a box) (a provisional price; see docs/balance.md)")])
def test_sfb_and_fc_share_the_shield_box_hooks_from_core(game, line):
    info = paperrobot.game_info(game)
    front = info.frontend()
    assert isinstance(front, ShipFrontend)
    for hook in ("handicap_line", "ship_names", "ship_list"):
        assert hook not in vars(type(front)), f"{game} keeps its own {hook}"
    handicap = 6 if game == "sfb" else -3
    assert handicap_line(game, {"handicap": handicap}) == line
    assert front.ship_names(None) == sorted(front.load_ships(None)) and len(front.ship_list(None)) > 2


def test_armadas_line_reads_its_prices_from_the_handicap_module(monkeypatch):
    from paperrobot.armada import handicap as armada_handicap
    real, asked = armada_handicap.handicap_prices, []

    def spy(path=""):
        asked.append(path)
        return real(path)
    monkeypatch.setattr(armada_handicap, "handicap_prices", spy)
    line = handicap_line("armada", {"handicap": 16})
    assert asked == [""] and line.startswith("Handicap +16 fleet points: the Imperial AI gets 2 extra")
