"""End to end: scenario #4 and #5 battles finish with an Outcome, robot vs policy and robot vs robot."""
import pytest

from paperrobot import sfb
from paperrobot.core.errors import UnknownName
from paperrobot.core.events import EventLog


def test_public_api_names():
    for name in ("SIDES", "scenario_names", "scenario_title", "load_ships", "ship_sheet", "new_game", "narrator",
                 "play_battle", "Robot", "Policy", "Game", "EnergyAllocation"):
        assert hasattr(sfb, name), name
    assert sfb.SIDES == ("player", "robot")
    assert sfb.scenario_names() == ["4", "5", "6", "6k", "6k-kr", "6kr", "duel"]
    assert sfb.scenario_title("5") == "Encounter"


@pytest.mark.parametrize("scenario", ["4", "5"])
@pytest.mark.parametrize("opponent", ["policy", "robot"])
def test_battles_finish(scenario, opponent):
    for seed in range(4):
        outcome = sfb.play_battle(seed, scenario=scenario, opponent=opponent)
        assert outcome.winner in (None, *sfb.SIDES)
        assert 1 <= outcome.turns <= 20


def test_setup_event_first_and_replay_identical():
    logs = []
    for _ in range(2):
        log = EventLog()
        sfb.new_game("5", seed=7, log=log).run()
        logs.append(log.to_jsonl())
    assert logs[0] == logs[1]
    first = EventLog()
    sfb.new_game("5", seed=7, log=first).emit_setup()  # the first event of the sequence of play
    assert first.events[0].kind == "setup" and first.events[0].data["game"] == "sfb"


def test_bad_names():
    with pytest.raises(UnknownName, match="unknown scenario"):
        sfb.new_game("9", seed=1)
    with pytest.raises(UnknownName, match="unknown ship"):
        sfb.new_game("5", seed=1, robot_ship="enterprise")
    assert sfb.new_game("5", seed=1, robot_ship="romulan-kr")  # every cadet ship may fly (scenario #6 rules)
    with pytest.raises(UnknownName, match="unknown option"):
        sfb.new_game("5", seed=1, options={"warp": 9})
