"""The impulse procedure: movement order, turn modes for the robot, seeking impacts, limits, player orders."""
import pytest

from paperrobot import sfb
from paperrobot.core.controller import Decision
from paperrobot.core.errors import IllegalAction
from paperrobot.core.events import EventLog
from paperrobot.core.hexgrid import label, parse

from .helpers import drive, make, place, ships, weapon


def logged_game(scenario="5", **kw):
    from paperrobot.core.dice import Dice
    game = sfb.new_game(scenario, seed=0, log=EventLog(), **kw)
    game.dice = Dice.scripted()
    game.turn, game.impulse = 1, 2
    return game


def test_robot_pursuit_respects_its_own_turn_mode():
    """SFB.R2 under the ship's turn mode: with TM2 unmet the robot goes straight although a turn is closer."""
    game = logged_game()
    fed, kl = ships(game)
    place(fed, "0810", "A", speed=0)
    place(kl, "1410", "A", straight=1, speed=12)
    drive(game, game.move_ships())
    assert label(kl.hex) == "1409" and kl.facing == 0
    place(kl, "1410", "A", straight=2, speed=12)
    drive(game, game.move_ships())
    assert label(kl.hex) == "1310"  # turn mode met: it turns toward the target


def test_equal_speed_player_moves_before_robot():
    """C1.3 and docs/sfb.md 'Movement order'."""
    game = logged_game()
    fed, kl = ships(game)
    place(fed, "2010", "A", speed=12)
    place(kl, "0810", "A", speed=12)
    drive(game, game.move_ships())
    movers = [e.data["ship"] for e in game.log.events if e.kind == "moved"]
    assert movers == [fed.name, kl.name]


def test_target_entering_drone_hex_is_struck_without_the_drone_moving():
    """F2.1: the weapon does not move; it hits the shield facing it as the ship entered."""
    game = logged_game()
    fed, kl = ships(game)
    place(kl, "0410", "A")
    place(fed, "1412", "A")
    drone = game.launch_drone(kl, weapon(kl, "drone-1"), fed)
    drone.hex = parse("1410")
    place(fed, "1411", "A")
    game.execute_move(fed, "straight")  # into 1410
    game.move_seekers()
    hit = [e.data for e in game.log.events if e.kind == "damage"][0]
    assert hit["shield"] == 1 and hit["points"] == 6 and not game.drones


def test_destroyed_ship_drones_are_removed():
    """D4.41: when the launching ship is destroyed, its drones are removed."""
    game = logged_game()
    fed, kl = ships(game)
    drone = game.launch_drone(kl, weapon(kl, "drone-1"), fed)
    kl.shields = [0] * 6
    kl.excess = kl.hull = kl.warp = kl.impulse = kl.apr = kl.battery = 0
    kl.shuttle = kl.lab = kl.transporter = 0
    for w in kl.weapons:
        w.alive = False
    game.dice.script(6)
    game.resolve_volleys({(kl.name, 1): 1}, "direct")
    assert kl.destroyed and not drone.alive
    assert game.outcome.winner == "player" and game.outcome.result == "destroyed"


def test_time_limit_is_a_draw():
    outcome = sfb.new_game("5", seed=1, options={"max_turns": 1}).run()
    assert outcome.winner is None and outcome.result == "time" and outcome.turns == 1


class Orders:
    """Gives the fire answers ``fire`` (one per fire request, in turn), else the default."""

    def __init__(self, fire):
        self.fire = list(fire or ())

    def decide(self, request):
        if request.kind == "fire" and self.fire:
            return Decision(self.fire.pop(0))
        return Decision(request.default)


@pytest.mark.parametrize("bad,match", [
    (({"phaser-1#1": "klingon"}, {"phaser-1#1": "klingon"}), "only once"),
    (({"tractor": "klingon"},), "not a direct-fire weapon"),
    (({"phaser-1#1": "enterprise"},), "not a legal shot"),
])
def test_illegal_fire_orders(bad, match):
    game = sfb.new_game("5", seed=2, player=Orders(bad))
    fed, kl = ships(game)
    place(kl, "1410", "A")
    place(fed, "1407", "D")
    with pytest.raises(IllegalAction, match=match):
        game.run()


def test_player_drone_racks_obey_launch_rate():
    """FD1: a rack launches once a turn and not within 1/4 turn of its last launch."""
    game = make(player="klingon", robot="federation")
    kl, fed = ships(game)
    rack = weapon(kl, "drone-1")
    game.turn, game.impulse = 1, 14
    drive(game, game.launch_seekers())
    assert rack.ammo == 3 and len(game.drones) == 1
    game.turn, game.impulse = 2, 1
    drive(game, game.launch_seekers())
    assert rack.ammo == 3  # within 1/4 turn of impulse 14
    game.impulse = 2
    drive(game, game.launch_seekers())
    assert rack.ammo == 2


def test_setup_event_rebuilds_the_game():
    log = EventLog()
    sfb.new_game("4", seed=9, log=log, options={"robots": 3, "impulses": 8, "tiebreak": "coin"}).emit_setup()
    setup = log.events[0].data
    assert setup["scenario"] == "4" and setup["seed"] == 9 and setup["options"]["robots"] == 3
    assert {v["hex"] for v in setup["ships"].values()} == {"2817", "0117", "0116", "0115"}


def test_map_items_and_status_lines():
    game = sfb.new_game("4", seed=1)
    kinds = {item.kind for item in game.map_items()}
    assert kinds == {"ship", "objective"}
    from paperrobot.sfb.frontend import status_lines
    lines = status_lines(game, "player")
    assert any("shields 16/12/10/10/10/12" in line for line in lines)


def test_person_may_disengage_in_scenario5():
    """CTH #5: disengaging is a draw for him and a tactical victory for the robot."""
    game = sfb.new_game("5", seed=2, player=Disengager())
    outcome = game.run()
    assert outcome.winner == "robot" and outcome.result == "disengaged" and outcome.turns == 1
    assert game.impulse == 1  # announced at the end of the first impulse, not the end of the turn


class Disengager(Orders):
    def __init__(self):
        super().__init__(None)

    def decide(self, request):
        if request.kind == "disengage":
            return Decision("yes")
        return super().decide(request)


def test_drone_launched_in_targets_hex_uses_the_hex_behind_the_launcher():
    """F2.3: shield judged by backing the launcher one hex to its rear."""
    game = logged_game()
    fed, kl = ships(game)
    place(fed, "1410", "A")
    place(kl, "1410", "D")  # behind the Klingon (facing D) is 1409, straight ahead of the Fed
    game.launch_drone(kl, weapon(kl, "drone-1"), fed)
    game.move_seekers()
    hit = [e.data for e in game.log.events if e.kind == "damage"][0]
    assert hit["shield"] == 1


def test_target_may_fire_at_a_drone_launched_in_its_hex_only_in_the_launch_impulse():
    """F2.3 (an exception to F2.2): the target may fire at a seeking weapon launched in its hex, at range 0,
    in that impulse's direct-fire step; once it has moved it is no longer a legal target at range 0."""
    game = logged_game()
    fed, kl = ships(game)
    place(fed, "1410", "A")
    place(kl, "1410", "D")
    drone = game.launch_drone(kl, weapon(kl, "drone-1"), fed)
    fed.capacitor = 3
    shots = [(w.key, t) for _, _, w, t in game.fire_options(fed) if t is drone]
    assert shots, "the target may fire at the drone launched in its hex (F2.3)"
    assert game.shootable_by_target(drone, fed)
    assert game.shootable_by_target(drone, kl)  # F2.2 restricts only the target
    drone.moves = 1  # it has moved (and is, say, back in the hex): F2.2 applies again
    assert not game.shootable_by_target(drone, fed)
    assert all(t is not drone for _, _, _, t in game.fire_options(fed))
